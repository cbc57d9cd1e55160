"""Entity linking: printed forms of one person, phone, address, organisation or code share an id;
different ones do not; each join says why."""

import pytest

from redact_agent.linking import Name, link, normal_form, person
from redact_agent.pages import Prediction


def _linked(*mentions: tuple[str, str]) -> list[Prediction]:
    return link([Prediction(type=t, bbox=(0, 10 * k, 50, 10 * k + 8), value=v) for k, (t, v) in enumerate(mentions)])


def _ids(*mentions: tuple[str, str]) -> list[str | None]:
    return [p.entity for p in _linked(*mentions)]


@pytest.mark.parametrize(
    "forms",
    [
        ["Fran Brown", "BROWN, FRAN", "F. Brown", "Brown"],  # the forms of one name
        ["Brown", "Fran Brown"],  # a surname first, the full name later
        ["(312) 555-0199", "312.555.0199", "+1 312 555 0199", "312-555-0199"],
        ["INV-3O41", "inv 3041"],  # an OCR 'O' for a zero
        ["Larry Evan$", "L. Evans", "EVANS, LARRY"],  # a mark read for a letter (synthetic documents seed 223)
        ["Erik Mcdonal d", "MCDONALD, ERIK"],  # a surname read in pieces (entities seed 369)
    ],
)
def test_printed_forms_of_one_entity_share_an_id(forms):
    type_ = "PHONE_NUMBER" if forms[0][0] in "(0123456789+" else "PERSON_NAME"
    type_ = "INVOICE_NUMBER" if forms[0].startswith("INV") else type_
    ids = _ids(*((type_, f) for f in forms))
    assert len(set(ids)) == 1 and ids[0] == f"{type_}#1"


def test_an_address_across_lines_and_an_organisation_without_its_legal_form():
    ids = _ids(
        ("POSTAL_ADDRESS", "101 S TOWER RD\nCARBONDALE, IL 62901"),
        ("POSTAL_ADDRESS", "101 S Tower Rd, Carbondale IL 62901"),
        ("ORGANIZATION", "Acme Widgets Inc."),
        ("ORGANIZATION", "ACME WIDGETS"),
    )
    assert ids == ["POSTAL_ADDRESS#1", "POSTAL_ADDRESS#1", "ORGANIZATION#1", "ORGANIZATION#1"]


def test_different_entities_stay_apart():
    ids = _ids(
        ("PERSON_NAME", "Fran Brown"),
        ("PERSON_NAME", "Bob Brown"),
        ("PERSON_NAME", "Brown"),  # two Browns: a lone surname fits neither for sure
        ("CONTRACT_NUMBER", "1234567"),
        ("CONTRACT_NUMBER", "1234568"),  # a digit apart: no fuzzy join for codes
        ("PHONE_NUMBER", "312-555-0199"),
        ("PHONE_NUMBER", "312-555-0198"),
        ("ORGANIZATION", "Jones Ltd"),
        ("ORGANIZATION", "Jones LLC"),  # two legal forms: two companies
    )
    assert ids == [
        "PERSON_NAME#1", "PERSON_NAME#2", "PERSON_NAME#3", "CONTRACT_NUMBER#1", "CONTRACT_NUMBER#2",
        "PHONE_NUMBER#1", "PHONE_NUMBER#2", "ORGANIZATION#1", "ORGANIZATION#2",
    ]  # fmt: skip


def test_a_name_the_ocr_garbled_joins_and_says_why():
    first, second = _linked(("PERSON_NAME", "Fran Brown"), ("PERSON_NAME", "Fran Browm"))
    assert second.entity == first.entity
    assert second.reason is not None and "OCR errors" in second.reason and "PERSON_NAME#1" in second.reason


def test_a_join_keeps_the_finders_reason_before_its_own():
    preds = [
        Prediction(type="PHONE_NUMBER", bbox=(0, 0, 5, 5), value="312-555-0199", reason="phonenumbers"),
        Prediction(type="PHONE_NUMBER", bbox=(0, 9, 5, 14), value="(312) 555-0199", reason="phonenumbers"),
    ]
    assert link(preds)[1].reason == "phonenumbers; PHONE_NUMBER#1 as '312-555-0199': the same number (+13125550199)"


def test_normal_forms():
    assert normal_form("PHONE_NUMBER", "(312) 555-0199") == "+13125550199"
    assert normal_form("CUSTOMER_ID", "Cl-4O5") == "c1405"
    assert person("Dr. Fran Brown") == person("BROWN, FRAN")
    assert person("F. Brown").first == "f" and person("Brown").first == ""
    assert person("Brown. Fran") == person("Fran Brown")  # the comma read as a dot
    assert person("Rev. Brown") == person("Brown")  # a title, not a surname before a comma
    # printed order where probablepeople reads otherwise: it takes "Martin Thomas" for Thomas
    # Martin, and "THOMAS, MARTIN" whole for a surname
    assert person("Martin Thomas") == person("THOMAS, MARTIN") == Name("thomas", "martin")
    assert person("BROWN FRAN") == Name("brown", "fran")  # a roster in capitals prints surname first
    assert person("John Smith, Jr.") == Name("smith", "john") and person("Smith, Jr.") == Name("smith", "")
