"""Recognisers for values with a checkable shape: e-mail, URL/IP/MAC, phone, dates, and the
identifiers that carry check digits (SSN, EIN, IBAN, payment cards, VAT, VIN), and reference
numbers whose prefix names their kind ("INV-", "PO-", "CUST-", "CASE-"...), and a driver's licence
number in Illinois's print (a letter and eleven digits, "M391-7999-7483"), which no code has.

Shapes are matched on segment text; validators from `phonenumbers` and `python-stdnum` then
accept or reject each candidate, so "123-45-6789" becomes a GOVERNMENT_ID only when it is a
valid SSN. Dates use explicit numeric and month-name patterns (a range "02/01/20-02/12/20" is
two DATEs, per the annotation guidelines), with `datefinder` for other spelled-out dates.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator

import datefinder
import phonenumbers
from stdnum import iban, luhn
from stdnum.eu import vat
from stdnum.us import ein, ssn

from redact_agent.linking import OCR_DIGITS
from redact_agent.local.layout import Segment
from redact_agent.local.spans import GLUED_WORD, PageText, Recogniser, Span

_TLD = r"(?:com|net|org|edu|gov|us|io|co|info|biz)"
# An address as OCR reads it: split at the '@' ("collinskevin @yahoo.com", "tristan93(@ moore.com"),
# the '@' read as "(a", or as "(" before a domain that ends as one does ("brianhamilton(a
# johnson-mecormick.biz", "william01(graham.biz"), the domain split once ("name@gn il.com"), the dot
# before the domain's end read as a space or a comma, followed by one or lost ("name@yahoo com",
# "name@ gmail. com", "name@mathis-estradanet"), or, at a webmail domain, the '@' read as another
# mark or a letter, with a space on either side, or lost after a digit ("grayjonathanGhotmailcom",
# "ann©gmail.com", 'melaniebush "yahoo.com', "chenderson uyahoo.com", "marywells Gyahoo.com",
# "haleycdanielle& hotmail.com", "anthony30 yahoo.com"; at another domain a capital may be its
# name's: "visit Google.com"); its name split inside its digits ("laura1 4@yahoo.com").
EMAIL = re.compile(
    r"(?:[A-Za-z0-9._%+-]*[A-Za-z][A-Za-z0-9._%+-]*\d (?=\d))?"
    rf"[A-Za-z0-9._%+-]+(?:\(? ?@|\(a|\((?=[\w-]+\.{_TLD}\b)) ?[A-Za-z0-9-]+(?: [A-Za-z0-9-]+)?(?:\.[A-Za-z0-9-]+)*"
    rf"(?:\.[A-Za-z]{{2,}}|\.?[ ,]{_TLD}\b|(?<=[a-z]){_TLD}\b)"
    rf"|(?<![\w@.])[A-Za-z0-9._%+-]*[A-Za-z0-9_%+-](?: ?[^\s\w.] ?| ?[A-Z0-9]| [a-z]|(?<=\d) )?"
    rf"(?:gmail|yahoo|hotmail|outlook|aol|icloud|comcast|protonmail)[.,]?\s?{_TLD}\b"
)
# A web address, also where the OCR lost its scheme's slashes and read a space ("http: torres.com");
# or one whose marks small print lost, its scheme, "www", name and ending words apart ("https www
# rose com", "http //www vincent biz")
URL = re.compile(
    r"(?:https?://|www\.)[^\s,;]+|(?:\bhttps?:\s)?\b[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:com|net|org|gov|edu|tv|us|io)(?:/[^\s,;]*)?\b"
    rf"|\bhttps?[:/]*\s+/*www\b[.\s]*[A-Za-z0-9-]+(?:[.\s]+[A-Za-z0-9-]+)*?[.\s]+(?:{_TLD}|tv)\b",
    re.IGNORECASE,
)
# A phone number glued before an address, with its label or without, or its last digits where its
# area code is a word apart: no part of the address ("Tel.727.638.4103jason32@moore.com")
_PHONE_BEFORE = re.compile(r"[A-Za-z]*[.:]?(?:\+?1?[\s.-]?\(?\d{3}\)?[\s.-]?)?\d{3}[.-]\d{4}(?=[A-Za-z])")
MAC = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}(?![\w:])")
IPV4 = re.compile(r"\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b")
_TIME = r"(?:\s*(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?)?"
_NUMERIC = r"(?:(?:19|20)\d\d-[01]?\d-[0-3]?\d|(?:[01]?\d)[/.-](?:[0-3]?\d)(?:[/.-](?:\d{4}|\d{2}))?)"  # ISO first
_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_SPELLED = (
    rf"(?:{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{1,2}}\s+{_MONTHS},?\s+\d{{4}}|{_MONTHS},?\s+\d{{4}})"
)
DATE = re.compile(rf"(?<![\d/])(?:{_SPELLED}|{_NUMERIC}){_TIME}(?![\d/])", re.IGNORECASE)
# A North American number as printed, with its country code or not ("(497) 991-9391", "+1 385 792
# 8123"): what a run of digits must look like to be read as a phone without phonenumbers' context.
PHONE_SHAPE = re.compile(r"(?:(?<![A-Za-z])\+?1[\s.-]*)?\(?\d{3}\)?[\s.-]*\d{3}[\s.-]*\d{4}\b")  # no "1" of "Te1"
# A number after the country code "+1" whose digits the OCR read in part ("+1 2 831 8778" for
# "+1 662 831 8778"): at least seven digits in groups, the last of four.
PHONE_IN_PART = re.compile(r"\+1[\s.-]*(?:\d{1,4}[\s.-]+){1,3}\d{4}\b")
EXTENSION_WORD = r"(?:ex[t1l]\.?|extension|x)"  # "ex1." and "exl." are "ext." as the OCR reads it
EXTENSION = re.compile(rf"[\s,]*{EXTENSION_WORD}\s*\d{{1,6}}\b", re.IGNORECASE)  # part of the phone (spec)
SSN = re.compile(r"\b\d{3}-\d{2}-\d{4}\b")
# as Illinois prints one, its letter an "I" the OCR may read as a one or an "l" ("1658-9722-2793")
DRIVERS_LICENCE = re.compile(r"(?<![\w-])[A-Zl1]\d{3}-\d{4}-\d{4}(?![\w-])")
EIN = re.compile(r"\b\d{2}-\d{7}\b")
IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?\b")
# A card or account number: 13-19 digits in groups, not a phone's after its '+' and not running on
# into the first digits of a number that goes on with a dot ("+1 327 167 6276 58.25.224.155").
CARD = re.compile(r"(?<![+\w])(?:\d[ -]?){12,18}\d(?!\w|[.,]\d)")
# EU VAT candidates: a member state's prefix (EL for Greece too), then 8-14 letters and digits that
# may be grouped by spaces, dots or dashes ("NL 0044.95.445.B01"); `stdnum.eu.vat` decides.
_VAT_STATES = "|".join(sorted({cc.upper() for cc in vat.MEMBER_STATES} | {"EL"}))
VAT = re.compile(rf"\b(?:{_VAT_STATES})(?=[ .-]?[0-9A-Z]*\d)(?:[ .-]?[0-9A-Z+*]){{8,14}}(?![0-9A-Za-z])")
# a VIN, or one the OCR split in two words of five characters or more ("N7SG5TM U7BA766946")
VIN = re.compile(r"\b(?:[A-HJ-NPR-Z0-9]{17}|(?=[A-HJ-NPR-Z0-9 ]{18}\b)[A-HJ-NPR-Z0-9]{5,} [A-HJ-NPR-Z0-9]{5,})\b")
# Reference numbers that name their kind in a prefix ("INV-30211", "PO-944504", "CASE-2021-7676").
_PREFIX_TYPES = {
    **dict.fromkeys(("INV", "RCPT"), "INVOICE_NUMBER"),
    **dict.fromkeys(("PO", "ORD", "CT", "CON", "EST"), "CONTRACT_NUMBER"),
    **dict.fromkeys(("CUST", "CL", "ACCT", "CID"), "CUSTOMER_ID"),
    **dict.fromkeys(("EMP", "EID"), "EMPLOYEE_ID"),
    **dict.fromkeys(("CASE", "CLM", "TKT", "REF"), "CASE_NUMBER"),
    **dict.fromkeys(("POL",), "POLICY_NUMBER"),
}
# The prefix as OCR may read it, a letter as the digit it looks like ("P0-213665", "1NV-30211"), an
# 'O' first as a lowercase one ("oRD-19004"), with a quote after its first letter ("C'ASE-2024-21881"),
# glued to a lowercase word before it ("quantityCUST-80277"), or split from the rest before its
# hyphen ("EST -474165"); with its hyphens read as dots where the code has two or more
# ("CLM.2012.93985"), or after a prefix of three letters or more before five digits or more
# ("INV.39162", blurred); a prefix of three letters or more with its hyphen read as a space before five
# digits or more ("ORD 4395629"; a state's code before a ZIP code is no prefix: "CT 06510", nor
# a time zone's "EST" before a number: `labels` reads an estimate's), or lost in small print
# before as many ("EST124014"; the prefix ends in two letters: "CT", not "CT15", of "CT1500000"); a
# dot inside the code is one the OCR read for a digit's stroke ("CT-561.15"), and so is a '?', '!'
# or "'" ("PO-734?71" for PO-734271); the word after it may be glued on ("CUST-3682529licence",
# "POL-71-114903-project").
_LOOKALIKES = str.maketrans("015o", "OISO", "'")
PREFIXED = re.compile(
    rf"(?:(?<![\w-])|(?<=[a-z])(?=[A-Z]{{2}}))(?P<prefix>[A-Z015o]'?[A-Z015]{{1,3}})"
    rf"(?: ?-|\.(?=[A-Z0-9]+[-.][A-Z0-9])|(?<=[A-Z015]{{3}})\.(?=\d{{5,}}(?![\w-]))"
    rf"|(?<=[A-Z015]{{3}})(?<!EST) (?=\d{{5,}}(?![\w-]))"
    rf"|(?<=[A-Z]{{2}})(?=\d{{5,}}(?![\w-])))(?=[A-Z0-9-]*\d)"
    rf"[A-Z0-9]+(?:[-.?!'][A-Z0-9]+)*"
    rf"(?=-?{GLUED_WORD}|(?![\w-]))"
)


def _prefix_type(m: re.Match[str]) -> str | None:
    return _PREFIX_TYPES.get(m.group("prefix").translate(_LOOKALIKES))


_SPLIT_HEAD = re.compile(r"(?<![\w-])[A-Z]{1,3}(?= [A-Z]{1,3}-)")  # "OR" of "OR D-23035"


def _split_prefixed(text: str) -> Iterator[tuple[int, int, str]]:
    """Codes whose prefix the OCR split with a space ("OR D-23035" for ORD-23035), where the
    prefix whole names a type: where each opens and ends in `text`, and its type."""
    for head in _SPLIT_HEAD.finditer(text):
        m = PREFIXED.match(text[: head.end()] + text[head.end() + 1 :], head.start())
        if m and len(m.group("prefix")) > len(head.group(0)) and (type_ := _prefix_type(m)):
            yield head.start(), m.end() + 1, type_


def prefixed_type(text: str) -> str | None:
    """The type of a code that `text` is whole, named by its prefix ("EST124014"), or None."""
    m = PREFIXED.fullmatch(text)
    return _prefix_type(m) if m else None


_VIN_VALUES = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True))}
_VIN_VALUES.update(dict(zip("JKLMNPR", [1, 2, 3, 4, 5, 7, 9], strict=True)))
_VIN_VALUES.update(dict(zip("STUVWXYZ", range(2, 10), strict=True)))
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)


def _no_at(text: str) -> bool:
    return "@" not in text


def _valid_date(text: str) -> bool:
    m = re.match(r"(?:\d{4}-)?(\d{1,2})[/.-](\d{1,2})", text)
    if not m:
        return True  # spelled-out month
    month, day = int(m.group(1)), int(m.group(2))
    return 1 <= month <= 12 and 1 <= day <= 31


def vin_is_valid(text: str) -> bool:
    """ISO 3779 check digit (position 9) of a North-American VIN, as `VIN` reads one."""
    if not VIN.fullmatch(text) or not any(c.isalpha() for c in text):
        return False
    text = text.replace(" ", "")
    total = sum(_VIN_VALUES[c] * w for c, w in zip(text, _VIN_WEIGHTS, strict=True))
    check = "X" if total % 11 == 10 else str(total % 11)
    return text[8] == check


def _spans(
    seg: Segment,
    pattern: re.Pattern[str],
    type_: str,
    score: float,
    source: str,
    ok: Callable[[str], bool] | None = None,
) -> Iterator[Span]:
    for m in pattern.finditer(seg.text):
        if ok is None or ok(m.group(0)):
            words, left, right = seg.cuts(m.start(), m.end())
            if words:
                yield Span(type_, words, score, source, left, right)


_YEARLESS = re.compile(r"\d{1,2}(?P<sep>[/.-])\d{1,2}")
_COUNT_BEFORE = re.compile(r"\b(?:product|page|pg|item|line|spot|part|no|#)\.?\s*$", re.IGNORECASE)
_RANGE_BEFORE, _RANGE_AFTER = re.compile(r"\d\s*[-–]\s*$"), re.compile(r"^\s*[-–]\s*\d")


def _emails(seg: Segment) -> Iterator[Span]:
    for m in EMAIL.finditer(seg.text):
        glued = _PHONE_BEFORE.match(seg.text, m.start(), m.end())
        words, left, right = seg.cuts(glued.end() if glued else m.start(), m.end())
        if words:
            yield Span("EMAIL_ADDRESS", words, 0.95, "email", left, right)


def _dates(seg: Segment) -> Iterator[Span]:
    """Numeric and month-name dates. A date without its year is read only where a date is the
    likelier reading: "3/3" or "2.26-3.3", not a count ("Product 1/2", "Page 1/3"), an hour
    range ("4-5p", "7-9am"), or a line number ("3.1"). Without a year, '-' joins a range, and
    '.' writes a date only inside a range of dates."""
    for m in DATE.finditer(seg.text):
        text, before, after = m.group(0), seg.text[: m.start()], seg.text[m.end() :]
        yearless = _YEARLESS.fullmatch(text)
        if not _valid_date(text):
            continue
        if yearless is not None:
            sep = yearless.group("sep")
            ranged = bool(_RANGE_BEFORE.search(before) or _RANGE_AFTER.match(after))
            if sep == "-" or (sep == "." and not ranged) or _COUNT_BEFORE.search(before):
                continue
            if re.match(r"\s*[AaPp]\.?[Mm]?\b", after):
                continue  # "7/9am": hours
        words, left, right = seg.cuts(m.start(), m.end())
        if words:
            yield Span("DATE", words, 0.85, "date", left, right)


# A capital (or an "l") the OCR reads for a digit beside a digit, no letter on its other side:
# small print's 8 read as "S" ("56S-340-9519", "061-S6-9337")
_LETTER_FOR_DIGIT = re.compile(r"(?<=\d)[SBOIlZ](?![A-Za-z])|(?<![A-Za-z])[SBOIlZ](?=\d)")
MOST_LETTERS = 2  # of a phone or social security number read with letters for digits


def _as_digits(seg: Segment) -> Segment:
    """`seg` with the letters read for digits beside digits (`_LETTER_FOR_DIGIT`) as those digits
    (`linking.OCR_DIGITS`), each in its place."""
    text = _LETTER_FOR_DIGIT.sub(lambda m: OCR_DIGITS[m[0].casefold()], seg.text)
    return seg if text == seg.text else dataclasses.replace(seg, text=text)


def _few_letters(seg: Segment, digits: Segment) -> Callable[[Span], bool]:
    """Whether a span found on `digits` (`_as_digits(seg)`) was read with `MOST_LETTERS` or fewer
    letters for its digits."""

    def few(span: Span) -> bool:
        start = seg.starts[seg.words.index(span.words[0])] + span.cut_left
        end = seg.ends[seg.words.index(span.words[-1])] - span.cut_right
        return sum(a != b for a, b in zip(seg.text[start:end], digits.text[start:end], strict=True)) <= MOST_LETTERS

    return few


def _phones(seg: Segment) -> Iterator[Span]:
    """`phonenumbers`' matches, and a North American number as printed that it cut short or
    missed beside other digits ("(509) 564-3166 67.187.142.251", where it takes "564-3166") or
    glued to a label ("Tel.(747) 206-0001", where it finds none), or
    whose digits after "+1" the OCR read in part; each with its extension ("ext. 764"), which
    the annotation guidelines put inside the span and `phonenumbers` leaves out after another
    number ("CL-65682 654-408-6224 ext. 764": it rejects the candidate that starts at "65682").
    Not one that goes on from a code's hyphen ("HX-19-661815 06", whose digits it takes for a
    number of ten)."""
    found = []
    for match in phonenumbers.PhoneNumberMatcher(seg.text, "US", leniency=phonenumbers.Leniency.POSSIBLE):
        code = re.search(r"[A-Z\d]-$", seg.text[: match.start])  # it goes on a code ("HX-19-661815 06")
        if len(re.sub(r"\D", "", match.raw_string)) >= 10 and not code:
            found.append((match.start, match.end))
    in_part = [m for m in PHONE_IN_PART.finditer(seg.text) if len(re.sub(r"\D", "", m.group(0))) >= 8]
    for m in [*PHONE_SHAPE.finditer(seg.text), *in_part]:
        # Not inside a longer run of digits and dots; an area code's bracket opens it whatever is
        # glued before ("Tel.(747) 206-0001")
        clear = m.start() == 0 or not re.match(r"[\w.-]", seg.text[m.start() - 1]) or m.group(0)[0] == "("
        if clear and not any(s < m.end() and m.start() < e for s, e in found):
            found.append((m.start(), m.end()))
    for start, end in found:
        raw = seg.text[start:end].strip()
        if extension := EXTENSION.match(seg.text, end):
            end = extension.end()
        # A bare run of digits is as likely an account or invoice number: want phone punctuation;
        # and no date or IP address ("141.216.95.103", eleven digits in dotted groups)
        if re.search(r"[-().\s+]", raw) and not DATE.fullmatch(raw) and not IPV4.fullmatch(raw):
            words, left, right = seg.cuts(start, end)
            yield Span("PHONE_NUMBER", words, 0.9, "phonenumbers", left, right)


def _vat_numbers(seg: Segment) -> Iterator[Span]:
    """Each VAT candidate, or its longest valid prefix that ends before a separator: the pattern
    may run on into a following capitalised word or code."""
    for m in VAT.finditer(seg.text):
        text = m.group(0)
        ends = [len(text)] + [i for i in range(len(text) - 1, 9, -1) if text[i] in " .-"]
        end = next((e for e in ends if vat.is_valid(text[:e])), None)
        if end is not None:
            words, left, right = seg.cuts(m.start(), m.start() + end)
            if words:
                yield Span("BUSINESS_ID", words, 0.9, "stdnum.vat", left, right)


def _spelled_dates(seg: Segment) -> Iterator[Span]:
    if not re.search(_MONTHS, seg.text, re.IGNORECASE):
        return
    for _, source, (start, end) in datefinder.find_dates(seg.text, source=True, index=True):
        if re.search(_MONTHS, source, re.IGNORECASE) and re.search(r"\d", source):
            words, left, right = seg.cuts(start, end)
            yield Span("DATE", words, 0.7, "datefinder", left, right)


def find(text: PageText) -> list[Span]:
    out: list[Span] = []
    for seg in text.segs:
        out += _emails(seg)
        # URLs are whole tokens: OCR garbles their scheme ("http:/Isbgi.net") more than their ends.
        out += [Span(s.type, s.words, s.score, s.source) for s in _spans(seg, URL, "ONLINE_ID", 0.85, "url", ok=_no_at)]
        out += _spans(seg, IPV4, "ONLINE_ID", 0.9, "ip")
        out += _spans(seg, MAC, "ONLINE_ID", 0.9, "mac")
        digits = _as_digits(seg)
        few = _few_letters(seg, digits)
        out += [s for s in _phones(digits) if few(s)]
        out += _dates(seg)
        out += _spelled_dates(seg)
        out += [s for s in _spans(digits, SSN, "GOVERNMENT_ID", 0.9, "stdnum.ssn", ok=ssn.is_valid) if few(s)]
        # above a phone: no phone is grouped 4-4-4 ("Q150-5489-6874" holds "1 505 489 6874")
        out += _spans(seg, DRIVERS_LICENCE, "GOVERNMENT_ID", 0.92, "licence-shape")
        out += _spans(seg, EIN, "BUSINESS_ID", 0.6, "stdnum.ein", ok=ein.is_valid)
        out += _spans(seg, IBAN, "FINANCIAL_ACCOUNT", 0.95, "stdnum.iban", ok=iban.is_valid)
        out += _spans(seg, CARD, "FINANCIAL_ACCOUNT", 0.9, "luhn", ok=lambda s: luhn.is_valid(re.sub(r"\D", "", s)))
        out += _vat_numbers(seg)
        out += _spans(seg, VIN, "VEHICLE_ID", 0.9, "vin", ok=vin_is_valid)
        for m in PREFIXED.finditer(seg.text):
            type_ = _prefix_type(m)
            words, left, right = seg.cuts(m.start(), m.end())
            if type_ and words:
                out.append(Span(type_, words, 0.7, "prefix", left, right))
        for start, end, type_ in _split_prefixed(seg.text):
            words, left, right = seg.cuts(start, end)
            if words:
                out.append(Span(type_, words, 0.7, "prefix", left, right, "its prefix read in two"))
    return out


RECOGNISER = Recogniser(
    "patterns",
    frozenset({"EMAIL_ADDRESS", "ONLINE_ID", "PHONE_NUMBER", "DATE", "GOVERNMENT_ID", "BUSINESS_ID",
               "FINANCIAL_ACCOUNT", "VEHICLE_ID", *_PREFIX_TYPES.values()}),
    find,
)  # fmt: skip
