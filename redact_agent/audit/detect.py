"""Finding redactions in a page image: filled boxes (black, gray, colour) and outlines.

Filled boxes: the page's non-paper pixels are opened with a square a little thicker than a bold
stroke, so text, underlines and table rules vanish and solid fills remain. A remaining component
is a redaction when it is box-shaped (its outline, holes filled, covers most of its bounding
box), at least as tall as a line of small print, painted in one even tone (a fill, not a photo),
not a piece of a larger fill that letters cut out (a gray or coloured fill going on to its left
or right; black boxes painted one under another are taken apart by the black alone), and not a shaded
field that shows its text: ink inside a fill that reads as anything but a redaction code (Woo
grounds "5.1.2e", FOIA "(b)(6)", "Buiten reikwijdte"; `codes`) makes it a look-alike. Outlines,
a thin line around a blank area with a redaction code printed inside, are found by `outlines`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from redact_agent.audit import codes, outlines, rings
from redact_agent.audit.regions import Region
from redact_agent.audit.shapes import LINE, LOW, MIN_FILL, PAPER, drawn, opened
from redact_agent.tools.ocr import OcrEngine, Word

DARK = 100  # and below this, black print or a black fill
BLACK = 80  # the darkest a gray fill is
MIN_UNION_FILL = 0.5  # `MIN_FILL` for pure black boxes painted over each other (an outline of right angles)
MIN_EVEN = 0.6  # share of a fill's pixels within TONE of its commonest grey level
MIN_SCORE = 0.7  # a gray or coloured fill's box shape times its evenness (every real Woo one scores above)
GAP_INK = 0.5  # the least share of ink between two such pieces (the box's own between the glyphs, or a stamp's)
GLYPH_GAP = 1.5  # the black a large code cuts a black box into is no further apart than this share of its height
RULE_LOW, RULE_LONG = 1.5, 25  # a bar lower than RULE_LOW small print lines and RULE_LONG times as long is a rule
TALL = 150  # px on a 2200 px page: a fill narrower than tall and shorter than this is a glyph
TONE = 24
MIN_SHARE = 0.2  # the least share of a ragged component's pixels a box's tone, or black, holds to be looked for
CONTINUES = 0.25  # share of the bands beside a gray or coloured box in its tone that makes it a piece
SOLID = 0.6  # share of its box a solid box's black covers, the light print on it aside
HOLE_RATIO = 8  # how many times a glyph's hole a solid box is
AROUND = 0.5  # share of black around a glyph's hole in a solid box
WIDE = 1.5  # a gray or coloured box covers words: it is this much wider than tall, at least
MARKER_WIDE = 2.0  # and a marker stroke this much
STROKE_FILL, STROKE_EVEN = 0.7, 0.95  # the least a felt-tip stroke fills its rectangle, and how evenly black
MARKER_FILL = 0.96  # a drawn box fills its (turned) rectangle to its corners; a marker stroke does not
MAX_SKEW = 5.0  # degrees a scanned page is turned at most
MIN_SKEW = 0.5  # and at least, for a box that fills its upright bounding box to be read as turned
SPANNED = 0.8  # share of its width a light box's code spans where the opening lost the box's ends
MAX_PAGE_SHARE = 0.5  # a fill over half the page is a photo or a cover, not a redaction


def _scale(height: int) -> float:
    """Sizes are set for a 2200 px tall page (letter at 200 DPI, A4 at about 190)."""
    return height / 2200


def _kind(tone: float, saturation: float) -> str:
    if saturation > 25:
        return "color"
    return "black" if tone < BLACK else "gray"


def _inner_ink(grey: NDArray[np.uint8], mask: NDArray[np.bool_], tone: float) -> NDArray[np.bool_]:
    """Pixels inside a fill that stand out from its tone (text printed on it, or left under it)."""
    return mask & (np.abs(grey.astype(np.int16) - int(tone)) > 60)


def _rectilinear(contour: NDArray[Any]) -> bool:
    """Whether an outline has only horizontal and vertical edges, as the union of boxes painted
    over each other has, and no letter or logo."""
    points = cv2.approxPolyDP(contour, 2, True).reshape(-1, 2)
    edges = np.abs(np.roll(points, -1, axis=0) - points)
    return len(points) >= 4 and bool(np.all(edges.min(axis=1) <= 2))


def _continues(grey: NDArray[np.uint8], rect: tuple[int, int, int, int], tone: float, k: int) -> bool:
    """Whether the fill's tone goes on past its box to the left or right: a redaction is a box on
    paper, while the opening cuts a shaded header or a logo's bar into pieces between its
    letters. Only up to a column of paper (the gap before a box beside it), and paper is no
    light gray's tone. Above and below do not count: boxes are painted one under another, on
    successive lines, with a hairline of paper between them that a blurred scan darkens, or
    none at all where a skewed page's boxes touch."""
    x, y, w, h = rect
    rows = grey[y : y + h].astype(np.int16)
    same = total = 0
    for band in (rows[:, max(0, x - k) : x][:, ::-1], rows[:, x + w : x + w + k]):  # each side, outwards
        paper = (band >= PAPER).mean(axis=0) >= 0.8
        near = band[:, : int(paper.argmax()) if paper.any() else band.shape[1]]
        same += int(((np.abs(near - int(tone)) <= TONE) & (near < PAPER)).sum())
        total += band.size
    return total > 0 and same / total > CONTINUES


