"""What recognisers read and what they propose, and the one interface they all answer.

A `Recogniser` declares the schema types it proposes and finds `Span`s (a type over some OCR
words, with a score and its source) in a page's `PageText`: the OCR words and their segments,
computed once per page. The engine runs a list of them, as Presidio's analyzer runs its
recognizers: adding one is one module and one line in that list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from rapidfuzz.distance import Levenshtein

from redact_agent.linking import OCR_DIGITS, alnum, code_form, normal_form
from redact_agent.local.layout import GAP_FACTOR, Segment, right_of, segments
from redact_agent.tools.ocr import Word

EDGE = ".,:;#()[]|"  # punctuation at a word's edge that is no part of a value printed in it
_QUOTES = str.maketrans("", "", "'\u2019`")


def fold(word: str) -> str:
    """A word as values are searched for: casefolded, edge punctuation ignored, and quotes, which
    the OCR reads into a word where a stroke's tip stands apart ("W'alker" for "Walker")."""
    return word.strip(EDGE).casefold().translate(_QUOTES)


# a phone's pieces as printed: with the ':' OCR reads for ')', the marks it reads for a damaged
# digit ("7.'4"), and the lowercase word it glues to the last ("1732·eview")
_PHONE_CHARS = re.compile(r"^[\d()+\-./:'’·,]+(?:[^\w\s]?[a-z]{3,})?$")
MISREAD = 8  # a value this long is searched for with one character misread, lost or added too
_GLUE = re.compile(r"(?<=[a-z0-9])[.:;=](?=[a-z0-9])")  # punctuation a label is glued to its value by
GLUED_WORD = r"[a-z]{2,}\b"  # a lowercase word the OCR glued to a number or code before it, the space lost
# a lowercase word glued to a number's end, or a capitalised one glued to it, whatever follows ("C123663September08,")
_GLUED_WORD = re.compile(rf"(?<=\d)(?:{GLUED_WORD}$|[A-Z][a-z]{{2,}})")
# a capital right after a lowercase letter, or after one and a dot ("Mr.Mccall"): two words the OCR glued
_CAMEL = re.compile(r"(?:(?<=[a-z])|(?<=[a-z]\.))[A-Z]")


@dataclass(frozen=True)
class Span:
    type: str
    words: tuple[int, ...]  # indices into the page's words; several lines for a block
    score: float  # 0..1; overlapping spans are resolved by score, then length
    source: str  # which recogniser found it
    cut_left: int = 0  # characters of the first word that are not part of the value ("(" in "(1234)")
    cut_right: int = 0  # characters of the last word that are not part of the value
    reason: str = ""  # why, in words, where the source alone does not say it ("the value of 'Agy Code'")
    hidden: int = 0  # characters of the value after its last word that a stamp's letters hide
    hidden_before: int = 0  # characters of the value before its first word that a stamp's letters hide
    of: str = ""  # the value found elsewhere that a repeat the OCR misread prints (`reading`)


