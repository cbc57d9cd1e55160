"""A table cell takes its column header's type, also when the OCR line boxes of the header
and the cell overlap by a few pixels (detectors pad each line; the ad-buy pages do this)."""

import pytest

from redact_agent.local.engine import find_spans, recognise
from redact_agent.local.spans import PageText, value_of
from redact_agent.policy import load_policy
from redact_agent.tools.ocr import Word
from tests.local.rows import found, rows


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
    assert ("CUSTOMER_ID", "1268") in found(_page(value_top))


def test_a_word_on_the_same_line_is_not_a_header():
    words = _page(597)
    words[3] = Word("1268", (847, 580, 884, 598), 0.99, 2, 2)  # level with "Agy Code"
    assert not any(s.type == "CUSTOMER_ID" for s in recognise(PageText.of(words)))


def test_label_in_a_header_row_heads_its_column():
    # vrdu-adbuy-df5c19e6546e-p1: "Account Executive" has another header to its right.
    words = rows(
        ("Account Executive", (773, 207, 910, 229)),
        ("Sales Office", (997, 207, 1085, 230)),
        ("Darah Wright", (773, 230, 872, 256)),
        ("HRP - Washington", (998, 229, 1160, 255)),
    )
    assert ("PERSON_NAME", "Darah Wright") in found(words)


def test_estimate_line_gives_number_and_surname():
    # spec/annotation.md: "a surname inside an estimate label ("EST 1405-B HAMILTON") is a PERSON_NAME"
    spans = found(rows(("EST 1405-B HAMILTON", (641, 290, 822, 312))))
    assert {("CONTRACT_NUMBER", "1405-B"), ("PERSON_NAME", "HAMILTON")} <= spans
    other = found(rows(("EST 1405 GENERAL", (641, 290, 822, 312))))
    assert ("CONTRACT_NUMBER", "1405") in other and not any(t == "PERSON_NAME" for t, _ in other)


def test_est_external_label():
    words = rows(("Est/External #", (501, 284, 588, 306)), ("802/ECR26903114", (651, 286, 782, 307)))
    assert ("CONTRACT_NUMBER", "802/ECR26903114") in found(words)


def test_a_code_whose_bracket_the_form_clipped():
    # vrdu-adbuy-97411d426513-p1: the field ends in "(454", its ")" cut off by the form.
    words = rows(("Salesperson", (500, 191, 590, 209)), ("HOUSE-MONTANA, KECI/KTVM (454", (605, 191, 925, 209)))
    codes = [value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "EMPLOYEE_ID"]
    assert codes == ["454"]


def test_a_header_types_its_whole_column():
    words = rows(
        ("Agy Code", (846, 573, 920, 597)),
        ("1268", (847, 603, 884, 627)),
        ("2231", (847, 633, 884, 657)),
        ("9904", (847, 663, 884, 687)),
    )
    assert {("CUSTOMER_ID", c) for c in ("1268", "2231", "9904")} <= found(words)


def test_a_line_of_prose_under_a_phone_column_is_no_phone():
    # Held-out entities seed 648: "Phone:" over a number, then a paragraph's line holding two
    # codes, eleven digits in all: it was taken whole for a phone down the column, one box over
    # the line and both codes in it (IoU 0.03 with each).
    words = rows(
        ("Phone:", (207, 1220, 306, 1266)),
        ("426.541.0244", (204, 1267, 430, 1320)),
        ("and quantity approval CL-029841 processed find EST-26610 approved", (205, 1325, 1700, 1380)),
    )
    phones = {text for type_, text in found(words) if type_ == "PHONE_NUMBER"}
    assert phones == {"426.541.0244"}


@pytest.mark.parametrize(
    "label, type_",
    [("Agency Client Code:", "CUSTOMER_ID"), ("Traffic Line No.", "CONTRACT_NUMBER"), ("Sls Rep Code", "EMPLOYEE_ID")],
)
def test_an_unknown_label_whose_words_say_code_types_its_value(label, type_):
    words = rows((f"{label} X7731B", (40, 40, 40 + 14 * (len(label) + 7), 64)))
    assert (type_, "X7731B") in found(words) or any(t == type_ and "X7731B" in v for t, v in found(words))


@pytest.mark.parametrize("label", ["Product Code:", "No:", "Rate:"])
def test_labels_that_name_no_code_type_nothing(label):
    words = rows((f"{label} 7731B", (40, 40, 40 + 14 * (len(label) + 7), 64)))
    assert not any(t.endswith(("_ID", "_NUMBER")) for t, _ in found(words))


@pytest.mark.parametrize("line, code", [
    ("please send C75334 the attached schedule", "C75334"),
    ("HX-21-809494", "HX-21-809494"),
    ("Rate: X7731", "X7731"),
    ("see #907193 for the details", "#907193"),
    ("regarding C'734514 terms", "C'734514"),  # a quote read after its first letter (entities 323)
    ("note S·922327 today", "S·922327"),  # its hyphen read as a middle dot (entities 97)
])  # fmt: skip
def test_a_code_with_no_label_is_known_by_its_shape(line, code):
    assert ("CUSTOMER_ID", code) in found(rows((line, (40, 40, 40 + 14 * len(line), 64))))


