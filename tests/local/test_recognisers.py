"""Every schema type has a recogniser: each is exercised on a rendered form page, read by
the real OCR (Tesseract), so the test covers the whole local path from pixels to typed boxes."""

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redact_agent.local.engine import LocalEngine, _prediction, _stamps, recognise, resolve
from redact_agent.local.spans import PageText, Span, value_of
from redact_agent.policy import load_policy
from redact_agent.schema import default_schema
from redact_agent.tools.ocr import Word
from tests.local.rows import found as spans
from tests.local.rows import rows

LINES = [
    "Email: jane.doe@example.com",
    "Website: www.example-corp.com",
    "Server 192.168.10.45",
    "Phone: (312) 555-0199",
    "Issued 03/15/2021",
    "Flight 02/01/20-02/12/20",
    "Signed on March 3, 2020",
    "SSN: 536-90-4399",
    "IBAN: GB82WEST12345698765432",
    "Card: 4111 1111 1111 1111",
    "EIN: 04-2103594",
    "VAT: DE136695976",
    "VIN: 5YJSA3E28HF000326",
    "Contract # 4268442",
    "Invoice # 88123",
    "Customer ID: C20931",
    "Employee ID: 44817",
    "Claim No: 771234",
    "Policy No: PX99812",
    "Username: jdoe77",
    "License Plate: 7ABC123",
    "Attn: Valerie Holstein",
    "DOB: 04/12/1980",
    "Committee to Elect Mike Carr",
    "Jacobs For Congress (135377)",
    "Station WBAL-TV",
    "Dana Whitfield",
    "Sales Manager",  # a title printed under a person's name
    "Device 5c:4f:8f:c4:b3:3d",
    "Ref INV-30211 and PO-944504",
    "Dear Ms. Holstein,",
    "From: Tracie Henderson",
    "Tel. 914.656.9452 bmorris",
]
ADDRESS = ["3800 Hooper Avenue", "Baltimore, MD 21211"]
CITY = "Towson, MD 21204"
FAKER_ADDRESS = ["5472 Frank Lights", "Cherylshire, AR 51424"]  # a USPS suffix the street cue lacks
WRAPPED = ["the invoice was sent to Caitlin", "Clayton at the office today"]  # a paragraph's two lines


@pytest.fixture(scope="module")
def found():
    font = ImageFont.load_default(size=24)
    page = Image.new("RGB", (1100, 1900), "white")
    d = ImageDraw.Draw(page)
    y = 30
    for line in LINES:
        d.text((40, y), line, fill="black", font=font)
        y += 48
    for line in ADDRESS:
        d.text((700, 300 + ADDRESS.index(line) * 34), line, fill="black", font=font)
    d.text((700, 700), CITY, fill="black", font=font)
    for k, line in enumerate(FAKER_ADDRESS):
        d.text((700, 900 + k * 34), line, fill="black", font=font)
    d.text((40, y + 40), "Signature:", fill="black", font=font)
    d.line([(200, y + 60), (260, y + 30), (300, y + 70), (350, y + 28), (420, y + 62)], fill="black", width=3)
    preds = LocalEngine(policy=load_policy("all"), ocr="tesseract").predict(page)
    return [(p.type, "".join((p.value or "").split())) for p in preds]  # OCR spacing varies


CASES = [
    ("EMAIL_ADDRESS", "jane.doe@example.com"),
    ("ONLINE_ID", "www.example-corp.com"),
    ("ONLINE_ID", "192.168.10.45"),
    ("PHONE_NUMBER", "(312) 555-0199"),
    ("DATE", "03/15/2021"),
    ("DATE", "02/01/20"),  # a range is two dates
    ("DATE", "02/12/20"),
    ("DATE", "March 3, 2020"),
    ("GOVERNMENT_ID", "536-90-4399"),
    ("FINANCIAL_ACCOUNT", "GB82WEST12345698765432"),
    ("FINANCIAL_ACCOUNT", "4111 1111 1111 1111"),
    ("BUSINESS_ID", "04-2103594"),
    ("BUSINESS_ID", "DE136695976"),
    ("VEHICLE_ID", "5YJSA3E28HF000326"),
    ("CONTRACT_NUMBER", "4268442"),
    ("INVOICE_NUMBER", "88123"),
    ("CUSTOMER_ID", "C20931"),
    ("EMPLOYEE_ID", "44817"),
    ("CASE_NUMBER", "771234"),
    ("POLICY_NUMBER", "PX99812"),
    ("ONLINE_ID", "jdoe77"),
    ("ONLINE_ID", "bmorris"),
    ("VEHICLE_ID", "7ABC123"),
    ("PERSON_NAME", "Valerie Holstein"),
    ("DATE_OF_BIRTH", "04/12/1980"),
    ("ORGANIZATION", "Committee to Elect Mike Carr"),
    ("ORGANIZATION", "Jacobs For Congress"),
    ("CUSTOMER_ID", "135377"),
    ("INSTITUTION_CODE", "WBAL-TV"),
    ("PERSON_NAME", "Dana Whitfield"),
    ("JOB_TITLE", "Sales Manager"),
    ("POSTAL_ADDRESS", "3800 Hooper Avenue Baltimore, MD 21211"),
    ("LOCATION", "Towson, MD 21204"),
    ("POSTAL_ADDRESS", "5472 Frank Lights Cherylshire, AR 51424"),
    ("ONLINE_ID", "5c:4f:8f:c4:b3:3d"),
    ("INVOICE_NUMBER", "INV-30211"),
    ("CONTRACT_NUMBER", "PO-944504"),
    ("PERSON_NAME", "Holstein"),
    ("PERSON_NAME", "Tracie Henderson"),
    ("SIGNATURE", ""),
]