@dataclass(frozen=True)
class PageText:
    words: list[Word]
    segs: list[Segment]

    @classmethod
    def of(cls, words: list[Word]) -> PageText:
        return cls(words, segments(words))

    @cached_property
    def tails(self) -> dict[int, list[tuple[str, int]]]:
        """The words the OCR glued to a lowercase word before them ("orderCL-947007",
        "lodgingDOMINGUEZ,"): each such word's tails as values are searched for, with the
        characters before each."""
        out: dict[int, list[tuple[str, int]]] = {}
        for i, w in enumerate(self.words):
            for m in _CAMEL.finditer(w.text):
                out.setdefault(i, []).append((fold(w.text[m.start() :]), m.start()))
        return out

    @cached_property
    def folded(self) -> frozenset[str]:
        """The words as values are searched for (`fold`), and the words glued to them (`tails`)."""
        return frozenset(fold(w.text) for w in self.words) | {
            tail for tails in self.tails.values() for tail, _ in tails
        }

    @cached_property
    def phone_runs(self) -> dict[str, list[tuple[int, ...]]]:
        """Runs of up to four words of a segment that could print a phone number, by their digits."""
        return self._runs(4, lambda texts: phone_digits("".join(texts)), lambda t: bool(_PHONE_CHARS.match(t)))

    @cached_property
    def number_runs(self) -> list[tuple[tuple[int, ...], str]]:
        """Runs of up to three words of a segment, each with a digit, with their text casefolded,
        without spaces and edge punctuation (where a number the OCR garbled is searched for,
        `garbled`)."""
        return [
            (run, "".join(self.words[i].text for i in run).casefold().strip(EDGE))
            for run in self._each_run(3, lambda t: any(c.isdigit() for c in t))
        ]

    @cached_property
    def letter_runs(self) -> dict[str, list[tuple[int, ...]]]:
        """Runs of up to four words of a segment by their letters alone, casefolded: a name as the
        OCR glued or split its words ("JenniferQ. Jackson", "Jen nifer Jackson")."""
        return self._runs(4, lambda texts: letters("".join(texts)), lambda t: True)

    @cached_property
    def tail_letters(self) -> dict[str, list[tuple[tuple[int, ...], int]]]:
        """Runs of up to four words of a segment that open with a word's tail (`tails`), by the
        letters of the tail and the words after it, with the characters of the first word before
        the tail: a name the OCR glued to the word before it ("followingWILKERSON,DANIELLE")."""
        out: dict[str, list[tuple[tuple[int, ...], int]]] = {}
        for run in self._each_run(4, lambda t: True):
            for tail, cut in self.tails.get(run[0], []):
                out.setdefault(letters(tail + "".join(self.words[i].text for i in run[1:])), []).append((run, cut))
        return out

    @cached_property
    def code_runs(self) -> dict[str, list[tuple[int, ...]]]:
        """Runs of up to three words of a segment by their form as an identifier (`code_form`): a
        code the OCR split twice ("REF-202 4205 60")."""
        return self._runs(3, lambda texts: code_form(" ".join(texts)), lambda t: True)

    @cached_property
    def alnum_runs(self) -> dict[str, list[tuple[int, ...]]]:
        """Runs of one or two words of a segment by their letters and digits (`linking.alnum`): a
        code as printed, its letters not read as the digits they look like."""
        return self._runs(2, lambda texts: alnum(" ".join(texts)), lambda t: True)

    @cached_property
    def alnum_variants(self) -> dict[str, list[str]]:
        """`alnum_runs`' keys by each of their forms with at most one character deleted (`one_edit`)."""
        return _variants(self.alnum_runs)

    @cached_property
    def letter_variants(self) -> dict[str, list[str]]:
        """`letter_runs`' keys by each of their forms with at most one character deleted (`one_edit`)."""
        return _variants(self.letter_runs)

    def one_edit(self, form: Literal["letters", "alnum"], want: str) -> list[tuple[str, tuple[int, ...]]]:
        """The runs of `letter_runs` or `alnum_runs` whose key is one edit from `want`, a key of
        `MISREAD` characters or more: a character misread, lost or added ("Camnpbell" for
        "Campbell"); each with its key. The key's deletions index the runs (`letter_variants`,
        `alnum_variants`), so that a page is not compared key by key. A run whose first or last
        word holds under two of its characters is none: a word of one at an end is the edit
        itself, the next word ("INV-69600 1")."""
        if len(want) < MISREAD:
            return []
        runs, variants, key = (
            (self.letter_runs, self.letter_variants, letters)
            if form == "letters"
            else (self.alnum_runs, self.alnum_variants, alnum)
        )
        found = {k for v in {want, *(want[:i] + want[i + 1 :] for i in range(len(want)))} for k in variants.get(v, [])}
        return [
            (k, run)
            for k in sorted(found)
            if k != want and Levenshtein.distance(k, want) == 1
            for run in runs[k]
            if all(len(key(self.words[i].text)) >= 2 for i in (run[0], run[-1]))
        ]

    @cached_property
    def glued(self) -> dict[str, list[tuple[int, int, int]]]:
        """The pieces of words that glue a value to a label by punctuation ("Statement.ST-3584773",
        "No:4471"), or a code to the word after it ("CT-1774085claim", "C123663September08,": the OCR
        lost the space), by their code form (`linking.code_form`): each piece's word and the characters
        before and after it."""
        out: dict[str, list[tuple[int, int, int]]] = {}
        for i, w in enumerate(self.words):
            text = w.text.casefold()
            for m in _GLUE.finditer(text):
                out.setdefault(code_form(text[m.end() :]), []).append((i, m.end(), 0))
                out.setdefault(code_form(text[: m.start()]), []).append((i, 0, len(text) - m.start()))
            if tail := _GLUED_WORD.search(w.text):
                out.setdefault(code_form(w.text[: tail.start()]), []).append((i, 0, len(w.text) - tail.start()))
        return out

    def _runs(
        self, longest: int, key: Callable[[list[str]], str], fits: Callable[[str], bool]
    ) -> dict[str, list[tuple[int, ...]]]:
        """Runs of up to `longest` words by their `key`, those whose first or last word adds
        nothing to it left out: the run without them is there ("1 Buchanan, Rose", a quantity before
        a name; "# #46420", the label's "#" before a code's own)."""
        out: dict[str, list[tuple[int, ...]]] = {}
        for run in self._each_run(longest, fits):
            texts = [self.words[i].text for i in run]
            if len(run) == 1 or (key(texts[:1]) and key(texts[-1:])):
                out.setdefault(key(texts), []).append(run)
        return out

    @cached_property
    def rows(self) -> list[tuple[tuple[int, ...], int]]:
        """Where runs of words are searched for: each segment's words, run on into the segment a
        word gap to its right on its row that the OCR's detector read as another line ("JoNES,"
        then "SETH", 8 px on), with how many of them are the segment's own (a run opens there)."""
        out = []
        for seg in self.segs:
            on = right_of(seg, self.segs, max_gap=GAP_FACTOR * seg.height)
            out.append((seg.words + (on.words if on is not None else ()), len(seg.words)))
        return out

    def _each_run(self, longest: int, fits: Callable[[str], bool]) -> Iterator[tuple[int, ...]]:
        """The runs of up to `longest` words in a row (`rows`), each word of which `fits`."""
        for words, own in self.rows:
            for k in range(own):
                for n in range(1, longest + 1):
                    run = words[k : k + n]
                    if len(run) < n or not fits(self.words[run[-1]].text):
                        break
                    yield run


