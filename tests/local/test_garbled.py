"""A code or phone number found again where the OCR garbled it: digits read as marks or letters, or
lost; never one read as another digit (synthetic documents seed 419, a page in 7-point type)."""

from redact_agent.local.garbled import align, garbled
from redact_agent.local.repeats import spans_of
from redact_agent.local.spans import PageText
from tests.local.rows import rows


def _garbled(value: str, *texts: str) -> list[str]:
    words = rows((" ".join(texts), (40, 40, 40 + 20 * len(" ".join(texts)), 64)))
    found = garbled(PageText.of(words), value)
    return [" ".join(words[i].text for i in run)[left : -right or None] for run, left, right in found]


def test_a_number_with_digits_read_as_marks_or_letters_is_found():
    assert _garbled("814-975-2366", "Tel", "8:1.975.:366", "reed@reynolds") == ["8:1.975.:366"]
    assert _garbled("CUST-8019182", "Consulting", "hours", "CJST80:9:82", "13") == ["CJST80:9:82"]
    assert _garbled("(955) 538-4890", "questions", "1955:538-489C", "rate") == ["1955:538-489C"]
    assert _garbled("CUST-9051680", "training", "CU5~-905", "168c.") == ["CU5~-905 168c"]
    # Documents seed 400: a "5" with a flat top, in a serif font, read as a letter no English word has.
    assert _garbled("CL-5160185", "summary", "CL-ā16018ō", "of") == ["CL-ā16018ō"]


def test_a_digit_read_as_another_or_too_few_read_is_no_finding():
    assert _garbled("CUST-8019182", "CJST80:9:83") == []  # a digit read as another: another customer
    assert _garbled("814-975-2366", "814-975-23667") == []  # a digit the value lacks
    assert _garbled("CL-21663", "CL::663") == []  # three of five digits read: too few to tell
    assert _garbled("CUST-8019182", "CUST-8019182", "12") == ["CUST-8019182"]  # not with the next number
    # Synthetic documents seed 457: a quantity before the code is no misread letter of it.
    assert _garbled("R-7381304", "1", "R-7381304", "paid") == ["R-7381304"]
    assert _garbled("INV-0822904", "1", "INV-0822904") == ["INV-0822904"]  # not "1 INV-..." with I read as 1
    assert align("st-798832", "57750032") is None
    # A label glued to the number: its letters are no reading of the value's "(".
    assert _garbled("(456) 270-7371", "Tel(456)270-7371", "today") == []


def test_the_best_alignment_reads_most_digits_as_themselves():
    assert align("814-975-2366", "8:1.975.:366") == (8, 0, -5)  # 4 and 2 read as marks, a mark added
    assert align("cust-8019182", "cust-801918") == (6, -1, -1)  # one digit lost


def test_a_phone_is_searched_for_garbled_without_its_country_code():
    # Synthetic documents seed 131: "+1 456 270 7371" found on another page, "Te1.456-270-7371"
    # here: read as garbled with its "+1", "Te" was the "+1", and the box took the label in.
    words = rows(("Te1.456-270-7371 call", (40, 400, 400, 424)))
    found = spans_of(PageText.of(words), "PHONE_NUMBER", "+1 456 270 7371", 0.5, "document", "")
    assert found == []  # the page's recognisers find it, from its "1." on
