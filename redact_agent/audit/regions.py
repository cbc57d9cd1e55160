"""Redaction regions as gold and audits write them, and their exact areas.

A region is a pixel box, optionally with a polygon for a non-rectangular one (an outline that
steps around a paragraph, a box on a skewed page). Areas and intersections are exact: a polygon
is clipped to a box or a convex polygon and measured (`boxes.clip_polygon`, `boxes.polygon_area`),
so figures do not depend on a rasterisation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from redact_agent.boxes import Box, Point, as_array, box_problem, clip_polygon, intersections, polygon_area
from redact_agent.errors import InputError


@dataclass(frozen=True)
class Region:
    bbox: Box
    polygon: tuple[Point, ...] | None = None
    kind: str | None = None
    code: str | None = None
    score: float | None = None

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]

    @property
    def area(self) -> float:
        if self.polygon is None:
            x0, y0, x1, y1 = self.bbox
            return (x1 - x0) * (y1 - y0)
        return polygon_area(self.polygon)

    def intersection(self, box: Box) -> float:
        """The area this region shares with a box."""
        if self.polygon is None:
            return float(intersections(as_array([self.bbox]), as_array([box]))[0, 0])
        return polygon_area(clip_polygon(list(self.polygon), _corners(box)))

    def overlap(self, other: Region) -> float:
        """The area this region shares with another, whose polygon, if it has one, is convex (a
        detected box on a skewed page is a rotated rectangle)."""
        if other.polygon is None:
            return self.intersection(other.bbox)
        if self.polygon is None:
            return other.intersection(self.bbox)
        return polygon_area(clip_polygon(list(self.polygon), list(other.polygon)))


@dataclass(frozen=True)
class RegionPage:
    page_id: str
    width: int
    height: int
    regions: tuple[Region, ...]
    kind: str | None = None  # a gold page's dominant style, when its regions carry none


def _corners(box: Box) -> list[Point]:
    x0, y0, x1, y1 = box
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _region(raw: Any, where: str, width: int, height: int) -> Region:
    if not isinstance(raw, dict) or "bbox" not in raw:
        raise InputError(f"{where}: a region is an object with a bbox")
    box = raw["bbox"]
    if not isinstance(box, list) or not all(isinstance(v, (int, float)) for v in box):
        raise InputError(f"{where}: bbox must be four numbers, got {box!r}")
    problem = box_problem(box, width, height)
    if problem is not None:
        raise InputError(f"{where}: {problem}")
    polygon = raw.get("polygon")
    if polygon is not None:
        if (
            not isinstance(polygon, list)
            or len(polygon) < 3
            or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, (int, float)) for v in p) for p in polygon
            )
        ):
            raise InputError(f"{where}: a polygon is a list of three or more [x, y] points")
        polygon = tuple((float(x), float(y)) for x, y in polygon)
    x0, y0, x1, y1 = (float(v) for v in box)
    return Region((x0, y0, x1, y1), polygon, raw.get("kind"), raw.get("code"), raw.get("score"))


def load_region_page(path: Path) -> RegionPage:
    """A gold redaction page or an audit JSON; anything malformed is an InputError naming the file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: cannot read a redaction page: {exc}") from None
    if not isinstance(raw, dict) or not all(k in raw for k in ("page_id", "width", "height", "redactions")):
        raise InputError(f"{path}: a redaction page has page_id, width, height and redactions")
    width, height = raw["width"], raw["height"]
    if not (isinstance(width, int) and isinstance(height, int) and width > 0 and height > 0):
        raise InputError(f"{path}: width and height must be positive whole numbers")
    if not isinstance(raw["redactions"], list):
        raise InputError(f"{path}: redactions must be a list")
    regions = tuple(_region(r, f"{path} redaction {i}", width, height) for i, r in enumerate(raw["redactions"]))
    return RegionPage(str(raw["page_id"]), width, height, regions, raw.get("kind"))
