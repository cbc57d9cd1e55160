"""Coordinate spaces at the model boundary, each converting both ways to page pixels.

A model answers boxes as four integers in its own space. `Grid` covers the normalised grids:
0–999 (ours, the default: `px = v / 999 * W`), 0–1000 (Qwen3-VL, InternVL) and Gemini's
y-first `[ymin, xmin, ymax, xmax]` on 0–1000. `ResizedPixels` covers Qwen2.5-VL, which answers
absolute pixels on the resized image it was sent, so it needs that size. Range checks live
here too, because what counts as out of bounds depends on the space.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Protocol

from pydantic import AfterValidator, Field, StrictInt, ValidationInfo

from redact_agent.boxes import Box

ModelBox = tuple[int, int, int, int]


class CoordSpace(Protocol):
    @property
    def name(self) -> str: ...

    def problem(self, box: ModelBox) -> str | None:
        """Why `box`, in model order, is invalid in this space, or None."""

    def to_pixels(self, box: ModelBox, width: int, height: int) -> Box:
        """Model box (model order) -> page pixel box `[x0, y0, x1, y1]`."""

    def from_pixels(self, box: Box, width: int, height: int) -> ModelBox:
        """Page pixel box -> nearest model box in model order (inverse of `to_pixels`)."""


def _to_xyxy(box: ModelBox, y_first: bool) -> ModelBox:
    return (box[1], box[0], box[3], box[2]) if y_first else box


def _order_problem(x0: int, y0: int, x1: int, y1: int) -> str | None:
    if x0 >= x1 or y0 >= y1:
        return "needs x0 < x1 and y0 < y1"
    return None


@dataclass(frozen=True)
class Grid:
    """A normalised grid 0..scale on both axes; `y_first` for Gemini's `[ymin, xmin, ymax, xmax]`."""

    name: str
    scale: int
    y_first: bool = False

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


@dataclass(frozen=True)
class ResizedPixels:
    """Absolute pixels on the `sent_width` x `sent_height` image the model was shown (Qwen2.5-VL)."""

    sent_width: int
    sent_height: int
    name: str = "pixels"

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


def _clamp(v: int, hi: int) -> int:
    return max(0, min(hi, v))


GRID_999 = Grid("grid999", 999)
GRID_1000 = Grid("grid1000", 1000)
GEMINI_1000 = Grid("gemini1000", 1000, y_first=True)
GRIDS: dict[str, Grid] = {g.name: g for g in (GRID_999, GRID_1000, GEMINI_1000)}


def _in_context_space(box: ModelBox, info: ValidationInfo) -> ModelBox:
    space: CoordSpace = (info.context or {}).get("space", GRID_999)
    problem = space.problem(box)
    if problem:
        raise ValueError(f"box_2d {list(box)}: {problem}")
    return box


BoxField = Annotated[
    tuple[StrictInt, StrictInt, StrictInt, StrictInt],
    AfterValidator(_in_context_space),
    Field(description="[x0, y0, x1, y1] as integers on the 0-999 grid of the page image"),
]
"""A model-given box, validated in the coordinate space passed as context `{"space": ...}`."""
