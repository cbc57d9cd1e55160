"""A recognised span: a PII type over some OCR words, with a score and the recogniser's name."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    type: str
    words: tuple[int, ...]  # indices into the page's words; several lines for a block
    score: float  # 0..1; overlapping spans are resolved by score, then length
    source: str  # which recogniser found it
    cut_left: int = 0  # characters of the first word that are not part of the value ("(" in "(1234)")
    cut_right: int = 0  # characters of the last word that are not part of the value
