"""Organisations: a cue word needs a name beside it, labels and headers are not values, campaigns
are organisations, and the broadcast trade's names are known."""

import pytest

from redact_agent.local.organizations import find
from redact_agent.local.spans import PageText, value_of
from tests.local.rows import rows


def _orgs(line: str) -> list[str]:
    words = rows((line, (10, 10, 10 + 14 * len(line), 34)))
    return [value_of(s, words) for s in find(PageText.of(words)) if s.type == "ORGANIZATION"]


@pytest.mark.parametrize(
    "line, org",
    [
        ("Sinclair Broadcast Group Inc", "Sinclair Broadcast Group Inc"),
        ("REMIT TO Buying Time LLC", "Buying Time LLC"),  # the leading label is left out
        ("TOM STEYER 2020", "TOM STEYER 2020"),
        ("SANDERS 4 PRESIDENT", "SANDERS 4 PRESIDENT"),
        ("Hamilton/R/Senate", "Hamilton/R/Senate"),
        ("POL/Tom Steyer/President/US/Dem", "POL/Tom Steyer/President/US/Dem"),
        ("Powered by WideOrbit", "WideOrbit"),
        ("Ratings: Nielsen", "Nielsen"),
        ("Committee to Elect Mike Carr", "Committee to Elect Mike Carr"),
        ("Petersen, Johnson and Bailey", "Petersen, Johnson and Bailey"),  # partners' surnames (documents 211)
        ("Smith & Jones", "Smith & Jones"),
        ("Booker PLC", "Booker PLC"),
    ],
)
def test_organisations(line, org):
    assert org in _orgs(line)


@pytest.mark.parametrize(
    "line", ["Agency", "Agency:", "Agency Ref", "Agency Commission:", "Broadcast", "By Broadcast Month", "CO-OP",
             "Accepted-Agency/Advertiser:", "National/Agency Political",
             "CO NFIDENTIAL", "CO NFID ENTIAL",  # a stamp's word the OCR read in pieces (synthetic seeds 109, 310)
             "Consulting hours",  # an invoice's line item (the synthetic corpus's, 480 false organisations)
             "Sales and Marketing", "Mike and Molly",  # no partners' surnames
             "Ryan Nielsen", "Meredith Jones"],  # a trade name that is a person's name with the word beside it (803)
)  # fmt: skip
def test_labels_and_headers_are_not_organisations(line):
    assert _orgs(line) == []
