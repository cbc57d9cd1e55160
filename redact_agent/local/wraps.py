"""Values a paragraph breaks over two lines: a name ("... kindly Caitlin" / "Clayton supplies
..."), a phone number ("(497)" / "991-9391 ..."), a phone's extension ("... 636-629-8479" / "ext.
120 ..."). Each is one value whose box encloses both lines (spec/annotation.md).

A line of running text continues on the line below it when that line starts at the same left
margin and nothing else is printed to the right of the first one (a field's value too, when its
cell wraps it there: "Buyer: Jennifer" over "Rodriguez"); a field's value goes on in a short line
of its own under one of its last words, whatever follows it on its row ("Prepared by: Robert J."
over "Smith"). The value is read across the break from the last few words of the one and the
first few of the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import accumulate

import phonenumbers

from redact_agent.local.layout import Segment, below, right_of
from redact_agent.local.names import is_common_first_name, is_common_surname, is_name_with_rare_surname, is_person_name
from redact_agent.local.patterns import PHONE_SHAPE
from redact_agent.local.spans import PageText, Recogniser, Span
from redact_agent.local.vocabulary import field_share
from redact_agent.tools.ocr import Word

WHOLE_SCORE = 0.85  # a value's line of its own completes the name its label's value opens (scored 0.8)
_TAIL = 3  # words of the upper line, and of the lower one, a value may take across the break
_PUNCT = ".,;:()"


def _tail(seg: Segment) -> range:
    """Where in a line a value that goes on under it may start: one of its last `_TAIL` words,
    not its first."""
    return range(max(1, len(seg.words) - _TAIL), len(seg.words))


def _continued(segs: list[Segment], words: list[Word]) -> Iterator[tuple[Segment, Segment, int | None]]:
    """Each line of running text and the line it runs on to: one that starts at its left
    margin, or a field's value that goes on under one of its last words in a short line of its
    own ("Attn: Mary" over "Johnson", "Buyer: Mary Ann" over "Kowalczyk"; another field may
    follow it on its row), with where in the upper line that value starts (it takes all of the
    lower line), None at the margin."""
    for seg in segs:
        if len(seg.words) < 2:
            continue
        nxt = below(seg, segs, max_lines=1.0)
        if nxt is None:
            continue
        if abs(nxt.box[0] - seg.box[0]) < seg.height:
            if right_of(seg, segs) is None:  # running text's line ends here, not at another column
                yield seg, nxt, None
            continue
        under = [k for k in _tail(seg) if abs(nxt.box[0] - words[seg.words[k]].bbox[0]) < seg.height]
        if len(nxt.words) <= 2 and under:
            yield seg, nxt, under[0]


def _names(upper: Segment, lower: Segment, words: list[Word], start: int | None) -> list[Span]:
    """A name the break cuts: the upper line's last word, or a label's value on it ("Buyer: Mary
    Ann"), or the value from `start` on, then a surname (with its initial) opening the lower line,
    or all of it when it is the value's own short line (`start`). A label's value outranks the
    value's first line alone. A value that is a whole name already does not go on, nor does running
    text onto a line that opens with one, in mixed case and before a word that is not capitalised:
    that is the name."""
    own_line = start is not None  # the value's own short line: a surname the census lacks will do
    if start is None:
        after_label = [k for k in _tail(upper) if words[upper.words[k - 1]].text.endswith(":")]
        final = len(upper.words) - 1
        initial = final > 1 and _INITIAL.fullmatch(words[upper.words[final]].text)  # "... David G." over "Day"
        start, ends = (after_label or [final - 1 if initial else final])[-1], [lower.words[:2], lower.words[:1]]
        labelled = bool(after_label)
    else:
        ends, labelled = [lower.words], True
    head = upper.words[start:]
    first = words[head[0]].text
    if not first[:1].isupper() or field_share(first) > 0:
        return []
    if len(head) > 1 and is_person_name(" ".join(words[i].text for i in head).rstrip(_PUNCT)):
        return []  # a whole name already ("From: Tricia Perry"): the next line is something else
    opening, then = lower.words[:2], words[lower.words[2]].text if len(lower.words) > 2 else ""
    name = " ".join(words[i].text for i in opening).rstrip(_PUNCT)
    if not own_line and not name.isupper() and not then[:1].isupper() and is_person_name(name):
        # the next line opens with a whole name in running text, which is the person ("North Eric",
        # a city, over "Morgan Grant days ..."; not capitals, "AMERICA FIRST ACTION", a committee):
        # the upper line's word is its own line's
        last = words[opening[-1]].text
        why = "a whole name opening a line under a first name"
        return [Span("PERSON_NAME", tuple(opening), 0.5, "wrapped-name", 0, len(last) - len(last.rstrip(_PUNCT)), why)]
    for end in ends:
        run = (*head, *end)
        last = words[run[-1]].text
        surname = last.rstrip(_PUNCT)  # "Clayton," ends at the name
        labels = any(words[i].text.endswith(":") for i in end)  # "Name: Charles" opens another field
        name = " ".join(words[i].text for i in run).rstrip(_PUNCT)
        person = is_person_name(name) or (own_line and is_name_with_rare_surname(name))
        if not labels and (field_share(surname) == 0 or _given(words, upper, lower, start, len(end))) and person:
            score = WHOLE_SCORE if labelled else 0.5
            return [Span("PERSON_NAME", run, score, "wrapped-name", 0, len(last) - len(surname))]
    return []


_INITIAL = re.compile(r"[A-Z]\.?")
_FIRST_NAME = re.compile(rf"[A-Z][a-z]+(?: {_INITIAL.pattern})?")  # a first name, with its middle initial or without


def _given(words: list[Word], upper: Segment, lower: Segment, start: int, taken: int) -> bool:
    """Whether a common surname that is also a form word ("Gross", "Day"), the last of the lower
    line's first `taken` words, goes on the name that opens at word `start` of the upper line:
    after a common first name, with its middle initial or without, and no other mark ("... 2021
    Ryan" over "Gross approved ...", "... you David G." over "Day order ..."); not the last of a
    firm's surnames over a label ("Johnson, Everett and Floyd" over "Bill to: Sandoval PLC")."""
    given = " ".join(words[i].text for i in upper.words[start:])
    surname = words[lower.words[taken - 1]].text
    firm = start > 0 and words[upper.words[start - 1]].text in ("and", "&")
    label = taken < len(lower.words) and words[lower.words[taken]].text.endswith(":")
    named = bool(_FIRST_NAME.fullmatch(given)) and is_common_first_name(given.split()[0])
    return named and is_common_surname(surname) and not firm and not label


def _phones(upper: Segment, lower: Segment, words: list[Word]) -> list[Span]:
    """A phone number (with its extension) that the break cuts: read across it, it is one. The
    lower line's words are taken one, two, then three: phonenumbers reads no number in "+1 561 344
    4508 2021-04-22", the date's digits run on from the phone's."""
    out: dict[tuple[tuple[int, ...], int, int], Span] = {}
    for size in range(1, _TAIL + 1):
        pieces = [*upper.words[-_TAIL:], *lower.words[:size]]
        texts = [words[i].text for i in pieces]
        starts = list(accumulate((len(t) + 1 for t in texts[:-1]), initial=0))
        split = starts[min(_TAIL, len(upper.words))]  # where the lower line's words start
        for m in phonenumbers.PhoneNumberMatcher(" ".join(texts), "US", leniency=phonenumbers.Leniency.POSSIBLE):
            taken = [k for k, start in enumerate(starts) if start < m.end and m.start < start + len(texts[k])]
            if m.start < split < m.end and PHONE_SHAPE.match(m.raw_string):
                left = m.start - starts[taken[0]]
                right = starts[taken[-1]] + len(texts[taken[-1]]) - m.end
                run = tuple(pieces[k] for k in taken)
                out[run, left, right] = Span("PHONE_NUMBER", run, 0.9, "wrapped-phone", left, right)
    return list(out.values())


def find(text: PageText) -> list[Span]:
    out: list[Span] = []
    for upper, lower, start in _continued(text.segs, text.words):
        out += _names(upper, lower, text.words, start) + _phones(upper, lower, text.words)
    return out


RECOGNISER = Recogniser("wraps", frozenset({"PERSON_NAME", "PHONE_NUMBER"}), find)
