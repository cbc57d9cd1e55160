"""Values a paragraph breaks over two lines: a name ("... kindly Caitlin" / "Clayton supplies
..."), a phone number ("(497)" / "991-9391 ..."), a phone's extension ("... 636-629-8479" / "ext.
120 ..."). Each is one value whose box encloses both lines (spec/annotation.md).

A line of running text continues on the line below it when that line starts at the same left
margin, or a field's value on a short line of its own under the value's last word, and nothing
else is printed to the right of the first one. The value is read across the
break from the last few words of the one and the first few of the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import accumulate

import phonenumbers

from redact_agent.local.layout import Segment, below, right_of
from redact_agent.local.names import is_person_name
from redact_agent.local.patterns import PHONE_SHAPE
from redact_agent.local.spans import PageText, Recogniser, Span
from redact_agent.local.vocabulary import field_share
from redact_agent.tools.ocr import Word

WHOLE_SCORE = 0.85  # a value's line of its own completes the name its label's value opens (scored 0.8)
_TAIL = 3  # words of the upper line, and of the lower one, a value may take across the break
_PUNCT = ".,;:()"


def _continued(segs: list[Segment], words: list[Word]) -> Iterator[tuple[Segment, Segment, bool]]:
    """Each line of running text and the line it runs on to: one that starts at its left
    margin, or a field's value that goes on under its last word in a short line of its own
    ("Attn: Mary" over "Johnson"), with whether it is such a line (the value takes all of it)."""
    for seg in segs:
        if len(seg.words) < 2 or right_of(seg, segs) is not None:
            continue
        nxt = below(seg, segs, max_lines=1.0)
        if nxt is None:
            continue
        at_margin = abs(nxt.box[0] - seg.box[0]) < seg.height
        under_last = len(nxt.words) <= 2 and abs(nxt.box[0] - words[seg.words[-1]].bbox[0]) < seg.height
        if at_margin or under_last:
            yield seg, nxt, not at_margin


def _names(upper: Segment, lower: Segment, words: list[Word], whole: bool) -> list[Span]:
    """A first name ending the upper line and a surname (with its initial) opening the lower, or
    making all of it (`whole`)."""
    first = words[upper.words[-1]].text
    if not first[:1].isupper() or not first.isalpha() or field_share(first) > 0:
        return []
    for size in (2, 1):
        rest = [words[i].text for i in lower.words[:size]]
        if len(rest) < size or (whole and size != len(lower.words)):
            continue
        last = rest[-1]
        right = len(last) - len(last.rstrip(_PUNCT))  # "Clayton," ends at the name
        surname = last.rstrip(_PUNCT)
        if field_share(surname) == 0 and is_person_name(" ".join([first, *rest]).rstrip(_PUNCT)):
            score = WHOLE_SCORE if whole else 0.5
            return [Span("PERSON_NAME", (upper.words[-1], *lower.words[:size]), score, "wrapped-name", 0, right)]
    return []


def _phones(upper: Segment, lower: Segment, words: list[Word]) -> list[Span]:
    """A phone number (with its extension) that the break cuts: read across it, it is one."""
    pieces = [*upper.words[-_TAIL:], *lower.words[:_TAIL]]
    texts = [words[i].text for i in pieces]
    starts = list(accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
    split = starts[min(_TAIL, len(upper.words))]  # where the lower line's words start
    out = []
    for m in phonenumbers.PhoneNumberMatcher(" ".join(texts), "US", leniency=phonenumbers.Leniency.POSSIBLE):
        taken = [k for k, start in enumerate(starts) if start < m.end and m.start < start + len(texts[k])]
        if m.start < split < m.end and PHONE_SHAPE.match(m.raw_string):
            left = m.start - starts[taken[0]]
            right = starts[taken[-1]] + len(texts[taken[-1]]) - m.end
            out.append(Span("PHONE_NUMBER", tuple(pieces[k] for k in taken), 0.9, "wrapped-phone", left, right))
    return out


def find(text: PageText) -> list[Span]:
    out: list[Span] = []
    for upper, lower, whole in _continued(text.segs, text.words):
        out += _names(upper, lower, text.words, whole) + _phones(upper, lower, text.words)
    return out


RECOGNISER = Recogniser("wraps", frozenset({"PERSON_NAME", "PHONE_NUMBER"}), find)