def _between_rules(grey: NDArray[np.uint8], rect: tuple[int, int, int, int], k: int) -> bool:
    """Whether a fill's top and bottom edges lie on ruled lines that run on past one of its sides
    or the other: a table's shaded cells, not a box painted over the page. A rule is thin: a box
    beside the fill's edge (the one painted above it) is none."""
    x, y, w, h = rect
    height, width = grey.shape
    if x < 3 * k or x + w + 3 * k > width:
        return False

    def ruled(edge: int) -> bool:
        top = max(0, edge - 2 * k)
        rows = grey[top : min(height, edge + 2 * k + 1)] < LINE
        near = slice(max(0, edge - k) - top, edge + k + 1 - top)  # the rows within k of the edge
        for band in (rows[:, x - 3 * k : x], rows[:, x + w : x + w + 3 * k]):
            dark = band.mean(axis=1) >= 0.8
            if dark[near].any() and dark.sum() <= k:
                return True
        return False

    return ruled(y) and ruled(y + h - 1)


def _fill_holes(mask: NDArray[np.uint8], keep: Callable[[NDArray[Any], NDArray[Any]], bool]) -> NDArray[np.uint8]:
    """`mask` with the holes that `keep(hole, parent)` accepts filled (contours, a hole's parent
    the outline it lies in)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    holes = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0 and keep(c, contours[h[3]])]
    out = mask.copy()
    cv2.drawContours(out, holes, -1, 1, thickness=cv2.FILLED)
    return out


def _fill_glyph_holes(mask: NDArray[np.uint8], size: int) -> NDArray[np.uint8]:
    """A gray or coloured mask with its glyph-sized holes filled: light text printed on a fill
    ("5.1.2e" in white on gray) would otherwise cut a low box apart when it is opened. The gap
    between two boxes that touch, and a table's cells, are longer than a glyph and stay open;
    black print makes no holes here, since it is not in this mask."""
    return _fill_holes(mask, lambda hole, _: max(cv2.boundingRect(hole)[2:]) <= size)


@dataclass(frozen=True)
class _Page:
    """A page's image, grey levels, colour saturation and sizes, computed once."""

    image: Image.Image
    grey: NDArray[np.uint8]
    saturation: NDArray[np.int16]
    s: float  # the size scale
    k: int  # the opening's square, a little thicker than a bold stroke
    ocr: OcrEngine
    holes: NDArray[np.bool_]  # the light print on solid boxes, filled in to find the boxes


