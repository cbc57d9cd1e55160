"""A signature is the unexplained ink beside its label: a scrawl, never a ruled line or a dot."""

import numpy as np
from PIL import Image, ImageDraw

from redact_agent.local import signatures
from redact_agent.local.ink import grey
from redact_agent.local.spans import PageText
from tests.local.rows import rows


def _find(draw_mark) -> list:
    page = Image.new("RGB", (900, 300), "white")
    draw = ImageDraw.Draw(page)
    draw_mark(draw)
    words = rows(("Signature:", (40, 200, 160, 220)))
    text = PageText.of(words)
    return signatures.find(grey(np.asarray(page)), text.segs, words)


def test_a_scrawl_beside_the_label_is_the_signature():
    found = _find(lambda d: d.line([(180, 215), (200, 190), (230, 222), (260, 195), (300, 214)], fill="black", width=3))
    assert len(found) == 1 and found[0][0] >= 175 and found[0][2] <= 305


def test_a_ruled_line_or_a_dot_is_no_signature():
    assert _find(lambda d: d.rectangle((30, 150, 400, 154), fill="black")) == []  # a table rule above the label
    assert _find(lambda d: d.rectangle((300, 212, 304, 218), fill="black")) == []  # a full stop the OCR left
