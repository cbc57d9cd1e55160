"""A code or phone number printed again where the OCR garbled it: digits read as marks or letters,
or lost, and none read as another digit.

On a page in small or faint print the OCR reads "8:1.975.:366" for 814-975-2366, "CJST80:9:82"
for CUST-8019182 and "1955:538-489C" for (955) 538-4890 (synthetic documents seed 419, a 100 dpi
page in 7-point type). A value found on the page, or on another page of its document, is aligned
with each run of up to three words that could print it (`PageText.number_runs`): a digit of the
value must be read as itself, or as a mark or a letter, or be lost; a digit read as another digit,
or a digit the value lacks, is another number of its series, never this one. A run is the value
where `EXACT` of its digits, and `MIN_EXACT` or more, are read as themselves, in order, and at
most `MOST_LOST` are lost. Letters and punctuation of the value may be read as other letters or
marks ("CJST" for "CUST"), and as a digit only where they look like it ("1" for "(", "5" for "S").
"""

from __future__ import annotations

import math
from functools import lru_cache

from redact_agent.linking import OCR_DIGITS
from redact_agent.local.spans import EDGE, PageText, edges

EXACT = 0.7  # the share of a value's digits read as themselves
MIN_EXACT = 5  # and the fewest: a shorter number is too often some other
MOST_LOST = 2  # digits of the value the OCR may have lost
LENGTH = (0.7, 1.4)  # a reading's length, without spaces, to the value's: a run of more words is no reading of it

_LOOKS_LIKE = {**OCR_DIGITS, "(": "1", ")": "1"}  # a value's characters the OCR reads as a digit
# the letters a digit the OCR garbled is read as at a reading's edge: those it is confused with, and "c" for a 0
_LETTERS_FOR = {d: "".join(k for k, v in OCR_DIGITS.items() if v == d) for d in "0123456789"} | {"0": "oc"}
Score = tuple[int, int, int]  # digits read as themselves, less digits lost, less edits: the larger the better


def _step(value_char: str | None, read_char: str | None) -> Score | None:
    """An alignment step's score: a value's character read as `read_char`, lost (`read_char` None)
    or a read character the value lacks (`value_char` None); None where it is no misreading: a digit
    the value lacks, or read for a character of the value that does not look like it."""
    if value_char is None:
        return None if read_char is not None and read_char.isdigit() else (0, 0, -1)
    if read_char is None:
        return (0, -1, -1) if value_char.isdigit() else (0, 0, -1)
    if value_char == read_char:
        return (1, 0, 0) if value_char.isdigit() else (0, 0, 0)
    if read_char.isdigit() and _LOOKS_LIKE.get(value_char) != read_char:
        return None
    return (0, 0, -1)


def _add(a: Score | None, b: Score | None) -> Score | None:
    return None if a is None or b is None else (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def align(value: str, read: str) -> Score | None:
    """The best alignment of a value with a reading of it (both casefolded, without spaces) by
    `_step`: most digits read as themselves, then fewest lost, then fewest edits; None where every
    alignment reads a digit for another character or adds one, or the reading holds more than the
    value before or after it."""
    n, m = len(value), len(read)
    prev: list[Score | None] = [(0, 0, 0)] + [None] * m  # the reading opens with the value
    for i in range(1, n + 1):
        row: list[Score | None] = [_add(prev[0], _step(value[i - 1], None))]
        for j in range(1, m + 1):
            options = (
                _add(prev[j - 1], _step(value[i - 1], read[j - 1])),
                _add(prev[j], _step(value[i - 1], None)),
                _add(row[j - 1], _step(None, read[j - 1])) if i < n else None,  # and ends with it
            )
            row.append(max((o for o in options if o is not None), default=None))
        prev = row
    return prev[m]


def _reads(value_char: str, read_char: str) -> bool:
    """Whether a read character at a reading's edge is a reading of a value's: itself, a digit the
    value's character looks like, or a digit garbled into a mark or into a letter that looks like it
    ("168c" for "1680"; the "T" of a label glued on is no garbled "4"; a letter no English word
    holds is a mark: "ō" for a "5" with a flat top)."""
    if value_char == read_char or _LOOKS_LIKE.get(value_char) == read_char:
        return True
    mark = not (read_char.isascii() and read_char.isalnum())
    return value_char.isdigit() and (mark or read_char in _LETTERS_FOR.get(value_char, ""))


def _edges_read(value: str, read: str) -> bool:
    """Whether a reading opens and ends with readings of the value's first and last character, or
    of its first and last letter or digit where the value's edge is punctuation the reading's
    edge punctuation (`EDGE`, cut off it) may have been."""
    bare = value.strip(EDGE) or value
    return (_reads(value[0], read[0]) or _reads(bare[0], read[0])) and (
        _reads(value[-1], read[-1]) or _reads(bare[-1], read[-1])
    )


def _is_value(needed: int, score: Score | None) -> bool:
    return score is not None and score[0] >= needed and -score[1] <= MOST_LOST


@lru_cache(maxsize=4096)
def _digit_counts(text: str) -> tuple[int, ...]:
    return tuple(text.count(d) for d in "0123456789")


def _shared(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(map(min, a, b))


def garbled(text: PageText, value: str) -> list[tuple[tuple[int, ...], int, int]]:
    """The runs of words that print `value` as the OCR garbled it, with the edge punctuation of
    their first and last word. A run opens and ends with readings of the value's first and last
    character (`_edges_read`): a letter read for a value's "+" or ")" is a label's or the next
    word's, and would take it into the box; and a run that holds a shorter one found is none
    ("1 INV-0822904", the quantity before the code read as its "I"). Runs of too few of its digits,
    or too short or long, are not aligned."""
    want = "".join(value.casefold().split())
    digits = _digit_counts(want)
    if sum(digits) < MIN_EXACT:
        return []
    needed = max(MIN_EXACT, math.ceil(EXACT * sum(digits)))
    found = [
        edges(text.words, run)
        for run, read in text.number_runs
        if LENGTH[0] * len(want) <= len(read) <= LENGTH[1] * len(want)
        and _edges_read(want, read)
        and _shared(digits, _digit_counts(read)) >= needed
        and _is_value(needed, align(want, read))
    ]
    runs = [set(run) for run, _, _ in found]
    return [f for f, run in zip(found, runs, strict=True) if not any(other < run for other in runs)]  # the least words