def _fill_code_holes(dark: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The black with the holes that light print leaves in a solid box filled ("5.1.2e" in white
    on black): a hole whose parent is solid (most of its box inked) and many times its size. A
    bold letter's counter is not: the letter is mostly not ink, and not much larger than it."""
    mask = dark.astype(np.uint8)
    solid: dict[tuple[int, int, int, int], bool] = {}  # by parent: many holes share one

    def code_hole(hole: NDArray[Any], parent: NDArray[Any]) -> bool:
        px, py, pw, ph = cv2.boundingRect(parent)
        rect = (px, py, pw, ph)
        if rect not in solid:
            solid[rect] = float(mask[py : py + ph, px : px + pw].mean()) >= SOLID
        x, y, w, h = cv2.boundingRect(hole)
        if not solid[rect] or pw * ph < HOLE_RATIO * w * h:
            return False
        # ... and black all around it: an '@' or an 'o' touching a box has paper on its far side;
        # a code as high as its box (one wider than tall, unlike a bold letter) has the box's edges
        # close above and below it, and what is beyond them is not looked at
        r = max(2, min(w, h))  # a tall thin hole (a bracket) has black on both sides, not above and below
        top, bottom = (py, py + ph) if pw >= WIDE * ph else (0, mask.shape[0])
        return float(mask[max(top, y - r) : min(bottom, y + h + r), max(0, x - r) : x + w + r].mean()) >= AROUND

    return _fill_holes(mask, code_hole).astype(bool)


def find(page: Image.Image, ocr: OcrEngine) -> list[Region]:
    rgb = np.asarray(page.convert("RGB"))
    grey = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), dtype=np.uint8)
    s = _scale(rgb.shape[0])
    dark = _fill_code_holes(grey < DARK)
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]  # channel by channel: reducing axis 2 is slow
    top, bottom = np.maximum(np.maximum(red, green), blue), np.minimum(np.minimum(red, green), blue)
    saturation = top.astype(np.int16) - bottom
    p = _Page(page, grey, saturation, s, max(5, round(9 * s)), ocr, dark & (grey >= DARK))
    tinted = (((grey >= DARK) & (grey < PAPER)) | (p.saturation > 40)).astype(np.uint8)
    painted = (dark | _fill_glyph_holes(tinted, 2 * p.k).astype(bool)).astype(np.uint8)
    solid = opened(painted, p.k)
    contours = _outer(solid)
    black = opened(dark.astype(np.uint8), p.k)
    black_contours = _outer(black)
    filled: list[Region] = []
    rejected: list[NDArray[Any]] = []
    crossed: list[Region] = []
    for c in contours:
        region = _filled(p, solid, c)
        found = [region] if region is not None else (_by_codes(p, solid, c) or _by_tone(p, solid, c))
        filled += [r for r in found if all(r.bbox != q.bbox for q in filled)]  # a box in a ring's hole, found twice
        if not found:
            rejected.append(c)
            crossed += _crossed(p, solid, c)
    out = _unstacked(p, black, black_contours, filled, rejected)
    out += _black_in_tint(p, black, black_contours, solid, out)
    out = _with_crossed(p.grey, out, crossed)
    out = _joined(p, out)
    out += outlines.find(p.image, p.grey, p.s, p.ocr)
    return sorted(out, key=lambda r: (r.bbox[1], r.bbox[0]))


