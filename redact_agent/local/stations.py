"""Broadcast station codes (INSTITUTION_CODE): call letters, compound codes, station logos and
office codes, with boxes that end where the code ends.

- Call letters: K or W and 2–3 more capitals, an optional band or service suffix (-TV, -DT,
  -LD...), found inside a word too, since OCR glues them to a neighbouring date
  ("KCWE06/03/20"); brackets and punctuation around them are cut off ("(WKOW)"). Three letters
  alone (KYW, WJZ) only with a suffix, since so many short words would pass.
- Compound codes: call letters joined by "+", "/" or "&" ("KECI+KCFW", "KECI/NCFW/KCFW/KTVM")
  are one code.
- Logos, a segment of their own: a network and a channel number ("CW62", "THE CW 6", "abc 7"),
  with or without call letters ("CBS 13 WJZ", "11 WBALTV", "5 WRAL", "KABC-101").
- Office codes after "c/o" ("c/o ESTM").
- Not a code: call letters naming a programme ("KMBC 9 News on KCWE", "13 WHAM News @ 10P",
  "News-WUHF"), which the annotation guidelines count as a programme description; a surname
  printed "LAST, FIRST" ("WADE, KEITH").
"""

from __future__ import annotations

import re

from redact_agent.local.layout import Segment
from redact_agent.local.names import is_common_first_name
from redact_agent.local.spans import PageText, Recogniser, Span
from redact_agent.local.vocabulary import PROGRAMME

_SUFFIX = r"(?:-(?:TV|FM|AM|DT|CD|LD|CA|HD)\d*)"
_CALL = rf"(?:[KW][A-Z]{{3}}{_SUFFIX}?|[KW][A-Z]{{2}}{_SUFFIX})"
# After the first code, a translator's may start with any letter ("KECI/NCFW/KCFW").
_JOINED = rf"{_CALL}(?:\s?[+/&]\s?(?:{_CALL}|[A-Z]{{4}}))*"
_LOGO_CALL = r"(?:[KW][A-Z]{2,3}(?:-?(?:TV|DT|LD|CD|CA|HD))?)"  # in a logo: three letters, "WBALTV"
# Inside a segment: not part of a longer word, but a date or channel digits may follow.
# After a money amount the OCR glued to them ("$2,000.00WAOW"), and with a combination's "+" ("WAOW+").
CALLS = re.compile(rf"(?:(?<=\.\d\d)|(?<![A-Za-z0-9]))(?P<code>{_JOINED}\+?)(?=\d{{1,2}}/\d|\d{{0,3}}(?![A-Za-z0-9+]))")
_NETWORKS = r"(?:abc|cbs|nbc|fox|cw|pbs|ion|mynetwork(?:tv)?|univision|telemundo|unimas|metv)"
LOGO = re.compile(
    rf"^(?:(?:the\s+)?{_NETWORKS}\s*\d{{1,3}}(?:\s+{_LOGO_CALL})?|\d{{1,3}}\s*{_LOGO_CALL}|{_LOGO_CALL}\s*-?\s*\d{{1,3}})$",
    re.IGNORECASE,
)
_OFFICE = re.compile(r"(?i:\bc/o)\s+(?P<code>[A-Z]{3,6})(?![A-Za-z0-9])")
# "KMBC 9 News", "WRAL AM News", "WXYZ Early Morning": a channel number or a day part may come first
_PROGRAMME = re.compile(
    rf"^\s*(?:\d{{1,3}}\s+)?(?:(?:am|pm|early|late|midday|noon|evening|saturday|sunday)\s+)*(?:{PROGRAMME.pattern})",
    re.IGNORECASE,
)
_PROGRAMME_BEFORE = re.compile(r"(?:\bnews\s*-|\bnews\s+on|\bon)\s*$", re.IGNORECASE)
NOT_CALL_LETTERS = frozenset(
    [
        "WEEK",
        "WEEKS",
        "WITH",
        "WORK",
        "WEST",
        "WHEN",
        "WHAT",
        "WHERE",
        "WHICH",
        "WILL",
        "WERE",
        "WANT",
        "WAYS",
        "WELL",
        "KEEP",
        "KIND",
        "KNOW",
        "WIDE",
        "WIRE",
        "WEB",
        "WEBSITE",
        "WAIT",
        "WALK",
        "WEAR",
        "WIFE",
        "WIND",
        "WINE",
        "WISH",
        "WORD",
        "WHITE",
        "WHOLE",
        "WOMEN",
        "KIDS",
        "KING",
        "KEYS",
        "WAGE",
        "WARD",
        "WARM",
        "WASH",
        "WAVE",
        "WHOM",
        "WHY",
        "WHO",
        "WAY",
        "WIN",
        "WON",
        "WAS",
        "WAR",
        "WET",
        "KEY",
        "KIT",
        "WIN",
    ]
)


def _words_ok(code: str) -> bool:
    return not any(part.split("-")[0] in NOT_CALL_LETTERS for part in re.split(r"\s?[+/&]\s?", code))


def _in_programme(seg: Segment, start: int, end: int) -> bool:
    return bool(_PROGRAMME.match(seg.text[end:]) or _PROGRAMME_BEFORE.search(seg.text[:start]))


_FIRST_NAME_AFTER = re.compile(r",\s*([A-Za-z]+)")


def _before_a_first_name(seg: Segment, end: int) -> bool:
    """Letters before a comma and a first name are a surname ("WADE, KEITH")."""
    after = _FIRST_NAME_AFTER.match(seg.text[end:])
    return after is not None and is_common_first_name(after.group(1))


def _logo(seg: Segment) -> Span | None:
    text = seg.text.strip(" .,;:|()[]")
    letters = "".join(c for c in text.upper() if c.isalpha())
    if not LOGO.fullmatch(text) or not letters or len(seg.words) > 4 or letters in NOT_CALL_LETTERS:
        return None
    start = seg.text.index(text)
    words, left, right = seg.cuts(start, start + len(text))
    return Span("INSTITUTION_CODE", words, 0.7, "station-logo", left, right) if words else None


def find(text: PageText) -> list[Span]:
    out: list[Span] = []
    for seg in text.segs:
        logo = _logo(seg)
        if logo is not None:
            out.append(logo)
            continue
        for m in CALLS.finditer(seg.text):
            start, end = m.start("code"), m.end("code")
            if _words_ok(m.group("code")) and not _in_programme(seg, start, end) and not _before_a_first_name(seg, end):
                words, left, right = seg.cuts(start, end)
                if words:
                    out.append(Span("INSTITUTION_CODE", words, 0.6, "call-letters", left, right))
        for m in _OFFICE.finditer(seg.text):
            words, left, right = seg.cuts(m.start("code"), m.end("code"))
            if words:
                out.append(Span("INSTITUTION_CODE", words, 0.55, "office-code", left, right))
    return out


RECOGNISER = Recogniser("stations", frozenset({"INSTITUTION_CODE"}), find)
