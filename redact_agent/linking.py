"""Entity linking: which mentions of a page (or of a document's pages) are one real-world thing.

Mentions of one type are joined when their normal forms agree, each form computed by the field's
own library:
- PHONE_NUMBER: the E.164 number (`phonenumbers`, US by default), "(312) 555-0199" and
  "312.555.0199" alike;
- PERSON_NAME: the surname and the given name (`probablepeople`, but for the order a comma or a
  mixed-case name without one prints), in either order ("Fran Brown", "BROWN, FRAN", "Brown. Fran"
  with the comma read as a dot); a given name's initial ("F. Brown")
  or a lone surname ("Brown") joins the one person of the scope it fits, and stays alone when two
  would;
- POSTAL_ADDRESS: house number, street name and ZIP code (`usaddress`);
- ORGANIZATION: the name without its legal form ("Acme Inc." and "ACME"), unless both print
  different ones ("Jones Ltd" and "Jones LLC");
- identifiers: letters and digits, casefolded, with the letters OCR confuses with digits read as
  those digits ("INV-3O41" and "inv 3041"): two codes a digit apart stay apart;
- anything else (e-mail, dates, places): the text casefolded, spaces collapsed.
Names, organisations and addresses the OCR garbled ("Fran Browm") join a form at least
`FUZZY_RATIO` alike (`rapidfuzz`). Entity ids are `TYPE#k`, numbered by first mention; each mention
that joins an earlier one says why in its `reason`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import phonenumbers
import probablepeople
import usaddress
from rapidfuzz import fuzz

from redact_agent.pages import Prediction

FUZZY_RATIO = 90  # percent; below it, "Fran Brown" and "Fran Brewer" would join
_FUZZY_TYPES = frozenset({"PERSON_NAME", "ORGANIZATION", "POSTAL_ADDRESS"})
CODE_TYPES = frozenset(
    {
        "CONTRACT_NUMBER", "INVOICE_NUMBER", "CUSTOMER_ID", "EMPLOYEE_ID", "CASE_NUMBER", "POLICY_NUMBER",
        "GOVERNMENT_ID", "BUSINESS_ID", "FINANCIAL_ACCOUNT", "VEHICLE_ID", "INSTITUTION_CODE", "ONLINE_ID",
    }
)  # fmt: skip
OCR_DIGITS = {"o": "0", "i": "1", "l": "1", "s": "5", "b": "8", "z": "2"}  # letters OCR reads for digits, casefolded
_TO_DIGITS = str.maketrans("".join(OCR_DIGITS), "".join(OCR_DIGITS.values()))
_LEGAL_FORM = re.compile(r"\b(?:inc|llc|l\.l\.c|ltd|corp|corporation|co|company|plc|lp|llp)\b\.?", re.IGNORECASE)
_TITLES = "mr|mrs|ms|miss|dr|prof|rev|hon|fr|atty|capt|col|gen|lt|maj|sgt|sen|rep|gov"
_HONORIFIC = re.compile(rf"^(?:{_TITLES})\.?\s+", re.IGNORECASE)
# a mark or digit the OCR reads for a letter of a name, beside a letter ("Evan$", "J0hn")
_MARK_FOR_LETTER = {"$": "s", "0": "o", "1": "l", "5": "s", "|": "l"}
_MARK_IN_WORD = re.compile(r"(?<=[^\W\d_])[$015|]|[$015|](?=[^\W\d_])")
# "BROWN, FRAN", "Smith, J. A."; "Mack. Scott" is "Mack, Scott" with its comma read as a dot (a
# title is stripped before this), "Smith, Jr." no surname first
_SURNAME_FIRST = re.compile(
    r"^(?P<last>[^\W\d_][\w'-]*),\s*(?!(?:jr|sr|ii|iii|iv)\b)(?P<first>[^\W\d_][\w'-]*)|"
    r"^(?P<dotted>[^\W\d_][\w'-]{2,})\.\s+(?P<given>[^\W\d_][\w'-]+)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Name:
    """A person's name as linking reads it: casefolded surname, and the given name (an initial
    when only that is printed, empty for a lone surname)."""

    last: str
    first: str

    @property
    def full(self) -> bool:
        return len(self.first) > 1


def is_title(word: str) -> bool:
    """A person's title printed before the name ("Mr.", "Dr", "Sgt.")."""
    return re.fullmatch(rf"(?:{_TITLES})\.?", word, re.IGNORECASE) is not None


