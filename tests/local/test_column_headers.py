"""A table cell takes its column header's type, also when the OCR line boxes of the header
and the cell overlap by a few pixels (detectors pad each line; the ad-buy pages do this)."""

import pytest

from redact_agent.local.engine import recognise
from redact_agent.tools.ocr import Word


def _page(value_top: float) -> list[Word]:
    # Boxes read off a dev page (vrdu-adbuy-3f02d9abfa22-p1): "Agy Code" above "1268".
    return [
        Word("Agy", (846, 573, 878, 599), 0.99, 0, 0),
        Word("Code", (880, 573, 920, 599), 0.99, 0, 0),
        Word("Advertiser", (955, 575, 1033, 597), 0.99, 1, 1),
        Word("1268", (847, value_top, 884, value_top + 24), 0.99, 2, 2),
    ]


@pytest.mark.parametrize("value_top", [603, 599, 597])  # a gap, touching, 2 px of overlap
def test_cell_under_header_takes_its_type(value_top):
    words = _page(value_top)
    spans = [(s.type, [words[i].text for i in s.words]) for s in recognise(words)]
    assert ("CUSTOMER_ID", ["1268"]) in spans


def test_a_word_on_the_same_line_is_not_a_header():
    words = _page(597)
    words[3] = Word("1268", (847, 580, 884, 598), 0.99, 2, 2)  # level with "Agy Code"
    assert not any(s.type == "CUSTOMER_ID" for s in recognise(words))
