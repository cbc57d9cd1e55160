"""Station codes end where the code ends: glued to a date, in brackets, compound, in a logo;
call letters that name a programme are not codes."""

import pytest

from redact_agent.local.spans import PageText, value_of
from redact_agent.local.stations import find
from tests.local.rows import rows


def _codes(line: str) -> list[tuple[str, str]]:
    words = rows((line, (10, 10, 10 + 14 * len(line), 34)))
    return [(s.source, value_of(s, words)) for s in find(PageText.of(words))]


@pytest.mark.parametrize(
    "line, code",
    [
        ("KCWE06/03/20", "KCWE"),  # OCR glued the call letters to the date
        ("Rochester (WUHF)", "WUHF"),  # no brackets in the box
        ("KECI+KCFW", "KECI+KCFW"),
        ("KECI/NCFW/KCFW/KTVM", "KECI/NCFW/KCFW/KTVM"),
        ("Station WBAL-TV", "WBAL-TV"),
        ("WJZ-TV", "WJZ-TV"),
        ("c/o ESTM", "ESTM"),
        ("$2,000.00WAOW+", "WAOW+"),  # after a money amount the OCR glued on; a combination's "+"
        ("WAOW+ ABC", "WAOW+"),
        ("KTVM, Missoula", "KTVM"),  # a place after the comma: no first name
    ],
)
def test_call_letters_and_office_codes(line, code):
    assert [c for _, c in _codes(line)] == [code]


@pytest.mark.parametrize("line", ["CBS 13 WJZ", "CW62", "THE CW6", "abc 7", "11 WBALTV", "5 WRAL", "fox 45", "kcwe29"])
def test_a_logo_is_one_code(line):
    assert _codes(line) == [("station-logo", line)]


@pytest.mark.parametrize(
    "line",
    [
        "KMBC 9 News on KCWE",
        "Contract Line Remarks: 13 WHAM News @ 10P",
        "26017-News-WUHF",
        "WRAL AM News 6-7a",
        "WEEK 12",
        "KEEP",
        "for item WADE, KEITH",  # a surname before a first name (synthetic entities seed 461)
    ],
)
def test_programmes_and_words_are_not_codes(line):
    assert _codes(line) == []
