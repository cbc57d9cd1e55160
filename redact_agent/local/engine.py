"""The local engine: OCR words -> recognised spans -> typed, ink-tight pixel boxes.

`single` mode reads the page once. `tools` mode uses the crop/zoom/OCR tools as an agent
would: words the OCR read with low confidence, or in small print, are read again from a 2.5x
zoom of their line. In both, every other place a found value is printed is marked too
(`repeats`). Spans that overlap are resolved by score, then by length; the policy then decides
what is redacted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from redact_agent.boxes import Box, union_box
from redact_agent.linking import CODE_TYPES
from redact_agent.local import (
    entities,
    handles,
    labels,
    organizations,
    patterns,
    places,
    signatures,
    stations,
    wraps,
)
from redact_agent.local.alike import alike
from redact_agent.local.ink import GROW, grey, halfway, marked, tighten, tighten_chars
from redact_agent.local.orientation import turned_back_all
from redact_agent.local.repeats import printed, repeats, spans_of
from redact_agent.local.spans import PageText, Recogniser, Span, reading
from redact_agent.local.unread import read, split
from redact_agent.pages import Finding, Prediction, PredictionPage
from redact_agent.policy import Policy, load_policy
from redact_agent.protocol import PROTOCOL, Mode
from redact_agent.tools.ocr import Word, get_engine
from redact_agent.tools.regions import ocr_words

LOW_CONFIDENCE = 0.6
SMALL_TEXT_PX = 11


RECOGNISERS: tuple[Recogniser, ...] = (
    patterns.RECOGNISER,
    labels.RECOGNISER,
    entities.RECOGNISER,
    organizations.RECOGNISER,
    stations.RECOGNISER,
    places.RECOGNISER,
    wraps.RECOGNISER,
    handles.RECOGNISER,
)


@dataclass(frozen=True)
class Found:
    text: PageText
    spans: list[Span]  # resolved, before the policy

    @property
    def words(self) -> list[Word]:
        return self.text.words


def recognise(text: PageText) -> list[Span]:
    return [span for recogniser in RECOGNISERS for span in recogniser.find(text)]


def _chars(span: Span, words: list[Word]) -> dict[int, tuple[int, int]]:
    """The characters a span takes of each of its words, as [start, end)."""
    out = {}
    for i in span.words:
        n = len(words[i].text)
        start = span.cut_left if i == span.words[0] else 0
        end = n - span.cut_right if i == span.words[-1] else n
        out[i] = (start, end)
    return out


def resolve(spans: list[Span], words: list[Word]) -> list[Span]:
    """Keep the best spans: by score, then by length; a span that shares characters with a
    better one is dropped whole (two dates in one token "02/01/20-02/12/20" both stay)."""
    taken: dict[int, list[tuple[int, int]]] = {}
    out = []
    for s in sorted(spans, key=lambda s: (-s.score, -len(s.words), s.words)):
        chars = _chars(s, words)
        if any(a < d and c < b for i, (a, b) in chars.items() for c, d in taken.get(i, [])):
            continue
        out.append(s)
        for i, r in chars.items():
            taken.setdefault(i, []).append(r)
    return sorted(out, key=lambda s: (s.words, s.cut_left))


def _stamps(words: list[Word]) -> set[int]:
    """The indices of `words` that are a stamp's letters read as a word (`unread.split`)."""
    tall = {id(w) for w in split(words)[1]}
    return {i for i, w in enumerate(words) if id(w) in tall}


def _prediction(page_grey: np.ndarray, words: list[Word], stamps: set[int], span: Span, value: str) -> Prediction:
    """A span as a prediction: its words' ink, its score, and why (its cue, else its recogniser).
    A stamp's letters read as a word among a span's several (`stamps`, `_stamps`: "65" for the
    "A" of "APPROVED" over an address's lines) add no ink to it: its crop holds the stamp's frame
    and the lines above and below (IoU 0.99 -> 0.67)."""
    inked = [i for i in span.words if len(span.words) == 1 or i not in stamps] or list(span.words)
    box = union_box([_ink_box(page_grey, words, span, i) for i in inked])
    reason = span.reason or span.source
    return Prediction(type=span.type, bbox=box, value=value, confidence=round(span.score, 3), reason=reason)


def _trimmed(words: list[Word], span: Span, i: int) -> tuple[float, float, float, float]:
    """A word's box less the characters the span cuts off, in proportion to its width."""
    w = words[i]
    x0, y0, x1, y1 = w.bbox
    n = max(1, len(w.text))
    per_char = (x1 - x0) / n
    if i == span.words[0] and span.cut_left:
        x0 += per_char * span.cut_left
    if i == span.words[-1] and span.cut_right:
        x1 -= per_char * span.cut_right
    return (x0, y0, x1, y1) if x1 > x0 else w.bbox


