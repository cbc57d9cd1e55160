"""Outlined redactions, found as the holes of the page's drawn lines, each read for its code
(`find`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from redact_agent.audit import codes
from redact_agent.audit.regions import Region
from redact_agent.audit.shapes import LINE, LOW, MIN_FILL, PAPER, drawn, opened
from redact_agent.tools.ocr import OcrEngine

OUTLINE_PRINT = 0.35  # an outline holds no more print than its ground
OUTLINED_PAGE = 2  # outlines with a ground on a page that make its blank ones redactions too
BLANK_LOW = 0.6  # a blank one is at least this share of their median height, and at most its inverse
BRIDGE = 60  # px on a 2200 px page: the longest break in a drawn line that is bridged


def _has_cell_beside(rect: Sequence[int], cells: list[Sequence[int]], k: int) -> bool:
    """Whether another hole of the same line drawing, one of its box-shaped `cells`, is this
    one's neighbour in a table: within three widths `k` of a sealed rule, with a top, bottom or
    side edge in line. Boxes that an underline joins, or that touch on successive lines, are not."""
    x, y, w, h = rect
    for ox, oy, ow, oh in cells:
        if (ox, oy, ow, oh) == tuple(rect) or max(ox - (x + w), x - (ox + ow), oy - (y + h), y - (oy + oh)) > 3 * k:
            continue
        rows_in_line = min(abs(oy - y), abs(oy + oh - y - h)) <= k
        columns_in_line = min(abs(ox - x), abs(ox + ow - x - w)) <= k
        if rows_in_line or columns_in_line:
            return True
    return False


def _bridged(lines: NDArray[np.uint8], s: float) -> NDArray[np.uint8]:
    """Drawn lines with the breaks in their long horizontal runs bridged (a box's top or bottom
    edge): a fax's dropouts, or a stamp's ring painted over a box's edge, break an outline, and
    its inside is then no hole. A break with a vertical line at an end is not bridged: it lies
    between two boxes side by side, each ending at its corner. Vertical runs are not bridged: a
    large code's stems are as tall as a low box's sides, and bridged to its edges they would cut
    its inside apart."""
    straight = opened(lines, (round(3 * LOW * s), 1))
    along = np.ones((1, round(BRIDGE * s)), np.uint8)
    closed = np.asarray(cv2.morphologyEx(lines, cv2.MORPH_CLOSE, along), np.uint8)
    breaks = closed & np.asarray(cv2.dilate(straight, along), np.uint8) & (1 - lines)
    upright = cv2.dilate(opened(lines, (1, round(LOW * s / 2))), np.ones((1, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(breaks)
    bridged = np.zeros(count, np.uint8)
    for i in range(1, count):
        x, y, w, h = stats[i][:4]
        left, right = upright[y : y + h, max(0, x - 1)], upright[y : y + h, min(x + w, lines.shape[1] - 1)]
        bridged[i] = not (left.any() or right.any())
    return np.asarray(lines | bridged[labels], np.uint8)


def find(image: Image.Image, grey: NDArray[np.uint8], s: float, ocr: OcrEngine) -> list[Region]:
    """Outlined redactions: a thin line drawn around blanked text, a rectangle or a polygon
    that steps around a paragraph, with the ground printed inside ("5.1.2.e", or a FOIA code's
    opening as the OCR misreads small print, "(bH6)"). A blank box with no ground (a form field)
    and the cells of a table (one line around many holes) are not redactions, unless the page's
    coded outlines make it one (`_blank_outlines`). Where a stamp's broad gray strokes (a ring)
    cross the page, the holes are looked for again with them drawn as lines too: a box whose
    corner or side the ring paints over is closed by the ring. Only holes that fill their
    rectangle count then: not the ring's own inside, nor light print on a gray fill."""
    k = max(3, round(3 * s)) | 1  # a scanned line's gaps are sealed: 3 px at 2200 px a page, 5 at 300 DPI
    seal = np.ones((k, k), np.uint8)
    drawn_lines = (grey < LINE).astype(np.uint8)
    out, blank = _holes(image, grey, s, ocr, _sealed(drawn_lines, seal, s), k)
    ring = opened(((grey >= LINE) & (grey < PAPER)).astype(np.uint8), 3 * k)
    if ring.any():
        more, more_blank = _holes(image, grey, s, ocr, _sealed(drawn_lines | ring, seal, s), k, (ring, out + blank))
        out, blank = out + more, blank + more_blank
    return out + _blank_outlines(blank, out, k)


def _sealed(lines: NDArray[np.uint8], seal: NDArray[np.uint8], s: float) -> NDArray[np.uint8]:
    """Drawn lines with a scan's small gaps closed and their long horizontal breaks bridged."""
    return _bridged(np.asarray(cv2.morphologyEx(lines, cv2.MORPH_CLOSE, seal), np.uint8), s)


