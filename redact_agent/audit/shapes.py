"""Sizes and shapes the audit's detectors share: how low a box is at least, how much of its
bounding box it fills, the darkest grey a drawn line keeps, the paper's grey, and two mask
operations."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

LINE = 160  # the darkest grey a drawn outline's line keeps on a scan
PAPER = 230  # grey levels above this are paper
LOW = 14  # px on a 2200 px page: a box, or an outline's inside, as low as a line of small print
MIN_FILL = 0.85  # share of its bounding box a box's outline covers


def opened(mask: NDArray[Any], k: int | tuple[int, int]) -> NDArray[np.uint8]:
    size = (k, k) if isinstance(k, int) else k
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, size)))


def drawn(c: NDArray[Any]) -> tuple[int, int, int, int, NDArray[np.uint8]]:
    """A contour's bounding rectangle and the mask of its inside (holes filled) within it."""
    x, y, w, h = cv2.boundingRect(c)
    mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(mask, [c - [x, y]], -1, 1, thickness=cv2.FILLED)
    return x, y, w, h, mask