def _variants(runs: dict[str, list[tuple[int, ...]]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key in runs:
        if len(key) >= MISREAD - 1:
            for variant in {key, *(key[:i] + key[i + 1 :] for i in range(len(key)))}:
                out.setdefault(variant, []).append(key)
    return out


def next_label(text: str, after: int) -> int:
    """Where the next label its colon ends ("Role:", "VIN:") starts in `text`, of the words that
    start after `after`, or the text's end: where a field's value read on one line with the next
    field ends."""
    return next(
        (m.start() for m in re.finditer(r"\S+", text) if m.start() > after and m.group().endswith(":")), len(text)
    )


# a digit the OCR reads for a letter, as that letter: `linking.OCR_DIGITS` the other way ("BR00KS")
_DIGIT_AS_LETTER = str.maketrans({digit: letter for letter, digit in reversed(OCR_DIGITS.items())})


def letters(text: str) -> str:
    """A text's letters alone, casefolded, with a digit the OCR reads for a letter as that letter
    (`_DIGIT_AS_LETTER`: "BR00KS, BR00KE", a monospace O read as a zero, is "brooksbrooke")."""
    return re.sub(r"[^a-z]", "", text.casefold().translate(_DIGIT_AS_LETTER))


def as_initial(word: str) -> str:
    """A word that is an initial with a digit the OCR reads for its letter, as that letter ("0."
    for "O."); any other word as it is."""
    return word.translate(_DIGIT_AS_LETTER).upper() if re.fullmatch(r"\d\.", word) else word


def phone_digits(text: str) -> str:
    """A phone number's digits, without the US country code."""
    digits = re.sub(r"\D", "", text)
    return digits[1:] if len(digits) == 11 and digits[0] == "1" else digits


def _text_of(words: list[Word], span: Span, i: int) -> str:
    text = words[i].text
    if i == span.words[-1] and span.cut_right:
        text = text[: len(text) - span.cut_right]
    if i == span.words[0] and span.cut_left:
        text = text[span.cut_left :]
    return text


def value_of(span: Span, words: list[Word]) -> str:
    """The text a span takes of its words, line by line (a block's lines joined by newlines)."""
    lines: dict[int, list[int]] = {}
    for i in span.words:
        lines.setdefault(words[i].line, []).append(i)
    ordered = sorted(lines.values(), key=lambda ix: min(words[i].bbox[1] for i in ix))
    return "\n".join(
        " ".join(_text_of(words, span, i) for i in sorted(ix, key=lambda i: words[i].bbox[0])) for ix in ordered
    )


def reading(span: Span, words: list[Word]) -> str:
    """The value a span stands for: the text it takes of its words (`value_of`), or, for a repeat
    whose text has another normal form than the value it prints again (`Span.of`: a code the OCR
    garbled, "CASE-2u15.88261", or read in part, a surname misread, "jarobs"), that value, so that
    it is linked to that value's entity."""
    text = value_of(span, words)
    return span.of if span.of and normal_form(span.type, text) != normal_form(span.type, span.of) else text


@dataclass(frozen=True)
class Recogniser:
    name: str
    types: frozenset[str]  # every type its spans may carry
    find: Callable[[PageText], list[Span]]


def edges(words: list[Word], run: tuple[int, ...], edge: str = EDGE) -> tuple[tuple[int, ...], int, int]:
    """A run of words less a word at either end that is edge punctuation alone (the "#" before a
    code: its box would be the value's), with the characters of its first and last word that are
    edge punctuation."""
    while len(run) > 1 and not words[run[0]].text.strip(edge):
        run = run[1:]
    while len(run) > 1 and not words[run[-1]].text.strip(edge):
        run = run[:-1]
    first, last = words[run[0]].text, words[run[-1]].text
    return run, len(first) - len(first.lstrip(edge)), len(last) - len(last.rstrip(edge))