def _outer(mask: NDArray[np.uint8]) -> list[NDArray[Any]]:
    """The outer contours of a mask's components, those inside another's hole too (a box a
    stamp's ring goes round)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    return [] if hierarchy is None else [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] < 0]


def _unstacked(
    p: _Page,
    black: NDArray[np.uint8],
    contours: Sequence[NDArray[Any]],
    found: list[Region],
    rejected: list[NDArray[Any]],
) -> list[Region]:
    """`found` with boxes painted one under another taken apart: a blurred scan greys the
    hairline of paper between them, so the tinted mask joins them into one ragged region (read
    as a marker stroke, or as none when too short for one: the `rejected` components' boxes),
    while the black alone (`black`, its `contours`) keeps each box or stroke."""
    out = []
    judged: list[tuple[tuple[float, float, float, float], float, Region | None]] = [(r.bbox, r.area, r) for r in found]
    for c in rejected:
        x, y, w, h = cv2.boundingRect(c)
        judged.append(((x, y, x + w, y + h), cv2.contourArea(c), None))
    for bbox, area, region in judged:
        inside = [c for c in contours if _within(cv2.boundingRect(c), bbox)]
        pieces = sorted(
            (r for c in inside if (r := _filled(p, black, c)) is not None and r.kind in ("black", "marker")),
            key=lambda r: r.bbox[1],
        )
        # one under another: on a skewed page their bounding boxes overlap a little
        stacked = all(b.bbox[1] >= a.bbox[3] - 0.3 * min(a.height, b.height) for a, b in itertools.pairwise(pieces))
        if len(pieces) >= 2 and stacked and sum(r.area for r in pieces) >= 0.8 * area:
            out += pieces
        elif region is not None:
            out.append(region)
    return out


def _commonest(tones: NDArray[np.uint8]) -> int:
    """The commonest grey level among a fill's pixels: its tone."""
    return int(np.bincount(tones, minlength=256).argmax())


def _by_codes(p: _Page, solid: NDArray[np.uint8], c: NDArray[Any]) -> list[Region]:
    """Shaded boxes that touch, one under or beside another, and make one box together (the "To:"
    and "From:" lines of an e-mail), taken apart by the codes printed on them: where a box-shaped
    component that is no redaction whole has several codes printed on it, and most words read
    on it are codes, each word's share of it (the rows between the words' lines cut at the
    middle, and in a row, the columns between its words) is judged as a fill of its own. A word
    that is no code (print the box touches) stays in a share, which is then judged no redaction.
    A ragged component (boxes of several widths) is taken apart only where a row holds several
    codes, boxes side by side; lines of a paragraph painted over as one, a code on each, stay one."""
    x, y, w, h, mask = drawn(c)
    if h < 2 * LOW * p.s or w < WIDE * LOW * p.s:
        return []
    ragged = mask.mean() < MIN_FILL
    words = p.ocr.words(p.image.crop((x, y, x + w, y + h)))
    coded = {id(word) for word in words if codes.is_code(word.text.translate(codes.BRACKETS))}
    if len(coded) < 2 or len(coded) < 2 / 3 * len(words):
        return []
    tone = _commonest(p.grey[y : y + h, x : x + w][mask.astype(bool) & solid[y : y + h, x : x + w].astype(bool)])
    if _continues(p.grey, (x, y, w, h), tone, p.k):
        return []  # a piece of a shaded bar, judged whole: its shares are not judged by their sides
    rows: list[list[Word]] = []
    for word in sorted(words, key=lambda word: word.bbox[1] + word.bbox[3]):
        if rows and (word.bbox[1] + word.bbox[3]) / 2 < rows[-1][0].bbox[3]:
            rows[-1].append(word)
        else:
            rows.append([word])
    if ragged and max(sum(id(word) in coded for word in row) for row in rows) < 2:
        return []  # lines of a paragraph blanked as one, a ground on each: no row has boxes side by side
    row_cuts = [0] + [round((a[0].bbox[3] + b[0].bbox[1]) / 2) for a, b in itertools.pairwise(rows)] + [h]
    out = []
    piece = np.zeros_like(solid)  # one share at a time, on the page, as `_filled` reads it
    for row, (top, bottom) in zip(rows, itertools.pairwise(row_cuts), strict=True):
        row = sorted(row, key=lambda word: word.bbox[0])
        column_cuts = [0] + [round((a.bbox[2] + b.bbox[0]) / 2) for a, b in itertools.pairwise(row)] + [w]
        for left, right in itertools.pairwise(column_cuts):
            cell = (slice(y + top, y + bottom), slice(x + left, x + right))
            piece[cell] = mask[top:bottom, left:right] & solid[cell]
            parts = cv2.findContours(
                piece[cell], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x + left, y + top)
            )
            out += [region for part in parts[0] if (region := _filled(p, piece, part, sides=False)) is not None]
            piece[cell] = 0
    return out


def _by_tone(p: _Page, solid: NDArray[np.uint8], c: NDArray[Any]) -> list[Region]:
    """A gray or coloured box that a stamp's letters or frame, or the print beside it, touch or
    cross, taken out of the ragged component they make together: by its tone (the component's
    pixels within `TONE` of its commonest grey, the print inside them filled in, opened again),
    or, for a gray box and a stamp inked in much its tone, by opening the component with a
    kernel twice as wide (a ring's or a frame's strokes are thinner than a box is high; a
    coloured logo's letters are not), where that leaves one box. Each piece at least half as
    wide as the component is judged as a fill of its own; the first way that finds a box is kept,
    unless a ring crosses the component and the boxes around it cover more (`_around_a_ring`)."""
    x, y, w, h, mask = drawn(c)
    if h < LOW * p.s or w < WIDE * LOW * p.s or mask.mean() >= MIN_FILL:
        return []  # box-shaped as a whole: it is one box, or none
    inside = mask.astype(bool) & solid[y : y + h, x : x + w].astype(bool)
    grey = p.grey[y : y + h, x : x + w]
    tones = grey[inside]
    tone = _commonest(tones)
    if tone < BLACK:
        return []  # black: taken apart by the black alone (`_unstacked`, `_black_in_tint`), or `_crossed`
    gray = _kind(tone, float(np.median(p.saturation[y : y + h, x : x + w][inside]))) == "gray"
    others = tones[np.abs(tones.astype(np.int16) - tone) > 2 * TONE]  # a ring's tone may be the commonest
    ways = []
    for own_tone in [tone] + ([_commonest(others)] if gray and others.size >= MIN_SHARE * tones.size else []):
        # the box's own tone, with the print inside it (its code, in another tone) filled in
        same = (inside & (np.abs(grey.astype(np.int16) - own_tone) <= TONE)).astype(np.uint8)
        own = opened(_fill_holes(same, lambda hole, parent: True), p.k)
        if own_tone >= BLACK and own.sum() <= 0.95 * inside.sum():  # else one tone, nothing else in it
            ways.append((own, False))
    if gray:
        ways.append((_opened_wide(inside, p.k), True))  # not a coloured one: a logo's thick letters open into blocks
    piece = np.zeros_like(solid)
    found: list[Region] = []
    for way, one_box in ways:
        piece[y : y + h, x : x + w] = way
        parts = cv2.findContours(way, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0]
        wide = [part for part in parts if cv2.boundingRect(part)[2] >= w / 2]  # a narrow piece is a stamp's
        if one_box and len(wide) > 1:
            continue  # a paragraph painted over as one, its thin margin opened away: its lines are no boxes
        if gray and not one_box:  # a box in its own tone that a ring or a stamp bites into: they close it
            wide = [_closed(part, inside, (x, y)) for part in wide]
        found = [region for part in wide if (region := _filled(p, piece, part)) is not None]
        if found:
            break
    ringed = _around_a_ring(p, inside, (x, y)) if gray else []
    return ringed if sum(r.area for r in ringed) > sum(r.area for r in found) else found


