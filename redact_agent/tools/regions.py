"""Image regions of a page: the pixel work behind the crop, zoom and OCR tools.

A region is clamped to the page, grown to a minimum size around its centre (a model asking
for a 3-pixel sliver gets something legible), and scaled so that its long side never exceeds
`MAX_SIDE`. The `Region` keeps the page box it shows and its scale, so any position a model
reads inside the region image maps back to page pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from redact_agent.boxes import Box
from redact_agent.errors import RedactAgentError
from redact_agent.tools.ocr import OcrEngine, Word

MIN_SIDE = 32  # page pixels
MAX_SIDE = 1568  # output pixels (a common VLM image cap)
MAX_SCALE = 4.0


class RegionError(RedactAgentError):
    """A requested region does not exist on the page."""


@dataclass(frozen=True)
class Region:
    image: Image.Image
    page_box: Box  # the page pixels the image shows
    scale: float  # region-image pixels per page pixel

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A point of the region image -> page pixels."""
        return (self.page_box[0] + x / self.scale, self.page_box[1] + y / self.scale)


def _grow(lo: float, hi: float, size: int) -> tuple[float, float]:
    """Widen [lo, hi] to at least MIN_SIDE (or the page) around its centre, inside [0, size]."""
    need = min(MIN_SIDE, size)
    if hi - lo >= need:
        return lo, hi
    mid = (lo + hi) / 2
    lo, hi = mid - need / 2, mid + need / 2
    if lo < 0:
        lo, hi = 0.0, float(need)
    if hi > size:
        lo, hi = float(size - need), float(size)
    return lo, hi


def region(page: Image.Image, box: Box, scale: float = 1.0) -> Region:
    """The part of `page` under `box` (page pixels), clamped, grown and scaled as above."""
    if not 0 < scale <= MAX_SCALE:
        raise RegionError(f"scale must be in (0, {MAX_SCALE}], got {scale}")
    w, h = page.size
    x0, y0 = max(0.0, box[0]), max(0.0, box[1])
    x1, y1 = min(float(w), box[2]), min(float(h), box[3])
    if x0 >= x1 or y0 >= y1:
        raise RegionError(f"box {list(box)} does not overlap the {w}x{h} page")
    x0, x1 = _grow(x0, x1, w)
    y0, y1 = _grow(y0, y1, h)
    # Whole pixels, so the crop and the reported box agree exactly.
    ix0, iy0, ix1, iy1 = int(x0), int(y0), int(min(w, -(-x1 // 1))), int(min(h, -(-y1 // 1)))
    scale = min(scale, MAX_SIDE / max(ix1 - ix0, iy1 - iy0))
    crop = page.crop((ix0, iy0, ix1, iy1))
    out_w, out_h = max(1, round((ix1 - ix0) * scale)), max(1, round((iy1 - iy0) * scale))
    if (out_w, out_h) != crop.size:
        crop = crop.resize((out_w, out_h), Image.Resampling.LANCZOS)
    return Region(crop, (float(ix0), float(iy0), float(ix1), float(iy1)), out_w / (ix1 - ix0))


def ocr_words(page: Image.Image, engine: OcrEngine, box: Box | None = None, scale: float = 1.0) -> list[Word]:
    """OCR the whole page, or the region under `box` (optionally zoomed), in page pixels."""
    if box is None:
        return engine.words(page)
    r = region(page, box, scale)
    words = []
    for wd in engine.words(r.image):
        x0, y0 = r.to_page(wd.bbox[0], wd.bbox[1])
        x1, y1 = r.to_page(wd.bbox[2], wd.bbox[3])
        words.append(Word(wd.text, (x0, y0, x1, y1), wd.confidence, wd.line, wd.block))
    return words
