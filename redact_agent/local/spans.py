"""What recognisers read and what they propose, and the one interface they all answer.

A `Recogniser` declares the schema types it proposes and finds `Span`s (a type over some OCR
words, with a score and its source) in a page's `PageText`: the OCR words and their segments,
computed once per page. The engine runs a list of them, as Presidio's analyzer runs its
recognizers: adding one is one module and one line in that list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from redact_agent.local.layout import Segment, segments
from redact_agent.tools.ocr import Word


@dataclass(frozen=True)
class Span:
    type: str
    words: tuple[int, ...]  # indices into the page's words; several lines for a block
    score: float  # 0..1; overlapping spans are resolved by score, then length
    source: str  # which recogniser found it
    cut_left: int = 0  # characters of the first word that are not part of the value ("(" in "(1234)")
    cut_right: int = 0  # characters of the last word that are not part of the value
    reason: str = ""  # why, in words, where the source alone does not say it ("the value of 'Agy Code'")


@dataclass(frozen=True)
class PageText:
    words: list[Word]
    segs: list[Segment]

    @classmethod
    def of(cls, words: list[Word]) -> PageText:
        return cls(words, segments(words))


@dataclass(frozen=True)
class Recogniser:
    name: str
    types: frozenset[str]  # every type its spans may carry
    find: Callable[[PageText], list[Span]]