def _around_a_ring(p: _Page, inside: NDArray[np.bool_], origin: tuple[int, int]) -> list[Region]:
    """Gray boxes that a ring in much their tone crosses (`rings`), as its component's pieces
    without the ring (each as wide as a word, closed by the ring where that fills its rectangle)
    judged on the page with the ring painted out: its band beside a box is no fill going on. A
    piece mostly of the band, bridged between the print the ring crosses, is none."""
    x, y = origin
    h, w = inside.shape
    unringed = rings.unringed(inside, p.grey[y : y + h, x : x + w], p.s)
    if unringed is None:
        return []
    kept, ring = unringed
    piece = np.zeros_like(p.grey)
    piece[y : y + h, x : x + w] = opened(kept, p.k)
    parts = cv2.findContours(piece[y : y + h, x : x + w], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0]
    paper = p.grey.copy()
    paper[y : y + h, x : x + w][ring & ~kept.astype(bool)] = 255
    out = []
    for part in parts:
        if not _covers_a_word(cv2.boundingRect(part), p.s):
            continue
        bx, by, bw, bh = cv2.boundingRect(box := _closed(part, inside, origin))
        if ring[by - y : by - y + bh, bx - x : bx - x + bw].mean() <= 0.5:
            out += [region] if (region := _filled(replace(p, grey=paper), piece, box)) is not None else []
    return out


def _opened_wide(inside: NDArray[np.bool_], k: int) -> NDArray[np.uint8]:
    """A component's mask opened with a square twice as wide as `k`: a ring's or a stamp's
    strokes go, a box as high stays. The crop's edge is no part of the component."""
    size = 2 * k + 1
    padded = np.pad(inside.astype(np.uint8), size)
    return np.ascontiguousarray(opened(padded, size)[size:-size, size:-size])


def _closed(part: NDArray[Any], ink: NDArray[np.bool_], origin: tuple[int, int]) -> NDArray[Any]:
    """A piece's rectangle, as a contour, where the ink of the component it was taken out of
    (`ink`, from `origin`) fills that rectangle as a box fills its own; else the piece."""
    x, y, w, h = cv2.boundingRect(part)
    left, top = x - origin[0], y - origin[1]
    if ink[top : top + h, left : left + w].mean() < MIN_FILL:
        return part
    return np.array([[[x, y]], [[x + w - 1, y]], [[x + w - 1, y + h - 1]], [[x, y + h - 1]]], dtype=np.int32)


