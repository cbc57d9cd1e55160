"""How a printed word's width divides among its characters.

A span that takes part of an OCR word ("officeJ.Weaver", the name glued to the word before it)
is boxed by its characters' share of the word's box where its glyphs do not stand apart one per
character (`ink.tighten_chars`). Characters are not equally wide: "office" is 37% of
"officeJ.Weaver" as printed, not 6/14 (43%, which put the cut past the "J"). The shares come from
a proportional font's advances: Pillow's bundled sans (Aileron), a stand-in for print's.
"""

from __future__ import annotations

from functools import cache

from PIL import ImageFont

SIZE = 100  # px: the font size the advances are measured at


@cache
def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=SIZE)


def share(text: str, chars: int) -> float:
    """The share of `text`'s printed width that its first `chars` characters take."""
    whole = _font().getlength(text)
    return _font().getlength(text[:chars]) / whole if whole > 0 else chars / max(1, len(text))
