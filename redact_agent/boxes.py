"""The one canonical box, page pixels `[x0, y0, x1, y1]`, and the geometry on it.

Origin top-left, `x0 < x1`, `y0 < y1`, floats allowed. Everything inside the package works in
these units; model grids are converted at the model boundary (`coords.py`). The area
functions are exact (coordinate compression; for polygons, such as a region on a skewed page,
Sutherland–Hodgman clipping and the shoelace formula), not rasterised, so metrics built on them
do not depend on an image resolution.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Box = tuple[float, float, float, float]
Point = tuple[float, float]


def box_problem(box: Sequence[float], width: float | None = None, height: float | None = None) -> str | None:
    """Why `box` is not a valid pixel box (inside `[0, width] x [0, height]` when given), or None."""
    if len(box) != 4:
        return f"a box has 4 numbers, got {len(box)}"
    x0, y0, x1, y1 = box
    if not all(math.isfinite(v) for v in box):
        return f"box {list(box)} has a non-finite coordinate"
    if x0 >= x1 or y0 >= y1:
        return f"box {list(box)} is empty or inverted (needs x0 < x1 and y0 < y1)"
    if x0 < 0 or y0 < 0:
        return f"box {list(box)} has a negative coordinate"
    if (width is not None and x1 > width) or (height is not None and y1 > height):
        return f"box {list(box)} lies outside the {width}x{height} page"
    return None


def union_box(boxes: Sequence[Box]) -> Box:
    """The smallest box enclosing all of `boxes` (at least one)."""
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def as_array(boxes: Sequence[Box]) -> NDArray[np.float64]:
    """Boxes as an (N, 4) float array (shape (0, 4) when empty)."""
    return np.asarray(boxes, dtype=np.float64).reshape(-1, 4)


def areas(b: NDArray[np.float64]) -> NDArray[np.float64]:
    out: NDArray[np.float64] = np.maximum(b[:, 2] - b[:, 0], 0.0) * np.maximum(b[:, 3] - b[:, 1], 0.0)
    return out


def intersections(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Pairwise intersection areas, shape (len(a), len(b))."""
    w = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    h = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    out: NDArray[np.float64] = np.maximum(w, 0.0) * np.maximum(h, 0.0)
    return out


def iou_matrix(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Pairwise IoU, shape (len(a), len(b)); a pair whose union is empty has IoU 0."""
    inter = intersections(a, b)
    union = areas(a)[:, None] + areas(b)[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union > 0, inter / union, 0.0)


def covered_areas(
    targets: NDArray[np.float64], others: NDArray[np.float64], inter: NDArray[np.float64]
) -> NDArray[np.float64]:
    """For each target box, its area covered by the union of `others`; `inter` is
    `intersections(targets, others)`. Where the other boxes a target meets do not overlap each
    other (one box, or disjoint neighbours: nearly always on real pages) the answer is the sum
    of the intersections; only the rest need the exact union."""
    touching = inter > 0
    out: NDArray[np.float64] = inter.sum(axis=1)
    several = np.flatnonzero(touching.sum(axis=1) > 1)
    if len(several):
        overlapping = intersections(others, others) > 0
        np.fill_diagonal(overlapping, False)
        for t in several:
            s = touching[t]
            if overlapping[np.ix_(s, s)].any():
                out[t] = covered_area(targets[t], others[s])
    return out


def covered_area(target: NDArray[np.float64], others: NDArray[np.float64]) -> float:
    """Area of the `target` box (shape (4,)) covered by the union of `others` (shape (K, 4))."""
    x0, y0, x1, y1 = target
    clipped = np.column_stack(
        [
            np.maximum(others[:, 0], x0),
            np.maximum(others[:, 1], y0),
            np.minimum(others[:, 2], x1),
            np.minimum(others[:, 3], y1),
        ]
    )
    clipped = clipped[(clipped[:, 0] < clipped[:, 2]) & (clipped[:, 1] < clipped[:, 3])]
    if len(clipped) == 0:
        return 0.0
    if len(clipped) == 1:
        return float(areas(clipped)[0])
    if len(clipped) == 2:  # inclusion-exclusion, the common case of two neighbours
        a, b = clipped
        both = max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
        return float((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - both)
    # Coordinate compression: the union is exact on the grid of all clipped edges.
    xs = np.unique(clipped[:, [0, 2]])
    ys = np.unique(clipped[:, [1, 3]])
    cx = (xs[:-1] + xs[1:]) / 2
    cy = (ys[:-1] + ys[1:]) / 2
    inside_x = (clipped[:, 0, None] <= cx) & (cx <= clipped[:, 2, None])
    inside_y = (clipped[:, 1, None] <= cy) & (cy <= clipped[:, 3, None])
    covered = (inside_y[:, :, None] & inside_x[:, None, :]).any(axis=0)
    cell = np.diff(ys)[:, None] * np.diff(xs)[None, :]
    return float((cell * covered).sum())


def polygon_area(points: tuple[Point, ...] | list[Point]) -> float:
    """A polygon's area, by the shoelace formula."""
    return abs(_signed_area(list(points))) if len(points) >= 3 else 0.0


def clip_polygon(subject: list[Point], convex: list[Point]) -> list[Point]:
    """The part of a polygon inside a convex one (Sutherland–Hodgman: one half-plane per edge)."""
    if _signed_area(convex) < 0:
        convex = convex[::-1]  # counter-clockwise, so that inside is to the left of each edge
    out = subject
    for i, a in enumerate(convex):
        b = convex[(i + 1) % len(convex)]
        if not out:
            break
        out = _clip_edge(out, a, b)
    return out


def _clip_edge(points: list[Point], a: Point, b: Point) -> list[Point]:
    def side(p: Point) -> float:
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    def cross(p: Point, q: Point) -> Point:
        t = side(p) / (side(p) - side(q))
        return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))

    out: list[Point] = []
    for i, q in enumerate(points):
        p = points[i - 1]
        if side(q) >= 0:
            if side(p) < 0:
                out.append(cross(p, q))
            out.append(q)
        elif side(p) >= 0:
            out.append(cross(p, q))
    return out


def _signed_area(points: list[Point]) -> float:
    n = len(points)
    return sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n)) / 2