def alnum(text: str) -> str:
    """A text's letters and digits alone, casefolded."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


# a capitalised word and the lowercase pieces of three letters or fewer after it, no particle
_PIECES = re.compile(r"\b[A-Z][A-Za-z]*(?: (?!(?:van|von|de|da|del|der|den|di|du|la|le|dos|das|y)\b)[a-z]{1,3}\b)+")


@cache
def person(value: str) -> Name | None:
    """The surname and given name of a printed name, or None when it reads as no person. A mark
    or digit beside a letter is the letter the OCR read it for ("Larry Evan$" is Larry Evans), and
    lowercase pieces after a capitalised word are the pieces the OCR read it in ("Erik Mcdonal d",
    "Gon zal es"), a particle aside ("Ludwig van Beethoven")."""
    text = _MARK_IN_WORD.sub(lambda m: _MARK_FOR_LETTER[m[0]], _HONORIFIC.sub("", " ".join(value.split())))
    text = _PIECES.sub(lambda m: m[0].replace(" ", ""), text)
    if not text:
        return None
    if first_after := _SURNAME_FIRST.match(text):  # printed so, whatever `probablepeople` makes of it
        last, first = first_after["last"] or first_after["dotted"], first_after["first"] or first_after["given"]
        return Name(alnum(last), alnum(first))
    try:
        tags, kind = probablepeople.tag(text)
    except probablepeople.RepeatedLabelError:
        tags, kind = {}, "Ambiguous"
    if kind == "Person" and "Surname" in tags:
        if _printed_first_last(text, tags):
            return Name(alnum(tags["GivenName"]), alnum(tags["Surname"]))
        return Name(alnum(tags["Surname"]), alnum(tags.get("GivenName") or tags.get("FirstInitial") or ""))
    parts = [p for p in re.split(r"[\s,]+", text) if p]
    if len(parts) == 1:
        return Name(alnum(parts[0]), "")
    return Name(alnum(parts[-1]), alnum(parts[0]))


def _printed_first_last(text: str, tags: dict[str, str]) -> bool:
    """`probablepeople` tagged a name printed in mixed case without a comma surname first
    ("Martin Thomas": Thomas is the commoner given name), which is printed given name first; a
    roster in capitals prints "BROWN FRAN", and a citation "Brown F.", surname first."""
    order = list(tags)
    given_after = "GivenName" in tags and order.index("Surname") < order.index("GivenName")
    return given_after and "," not in text and not text.isupper()


def _phone(value: str) -> str | None:
    try:
        number = phonenumbers.parse(value, "US")
    except phonenumbers.NumberParseException:
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _address(value: str) -> str:
    try:
        tags, _ = usaddress.tag(" ".join(value.split()))
    except usaddress.RepeatedLabelError:
        return alnum(value)
    parts = [tags.get(k, "") for k in ("AddressNumber", "StreetName", "USPSBoxID", "ZipCode")]
    return alnum(" ".join(parts)) or alnum(value)


def code_form(value: str) -> str:
    """An identifier's letters and digits, casefolded, the letters OCR confuses with digits read
    as those digits ("INV-3O41" is "inv3041")."""
    return alnum(value).translate(_TO_DIGITS)


def normal_form(type_: str, value: str) -> str:
    """The form two mentions of one entity share (a person's: "surname|given name")."""
    if type_ == "PHONE_NUMBER":
        return _phone(value) or re.sub(r"\D", "", value)
    if type_ == "PERSON_NAME":
        name = person(value)
        return f"{name.last}|{name.first}" if name else alnum(value)
    if type_ == "POSTAL_ADDRESS":
        return _address(value)
    if type_ == "ORGANIZATION":  # "name|legal form": "Acme Inc." is "ACME", not "Acme LLC"
        legal = "".join(sorted(alnum(m) for m in _LEGAL_FORM.findall(value)))
        return f"{alnum(_LEGAL_FORM.sub(' ', value)) or alnum(value)}|{legal}"
    if type_ in CODE_TYPES:
        return code_form(value)
    return " ".join(value.casefold().split())


@dataclass
class _Entity:
    type: str
    id: str
    form: str  # the form of its first mention
    value: str  # its first mention, as printed
    names: list[Name]  # a person's names as printed (full, initial, surname alone)


def _fits(partial: Name, name: Name) -> bool:
    """A lone surname or an initial that could be written for `name`."""
    return partial.last == name.last and name.first.startswith(partial.first)


def _why_person(name: Name, entities: list[_Entity]) -> tuple[_Entity, str] | None:
    """The one person entity a name fits, and why; None when none or several do. A full name
    joins the entity that has it, or one known so far only by its surname or initial."""
    if name.full:
        same = [e for e in entities if name in e.names]
        if len(same) == 1:
            return same[0], "the same surname and given name"
        fits = [e for e in entities if not any(n.full for n in e.names) and all(_fits(n, name) for n in e.names)]
        return (fits[0], "the surname (and initial) it was first printed with") if len(fits) == 1 else None
    fits = [e for e in entities if any(_fits(name, n) for n in e.names)]
    if len(fits) != 1:
        return None
    return fits[0], ("the same surname and the given name's initial" if name.first else "its surname alone")


def _same_form(type_: str, a: str, b: str) -> bool:
    """Equal forms; an organisation's legal form counts only where both print one."""
    if type_ != "ORGANIZATION":
        return a == b
    (name_a, legal_a), (name_b, legal_b) = a.split("|"), b.split("|")
    return name_a == name_b and (legal_a == legal_b or not legal_a or not legal_b)


def _join(type_: str, value: str, form: str, entities: list[_Entity]) -> tuple[_Entity, str] | None:
    """The earlier entity this mention is, with the reason; None for a new entity."""
    mine = [e for e in entities if e.type == type_]
    if type_ == "PERSON_NAME" and (name := person(value)) is not None and (found := _why_person(name, mine)):
        return found
    same = next((e for e in mine if _same_form(type_, e.form, form)), None)
    if same is not None:
        why = {"PHONE_NUMBER": f"the same number ({form})"}.get(type_, "the same normal form")
        return same, why
    if type_ in _FUZZY_TYPES and len(form) >= 6:
        scored = [(fuzz.ratio(form, e.form), e) for e in mine if len(e.form) >= 6]
        best = max(scored, key=lambda s: s[0], default=None)
        if best is not None and best[0] >= FUZZY_RATIO:
            return best[1], f"the same, read with OCR errors ({best[0]:.0f}% alike)"
    return None


class Linker:
    """Links mentions across calls, numbering entities as it goes: one linker per scope, a page
    or a document's pages in order ("PERSON_NAME#2" is the same person on every page)."""

    def __init__(self) -> None:
        self._entities: list[_Entity] = []
        self._counts: dict[str, int] = {}
        self.linked: list[Prediction] = []  # every mention so far, linked

    def _new(self, type_: str) -> str:
        self._counts[type_] = self._counts.get(type_, 0) + 1
        return f"{type_}#{self._counts[type_]}"

    def link(self, predictions: Sequence[Prediction]) -> list[Prediction]:
        """The predictions, in their order, with their entity ids; a mention that joins an
        earlier one (of this call or an earlier one) says why in its reason."""
        out = []
        for p in predictions:
            if not p.value:  # a signature, or a value left out: only itself
                out.append(p.model_copy(update={"entity": self._new(p.type)}))
                continue
            form = normal_form(p.type, p.value)
            name = person(p.value) if p.type == "PERSON_NAME" else None
            joined = _join(p.type, p.value, form, self._entities)
            if joined is None:
                entity = _Entity(p.type, self._new(p.type), form, p.value, [name] if name else [])
                self._entities.append(entity)
                out.append(p.model_copy(update={"entity": entity.id}))
                continue
            entity, why = joined
            if name is not None:
                entity.names.append(name)
            reason = f"{p.reason}; " if p.reason else ""
            out.append(
                p.model_copy(update={"entity": entity.id, "reason": f"{reason}{entity.id} as {entity.value!r}: {why}"})
            )
        self.linked += out
        return out


def link(predictions: Sequence[Prediction]) -> list[Prediction]:
    """One page's predictions with their entity ids (a fresh `Linker`)."""
    return Linker().link(predictions)
