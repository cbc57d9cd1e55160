"""Words moved along their line onto their ink.

RapidOCR places a line's words by its recogniser's columns, which drift along a long line: on a
line read on a crop whose detected box was a slanted quad three times the glyphs' height,
"C4977182" came out 55 px left of its ink and "ORD-0934376" 110 px (IoU 0.24 and 0.32), and a
box cut off the stem of a "P" or an "L", whose ink then fell outside it. The ink between the gaps
wider than a letter's along the line's rows is its words; the words read are matched to those
pieces in order, one word to one or a few pieces, and each takes its pieces' columns where their
width is about its own.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import cv2
import numpy as np
from numpy.typing import NDArray

from redact_agent.tools.ocr import Word

Ink = NDArray[np.uint8] | NDArray[np.bool_]

GAP = 0.4  # the least gap between two words' ink, in heights of their glyphs' bodies (`_body`)
SPLIT = 1.0  # the cost of a run of pieces with a gap inside it `GAP` wider than one at its ends, or `WIDE`
WIDE = 1.5  # in heights of the glyphs' bodies: a gap no word holds
NEAR = 2  # the words on either side whose bodies' rows a word's are checked against
REACH = 3  # the furthest, in heights of their bodies, a line's end words are read short of their ink
RUN = 8  # the most pieces of ink that one word is (a monospaced "l" stands apart from its letters)
WIDTH = math.log(1.15)  # a word moved onto ink this much wider or narrower (log ratio) stays as read
SLACK = 1.2  # nor one this many heights of its glyphs' bodies wider or narrower (a long word's share is wide)
SHIFT = 0.35  # a word moved further than this share of its width stays as read (its neighbour's ink)
SKIP_PIECE = 0.5  # the cost of a piece of ink that is no word read (a stamp's), a body's height wide or more
UPRIGHT = 0.75  # the share of a line's rows a rule across it fills in a column (`_less_rules`)
SKIP_WORD = 1.0  # the cost of a word that takes no ink (its ink joined to another's)


def snapped(words: list[Word], ink: Ink) -> list[Word]:
    """`words`, each line of them moved along its glyphs' bodies' rows (`_body`) onto the pieces
    of `ink` between word gaps."""
    by_line: dict[int, list[Word]] = defaultdict(list)
    for w in words:
        by_line[w.line].append(w)
    moved: dict[int, Word] = {}
    for line in by_line.values():
        moved.update(_line(sorted(line, key=lambda w: w.bbox[0]), ink))
    return [moved.get(id(w), w) for w in words]


def _line(line: list[Word], ink: Ink) -> dict[int, Word]:
    bodies = [_body(ink, w.bbox) for w in line]
    words = [w for w, b in zip(line, bodies, strict=True) if b is not None]  # no print: as read
    rows = _along_line([b for b in bodies if b is not None])
    if not rows:
        return {}
    height = int(np.median([b - t for t, b in rows]))
    x0 = max(0, int(words[0].bbox[0]) - REACH * height)
    x1 = min(ink.shape[1], math.ceil(words[-1].bbox[2]) + REACH * height)
    y0, y1 = max(0, min(int(w.bbox[1]) for w in words) - 1), max(math.ceil(w.bbox[3]) for w in words) + 1
    strip = _less_rules(np.asarray(ink[y0:y1, x0:x1], dtype=np.uint8))  # from a row over the boxes to one under
    columns = np.zeros(max(0, x1 - x0), dtype=bool)
    ends = [(a.bbox[2] + b.bbox[0]) / 2 for a, b in itertools.pairwise(words)]
    for (top, bottom), start, end in zip(rows, [x0, *ends], [*ends, x1], strict=True):
        a, b = int(start) - x0, int(end) - x0  # each word's own rows: a line may slope
        columns[a:b] = strip[top - y0 : bottom - y0, a:b].any(axis=0)
    pieces = _pieces(columns, GAP * height)
    runs = _matched([(w.bbox[0] - x0, w.bbox[2] - x0) for w in words], pieces, height)  # a body is a row or more
    out = {}
    for w, run in zip(words, runs, strict=True):
        if run is None:
            continue
        j, k = run
        a, b = pieces[j][0] + x0, pieces[k - 1][1] + x0
        width = max(1.0, w.bbox[2] - w.bbox[0])
        if (
            abs(math.log((b - a) / width)) > WIDTH
            or abs(b - a - width) > SLACK * height
            or abs(a + b - w.bbox[0] - w.bbox[2]) / 2 > SHIFT * width
        ):
            continue
        # as read up to the pieces beside its own: a glyph's tail under the bodies' rows (a "J"'s hook)
        before = pieces[j - 1][1] + x0 if j else -math.inf
        after = pieces[k][0] + x0 if k < len(pieces) else math.inf
        left, right = min(a, max(w.bbox[0], before)), max(b, min(w.bbox[2], after))
        out[id(w)] = Word(w.text, (float(left), w.bbox[1], float(right), w.bbox[3]), w.confidence, w.line, w.block)
    return _apart(line, out, height)  # a word with no print is a neighbour too


def _apart(words: list[Word], moved: dict[int, Word], height: int) -> dict[int, Word]:
    """`moved` less the words that moved over a neighbour that stays as read, by more than a
    body's `height` ("training+18370540773schedule", read glued, took in 50 px of the next word;
    "Lucas" took back its "L" from a "Ms." read 6 px too wide; "CLM-2022-53068" took in "spots",
    whose glyphs under a gray stamp have no bodies)."""
    over = set()
    for i, w in enumerate(words):
        if id(w) not in moved:
            continue
        box = moved[id(w)].bbox
        for other in (words[j].bbox for j in (i - 1, i + 1) if 0 <= j < len(words) and id(words[j]) not in moved):
            if min(box[2], other[2]) - max(box[0], other[0]) > height:
                over.add(id(w))
    return {k: v for k, v in moved.items() if k not in over}


def _less_rules(strip: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """`strip` (a line's rows, from a row over its words' boxes to a row under them) less the
    upright strokes that cross it from top to bottom: the columns of a piece of ink that crosses
    it where that piece fills `UPRIGHT` of its rows or more. A rule or a stamp's frame beside a
    word is no glyph of the line, which its box holds ("S." 4 px from a stamp's frame took it in,
    and the box grew as tall as the frame); the glyphs joined to it stay, and so do those a ring's
    slanting arc crosses (dropped with it, the "2" of "2021-07-11" left the date to be moved onto
    the ring's other arc, IoU 0.78 -> 0.66); nor are a logo's letters, "CW62" over a small "THE",
    a rule."""
    if not strip.size:  # OpenCV crashes on an empty image
        return strip
    _, labels, stats, _ = cv2.connectedComponentsWithStats(strip, connectivity=8)
    across = (stats[:, cv2.CC_STAT_TOP] == 0) & (stats[:, cv2.CC_STAT_HEIGHT] == strip.shape[0])
    across[0] = False  # the background
    if not across.any():
        return strip
    crossing = across[labels]
    upright = crossing.sum(axis=0) >= UPRIGHT * strip.shape[0]
    return np.where(crossing & upright, 0, strip).astype(np.uint8)


def _along_line(rows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Each word's bodies' rows, or, where they lie further than a body's height from those of
    the words about it (`NEAR` a side), theirs: a stamp's strokes under "approval" were more
    pieces of ink in its box than its letters."""
    if not rows:
        return []
    height = float(np.median([b - t for t, b in rows]))
    out = []
    for i, (top, bottom) in enumerate(rows):
        about = rows[max(0, i - NEAR) : i + NEAR + 1]
        middle = float(np.median([(t + b) / 2 for t, b in about]))
        if abs((top + bottom) / 2 - middle) > height:
            top, bottom = round(middle - height / 2), round(middle + height / 2)
        out.append((top, bottom))
    return out


def _body(ink: Ink, box: tuple[float, float, float, float]) -> tuple[int, int] | None:
    """The page rows of a word's glyphs' bodies in the ink of its box: from its glyphs' median
    top to their median bottom (a digit's rows, a lowercase letter's x-height), of the pieces
    of ink the box does not cut at its top or bottom (the lines above and below, which a box
    reaches into); None for a box without such ink."""
    y0, y1 = max(0, int(box[1])), min(ink.shape[0], math.ceil(box[3]))
    x0, x1 = max(0, int(box[0])), min(ink.shape[1], math.ceil(box[2]))
    crop = np.asarray(ink[y0:y1, x0:x1], dtype=np.uint8)
    if not crop.size:
        return None
    _, _, stats, _ = cv2.connectedComponentsWithStats(crop, connectivity=8)
    tops, heights = stats[1:, cv2.CC_STAT_TOP], stats[1:, cv2.CC_STAT_HEIGHT]
    whole = (tops > 0) & (tops + heights < y1 - y0)
    if not whole.any():
        return None
    top, bottom = float(np.median(tops[whole])), float(np.median((tops + heights)[whole]))
    return y0 + round(top), y0 + max(round(top) + 1, round(bottom))


def _pieces(columns: NDArray[np.bool_], gap: float) -> list[tuple[int, int]]:
    """The runs of inked columns, joined across gaps narrower than `gap`."""
    xs = np.flatnonzero(columns)
    if not xs.size:
        return []
    cut = np.flatnonzero(np.diff(xs) - 1 >= gap)  # the last column of each run but the last
    starts, ends = np.concatenate(([xs[0]], xs[cut + 1])), np.concatenate((xs[cut] + 1, [xs[-1] + 1]))
    return list(zip(starts.tolist(), ends.tolist(), strict=True))


def _matched(
    words: list[tuple[float, float]], pieces: list[tuple[int, int]], height: int
) -> list[tuple[int, int] | None]:
    """Each word's run of pieces [j, k), in order (None for a word that takes none), at the least
    cost: how far a run's width and middle are from its word's (`_cost`), `SPLIT` a run with a
    gap inside it wider than one at its ends by `GAP` (a monospaced "l" of the word before, taken
    in; less for less: a monospaced word's own "l"s stand as far apart as the words) or `WIDE`
    (the end of the line above, on a skewed page, taken in by the first word of the next),
    `SKIP_PIECE` a piece no word takes (less for a piece narrower than a body's `height`: a
    speck, a colon), `SKIP_WORD` a word that takes none."""
    n, m = len(words), len(pieces)
    inf = float("inf")
    cost = np.full((n + 1, m + 1), inf)
    back: dict[tuple[int, int], tuple[int, int, bool]] = {}
    cost[0, 0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i, j]
            if here == inf:
                continue
            if (
                j < m
                and (skip := here + SKIP_PIECE * min(1.0, (pieces[j][1] - pieces[j][0]) / height)) < cost[i, j + 1]
            ):
                cost[i, j + 1] = skip
                back[(i, j + 1)] = (i, j, False)
            if i == n:
                continue
            if here + SKIP_WORD < cost[i + 1, j]:
                cost[i + 1, j] = here + SKIP_WORD
                back[(i + 1, j)] = (i, j, False)
            inside = 0  # the widest gap inside the run
            before = pieces[j][0] - pieces[j - 1][1] if 0 < j < m else inf  # the gap at its left end
            for k in range(j + 1, min(m, j + RUN) + 1):
                if k > j + 1:
                    inside = max(inside, pieces[k - 1][0] - pieces[k - 2][1])
                ends = min(before, pieces[k][0] - pieces[k - 1][1] if k < m else inf)
                split = 1.0 if inside >= WIDE * height else min(1.0, max(0.0, inside - ends) / (GAP * height))
                c = here + _cost(words[i], (pieces[j][0], pieces[k - 1][1])) + SPLIT * split
                if c < cost[i + 1, k]:
                    cost[i + 1, k] = c
                    back[(i + 1, k)] = (i, j, True)
    runs: list[tuple[int, int] | None] = [None] * n
    i, j = n, m
    while (i, j) != (0, 0):
        pi, pj, took = back[(i, j)]
        if took:
            runs[pi] = (pj, j)
        i, j = pi, pj
    return runs


def _cost(word: tuple[float, float], run: tuple[int, int]) -> float:
    """How unlike a word's columns a run of ink is: the log of their widths' ratio, and the
    distance between their middles over their widths together."""
    w, r = max(1.0, word[1] - word[0]), max(1, run[1] - run[0])
    shift = abs((word[0] + word[1]) / 2 - (run[0] + run[1]) / 2)
    return abs(math.log(r / w)) + shift / (w + r)
