"""SIGNATURE: handwritten or drawn marks beside a signature label, found in the ink.

OCR does not read a signature, so this works on pixels: next to a label such as "Signature",
"Signed" or "Authorized by" (to its right on the same row, or in the rows above a label
printed under a signature line), the dark connected components that no OCR word explains
are the mark. Weak: an unlabeled signature is not found.
"""

from __future__ import annotations

import re

import cv2
import numpy as np
from numpy.typing import NDArray

from redact_agent.boxes import Box
from redact_agent.local.ink import extents
from redact_agent.local.layout import Segment, part
from redact_agent.tools.ocr import Word

RULE_RATIO = 8  # a component this many times wider than tall is a ruled line, not a stroke
MIN_MARK = (12, 8)  # px: the smallest signature, wide and tall
MAX_LINES = 3  # line heights: the tallest signature
LABEL = re.compile(r"\b(?:signature|signed|sign\s+here|authori[sz]ed\s+by|x_{3,})\b", re.IGNORECASE)


def _ink_box(page_grey: NDArray[np.uint8], region: Box, words: list[Word]) -> Box | None:
    h, w = page_grey.shape
    x0, y0 = max(0, int(region[0])), max(0, int(region[1]))
    x1, y1 = min(w, int(region[2])), min(h, int(region[3]))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    crop = page_grey[y0:y1, x0:x1].copy()
    for wd in words:  # mask printed words; OCR's reading of a scrawl ("/\\/") is no printed word
        if wd.confidence < 0.5 or sum(c.isalnum() for c in wd.text) < 2:
            continue
        bx0, by0, bx1, by1 = (int(v) for v in wd.bbox)
        crop[max(0, by0 - y0) : max(0, by1 - y0), max(0, bx0 - x0) : max(0, bx1 - x0)] = 255
    _, ink = cv2.threshold(crop, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    if int(crop.max()) - int(crop.min()) < 64:
        return None
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    marks = [
        s
        for s in stats[1:]
        if s[cv2.CC_STAT_AREA] >= 20
        and s[cv2.CC_STAT_HEIGHT] > 3
        and s[cv2.CC_STAT_WIDTH] < RULE_RATIO * s[cv2.CC_STAT_HEIGHT]  # a table rule or a signature line
    ]
    box = extents(marks, x0, y0)
    if box is None or box[2] - box[0] < MIN_MARK[0] or box[3] - box[1] < MIN_MARK[1]:
        return None  # a dot or a comma the OCR left unread is no signature
    return box


def find(page_grey: NDArray[np.uint8], segs: list[Segment], words: list[Word]) -> list[Box]:
    out = []
    for seg in segs:
        m = LABEL.search(seg.text)
        if not m:
            continue
        label_words, _, _ = seg.cuts(m.start(), m.end() + 1)
        x0, y0, x1, y1 = part(seg, label_words, words).box
        lh = max(y1 - y0, 10)
        right = (x1 + 4, y0 - lh, x1 + 400, y1 + lh // 2)
        above = (x0 - 20, y0 - 4 * lh, x0 + 400, y0 - 1)
        for region in (right, above):
            box = _ink_box(page_grey, region, words)
            if box is not None and box[3] - box[1] <= MAX_LINES * lh:  # taller is a paragraph OCR misread
                out.append(box)
                break
    return out
