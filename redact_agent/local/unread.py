"""Lines of print the OCR's detector passed over, to be read again on a crop of their own.

A stamp printed over a line can hide the whole line from the text detector, which finds it on a
crop that holds less of the stamp (synthetic documents seed 223: a phone number under "PAID", a
code under a gray "FILED"); a stamp the OCR reads as a word ("RECEIVED") hides the lines under it.
What no word of the print covers is looked at (`split`: a stamp's word covers nothing), in two inks
(`_inks`: Otsu's, and the print's, darker than a stamp's tone where it lies under one), in glyph-
sized pieces (from a quarter of the page's median word height to one word height, not solid),
joined into lines where they lie less than a word height apart in a row; a line of `GLYPHS` pieces
or more and at least two word heights long is a line the detector missed. A stamp's own letters are
taller than the print and are no glyphs here; a column of sideways text joins no row. The crop to
read a line on goes on along its rows over the uncovered ink that continues it (a value that a
stamp's letters touch is no glyphs). It is read twice: in print's ink alone first (`_only`: a
gray stamp over the line is gone), then as printed (print lighter than that, such as gray print
under a gray stamp). A gray stamp as dark as the print's halfway joins the glyphs under it in both
inks; in the print's core (darker than halfway to that halfway) it is gone, and the lines found
there alone (`_under_stamps`) are read on the core first. Words read on it that were read before
are dropped (`_read_already`); a tall word they lie in gives way to them: print the detector joined
with a stamp over it, or large print read again, which is not kept twice. The line's words are then
all of one reading, on one line, the line of the print they continue on their row where there is
one (`_continued`).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from redact_agent.boxes import Box, areas, as_array, covered_areas, intersections
from redact_agent.local.ink import GROW, grey
from redact_agent.local.layout import GAP_FACTOR
from redact_agent.local.orientation import Upright, upright
from redact_agent.local.snap import snapped
from redact_agent.tools.ocr import OcrEngine, Word
from redact_agent.tools.regions import ocr_words

GLYPHS = 4  # the fewest glyph-sized pieces in a row that make a line
SOLID = 0.85  # a piece filling more of its box is a mark (a bullet, a box's corner), not a glyph
MOST = 8  # lines read again on one page at most, those of the most glyphs first
READ = 0.3  # a word read on a crop is one read already when words read before cover this much of it, or it of one
TALL = 2.0  # a word this many times the median word's height is a stamp's letters, which hide no print
INSIDE = 0.5  # a word read on a crop with this much of its area in a tall word supersedes that word
UNDER_STAMP = 0.75  # print under a stamp darker than print's halfway tone is darker than this share of its tone
# the share of the rows of the lower of two words beside each other that they share, to be of one line
# (at half, a phone read again took the line of a skewed line above, sharing 16 of its 32 rows)
ROW = 0.75


def read(page: Image.Image, ocr: OcrEngine) -> Upright:
    """The page turned upright (`orientation.upright`) and its words, with those of the lines the
    text detector passed over (`missed_lines`, and `_under_stamps`) read on a crop each, in place
    of the tall words they lie in (`_superseded`); every word moved along its line onto the ink
    it was read on (`_snapped`)."""
    found = upright(page, ocr)
    page_grey = grey(np.asarray(found.page.convert("RGB")))
    inks = inks_of(page_grey, found.words)
    words = _snapped(found.words, inks, OTSU)
    printed, tall = split(words)
    more: list[Word] = []
    line = max((w.line for w in words), default=-1) + 1
    lines = missed_lines(page_grey, words, inks)
    stamped = _under_stamps(page_grey, words, inks, lines)
    images = [(_only(page_grey, inks, PRINT), PRINT), (found.page, OTSU)] if lines or stamped else []
    crops = [(box, images) for box in lines]
    crops += [(box, [(_only(page_grey, inks, CORE), CORE), *images]) for box in stamped]
    bare: list[tuple[Image.Image, int]] = []
    for box, read_on in crops:
        got, line = _read_crop(ocr, box, read_on, inks, printed + more, line)
        if not got:  # the detector read only lines read already on the crop: again without them
            bare = bare or _bare(found.page, printed, inks)
            got, line = _read_crop(ocr, box, bare, inks, printed + more, line)
        more += got
    gone = _superseded(tall, more)
    kept = [w for w in words if w not in gone]
    return found._replace(words=kept + _continued(kept, more))


def _read_crop(
    ocr: OcrEngine, box: Box, read_on: list[tuple[Image.Image, int]], inks: Inks | None, before: list[Word], line: int
) -> tuple[list[Word], int]:
    """The words read on `box` of each image of `read_on` (of ink `k`) that were not read `before`,
    on lines numbered from `line`; and the number of the line after them."""
    out: list[Word] = []
    for image, k in read_on:
        again = _snapped(ocr_words(image, ocr, box), inks, k)
        new = ~_read_already(as_array([w.bbox for w in again]), as_array([w.bbox for w in before + out]))
        out += [
            Word(w.text, w.bbox, w.confidence, line + w.line, w.block) for w, n in zip(again, new, strict=True) if n
        ]
        line += max((w.line for w in again), default=0) + 1
    return out, line


def _snapped(words: list[Word], inks: Inks | None, k: int) -> list[Word]:
    """`words` read on an image of ink `k` of `inks` moved onto that ink (`snap.snapped`)."""
    return words if inks is None else snapped(words, inks[k])


def _continued(printed: list[Word], more: list[Word]) -> list[Word]:
    """Words read on a crop, each line of them on the line of the print it continues on its row
    (the nearest word beside one of its words, `GAP_FACTOR` word heights or less away, sharing `ROW`
    of the rows of the lower of the two): "GRAY," read again beside "SCOTT" as first read is one
    name on one line, not two lines of a word each."""
    beside: dict[int, tuple[float, int]] = {}
    for w in more:
        x0, y0, x1, y1 = w.bbox
        for p in printed:
            gap = max(p.bbox[0] - x1, x0 - p.bbox[2])
            rows = min(y1, p.bbox[3]) - max(y0, p.bbox[1])
            if gap <= GAP_FACTOR * (y1 - y0) and rows >= ROW * min(y1 - y0, p.bbox[3] - p.bbox[1]):
                beside[w.line] = min(beside.get(w.line, (gap, p.line)), (gap, p.line))
    return [replace(w, line=beside[w.line][1]) if w.line in beside else w for w in more]


def _read_already(boxes: NDArray[np.float64], known: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which words read on a crop were read before: words read before cover `READ` of one, or
    it takes in `READ` of one of them (a read as printed that joins a code read in print's ink
    with the stamp's letters after it, "R-9346755PPROVED"). Boxes are compared by the middle half
    of their rows: the detector's boxes are taller than the print, and those of the lines above and
    below covered a third of "Sara" read under a gray stamp between them.
    """
    boxes, known = _middle_rows(boxes), _middle_rows(known)
    inter = intersections(boxes, known)
    covered = covered_areas(boxes, known, inter) >= READ * areas(boxes)
    return covered | (inter >= READ * areas(known)[None, :]).any(axis=1)


