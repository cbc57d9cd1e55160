"""User names printed with a person's contact details and no label: one lowercase token made of
a person's names as logins are ("bmorris", "ericzimmerman", "wangchristopher", "jsmith42"),
ending a short line that holds a phone number or an e-mail address, or alone at the end of a line
among a form's fields ("Bill to: Webb-Knapp    davissteven", "gsalazar" between "Date:" and
"Agency:" lines): an ONLINE_ID.

A name part is one of the census's common first names or surnames of four letters or more; an
initial counts before a surname, and so do a common surname of three letters before a common first
name ("leetony"), and any census first name of five letters or more that is rather a first name
before a common surname ("katelynhayes") or after one of five letters or more ("brooksmichaela").
The token must split into such parts whole, with at most trailing digits left ("kindly" does not).
Some words do split so ("thanks": t + Hanks; two surnames too often do, "greenhouse", and are none),
which is why only the last word of a contact line is read, a contact line is short (running text
that holds a phone number is not one), and a word alone is read only where a label is printed on
its line or the lines next to it.
"""

from __future__ import annotations

import re

from redact_agent.local.layout import Segment, above, below, right_of
from redact_agent.local.names import is_common_first_name, is_common_surname, is_rather_first_name
from redact_agent.local.patterns import EMAIL, PHONE_SHAPE
from redact_agent.local.spans import PageText, Recogniser, Span
from redact_agent.local.vocabulary import field_share

_LOGIN = re.compile(r"(?P<a>[a-z]+)(?:[._](?P<b>[a-z]+))?(?P<digits>\d{0,4})")
_PART = 4  # a name part's fewest letters
_RARE_FIRST = 5  # the fewest letters of a first name outside the common ones in a login
_ROW_WORDS = 8  # a contact line's most words: running text that holds a phone number is no contact line


def _name_part(part: str) -> bool:
    return len(part) >= _PART and (is_common_first_name(part) or is_common_surname(part))


def _two_parts(left: str, right: str) -> bool:
    """Initial + surname, first name + surname, or surname + first name."""
    if len(right) < _PART or 1 < len(left) < _PART - 1:
        return False
    if 1 < len(left) < _PART:  # a short surname before a first name ("leetony")
        return is_common_surname(left) and is_common_first_name(right)
    if is_common_surname(right) and (len(left) == 1 or is_common_first_name(left)):
        return True
    if is_common_surname(right) and len(left) >= _RARE_FIRST and is_rather_first_name(left):
        return True  # "katelynhayes"
    if len(left) >= _RARE_FIRST and len(right) >= _RARE_FIRST and is_rather_first_name(right):
        return is_common_surname(left)  # "brooksmichaela"; two surnames are too often a word ("greenhouse")
    return is_common_first_name(right) and is_common_surname(left)


def is_login(token: str) -> bool:
    """A lowercase token of 5 to 30 characters that splits whole into name parts ("bmorris",
    "wangchristopher", "john.smith"), or is one name part and digits ("hannah1987")."""
    m = _LOGIN.fullmatch(token)
    if m is None or not 5 <= len(token) <= 30 or field_share(token) > 0:
        return False
    a, b = m.group("a"), m.group("b")
    if b is not None:
        return _two_parts(a, b)
    if m.group("digits") and _name_part(a):
        return True
    return any(_two_parts(a[:k], a[k:]) for k in range(1, len(a) - _PART + 1))


def _row(seg: Segment, segs: list[Segment]) -> list[Segment]:
    """A segment and those to its right on the same row."""
    out = [seg]
    while (nxt := right_of(out[-1], segs)) is not None and len(out) < 6:
        out.append(nxt)
    return out


_LABEL = re.compile(r"[A-Za-z]:(?:\s|$)")  # a field's label, its colon ending a word


def _among_fields(row: list[Segment], segs: list[Segment]) -> bool:
    """A label is printed on the row, or on the line right over or under its last segment."""
    near = [*row, *above(row[-1], segs, max_lines=1.0)]
    if (under := below(row[-1], segs, max_lines=1.0)) is not None:
        near.append(under)
    return any(_LABEL.search(s.text) for s in near)


def find(text: PageText) -> list[Span]:
    ends = {}  # the last word of each contact line, or of a line among fields where it stands alone
    for seg in text.segs:
        row = _row(seg, text.segs)
        row_text = " ".join(s.text for s in row)
        if (PHONE_SHAPE.search(row_text) or EMAIL.search(row_text)) and sum(len(s.words) for s in row) <= _ROW_WORDS:
            ends[row[-1].words[-1]] = "a login ending a line of contact details"
        elif len(row[-1].words) == 1 and _among_fields(row, text.segs):
            ends.setdefault(row[-1].words[0], "a login alone at the end of a line among a form's fields")
    return [
        Span("ONLINE_ID", (i,), 0.5, "login", reason=why)
        for i, why in sorted(ends.items())
        if is_login(text.words[i].text)
    ]


RECOGNISER = Recogniser("handles", frozenset({"ONLINE_ID"}), find)