def _crossed(p: _Page, solid: NDArray[np.uint8], c: NDArray[Any]) -> list[Region]:
    """Black boxes that a stamp's letters or frame, or a ring, cross in opaque lighter strokes,
    taken out of the ragged component they make together: opening it with a kernel twice as wide
    as `solid`'s leaves the box (a ring's or a stamp's strokes are thinner than a box is high)
    and the strokes' stubs past its edges, in rows with no black, which are cut off. Each piece
    as wide as a word and half the component, and crossed (`_inked_across`), is judged by its
    black. What the black alone finds whole goes before these (`_with_crossed`)."""
    x, y, w, h, mask = drawn(c)
    if h < LOW * p.s or w < WIDE * LOW * p.s or mask.mean() >= MIN_FILL:
        return []  # box-shaped as a whole: it is one box, or none
    inside = mask.astype(bool) & solid[y : y + h, x : x + w].astype(bool)
    grey = p.grey[y : y + h, x : x + w]
    dark = grey[inside][grey[inside] < BLACK]
    if dark.size < MIN_SHARE * inside.sum() or np.median(dark) >= BLACK / 2:
        return []  # too little black for a black box (a ring's gray may be most of it), or a dark gray's
    way = _opened_wide(inside, p.k)
    black = way.astype(bool) & (grey < BLACK)
    way = np.ascontiguousarray(way * (black.sum(axis=1) > way.sum(axis=1) / 20)[:, None].astype(np.uint8))
    piece = np.zeros_like(solid)
    piece[y : y + h, x : x + w] = way & black
    parts = cv2.findContours(way, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0]
    rects = [cv2.boundingRect(part) for part in parts]
    wide = [part for part, rect in zip(parts, rects, strict=True) if rect[2] >= w / 2 and _covers_a_word(rect, p.s)]
    found = [region for part in wide if _inked_across(p.grey, part) and (region := _filled(p, piece, part)) is not None]
    return [region for region in found if region.kind in ("black", "marker")]  # a red is as dark in grey


def _black_in(black: NDArray[np.bool_], box: Region, region: Region) -> int:
    """How many of a box's black pixels (`black`, from its top left corner) lie in a region's box."""
    x0, y0 = round(box.bbox[0]), round(box.bbox[1])
    left, top, right, bottom = (round(v) for v in region.bbox)
    return int(black[max(0, top - y0) : max(0, bottom - y0), max(0, left - x0) : max(0, right - x0)].sum())


def _inked_across(grey: NDArray[np.uint8], part: NDArray[Any]) -> bool:
    """Whether strokes of a lighter ink cross a black piece: some of it is not black, and that
    is mostly ink, not paper (a black logo's white letters are paper)."""
    x, y, w, h, mask = drawn(part)
    tones = grey[y : y + h, x : x + w][mask.astype(bool)]
    light = tones >= BLACK
    return bool(light.mean() >= 0.05 and (tones[light] >= PAPER).mean() < 0.5)


def _with_crossed(grey: NDArray[np.uint8], found: list[Region], crossed: list[Region]) -> list[Region]:
    """`found` with the black boxes `_crossed` took out: each replaces the pieces of it found (kind
    black where they all are: its opened shape is no measure of a felt-tip stroke's), unless one
    region found holds nearly all its black (a box or a stroke its black alone showed whole, its
    ends exact, the lighter ink beside it, not across it)."""
    out = list(found)
    for box in crossed:
        x0, y0, x1, y1 = (round(v) for v in box.bbox)
        black = grey[y0:y1, x0:x1] < BLACK
        if any(_black_in(black, box, r) >= 0.9 * black.sum() for r in out):
            continue
        pieces = [r for r in out if r.intersection(box.bbox) > 0.5 * r.area]
        if pieces and all(r.kind == "black" for r in pieces):
            box = replace(box, kind="black")
        out = [r for r in out if r not in pieces] + [box]
    return out


def _print_showing(p: _Page, rect: tuple[int, int, int, int]) -> bool:
    """Whether a low fill with no ink on it is print the blur greyed (a word, a date, a number):
    read enlarged, it reads as letters or digits that are no code."""
    x, y, w, h = rect
    text = codes.read(codes.enlarged(p.image.crop((x, y, x + w, y + h))), False, p.ocr)
    return text is not None and any(c.isalnum() for c in text) and not codes.reads_as_code(text)


def _within(rect: Sequence[int], box: tuple[float, float, float, float]) -> bool:
    x, y, w, h = rect
    return x >= box[0] and y >= box[1] and x + w <= box[2] and y + h <= box[3]