@pytest.mark.parametrize("type_, value", CASES)
def test_recogniser_finds(found, type_, value):
    assert (type_, "".join(value.split())) in found, f"{type_} {value!r} not in {found}"


def test_every_schema_type_has_a_case():
    assert {t for t, _ in CASES} == set(default_schema().type_names)


@pytest.mark.parametrize(
    "line, value",
    [
        ("BTW-nummer NL004495445B01 Amsterdam", "NL004495445B01"),  # Dutch: letters inside
        ("VAT IE6433435OA", "IE6433435OA"),  # Irish
        ("CIF ESX2482300W", "ESX2482300W"),  # Spanish, a letter first
        ("TVA FRK7399859412", "FRK7399859412"),  # French, letters in the key
        ("VAT EL094259216", "EL094259216"),  # Greece's EL prefix
        ("USt-IdNr. DE136695976", "DE136695976"),
    ],
)
def test_eu_vat_numbers_of_every_shape_stdnum_accepts(line, value):
    assert ("BUSINESS_ID", value) in spans(rows((line, (40, 40, 40 + 14 * len(line), 64))))


def test_a_phone_number_and_an_ip_address_after_it_are_no_card_number():
    line = "Tel. +1 327 167 6276 58.25.224.155"
    found = spans(rows((line, (40, 40, 40 + 14 * len(line), 64))))
    assert not any(t == "FINANCIAL_ACCOUNT" for t, _ in found)
    assert ("PHONE_NUMBER", "+1 327 167 6276") in found


@pytest.mark.parametrize("line", ["NL004495446B01 Amsterdam", "DEPARTMENT 12345678", "ESTIMATE 12345678"])
def test_vat_shapes_that_stdnum_rejects_are_not_business_ids(line):
    assert not any(t == "BUSINESS_ID" for t, _ in spans(rows((line, (40, 40, 40 + 14 * len(line), 64)))))


def test_each_recogniser_proposes_only_the_types_it_declares():
    from redact_agent.local.engine import RECOGNISERS
    from redact_agent.local.spans import PageText
    from redact_agent.tools.ocr import get_engine

    font = ImageFont.load_default(size=24)
    page = Image.new("RGB", (1100, 1900), "white")
    d = ImageDraw.Draw(page)
    for k, line in enumerate(LINES + ADDRESS):
        d.text((40, 30 + 48 * k), line, fill="black", font=font)
    for k, line in enumerate(WRAPPED):
        d.text((40, 30 + 48 * len(LINES + ADDRESS) + 28 * k), line, fill="black", font=font)
    text = PageText.of(get_engine("tesseract").words(page))
    for recogniser in RECOGNISERS:
        proposed = {s.type for s in recogniser.find(text)}
        assert proposed and proposed <= recogniser.types, (recogniser.name, proposed - recogniser.types)
    assert set().union(*(r.types for r in RECOGNISERS)) <= set(default_schema().type_names)


def test_a_title_used_as_a_field_label_is_not_a_job_title():
    words = rows(("Account Executive", (40, 40, 240, 64)), ("Darah Wright", (40, 70, 200, 94)))
    assert ("JOB_TITLE", "Account Executive") not in spans(words)


def test_a_label_whose_right_neighbour_is_another_field_has_its_value_below():
    # A synthetic page: "Contract No." over its number, "Date: ..." far to its right, and the
    # line above close enough that the two are not read as a column header over its cell.
    words = rows(
        ("July 22, 2025", (105, 377, 282, 406)),
        ("Contract No.", (105, 406, 235, 431)),
        ("Date: 05/26/2025", (638, 407, 861, 436)),
        ("P0-4431798", (104, 439, 244, 465)),
    )
    assert ("CONTRACT_NUMBER", "P0-4431798") in spans(words)


