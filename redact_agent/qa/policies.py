"""Non-disclosure policies for document QA, read for what they protect.

A policy is text ("Do not disclose the authorised amount of the new repurchase programme.").
It is *type-level* when it forbids a kind of PII the schema knows ("Do not disclose phone
numbers", "... any person's name"): the embedded engine can find and redact every item of
that type. Otherwise it is *term-level*: it protects a named target (its content words:
"authorised amount repurchase programme") and, when the policy gives it ("... that the amount
is 2.5 billion"), the value itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The words by which a policy names a schema type, each a regular expression over the
# lowercased policy.
TYPE_WORDS: dict[str, str] = {
    "PERSON_NAME": r"\b(person'?s? names?|people'?s? names|names? of (any )?(person|people|individuals?)|"
    r"any (person|individual)'?s? name|personal names?)\b",
    "PHONE_NUMBER": r"\b(tele)?phone( numbers?)?\b|\bfax numbers?\b",
    "EMAIL_ADDRESS": r"\be-?mail( address(es)?)?\b",
    "POSTAL_ADDRESS": r"\b(postal|street|mailing|home) address(es)?\b",
    "DATE_OF_BIRTH": r"\b(dates? of birth|birth ?dates?|birthdays?)\b",
    "ACCOUNT_NUMBER": r"\b(bank )?account numbers?\b",
    "SIGNATURE": r"\bsignatures?\b",
}
_STOP = frozenset(
    {"a", "an", "the", "of", "for", "in", "on", "at", "to", "and", "or", "any", "all", "that", "this", "these",
     "those", "its", "it", "is", "are", "was", "were", "be", "been", "new", "do", "not", "never", "disclose",
     "reveal", "share", "mention", "state", "say", "give", "tell", "about", "which", "whose", "what"}
)  # fmt: skip
_VALUE = re.compile(r"\b(?:is|was|are|were|equals?|=)\s+(.+?)[.\s]*$", re.IGNORECASE)


@dataclass(frozen=True)
class Protected:
    text: str  # the policy as given
    types: tuple[str, ...]  # schema types it forbids (type-level)
    terms: tuple[str, ...]  # the target's content words (term-level)
    value: str | None = None  # the protected value, when the policy states it

    @property
    def type_level(self) -> bool:
        return bool(self.types)


def read_policy(text: str) -> Protected:
    lowered = " ".join(text.lower().split())
    types = tuple(t for t, words in TYPE_WORDS.items() if re.search(words, lowered))
    if types:
        return Protected(text, types, ())
    target = re.sub(r"^.*?\b(disclose|reveal|share|mention|state)\b", "", lowered).strip(" .")
    value = None
    if m := _VALUE.search(target):
        value = m.group(1).strip(" .")
        target = target[: m.start()]
    words = re.findall(r"[a-z0-9][a-z0-9'$%.,-]*[a-z0-9%]|[a-z0-9]", target)
    terms = tuple(w for w in words if w not in _STOP)
    return Protected(text, (), terms, value)
