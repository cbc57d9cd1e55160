"""Page text from OCR words: segments (runs of words on one line), with label/value geometry.

Tesseract's text lines run across form columns, so a line is cut into *segments* wherever the
gap between two words exceeds 1.5 line heights: "Order / Rev:" and "14086" become two segments,
the label and its value. Recognisers read segment text; `char span -> words` maps a regex match
back to the OCR words whose boxes make the prediction (`Segment.cuts`).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace
from functools import cached_property

from redact_agent.boxes import union_box
from redact_agent.tools.ocr import Word

GAP_FACTOR = 1.5
PADDING = 0.25  # of a line's height: what two OCR boxes may overlap by with nothing printed in common


@dataclass(frozen=True)
class Segment:
    index: int
    words: tuple[int, ...]  # indices into the page's word list, left to right
    text: str  # the words joined by single spaces
    starts: tuple[int, ...]  # char offset of each word in `text`
    ends: tuple[int, ...]
    boxes: tuple[tuple[float, float, float, float], ...]  # each word's box
    line: int

    @cached_property
    def box(self) -> tuple[float, float, float, float]:
        return union_box(self.boxes)

    @cached_property
    def height(self) -> float:
        """Its words' median height: the height of its line of print, which its box exceeds where
        the line is skewed (a paragraph's line 1900 px long, 3 degrees off, has a box 3 lines tall)."""
        return statistics.median(b[3] - b[1] for b in self.boxes)

    def top_over(self, x0: float, x1: float, pad: float) -> float | None:
        """The top of the words that overlap x0..x1 by more than `pad`: where the segment starts
        below that span, which its box's top is not on a skewed line; None where no word does."""
        tops = [b[1] for b in self.boxes if min(b[2], x1) - max(b[0], x0) > pad]
        return min(tops, default=None)

    def cuts(self, start: int, end: int) -> tuple[tuple[int, ...], int, int]:
        """Words overlapping text[start:end], and how many characters of the first and last
        word fall outside it."""
        hit = [(w, s, e) for w, s, e in zip(self.words, self.starts, self.ends, strict=True) if s < end and start < e]
        if not hit:
            return (), 0, 0
        return tuple(w for w, _, _ in hit), max(0, start - hit[0][1]), max(0, hit[-1][2] - end)


def segments(words: list[Word]) -> list[Segment]:
    by_line: dict[int, list[int]] = {}
    for i, w in enumerate(words):
        by_line.setdefault(w.line, []).append(i)
    out: list[Segment] = []
    for line, idx in sorted(by_line.items(), key=lambda kv: min(words[i].bbox[1] for i in kv[1])):
        idx.sort(key=lambda i: words[i].bbox[0])
        height = statistics.median(words[i].bbox[3] - words[i].bbox[1] for i in idx)
        run = [idx[0]]
        for i in idx[1:]:
            if words[i].bbox[0] - words[run[-1]].bbox[2] > GAP_FACTOR * height:
                out.append(_segment(len(out), run, words, line))
                run = []
            run.append(i)
        out.append(_segment(len(out), run, words, line))
    return out


def _segment(index: int, run: list[int], words: list[Word], line: int) -> Segment:
    starts, ends, pos = [], [], 0
    for i in run:
        starts.append(pos)
        ends.append(pos + len(words[i].text))
        pos = ends[-1] + 1
    text = " ".join(words[i].text for i in run)
    return Segment(index, tuple(run), text, tuple(starts), tuple(ends), tuple(words[i].bbox for i in run), line)


def part(seg: Segment, run: tuple[int, ...], words: list[Word], cut_left: int = 0) -> Segment:
    """The segment made of some of `seg`'s words (its geometry then ignores the rest), the box of
    the first narrowed by its first `cut_left` characters' share of it (a label the OCR glued to
    the value: "Address:7092 Scott Valleys" starts where "7092" does)."""
    made = _segment(seg.index, list(run), words, seg.line)
    if not cut_left or not run:
        return made
    x0, y0, x1, y1 = made.boxes[0]
    first = (x0 + (x1 - x0) * cut_left / max(1, len(words[run[0]].text)), y0, x1, y1)
    return replace(made, boxes=(first, *made.boxes[1:]))


def right_of(seg: Segment, segs: list[Segment], max_gap: float = 500) -> Segment | None:
    """The nearest segment to the right on the same visual row."""
    cy = (seg.box[1] + seg.box[3]) / 2
    cands = [s for s in segs if s.box[0] >= seg.box[2] - 2 and s.box[1] < cy < s.box[3] and s.index != seg.index]
    cands = [s for s in cands if s.box[0] - seg.box[2] <= max_gap]
    return min(cands, key=lambda s: s.box[0], default=None)


def below(seg: Segment, segs: list[Segment], max_lines: float = 2.5) -> Segment | None:
    """The nearest segment below that overlaps `seg` horizontally, by more than the few pixels
    OCR boxes are padded with (a logo's letters that reach a pixel under an address are not);
    each is measured by its words under `seg` (`Segment.top_over`: a skewed paragraph's line
    climbs to the right, and its box's top is not where it passes under a label)."""
    # "Below" means starting under seg's middle: OCR line boxes (RapidOCR's especially) overlap.
    top, limit = seg.box[1] + 0.5 * seg.height, seg.box[3] + max_lines * max(seg.height, 8)
    pad = PADDING * seg.height
    tops = ((s, s.top_over(seg.box[0], seg.box[2], pad)) for s in segs if s.index != seg.index)
    cands = [(y, s) for s, y in tops if y is not None and top <= y <= limit]
    return min(cands, key=lambda c: (c[0], c[1].index))[1] if cands else None


def above(seg: Segment, segs: list[Segment], max_lines: float = 2.5) -> list[Segment]:
    """The segments whose nearest segment below (`below`) is `seg`: what it sits under (only the
    segments that start higher and overlap it horizontally can be)."""
    higher = (s for s in segs if s.box[1] <= seg.box[1] and s.box[0] < seg.box[2] and s.box[2] > seg.box[0])
    return [s for s in higher if below(s, segs, max_lines) == seg]


def left_of(seg: Segment, segs: list[Segment]) -> Segment | None:
    """The segment whose nearest segment to the right (`right_of`) is `seg` (only the segments
    ending left of it on its row can be)."""
    row = (s for s in segs if s.box[2] - 2 <= seg.box[0] and s.box[1] < seg.box[3] and s.box[3] > seg.box[1])
    return next((s for s in row if right_of(s, segs) == seg), None)