def _middle_rows(boxes: NDArray[np.float64]) -> NDArray[np.float64]:
    """Boxes less the top and bottom quarter of their rows."""
    quarter = (boxes[:, 3] - boxes[:, 1]) / 4
    return np.stack([boxes[:, 0], boxes[:, 1] + quarter, boxes[:, 2], boxes[:, 3] - quarter], axis=1)


def _superseded(tall: list[Word], more: list[Word]) -> list[Word]:
    """The tall words that a word read on a crop lies in (mostly): print the detector joined with
    a stamp over it into one tall box ("R-34" for "R-9346755" under a gray "APPROVED"), a stamp
    over the line, now read apart, or large print read again ("Lydia Dowl" on vrdu). Left in, they
    would be values read twice, once misread, and a line's words of two readings would be two lines
    ("(931)" read again and "274-7421" kept: the phone was no run of one line)."""
    boxes = as_array([w.bbox for w in more])
    inside = intersections(as_array([w.bbox for w in tall]), boxes) > INSIDE * areas(boxes)
    return [w for w, row in zip(tall, inside, strict=True) if row.any()]


def _along(columns: NDArray[np.bool_], x0: int, x1: int, gap: int) -> tuple[int, int]:
    """[x0, x1) grown along its rows over the uncovered ink that goes on from it with no gap of
    `gap` columns (a value a stamp's letters touch, which makes it no glyphs)."""
    inked = np.flatnonzero(columns)
    while (left := inked[(inked < x0) & (inked >= x0 - gap)]).size:
        x0 = int(left.min())
    while (right := inked[(inked >= x1) & (inked < x1 + gap)]).size:
        x1 = int(right.max()) + 1
    return x0, x1


def _height(words: list[Word]) -> float:
    """The page's median word height."""
    return float(np.median([w.bbox[3] - w.bbox[1] for w in words]))