@pytest.mark.parametrize(
    "line, value", [("User: csimpson", "csimpson"), ("Device: 5c:4f:8f:c4:b3:3d", "5c:4f:8f:c4:b3:3d")]
)
def test_a_login_without_digits_is_an_online_id(line, value):
    assert ("ONLINE_ID", value) in spans(rows((line, (40, 40, 300, 64))))


def test_a_web_address_under_its_label_beside_another_field_is_an_online_id():
    # Entities seed 79: "Web:" with "Agency: Sanchez-Schmidt" across the page beside it and
    # "kspencer" under it; the field beside it was taken for its value, an organisation's.
    words = rows(
        ("Web:", (467, 671, 500, 696)),
        ("Agency: Sanchez-Schmidt", (900, 671, 1200, 696)),
        ("kspencer", (463, 703, 536, 728)),
    )
    assert ("ONLINE_ID", "kspencer") in spans(words)


def test_a_code_after_its_labels_number_word_is_no_value_of_a_label_over_it():
    # Entities seed 789: "Agency:" ending a line, "Case No. CASE-2018-29127" under it, taken for
    # the agency's name.
    words = rows(("Agency:", (465, 320, 520, 345)), ("Case No. CASE-2018-29127", (465, 350, 661, 368)))
    kept = {(s.type, value_of(s, words)) for s in resolve(recognise(PageText.of(words)), words)}
    assert kept == {("CASE_NUMBER", "CASE-2018-29127")}


@pytest.mark.parametrize(
    "line, type_, value",
    [
        ("Ord # 2216547", "CONTRACT_NUMBER", "2216547"),  # a kind's word before '#'
        ("Cust # A10442", "CUSTOMER_ID", "A10442"),
        ("Buyer Order #: 9599744", "CONTRACT_NUMBER", "9599744"),  # vrdu-adbuy-078b984c7349-p1
        ("Contrct #: 7741203", "CONTRACT_NUMBER", "7741203"),  # a long word the OCR misspelt
        ("lnvoice #: 88123", "INVOICE_NUMBER", "88123"),
    ],
)
def test_an_unknown_label_is_typed_by_its_words(line, type_, value):
    assert (type_, value) in spans(rows((line, (40, 40, 400, 64))))


@pytest.mark.parametrize("line", ["Page # 12", "Unit # 4410", "Border #: 5501"])
def test_a_number_after_a_word_that_names_no_code_is_no_code(line):
    assert not any(t.endswith(("_ID", "_NUMBER")) for t, _ in spans(rows((line, (40, 40, 400, 64)))))


def test_a_code_typed_by_an_unknown_label_says_so():
    words = rows(("Agency Client Code: 4471-B", (40, 40, 400, 64)))
    spans_ = [s for s in recognise(PageText.of(words)) if s.type == "CUSTOMER_ID"]
    assert spans_ and "a label the table lacks" in spans_[0].reason and "'Agency Client Code:'" in spans_[0].reason


@pytest.mark.parametrize(
    "line, type_, value",
    [
        ("Contract 1629799 Rev 2", "CONTRACT_NUMBER", "1629799"),
        ("Traffic 1629799, rev 2", "CONTRACT_NUMBER", "1629799"),  # its comma is no part of it
        ("Invoice INV-30211 paid", "INVOICE_NUMBER", "INV-30211"),
    ],
)
def test_a_code_label_opening_its_line_needs_no_colon(line, type_, value):
    words = rows((line, (40, 40, 400, 64)))
    assert any(s.type == type_ and value_of(s, words) == value for s in recognise(PageText.of(words)))


def test_a_headings_value_that_opens_with_a_misspelt_label_glued_by_its_hash_is_the_code_after_it():
    # Documents seed 777: "Receipt # INV-176363" under the heading "INVOICE", read "Reccipt#INV-176363".
    words = rows(("INVOICE", (40, 40, 200, 64)), ("Reccipt#INV-176363", (40, 70, 200, 94)))
    assert {value_of(s, words) for s in resolve(recognise(PageText.of(words)), words)} == {"INV-176363"}
    # Documents seed 470: "Receipt # #173034", read "Receipt##173034"; the second '#' is the value's
    words = rows(("INVOICE", (40, 40, 200, 64)), ("Receipt##173034", (40, 70, 200, 94)))
    assert {value_of(s, words) for s in resolve(recognise(PageText.of(words)), words)} == {"#173034"}


def test_a_codes_letter_read_apart_from_its_digits_is_part_of_it():
    # Entities seed 308: "Client No. M4919443" read "M" "1919113"; a count or a short number is no code.
    words = rows(("Client No. M 1919113", (40, 40, 400, 64)))
    assert ("CUSTOMER_ID", "M 1919113") in {(s.type, value_of(s, words)) for s in recognise(PageText.of(words))}
    for line in ("Client No. A 123", "Client No. AB 1919113"):
        words = rows((line, (40, 40, 400, 64)))
        assert all(" " not in value_of(s, words) for s in recognise(PageText.of(words)))


