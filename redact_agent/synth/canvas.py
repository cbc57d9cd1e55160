"""A page being drawn, that remembers the exact ink of every PII value it draws.

Text is rendered through a per-string alpha mask, pasted onto the page; the pixels where the
mask is at least half opaque are the value's ink, written into an item map (item number per
pixel). Gold boxes are the extents of each item's pixels in that map, so they hug the glyphs
exactly, and they stay exact after the page is skewed (the map is rotated with the page).
Fonts are the DejaVu, STIX and Computer Modern faces that matplotlib ships, so no system font
is needed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import matplotlib
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

_FONT_DIR = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
FACES = {
    "sans": ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    "serif": ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"),
    "mono": ("DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"),
    "times": ("STIXGeneral.ttf", "STIXGeneralBol.ttf"),
    "roman": ("cmr10.ttf", "cmb10.ttf"),
}
INK_ALPHA = 128  # a mask pixel this opaque is ink (what Otsu keeps on a clean page)


@lru_cache(maxsize=256)
def font(face: str, px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(_FONT_DIR / FACES[face][bold]), px)


@dataclass(frozen=True)
class Item:
    type: str
    value: str | None  # None for a signature
    entity: str  # items of one real-world thing share it ("PERSON_NAME#2"): the gold's entity id


class Canvas:
    def __init__(
        self,
        width: int,
        height: int,
        dpi: int,
        face: str,
        pt: float,
        rng: random.Random,
        entities: dict[str, int] | None = None,
    ) -> None:
        self.width, self.height, self.dpi, self.face, self.rng = width, height, dpi, face, rng
        self.image = Image.new("L", (width, height), 255)
        self.items_map = np.zeros((height, width), dtype=np.uint16)
        self.items: list[Item] = []
        self._entities = {} if entities is None else entities  # entities so far, per type (a document's)
        self.px = max(6, round(pt * dpi / 72))  # body font size in pixels
        self.ink = rng.randint(0, 60)

    def font(self, scale: float = 1.0, bold: bool = False) -> ImageFont.FreeTypeFont:
        return font(self.face, max(6, round(self.px * scale)), bold)

    def line_height(self, f: ImageFont.FreeTypeFont) -> int:
        return round(f.size * 1.35)

    def length(self, text: str, f: ImageFont.FreeTypeFont) -> int:
        return round(f.getlength(text))

    def text(
        self, x: int, y: int, text: str, f: ImageFont.FreeTypeFont, pii: str | None = None, entity: str | None = None
    ) -> int:
        """Draws `text` with its top-left at (x, y); returns the x after it. With `pii`, the
        text is one value of that type and becomes a gold item (of `entity`, when it is another
        printed form of an earlier one)."""
        self._draw(x, y, text, f, self._new_item(pii, text, entity) if pii else 0)
        return x + self.length(text, f)

    def block(self, x: int, y: int, lines: list[str], f: ImageFont.FreeTypeFont, pii: str) -> int:
        """A value over several lines (an address): one item enclosing all of them; returns the
        y below it."""
        k = self._new_item(pii, "\n".join(lines))
        for line in lines:
            self._draw(x, y, line, f, k)
            y += self.line_height(f)
        return y

    def pieces(self, parts: list[tuple[int, int, str]], f: ImageFont.FreeTypeFont, pii: str, value: str) -> None:
        """One value drawn in pieces at (x, y) each (a value wrapped inside running text)."""
        k = self._new_item(pii, value)
        for x, y, piece in parts:
            self._draw(x, y, piece, f, k)

    def signature(self, x: int, y: int, w: int, h: int) -> None:
        """A drawn, handwriting-like stroke sequence (type SIGNATURE, no value)."""
        k = self._new_item("SIGNATURE", None)
        layer = Image.new("L", (w, h), 0)
        draw = ImageDraw.Draw(layer)
        pts, px = [], 0.0
        while px < w - 4:
            pts.append((px, self.rng.uniform(0.15, 0.85) * h))
            px += self.rng.uniform(0.04, 0.12) * w
        draw.line(pts, fill=255, width=max(2, h // 18), joint="curve")
        self._paste(x, y, layer, k)

    def rule(self, x0: int, y0: int, x1: int, y1: int) -> None:
        ImageDraw.Draw(self.image).rectangle((x0, y0, x1, y1), fill=self.ink)

    def _new_item(self, pii: str, value: str | None, entity: str | None = None) -> int:
        """A new gold item. Its entity is the one given, or that of the same value printed
        before on the page (a footer repeating the invoice number), or a new one."""
        if entity is None:
            entity = next((i.entity for i in self.items if value and (i.type, i.value) == (pii, value)), None)
        if entity is None:
            self._entities[pii] = self._entities.get(pii, 0) + 1
            entity = f"{pii}#{self._entities[pii]}"
        self.items.append(Item(pii, value, entity))
        return len(self.items)

    def _draw(self, x: int, y: int, text: str, f: ImageFont.FreeTypeFont, k: int) -> None:
        left, top, right, bottom = (int(v) for v in f.getbbox(text))
        if right <= left or bottom <= top:
            return
        layer = Image.new("L", (right - left, bottom - top), 0)
        ImageDraw.Draw(layer).text((-left, -top), text, font=f, fill=255)
        self._paste(x + left, y + top, layer, k)

    def _paste(self, x: int, y: int, layer: Image.Image, k: int) -> None:
        """Pastes an alpha layer at (x, y), clipped to the page, and records its ink as item k."""
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + layer.width), min(self.height, y + layer.height)
        if x1 <= x0 or y1 <= y0:
            return
        layer = layer.crop((x0 - x, y0 - y, x1 - x, y1 - y))
        self.image.paste(self.ink, (x0, y0, x1, y1), layer)
        if k:
            ink: NDArray[np.bool_] = np.asarray(layer) >= INK_ALPHA
            self.items_map[y0:y1, x0:x1][ink] = k