def split(words: list[Word]) -> tuple[list[Word], list[Word]]:
    """The words of the page's print, and those more than `TALL` times the median word's height:
    a stamp's letters read as a word, which cover no print (a stamp read "RECEIVED" over a code
    and the line under it hid both), or large print."""
    height = _height(words) if words else 0.0
    printed = [w for w in words if w.bbox[3] - w.bbox[1] <= TALL * height]
    return printed, [w for w in words if w.bbox[3] - w.bbox[1] > TALL * height]


def _bare(page: Image.Image, words: list[Word], inks: Inks | None) -> list[tuple[Image.Image, int]]:
    """The page with the words read on it made paper, in print's ink and as printed: where a line's
    crop read only lines read already, the detector sees the line it passed over alone on it, not
    the lines beside it, which it reads instead (entities seed 472: a skewed line beside "COPY"
    whose crop read only the line below it). Not read so first: a crop's reading changes with what
    else it shows, and a line read well beside the print read before (a date under "DOB:" and a
    stamp's "E") can then be read worse."""
    pixels = np.array(page.convert("RGB"))
    for w in words:
        x0, y0, x1, y1 = (max(0, int(v)) for v in w.bbox)
        pixels[y0:y1, x0:x1] = 255
    bare = Image.fromarray(pixels)
    return [(_only(grey(pixels), inks, PRINT), PRINT), (bare, OTSU)]


def _only(page_grey: NDArray[np.uint8], inks: Inks | None, k: int) -> Image.Image:
    """The page with only ink `k` of `inks` (`inks_of`: `PRINT` or `CORE`), lighter tones made
    paper: a gray stamp over a line is gone, and the line reads as printed ("R-9346755" under a
    gray "APPROVED" read "R-934675PPR" as is)."""
    return Image.fromarray(page_grey if inks is None else np.where(inks[k], page_grey, 255)).convert("RGB")


Inks = tuple[NDArray[np.uint8], NDArray[np.bool_], NDArray[np.bool_]]  # Otsu's ink, the print's, and its core
OTSU, PRINT, CORE = 0, 1, 2  # of `Inks`


