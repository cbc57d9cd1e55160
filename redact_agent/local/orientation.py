"""Pages printed sideways or upside down: a landscape form on a portrait page, its lines running
up or down, or a sheet fed into the scanner the wrong way round.

RapidOCR reads a sideways page's lines as boxes taller than wide, turning each a quarter to read
it, so the words come back, but half of them misread and laid out in columns, where the
recognisers look for rows. Where most characters are in such lines, the page is read again
turned the quarter its lines' confidence points to, and the other way too where that reads
unsurely (`upright`).
An upside-down page reads as rows of low confidence: below `UNSURE`, it is read turned half way
too, and kept so where that reads better. The engine works on the page turned upright, and the
boxes it finds are turned back onto the page as given.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from redact_agent.boxes import Box, union_box
from redact_agent.pages import Prediction
from redact_agent.tools.ocr import OcrEngine, Word

TALL = 1.5  # a line's box this many times taller than wide runs up or down the page
TURNS = (Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_270)  # a quarter turn left, and right
# A reading below this mean confidence per character is unsure: upright dev and synthetic pages
# read at 0.88 or more, two of them upside down at 0.73-0.76, and a sideways page's lines turned
# the wrong way at 0.71-0.79 (the right way: 0.99).
UNSURE = 0.8


def _lines(words: list[Word]) -> list[tuple[list[Word], bool]]:
    """Each OCR line's words, and whether the line runs up or down the page."""
    lines: dict[int, list[Word]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    out = []
    for line in lines.values():
        x0, y0, x1, y1 = union_box([w.bbox for w in line])
        out.append((line, y1 - y0 > TALL * (x1 - x0)))
    return out


def _chars(words: list[Word]) -> int:
    return sum(len(w.text) for w in words)


def _confidence(words: list[Word]) -> float:
    """Characters read, each weighted by its word's confidence."""
    return sum(w.confidence * len(w.text) for w in words)


def _sure(words: list[Word]) -> bool:
    """Whether the characters are read with `UNSURE` confidence or more, on average."""
    return _confidence(words) >= UNSURE * _chars(words)


def sideways(words: list[Word]) -> bool:
    """Whether most characters are in lines that run up or down the page (on the dev and
    synthetic pages: 92% on the one page printed sideways, none on any other)."""
    return 2 * sum(_chars(line) for line, tall in _lines(words) if tall) > _chars(words)


class Upright(NamedTuple):
    page: Image.Image  # the page turned upright
    turn: Image.Transpose | None  # the turn (None: it is upright as given)
    words: list[Word]  # the OCR words read on it


def upright(page: Image.Image, ocr: OcrEngine) -> Upright:
    """The page turned upright, the turn, and its words. RapidOCR turns a line that runs up or
    down a quarter left to read it: read surely, a sideways page is upright turned a quarter
    left, else most likely a quarter right; that turn is read, and the other too only where it
    reads unsurely, the surer of the two kept. An upside-down page's rows read unsurely: it is
    read turned half way, which is kept where it reads more surely."""
    words = ocr.words(page)
    if sideways(words):
        tall = [w for line, up in _lines(words) if up for w in line]
        first, other = TURNS if _sure(tall) else TURNS[::-1]
        turned = _read(page, first, ocr)
        if _sure(turned.words):
            return turned
        flipped = _read(page, other, ocr)
        return flipped if _confidence(flipped.words) > _confidence(turned.words) else turned
    if _sure(words):
        return Upright(page, None, words)
    flipped = _read(page, Image.Transpose.ROTATE_180, ocr)
    return flipped if _confidence(flipped.words) > _confidence(words) else Upright(page, None, words)


def _read(page: Image.Image, turn: Image.Transpose, ocr: OcrEngine) -> Upright:
    """The page turned by `turn`, read."""
    turned = page.transpose(turn)
    return Upright(turned, turn, ocr.words(turned))


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