@pytest.mark.parametrize("line", ["Est 1.0Unapproved", "Contact Sales Team", "Order 2 of 3"])
def test_a_label_without_its_colon_takes_only_a_code(line):
    assert not any(
        t.endswith(("_ID", "_NUMBER")) or t == "PERSON_NAME" for t, _ in spans(rows((line, (40, 40, 400, 64))))
    )


@pytest.mark.parametrize(
    "line, type_, value",
    [
        ("Acct#40211 Net 30", "CUSTOMER_ID", "40211"),
        ("Order No:88123", "CONTRACT_NUMBER", "88123"),
        ("Traffic #:1629799", "CONTRACT_NUMBER", "1629799"),
        ("Invoice No.1234567", "INVOICE_NUMBER", "1234567"),
        ("Statement:#774735", "INVOICE_NUMBER", "#774735"),  # the '#' after the colon is printed with the value
        ("Order12345678 Flight", "CONTRACT_NUMBER", "12345678"),
        ("Attn:John Smith Phone: 312-555-0199", "PERSON_NAME", "John Smith"),
        ("Plate:5K 3Y4PNF", "VEHICLE_ID", "5K 3Y4PNF"),  # a plate in two groups (entities 511)
    ],
)
def test_a_label_the_ocr_glued_to_its_value(line, type_, value):
    words = rows((line, (40, 40, 400, 64)))
    assert any(s.type == type_ and value_of(s, words) == value for s in recognise(PageText.of(words)))


@pytest.mark.parametrize("line", ["FY2020 budget", "Station2020", "St.123 Main", "Note:Please call"])
def test_a_word_glued_to_a_number_is_no_label_unless_it_names_a_code(line):
    words = rows((line, (40, 40, 400, 64)))
    assert not [s for s in recognise(PageText.of(words)) if s.source == "label"]


@pytest.mark.parametrize(
    "line, value",
    [
        ("Account Executive: Katz Washington", "Katz Washington"),  # a rep firm's trade name first
        ("Account Executive: Atlanta Telerep", "Atlanta Telerep"),  # or last
        ("AE: Eagle, Washington DC", "Eagle, Washington DC"),  # a place after a comma
        ("Primary AE: Katz/DC", "Katz/DC"),  # a slash
        ("Account Executive: Parkersburg House", "Parkersburg House"),  # a house account
        ("AE: Chicago Blair Television", "Chicago Blair Television"),  # a trade name inside
    ],
)
def test_a_rep_firms_office_in_a_person_field_is_an_organisation(line, value):
    found = spans(rows((line, (40, 40, 500, 64))))
    assert ("ORGANIZATION", value) in found and ("PERSON_NAME", value) not in found


@pytest.mark.parametrize(
    "line, value", [("Account Executive: Katz, John", "Katz, John"), ("AE: Jim House", "Jim House")]
)
def test_a_persons_name_like_a_rep_firms_office_stays_a_person(line, value):
    words = rows((line, (40, 40, 500, 64)))
    kept = {(s.type, value_of(s, words)) for s in resolve(recognise(PageText.of(words)), words)}
    assert ("PERSON_NAME", value) in kept and ("ORGANIZATION", value) not in kept


@pytest.mark.parametrize(
    "line, type_, value",
    [
        ("Sales Office: PRKR", "INSTITUTION_CODE", "PRKR"),  # an office code (spec/annotation.md)
        ("Advertiser: Mary Johnson", "PERSON_NAME", "Mary Johnson"),  # a bare person's name
        ("Advertiser: Johnson for Congress", "ORGANIZATION", "Johnson for Congress"),
        ("Account Executive: Mary Johnson", "PERSON_NAME", "Mary Johnson"),
    ],
)
def test_a_fields_value_is_typed_by_what_it_holds(line, type_, value):
    assert (type_, value) in spans(rows((line, (40, 40, 500, 64))))


@pytest.mark.parametrize("line", ["To: Pending line Approvals", "Page #3"])
def test_no_value_where_a_label_is_followed_by_words_or_a_count(line):
    words = rows((line, (40, 40, 400, 64)))
    assert not [s for s in resolve(recognise(PageText.of(words)), words) if s.source == "label"]


@pytest.mark.parametrize("line", ["Sales Region: National", "Sales Region: Local", "Market: Start Date / End Date"])
def test_a_kind_of_sale_or_a_header_is_no_place(line):
    assert not [t for t, _ in spans(rows((line, (40, 40, 500, 64)))) if t == "LOCATION"]


def test_field_words_alone_are_no_organisation():
    # "Advertiser" with the next column's header to its right, and the advertiser below it
    words = rows(
        ("Advertiser", (40, 40, 160, 64)),
        ("Original Date / Revision", (400, 40, 640, 64)),
        ("Acme Widgets Inc", (40, 70, 220, 94)),
    )
    found = spans(words)
    assert ("ORGANIZATION", "Original Date / Revision") not in found
    assert ("ORGANIZATION", "Acme Widgets Inc") in found


