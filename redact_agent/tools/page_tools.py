"""The function-calling tools a model may use on a page: crop, zoom, ocr and run_python.

Each tool is a plain function with a pydantic argument model; its OpenAI `tools` JSON schema
is generated from that model. `call_tool` never raises for anything the model did: unknown
tools, unparsable or invalid arguments and `ToolError`s all come back as an error result the
model can read and correct. Any other exception is a bug and propagates. Boxes are given and
returned in the page's model coordinate space (0–999 grid by default), which also describes
`box_2d` in each schema.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from PIL import Image
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from redact_agent.coords import GRID_999, BoxField, CoordSpace, describe_boxes
from redact_agent.errors import RedactAgentError, describe
from redact_agent.protocol import PROTOCOL
from redact_agent.tools.ocr import OcrEngine, get_engine
from redact_agent.tools.regions import MAX_SCALE, Region, RegionError, ocr_words, region
from redact_agent.tools.sandbox import ExecResult, SandboxFailed, SandboxUnavailable


class ToolError(RedactAgentError):
    """A tool could not do what the model asked; the message goes back to the model."""


@dataclass(frozen=True)
class ToolResult:
    text: str
    images: tuple[Image.Image, ...] = ()
    error: bool = False


class PythonRunner(Protocol):
    def execute(self, code: str) -> ExecResult: ...


@dataclass
class PageContext:
    """What the tools see of one page."""

    page: Image.Image
    space: CoordSpace = GRID_999
    ocr_engine: str = PROTOCOL.ocr
    python: PythonRunner | None = None
    _engine: OcrEngine | None = field(default=None, init=False, repr=False)

    @property
    def engine(self) -> OcrEngine:
        if self._engine is None:
            self._engine = get_engine(self.ocr_engine)
        return self._engine

    def to_pixels(self, box: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
        return self.space.to_pixels(box, *self.page.size)

    def to_model(self, box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
        return self.space.from_pixels(box, *self.page.size)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CropArgs(_Args):
    box_2d: BoxField


class ZoomArgs(_Args):
    box_2d: BoxField
    scale: float = Field(2.0, ge=1.0, le=MAX_SCALE, description="magnification, 1 to 4")


class OcrArgs(_Args):
    box_2d: BoxField | None = Field(None, description="region to read; omit for the whole page")


class RunPythonArgs(_Args):
    code: str = Field(description="Python to run in the page's sandboxed Jupyter kernel")


def _region_result(ctx: PageContext, r: Region) -> ToolResult:
    info = {
        "region_box_2d": list(ctx.to_model(r.page_box)),
        "offset_px": [r.page_box[0], r.page_box[1]],
        "image_size_px": list(r.image.size),
        "scale": round(r.scale, 4),
        "mapping": "image point (u, v) is page pixel (offset_x + u / scale, offset_y + v / scale)",
    }
    return ToolResult(json.dumps(info), (r.image,))


def crop(ctx: PageContext, args: CropArgs) -> ToolResult:
    """Return the page region under box_2d as an image, with its offset and scale on the page."""
    try:
        return _region_result(ctx, region(ctx.page, ctx.to_pixels(args.box_2d)))
    except RegionError as exc:
        raise ToolError(str(exc)) from None


def zoom(ctx: PageContext, args: ZoomArgs) -> ToolResult:
    """Return the page region under box_2d magnified by scale (1-4), for small or faint text."""
    try:
        return _region_result(ctx, region(ctx.page, ctx.to_pixels(args.box_2d), args.scale))
    except RegionError as exc:
        raise ToolError(str(exc)) from None


def ocr(ctx: PageContext, args: OcrArgs) -> ToolResult:
    """Read the words of the page (or of box_2d) with OCR; word boxes are page box_2d."""
    box = ctx.to_pixels(args.box_2d) if args.box_2d is not None else None
    try:
        words = ocr_words(ctx.page, ctx.engine, box, scale=2.0 if box is not None else 1.0)
    except RegionError as exc:
        raise ToolError(str(exc)) from None
    items = [
        {"text": w.text, "box_2d": list(ctx.to_model(w.bbox)), "confidence": round(w.confidence, 3), "line": w.line}
        for w in words
    ]
    return ToolResult(json.dumps({"words": items}))


def run_python(ctx: PageContext, args: RunPythonArgs) -> ToolResult:
    """Run Python in a sandboxed kernel with the page preloaded (`page`, `W`, `H`, `crop`,
    `zoom`, `ocr`, `to_px`, `to_grid`); images passed to display() come back."""
    if ctx.python is None:
        raise ToolError("run_python is not available in this run")
    try:
        result = ctx.python.execute(args.code)
    except (SandboxUnavailable, SandboxFailed) as exc:
        raise ToolError(str(exc)) from None
    images = tuple(Image.open(io.BytesIO(png)) for png in result.images)
    return ToolResult(json.dumps(result.as_json()), images, error=result.error is not None)


@dataclass(frozen=True)
class Tool:
    name: str
    args: type[_Args]
    fn: Callable[[PageContext, Any], ToolResult]

    @property
    def description(self) -> str:
        return " ".join((self.fn.__doc__ or "").split())

    def openai_schema(self, describe_box: str = GRID_999.describe) -> dict[str, Any]:
        """The OpenAI `tools` entry; `describe_box` says what `box_2d` is (the model's space)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": describe_boxes(self.args.model_json_schema(), describe_box),
            },
        }


TOOLS: dict[str, Tool] = {
    t.name: t
    for t in (
        Tool("crop", CropArgs, crop),
        Tool("zoom", ZoomArgs, zoom),
        Tool("ocr", OcrArgs, ocr),
        Tool("run_python", RunPythonArgs, run_python),
    )
}


def call_tool(ctx: PageContext, name: str, arguments: str | dict[str, Any]) -> ToolResult:
    """Run one tool call; every model mistake becomes an error result, never an exception."""
    tool = TOOLS.get(name)
    if tool is None:
        return ToolResult(f"error: unknown tool {name!r} (tools: {', '.join(TOOLS)})", error=True)
    try:
        raw = json.loads(arguments) if isinstance(arguments, str) else arguments
        args = tool.args.model_validate(raw, context={"space": ctx.space})
    except json.JSONDecodeError as exc:
        return ToolResult(f"error: arguments are not JSON: {exc}", error=True)
    except ValidationError as exc:
        return ToolResult(f"error: bad arguments for {name}: {describe(exc)}", error=True)
    try:
        return tool.fn(ctx, args)
    except ToolError as exc:
        return ToolResult(f"error: {exc}", error=True)