@pytest.mark.parametrize(
    "line", ["Budget FY2020 approved", "Flight Q42020", "ISCI: ABCD1234", "PEPA0230H", "Line #12", "30 spots"]
)
def test_years_product_codes_and_counts_are_no_codes(line):
    assert not any(t == "CUSTOMER_ID" for t, _ in found(rows((line, (40, 40, 40 + 14 * len(line), 64)))))


def test_a_field_above_is_no_column_header():
    # Synthetic seed 5: an account number printed under a "Phone:" field is no phone's digits;
    # under a "Phone" column header it would be.
    under_field = rows(("Phone: 668.383.8229", (900, 304, 1150, 330)), ("629290682931", (900, 340, 1080, 366)))
    assert ("FINANCIAL_ACCOUNT", "629290682931") in found(under_field)
    under_header = rows(("Phone", (900, 304, 980, 330)), ("629290682931", (900, 340, 1080, 366)))
    assert ("FINANCIAL_ACCOUNT", "629290682931") not in found(under_header)


def test_a_value_that_opens_with_its_own_label_takes_that_type():
    words = rows(("Est/External # CPE:MBLM/MBLM/0110", (40, 40, 520, 64)))
    assert any(t == "CUSTOMER_ID" and v.endswith("MBLM/MBLM/0110") for t, v in found(words))
    words = rows(("Invoice: Statement.ST-3584773", (40, 40, 520, 64)))  # its label glued on by a dot
    spans = find_spans(PageText.of(words), load_policy("all"))
    assert [(s.type, s.cut_left) for s in spans if s.words == (1,)] == [("INVOICE_NUMBER", len("Statement."))]
    # Held-out entities seed 655: a title "INVOICE" over "Invoice # INV-6424728" read as one word.
    words = rows(("INVOICE", (40, 40, 200, 64)), ("Invoice#INV-6424728", (40, 80, 300, 104)))
    spans = find_spans(PageText.of(words), load_policy("all"))
    assert {(s.type, s.cut_left) for s in spans if s.words == (1,)} == {("INVOICE_NUMBER", len("Invoice#"))}


def test_slash_separated_codes_are_customer_ids_and_dates_are_not():
    assert ("CUSTOMER_ID", "123/456/7890") in found(rows(("123/456/7890", (40, 40, 200, 64))))
    assert not any(t == "CUSTOMER_ID" for t, _ in found(rows(("02/12/2020", (40, 40, 200, 64)))))


@pytest.mark.parametrize("line, type_", [("Member # M278627", "CUSTOMER_ID"), ("Badge # E091839", "EMPLOYEE_ID")])
def test_a_label_ending_in_a_hash_keeps_its_kind(line, type_):
    assert (type_, line.split()[-1]) in found(rows((line, (40, 40, 300, 64))))


def _customer_column(cell: str) -> list[Word]:
    # Boxes read off a synthetic invoice: the header is wider than the codes under it.
    return [
        Word("Customer", (697, 505, 799, 532), 0.99, 0, 0),
        Word("ID", (801, 506, 820, 532), 0.99, 0, 0),
        Word("Qty", (919, 506, 948, 535), 0.99, 0, 0),
        Word(cell, (695, 541, 795, 569), 0.99, 1, 1),
    ]


def test_a_header_wider_than_its_column_types_it():
    assert ("CUSTOMER_ID", "M4947681") in found(_customer_column("M4947681"))


def test_one_character_under_a_header_is_no_code():
    words = _customer_column("1")
    assert not any(s.type == "CUSTOMER_ID" for s in recognise(PageText.of(words)))


def test_a_card_label_alone_types_its_number():
    assert ("FINANCIAL_ACCOUNT", "07229576813") in found(rows(("Card: 07229576813", (40, 40, 300, 64))))


@pytest.mark.parametrize("header", ["Customer II)", "Customer lD", "Customer 1D"])
def test_a_header_whose_id_the_ocr_misread(header):
    # Synthetic seed 7: "Customer ID" read as "Customer II)" over a code OCR read with a stray dot.
    words = rows((header, (694, 714, 800, 730)), ("CL.-9831908", (694, 738, 805, 756)))
    assert ("CUSTOMER_ID", "CL.-9831908") in found(words)


@pytest.mark.parametrize(
    "line, code",
    [("Advertiser Code: GMAC", "GMAC"), ("Agy Code: OMD-NY", "OMD-NY"), ("Agency Code: NONE", None),
     ("Product Code: XYZ", None)],
)  # fmt: skip
def test_a_short_code_in_capitals_is_an_agency_or_advertiser_code(line, code):
    # spec/annotation.md: agency and advertiser codes are CUSTOMER_IDs, letters alone too
    got = {v for t, v in found(rows((line, (40, 40, 40 + 16 * len(line), 64)))) if t == "CUSTOMER_ID"}
    assert got == ({code} if code else set())


def test_a_header_whose_words_name_a_kind_is_that_kind_also_near_another_headers_spelling():
    # "Agency Order" is 87% alike "Agency Code" (a near spelling the OCR makes), but names an order
    words = rows(("Agency Order", (100, 100, 220, 122)), ("AO-99812", (100, 126, 190, 148)))
    assert ("CONTRACT_NUMBER", "AO-99812") in found(words)
    misread = rows(("\\qy Code", (100, 100, 180, 122)), ("1268", (100, 126, 140, 148)))
    assert ("CUSTOMER_ID", "1268") in found(misread)
