"""Values a paragraph wraps onto its next line, logins among contact details, and codes with no
label or with their '#'."""

import pytest

from redact_agent.local.engine import recognise, resolve
from redact_agent.local.handles import is_login
from redact_agent.local.spans import PageText, value_of
from redact_agent.tools.ocr import Word
from tests.local.rows import rows


def _resolved(*lines: tuple[str, tuple[float, float, float, float]]) -> set[tuple[str, str]]:
    words = rows(*lines)
    return {(s.type, value_of(s, words)) for s in resolve(recognise(PageText.of(words)), words)}


def test_a_name_the_paragraph_wraps_is_one_name_over_both_lines():
    got = _resolved(
        ("the monthly review was weekly kindly Caitlin", (40, 100, 900, 114)),
        ("Clayton supplies renewal consulting subtotal", (40, 118, 860, 132)),
    )
    assert ("PERSON_NAME", "Caitlin\nClayton") in got


def test_a_name_the_paragraph_wraps_after_its_initial_or_before_a_surname_that_is_a_form_word():
    # Entities seeds 877 and 655: "... you David G." over "Day order ...", "... 2021 Ryan" over
    # "Gross approved ...": the name's head was the initial alone, and "Day" and "Gross" are form words.
    got = _resolved(
        ("pending the report meeting you David G.", (40, 100, 900, 114)),
        ("Day order office kindly following with", (40, 118, 860, 132)),
        ("equipment review 22 May 2021 Ryan", (40, 136, 900, 150)),
        ("Gross approved thirty description", (40, 154, 860, 168)),
    )
    assert {("PERSON_NAME", "David G.\nDay"), ("PERSON_NAME", "Ryan\nGross")} <= got
    # a form word after a sentence's end, or no surname, is no name's end
    got = _resolved(
        ("the total was paid thank you Ryan.", (40, 100, 900, 114)),
        ("Gross amount is due at the office", (40, 118, 860, 132)),
        ("the meeting is with our Grant", (40, 136, 900, 150)),
        ("Balance due in thirty days", (40, 154, 860, 168)),
        ("paid by Johnson, Everett and Floyd", (40, 172, 900, 186)),  # a firm, over a label (entities 461)
        ("Bill to: Sandoval PLC", (40, 190, 400, 204)),
    )
    assert not any("\n" in v for t, v in got if t == "PERSON_NAME")


def test_a_first_name_ending_a_line_over_another_column_is_not_joined():
    got = _resolved(
        ("the monthly review was weekly kindly Caitlin", (40, 100, 900, 114)),
        ("Clayton supplies renewal consulting subtotal", (400, 118, 1260, 132)),
    )
    assert not any(t == "PERSON_NAME" for t, _ in got)


def test_a_fields_name_that_goes_on_under_its_first_name_is_one_name():
    # "Attn: Mary" over "Johnson", the surname in a line of its own under the first name
    got = _resolved(("Attn: Mary", (40, 40, 300, 64)), ("Johnson", (170, 66, 300, 90)))
    assert ("PERSON_NAME", "Mary\nJohnson") in got
    # a line under it that the name does not take whole is another field
    got = _resolved(("Attn: Mary", (40, 40, 300, 64)), ("Johnson Media", (170, 66, 400, 90)))
    assert ("PERSON_NAME", "Mary") in got and ("PERSON_NAME", "Mary\nJohnson") not in got


def test_a_fields_value_of_several_words_that_goes_on_under_its_start_is_one_name():
    got = _resolved(("Prepared by: Robert J.", (40, 100, 300, 114)), ("Smith", (172, 118, 230, 132)))
    assert ("PERSON_NAME", "Robert J.\nSmith") in got


def test_a_fields_value_that_the_cell_wraps_to_its_left_margin_is_one_name():
    got = _resolved(("Buyer: Jennifer", (40, 100, 200, 114)), ("Rodriguez", (40, 118, 150, 132)))
    assert ("PERSON_NAME", "Jennifer\nRodriguez") in got