def test_a_paragraphs_line_is_no_organisation():
    # Held-out entities seed 511: a paragraph's line taken for the value under "Advertiser:"
    words = rows(("Advertiser:", (40, 40, 160, 64)), ("approval materials find weekly ORD-014047", (40, 70, 520, 94)))
    found = spans(words)
    assert not [v for t, v in found if t == "ORGANIZATION"] and ("CONTRACT_NUMBER", "ORD-014047") in found


def test_a_column_repeating_a_first_name_is_no_two_line_name():
    words = rows(("JUDY", (40, 40, 100, 64)), ("JUDY", (40, 70, 100, 94)))
    assert ("PERSON_NAME", "JUDY JUDY") not in spans(words)


@pytest.mark.parametrize(
    "line, dates",
    [
        ("Flight 2/1-2/7", {"2/1", "2/7"}),  # year-less dates with '/'
        ("Est 2.26-3.3", {"2.26", "3.3"}),  # with '.', inside a range
        ("Product 1/2", set()),  # a count, "1 of 2"
        ("Page 1/3", set()),
        ("M-F 4-5p", set()),  # hours
        ("5-6am M-F", set()),
        ("Adults 25-54", set()),
        ("See MG 3.3", set()),  # a line number
        ("1.1 Normal Line", set()),
        ("03/03/20 4-5p", {"03/03/20"}),
    ],
)
def test_year_less_dates_only_where_a_date_is_the_likelier_reading(line, dates):
    words = rows((line, (40, 40, 400, 64)))
    assert {value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "DATE"} == dates


@pytest.mark.parametrize(
    "line, type_, value",
    [
        ("Issued: 2020-12-04", "DATE", "2020-12-04"),  # ISO dates, whole
        ("Date of birth: 1976-03-15", "DATE_OF_BIRTH", "1976-03-15"),
        ("Born: 05/05/03", "DATE_OF_BIRTH", "05/05/03"),
        ("Con # 1234567", "CONTRACT_NUMBER", "1234567"),  # "Con", short for contract
        ("E-ORDER: 1234567 (Rev 2)", "CONTRACT_NUMBER", "1234567"),  # an electronic order's number
        ("Member #M99455", "CUSTOMER_ID", "M99455"),  # the OCR gave the label's '#' to the value
        ("VIN: EEL 578", "VEHICLE_ID", "EEL 578"),  # a licence plate in two groups
        ("Plate: 3S 2998T", "VEHICLE_ID", "3S 2998T"),  # of unequal length
        ("Plate: M 136810", "VEHICLE_ID", "M 136810"),  # a letter and six digits (synthetic documents 241)
        ("Attn: lan Haynes", "PERSON_NAME", "lan Haynes"),  # the OCR read the capital I as l
    ],
)
def test_more_spellings_of_dates_and_labels(line, type_, value):
    words = rows((line, (40, 40, 400, 64)))
    assert any(s.type == type_ and value_of(s, words) == value for s in resolve(recognise(PageText.of(words)), words))


@pytest.mark.parametrize(
    "line, name",
    [("Contact: john smith", "john smith"), ("Buyer: smith, john", "smith, john"), ("Contact: see below", None)],
)
def test_a_fields_name_typed_in_lowercase_is_a_name_and_lowercase_words_are_not(line, name):
    names = {v for t, v in spans(rows((line, (40, 40, 400, 64)))) if t == "PERSON_NAME"}
    assert names == ({name} if name else set())


@pytest.mark.parametrize(
    "line, type_",
    [("Bank acct: 72058560109", "FINANCIAL_ACCOUNT"), ("Bank Acct. No. 720585601", "FINANCIAL_ACCOUNT"),
     ("Acct # 720585601", "CUSTOMER_ID"), ("Account No. 720585601", "CUSTOMER_ID")],
)  # fmt: skip
def test_an_account_is_a_financial_one_only_at_a_bank(line, type_):
    # schema.md: a bank account is a FINANCIAL_ACCOUNT; annotation.md: an account's ref a CUSTOMER_ID
    assert (type_, line.split()[-1]) in spans(rows((line, (40, 40, 40 + 16 * len(line), 64))))


@pytest.mark.parametrize(
    "line, type_",
    [("Tax ID: G322-3973-8460", "GOVERNMENT_ID"), ("Tax ID: 12-3456789", "BUSINESS_ID"),
     ("Federal Tax ID: 12-3456789", "BUSINESS_ID"), ("EIN: 12-3456789", "BUSINESS_ID")],
)  # fmt: skip
def test_a_tax_id_is_a_businesss_only_as_an_ein_or_under_a_business_label(line, type_):
    # spec/schema.md: a personal tax id is a GOVERNMENT_ID, a business's EIN or VAT number a BUSINESS_ID
    assert (type_, line.split()[-1]) in spans(rows((line, (40, 40, 40 + 16 * len(line), 64))))


