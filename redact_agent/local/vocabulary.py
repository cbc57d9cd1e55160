"""Words that build the structure of a form rather than its values: field labels and column
headers ("Agency Ref", "Original Date / Revision", "Start Date / End Date"). A candidate value
made of nothing else is a label or a header, not PII. Shared by the recognisers that type a
label's neighbour and those that read organisation cues.
"""

from __future__ import annotations

import re

FIELD_WORDS = frozenset(
    {
        "a", "an", "and", "the", "of", "to", "for", "by", "from", "on", "at", "in", "per", "with", "or", "c/o", "re",
        "ref", "reference", "code", "codes", "id", "ids", "no", "nos", "number", "num", "#", "date", "dates",
        "revision", "rev", "original", "start", "end", "time", "times", "day", "days", "week", "weeks", "month",
        "months", "year", "qtr", "quarter", "period", "flight", "type", "kind", "class", "status", "order", "orders",
        "line", "lines", "item", "items", "total", "totals", "subtotal", "hour", "hours", "hrs",
        "gross", "net", "amount", "amounts", "rate",
        "rates", "cost", "price", "charge", "charges", "fee", "fees", "tax", "commission", "comm", "discount",
        "balance", "due", "paid", "payment", "payments", "remit", "invoice", "bill", "billing", "statement", "contract",
        "estimate", "product", "products", "program", "programs", "programme", "description", "desc", "notes", "note",
        "remarks", "comments", "name", "names", "address", "phone", "fax", "email", "e-mail", "contact", "contacts",
        "rep", "reps", "office", "sales", "salesperson", "account", "accounts", "advertiser", "advertisers", "agency",
        "agencies", "buyer", "client", "customer", "station", "stations", "market", "markets", "network", "networks",
        "broadcast", "broadcasting", "media", "spot", "spots", "length", "len", "unit", "units", "qty", "quantity",
        "page", "pages", "schedule", "schedules", "national", "local", "regional", "political", "co-op", "coop",
        "cable", "digital", "print", "radio", "television", "tv", "external", "internal", "alt", "primary", "secondary",
        "new", "old", "accepted", "approved", "signed", "signature", "plan", "plans", "payable", "receivable",
        "pending", "tbd", "none", "unknown", "various", "n/a", "ship", "mail", "send",
        # a stamp's words, which the OCR reads as a field's value where the stamp lies over it
        "confidential", "received", "copy", "draft", "void", "filed", "duplicate"
    }
)  # fmt: skip
# Words of programme titles: names and call letters inside them describe a programme
# ("Ellen DeGeneres Show", "KMBC 9 News on KCWE"), which the guidelines do not count as PII.
PROGRAMME = re.compile(
    r"\b(?:news|morning|tonight|today|live|weather|sports|show|report|edition|weekend|update|hour|theat(?:er|re)|"
    r"movie|special|series|talk|kitchen|family|court|judge|jeopardy|wheel)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'.&-]*")


def words(text: str) -> list[str]:
    """The words of `text` as the vocabulary reads them (letters, with inner ' . & -)."""
    return _TOKEN.findall(text)


def split_field_word(text: str) -> bool:
    """One structure word the OCR read in pieces, large print spaced out or a stamp's letters
    ("IN VOICE", "CO NFIDENTIAL")."""
    tokens = words(text)
    return len(tokens) > 1 and "".join(tokens).casefold() in FIELD_WORDS


def field_share(text: str) -> float:
    """The share of `text`'s words that are structure words (1.0 when it has no word, or is one
    read in pieces: `split_field_word`)."""
    tokens = words(text)
    if split_field_word(text):
        return 1.0
    return sum(t.casefold().strip(".-'") in FIELD_WORDS for t in tokens) / len(tokens) if tokens else 1.0