def _black_in_tint(
    p: _Page,
    black: NDArray[np.uint8],
    contours: Sequence[NDArray[Any]],
    painted: NDArray[np.uint8],
    found: list[Region],
) -> list[Region]:
    """Black boxes and marker strokes looked for in the black alone (`black`, its `contours`): one
    painted on a shaded ground, or touching a logo's gray, a stamp or a watermark, is part of a
    larger tinted component of `painted`. A black box of `painted` was judged whole already (the code
    printed on it may split its black in two): a piece of it is kept only with a code on it (the
    whole read as no code with a word of the print it touches, "nt 5.1.1c")."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(painted)
    out = []
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        if not _covers_a_word((x, y, w, h), p.s):
            continue
        label = labels[y + h // 2, x + w // 2]
        px, py, pw, ph = stats[label][:4]
        within = labels[py : py + ph, px : px + pw] == label
        tone = float(np.median(p.grey[py : py + ph, px : px + pw][within]))
        judged = bool(label) and float(within.mean()) >= MIN_FILL and tone < BLACK
        if judged and any(_same(Region((x, y, x + w, y + h)), r) for r in found):
            continue
        region = _filled(p, black, c)
        if judged and (region is None or region.code is None):
            continue
        if region is not None and region.kind == "marker" and painted[y : y + h, x : x + w].mean() >= MARKER_FILL:
            region = replace(region, kind="black")  # a black box a stamp's gray strokes cross: painted to its corners
        # a drawn box, or a felt-tip stroke a stamp's gray touches (a logo's black pieces, as ragged,
        # are too narrow or too short for a stroke: none on the VRDU pages)
        if region is not None and region.kind in ("black", "marker") and not any(_same(region, r) for r in found):
            out.append(region)
    return out


def _covers_a_word(rect: Sequence[int], s: float) -> bool:
    """Whether a piece of black is as wide as a redaction, which covers a word: a logo's or a
    bold heading's letters leave narrower pieces."""
    return rect[2] >= max(rect[3], 40 * s)


def _joined(p: _Page, found: list[Region]) -> list[Region]:
    """`found` with the pieces of a black box its code or a stamp cuts apart joined: on a fax, the
    thin black above and below a large light code's glyphs falls to the threshold, and the black
    between the glyphs is pieces side by side, each a box of its own or too narrow to be one; a
    stamp's gray ring painted across a box cuts it too (a piece its curve cuts is turned, with a
    polygon). Pieces in one row (tops and bottoms within a quarter of their height), each at most
    `GLYPH_GAP` of its height from the next, are read together, and are one box when they read as
    one code (two boxes with a word between them read as no code; the OCR reads a code only with
    a pixel of the paper around it)."""
    pieces = sorted((r for r in found if r.kind == "black"), key=lambda r: r.bbox[0])
    chains: list[list[Region]] = []
    for piece in pieces:
        chain = next((c for c in chains if _beside(p.grey, c[-1], piece)), None)
        if chain is None:
            chains.append([piece])
        else:
            chain.append(piece)
    out = [r for r in found if r.kind != "black"]
    for chain in chains:
        box = (chain[0].bbox[0], min(r.bbox[1] for r in chain), chain[-1].bbox[2], max(r.bbox[3] for r in chain))
        text = (
            codes.read(p.image.crop((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1)), True, p.ocr)
            if len(chain) > 1
            else None
        )
        if text is not None and codes.reads_as_code(text, dark_fill=True):
            out.append(Region(box, kind="black", code=text, score=min(r.score or 0.0 for r in chain)))
        else:
            out += chain
    return out


def _beside(grey: NDArray[np.uint8], a: Region, b: Region) -> bool:
    """Whether box b follows box a in its row, as a piece of one box its code or a stamp cut apart:
    the gap between them is mostly ink (the black the opening took from between the glyphs, or a
    stamp's gray), not paper."""
    h = a.height
    in_row = abs(a.bbox[1] - b.bbox[1]) <= h / 4 and abs(a.bbox[3] - b.bbox[3]) <= h / 4
    if not (in_row and -2 <= b.bbox[0] - a.bbox[2] <= GLYPH_GAP * h):
        return False
    gap = grey[round(max(a.bbox[1], b.bbox[1])) : round(min(a.bbox[3], b.bbox[3])), round(a.bbox[2]) : round(b.bbox[0])]
    return gap.size == 0 or float((gap < PAPER).mean()) >= GAP_INK


def _same(a: Region, b: Region) -> bool:
    """Whether two regions are one box found twice (the smaller lies mostly inside the other)."""
    return a.intersection(b.bbox) > 0.5 * min(a.area, b.area)