def _clear(page_grey: np.ndarray, words: list[Word], i: int, box: Box) -> Box:
    """Word i's box short of a word beside it on its line whose box overlaps it and whose print
    reaches as far as `tighten` looks past the box (`ink.GROW`), where the page is blank between
    the two: to the middle of that gap ("Hall unit", "Hall" boxed over the "u")."""
    x0, y0, x1, y1 = box
    top, bottom = int(y0), int(y1)
    word = page_grey[top:bottom, int(x0) : int(x1)]
    if not word.size:
        return box
    paper = halfway(word)

    def blank(x: int) -> bool:
        return not 0 <= x < page_grey.shape[1] or bool(page_grey[top:bottom, x].min() > paper)

    def gap(x: int, step: int) -> int:
        """The blank columns from x on, by `step`, inside the box."""
        n = 0
        while int(x0) < x + n * step < int(x1) and blank(x + n * step):
            n += 1
        return n

    line = words[i].line
    after = words[i + 1] if i + 1 < len(words) and words[i + 1].line == line else None
    before = words[i - 1] if i > 0 and words[i - 1].line == line else None
    if after and x0 < after.bbox[0] < x1:
        a = int(after.bbox[0])
        if (n := gap(a - 1, -1)) and not all(map(blank, range(a, int(x1) + GROW))):
            x1 = after.bbox[0] - n / 2
    if before and x0 < before.bbox[2] < x1:
        b = int(before.bbox[2])
        if (n := gap(b, 1)) and not all(map(blank, range(int(x0) - GROW, b))):
            x0 = before.bbox[2] + n / 2
    return x0, y0, x1, y1


def _ink_box(page_grey: np.ndarray, words: list[Word], span: Span, i: int) -> tuple[float, float, float, float]:
    """The ink of the characters a span takes of word i: glyph by glyph where the span cuts the
    word and its glyphs stand apart, else the ink inside the word's box cut in proportion and
    short of a word beside it that the box overlaps (`_clear`); for the first or last word of a
    value that a stamp hides a part of, on over as many more characters."""
    text = words[i].text  # a dot or accent over it is its ink, and no speck over one without (`ink.marked`)
    n = len(text)
    first, last = _chars(span, words)[i]
    if (first, last) != (0, n) and (box := tighten_chars(page_grey, words[i].bbox, n, first, last, marked(text))):
        x0, y0, x1, y1 = box
    else:
        x0, y0, x1, y1 = tighten(
            page_grey, _clear(page_grey, words, i, _trimmed(words, span, i)), marked(text[first:last])
        )
    char = (x1 - x0) / max(1, last - first)
    if i == span.words[0] and span.hidden_before:
        x0 -= char * span.hidden_before
    if i == span.words[-1] and span.hidden:
        x1 += char * span.hidden
    return x0, y0, x1, y1


def find_spans(text: PageText, policy: Policy) -> list[Span]:
    """The recognisers' spans, every other place their values are printed, and the policy's deny
    terms, resolved."""
    spans = recognise(text)
    again = repeats(resolve(spans, text.words), text)
    return resolve(_outread(spans, again) + _deny(policy, text), text.words)


def _outread(spans: list[Span], again: list[Span]) -> list[Span]:
    """The recognisers' spans and their repeats, less those whose words a repeat of their type, or
    of another code type, holds and more: the value read further ("REF-202", a code by its prefix,
    of "REF-202 4205 60", found printed whole elsewhere on the page), which would outscore the
    repeat. That repeat takes the type of the surest span it reads further where that is surer
    than itself: its cue named the value ("#3403", the value of 'Invoice No.', of "#3403 519",
    found further down as "#3403519", a code by its shape)."""

    def further(longer: Span, s: Span) -> bool:
        alike = longer.type == s.type or {longer.type, s.type} <= CODE_TYPES
        return alike and set(s.words) < set(longer.words)

    out = []
    for s in spans + again:
        if any(further(r, s) for r in again):
            continue
        surest = max((t for t in spans + again if further(s, t)), key=lambda t: t.score, default=None)
        if surest is not None and surest.score > s.score:
            s = replace(s, type=surest.type, reason=f"{s.reason}; its type as {surest.reason or surest.source}")
        out.append(s)
    return out


