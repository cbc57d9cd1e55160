"""How a printed word's width divides among its characters.

A span that takes part of an OCR word ("officeJ.Weaver", the name glued to the word before it)
is boxed by its characters' share of the word's box where its glyphs do not stand apart one per
character (`ink.tighten_chars`). In proportional print characters are not equally wide: "office"
is 37% of "officeJ.Weaver" as printed, not 6/14 (43%, which put the cut past the "J"); the shares
come from a proportional font's advances, Pillow's bundled sans (Aileron) standing in for print's.
In monospaced print ("Receipt##173034" in a typewriter face) they are the characters' count.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache

import numpy as np
from PIL import ImageFont

from redact_agent.tools.ocr import Word

SIZE = 100  # px: the font size the advances are measured at
MIN_CHARS = 3  # the fewest characters of a word whose width tells print's spacing
MIN_WORDS = 3  # per line: its words' widths are compared with each other's
SURE = 0.9  # the least OCR confidence of such a word
# how much more closely monospaced print's widths follow their characters' count than their
# advances: 0.19 to 0.31 as much spread on 18 synthetic typewriter pages, 0.89 to 1.85 on 72 others
MONO = 0.5


@cache
def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=SIZE)


def _advance(text: str) -> float:
    return float(_font().getlength(text))


def share(text: str, chars: int, mono: bool) -> float:
    """The share of `text`'s printed width that its first `chars` characters take; `mono`: in
    monospaced print."""
    whole = 0.0 if mono else _advance(text)
    return _advance(text[:chars]) / whole if whole > 0 else chars / max(1, len(text))


def monospaced(words: list[Word]) -> bool:
    """Whether a page is printed in a monospaced face: on its lines (one size of print each), its
    words' widths follow their characters' count `MONO` times as closely as their proportional
    advances or more (the mean absolute log ratio of each word's width per character, and per
    advance, to its line's median). A page with no such line is taken as proportional."""
    lines: dict[int, list[Word]] = defaultdict(list)
    for w in words:
        if len(w.text) >= MIN_CHARS and w.confidence >= SURE:
            lines[w.line].append(w)
    count: list[float] = []
    advance: list[float] = []
    for line in lines.values():
        if len(line) < MIN_WORDS:
            continue
        width = np.array([w.bbox[2] - w.bbox[0] for w in line])
        for out, per in ((count, [len(w.text) for w in line]), (advance, [_advance(w.text) for w in line])):
            ratio = np.log(width / np.array(per, dtype=float))
            out += list(np.abs(ratio - np.median(ratio)))
    return bool(count) and float(np.mean(count)) < MONO * float(np.mean(advance))
