"""Pages printed sideways: a landscape form on a portrait page, its lines running up or down.

RapidOCR reads a sideways page's lines as boxes taller than wide, turning each a quarter to read
it, so the words come back, but half of them misread and laid out in columns, where the
recognisers look for rows. Where most characters are in such lines, the
page is read again turned a quarter each way, the turn read with the more confident characters
is its upright, the engine works on the page turned upright, and the boxes it finds are turned
back onto the page as given.
"""

from __future__ import annotations

from PIL import Image

from redact_agent.boxes import Box, union_box
from redact_agent.tools.ocr import OcrEngine, Word

TALL = 1.5  # a line's box this many times taller than wide runs up or down the page
TURNS = (Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_270)  # a quarter turn left, and right


def sideways(words: list[Word]) -> bool:
    """Whether most characters are in lines that run up or down the page (on the dev and
    synthetic pages: 92% on the one page printed sideways, none on any other)."""
    lines: dict[int, list[Word]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    total = tall = 0
    for line in lines.values():
        x0, y0, x1, y1 = union_box([w.bbox for w in line])
        chars = sum(len(w.text) for w in line)
        total += chars
        tall += chars if y1 - y0 > TALL * (x1 - x0) else 0
    return tall > total / 2


def upright_turn(page: Image.Image, ocr: OcrEngine) -> Image.Transpose | None:
    """The quarter turn that sets a sideways page upright; None for a page that is upright (or
    upside down: RapidOCR reads such a page's lines as rows, and this does not turn it)."""
    if not sideways(ocr.words(page)):
        return None

    def confidence(turn: Image.Transpose) -> float:
        return sum(w.confidence * len(w.text) for w in ocr.words(page.transpose(turn)))

    return max(TURNS, key=confidence)


def turned_back(box: Box, turn: Image.Transpose, size: tuple[int, int]) -> Box:
    """A box on the page turned by `turn`, on the page as given (`size`: its width, height)."""
    width, height = size
    x0, y0, x1, y1 = box
    if turn == Image.Transpose.ROTATE_90:  # turned left: the page's (x, y) is at (y, width - x)
        return (width - y1, x0, width - y0, x1)
    return (y0, height - x1, y1, height - x0)  # turned right: the page's (x, y) is at (height - y, x)