def test_a_whole_name_or_a_next_field_does_not_go_on():
    whole = _resolved(("From: Tricia Perry", (40, 100, 240, 114)), ("Allen", (40, 118, 100, 132)))
    assert ("PERSON_NAME", "Tricia Perry") in whole
    field = _resolved(("Advertiser: Harris", (40, 100, 240, 114)), ("Name: Charles O. Jones", (40, 118, 300, 132)))
    assert not any(v.startswith("Harris") and "Charles" in v for _, v in field)
    # Documents seed 470: "North Eric", a city, over "Morgan Grant days ...": the lower line's whole name is the person
    opening = _resolved(
        ("Location: North Eric", (40, 100, 300, 114)), ("Morgan Grant days following", (40, 118, 360, 132))
    )
    assert ("PERSON_NAME", "Morgan Grant") in opening and not any("Eric" in v for _, v in opening)
    # vrdu2: "AMERICA FIRST ACTION", a committee in capitals, is no person
    caps = _resolved(("Sponsor: North Eric", (40, 100, 300, 114)), ("AMERICA FIRST ACTION", (40, 118, 360, 132)))
    assert not any(v == "AMERICA FIRST" for _, v in caps)


def test_a_fields_value_goes_on_under_it_beside_another_field_with_a_surname_the_census_lacks():
    # vrdu2's ad-buy pages: "Buyer: MAUREEN" over "SHREEMAN", "Primary Demo: ..." to its right
    got = _resolved(
        ("Buyer: MAUREEN", (882, 203, 1023, 230)),
        ("Primary Demo: Adults 35+", (1133, 205, 1338, 228)),
        ("SHREEMAN", (941, 221, 1038, 244)),
    )
    assert ("PERSON_NAME", "MAUREEN\nSHREEMAN") in got


def test_a_phone_number_and_an_extension_the_paragraph_wraps():
    got = _resolved(
        ("please call the office at (497)", (40, 100, 900, 114)),
        ("991-9391 before the meeting starts", (40, 118, 860, 132)),
        ("quantity report kindly schedule 636-629-8479", (40, 136, 900, 150)),
        ("ext. 120 meeting minutes attached", (40, 154, 860, 168)),
    )
    assert ("PHONE_NUMBER", "(497)\n991-9391") in got
    assert ("PHONE_NUMBER", "636-629-8479\next. 120") in got


def test_a_phone_the_paragraph_wraps_before_a_date_is_one_phone():
    # Held-out documents seed 901: phonenumbers read no number across "+1 561 344" / "4508 2021-04-22".
    got = _resolved(
        ("supplies questions licence terms meeting remit +1 561 344", (40, 100, 900, 114)),
        ("4508 2021-04-22 coverage amount information", (40, 118, 860, 132)),
    )
    assert ("PHONE_NUMBER", "+1 561 344\n4508") in got


def _skewed(*lines: str, x0: float = 40, y0: float = 100, step: float = 140, rise: float = 6) -> list[Word]:
    """Lines of words 48 px tall, each word `rise` px lower than the one before it (a page turned
    a few degrees), the lines 52 px apart at their start."""
    out = []
    for line, text in enumerate(lines):
        for k, part in enumerate(text.split()):
            top = y0 + 52 * line + rise * k
            out.append(Word(part, (x0 + k * step, top, x0 + (k + 1) * step - 14, top + 48), 0.99, line, line))
    return out


def test_a_name_a_skewed_paragraph_wraps_is_one_name():
    # Entities seed 942: a paragraph turned 3 degrees; each line's box is three lines tall, and the
    # line under "... we for James" started above its middle: "Owen" was no line under it.
    words = _skewed(
        "pending supplies support statement request airtime summary updated materials we for James",
        "Owen status credit remit team thirty approved 2022-01-26 attached total summary hours",
        "approved team lodging coverage report consulting days thank maintenance",
    )
    got = {(s.type, tuple(words[i].text for i in s.words)) for s in resolve(recognise(PageText.of(words)), words)}
    assert ("PERSON_NAME", ("James", "Owen")) in got


def test_digits_either_side_of_a_break_that_no_phone_is_printed_as_are_not_joined():
    got = _resolved(
        ("the total of the order was 49", (40, 100, 900, 114)), ("2026 01 26 was the day", (40, 118, 860, 132))
    )
    assert not any(t == "PHONE_NUMBER" for t, _ in got)


