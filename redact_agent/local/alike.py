"""Every other place a found code or phone number is printed, found by its look.

The OCR misses a value printed again where a stamp lies over it, where it glues or splits the
line's words, or where its word boxes drift off the print on a skewed line; the ink itself is the
same as the mention it found. A found value's ink (its prediction's box on the page) is matched
over the page as a template (OpenCV's normalised cross-correlation, at half size first where the
print is large enough, then at full size around each candidate). A place that matches it `ALIKE`
or better is that value printed again (a found value's other printings on the synthetic tuning
seeds matched it so in 182 of 269 cases, the rest printed in another size or weight), or another
number of its series (one digit apart: 0.93): a prediction of the value there whose box is off
takes the template's box; a place with none gets one, unless the OCR read another number there.

A template is a prediction whose box is clean at its sides: no print in the columns just beyond it
(a box that drifted off its value cuts the value's glyphs, and would carry that drift to where it
matches).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
from numpy.typing import NDArray

from redact_agent.boxes import as_array, covered_area, iou_matrix
from redact_agent.linking import CODE_TYPES, alnum
from redact_agent.local.garbled import align
from redact_agent.local.ink import halfway
from redact_agent.local.repeats import REPEAT_LESS
from redact_agent.pages import Prediction
from redact_agent.tools.ocr import Word

Box = tuple[float, float, float, float]

ALIKE = 0.8  # the least normalised correlation of a place with a found value's ink to be that value
COARSE = 0.7  # at half size, the least for a candidate place
HALF = 16  # px: the least height of a template searched at half size first
MIN_DIGITS = 5  # a shorter number's ink is too like another's
MIN_HEIGHT, MIN_WIDTH = 7, 24  # px: a template smaller than this is too little ink to know a value by
MOST_PLACES = 8  # places per template
MARGIN = 3  # px beyond a template's sides that hold no print
SAME = 0.75  # IoU at which a prediction already boxes a place (the scoring protocol's tau)
OFF = 0.1  # IoU at which a prediction of the value is there with its box off
BLANK = 0.05  # the most of a template's print columns that may be paper at a place where it matches
INSIDE = 0.7  # the least share of a word's width in a place where it reads the value found there
COVERED = 0.8  # the share of a place that another prediction's box holds for it to be redacted already
LOOK_TYPES = CODE_TYPES | {"PHONE_NUMBER"}


@dataclass(frozen=True)
class _Place:
    box: Box
    score: float
    template: Prediction


def alike(page_grey: NDArray[np.uint8], predictions: list[Prediction], words: list[Word]) -> list[Prediction]:
    """`predictions` with every other place a found code or phone is printed that matches its ink:
    a prediction of the value there takes the template's box where its own is off; a place no
    prediction redacts gets one of its own."""
    out, page = list(predictions), _Page(page_grey)
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(predictions):
        if p.type in LOOK_TYPES and p.value and sum(c.isdigit() for c in p.value) >= MIN_DIGITS:
            groups.setdefault(alnum(p.value), []).append(i)
    for key, members in groups.items():
        templates = [predictions[i] for i in members if _clean(page_grey, predictions[i].bbox)]
        places = sorted((place for t in templates for place in _places(page, t)), key=lambda place: -place.score)
        taken: list[Box] = [out[i].bbox for i in members]
        for place in places:
            if _near(place.box, taken, SAME):
                continue
            off = [i for i in members if _near(place.box, [out[i].bbox], OFF)]
            t = place.template
            reason = f"printed again, found by its look (ink like the {t.value!r} found as {t.reason})"
            if off:
                out[off[0]] = out[off[0]].model_copy(update={"bbox": place.box, "reason": reason})
            elif not _covered(place.box, [p.bbox for p in out]) and _read_as(key, words, place.box):
                confidence = max(0.0, (t.confidence or 0.5) - REPEAT_LESS)
                out.append(Prediction(type=t.type, bbox=place.box, value=t.value, confidence=confidence, reason=reason))
            else:
                continue
            taken.append(place.box)
    return out


def _covered(box: Box, boxes: list[Box]) -> bool:
    """`COVERED` of `box` lies in a box of `boxes`: a prediction there redacts it already (a
    longer value's, "994.976.8991 ext. 767" for the found "994.976.8991")."""
    x0, y0, x1, y1 = box
    return bool(boxes) and covered_area(np.array(box), as_array(boxes)) >= COVERED * (x1 - x0) * (y1 - y0)


def _near(box: Box, boxes: list[Box], least: float) -> bool:
    return bool(boxes) and float(iou_matrix(as_array([box]), as_array(boxes)).max()) >= least


def _clean(page_grey: NDArray[np.uint8], box: Box) -> bool:
    """No print in the `MARGIN` columns beyond either side of `box`, darker than halfway from the
    box's darkest ink to its paper."""
    h, w = page_grey.shape
    x0, y0, x1, y1 = (round(v) for v in box)
    if x0 - MARGIN < 0 or x1 + MARGIN > w or y0 < 0 or y1 > h or y1 - y0 < MIN_HEIGHT or x1 - x0 < MIN_WIDTH:
        return False
    crop = page_grey[y0:y1, x0:x1]
    middle = halfway(crop)
    sides = np.hstack([page_grey[y0:y1, x0 - MARGIN : x0], page_grey[y0:y1, x1 : x1 + MARGIN]])
    return bool(crop.min() < middle) and not bool((sides < middle).any())


class _Page:
    """A page's grey image, and at half size, blurred, made once for all its templates."""

    def __init__(self, grey: NDArray[np.uint8]) -> None:
        self.grey = grey

    @cached_property
    def half(self) -> NDArray[np.uint8]:
        """The page at half size, blurred first: a place half a pixel off the template's grid
        matches it (thin strokes sampled out of phase fell to 0.61 unblurred)."""
        blurred = cv2.GaussianBlur(self.grey, (0, 0), 1.0)
        return np.asarray(cv2.resize(blurred, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), dtype=np.uint8)


def _places(page: _Page, template: Prediction) -> list[_Place]:
    """The places other than its own where a template's ink is printed, `ALIKE` or better."""
    x0, y0, x1, y1 = (round(v) for v in template.bbox)
    t = page.grey[y0:y1, x0:x1]
    th, tw = t.shape
    if t.std() < 1:
        return []
    if th >= HALF:
        small = page.half  # the template as the half-size page prints it, on its pixel grid
        ts = small[y0 // 2 : (y1 + 1) // 2, x0 // 2 : (x1 + 1) // 2]
        coarse = [(2 * x, 2 * y) for x, y in _peaks(_match(small, ts), COARSE, ts.shape)]
    else:
        coarse = _peaks(_match(page.grey, t), ALIKE, t.shape)
    out = []
    for cx, cy in coarse:
        wx, wy = max(0, cx - 4), max(0, cy - 4)
        window = page.grey[wy : cy + 4 + th, wx : cx + 4 + tw]
        if window.shape[0] < th or window.shape[1] < tw:
            continue
        _, score, _, (lx, ly) = cv2.minMaxLoc(_match(window, t))
        x, y = wx + lx, wy + ly
        box = (float(x), float(y), float(x + tw), float(y + th))
        halves = [(0, tw // 2), (tw // 2, tw)]  # each half alike too
        each = all(_alike(page.grey[y : y + th, x + a : x + b], t[:, a:b]) for a, b in halves)
        inked = _inked(page.grey[y : y + th, x : x + tw], t)
        if score >= ALIKE and each and inked and not _near(box, [template.bbox], 0.5):
            out.append(_Place(box, float(score), template))
    return out


def _alike(crop: NDArray[np.uint8], template: NDArray[np.uint8]) -> bool:
    return float(_match(crop, template).max()) >= ALIKE


def _inked(crop: NDArray[np.uint8], template: NDArray[np.uint8]) -> bool:
    """The place has print in the columns the template's print takes, but `BLANK` of them at most
    (a stamp adds ink, it takes none away): "+1 687 691 2213" matched "687.691.2213" at 0.8, each
    half too, its "+1" over the paper before it on a fax."""
    middle = halfway(template)
    wanted = (template < middle).any(axis=0)
    columns = (crop < middle).any(axis=0)
    there = columns | np.roll(columns, 1) | np.roll(columns, -1)  # a pixel's drift either way
    return int((wanted & ~there).sum()) <= BLANK * int(wanted.sum())


def _match(image: NDArray[np.uint8], template: NDArray[np.uint8]) -> NDArray[np.float32]:
    return np.asarray(cv2.matchTemplate(image, template, cv2.TM_CCOEFF_NORMED), dtype=np.float32)


def _peaks(res: NDArray[np.float32], least: float, shape: tuple[int, ...]) -> list[tuple[int, int]]:
    """Up to `MOST_PLACES` + 1 best places of a correlation map at `least` or better, a template's
    size apart (the template's own place among them)."""
    res = res.copy()
    th, tw = shape[:2]
    out = []
    for _ in range(MOST_PLACES + 1):
        _, score, _, (x, y) = cv2.minMaxLoc(res)
        if score < least:
            break
        out.append((x, y))
        res[max(0, y - th // 2) : y + th // 2 + 1, max(0, x - tw // 2) : x + tw // 2 + 1] = -1
    return out


def _read_as(key: str, words: list[Word], box: Box) -> bool:
    """Whether the OCR read the value at `box`, or a garbled or lost reading of it, and not
    another number or another word: the words there lie in the box, `INSIDE` of each at least (a
    template of "+1 371 807 4043" matched "371.807.4043" and the end of the word before it), and
    their letters and digits (`linking.alnum`) are none, the value, or align with it
    (`garbled.align`: no digit read as another)."""
    x0, y0, x1, y1 = box
    there = [
        w
        for w in words
        if min(w.bbox[3], y1) - max(w.bbox[1], y0) >= min(w.bbox[3] - w.bbox[1], y1 - y0) / 2
        and w.bbox[2] > x0
        and w.bbox[0] < x1
    ]
    inside = all(min(w.bbox[2], x1) - max(w.bbox[0], x0) >= INSIDE * (w.bbox[2] - w.bbox[0]) for w in there)
    read = alnum("".join(w.text for w in there))
    return inside and (not read or read == key or align(key, read) is not None)
