"""Layout cues: a value beside or under a field label takes the label's type.

"Order / Rev: 14086", "Acct # 4769", "Attn: Valerie Holstein": the label decides the type of
the value to its right on the same row, or, for a column header, of the value just below it.
Each label type also says what its value must look like (an identifier has a digit, a name
has no digits), so a label with an empty field does not swallow its neighbour.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

from rapidfuzz import fuzz, process
from stdnum.eu import vat
from stdnum.us import ein

from redact_agent.local.codes import code_label, named_kind, unlabelled_codes
from redact_agent.local.layout import Segment, below, part, right_of
from redact_agent.local.names import (
    is_common_first_name,
    is_common_surname,
    is_first_name,
    is_person_name,
    plausible_name,
    unsplit,
)
from redact_agent.local.organizations import is_organization, is_rep_office, names_an_organization, split_code
from redact_agent.local.patterns import DATE, prefixed_type
from redact_agent.local.places import is_market, is_place
from redact_agent.local.spans import PageText, Recogniser, Span, as_initial
from redact_agent.local.vocabulary import field_share
from redact_agent.tools.ocr import Word

_LETTER_APART = re.compile(r"[A-Z] \d{5,}")  # "M 1919113": a code's letter the OCR read apart from its digits


def _id(v: str) -> bool:
    money_or_share = "$" in v or "%" in v
    return (
        any(c.isdigit() for c in v)
        and (len(v.split()) == 1 or _LETTER_APART.fullmatch(v) is not None)
        and 2 <= len(v.strip("#")) <= 32  # one character is a count or a mark
        and not DATE.fullmatch(v)
        and not money_or_share
    )


_OCR_CAPITAL_I = re.compile(r"^l(?=[a-z]+\b)")  # a name's first letter only
_MARK_AFTER = re.compile(r"(?<=[A-Za-z]{2})\d$")  # one digit glued to a name's last letters


_LETTER_CODE = re.compile(r"[A-Z]{2,8}(?:[-/][A-Z]{2,8})?")  # "GMAC", "OMD-NY"


def _customer_code(v: str) -> bool:
    """An account's, agency's or advertiser's code: an identifier, or a short code in capitals
    with no digit ("GMAC", "OMD-NY") that is no form word ("NONE", "TBD")."""
    return _id(v) or (bool(_LETTER_CODE.fullmatch(v)) and field_share(v) == 0)


def _name(v: str) -> bool:
    """A person's name as a field's value: capitalised words (a name's word the OCR read in pieces
    joined: `names.unsplit`), or one of the census's common first names and a surname typed in
    lowercase ("john smith"; "see below" is none)."""
    if v.islower():
        parts = re.split(r"[\s,]+", v.strip(" ,"))
        first = parts[-1] if "," in v else parts[0]
        return is_common_first_name(first) and is_person_name(v.title())
    v = _OCR_CAPITAL_I.sub("I", v)  # "lan Haynes": OCR reads a capital I as l
    v = " ".join(text for text, _ in unsplit(v.split(), field=True))  # "Jessica Gon zal es"
    v = " ".join(as_initial(w) for w in v.split())  # "Lindsey 0. Howard": a middle initial read as a digit
    v = _MARK_AFTER.sub("", v)  # "BRADLEY PHILIPPS2": a footnote's mark or a typo, printed with the name
    words = v.replace(",", " ").split()
    shaped = 1 <= len(words) <= 4 and all(w[:1].isupper() for w in words) and not re.search(r"\d", v)
    return shaped and plausible_name(v)


def _plate(v: str) -> bool:
    """A vehicle's identifier: a VIN or code, or a licence plate in two groups of eight
    characters at most ("EEL 578", "3S 2998T", "M 136810")."""
    return _id(v) or bool(re.fullmatch(r"(?=.*\d)(?=.{4,9}$)[A-Z0-9]{1,4}[ -][A-Z0-9]{2,6}", v))


def _org(v: str) -> bool:
    """A name: letters, not opening with a lowercase one (a paragraph's line), not a date, and
    not field words alone ("Original Date / Revision" is the next column's header)."""
    named = re.search(r"[A-Za-z]{2}", v) and not v[:1].islower()
    return bool(named) and not DATE.fullmatch(v) and len(v) <= 80 and field_share(v) < 1


def _text(v: str) -> bool:
    return bool(re.search(r"[A-Za-z]{2}", v)) and not re.search(r"\d{3}", v) and len(v) <= 60


def _handle(v: str) -> bool:
    """A user name or device id: one token with a letter or a digit run, as logins are written."""
    return bool(re.fullmatch(r"[\w.@:-]{2,64}", v)) and bool(re.search(r"[A-Za-z]|\d{3}", v)) and not DATE.fullmatch(v)


_PHONE_WORD = re.compile(r"^(?:.*\d.*|\W+|ext\.?|x)$", re.IGNORECASE)  # a phone's words: digits, marks, an extension


def _phone(v: str) -> bool:
    """Ten digits or more, every word a phone's (`_PHONE_WORD`): not a line of prose with two
    codes in it, under a "Phone:" column's number ("... approval CL-029841 ... EST-26610 ...")."""
    return len(re.sub(r"\D", "", v)) >= 10 and all(_PHONE_WORD.match(w) for w in v.split())


LABELS: list[tuple[re.Pattern[str], str, Callable[[str], bool]]] = [
    (re.compile(p, re.IGNORECASE), t, ok)
    for p, t, ok in [
        (
            r"(?:alt\s+|e-)?(?:contract|order|estimate|est|po|purchase\s+order|agreement|traffic|headline|external\s+order|"
            r"ar\s+order|order\s*/\s*rev|contract\s*/\s*revision|(?:estimate|est)\s*/\s*(?:hl|external)|coop|deal|"
            r"external(?!\s*id))\s*(?:no|number|#|id)?",
            "CONTRACT_NUMBER",
            _id,
        ),
        (r"(?:inv|invoice|receipt|bill|statement)\s*(?:no|number|#|id)?", "INVOICE_NUMBER", _id),
        (
            r"(?:customer|client|member|patient|student|account|acct|advertiser|agency|agy|adv)\s*"
            r"(?:external\s+)?(?:no|number|#|id|code|ref|reference)|cpe|acct\s*#?|account\s*#",
            "CUSTOMER_ID",
            _customer_code,
        ),
        (r"(?:employee|staff|badge|salesperson|sales\s*person|slsp|rep)\s*(?:no|number|#|id|code)", "EMPLOYEE_ID", _id),
        (r"(?:case|claim|ticket|file|docket|reference|ref)\s*(?:no|number|#|id)?", "CASE_NUMBER", _id),
        (r"(?:policy|certificate|cert)\s*(?:no|number|#|id)?", "POLICY_NUMBER", _id),
        (
            r"ssn|social\s+security(?:\s+(?:no|number|#))?|passport(?:\s+(?:no|number|#))?|"
            r"driver'?s?\s+lic(?:en[cs]e)?(?:\s+(?:no|number|#))?|national\s+id",
            "GOVERNMENT_ID",
            _id,
        ),
        (r"ein|fein|federal\s+tax\s+id|tax\s+id|vat(?:\s+(?:no|number|#))?|duns|fcc\s*(?:id|#)?", "BUSINESS_ID", _id),
        (
            r"(?:bank\s+)?account\s+number|bank\s+(?:acct|account)\.?(?:\s*(?:no|number|#))?|"
            r"routing(?:\s+(?:no|number|#))?|iban|card(?:\s+(?:no|number|#))?",
            "FINANCIAL_ACCOUNT",
            _id,
        ),
        (
            r"dob|d\.o\.b\.?|born|date\s+of\s+b?.irth|birth\s*date|birthday",  # "Date of hirth": OCR's b
            "DATE_OF_BIRTH",
            lambda v: bool(DATE.fullmatch(v)),
        ),
        (  # a web address is an online id (spec/annotation.md): "Web: kspencer"
            r"user(?:\s*(?:name|id))?|login|ip(?:\s+address)?|device(?:\s+id)?|web(?:site)?|url",
            "ONLINE_ID",
            _handle,
        ),
        (r"vin|licen[cs]e\s+plate|plate(?:\s+(?:no|number|#))?", "VEHICLE_ID", _plate),
        (
            r"attn|attention|contact|buyer(?:\s+name)?|buying\s+contact|billing\s+contact|primary\s+ae|"
            r"account\s+exec(?:utive)?|ae|salesperson|sales\s*person|entered\s+by|prepared\s+by|requested\s+by|"
            r"submitted\s+by|approved\s+by|assistant|client\s+name|customer\s+name|employee\s+name|patient\s+name|"
            r"name|from|to|cc|bcc|sender|recipient|employee|patient|applicant|claimant|insured|policy\s*holder|"
            r"beneficiary|tenant|witness",
            "PERSON_NAME",
            _name,
        ),
        (
            r"advertiser(?:\s+name)?|agency(?:\s+name)?|company(?:\s+name)?|organi[sz]ation|bill\s+to|"
            r"sold\s+to|sales\s+office|rep\s+firm|vendor|payee",
            "ORGANIZATION",
            _org,
        ),
        (r"(?:job\s+)?title|position|role", "JOB_TITLE", _text),
        (r"phone|tel|telephone|fax|ph|mobile|cell", "PHONE_NUMBER", _phone),
        (r"station|call\s+letters", "INSTITUTION_CODE", lambda v: bool(re.fullmatch(r"[A-Z][A-Z0-9-]{2,9}", v))),
        (r"city|market|sales\s+region", "LOCATION", is_market),
    ]
]
_LABEL_END = re.compile(r"\s*[:#.]*\s*$")


# Column headers OCR often misreads ("\\qy Code", "dverfiser"): matched fuzzily, by these spellings.
_HEADERS = {
    "agy code": "CUSTOMER_ID",
    "agency code": "CUSTOMER_ID",
    "advertiser code": "CUSTOMER_ID",
    "adv code": "CUSTOMER_ID",
    "agency ref": "CUSTOMER_ID",
    "advertiser ref": "CUSTOMER_ID",
    "cpe": "CUSTOMER_ID",
    "ar order": "CONTRACT_NUMBER",
    "order": "CONTRACT_NUMBER",
    "contract": "CONTRACT_NUMBER",
    "contract revision": "CONTRACT_NUMBER",
    "estimate": "CONTRACT_NUMBER",
    "traffic": "CONTRACT_NUMBER",
    "invoice": "INVOICE_NUMBER",
    "salesperson code": "EMPLOYEE_ID",
}
_OK = {t: ok for _, t, ok in LABELS}


def _code(v: str) -> bool:
    """An identifier long enough to be a code: row numbers and counts are not."""
    return _id(v) and len(v.strip("#")) >= 3


_MISREAD_ID = re.compile(r"(?<= )(?:[Il1|][Il1|]?\)|[l1|]D)(?=\s*[:#.]*\s*$)")  # "ID" read as "II)", "lD"


def _label_core(text: str) -> tuple[str, str]:
    """A label's words without the punctuation that ends it, and with its '#' kept ("Member #":
    the '#' says which label it is); a final "ID" that the OCR misread ("Customer II)") is "ID"."""
    text = _MISREAD_ID.sub("ID", text.strip())
    return _LABEL_END.sub("", text).strip(), re.sub(r"\s*[:.]*\s*$", "", text)


def _in_table(text: str) -> tuple[str, Callable[[str], bool]] | None:
    core, hashed = _label_core(text)
    for pattern, type_, ok in LABELS:
        if pattern.fullmatch(core) or (hashed.endswith("#") and pattern.fullmatch(hashed)):
            return type_, ok
    return None


@cache
def unknown_label(text: str) -> bool:
    """A label typed by its words alone (`_code_label`), not by the table: its spans score lower."""
    return _in_table(text) is None and code_label(_label_core(text)[1]) is not None


def _label_score(label: str, weak: bool = False) -> float:
    """The score of a label's value: lower for a label the table lacks, or a weak one (a label
    without its ':'), than a kind-naming prefix ("Ref INV-30211")."""
    return 0.6 if weak or unknown_label(label) else 0.8


def label_type(text: str, fuzzy: bool = False) -> tuple[str, Callable[[str], bool]] | None:
    """The type a label announces, with its value check, or None if `text` is no label.
    `fuzzy` also accepts near-spellings of common column headers."""
    core, hashed = _label_core(text)
    if not core or len(core) > 40:
        return None
    if (known := _in_table(text)) is not None:
        return known
    if fuzzy:
        folded = re.sub(r"[^a-z ]", "", core.lower()).strip()
        best = process.extractOne(folded, list(_HEADERS), scorer=fuzz.ratio, score_cutoff=80)
        if best is not None:  # a kind its words name as printed outranks a near spelling's ("Agency Order")
            type_ = named_kind(core) or _HEADERS[best[0]]
            return type_, _OK[type_]
    code = code_label(hashed)
    return (code, _code) if code is not None else None


_OFFICE_LABEL = re.compile(r"\boffice\b", re.IGNORECASE)
_PLAIN_TAX_ID = re.compile(r"^(?:tax\s*id|tin)\b", re.IGNORECASE)  # neither "Federal Tax ID" nor "EIN"


def _office_code(v: str) -> bool:
    """An office's code ("TELPH", "PRKR"): three to six capitals, no form word ("LOCAL")."""
    return bool(re.fullmatch(r"[A-Z]{3,6}", v)) and field_share(v) < 1


_CODE_END = re.compile(r"\b(?:no|code|id|ref|number|num)\.?$", re.IGNORECASE)
# a label inside the value: "CPE:MBLM/MBLM/0110", or glued by a dot or a hash, "Statement.ST-3584773",
# "Invoice#INV-6424728", "Receipt##173034" (the value's own '#' after the label's)
_INNER_LABEL = re.compile(
    r"^(?P<label>[A-Za-z][A-Za-z .#/]{1,24}?)"
    r"(?:\s*:\s*|\.(?=[A-Za-z0-9])|(?<=[A-Za-z])#(?=#?[A-Za-z0-9]))(?P<value>\S.*)$"
)
_SALES = re.compile(r"salesperson|sales\s*person|account\s+exec|\bae\b|\brep\b", re.IGNORECASE)


# slashes that open a value apart from it ("Phone: / ..."), and any that end it
_SEPARATOR = re.compile(r"^(?:/+(?:\s+|$))+|[\s/]*/$")


def _value_spans(
    seg: Segment, label: str, type_: str, ok: Callable[[str], bool], start: int = 0, score: float = 0.8
) -> list[Span]:
    raw = seg.text[start:]
    text = _SEPARATOR.sub("", raw.strip(" :#|,;"))  # "CPE: //1284": slashes glued to a code are its own
    if re.match(r"#\d", raw.lstrip(" :|/,;")):
        text = "#" + text  # "Invoice No. #37297": a '#' glued to the digits is printed as the value's
    if not text:
        return []
    offset = seg.text.index(text, start)
    inner = _INNER_LABEL.match(text)
    hashed = inner is not None and "#" in text[inner.end("label") : inner.start("value")]
    if inner is not None and (found := label_type(inner.group("label") + (" #" if hashed else ""))) is not None:
        # The value opens with a label of its own ("CPE:MBLM/MBLM/0110"): that label types it.
        return _value_spans(seg, inner.group("label"), *found, start=offset + inner.start("value"), score=score)
    if type_ == "PERSON_NAME" and is_rep_office(text):
        type_, ok = "ORGANIZATION", _org  # "Account Executive: Katz Washington"
    if type_ == "ORGANIZATION" and not names_an_organization(text) and is_person_name(text):
        # a bare person's name in an advertiser field is that person, and "Katz, John" or "Jim
        # House" in a person's field stays one (the default policy does not redact organisations)
        type_, ok = "PERSON_NAME", _name
    if type_ == "BUSINESS_ID" and _PLAIN_TAX_ID.search(label) and not (ein.is_valid(text) or vat.is_valid(text)):
        type_ = "GOVERNMENT_ID"  # spec/schema.md: a personal tax id; a business's is an EIN or a VAT number
    if type_ == "ORGANIZATION" and _OFFICE_LABEL.search(label):  # spec/annotation.md
        if _office_code(text):
            type_, ok = "INSTITUTION_CODE", _office_code  # "Sales Office: PRKR"
        elif is_place(text):
            type_, ok = "LOCATION", is_place  # "Sales Office: Baltimore", a bare city
    if type_ in ("PERSON_NAME", "ORGANIZATION"):
        # "Advertiser: Jacobs For Congress-R (135377)", "Salesperson: Eagle (1446)"
        code_type = "EMPLOYEE_ID" if _SALES.search(label) else "CUSTOMER_ID"
        name_type = "ORGANIZATION" if is_organization(text) else type_
        coded = split_code(seg, offset, name_type, code_type, 0.8, "label")
        if coded:
            return coded
    if type_ == "PERSON_NAME" and (listed := _listed_names(seg, offset, text, label, score)):
        return listed
    if type_ == "PERSON_NAME" and _person_code(text):
        type_, ok = "EMPLOYEE_ID", _person_code  # "Requested by: CFLA"
    if not ok(text) or (type_ == "PERSON_NAME" and is_organization(text)):
        return []
    words, left, right = seg.cuts(offset, offset + len(text))
    # A date of birth is a date the pattern recogniser also finds: the label must win.
    score = 0.95 if type_ == "DATE_OF_BIRTH" else score
    return [Span(type_, words, score, "label", left, right, _why("the value of", label))] if words else []


def _person_code(v: str) -> bool:
    """Two to five capitals in a person's field that are no census name nor form word: initials
    or a user's code ("CFLA"), an EMPLOYEE_ID."""
    named = is_common_first_name(v) or is_common_surname(v)
    return bool(re.fullmatch(r"[A-Z]{2,5}", v)) and not named and field_share(v) == 0


def _listed_names(seg: Segment, offset: int, text: str, label: str, score: float) -> list[Span]:
    """Several people in one field ("Mary Smith, Jane Doe"): a span each, when every part between
    commas or semicolons is a full census name (so "Smith, Jennifer" stays one)."""
    parts = [(m.start(), m.group()) for m in re.finditer(r"[^,;]*[^,;\s]", text)]
    parts = [(start + len(p) - len(p.lstrip()), p.strip()) for start, p in parts]
    if len(parts) < 2 or not all(len(p.split()) >= 2 and is_person_name(p) for _, p in parts):
        return []
    spans = []
    for start, p in parts:
        words, left, right = seg.cuts(offset + start, offset + start + len(p))
        spans.append(Span("PERSON_NAME", words, score, "label", left, right, _why("the value of", label)))
    return spans


def _why(where: str, label: str) -> str:
    """A span's reason: where its label is, and, for a label the table lacks, that its words
    named the code."""
    unknown = ", a label the table lacks whose words name the code" if unknown_label(label) else ""
    return f"{where} {' '.join(label.split())!r}{unknown}"


def _is_label(text: str) -> bool:
    return text.rstrip().endswith(":") or label_type(text) is not None


# a code's field with no colon: a label ending in its number's word, then the code ("Case No. CASE-2018-29127")
_NUMBERED = re.compile(
    r"^(?P<label>[A-Za-z][A-Za-z ]{0,24}?\s(?:no\.?|#|number))\s+[A-Za-z0-9#][\w#/.-]*\d[\w/.-]*$", re.I
)


def _another_field(text: str) -> bool:
    """A label's neighbour that is a field of its own (`_INNER_LABEL`), a colon and a space between
    its label and its value ("Web:" beside "Agency: Sanchez-Schmidt" across the page, its value
    below it), or a code after its label's number word (`_NUMBERED`: "Case No. CASE-2018-29127"
    under "Agency:"); a value that opens with a label glued to it ("CPE:MBLM/MBLM/0110") is a value
    (`_value_spans`)."""
    if (numbered := _NUMBERED.match(text)) is not None and label_type(numbered["label"]) is not None:
        return True
    m = _INNER_LABEL.match(text)
    glue = text[m.end("label") : m.start("value")] if m else ""
    return m is not None and ":" in glue and glue[-1].isspace() and label_type(m["label"]) is not None


def find(text: PageText) -> list[Span]:
    segs, words = text.segs, text.words
    out: list[Span] = []
    for seg in segs:
        found = label_type(seg.text)
        if found is not None:
            type_, ok = found
            # The value sits to the right; a label with nothing to its right, another label or
            # field there (a header row, another field across the page), or a neighbour that is no
            # value of its type, has it below.
            score = _label_score(seg.text)
            for neighbour in (right_of(seg, segs), below(seg, segs, max_lines=1.6)):
                spans = (
                    []
                    if neighbour is None or _is_label(neighbour.text) or _another_field(neighbour.text)
                    else _value_spans(neighbour, seg.text, type_, ok, score=score)
                )
                if spans:
                    out += spans
                    break
            continue
        out += _inline(seg, words) + _glued(seg, words) + _estimate(seg) + _greeting(seg)
    out += [span for seg in segs for span in unlabelled_codes(seg, segs)]
    return out + _under_headers(segs, words)


_GREETING = re.compile(
    r"^(?:Dear|Hello|Hi|Attention)\s+(?:(?:Mr|Mrs|Ms|Dr)\.?\s+)?"
    r"(?P<name>[A-Z][A-Za-z'.-]+(?:\s+[A-Z][A-Za-z'.-]+){0,2}?)\s*[,:!]?$"
)


# "... PLEASE CONFIRM THANKS, FRAN": who signs a message off, any census first name leading the name
_SIGN_OFF = re.compile(
    r"(?:^|(?<=[\s;.,!]))(?i:thanks|thank\s+you|regards|best\s+regards|sincerely|cheers),?\s+"
    r"(?P<name>[A-Z][A-Za-z'.-]+(?:\s+[A-Z][A-Za-z'.-]+){0,2}?)\s*[.!]?$"
)


_GREETED_I = re.compile(r"^((?:Dear|Hello|Hi|Attention)\s+)l(?=[a-z]+\b)")  # "Hello lan I. Green": Ian's I read l


def _greeting(seg: Segment) -> list[Span]:
    """The person a letter or e-mail is addressed to: "Dear Ms. Holstein," (the name without its
    honorific, spec/annotation.md), "Hello Matthew Johnson", a first name's I read as an l ("Hello
    lan I. Green"); and who signs it off ("Thanks, Fran")."""
    text = _GREETED_I.sub(r"\1I", seg.text)
    m = _GREETING.match(text)
    if m is not None and text != seg.text and not is_first_name(m.group("name").split()[0]):
        return []
    if m is None:
        m = _SIGN_OFF.search(seg.text)
        if m is None or not is_first_name(m.group("name").split()[0]):
            return []
    if is_organization(m.group("name")):
        return []
    words, left, right = seg.cuts(m.start("name"), m.end("name"))
    return [Span("PERSON_NAME", words, 0.7, "greeting", left, right)]


_ESTIMATE = re.compile(
    r"^EST\.?\s+(?P<code>[A-Za-z]{0,4}\d[\w/-]*)(?![.]\w)(?:\s+(?P<name>[A-Z][A-Za-z'-]+))?", re.IGNORECASE
)
# "... FOR SENATE EST 724730; ...": an estimate's number inside a line, in capitals as the
# ad-buy forms print it; a time zone's "EST" after a clock time or before a year is none (the
# number has four digits or more: no date)
_ESTIMATE_INSIDE = re.compile(r"(?<!AM )(?<!PM )(?<=\s)EST\.?\s+(?P<code>\d{4,}[\w/-]*)(?![\w/-])")
_A_YEAR = re.compile(r"(?:19|20)\d\d")


def _estimate(seg: Segment) -> list[Span]:
    """An estimate line, "EST 1405-B HAMILTON": the estimate number, and a surname in the
    estimate's name (spec/annotation.md: other estimate names are not PII); and an estimate's
    number inside a line ("... EST 724730; ...")."""
    m = _ESTIMATE.match(seg.text)
    if m is None:
        out = []
        for inside in _ESTIMATE_INSIDE.finditer(seg.text):
            if not _A_YEAR.fullmatch(inside.group("code")):
                words, left, right = seg.cuts(inside.start("code"), inside.end("code"))
                out.append(Span("CONTRACT_NUMBER", words, 0.8, "label", left, right))
        return out
    words, left, right = seg.cuts(m.start("code"), m.end("code"))
    out = [Span("CONTRACT_NUMBER", words, 0.8, "label", left, right)]
    if m.group("name") and is_common_surname(m.group("name")):
        words, left, right = seg.cuts(m.start("name"), m.end("name"))
        out.append(Span("PERSON_NAME", words, 0.7, "label", left, right))
    return out


def _inline(seg: Segment, words: list[Word]) -> list[Span]:
    """Labels inside a segment: "Contact: Mary Johnson Phone: (312) 555-0199", "Inv # 7303200",
    "Traffic Line No. 4455". A label is 1–4 words ending in ':', '#' or a code word (No, Code,
    ID, Ref), or a code's label opening the segment with a code after it ("Contract 1629799");
    its value runs to the next label, cut back to the longest prefix its type accepts."""
    texts = [words[i].text for i in seg.words]
    n = len(texts)
    found: list[tuple[int, int, str, Callable[[str], bool], str, float]] = []
    k = 0
    while k < n:
        for size in (4, 3, 2, 1):
            stop = k + size
            if stop > n:
                continue
            if stop < n and texts[stop] in ("#", ":"):
                stop += 1
            cand = " ".join(texts[k:stop])
            after = texts[stop].strip(" |/.,;:()[]") if stop < n else ""
            glued = stop < n and re.match(r"[#:]+\w", texts[stop]) is not None  # "Traffic #:1629799"
            ends = cand.endswith((":", "#")) or glued or (_CODE_END.search(cand) is not None and len(cand.split()) > 1)
            opens = k == 0 and _code(after) and re.fullmatch(r"[A-Za-z0-9/-]+", after)  # "Contract 1629799 Rev 2"
            hit = label_type(cand) if ends or opens else None
            if hit is None and glued and texts[stop].startswith("#"):
                hit = label_type(f"{cand} #")  # "Member #M99455": the '#' went to the value
            if hit is not None and (ends or hit[1] is _id):  # a label without its ':' announces a code only
                score = _label_score(cand, weak=not ends)
                found.append((k, stop, hit[0], hit[1], cand, score))
                k = stop - 1
                break
        k += 1
    out = []
    for j, (_, stop, type_, ok, label, score) in enumerate(found):
        limit = found[j + 1][0] if j + 1 < len(found) else n
        for last in range(limit, stop, -1):
            text = " ".join(texts[stop:last]).strip(" |/")
            if text and ok(text):
                out += _value_spans(part(seg, seg.words[stop:last], words), label, type_, ok, score=score)
                break
    return out


_GLUED = re.compile(
    r"^(?P<label>[A-Za-z][A-Za-z.]*(?:#*:|#+|(?<=[A-Za-z])\.(?=\d)|(?<=[A-Za-z]{2})(?=\d{4})))(?P<value>#?[A-Za-z]*\d\S*)$"
)
_GLUED_WORDS = re.compile(r"^(?P<label>[A-Za-z][A-Za-z.]*:)(?P<value>[A-Z][A-Za-z.'-]*)$")  # "Attn:John Smith"


def _glued(seg: Segment, words: list[Word]) -> list[Span]:
    """A label the OCR read as one word with its value ("Acct#40211", "Order No:88123",
    "Invoice No.1234567", a code's label with no mark at all: "Order12345678"; a '#' after the
    label's colon is the value's: "Statement:#774735"): the value is
    the rest of the word, or, for a value in words, runs on from it (`_glued_value`). A code's
    own prefix is no label ("EST124014": `patterns` reads it whole)."""
    out = []
    for j, i in enumerate(seg.words):
        m = _GLUED.match(words[i].text) or _GLUED_WORDS.match(words[i].text)
        if m is None or prefixed_type(words[i].text):
            continue
        for k in (j, j - 1, j - 2):  # the label may start a word or two before
            label = " ".join([words[w].text for w in seg.words[max(k, 0) : j]] + [m.group("label")])
            hit = label_type(label) if k >= 0 else None
            if hit is not None and (m.group("label")[-1] in ":#." or hit[1] is _id):  # "Order12345678": a code
                out += _glued_value(seg, words, j, m, label, hit)
                break
    return out


def _glued_value(
    seg: Segment, words: list[Word], j: int, m: re.Match[str], label: str, hit: tuple[str, Callable[[str], bool]]
) -> list[Span]:
    """The value glued to a label in the segment's `j`-th word. A value in words ("Attn:John
    Smith") runs on over the next words, up to the next label, as far as its type accepts, and a
    licence plate over the next word ("Plate:5K 3Y4PNF")."""
    ends: Sequence[int] = (j + 1,)
    if hit[0] == "VEHICLE_ID":  # a plate in two groups ("Plate:5K 3Y4PNF")
        ends = range(min(len(seg.words), j + 2), j, -1)
    if m.re is _GLUED_WORDS:
        stop = next((e for e in range(j + 1, len(seg.words)) if _is_label(words[seg.words[e]].text)), len(seg.words))
        ends = range(min(stop, j + 4), j, -1)
    score = _label_score(label)
    for end in ends:
        if found := _value_spans(part(seg, seg.words[j:end], words), label, *hit, start=m.start("value"), score=score):
            return found
    return []


def _under_headers(segs: list[Segment], words: list[Word]) -> list[Span]:
    """Table cells: an identifier under a column header takes the header's type. The header
    is read from the words just above the cell, since OCR merges a header row into one line."""
    out = []
    for seg in segs:
        if not any(c.isdigit() for c in seg.text) or _is_label(seg.text):
            continue
        x0, y0, x1, _ = seg.box
        above = [
            i
            for i, w in enumerate(words)
            # line boxes overlap by a few pixels: a header may reach a third into the cell's line
            if w.bbox[3] <= y0 + 0.35 * seg.height
            and w.bbox[1] < y0
            and y0 - w.bbox[3] < 2.5 * seg.height
            and w.bbox[0] < x1 + 4
            and w.bbox[2] > x0 - 4
        ]
        if not above:
            continue
        top, bottom = words[max(above, key=lambda i: words[i].bbox[3])].bbox[1::2]
        # the header's row: words whose middle is level with the nearest one (rows' boxes overlap)
        row = sorted((i for i in above if top <= (words[i].bbox[1] + words[i].bbox[3]) / 2 <= bottom),
                     key=lambda i: words[i].bbox[0])  # fmt: skip
        header = " ".join(words[i].text for i in _phrase(row, words)).strip(" |")
        found = label_type(header, fuzzy=True)
        if found is not None and found[0] == "ORGANIZATION" and _id(seg.text.strip(" |/")):
            found = ("CUSTOMER_ID", _id)  # a code under "Advertiser" / "Agency" is that party's code
        if found is not None and found[1](seg.text.strip(" |/")):
            score = 0.55 if unknown_label(header) else 0.7
            for span in _value_spans(seg, header, found[0], found[1]):
                why = _why("under the column header", header)
                out.append(Span(span.type, span.words, score, "column-header", span.cut_left, span.cut_right, why))
            out += _down_the_column(seg, segs, header, found)
    return out


def _phrase(row: list[int], words: list[Word]) -> list[int]:
    """The header words over a cell, widened to the whole header: a header may be wider than its
    column's values ("Customer ID" over "M94982"). Words a word space apart belong to it; the
    gap to the next column's header ends it."""
    top, bottom = min(words[i].bbox[1] for i in row), max(words[i].bbox[3] for i in row)
    line = sorted((i for i, w in enumerate(words) if top <= (w.bbox[1] + w.bbox[3]) / 2 <= bottom),
                  key=lambda i: words[i].bbox[0])  # fmt: skip
    space = 0.35 * (bottom - top)
    out = list(row)
    for i in line:  # rightwards
        if 0 < words[i].bbox[0] - words[out[-1]].bbox[2] <= space:
            out.append(i)
    for i in reversed(line):  # leftwards
        if 0 < words[out[0]].bbox[0] - words[i].bbox[2] <= space:
            out.insert(0, i)
    return out


def _down_the_column(
    first: Segment, segs: list[Segment], header: str, found: tuple[str, Callable[[str], bool]]
) -> list[Span]:
    """The cells below a typed cell in its column, while each is a value of the same kind: a
    header types its whole column, not the first row only."""
    out: list[Span] = []
    cell, seen = first, {first.index}
    while (nxt := below(cell, segs, max_lines=1.6)) is not None and nxt.index not in seen:
        text = nxt.text.strip(" |/")
        if _is_label(nxt.text) or not found[1](text) or abs(nxt.box[0] - first.box[0]) > 2 * first.height:
            break
        if len(text) < 3:
            break  # row numbers and counts, not codes
        for span in _value_spans(nxt, header, found[0], found[1]):
            why = _why("down the column under", header)
            out.append(Span(span.type, span.words, 0.65, "column", span.cut_left, span.cut_right, why))
        seen.add(nxt.index)
        cell = nxt
    return out


RECOGNISER = Recogniser(
    "labels",
    frozenset({"BUSINESS_ID", "CASE_NUMBER", "CONTRACT_NUMBER", "CUSTOMER_ID", "DATE_OF_BIRTH", "EMPLOYEE_ID",
               "FINANCIAL_ACCOUNT", "GOVERNMENT_ID", "INSTITUTION_CODE", "INVOICE_NUMBER", "JOB_TITLE", "LOCATION",
               "ONLINE_ID", "ORGANIZATION", "PERSON_NAME", "PHONE_NUMBER", "POLICY_NUMBER", "VEHICLE_ID",
               "EMAIL_ADDRESS", "POSTAL_ADDRESS", "DATE"}),
    find,
)  # fmt: skip
