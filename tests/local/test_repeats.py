"""A found value is marked wherever else it is printed: in another case, with other edge
punctuation, and, for a person, the surname printed alone."""

from redact_agent.local.engine import find_spans
from redact_agent.local.spans import PageText
from redact_agent.policy import load_policy
from tests.local.rows import rows


def _found(*lines: tuple[str, tuple[float, float, float, float]]) -> set[tuple[str, str, str]]:
    words = rows(*lines)
    spans = find_spans(PageText.of(words), load_policy("all"))
    return {(s.type, " ".join(words[i].text for i in s.words), s.source) for s in spans}


def test_a_name_printed_again_in_capitals_is_marked():
    found = _found(("Attn: Gary Huang", (40, 40, 300, 64)), ("GARY HUANG", (40, 400, 300, 424)))
    assert ("PERSON_NAME", "GARY HUANG", "repeat") in found


def test_a_surname_printed_alone_after_the_full_name_is_that_person():
    found = _found(("Attn: Gary Huang", (40, 40, 300, 64)), ("Please call Huang, today", (40, 400, 400, 424)))
    assert ("PERSON_NAME", "Huang,", "repeat") in found


def test_a_surname_that_is_a_form_word_or_lowercase_is_not_marked_alone():
    found = _found(
        ("Attn: Mary Price", (40, 40, 300, 64)),
        ("Unit Price", (40, 400, 300, 424)),
        ("Attn: Gary Huang", (40, 500, 300, 524)),
        ("huang", (40, 600, 300, 624)),
    )
    assert not any(text in ("Price", "huang") for _, text, _ in found)


def test_a_surname_inside_an_organisation_stays_with_it():
    found = _found(("Attn: Gary Huang", (40, 40, 300, 64)), ("Huang Media Group LLC", (40, 400, 400, 424)))
    assert not any(t == "PERSON_NAME" and text == "Huang" for t, text, _ in found)


def test_a_name_printed_again_in_another_form_is_marked():
    found = _found(
        ("Attn: Fran Brown", (40, 40, 300, 64)),
        ("Questions to BROWN, FRAN or F. Brown today", (40, 400, 700, 424)),
    )
    assert {("PERSON_NAME", "BROWN, FRAN", "repeat"), ("PERSON_NAME", "F. Brown", "repeat")} <= found
