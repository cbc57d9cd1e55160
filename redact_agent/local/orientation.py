"""Pages printed sideways or upside down: a landscape form on a portrait page, its lines running
up or down, or a sheet fed into the scanner the wrong way round.

RapidOCR reads a sideways page's lines as boxes taller than wide, turning each a quarter to read
it, so the words come back, but half of them misread and laid out in columns, where the
recognisers look for rows. Where most characters are in such lines, the page is read again
turned a quarter each way and the turn read with the more confident characters is its upright.
An upside-down page reads as rows of low confidence: below `UNSURE`, it is read turned half way
too, and kept so where that reads better. The engine works on the page turned upright, and the
boxes it finds are turned back onto the page as given.
"""

from __future__ import annotations

from PIL import Image

from redact_agent.boxes import Box, union_box
from redact_agent.pages import Prediction
from redact_agent.tools.ocr import OcrEngine, Word

TALL = 1.5  # a line's box this many times taller than wide runs up or down the page
TURNS = (Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_270)  # a quarter turn left, and right
# Below this mean confidence per character a page may be upside down, and is read turned half
# way too: upright dev and synthetic pages read at 0.88 or more, two of them turned at 0.73-0.76.
UNSURE = 0.8


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


def _confidence(words: list[Word]) -> float:
    """Characters read, each weighted by its word's confidence."""
    return sum(w.confidence * len(w.text) for w in words)


def upright_turn(page: Image.Image, ocr: OcrEngine) -> Image.Transpose | None:
    """The turn that sets a sideways or upside-down page upright; None for an upright page."""
    words = ocr.words(page)
    if sideways(words):
        return max(TURNS, key=lambda turn: _confidence(ocr.words(page.transpose(turn))))
    chars = sum(len(w.text) for w in words)
    if not chars or _confidence(words) >= UNSURE * chars:
        return None
    turned = ocr.words(page.transpose(Image.Transpose.ROTATE_180))
    return Image.Transpose.ROTATE_180 if _confidence(turned) > _confidence(words) else None


def upright(page: Image.Image, ocr: OcrEngine) -> tuple[Image.Image, Image.Transpose | None]:
    """The page turned upright, and the turn (None: it is upright as given)."""
    turn = upright_turn(page, ocr)
    return (page if turn is None else page.transpose(turn)), turn


def turned_back_all(
    predictions: list[Prediction], turn: Image.Transpose | None, size: tuple[int, int]
) -> list[Prediction]:
    """Predictions found on the page turned by `turn`, on the page as given (`size`)."""
    if turn is None:
        return predictions
    return [p.model_copy(update={"bbox": turned_back(p.bbox, turn, size)}) for p in predictions]


def turned_back(box: Box, turn: Image.Transpose, size: tuple[int, int]) -> Box:
    """A box on the page turned by `turn`, on the page as given (`size`: its width, height)."""
    width, height = size
    x0, y0, x1, y1 = box
    if turn == Image.Transpose.ROTATE_90:  # turned left: the page's (x, y) is at (y, width - x)
        return (width - y1, x0, width - y0, x1)
    if turn == Image.Transpose.ROTATE_180:  # the page's (x, y) is at (width - x, height - y)
        return (width - x1, height - y1, width - x0, height - y0)
    return (y0, height - x1, y1, height - x0)  # turned right: the page's (x, y) is at (height - y, x)
