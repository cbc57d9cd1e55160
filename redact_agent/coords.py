"""Coordinate spaces at the model boundary, each converting both ways to page pixels and
describing itself to the model.

A model answers boxes as four integers in its own space. `Grid` covers the normalised grids:
0–999 (ours, the default: `px = v / 999 * W`), 0–1000 (Qwen3-VL, InternVL) and Gemini's
y-first `[ymin, xmin, ymax, xmax]` on 0–1000. Qwen2.5-VL answers absolute pixels on the resized
image it was sent: `SENT_PIXELS` is that system, and `SENT_PIXELS.on(w, h)` the space of one
sent image. A model profile holds one of these `Coordinates`; the prompt, every tool schema and
the submit schema take their description of `box_2d` from it (`describe_boxes`), so a request
never tells the model two things. Range checks live here too, because what counts as out of
bounds depends on the space. Names of spaces are looked up in `SPACES` alone.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

from pydantic import AfterValidator, StrictInt, ValidationInfo

from redact_agent.boxes import Box

ModelBox = tuple[int, int, int, int]


class CoordSpace(Protocol):
    """The space of one image as sent: checks and converts model boxes."""

    @property
    def name(self) -> str: ...

    @property
    def describe(self) -> str:
        """What a box in this space is, in words for the model."""

    def problem(self, box: ModelBox) -> str | None:
        """Why `box`, in model order, is invalid in this space, or None."""

    def to_pixels(self, box: ModelBox, width: int, height: int) -> Box:
        """Model box (model order) -> page pixel box `[x0, y0, x1, y1]`."""

    def from_pixels(self, box: Box, width: int, height: int) -> ModelBox:
        """Page pixel box -> nearest model box in model order (inverse of `to_pixels`)."""


class Coordinates(Protocol):
    """What a model profile holds: a coordinate system, made concrete for each sent image."""

    @property
    def name(self) -> str: ...

    @property
    def describe(self) -> str: ...

    @property
    def resizes(self) -> bool:
        """True when the boxes depend on the sent image's size (the image is resized for it)."""

    def on(self, width: int, height: int) -> CoordSpace:
        """The space of a sent image of this size."""


def _to_xyxy(box: ModelBox, y_first: bool) -> ModelBox:
    return (box[1], box[0], box[3], box[2]) if y_first else box


def _order_problem(x0: int, y0: int, x1: int, y1: int) -> str | None:
    if x0 >= x1 or y0 >= y1:
        return "needs x0 < x1 and y0 < y1"
    return None


def _clamp(v: int, hi: int) -> int:
    return max(0, min(hi, v))


@dataclass(frozen=True)
class Grid:
    """A normalised grid 0..scale on both axes; `y_first` for Gemini's `[ymin, xmin, ymax, xmax]`."""

    name: str
    scale: int
    describe: str
    y_first: bool = False
    resizes: bool = False

    def on(self, width: int, height: int) -> Grid:
        return self  # a grid is the same for every image

    def problem(self, box: ModelBox) -> str | None:
        if any(v < 0 or v > self.scale for v in box):
            return f"coordinate outside 0..{self.scale}"
        return _order_problem(*_to_xyxy(box, self.y_first))

    def to_pixels(self, box: ModelBox, width: int, height: int) -> Box:
        x0, y0, x1, y1 = _to_xyxy(box, self.y_first)
        s = self.scale
        return (x0 / s * width, y0 / s * height, x1 / s * width, y1 / s * height)

    def from_pixels(self, box: Box, width: int, height: int) -> ModelBox:
        s = self.scale
        x0, y0, x1, y1 = (
            _clamp(round(box[0] / width * s), s),
            _clamp(round(box[1] / height * s), s),
            _clamp(round(box[2] / width * s), s),
            _clamp(round(box[3] / height * s), s),
        )
        return _to_xyxy((x0, y0, x1, y1), self.y_first)


_PIXELS_TEXT = "absolute pixel coordinates [x0, y0, x1, y1] on the image as you see it"


@dataclass(frozen=True)
class ResizedPixels:
    """Absolute pixels on the `sent_width` x `sent_height` image the model was shown (Qwen2.5-VL)."""

    sent_width: int
    sent_height: int
    name: str = "resized-pixels"
    describe: str = _PIXELS_TEXT

    def problem(self, box: ModelBox) -> str | None:
        x0, y0, x1, y1 = box
        if min(box) < 0 or max(x0, x1) > self.sent_width or max(y0, y1) > self.sent_height:
            return f"coordinate outside the {self.sent_width}x{self.sent_height} image sent"
        return _order_problem(*box)

    def to_pixels(self, box: ModelBox, width: int, height: int) -> Box:
        sx, sy = width / self.sent_width, height / self.sent_height
        return (box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy)

    def from_pixels(self, box: Box, width: int, height: int) -> ModelBox:
        sx, sy = self.sent_width / width, self.sent_height / height
        return (
            _clamp(round(box[0] * sx), self.sent_width),
            _clamp(round(box[1] * sy), self.sent_height),
            _clamp(round(box[2] * sx), self.sent_width),
            _clamp(round(box[3] * sy), self.sent_height),
        )


@dataclass(frozen=True)
class SentPixels:
    """The system of `ResizedPixels`: boxes in the pixels of whatever image was sent."""

    name: str = "resized-pixels"
    describe: str = _PIXELS_TEXT
    resizes: bool = True

    def on(self, width: int, height: int) -> ResizedPixels:
        return ResizedPixels(width, height)


GRID_999 = Grid(
    "grid999", 999, "integers on a 0-999 grid of the image: x = 0 is the left edge, 999 the right edge (y likewise)"
)
GRID_1000 = Grid(
    "grid1000", 1000, "integers on a 0-1000 grid of the image: 0 is the left (top) edge, 1000 the right (bottom) edge"
)
GEMINI_1000 = Grid(
    "gemini1000", 1000, "[ymin, xmin, ymax, xmax] as integers on a 0-1000 grid of the image", y_first=True
)
SENT_PIXELS = SentPixels()
SPACES: dict[str, Coordinates] = {c.name: c for c in (GRID_999, GRID_1000, GEMINI_1000, SENT_PIXELS)}


def space_named(name: str, width: int, height: int) -> CoordSpace:
    """The space called `name` for an image of this size (the kernel knows spaces by name)."""
    try:
        return SPACES[name].on(width, height)
    except KeyError:
        raise ValueError(f"unknown coordinate space {name!r} (have: {', '.join(SPACES)})") from None


def describe_boxes(json_schema: dict[str, Any], describe: str) -> dict[str, Any]:
    """A copy of a JSON schema in which every `box_2d` property says what its space is."""
    out = copy.deepcopy(json_schema)

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            box = node.get("properties", {}).get("box_2d")
            if isinstance(box, dict):
                own = box.get("description")
                box["description"] = f"{own}; {describe}" if own else describe
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(out)
    return out


def _in_context_space(box: ModelBox, info: ValidationInfo) -> ModelBox:
    space: CoordSpace = (info.context or {}).get("space", GRID_999)
    problem = space.problem(box)
    if problem:
        raise ValueError(f"box_2d {list(box)}: {problem}")
    return box


BoxField = Annotated[tuple[StrictInt, StrictInt, StrictInt, StrictInt], AfterValidator(_in_context_space)]
"""A model-given box, validated in the coordinate space passed as context `{"space": ...}`;
its description comes from that space (`describe_boxes`)."""
