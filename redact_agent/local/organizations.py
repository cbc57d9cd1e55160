"""Organisations (ORGANIZATION), and the codes printed beside them.

- Cue words (Inc, LLC, Committee, Media, Group, "for Congress", ...) on a title-cased segment
  that is not a label, when something besides cue and field words names the organisation:
  "Sinclair Broadcast Group" is one, "Agency Ref", "Broadcast" and "By Broadcast Month" are
  headers. A leading label is left out ("REMIT TO Sinclair Broadcast" gives the name).
- Campaigns, which the guidelines count as organisations: a candidate's name with an election
  year ("TOM STEYER 2020", "Mike Bloomberg 2020 Inc"), with "4"/"for" and an office ("SANDERS 4
  PRESIDENT"), or a slash-separated buy name with a party or an office ("Hamilton/R/Senate",
  "POL/Tom Steyer/President/US/Dem").
- A small gazetteer of the broadcast trade that every political file names: networks, station
  groups, rep firms, traffic and ratings software, card networks. Domain knowledge, not drawn
  from any page of the dev or check sets.
- "Name (code)": the name, and the code without its brackets (a CUSTOMER_ID).
- A firm named by its partners' surnames, a line of its own ("Petersen, Johnson and Bailey",
  "Smith & Jones"): common census surnames joined by commas and "and" or "&".
"""

from __future__ import annotations

import re

from redact_agent.local.layout import Segment
from redact_agent.local.names import is_common_surname, is_person_name
from redact_agent.local.spans import PageText, Recogniser, Span, next_label
from redact_agent.local.vocabulary import FIELD_WORDS, split_field_word, words