@pytest.mark.parametrize(
    "line, type_, value",
    [
        ("shipped on P0-213665 weekly", "CONTRACT_NUMBER", "P0-213665"),  # the O of "PO" read as a zero
        ("see 1NV-30211 attached", "INVOICE_NUMBER", "1NV-30211"),  # the I of "INV" read as a one
        ("renewal +1 2 831 8778 goo", "PHONE_NUMBER", "+1 2 831 8778"),  # digits after "+1" read in part
        ("order CT-561.15 due", "CONTRACT_NUMBER", "CT-561.15"),  # a digit's stroke read as a dot
        ("team recent PO-734?71", "CONTRACT_NUMBER", "PO-734?71"),  # a digit read as a mark (entities 323)
        ("EST -474165", "CONTRACT_NUMBER", "EST -474165"),  # split before its hyphen (documents 898), no label
        ("your attached oRD-19004 team", "CONTRACT_NUMBER", "oRD-19004"),  # its O read lowercase (entities 67)
        ("RE: claim CLM.2012.93985", "CASE_NUMBER", "CLM.2012.93985"),  # hyphens read as dots (entities 524)
        ("Page 1 of 1 INV.39162", "INVOICE_NUMBER", "INV.39162"),  # and one, blurred (entities 369): no label
        ("order ORD 4395629 and", "CONTRACT_NUMBER", "ORD 4395629"),  # its hyphen lost (entities 837)
        ("support plan EST124014", "CONTRACT_NUMBER", "EST124014"),  # its hyphen lost in small print (837)
        ("see INV626376 attached", "INVOICE_NUMBER", "INV626376"),  # its prefix is no label before a value
        ("quantityCUST-80277 due", "CUSTOMER_ID", "CUST-80277"),  # glued to the word before (entities 865)
        ("consultingM4093300 description", "CUSTOMER_ID", "M4093300"),  # and a code by its shape (369)
        ("case C'ASE-2024-21881 open", "CASE_NUMBER", "C'ASE-2024-21881"),  # a C's tip read as a quote (entities 67)
        ("amount 56S-340-9519 report", "PHONE_NUMBER", "56S-340-9519"),  # small print's 8 read as S (entities 44)
        ("Driver's Lie. 061-S6-9337", "GOVERNMENT_ID", "061-S6-9337"),  # and in a social security number (865)
        ("Young and B703-4009-9110 Issued:", "GOVERNMENT_ID", "B703-4009-9110"),  # a driver's licence, no label
        ("1658-9722-2793", "GOVERNMENT_ID", "1658-9722-2793"),  # its "I" read as a one (entities 511)
        ("VIN: N7SG5TM U7BA766946 ok", "VEHICLE_ID", "N7SG5TM U7BA766946"),  # split in two (entities 97)
        ("see http //www vincent biz now", "ONLINE_ID", "http //www vincent biz"),  # its marks lost (837)
        ("User: http: torres.com", "ONLINE_ID", "http: torres.com"),  # its slashes lost (entities 876)
        ("Cc: laura1 4@yahoo.com", "EMAIL_ADDRESS", "laura1 4@yahoo.com"),  # split inside its digits (901)
        ("PO # OR D-23035", "CONTRACT_NUMBER", "OR D-23035"),  # its prefix read in two (entities 876)
        ("ID Q150-5489-6874 ok", "GOVERNMENT_ID", "Q150-5489-6874"),  # not the phone "1 505 489 6874" (44)
        ("questions HX-19-661815 06 thank", "CUSTOMER_ID", "HX-19-661815"),  # nor "19-661815 06" (877)
        ("Regards, Trícia Perry", "PERSON_NAME", "Trícia Perry"),  # an accent on a census name
        ("and Katelyn S. Burns minutes", "PERSON_NAME", "Katelyn S. Burns"),  # a rarer first name, an initial
        ("office amount Brianna Thompson the goods", "PERSON_NAME", "Brianna Thompson"),  # a first name only (223)
        ("team Roger 0. Zavala thanks", "PERSON_NAME", "Roger 0. Zavala"),  # an O read as a zero (entities 717)
        ("support Emly R. Chang support", "PERSON_NAME", "Emly R. Chang"),  # a first name one letter off (511)
        ("COPY Kathy Y. Henstey details", "PERSON_NAME", "Kathy Y. Henstey"),  # and a surname (entities 44)
        ("Attn Jam es Q. Morgan date", "PERSON_NAME", "Jam es Q. Morgan"),  # a first name read in two (472)
        ("team Ashley Sh aw will", "PERSON_NAME", "Ashley Sh aw"),  # and a surname (entities 837)
    ],
)
def test_values_the_ocr_misread_in_part(line, type_, value):
    words = rows((line, (40, 40, 600, 64)))
    assert any(s.type == type_ and value_of(s, words) == value for s in resolve(recognise(PageText.of(words)), words))


