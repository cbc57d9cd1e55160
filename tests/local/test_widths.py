"""A span that takes part of an OCR word is boxed by its characters' printed share of the word."""

import pytest

from redact_agent.local.engine import _trimmed
from redact_agent.local.spans import PageText, Span
from redact_agent.local.widths import _advance, monospaced, share
from redact_agent.tools.ocr import Word


def test_narrow_characters_take_less_of_a_word_but_in_monospaced_print():
    assert share("iiii", 2, False) == 0.5 and share("", 0, False) == 0
    assert 0.33 < share("officeJ.Weaver", 6, False) < 0.4 < 6 / 14  # "office", lowercase and its "ffi", is narrow
    assert share("MMii", 2, False) > 0.7
    assert share("Receipt##173034", 8, True) == 8 / 15


def _line(texts: list[str], per_char: float, line: int) -> list[Word]:
    """Words printed in a monospaced face, `per_char` px a character, a space apart."""
    out, x = [], 10.0
    for t in texts:
        out.append(Word(t, (x, 20.0 * line, x + per_char * len(t), 20.0 * line + 14), 0.99, line, 0))
        x += per_char * (len(t) + 1)
    return out


def test_a_page_is_monospaced_when_its_widths_follow_the_characters_count():
    texts = ["Receipt", "Williams", "mill", "WWW-MMM", "illicit", "summary"]
    typed = _line(texts, 9, 0) + _line(texts[::-1], 12, 1)  # two sizes of print
    assert monospaced(typed)
    printed = [  # the same words in proportional print, as wide as their advances
        Word(
            w.text,
            (w.bbox[0], w.bbox[1], w.bbox[0] + _advance(w.text) * (0.2 + 0.05 * w.line), w.bbox[3]),
            0.99,
            w.line,
            0,
        )
        for w in typed
    ]
    assert not monospaced(printed)
    assert not monospaced(typed[:2])  # too few words on a line to tell


def test_a_name_glued_to_the_word_before_is_boxed_from_its_capital():
    # Entities seed 865: "office J. Weaver" read "officeJ.Weaver"; by character count the cut
    # fell 9 px past the "J" (IoU 0.70 with the gold), by the characters' widths on it.
    text = PageText.of([Word("officeJ.Weaver", (213, 868, 417, 900), 1.0, 0, 0)])
    x0 = _trimmed(text, Span("PERSON_NAME", (0,), 0.9, "repeat", cut_left=6), 0)[0]
    assert 286 < x0 < 292  # the "J" is printed from 291
    assert _trimmed(text, Span("PERSON_NAME", (0,), 0.9, "repeat", cut_right=8), 0)[2] == pytest.approx(x0)