def _holes(
    image: Image.Image,
    grey: NDArray[np.uint8],
    s: float,
    ocr: OcrEngine,
    lines: NDArray[np.uint8],
    k: int,
    again: tuple[NDArray[np.uint8], list[Region]] | None = None,
) -> tuple[list[Region], list[Region]]:
    """The coded and the blank outlines among the holes of `lines`; on the second look (`again`:
    the ring's strokes, and the regions the first found), only holes the ring borders (the others
    were judged on the first), that fill their rectangle and overlap none of the regions found."""
    contours, hierarchy = cv2.findContours(lines, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return [], []
    every: dict[int, list[int]] = {}  # each line's holes
    for i, h in enumerate(hierarchy[0]):
        if h[3] >= 0:
            every.setdefault(int(h[3]), []).append(i)
    out: list[Region] = []
    blank: list[Region] = []
    for parent, inner in every.items():
        frame = cv2.boundingRect(contours[parent])
        if not _box_sized(frame, s):
            continue  # a glyph and its counters: the line around them holds no box
        bounds = {i: cv2.boundingRect(contours[i]) for i in inner}
        row = _row([contours[i] for i in inner], list(bounds.values()), k, s) if len(inner) > 1 else None
        if row is not None and _box_sized(row, s) and _paper(grey, row) and _enclosed(lines, row, k):
            # one box whose code's glyphs touch its top and bottom and cut its inside apart (small print
            # on a fax): its pieces are not judged one by one, and its print is its code's
            if again is None:
                read = _read_outline(image, ocr, lines, row, None, frame)
                out += [read[0]] if read is not None and read[0].code is not None else []
            continue
        children = [i for i in inner if _box_sized(bounds[i], s)]
        if again is not None:
            ring, seen = again
            children = [
                i
                for i in children
                if _borders(ring, bounds[i]) and _fills(contours[i], bounds[i]) and not _overlaps(bounds[i], seen)
            ]
        if not children:
            continue
        rects = [bounds[i] for i in children]
        # a table's cells are boxes; the pieces a stamp's ring cuts off a box it touches are not
        cells = [r for i, r in zip(children, rects, strict=True) if _fills(contours[i], r)]
        # outlines drawn touching one under another look like a table's column of cells: each is
        # read too, and kept only with a ground's code as printed (a table's row of numbers, "10 2",
        # reads as a ground with its dots lost)
        stacked = _one_under_another(rects)
        units = [
            (rect, drawn(contours[i])[4], frame if len(children) == 1 else None, tabled)
            for i, rect in zip(children, rects, strict=True)
            if not (tabled := len(children) > 2 and _has_cell_beside(rect, cells, k)) or stacked
        ]
        for rect, inside, own, tabled in units:
            read = _read_outline(image, ocr, lines, rect, inside, own)
            if read is None:
                continue
            region, text = read
            if tabled and not codes.is_code(region.code or ""):
                continue
            if region.code is not None:
                out.append(region)
            elif (region.score or 0.0) >= MIN_FILL and not re.search(r"[^\W\d_]{3}", text):
                blank.append(region)  # no ground read, and no word: a blank field, or a ground too small to read
    return out, blank


def _one_under_another(rects: list[Sequence[int]]) -> bool:
    """Whether no two holes of a line drawing lie side by side (their rows overlapping by half the
    lower one's height): boxes drawn one under another, each touching the next."""
    pairs = itertools.combinations(rects, 2)
    return not any(min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > min(a[3], b[3]) / 2 for a, b in pairs)


def _fills(hole: NDArray[Any], rect: Sequence[int]) -> bool:
    return bool(cv2.contourArea(hole) >= MIN_FILL * rect[2] * rect[3])


def _borders(mask: NDArray[np.uint8], rect: Sequence[int]) -> bool:
    """Whether a mask has pixels within a pixel of a rectangle."""
    x, y, w, h = rect
    return bool(mask[max(0, y - 1) : y + h + 1, max(0, x - 1) : x + w + 1].any())


def _overlaps(rect: Sequence[int], seen: list[Region]) -> bool:
    x, y, w, h = rect
    return any(r.intersection((x, y, x + w, y + h)) > 0 for r in seen)


def _box_sized(rect: Sequence[int], s: float) -> bool:
    """Whether a hole is as low and as wide as a box around a value at least."""
    return rect[3] >= LOW * s and rect[2] >= 40 * s


def _row(
    holes: Sequence[NDArray[Any]], rects: list[Sequence[int]], k: int, s: float
) -> tuple[int, int, int, int] | None:
    """The rectangle around the pieces a code's glyphs cut a small box's inside into, or None:
    two or more holes side by side in the row of the tallest (tops and bottoms within `k`), each
    box-sized or a rectangle as low as a box and no narrower than it is low, and every box-sized
    hole among them. A glyph's counter, lower than the row, is no piece; nor are the glyph-shaped
    holes that light print leaves in a fill. `rects`: the holes' bounding rectangles."""
    sized = [_box_sized(r, s) for r in rects]
    wide = [
        boxed or (r[3] >= LOW * s and r[2] >= r[3] and drawn(c)[4].mean() >= MIN_FILL)
        for c, r, boxed in zip(holes, rects, sized, strict=True)
    ]
    if sum(wide) < 2:
        return None
    _, top, _, low = max((r for r, ok in zip(rects, wide, strict=True) if ok), key=lambda r: r[3])
    in_row = [abs(r[1] - top) <= k and abs(r[1] + r[3] - top - low) <= k for r in rects]
    pieces = [r for r, ok, row in zip(rects, wide, in_row, strict=True) if ok and row]
    if len(pieces) < 2 or any(boxed and not row for boxed, row in zip(sized, in_row, strict=True)):
        return None
    left, right = min(r[0] for r in pieces), max(r[0] + r[2] for r in pieces)
    top, bottom = min(r[1] for r in pieces), max(r[1] + r[3] for r in pieces)
    return left, top, right - left, bottom - top


def _paper(grey: NDArray[np.uint8], rect: Sequence[int]) -> bool:
    """Whether a rectangle is paper, mostly: the inside of a box its code cuts apart is, a fill
    as light as the line's threshold whose grain leaves holes in it is not."""
    x, y, w, h = rect
    return bool(np.median(grey[y : y + h, x : x + w]) > PAPER)


def _enclosed(lines: NDArray[np.uint8], rect: Sequence[int], k: int) -> bool:
    """Whether a line runs all around a rectangle, within `2k` of its top and bottom and `k` of
    each end's middle third: one box's line (a skewed box's line runs into the rectangle around
    its pieces, and its corners out of it: along a side it drifts as far as the pieces' tops and
    bottoms may differ, `k`, and each end's line is that much shorter than the rectangle)."""
    x, y, w, h = rect
    b, third = 2 * k, h // 3
    if x < k or y < b or x + w + k > lines.shape[1] or y + h + b > lines.shape[0]:
        return False
    sides = (lines[y - b : y + b + 1, x : x + w], lines[y + h - b - 1 : y + h + b, x : x + w])
    middle = slice(y + third, y + h - third)
    ends = (lines[middle, x - k : x + k + 1], lines[middle, x + w - k - 1 : x + w + k])
    return all(side.any(axis=0).all() for side in sides) and all(end.any(axis=1).all() for end in ends)


def _read_outline(
    image: Image.Image,
    ocr: OcrEngine,
    lines: NDArray[np.uint8],
    rect: Sequence[int],
    inside: NDArray[np.uint8] | None,
    frame: Sequence[int] | None,
) -> tuple[Region, str] | None:
    """An outline's hole (`rect`, the mask of its `inside`) as a region, its code read (None when
    none), with the text read; None when it is no box or holds print. `frame`: the line's own
    rectangle, the region's box when the hole is all the line is drawn around. A box cut into
    holes by its code's glyphs has no `inside` to judge: it is read whole."""
    x, y, w, h = rect
    if inside is None:
        inside = np.ones((h, w), np.uint8)
    elif inside.sum() < 0.5 * w * h or (lines[y : y + h, x : x + w] & inside).mean() > OUTLINE_PRINT:
        return None  # not a box, or one with print in it (a field, a frame around text)
    text = codes.read(codes.enlarged(image.crop((x, y, x + w, y + h))), False, ocr) or ""
    candidates = [text, " ".join(text.split()[:2]), *text.split()]
    code = next((t for t in candidates if codes.is_code(t) or codes.CODE_MISREAD.match(t)), None)
    box = (float(x - 2), float(y - 2), float(x + w + 2), float(y + h + 2))
    if frame is not None and frame[2] * frame[3] < 1.3 * w * h:
        box = (float(frame[0]), float(frame[1]), float(frame[0] + frame[2]), float(frame[1] + frame[3]))
    return Region(box, kind="outline", code=code, score=round(inside.mean(), 3)), text


def _blank_outlines(blank: list[Region], coded: list[Region], k: int) -> list[Region]:
    """The outlines of `blank` that are redactions too: on a page where an office outlined
    values and printed grounds in them, outlines as low as those around a value whose ground did not fit
    or cannot be read (small print on a fax). Not a piece of a coded one a code's glyph cuts
    off, nor the counter of a large letter (as low as a line of small print)."""
    if len(coded) < OUTLINED_PAGE:
        return []
    low = float(np.median([r.height for r in coded]))
    return [
        r
        for r in blank
        if BLANK_LOW * low <= r.height <= low / BLANK_LOW
        and not any(r.intersection((c.bbox[0] - k, c.bbox[1] - k, c.bbox[2] + k, c.bbox[3] + k)) for c in coded)
    ]