@pytest.mark.parametrize(
    "line",
    [
        "flight 10-2021 on time",
        "call +1 831 8 now",
        "route 5T-200 north",
        "Hartford, CT 06510",
        "10 AM EST 12345",
        "call 555-BOB-1234",  # letters no digit is read as: a word
        "A PO D-1234 B",  # capitals before a code that are no prefix with its own ("APO", "POD")
    ],
)
def test_numbers_like_those_are_no_codes_or_phones(line):
    words = rows((line, (40, 40, 600, 64)))
    assert not [s for s in recognise(PageText.of(words)) if s.type in ("CONTRACT_NUMBER", "PHONE_NUMBER")]


@pytest.mark.parametrize(
    "line, names",
    [
        ("Assistant: Mary Smith, Jane Doe", ["Mary Smith", "Jane Doe"]),  # two people, a box each
        ("Buyer: Smith, Jennifer", ["Smith, Jennifer"]),  # one person, surname first
        ("Buyer: Jacqueline Fitzgerald-Montgomery", ["Jacqueline Fitzgerald-Montgomery"]),  # two census surnames
        ("Agency Contact Lakeisha Washington", ["Lakeisha Washington"]),  # a label without its colon
        ("Employee:Michael Horn", ["Michael Horn"]),  # glued to its label's colon (documents seed 777)
        ("Employee: Lindsey 0. Howard", ["Lindsey 0. Howard"]),  # its middle initial read as a zero (413)
        ("Attn: Jessica Gon zal es", ["Jessica Gon zal es"]),  # its surname read in three pieces (entities 472)
        ("Employee: Robert Sher man", ["Robert Sher man"]),  # in two, the first a surname itself (entities 310)
    ],
)
def test_the_people_in_a_name_field_each_boxed_whole(line, names):
    words = rows((line, (40, 40, 600, 64)))
    kept = [value_of(s, words) for s in resolve(recognise(PageText.of(words)), words) if s.type == "PERSON_NAME"]
    assert kept == names


@pytest.mark.parametrize(
    "line, type_, value",
    [
        ("Assistant: BRADLEY PHILIPPS2", "PERSON_NAME", "BRADLEY PHILIPPS2"),  # a digit glued on, as printed
        ("Requested by: CFLA", "EMPLOYEE_ID", "CFLA"),  # capitals no census name has: a user's code
        ("Buyer: JOHN", "PERSON_NAME", "JOHN"),
    ],
)
def test_a_name_fields_value_with_a_mark_glued_on_or_a_users_code(line, type_, value):
    assert (type_, value) in spans(rows((line, (40, 40, 500, 64))))


def test_a_greeted_first_names_i_read_as_an_l():
    # Entities seed 44: "Hello Ian I. Green" read "Hello lan I. Green"; "Iovely" is no first name.
    assert ("PERSON_NAME", "lan I. Green") in spans(rows(("Hello lan I. Green", (40, 40, 400, 64))))
    assert not any(t == "PERSON_NAME" for t, _ in spans(rows(("Hello lovely,", (40, 40, 400, 64)))))


def test_a_persons_role_as_a_label_has_the_persons_name_below_it():
    # Entities seed 472: "Employee:" over "Skinner, Connor", a first name the 1990 census lacks.
    words = rows(("Employee:", (169, 241, 332, 284)), ("Skinner, Connor", (169, 293, 443, 333)))
    assert ("PERSON_NAME", "Skinner, Connor") in spans(words)


def test_an_estimate_number_inside_a_line_and_who_signs_it_off():
    line = "Comments: NEW ORDER FOR HAGERTY FOR SENATE EST 724730; PLEASE CONFIRM THANKS, FRAN"
    found = spans(rows((line, (40, 40, 900, 64))))
    assert {("CONTRACT_NUMBER", "724730"), ("PERSON_NAME", "FRAN")} <= {(t, v.strip(";")) for t, v in found}
    # a time zone's EST, a clock time and thanks to no one are none of these
    for other in ("Aired 10:00 AM EST 2020 news", "Call by 5 PM EST 11/20", "thanks everyone", "Thanks, Approved"):
        assert not {t for t, _ in spans(rows((other, (40, 40, 600, 64))))} & {
            "CONTRACT_NUMBER",
            "PERSON_NAME",
            "POSTAL_ADDRESS",
        }


@pytest.mark.parametrize(
    "line, value", [("CPE: //1284", "//1284"), ("CPE: / 1284", "1284"), ("Contract #: 12345 /", "12345")]
)
def test_slashes_glued_to_a_code_are_its_own_and_a_slash_apart_is_not(line, value):
    words = rows((line, (40, 40, 400, 64)))
    values = {value_of(s, words) for s in resolve(recognise(PageText.of(words)), words) if s.source == "label"}
    assert values == {value}