_CUE_WORDS = (
    r"inc|llc|l\.l\.c|ltd|corp|corporation|co|company|group|media|committee|campaign|pac|party|associates|"
    r"partners|services|advertising|agency|broadcasting|broadcast|television|communications|network|networks|"
    r"news|foundation|association|union|university|college|bank|holdings|strategies|consulting|enterprises|"
    r"industries|solutions|technologies|worldwide|international|plc"
)
ORG_CUES = re.compile(
    rf"\b(?:{_CUE_WORDS}|friends\s+of|for\s+(?:congress|senate|governor|president|mayor|america|us|state|judge|"
    r"sheriff|council))\b\.?",
    re.IGNORECASE,
)
_CUE_SET = frozenset(_CUE_WORDS.replace("\\", "").split("|")) | {"friends", "for"}
_LEADING_LABEL = re.compile(r"^(?:remit\s+to|bill\s+to|ship\s+to|pay\s+to|sold\s+to|c/o|attn:?)\s+", re.IGNORECASE)
_OFFICES = (
    r"president|pres|senate|sen|senator|house|congress|cong|governor|gov|mayor|council|sheriff|judge|attorney|"
    r"ag|da|assembly|legislature|commissioner|treasurer|comptroller|school\s+board"
)
_PARTIES = r"d|r|i|dem|rep|gop|ind|lib|grn|democrat|republican"
_NAME = r"[A-Z][A-Za-z'.-]+(?:\s+[A-Z][A-Za-z'.-]+){0,3}"
CAMPAIGN = re.compile(
    rf"^(?:{_NAME}\s+(?:19|20)\d\d(?:,?\s+(?:inc|llc)\.?)?|{_NAME}\s+(?:4|for)\s+(?:{_OFFICES})"
    rf"|(?:pol\s*/\s*)?{_NAME}(?:\s*/\s*(?:{_NAME}|{_PARTIES}|{_OFFICES}|us|[A-Z]{{2}}))*\s*/\s*(?:{_PARTIES}|{_OFFICES})"
    rf"(?:\s*/\s*[A-Za-z]+)*)$",
    re.IGNORECASE,
)
GAZETTEER = re.compile(
    r"(?<![\w-])(?:ABC|CBS|NBC|FOX|PBS|Univision|Telemundo|UniMas|MyNetworkTV|MeTV|ESPN|CNN|MSNBC|"
    r"Sinclair(?:\s+Broadcast(?:\s+Group)?(?:,?\s+Inc\.?)?)?|Nexstar(?:\s+Media(?:\s+Group)?)?|Gray\s+Television|"
    r"TEGNA|Tegna|Scripps|Hearst(?:\s+Television)?|Cox\s+Media\s+Group|Graham\s+Media|Meredith|Tribune\s+Media|"
    r"Allen\s+Media|Quincy\s+Media|Katz(?:\s+Media(?:\s+Group)?|\s+Television(?:\s+Group)?)?|Petry|TeleRep|"
    r"Blair\s+Television|Eagle\s+Television|Cox\s+Reps|WideOrbit|Marketron|Mediaocean|Nielsen|Comscore|"
    r"VISA|Visa|MasterCard|Mastercard|AMERICAN\s+EXPRESS|American\s+Express|DISCOVER\s+NETWORK|Discover\s+Network)"
    r"(?![\w-])"
)
# A rep firm's sales office or a station's house account, printed where a person's name goes
# ("Account Executive: Katz Washington", "Atlanta Telerep", "Eagle, Washington DC", "Philadelphia
# TeleRep/P HL", "Parkersburg House"): the firm's trade name first (or last, for the names no
# person has), a house account, or a place after a comma or a slash, which no person's name has.
_REP_FIRM = re.compile(
    r"^(?:katz|telerep|petry|seltel|millennium|eagle|cox\s*reps)\b"
    r"|\b(?:telerep|seltel|millennium|cox\s*reps|house(?:\s+accounts?)?)$",
    re.IGNORECASE,
)
_PLACE_AFTER = re.compile(r"(?:/|,\s*[A-Z][A-Za-z.' ]*\s(?:[A-Z]{2}|D\.\s?C\.)$)")
_SURNAME = r"[A-Z][A-Za-z'-]+"
_FIRM = re.compile(rf"{_SURNAME}(?:, {_SURNAME})*,? (?:and|&) {_SURNAME}")  # "Petersen, Johnson and Bailey"
_CODE_AFTER = re.compile(r"^(?P<name>.*\S)\s+\((?P<code>[A-Za-z]{0,3}\d{2,})\)?$")  # the form may clip ")"


def has_name_part(text: str) -> bool:
    """Something besides cue words and field words names it."""
    tokens = words(text)
    named = any(t.casefold().strip(".-'&") not in _CUE_SET | FIELD_WORDS and len(t) > 1 for t in tokens)
    return named and not split_field_word(text)


def is_organization(text: str) -> bool:
    """An organisation cue word with a name beside it, in a non-label; not a label of cue and
    field words with a person's name after it ("Agency Contact Lakeisha Washington")."""
    cued = bool(ORG_CUES.search(text)) and not text.rstrip().endswith(":") and has_name_part(text)
    return cued and person_after_label(text) is None


_GLUED_TO_COLON = re.compile(r"(?<=[A-Za-z]):(?=[A-Z][a-z])")  # a label's colon, the value's capital after it


def person_after_label(text: str) -> tuple[int, int] | None:
    """Where a census person's name is after a label of only cue and field words, or any label its
    colon ends, which the OCR read as one line with it ("Agency Contact Lakeisha Washington",
    "Employee: Wood, Brady"), up to the next label its colon ends ("Employee: Bishop, Edward Role:
    Statistician"); also where the OCR glued the name to its label's colon ("Employee:Michael Horn")."""
    tokens = list(re.finditer(r"\S+", text))
    glued = {m.end() for m in _GLUED_TO_COLON.finditer(text)}
    for start in sorted({t.start() for t in tokens[1:-1]} | glued):
        end = next_label(text, start)
        label = text[:start]
        if (label.rstrip().endswith(":") or not has_name_part(label)) and is_person_name(text[start:end]):
            return start, end
    return None