class LocalEngine:
    def __init__(self, mode: Mode = "single", policy: Policy | None = None, ocr: str = PROTOCOL.ocr):
        self.mode = mode
        self.policy = policy or load_policy("default")
        self.ocr = get_engine(ocr)

    def __reduce__(self) -> tuple[type[LocalEngine], tuple[Mode, Policy, str]]:
        """Pickled as its settings: a worker process builds its own, loading the models once."""
        return LocalEngine, (self.mode, self.policy, self.ocr.name)

    @property
    def name(self) -> str:
        return f"local:{self.mode}:{self.ocr.name}"

    def find(self, page: Image.Image, words: list[Word]) -> Found:
        """The spans on a page, from the OCR words read on it."""
        if self.mode == "tools":
            words = self._reread(page, words)
        text = PageText.of(words)
        return Found(text, find_spans(text, self.policy))

    def find_page(self, page_id: str, image: Image.Image) -> Finding:
        """The main job's interface: a prediction page, and no transcript (no model is asked)."""
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=self.predict(image)))

    def close(self) -> None:
        """Nothing to release: the OCR engines are shared for the life of the process."""

    def predict(self, page: Image.Image) -> list[Prediction]:
        """The page's predictions; a sideways or upside-down page's are found on it turned upright."""
        turned = read(page, self.ocr)
        found = self.find(turned.page, turned.words)
        return turned_back_all(self.to_predictions(turned.page, found), turned.turn, page.size)

    def to_predictions(self, page: Image.Image, found: Found) -> list[Prediction]:
        page_grey = grey(np.asarray(page))
        stamps = _stamps(found.words)
        out = []
        for s in found.spans:
            value = reading(s, found.words)
            denied = s.source == "deny"  # a deny term is redacted whatever its type's policy
            if not denied and (not self.policy.redacts(s.type) or self.policy.allows(value)):
                continue
            out.append(_prediction(page_grey, found.words, stamps, s, value))
        out = alike(page_grey, out, found.words)
        if self.policy.redacts("SIGNATURE"):
            for box in signatures.find(page_grey, found.text.segs, found.words):
                out.append(Prediction(type="SIGNATURE", bbox=box, confidence=0.5, reason="signature-ink"))
        return out

    def _reread(self, page: Image.Image, words: list[Word]) -> list[Word]:
        """Re-OCR, at 2.5x, the lines holding low-confidence or small words."""
        weak_lines = {w.line for w in words if w.confidence < LOW_CONFIDENCE or w.bbox[3] - w.bbox[1] < SMALL_TEXT_PX}
        if not weak_lines:
            return words
        kept = [w for w in words if w.line not in weak_lines]
        next_line = max(w.line for w in words) + 1
        for line in sorted(weak_lines):
            ws = [w for w in words if w.line == line]
            box = (
                min(w.bbox[0] for w in ws) - 4,
                min(w.bbox[1] for w in ws) - 4,
                max(w.bbox[2] for w in ws) + 4,
                max(w.bbox[3] for w in ws) + 4,
            )
            again = ocr_words(page, self.ocr, box, scale=2.5)
            if not again:
                kept += ws
                continue
            for w in again:
                kept.append(Word(w.text, w.bbox, w.confidence, next_line + w.line, w.block))
            next_line += max(w.line for w in again) + 1
        return kept


DOCUMENT_SCORE = 0.5  # a value found on another page, printed here: above a guess by shape alone


def _document_score(found: Prediction) -> float:
    """A repeat is as sure as the mention it repeats, up to `DOCUMENT_SCORE`: a code another page
    typed by its label types it here, not one another page only guessed by its shape."""
    return min(DOCUMENT_SCORE, found.confidence if found.confidence is not None else DOCUMENT_SCORE)


def printed_again(
    page: Image.Image, words: list[Word], turn: Image.Transpose | None, found: Sequence[Prediction]
) -> list[Prediction]:
    """Where values found on other pages of a document (`found`) are printed on this page, in
    any of their forms, with ink-tight boxes: the document-wide half of marking repeats. `words`
    are read on the page turned upright by `turn` (`orientation.upright`)."""
    size = page.size
    page = page if turn is None else page.transpose(turn)
    text = PageText.of(words)
    spans = [
        span
        for p in found
        if p.value and p.type != "DATE"
        for span in spans_of(
            text, p.type, p.value, _document_score(p), "document", f"found on another page as {p.value!r}"
        )
    ]
    page_grey = grey(np.asarray(page.convert("RGB")))
    stamps = _stamps(words)
    return turned_back_all(
        [_prediction(page_grey, words, stamps, s, reading(s, words)) for s in resolve(spans, words)], turn, size
    )


def _deny(policy: Policy, text: PageText) -> list[Span]:
    """Every printed occurrence of a deny term (case and edge punctuation ignored)."""
    return [
        Span(type_, ws, 1.0, "deny", left, right)
        for term, type_ in policy.deny
        for ws, left, right in printed(text, term.split())
    ]
