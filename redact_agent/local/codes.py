"""Codes by their labels' words and by their shape: the code type an unknown label's words
announce ("Agency Client Code", "Ord #"), and codes printed with no label that their shape alone
gives away ("MBLM/MBLM/0110", "C75334", "#907193", an account's 11 to 19 digits).
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz, process

from redact_agent.local.layout import Segment, above, left_of
from redact_agent.local.spans import GLUED_WORD, Span

# A label the table does not know, but whose words say it holds a code ("Agency Client Code",
# "Advertiser Ref #", "Ext. ID"): its value is a critical code when it is ID-shaped, typed by the
# label's words, a CUSTOMER_ID when they say no more (the commonest code on such forms).
_CODE_WORD = re.compile(r"\b(?:code|ref|reference|id|no|num|number|key|cpe)\b\.?|#", re.IGNORECASE)
_NOT_A_CODE = re.compile(
    r"\b(?:product|brand|isci|ad[\s-]?id|spot|program|programme|zip|postal|phone|fax)\b", re.IGNORECASE
)
_CODE_KINDS = [
    (
        re.compile(
            r"\b(?:order|ord|contract|con|cont|contr|agreement|agmt|est|estimate|traffic|headline|line|po|io|insertion|"
            r"buy|booking|deal|rev|revision)\b",
            re.I,
        ),
        "CONTRACT_NUMBER",
    ),
    (re.compile(r"\b(?:invoice|inv|bill|billing|statement|receipt)\b", re.I), "INVOICE_NUMBER"),
    (re.compile(r"\b(?:salesperson|slsp|sales|rep|ae|emp|employee|staff)\b", re.I), "EMPLOYEE_ID"),
    (re.compile(r"\b(?:case|claim|ticket|file|docket)\b", re.I), "CASE_NUMBER"),
    (re.compile(r"\b(?:policy|certificate)\b", re.I), "POLICY_NUMBER"),
    (re.compile(r"\b(?:customer|cust|client|member|account|acct|advertiser|adv|agency|agy)\b", re.I), "CUSTOMER_ID"),
]
# The kinds' long words, for labels the OCR misspelt ("Contrct", "lnvoice")
_KIND_WORDS = {w: t for p, t in _CODE_KINDS for w in re.findall(r"[a-z]{6,}", p.pattern)}


def named_kind(label: str) -> str | None:
    """The code type a label's words name as printed ("Agency Order" names an order)."""
    return next((t for pattern, t in _CODE_KINDS if pattern.search(label)), None)


def _code_kind(label: str) -> str | None:
    """The code type a label's words name, also when the OCR misspelt a long one."""
    exact = named_kind(label)
    if exact is not None:
        return exact
    for word in re.findall(r"[A-Za-z]{6,}", label):
        best = process.extractOne(word.lower(), list(_KIND_WORDS), scorer=fuzz.ratio, score_cutoff=85)
        if best is not None:
            return _KIND_WORDS[best[0]]
    return None


# Codes with no label, known by their shape alone: three or more slash-separated parts with a
# digit ("MBLM/MBLM/0110", "123/456/7890"), which no date is; one to three capitals before a
# digit run ("C75334", "HX-21-809494"; an ad's ISCI code, "PEPA0230H", has four and a letter
# after; a quote the OCR reads after the first, "C'734514", and a middle dot for a hyphen,
# "S·922327"); '#' before five or more digits ("#907193"); either with the next word's lowercase
# letters glued on, the space lost ("M6306101service"), or the word before's ("consultingM4093300"). Agency,
# account and reference codes: a CUSTOMER_ID, the commonest code on such forms, unless their field
# is a product or brand. A year with a prefix ("FY2020", "Q42020") is no code. A bare number of
# 11 to 19 digits that no phone recogniser took is printed as bank accounts and cards are: a
# FINANCIAL_ACCOUNT (no amount, count or date has so many digits without separators).
SLASH_CODE = re.compile(r"(?<![\w/])(?=[A-Z0-9/]*\d)[A-Z0-9]{2,}(?:/[A-Z0-9]{2,}){2,}(?![\w/])")
_CAPS_CODE = re.compile(
    rf"(?:(?<![\w/#-])|(?<=[a-z]{{2}}))(?:[A-Z]'?[A-Z]{{0,2}}(?:[-·]\d{{2}})?[-·]?\d{{4,}}|#\d{{5,}})"
    rf"(?={GLUED_WORD}|(?![\w/-]))"
)
_LONG_NUMBER = re.compile(r"(?<![\w/#.,$-])\d{11,19}(?![\w/-]|[.,]\d)")
_SHAPES = (
    (SLASH_CODE, "CUSTOMER_ID", "slash-separated parts"),
    (_CAPS_CODE, "CUSTOMER_ID", "capitals or '#' before digits"),
    (_LONG_NUMBER, "FINANCIAL_ACCOUNT", "11 digits or more, as an account is printed"),
)
_YEAR = re.compile(r"^(?:[A-Z]{1,3}|Q[1-4])-?(?:19|20)\d\d$")
UNLABELLED_SCORE = 0.4  # below every label and pattern: a code's label, where there is one, types it


_DATE_RUN = re.compile(r"(?:^|/)(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/\d{2}")  # dates OCR glued together


def unlabelled_codes(seg: Segment, segs: list[Segment]) -> list[Span]:
    out = []
    for pattern, type_, why in _SHAPES:
        for m in pattern.finditer(seg.text):
            if _DATE_RUN.search(m.group(0)) or _YEAR.match(m.group(0)):
                continue
            words, left_cut, right_cut = seg.cuts(m.start(), m.end())
            reason = f"a code with no label, by its shape ({why})"
            out.append(Span(type_, words, UNLABELLED_SCORE, "code-shape", left_cut, right_cut, reason))
    if not out:
        return out
    left = left_of(seg, segs)
    context = seg.text + " " + (left.text if left is not None else "")
    header = next(iter(above(seg, segs, max_lines=1.6)), None)
    if header is not None and re.search(r"\d", header.text):
        header = None  # a field with its value ("Phone: 668.383.8229"), not a column's header
    if _NOT_A_CODE.search(context) or (header is not None and _NOT_A_CODE.search(header.text)):
        return []  # a product's or an ad's code
    return out


def code_label(label: str) -> str | None:
    """The code type an unknown label's words announce, or None when it is no code label: words
    with a code word ("Agency Client Code", "Ext. ID": a CUSTOMER_ID when they say no more), or
    a kind's word before '#' ("Ord #", "Cust #"; "Page #" is no code label)."""
    if len(label.split()) > 5 or any(c.isdigit() for c in label) or not re.search(r"[A-Za-z]{2}", label):
        return None  # a label has words and no digits ("# 7303200" is a value)
    if ":" in label.rstrip(": #"):
        return None  # a label and its value ("Advertiser Code: GMAC"): a label ends at its colon
    if _NOT_A_CODE.search(label):
        return None
    kind = _code_kind(label)
    coded = re.search(r"[A-Za-z]{2}", _CODE_WORD.sub(" ", label)) and _CODE_WORD.search(label.rstrip("#"))
    if coded:  # "No" or "ID" alone says too little
        return kind or "CUSTOMER_ID"
    return kind if label.endswith("#") else None
