"""Rings over boxes: a coffee ring, or a round stamp's frame, painted across gray boxes in
much their tone joins them and itself into one ragged component that no opening takes apart
(its stroke is nearly as thick as a box is high). Found as a circle (Hough, on the component's
grey), held where its band is inked all round: a band of radii a few pixels wide that the
component covers along the whole circle, and the radii inside and outside it do not (a disc or
a box does). Taken out, the boxes it crossed are bridged across it (`unringed`)."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from redact_agent.audit.shapes import LOW

ALL_ROUND = 0.97  # share of a ring's circle of radius r the component covers, for r in its band
BESIDE = 0.8  # and the most it covers of the circles just inside and outside the band
CENTRE_SLACK = 4  # px: the Hough centre is looked around this far for the one with the widest band
MIN_BAND = 3  # px: the narrowest band held for a ring (an opened component's strokes are wider)
SMALLEST = 3  # lines of small print: a ring's least radius (a smaller one's stroke is thinner than the
# opening took away; a stamp's bold letters are as large as two)
THIN = 0.25  # the widest a ring's band is, as a share of its inner radius (a bold letter's bowl is wider)


def _distances(shape: tuple[int, ...], centre: tuple[float, float]) -> NDArray[np.float64]:
    """Each pixel's distance from `centre`, in a crop of `shape`."""
    ys, xs = np.indices(shape)
    return np.asarray(np.hypot(xs - centre[0], ys - centre[1]), np.float64)


def _coverage(ink: NDArray[np.bool_], centre: tuple[float, float]) -> NDArray[np.float64]:
    """The share of each whole radius's circle around `centre` (its pixels in the crop) that is ink."""
    radius = np.rint(_distances(ink.shape, centre)).astype(np.int64).ravel()
    counts = np.bincount(radius)
    inked = np.bincount(radius, weights=ink.ravel().astype(np.float64), minlength=counts.size)
    return np.divide(inked, counts, out=np.zeros(counts.size), where=counts > 0)


def _band(coverage: NDArray[np.float64], radius: float) -> tuple[int, int] | None:
    """The radii, around `radius`, that the component covers all round, where those just
    inside and outside the band, a band's width away, are not, and the band is thin beside the
    circle: a ring's."""
    full = coverage >= ALL_ROUND
    r = round(float(radius))
    near = [q for q in range(max(0, r - 3), min(full.size, r + 4)) if full[q]]
    if not near:
        return None
    lo = hi = near[0]
    while lo > 0 and full[lo - 1]:
        lo -= 1
    while hi + 1 < full.size and full[hi + 1]:
        hi += 1
    width = hi - lo + 1
    inner, outer = lo - width, hi + width
    if width < MIN_BAND or width > THIN * lo or inner < 0 or outer >= full.size:
        return None
    return (lo, hi) if coverage[inner] < BESIDE and coverage[outer] < BESIDE else None


def _ring(ink: NDArray[np.bool_], grey: NDArray[np.uint8], s: float) -> tuple[tuple[float, float], float, float] | None:
    """The ring in a component (its `ink`, the page's `grey` under it): its centre and its band's
    inner and outer radii, widened by a third of its width each side (the circle is drawn by
    hand, or scanned, a little out of round). None where it holds no ring."""
    pad = round(3 * LOW * s)  # a ring may run past the crop: its circle lies in the paper around it
    shown = np.pad(np.where(ink, grey, 255).astype(np.uint8), pad, constant_values=255)
    circles = cv2.HoughCircles(
        cv2.GaussianBlur(shown, (5, 5), 0),
        cv2.HOUGH_GRADIENT_ALT,
        dp=1.5,
        minDist=20,
        param1=60,
        param2=0.5,
        minRadius=round(SMALLEST * LOW * s),
        maxRadius=max(ink.shape),
    )
    for cx, cy, radius in [] if circles is None else circles[0]:
        best: tuple[int, tuple[float, float], tuple[int, int]] | None = None
        for dx in range(-CENTRE_SLACK, CENTRE_SLACK + 1):
            for dy in range(-CENTRE_SLACK, CENTRE_SLACK + 1):
                centre = (cx - pad + dx, cy - pad + dy)
                band = _band(_coverage(ink, centre), radius)
                if band is not None and (best is None or band[1] - band[0] > best[0]):
                    best = (band[1] - band[0], centre, band)
        if best is not None:
            _, centre, (lo, hi) = best
            margin = max(1, (hi - lo + 1) // 3)
            return centre, lo - margin - 0.5, hi + margin + 0.5
    return None


def _across(
    rest: NDArray[np.bool_], band: NDArray[np.bool_], longest: int
) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """For each pixel of the band: whether its row crosses the band there in at most `longest`
    pixels, and whether the pixels just outside the band at both ends of that crossing, and at
    either end, are ink."""
    columns = np.arange(band.shape[1])
    left = np.maximum.accumulate(np.where(band, -1, columns), axis=1)  # the nearest outside, leftwards
    right = np.minimum.accumulate(np.where(band, band.shape[1], columns)[:, ::-1], axis=1)[:, ::-1]
    rows = np.arange(band.shape[0])[:, None]
    short = band & (left >= 0) & (right < band.shape[1]) & (right - left - 1 <= longest)
    inked_left = band & (left >= 0) & rest[rows, np.clip(left, 0, None)]
    inked_right = band & (right < band.shape[1]) & rest[rows, np.clip(right, None, band.shape[1] - 1)]
    return short, short & inked_left & inked_right, inked_left | inked_right


def unringed(
    ink: NDArray[np.bool_], grey: NDArray[np.uint8], s: float
) -> tuple[NDArray[np.uint8], NDArray[np.bool_]] | None:
    """A component's `ink` with the ring over it taken out and what it crossed bridged, and the
    ring's ink (its band's). A pixel of the band stays where ink lies on both sides of the band
    across it, along its row where that crosses the band in a few widths (a box the ring
    crossed), else along its column where ink lies along its row too (the ring's top and bottom,
    along a box): a row between two boxes one under another, where the band slants past the gap
    or runs along it, crosses it from paper and stays out. None where it holds no ring."""
    ring = _ring(ink, grey, s)
    if ring is None:
        return None
    centre, inner, outer = ring
    radius = _distances(ink.shape, centre)
    band = (radius >= inner) & (radius <= outer)
    rest = ink & ~band
    longest = round(3 * (outer - inner))  # crossed slantwise
    along_row, by_row, in_a_row = _across(rest, band, longest)
    _, by_column, _ = (m.T for m in _across(rest.T, band.T, longest))
    across = by_row | (~along_row & by_column & in_a_row)
    return np.asarray(rest | (across & ink), np.uint8), ink & band