def inks_of(page_grey: NDArray[np.uint8], words: list[Word]) -> Inks | None:
    """Otsu's ink, the print's, and the print's core. The print's: darker than halfway between the
    ink's darkest tone (its 5th percentile) and the paper (the page's 90th percentile), where a
    light stamp is not; in the box
    of a stamp's word (`split`) whose tone (its ink's commonest) is darker than that halfway but
    not by more than half the way on to the ink's darkest (large print's is), darker than
    `UNDER_STAMP` of the stamp's tone ("C91436" in black under a gray "CONFIDENTIAL" of tone 138,
    which the halfway of 159 keeps). The core: darker than halfway between the ink's darkest and
    that halfway, where a gray stamp as dark as the print's halfway is not, nor where no word of
    it was read ("FILED" of tone 115 over a signature's name, the print's halfway 140). None for a
    page without ink."""
    otsu, ink = cv2.threshold(page_grey, 0, 1, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    inked = page_grey[page_grey <= otsu]  # as THRESH_BINARY_INV marks it
    if not inked.size:
        return None
    darkest = float(np.percentile(inked, 5))
    middle = (darkest + float(np.percentile(page_grey, 90))) / 2
    printed = page_grey < middle
    for word in split(words)[1]:
        x0, y0, x1, y1 = (max(0, int(v)) for v in word.bbox)
        box = page_grey[y0:y1, x0:x1]
        tones = box[ink[y0:y1, x0:x1] > 0]
        tone = int(np.bincount(tones).argmax()) if tones.size else 0
        if (darkest + middle) / 2 < tone < middle:
            printed[y0:y1, x0:x1] = box < UNDER_STAMP * tone
    return np.asarray(ink, dtype=np.uint8), printed, page_grey < (darkest + middle) / 2


def _inks(inks: Inks | None) -> list[NDArray[np.uint8]]:
    """The page's ink two ways: under Otsu's threshold, and only its print (`inks_of`). A gray stamp
    is Otsu's ink and joins the glyphs it crosses (a code under "RECEIVED"); a darker one breaks
    into glyph-sized pieces in print's ink that make the row under it too tall ("PAID" over a
    phone's line): each finds lines the other does not."""
    return (
        [] if inks is None else [np.asarray(inks[OTSU], dtype=np.uint8), np.asarray(inks[PRINT], dtype=np.uint8)]
    )  # the core: `_under_stamps`


def missed_lines(page_grey: NDArray[np.uint8], words: list[Word], inks: Inks | None) -> list[Box]:
    """The boxes of lines of glyph-sized ink that no word of the print covers, in either ink
    (`_inks`; a line found more than once, once: as first found, but for a band of glyphs taller
    than a word, which joins two lines' glyphs, a gray stamp over both in Otsu's ink, and whose
    crop read the line the OCR had read already, not "CASE-2024-77512" under "CONFIDENTIAL"),
    those of the most glyphs first, each grown by half a word height above and below and one word
    height on either side (the crop to read it on). `inks`: the page's (`inks_of`)."""
    if not words:
        return []
    height, printed = _height(words), split(words)[0]
    lines = [line for ink in _inks(inks) for line in _lines(ink, printed, height)]
    found: list[tuple[int, Box]] = []
    for pieces, box in sorted(lines, key=lambda line: line[1][3] - line[1][1] > 2 * height):
        if not any(_same(box, b) for _, b in found):
            found.append((pieces, box))
    found.sort(key=lambda f: -f[0])
    return _clipped([b for _, b in found[:MOST]], page_grey)


def _under_stamps(page_grey: NDArray[np.uint8], words: list[Word], inks: Inks | None, found: list[Box]) -> list[Box]:
    """The lines of glyph-sized pieces in the print's core (`inks_of`) that no word covers and no
    line of `found` shares: print under a gray stamp as dark as the print's halfway, which joins
    its glyphs in the other inks, and which the stamp's own letters hide from the detector (none
    of it read, the stamp neither). Read first on the core alone."""
    if inks is None or not words:
        return []
    height = _height(words)
    lines = [box for _, box in _lines(np.asarray(inks[CORE], dtype=np.uint8), split(words)[0], height)]
    return _clipped([b for b in lines if not any(_same(b, f) for f in found)][: MOST - len(found)], page_grey)


def _clipped(boxes: list[Box], page_grey: NDArray[np.uint8]) -> list[Box]:
    page_h, page_w = page_grey.shape
    return [(max(0.0, b[0]), max(0.0, b[1]), min(float(page_w), b[2]), min(float(page_h), b[3])) for b in boxes]


def _same(a: Box, b: Box) -> bool:
    """Two crops of one line: they share half the smaller one."""
    pair = as_array([a, b])
    return float(intersections(pair[:1], pair[1:])[0, 0]) > 0.5 * float(areas(pair).min())


def _lines(ink: NDArray[np.uint8], words: list[Word], height: float) -> list[tuple[int, Box]]:
    """The lines of glyph-sized pieces of `ink` that `words` do not cover, with their pieces."""
    ink = ink.copy()
    for word in words:
        x0, y0, x1, y1 = (int(v) for v in word.bbox)
        ink[max(0, y0 - GROW) : y1 + GROW + 1, max(0, x0 - GROW) : x1 + GROW + 1] = 0
    _, labels, found_stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    w, h, area = np.asarray(found_stats, dtype=np.float64)[:, 2:].T
    glyph = (height / 4 <= h) & (h <= height) & (w <= 1.5 * height) & (area < SOLID * w * h)
    glyph[0] = False  # the background
    glyphs = np.asarray(glyph[labels], dtype=np.uint8)
    rows = cv2.dilate(glyphs, np.ones((1, max(1, round(height))), np.uint8))
    m, row_labels, row_stats, _ = cv2.connectedComponentsWithStats(rows, connectivity=8)
    at = np.nonzero(glyphs)
    pairs = np.unique(np.stack([np.asarray(row_labels)[at], labels[at]]), axis=1)  # (row, piece) once each
    found = []
    for j in range(1, m):
        x, _, w, _, _ = (int(v) for v in row_stats[j])
        pieces, top, bottom = _band(np.asarray(found_stats)[pairs[1][pairs[0] == j]])
        if pieces >= GLYPHS and w >= 2 * height and bottom - top <= 1.5 * height:
            x0, x1 = _along(np.asarray(ink[top:bottom].any(axis=0), dtype=bool), x, x + w, round(height))
            found.append((pieces, (x0 - height, top - height / 2, x1 + height, bottom + height / 2)))
    return found


def _band(pieces: NDArray[np.int32]) -> tuple[int, int, int]:
    """The glyphs of a row that make its line, and the rows they span: those reaching into the
    rows from the glyphs' median top to their median bottom. A stamp's ring of glyph-sized dots
    across a line ("ST-51095" under a black dotted ring) adds pieces above and below it that made
    the row taller than a line; a row of one line is all its glyphs."""
    tops, bottoms = pieces[:, 1], pieces[:, 1] + pieces[:, 3]
    inside = (tops < np.median(bottoms)) & (bottoms > np.median(tops))
    return int(inside.sum()), int(tops[inside].min()), int(bottoms[inside].max())
