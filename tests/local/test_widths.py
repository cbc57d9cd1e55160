"""A span that takes part of an OCR word is boxed by its characters' printed share of the word."""

import pytest

from redact_agent.local.engine import _trimmed
from redact_agent.local.spans import Span
from redact_agent.local.widths import share
from redact_agent.tools.ocr import Word


def test_narrow_characters_take_less_of_a_word():
    assert share("iiii", 2) == 0.5 and share("", 0) == 0
    assert 0.33 < share("officeJ.Weaver", 6) < 0.4 < 6 / 14  # "office", lowercase and its "ffi", is narrow
    assert share("MMii", 2) > 0.7


def test_a_name_glued_to_the_word_before_is_boxed_from_its_capital():
    # Entities seed 865: "office J. Weaver" read "officeJ.Weaver"; by character count the cut
    # fell 9 px past the "J" (IoU 0.70 with the gold), by the characters' widths on it.
    words = [Word("officeJ.Weaver", (213, 868, 417, 900), 1.0, 0, 0)]
    x0 = _trimmed(words, Span("PERSON_NAME", (0,), 0.9, "repeat", cut_left=6), 0)[0]
    assert 286 < x0 < 292  # the "J" is printed from 291
    assert _trimmed(words, Span("PERSON_NAME", (0,), 0.9, "repeat", cut_right=8), 0)[2] == pytest.approx(
        x0
    )  # "office" alone