@pytest.mark.parametrize(
    "token",
    ["bmorris", "ericzimmerman", "wangchristopher", "gutierrezhannah", "john.smith", "hannah1987",
     "leetony", "katelynhayes", "brooksmichaela"],  # a short surname first (433), a rarer first name (789, 803)
)  # fmt: skip
def test_logins_made_of_names(token):
    assert is_login(token)


@pytest.mark.parametrize("token", ["hardware", "meeting", "supplies", "kindly", "Bmorris", "bob", "greenhouse"])
def test_words_are_no_logins(token):
    assert not is_login(token)


def test_a_login_ends_a_contact_line_and_not_a_line_of_running_text():
    assert ("ONLINE_ID", "bmorris") in _resolved(("Tel. 914.656.9452 bmorris", (40, 100, 400, 114)))
    running = _resolved(("please call 914.656.9452 today and ask the desk for bmorris", (40, 100, 900, 114)))
    assert not any(t == "ONLINE_ID" for t, _ in running)


def test_a_login_alone_at_the_end_of_a_line_among_fields():
    # Entities seed 865: "Bill to: Webb-Knapp", then far right "davissteven"; documents seed 307:
    # "gsalazar" alone on a line between "Date: 2021-03-12" and "Agency: Larson, Lawson and Morgan".
    row = _resolved(("Bill to: Webb-Knapp", (40, 100, 300, 124)), ("davissteven", (500, 100, 640, 124)))
    assert ("ONLINE_ID", "davissteven") in row
    lines = (("Date: 2021-03-12", (40, 100, 200, 124)), ("gsalazar", (40, 128, 130, 152)))
    assert ("ONLINE_ID", "gsalazar") in _resolved(*lines, ("Agency: Larson and Morgan", (40, 156, 300, 180)))
    # a word that splits into names alone at the end of a line, no field near it: no login
    prose = (("the reports are all in the folder and", (40, 100, 600, 124)), ("thanks", (700, 100, 770, 124)))
    assert not any(t == "ONLINE_ID" for t, _ in _resolved(*prose))


def test_a_hash_glued_to_a_numbers_digits_is_printed_as_the_value_and_a_labels_is_not():
    got = _resolved(("Invoice No. #37297", (40, 100, 300, 114)), ("Invoice # 40211", (40, 130, 300, 144)))
    assert ("INVOICE_NUMBER", "#37297") in got
    assert ("INVOICE_NUMBER", "40211") in got


def test_a_repeat_of_a_hashed_value_keeps_its_hash():
    got = _resolved(("Invoice No. #37297", (40, 100, 300, 114)), ("Total due for #37297 now", (40, 400, 400, 414)))
    assert ("INVOICE_NUMBER", "#37297") in got and ("INVOICE_NUMBER", "37297") not in got


def test_a_bare_long_number_is_an_account_and_a_short_one_is_not():
    got = _resolved(
        ("birth: 1973-08-15 77454288276", (40, 100, 500, 114)), ("Qty 1250 Total 4402", (40, 130, 400, 144))
    )
    assert ("FINANCIAL_ACCOUNT", "77454288276") in got
    assert not any(t == "FINANCIAL_ACCOUNT" for t, v in got if v != "77454288276")


def test_a_drivers_licence_by_its_abbreviated_label():
    assert ("GOVERNMENT_ID", "D934-7408-8661") in _resolved(("Driver's Lic. D934-7408-8661", (40, 100, 400, 114)))


def test_a_p_o_box_over_its_city_line_in_tight_leading_is_one_address():
    # RapidOCR's line boxes of small print overlap by more than half a line
    got = _resolved(("Ship to: P.O. Box 1019", (49, 329, 184, 357)), ("North Jonmouth, AL 40699", (99, 345, 261, 372)))
    assert any(t == "POSTAL_ADDRESS" and v.startswith("P.O. Box 1019\nNorth Jonmouth") for t, v in got)


def test_a_phone_number_beside_other_digits_is_read_whole():
    # phonenumbers takes only "564-3166" of this row
    got = _resolved(("Tel. (509) 564-3166 67.187.142.251", (40, 100, 500, 114)))
    assert ("PHONE_NUMBER", "(509) 564-3166") in got and ("ONLINE_ID", "67.187.142.251") in got