@pytest.mark.parametrize(
    "line, value",
    [
        # after another number phonenumbers rejects its candidate with the extension, keeping the phone alone
        ("remit CL-65682 654-408-6224 ext. 764 within", "654-408-6224 ext. 764"),
        ("call (541) 779-5555 ext 5527 today", "(541) 779-5555 ext 5527"),
        ("call (541) 779-5555 next week", "(541) 779-5555"),  # "next" is no extension
    ],
)
def test_a_phones_extension_is_inside_its_span(line, value):
    # spec/annotation.md: PHONE_NUMBER, "extension inside the span"; phonenumbers leaves it out
    words = rows((line, (40, 40, 600, 64)))
    phones = [value_of(s, words) for s in resolve(recognise(PageText.of(words)), words) if s.type == "PHONE_NUMBER"]
    assert phones == [value]


def test_a_phone_glued_to_its_label_by_the_area_codes_bracket_is_found():
    # Synthetic entities seed 59: "Tel.(747) 206-0001", which phonenumbers does not match.
    words = rows(("Tel.(747) 206-0001 185.0.156.6", (40, 40, 600, 64)))
    phones = [value_of(s, words) for s in resolve(recognise(PageText.of(words)), words) if s.type == "PHONE_NUMBER"]
    assert phones == ["(747) 206-0001"]


@pytest.mark.parametrize(
    "line, phone, email",
    [
        # Entities seed 44: the address took in the phone and its label, and, scored above it, left it out
        ("Tel.727.638.4103jason32@moore.com", "727.638.4103", "jason32@moore.com"),
        ("call (541) 779-5555ann.lee@gmail.com", "(541) 779-5555", "ann.lee@gmail.com"),
    ],
)
def test_a_phone_glued_before_an_address_is_no_part_of_it(line, phone, email):
    words = [Word(line, (40, 40, 600, 64), 0.99, 0, 0)] if " " not in line else rows((line, (40, 40, 600, 64)))
    found_ = {(s.type, value_of(s, words)) for s in resolve(recognise(PageText.of(words)), words)}
    assert found_ == {("PHONE_NUMBER", phone), ("EMAIL_ADDRESS", email)}


def test_a_phone_after_a_misread_label_ending_in_a_one_and_no_ip_address_as_a_phone():
    # Synthetic documents 223: "Te1 (896) 317-1862 141.216.95.103": the "1" of the label read as a
    # country code refused the phone, and phonenumbers took the IP address for one.
    words = rows(("Te1 (896) 317-1862 141.216.95.103", (40, 40, 600, 64)))
    found_ = {(s.type, value_of(s, words)) for s in resolve(recognise(PageText.of(words)), words)}
    assert found_ == {("PHONE_NUMBER", "(896) 317-1862"), ("ONLINE_ID", "141.216.95.103")}


def test_a_stamps_letter_read_as_a_word_inside_a_span_adds_no_ink_to_its_box():
    # Documents seed 109: the "A" of a gray "APPROVED" read as "65" among an address's words,
    # its box three lines tall; its crop's ink (the stamp's frame, the lines above and below) went
    # into the address's box (IoU 0.99 -> 0.67). Large print alone keeps its box.
    page = np.full((300, 600), 255, np.uint8)
    page[100:120, 40:100] = 0
    page[100:120, 120:200] = 0
    page[40:190, 210:240] = 120  # the stamp's letter, over three lines
    words = [
        Word("658", (38, 98, 102, 122), 0.9, 0, 0),
        Word("Denise", (118, 98, 202, 122), 0.9, 0, 0),
        Word("65", (205, 38, 245, 192), 0.9, 0, 0),
    ]
    span = Span("POSTAL_ADDRESS", (0, 1, 2), 0.9, "entities")
    stamps = _stamps(words)
    assert _prediction(page, words, stamps, span, "658 Denise 65").bbox == (40.0, 100.0, 200.0, 120.0)
    assert _prediction(page, words, stamps, Span("ORGANIZATION", (2,), 0.9, "entities"), "65").bbox == (
        210.0,
        40.0,
        240.0,
        190.0,
    )


@pytest.mark.parametrize("line", ["Thanks J. Smith today", "Approved B. Jones", "Total R. Smith due"])
def test_a_word_before_an_initial_and_a_surname_is_no_misread_first_name(line):
    # "Thanks" is no census first name one letter off, "Approved" and "Total" are form words
    words = rows((line, (40, 40, 600, 64)))
    names = [value_of(s, words) for s in resolve(recognise(PageText.of(words)), words) if s.type == "PERSON_NAME"]
    assert not [n for n in names if n.split()[0] == line.split()[0]]
