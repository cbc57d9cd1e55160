"""Tightening word boxes to the glyph ink, as the gold is drawn (spec/annotation.md).

Per word: grow the box by 2 px, threshold the grey crop with Otsu, less the straight lines struck
across it (`_less_lines`), a gray stamp's strokes that pass through the word in a lighter ink than
its print (`_less_stamp`; under a stamp as dark as the print's halfway, the print's tone is read
from the stamp's, `_under_stamp`) and the specks lighter than print (`_less_light_specks`), keep the dark
connected components whose centres lie inside the original box (cell rules and the corners two
of them make, neighbouring words that only reach into the margin, and short pieces that reach
into the added margin above or below, which are the descenders and ascenders of the lines above
and below, are dropped), cut a glyph that a stamp's ring or frame in the print's ink crosses to
the other glyphs' rows (`_in_glyph_rows`), keep the band of rows with the most ink
(`_one_line`), and take their extents, less a glyph's antialiased fringe (`_less_edges`).
A crop without ink keeps its box. Tesseract's boxes are already tight (median IoU 1.0 with the
gold); RapidOCR's line-height boxes are not (0.56), which is what this is for.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import cv2
import numpy as np
from numpy.typing import NDArray

from redact_agent.boxes import Box

GROW = 2
# a component this many times the word's tall glyphs' height: a stamp or frame crosses it (at 1.6, a
# frame's corner under an "M" that ran out of a box ending 19 px under the glyphs did not, nor at
# 1.5 one over a "P" that ran out of a box 12 px over them)
TALL = 1.3
LONE = 0.25  # the least share of the crop's height one glyph alone is, to measure `TALL` by (a logo's stripe is none)
NEAR = 0.35  # the most a dot or accent lies above its line's ink, in heights of that ink
TIP = 0.2  # the most a descender's broken-off tip lies under a glyph, in heights of its line's ink
DOT = 0.1  # the least side of a dot or accent, on average, in heights of its line's ink
STROKES = 0.4  # the most of the crop that the corner two cell borders make across it fills
SPECK = 3  # fewer pixels darker than halfway to the paper are noise, not print
STUB = 0.1  # the least share of the crop's height or width a light piece reaching the word's box spans to be a stamp's
RULE = 0.8  # the least share of a crop's width a ruled line across it spans
EDGE = 0.6  # a pixel lighter than this share of the way from a word's darkest to its paper is a glyph's fringe
FRINGE = 1  # px at most a glyph's fringe is wide: faint print's light strokes past it are print
STAMP_STROKE = 8  # the least width, in px, of a stamp's strokes whose tone `_under_stamp` reads; print's are thinner
STAMP_PRINT = 0.05  # the least share of the ink the print under a stamp is
STAMP_OVER = 0.15  # the least share of that print inside the stamp's strokes
STAMP_TONE = 0.35  # of the way from print's darkest to the paper, the least a stamp's strokes are lighter than print
FLAT = 0.5  # the least share of a short crop's ink in one tone (`FLAT_TONES` either way) for a stamp's strokes
FLAT_TONES = 6
THICK = 5  # the least width, in px, of a light stroke that reaches the word's box for a stamp's


def grey(image_rgb: NDArray[np.uint8]) -> NDArray[np.uint8]:
    return np.asarray(cv2.cvtColor(image_rgb, cv2.COLOR_RGB2GRAY), dtype=np.uint8)


class Inked(NamedTuple):
    components: list[NDArray[np.int32]]  # stats rows of the word's ink in the crop
    x0: int  # the crop's origin on the page
    y0: int
    ground: float | None  # the tone the print lies on where it is a stamp's (`_under_stamp`); None: paper


def _ink(page_grey: NDArray[np.uint8], box: Box, centred: bool = True, marks: bool = True) -> Inked | None:
    """The dark components of a word box's crop that are the word's ink, with the crop's origin
    and the stamp's tone under it, if any;
    None for a crop too small or without ink. `centred`: only components centred in the box, or
    within a pixel of it (a neighbour's ink in the margin is dropped; the '(' of "(445)" that the
    OCR box clipped by a pixel is kept), else every one that reaches into it (a glyph the OCR box
    clips is kept). `marks`: whether the word may have marks over its line (`marked`)."""
    h, w = page_grey.shape
    x0, y0 = max(0, int(box[0]) - GROW), max(0, int(box[1]) - GROW)
    x1, y1 = min(w, int(np.ceil(box[2])) + GROW), min(h, int(np.ceil(box[3])) + GROW)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    crop = page_grey[y0:y1, x0:x1]
    if int(crop.max()) - int(crop.min()) < 32:  # flat: no ink to find
        return None
    _, otsu = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    middle = halfway(crop)
    ink = _less_lines(np.asarray(otsu, dtype=np.uint8))
    ground = _under_stamp(crop, ink, middle)
    ink = _less_stamp(crop, ink, middle if ground is None else (int(crop.min()) + ground) / 2)
    n, found_labels, found_stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    labels, stats = np.asarray(found_labels, dtype=np.int32), np.asarray(found_stats, dtype=np.int32)
    ch, cw = ink.shape
    keep = []
    for i in range(1, n):
        cx, cy = centroids[i][0] + x0, centroids[i][1] + y0
        w, h = stats[i][cv2.CC_STAT_WIDTH], stats[i][cv2.CC_STAT_HEIGHT]
        # a cell border or underline: a ruled line may be a few pixels thick on a scan; or the
        # corner two borders make, across the whole crop both ways and mostly empty
        rule = (h <= _thin(ch) and w >= RULE * cw) or (w <= 3 and h >= RULE * ch)
        rule = rule or (h == ch and w == cw and stats[i][cv2.CC_STAT_AREA] < STROKES * h * w)
        top = stats[i][cv2.CC_STAT_TOP]
        # a descender of the line above, or an ascender of the line below: short, and reaching
        # into the margin the crop adds around the word's box (cut off by the crop, or just inside it)
        clipped = (top < GROW or top + h > ch - GROW) and h < 0.4 * ch
        left, right = x0 + stats[i][cv2.CC_STAT_LEFT], x0 + stats[i][cv2.CC_STAT_LEFT] + w
        inside = box[0] - 1 <= cx <= box[2] + 1 if centred else left < box[2] and right > box[0]
        if not rule and not clipped and inside and box[1] <= cy <= box[3]:
            keep.append(i)
    found = _in_glyph_rows(_less_light_specks(keep, stats, labels, crop, middle), stats, labels)
    return Inked(_one_line(found, marks), x0, y0, ground)


def _less_stamp(crop: NDArray[np.uint8], ink: NDArray[np.uint8], middle: float) -> NDArray[np.uint8]:
    """Otsu's `ink` of a crop less a stamp's strokes in a lighter ink than the print: the ink more
    than a pixel from any pixel darker than `middle` (`halfway`, print's halfway to the paper), in
    pieces that span a tenth of the crop (`STUB`) and run out of it (a gray ring, frame or letter
    over the word, what is left of one on either side of a glyph it crosses, or a ring's band
    hanging from a glyph; a quarter kept that band, and a code's box came out 7 px low), or that
    are as thick as a stamp's stroke (`THICK`) and reach the word's box (the crop less its margin:
    a stamp letter's foot that ended there kept a code's box 17 px low) or the rows above or below
    the print's (a gray "Y"'s arm that ended on a code's '9' kept its box 15 px high, in an OCR
    box that took in the whole stamp letter), or that, thinner, lie along the line past those
    rows (the foot of a gray "P", 4 px tall, on the top of "CT-600735" kept its box 4 px high).
    The light lower half of a thin slash that ends on the box is print, and stays. A thick piece
    is measured again without the pixels as dark as print that lie alone or in pairs (`SPECK`): a
    noisy scan's gray stamp has such, which kept a stamp letter's stroke with two dates under a
    gray "APPROVED" (IoU 0.62 and 0.57); a thin stroke of light print has such too, and they keep it.
    Where such a stroke touches a glyph it is cut there, not dropped with the glyph or kept with it.
    A small light piece (a dot, an antialiased piece of a thin stroke) stays, and so does a logo
    drawn within the word's box; a crop with nothing else keeps its ink."""
    ch, cw = crop.shape
    dark = (crop < middle).astype(np.uint8)
    clean = _less_specks(dark)
    rows = np.flatnonzero(clean.any(axis=1))
    top, bottom = (int(rows[0]) - GROW, int(rows[-1]) + 1 + GROW) if len(rows) else (0, ch)
    kept = ink.copy()
    for seeds, only_thick in [(dark, False)] + ([(clean, True)] if (clean != dark).any() else []):
        light = np.where(cv2.dilate(seeds, np.ones((3, 3), np.uint8)) > 0, 0, ink).astype(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=8)
        half = np.zeros(n, np.float32)  # each piece's half width at its thickest
        pieces = np.asarray(labels, dtype=np.intp).ravel()
        np.maximum.at(half, pieces, cv2.distanceTransform(light, cv2.DIST_L2, 3).ravel())
        for i in range(1, n):
            x, y, w, h = (int(v) for v in stats[i][:4])
            edge = min(x, y, cw - x - w, ch - y - h)  # 0: out of the crop; GROW or less: on the word's box
            thick = 2 * float(half[i]) >= THICK
            across = w >= STUB * cw and w > h  # lying along the line
            beyond = y < top or y + h > bottom  # past the rows of the print
            if (
                (h >= STUB * ch or w >= STUB * cw)
                and (thick or not only_thick)
                and (edge == 0 or (thick and edge <= GROW) or ((thick or across) and beyond))
            ):
                kept[labels == i] = 0
    return kept if kept.any() else ink


def _less_lines(ink: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """`ink` less the straight lines struck through its glyphs, in rows of ink `RULE` of the
    crop's width long and no thicker than a rule, but where a glyph's stroke crosses one (ink right
    above and below it): a stamp frame's edge struck through a phone number's glyphs on a fax
    joined them into one piece with the stamp letters' feet over them, which kept its box 11 px
    high. Where no glyph crosses it, but where two strokes or more stand on it or hang from it
    (ink right above or below, in runs shorter than the crop is tall, `_strokes`): a frame's edge
    along a code's feet, its side running on down out of the crop, kept the code's box 8 px low (a
    frame's bottom with only its side standing on it is left whole, and goes with that side as a
    stamp's: cut, it kept the side under a phone, 13 px; so is a skewed underline, whose steps
    stand on each other: cut, one step stayed under a phone).
    A line whose piece of ink is no taller than a rule is a rule or an underline (a skewed one
    steps down a row at a time), which `_ink` drops whole; a crop of nothing else keeps its ink."""
    ch = ink.shape[0]
    thin = _thin(ch)
    n, lines, stats = _long_lines(ink)
    if n == 1:  # no line
        return ink
    _, pieces, piece_stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    less = ink.copy()
    for i in range(1, n):
        x, y, w, h = (int(v) for v in stats[i][:4])
        piece = int(np.asarray(pieces)[lines == i][0])
        if h > thin or y == 0 or y + h == ch or piece_stats[piece][cv2.CC_STAT_HEIGHT] <= thin:
            continue
        cols = slice(max(0, x - GROW), x + w + GROW)  # the line's rows out to its ends, which the opening rounds off
        crossed = (ink[y - 1, cols] > 0) & (ink[y + h, cols] > 0)  # a glyph's stroke goes on through
        if not crossed.any():  # glyphs stand on it, or hang from it
            strokes = _strokes((ink[y - 1, cols] > 0) | (ink[y + h, cols] > 0), ch)
            if strokes is None:
                continue
            crossed = strokes
        less[y : y + h, cols][:, ~crossed] = 0
    return less if less.any() else ink


def _strokes(touched: NDArray[np.bool_], longest: int) -> NDArray[np.bool_] | None:
    """The runs of `touched` columns shorter than `longest` (strokes on a line; a skewed line's
    own next step is longer), where there are two or more; else None."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], touched.astype(np.int8), [0]))))
    runs = [(a, b) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a < longest]
    if len(runs) < 2:
        return None
    out = np.zeros_like(touched)
    for a, b in runs:
        out[a:b] = True
    return out


def _long_lines(ink: NDArray[np.uint8]) -> tuple[int, NDArray[np.int32], NDArray[np.int32]]:
    """The rows of `ink` `RULE` of the crop's width long or longer, as connected components
    (count with the background, labels, stats)."""
    long = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, max(1, int(RULE * ink.shape[1]))), np.uint8))
    n, lines, stats, _ = cv2.connectedComponentsWithStats(long, connectivity=8)
    return n, np.asarray(lines), np.asarray(stats)


def _thin(height: int) -> float:
    """The thickest a ruled line across a crop `height` px tall is: a few pixels on a scan."""
    return max(3, 0.2 * height)


def _under_stamp(crop: NDArray[np.uint8], ink: NDArray[np.uint8], middle: float) -> float | None:
    """The tone of a stamp the print lies under, whose strokes are lighter than print by
    `STAMP_TONE` of the way to the paper and darker than `middle` (print's halfway to the paper),
    else None; print's halfway is then halfway between print's darkest and that tone: a gray stamp
    as dark as print's halfway ("RECEIVED" of tone 137 over "ST-398667", whose halfway is 143) is
    no print. A stamp's strokes are the pixels `STAMP_STROKE` / 2 or more inside the ink,
    four times `STAMP_STROKE` squared of them at least, as a stroke runs on (blurred print's blobs
    have fewer: 68 in a phone's crop, whose print the rule took for a stamp, IoU 0.93 -> 0.54), or
    `STAMP_STROKE` squared where such a stroke runs out of the crop (`_runs_out`: a stamp larger
    than the word, whose letters' feet the crop of "ORD-4" or "Amy" cuts, 110 px inside the ink;
    that phone's blobs, in a crop as tight as its ink, reach its edge with 48); a stroke the
    crop's edge cuts ends there in this count (a rule under a light e-mail, 4 px thick, reached 5
    px in from it). The print darker than that halfway is `STAMP_PRINT` of the ink at least (a
    logo's gray letters 12 px thick with a speck of black were no print at all: "CW62" on vrdu),
    and `STAMP_OVER` of it lies inside the strokes, which a stamp is printed over (0.64 to 0.98 on
    the stamps here, 0.20 where a stamp's letters' tops reach only the foot of "ORD-063294", whose
    box they kept 14 px low; 0.05 for vrdu's gray "FOX" over the black "parkersburg" under it, whose tight
    box cuts it too), unless they run out of a short word's crop (a stamp's letters under it, 0.008
    for "ORD-4")."""
    framed = cv2.copyMakeBorder(ink, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    inside = cv2.distanceTransform(framed, cv2.DIST_L2, 3)[1:-1, 1:-1] >= STAMP_STROKE / 2
    disc = np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (STAMP_STROKE + 1,) * 2), np.uint8)
    short = inside.sum() < 4 * STAMP_STROKE * STAMP_STROKE  # a short word's crop, or blurred print
    beyond = short and inside.sum() >= STAMP_STROKE * STAMP_STROKE and _runs_out(ink, disc)
    if short and not beyond:
        inside = _flat(crop, ink)
        if not inside.any():
            return None
    darkest, tone = int(crop.min()), float(np.median(crop[inside]))
    halfway = (darkest + tone) / 2
    printed = (crop < halfway) & (ink > 0)
    strokes = cv2.dilate(inside.astype(np.uint8), disc)
    light = tone - darkest < STAMP_TONE * 2 * (middle - darkest)
    if (
        light
        or printed.sum() < STAMP_PRINT * (ink > 0).sum()
        or ((printed & (strokes > 0)).sum() < STAMP_OVER * printed.sum() and not beyond)
        or halfway >= middle
    ):
        return None
    return tone


def _flat(crop: NDArray[np.uint8], ink: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """The ink of the commonest tone of a crop's ink, within `FLAT_TONES` of it, where that is
    `FLAT` of the ink or more: a stamp's strokes, printed in one tone, where the crop is too short
    to hold their insides (the gray "RECEIVED" of tone 113 over a phone's digits, whose crops its
    strokes cross top to bottom); print's tones spread from its core out through its edges (under
    a third of a word's ink on those of that page). An empty mask else."""
    tones = crop[ink > 0]
    if not tones.size:
        return np.zeros_like(ink, dtype=bool)
    common = int(np.bincount(tones).argmax())
    flat = (ink > 0) & (np.abs(crop.astype(np.int16) - common) <= FLAT_TONES)
    return flat if flat.sum() >= FLAT * tones.size else np.zeros_like(flat)


def _runs_out(ink: NDArray[np.uint8], disc: NDArray[np.uint8]) -> bool:
    """Whether a stroke `disc` wide runs out of the crop (a stamp's, larger than the word), the
    crop's edge taken as ink beyond it; a ruled line across the crop is no such stroke, nor what
    it joins (a rule at the crop's edge would be as thick as the ink beyond it)."""
    n, lines, stats = _long_lines(ink)
    rules = np.isin(lines, [i for i in range(1, n) if stats[i][cv2.CC_STAT_HEIGHT] <= _thin(ink.shape[0])])
    thick = cv2.morphologyEx(np.where(rules, 0, ink).astype(np.uint8), cv2.MORPH_OPEN, disc)
    return bool(thick[0].any() or thick[-1].any() or thick[:, 0].any() or thick[:, -1].any())


def halfway(crop: NDArray[np.uint8]) -> float:
    """Halfway between a crop's darkest tone and its paper (its 90th percentile): print is darker."""
    return (int(crop.min()) + float(np.percentile(crop, 90))) / 2


def _less_light_specks(
    keep: list[int], stats: NDArray[np.int32], labels: NDArray[np.int32], crop: NDArray[np.uint8], middle: float
) -> list[int]:
    """Components `keep` less those smaller than a dot (`DOT` of the crop's height, squared) with no
    pixel as dark as print (darker than `middle`) that lie above or below the rows of the others: a noisy
    scan's speckle, and what is left of a gray stamp's stroke on one, which in a chain from a
    glyph down a ring's band kept a code's box 9 px low. Within those rows they stay: light print
    breaks into such pieces ("1/10/20" in gray under a black rule)."""
    darkest = np.full(len(stats), 255, np.int32)
    np.minimum.at(darkest, labels.ravel(), crop.ravel().astype(np.int32))
    tops, heights = stats[:, cv2.CC_STAT_TOP], stats[:, cv2.CC_STAT_HEIGHT]
    small = (stats[:, cv2.CC_STAT_AREA] < (DOT * crop.shape[0]) ** 2) & (darkest >= middle)
    others = [i for i in keep if not small[i]]
    if not others:
        return keep
    top, bottom = min(tops[i] for i in others), max(tops[i] + heights[i] for i in others)
    return [i for i in keep if not small[i] or (tops[i] < bottom and tops[i] + heights[i] > top)]


def _less_specks(dark: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """A mask less its pieces of under `SPECK` pixels."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    small = stats[:, cv2.CC_STAT_AREA] < SPECK
    small[0] = False  # the background
    return np.where(small[labels], 0, dark).astype(np.uint8)


def _in_glyph_rows(keep: list[int], stats: NDArray[np.int32], labels: NDArray[np.int32]) -> list[NDArray[np.int32]]:
    """The stats rows of components `keep`, with a glyph that a stamp's ring or a frame crosses cut
    to the rows of the word's other glyphs. Such a component runs out of the crop at its top or
    bottom, which a glyph does not; it is more than `TALL` times the height of the word's tall
    glyphs (the upper quartile of the components that stay inside the crop and are not specks,
    dots or dashes, which are under a sixth of the crop; two are enough: a frame's line joined all
    but the "RE" of "REF-2018-74235" into one piece that ran out of the crop under them and kept
    its box 12 px low; and one of a quarter of the crop (`LONE`): a ring joined all but the "B" of
    "Brown" in print 9 px high, but a stripe of a card's logo under "MasterCard" is none), strokes or a
    solid stamp letter's leg alike (a black "Y" of "COPY" joined to the "M" of "M4657062" kept
    its box 12 px high), but for the ground of a logo the
    word is printed on, which fills the crop both ways (vrdu's "KECI 13"). It is measured only in
    the rows the other glyphs span, widened by a quarter of their height (for its own ascender or
    descender), and without the stroke where it runs on out of the crop (`_less_strokes`: a
    frame's line through a '0' kept the quarter above and below it)."""
    ch, cw = labels.shape
    heights = {i: int(stats[i][cv2.CC_STAT_HEIGHT]) for i in keep}

    def runs_out(i: int) -> bool:
        top = int(stats[i][cv2.CC_STAT_TOP])
        return top == 0 or top + heights[i] == ch

    glyphs = [heights[i] for i in keep if heights[i] >= ch / 6 and not runs_out(i)]
    measured = len(glyphs) >= 2 or (len(glyphs) == 1 and glyphs[0] >= LONE * ch)
    limit = TALL * float(np.percentile(glyphs, 75)) if measured else float("inf")

    def crosses(i: int) -> bool:
        w = int(stats[i][cv2.CC_STAT_WIDTH])
        return heights[i] > limit and runs_out(i) and (heights[i], w) != (ch, cw)

    crossed = [i for i in keep if crosses(i)]
    normal = [i for i in keep if i not in crossed]
    if not crossed:
        return [stats[i] for i in keep]
    top = min(int(stats[i][cv2.CC_STAT_TOP]) for i in normal)
    bottom = max(int(stats[i][cv2.CC_STAT_TOP]) + heights[i] for i in normal)
    rows = slice(max(0, top - (bottom - top) // 4), bottom + (bottom - top) // 4)
    out = [stats[i] for i in normal]
    for i in crossed:
        ys, xs = np.nonzero(_less_strokes(labels == i, top, bottom)[rows])
        if len(xs):
            ys += rows.start
            out.append(np.array([xs.min(), ys.min(), np.ptp(xs) + 1, np.ptp(ys) + 1, len(xs)], dtype=np.int32))
    return out


def _less_strokes(glyph: NDArray[np.bool_], top: int, bottom: int) -> NDArray[np.bool_]:
    """A crossed glyph's pixels less its pieces outside rows [top, bottom) that run out of the
    crop: the stroke that crosses it, above and below it (a descender of its own ends inside)."""
    outside = glyph.copy()
    outside[top:bottom] = False
    _, found = cv2.connectedComponents(outside.astype(np.uint8), connectivity=8)
    pieces = np.asarray(found, dtype=np.int32)
    edge = np.unique(np.concatenate((pieces[0], pieces[-1], pieces[:, 0], pieces[:, -1])))
    return glyph & ~np.isin(pieces, edge[edge > 0])


def _one_line(components: list[NDArray[np.int32]], marks: bool = True) -> list[NDArray[np.int32]]:
    """The components of the word's own line: where those no smaller than a dot (`DOT` of the
    largest's height, squared) fall into bands of rows with no ink between them, the band with
    the most ink, with the smaller pieces in its rows (specks of a noisy scan's dotted ring above
    and below "ANDRADE," chained bands 16 px over it and 9 px under it into one); a band above it
    only when its pieces are no taller or wider than dots and accents (an 'i's dot), of those the
    ones near a glyph under them (`_by_a_glyph`) and no smaller than a dot (a pixel of noise in a
    ring's band over a code kept its box 9 px high); a band below it is the tops of the next
    line's letters, which a skewed or tall OCR box takes in, but for pieces as small right under a
    glyph (`TIP`): the tip of a descender that faint print broke off ("Tyler"'s y, which left the
    box 3 px short). No band above where the word has no mark over its line (not `marks`)."""
    if len(components) < 2:
        return components
    glyph = max(components, key=lambda c: int(c[cv2.CC_STAT_AREA]))
    # smaller: noise, which joins no bands (the largest piece, a glyph, always does)
    speck = min(max(2.0, (DOT * int(glyph[cv2.CC_STAT_HEIGHT])) ** 2), float(glyph[cv2.CC_STAT_AREA]))
    specks = [c for c in components if c[cv2.CC_STAT_AREA] < speck]
    bands: list[list[NDArray[np.int32]]] = []
    bottom = -1
    for c in sorted((c for c in components if c[cv2.CC_STAT_AREA] >= speck), key=lambda c: c[cv2.CC_STAT_TOP]):
        if bands and c[cv2.CC_STAT_TOP] <= bottom:
            bands[-1].append(c)
        else:
            bands.append([c])
        bottom = max(bottom, c[cv2.CC_STAT_TOP] + c[cv2.CC_STAT_HEIGHT])
    main = max(range(len(bands)), key=lambda k: sum(int(c[cv2.CC_STAT_AREA]) for c in bands[k]))
    top = min(int(c[cv2.CC_STAT_TOP]) for c in bands[main])
    height = max(c[cv2.CC_STAT_TOP] + c[cv2.CC_STAT_HEIGHT] for c in bands[main]) - top
    inside = [
        c for c in specks if c[cv2.CC_STAT_TOP] < top + height and c[cv2.CC_STAT_TOP] + c[cv2.CC_STAT_HEIGHT] > top
    ]
    if len(bands) == 1:
        return bands[main] + inside
    small = 0.3 * height  # a dot or an accent; a wider piece is the foot of the line above

    def _marks(near: list[list[NDArray[np.int32]]], reach: float, below: bool) -> list[NDArray[np.int32]]:
        return [
            c
            for band in near
            if all(c[cv2.CC_STAT_HEIGHT] <= small and c[cv2.CC_STAT_WIDTH] <= small for c in band)
            for c in band
            if _by_a_glyph(c, bands[main], reach, below)  # further: a speck, or the next line's
            and c[cv2.CC_STAT_AREA] >= max(2.0, (DOT * height) ** 2)  # smaller: a speck of noise
        ]

    above = _marks(bands[:main], NEAR * height, False) if marks else []  # no dot over "604-6626"
    below = _marks(bands[main + 1 : main + 2], TIP * height, True)
    return above + bands[main] + inside + below


def _by_a_glyph(mark: NDArray[np.int32], line: list[NDArray[np.int32]], reach: float, below: bool) -> bool:
    """A dot or accent `reach` px or less above a glyph of the line under it, or a descender's tip
    as far under one (`below`), within its own width to either side. On a skewed line, the tops of
    its glyphs at the far end do not make the line above's foot at this end a dot."""
    left, width = int(mark[cv2.CC_STAT_LEFT]), int(mark[cv2.CC_STAT_WIDTH])
    top, bottom = int(mark[cv2.CC_STAT_TOP]), int(mark[cv2.CC_STAT_TOP] + mark[cv2.CC_STAT_HEIGHT])
    return any(
        (top - c[cv2.CC_STAT_TOP] - c[cv2.CC_STAT_HEIGHT] if below else c[cv2.CC_STAT_TOP] - bottom) <= reach
        for c in line
        if c[cv2.CC_STAT_LEFT] < left + 2 * width and c[cv2.CC_STAT_LEFT] + c[cv2.CC_STAT_WIDTH] > left - width
    )


# characters with a mark over their line that may stand apart from it: a dot, an accent, a quote
_MARKS = re.compile(r"[ij'\"`^*]|[^\x00-\x7f]")


def marked(text: str) -> bool:
    """Whether a word's text has a character that may have a mark standing over its line."""
    return bool(_MARKS.search(text))


def tighten(page_grey: NDArray[np.uint8], box: Box, marks: bool = True) -> Box:
    """`box` tightened to the word's ink; `marks`: whether the word may have marks over its line
    (`marked`: a speck 7 px over "604-6626", from a stamp's letter, was taken for a dot)."""
    found = _ink(page_grey, box, marks=marks)
    tight = extents(found.components, found.x0, found.y0) if found else None
    return box if found is None or tight is None else _less_edges(page_grey, tight, box, found.ground)


def _less_edges(page_grey: NDArray[np.uint8], tight: Box, box: Box, ground: float | None) -> Box:
    """`tight`, the extents of a word's ink, less the rows and columns at its edges with no pixel
    darker than `EDGE` of the way from the word crop's darkest tone to what it is printed on: the
    antialiased fringe of a glyph's outer stroke, which Otsu's threshold takes in on small print
    ("PO-0676199", 8 px tall, came out 10 px: IoU 0.79), and the gold does not; `FRINGE` px a side
    at most (faint print's own light strokes lie further out: the legs of a '#' under its digits'
    feet). What print is printed on is the paper (the crop's lightest), or, under a stamp
    (`ground`, its tone), what lies beyond the edge, as light as the stamp at least; and there a
    pixel as light as the stamp (`FLAT_TONES` aside) is no print: the stamp's tone a pixel round
    the glyphs, which `_less_stamp` keeps, and its own antialiased edge beside the paper (a phone
    under a gray "RECEIVED" of tone 113 came out a row taller either way), while a glyph's edge
    on the paper beside the stamp is measured from the paper (from the stamp's tone, the tops of a
    date's slashes beside a ring were lost)."""
    x0, y0, x1, y1 = (int(v) for v in tight)
    h, w = page_grey.shape
    crop = page_grey[
        max(0, int(box[1])) : min(h, int(np.ceil(box[3]))), max(0, int(box[0])) : min(w, int(np.ceil(box[2])))
    ]
    if crop.size == 0:
        return tight
    darkest, paper = int(crop.min()), int(crop.max())
    inner = page_grey[y0:y1, x0:x1].astype(np.float64)
    if ground is None:  # one measure for every edge
        dark = inner < darkest + EDGE * (paper - darkest)
        tops = bottoms = np.flatnonzero(dark.any(axis=1))
        lefts = rights = np.flatnonzero(dark.any(axis=0))
    else:
        floor, stamp = min(ground, paper), ground - FLAT_TONES
        rim = ((int(y0 == 0), int(y1 == h)), (int(x0 == 0), int(x1 == w)))  # the page's edge stands for beyond it
        around = np.pad(page_grey[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1], rim, mode="edge").astype(float)

        def dark_beside(beyond: NDArray[np.float64]) -> NDArray[np.bool_]:
            return (inner < darkest + EDGE * (np.clip(beyond, floor, paper) - darkest)) & (inner < stamp)

        tops = np.flatnonzero(dark_beside(around[:-2, 1:-1]).any(axis=1))
        bottoms = np.flatnonzero(dark_beside(around[2:, 1:-1]).any(axis=1))
        lefts = np.flatnonzero(dark_beside(around[1:-1, :-2]).any(axis=0))
        rights = np.flatnonzero(dark_beside(around[1:-1, 2:]).any(axis=0))
    if not (len(tops) and len(bottoms) and len(lefts) and len(rights)):
        return tight
    body = (x0 + lefts.min(), y0 + tops.min(), x0 + rights.max() + 1, y0 + bottoms.max() + 1)
    return (
        float(min(body[0], x0 + FRINGE)),
        float(min(body[1], y0 + FRINGE)),
        float(max(body[2], x1 - FRINGE)),
        float(max(body[3], y1 - FRINGE)),
    )


def tighten_chars(
    page_grey: NDArray[np.uint8], box: Box, n_chars: int, first: int, last: int, marks: bool = True
) -> Box | None:
    """The ink of characters [first, last) of an `n_chars`-character word in `box` ("15161" of
    "(15161)"), when its ink falls into one column of glyphs per character, as print mostly does
    (an 'i' and its dot are one column); None when it does not (touching or split glyphs). `marks`
    as for `tighten`."""
    found = _ink(page_grey, box, centred=False, marks=marks)
    if not found:
        return None
    columns: list[list[NDArray[np.int32]]] = []
    right = -1  # where the current column's ink ends
    for c in sorted(found.components, key=lambda c: c[cv2.CC_STAT_LEFT]):
        if columns and c[cv2.CC_STAT_LEFT] < right:
            columns[-1].append(c)
        else:
            columns.append([c])
        right = max(right, c[cv2.CC_STAT_LEFT] + c[cv2.CC_STAT_WIDTH])
    if len(columns) != n_chars or not 0 <= first < last <= n_chars:
        return None
    tight = extents([c for col in columns[first:last] for c in col], found.x0, found.y0)
    return None if tight is None else _less_edges(page_grey, tight, box, found.ground)


def extents(components: list[NDArray[np.int32]], x0: int, y0: int) -> Box | None:
    """The page box enclosing connected-component stats rows of a crop at (x0, y0)."""
    if not components:
        return None
    ks = np.array(components)
    return (
        float(x0 + ks[:, cv2.CC_STAT_LEFT].min()),
        float(y0 + ks[:, cv2.CC_STAT_TOP].min()),
        float(x0 + (ks[:, cv2.CC_STAT_LEFT] + ks[:, cv2.CC_STAT_WIDTH]).max()),
        float(y0 + (ks[:, cv2.CC_STAT_TOP] + ks[:, cv2.CC_STAT_HEIGHT]).max()),
    )