def _filled(p: _Page, solid: NDArray[np.uint8], c: NDArray[Any], sides: bool = True) -> Region | None:
    """The filled box an opened component is, or None when it is no redaction. `sides`: whether a
    gray or coloured fill going on past its left or right side makes it a piece of a larger one
    (not for a share of boxes that touch, `_by_codes`, whose neighbour is the next box)."""
    grey, s = p.grey, p.s
    x, y, w, h = cv2.boundingRect(c)
    if h < LOW * s or w < LOW * s or w * h > MAX_PAGE_SHARE * grey.shape[0] * grey.shape[1]:
        return None
    if w < h and h < TALL * s:
        return None  # a bold letter's stem ("I" in a heavy logo) or a rule's end: a redaction covers a word
    if h < RULE_LOW * LOW * s and w > RULE_LONG * h:
        return None  # a thick rule: a box as low as small print covers a few words
    outline = drawn(c)[4].astype(bool)
    filled = float(outline.mean())
    if filled < MIN_UNION_FILL:
        return None
    # the light print on a box and the blur around it are no part of its tone
    around_print = cv2.dilate(p.holes[y : y + h, x : x + w].astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    inside = outline & solid[y : y + h, x : x + w].astype(bool) & ~around_print
    tones = grey[y : y + h, x : x + w][inside]
    tone = float(_commonest(tones))
    if tone == 0:  # a noisy scan's black, clipped: it piles up at 0 and spreads above it
        tone = float(np.median(tones))
    even = float(np.mean(np.abs(tones.astype(np.int16) - int(tone)) <= TONE))
    if even < MIN_EVEN and tone >= BLACK:
        return None  # a black one may be blurred around its code: its code decides, below
    polygon = None
    fit = filled  # how well a rectangle fits it, upright or turned as a scan turns a box
    if filled < MARKER_FILL:  # a box on a skewed page fills the rectangle turned with it
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(c)
        turned = float(outline.sum()) / max(rw * rh, 1.0)
        skew = min(angle % 90, 90 - angle % 90)
        fit = max(filled, turned) if 0 < skew <= MAX_SKEW else filled
        if turned >= MIN_FILL and (filled < MIN_FILL or skew >= MIN_SKEW) and skew <= MAX_SKEW:
            filled = turned
            polygon = tuple((float(px), float(py)) for px, py in cv2.boxPoints(((cx, cy), (rw, rh), angle)))
    union = filled < MIN_FILL and tone == 0 and even > 0.99 and _rectilinear(c)  # boxes painted over each other
    sat = float(np.median(p.saturation[y : y + h, x : x + w][inside]))
    kind = _kind(tone, sat)
    # a felt-tip stroke that wavers or tilts fills its rectangle less than a box, evenly black
    stroke = kind == "black" and even >= STROKE_EVEN and w >= MARKER_WIDE * h and filled >= STROKE_FILL
    # else a light box the opening lost its ends of: its code decides, below
    loose = filled < MIN_FILL and not union and not stroke
    if loose:
        columns = np.flatnonzero((grey[y : y + h, x : x + w] < DARK).any(axis=0))
        if tone < BLACK or columns.size == 0 or columns[-1] - columns[0] < SPANNED * w:
            return None  # only where the glyphs of a dark code printed on it reach its ends
    if kind == "black" and fit < MARKER_FILL and not union:
        kind = "marker"  # round-ended and wavering: a felt-tip stroke, not a drawn box
    if kind == "marker" and w < MARKER_WIDE * h:
        return None  # a bold glyph or two, or a stamp's letter: a felt-tip stroke covers a word
    if kind != "black" and (w < WIDE * h or (sides and _continues(grey, (x, y, w, h), tone, p.k))):
        return None  # a stroke of a stamp's letters, or a piece of a shaded bar or a logo that its letters cut out
    code = None
    if _inner_ink(grey[y : y + h, x : x + w], outline, tone).sum() > 0.002 * w * h:
        code = codes.read(p.image.crop((x, y, x + w, y + h)), tone < 128, p.ocr)
        if code is not None and not codes.reads_as_code(code, tone < 128):
            return None  # a shaded field or a dark bar with its text showing: no redaction
    if stroke and filled < MIN_FILL and code is not None:
        return None  # a felt-tip stroke carries no code: a coded box's piece, the opening lost its ends
    coded = code and (codes.is_code(code, True) or codes.CODE_MISREAD.match("".join(code.split())))
    if (even < MIN_EVEN or loose) and not coded:
        return None  # uneven black, or a loose light box, and no code in it: a photo's or a logo's piece
    score = round(min(1.0, filled) * even, 3)  # how box-shaped and how even
    if kind in ("gray", "color") and score < MIN_SCORE and not loose:
        return None  # a shaded piece of a logo or a photo: no box is painted that unevenly
    if kind in ("gray", "color") and code is None and _between_rules(grey, (x, y, w, h), p.k):
        return None  # a table's shaded cells
    if kind == "gray" and code is None and h < 2 * LOW * s and _print_showing(p, (x, y, w, h)):
        return None  # a word a blurred scan greyed to one tone: the OCR reads it still
    return Region((float(x), float(y), float(x + w), float(y + h)), polygon, kind=kind, code=code, score=score)