def is_rep_office(text: str) -> bool:
    """A rep firm's sales office (see `_REP_FIRM`): an organisation, not the person the field
    is for. Field words alone ("Phone/Fax") are a header, not an office."""
    office = _REP_FIRM.search(text) or _PLACE_AFTER.search(text) or GAZETTEER.search(text)
    return bool(office) and has_name_part(text)


def names_an_organization(text: str) -> bool:
    """What this recogniser takes as a whole segment, so that no other reads it as a name."""
    return bool(CAMPAIGN.fullmatch(text) and has_name_part(text)) or (is_organization(text) and _title_like(text))


def _title_like(text: str) -> bool:
    """Most words capitalised, as a name is printed (running text is mostly lower case)."""
    alpha = [w for w in text.split() if w[:1].isalpha()]
    return bool(alpha) and sum(w[0].isupper() for w in alpha) * 2 >= len(alpha)


def split_code(seg: Segment, start: int, name_type: str, code_type: str, score: float, source: str) -> list[Span]:
    """ "Jacobs For Congress-R (135377)": the name, and the code without its brackets."""
    text = seg.text[start:]
    m = _CODE_AFTER.match(text)
    if not m:
        return []
    name_words, nl, nr = seg.cuts(start, start + m.end("name"))
    code_words, cl, cr = seg.cuts(start + m.start("code"), start + m.end("code"))
    return [Span(name_type, name_words, score, source, nl, nr), Span(code_type, code_words, score, source, cl, cr)]


def _span(seg: Segment, start: int, end: int, score: float, source: str) -> list[Span]:
    words, left, right = seg.cuts(start, end)
    return [Span("ORGANIZATION", words, score, source, left, right)] if words else []


def _cued(seg: Segment) -> list[Span]:
    raw = seg.text
    if raw.rstrip().endswith(":"):
        return []
    lead = _LEADING_LABEL.match(raw)
    start = lead.end() if lead else 0
    text = raw[start:].strip(" ;|")
    if not text or not is_organization(text) or not _title_like(text):
        return []
    coded = split_code(seg, start, "ORGANIZATION", "CUSTOMER_ID", 0.55, "org-cue")
    if coded:
        return coded
    if any(c.isdigit() for c in text.replace("2020", "")):
        return []
    at = raw.index(text, start)
    return _span(seg, at, at + len(text), 0.55, "org-cue")


def find(text: PageText) -> list[Span]:
    out: list[Span] = []
    for seg in text.segs:
        raw = seg.text.strip(" ;|")
        if CAMPAIGN.fullmatch(raw) and has_name_part(raw):
            at = seg.text.index(raw)
            out += _span(seg, at, at + len(raw), 0.65, "campaign")
            continue
        if _FIRM.fullmatch(raw) and all(is_common_surname(w) for w in re.findall(r"[A-Za-z'-]+", raw) if w != "and"):
            at = seg.text.index(raw)
            out += _span(seg, at, at + len(raw), 0.55, "partners")
            continue
        out += _cued(seg)
        for m in GAZETTEER.finditer(seg.text):
            if not _in_a_name(seg.text, m):
                out += _span(seg, m.start(), m.end(), 0.62, "gazetteer")
    return out


def _in_a_name(text: str, m: re.Match[str]) -> bool:
    """A gazetteer's one word is a person's name with the word before or after it ("Ryan Nielsen",
    "Meredith Jones"): a surname or a first name, no firm."""
    before = re.search(r"(\S+)\s+$", text[: m.start()])
    after = re.match(r"\s+(\S+)", text[m.end() :])
    one = m.group(0)
    return " " not in one and (
        (before is not None and is_person_name(f"{before[1]} {one}"))
        or (after is not None and is_person_name(f"{one} {after[1]}"))
    )


RECOGNISER = Recogniser("organizations", frozenset({"ORGANIZATION", "CUSTOMER_ID"}), find)
