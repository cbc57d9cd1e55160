"""Every other place a found value is printed, in any of its forms: marking repeats.

A value a recogniser found on a page is searched for again in the page's words (and, for a
document, on its other pages: `engine.printed_again`): in another case and with other edge
punctuation (`printed`), glued by the OCR to the word before or after it, a name in its other
forms ("LAST, FIRST", "F. Last") and its surname alone, a phone in another format, a code as the
OCR misread it or glued it to a label (`_printed_as`), a code or phone the OCR garbled
(`garbled`), and a code a stamp hides part of (`_hidden`). Each place found is a span of the
value's type (`spans_of`).
"""

from __future__ import annotations

import re
import string
from dataclasses import replace
from typing import Literal

from rapidfuzz.distance import Levenshtein

from redact_agent.linking import CODE_TYPES, alnum, code_form, is_title, normal_form, person
from redact_agent.local.garbled import garbled
from redact_agent.local.names import is_common_surname, is_first_name, is_rather_first_name, unsplit
from redact_agent.local.patterns import EXTENSION, EXTENSION_WORD
from redact_agent.local.spans import EDGE, PageText, Span, edges, fold, letters, phone_digits, value_of
from redact_agent.local.unread import split
from redact_agent.local.vocabulary import FIELD_WORDS
from redact_agent.tools.ocr import Word


def printed(text: PageText, tokens: list[str]) -> list[tuple[tuple[int, ...], int, int]]:
    """Every place `tokens` are printed in a row, as `fold` reads them, the first
    also where the OCR glued it to the word before (`PageText.tails`), the last where it glued a
    lowercase word to it (`_glued_after`): the words, and the characters of the first and last
    word that are not the value."""
    words = text.words
    want = [fold(t) for t in tokens]
    n = len(want)
    if not want or not (  # most values are not on a given page
        want[0] in text.folded
        or (n == 1 and len(want[0]) >= GLUED_AFTER and any(f.startswith(want[0]) for f in text.folded))
    ):
        return []
    out, edge = [], _value_edge(tokens[0])
    for row, own in text.rows:
        have = [fold(words[i].text) for i in row]
        for k in range(min(own, len(have) - n + 1)):
            if have[k + 1 : k + n - 1] != want[1:-1]:
                continue
            run, left, right = edges(words, row[k : k + n], edge)
            if n > 1 and have[k + n - 1] != want[-1]:
                if not (glued := _glued_after(words[run[-1]].text, want[-1], 0, least=2)):
                    continue
                right = glued
            if have[k] == want[0]:
                out.append((run, left, right))
            elif n == 1 and (glued := _glued_after(words[run[0]].text, want[0], left)):
                out.append((run, left, glued))
            for tail, cut in text.tails.get(run[0], []):
                if tail == want[0]:
                    out.append((run, cut, right))
                elif n == 1 and (glued := _glued_after(words[run[0]].text, want[0], cut)):
                    out.append((run, cut, glued))  # glued on both sides: "consultingCASE-2017-69923payment"
    return out


def _glued_after(word: str, value: str, start: int, least: int = 3) -> int:
    """The characters of `word` after a value's last word `value` (casefolded) that it
    opens at `start`, where they are a lowercase word of `least` letters or more that the OCR
    glued to it, the space between lost ("Walterssoftware"; two letters where the value's other
    words are printed before it: "STUART, AMANDAwe"); 0 where they are not. The value's word is of
    `GLUED_AFTER` characters or more, so that a short name in a longer word ("Hall" in "Hallway")
    is not taken for one."""
    rest = word[start + len(value) :].rstrip(EDGE)
    glued = len(value) >= GLUED_AFTER and word[start:].casefold().startswith(value)
    lowercase = len(rest) >= least and rest.isalpha() and rest.islower()
    return len(word) - start - len(value) if glued and lowercase else 0


def _value_edge(value: str) -> str:
    """The edge punctuation that is no part of a value printed again: a '#' is, where the value
    opens with it ("#37297")."""
    return EDGE.replace("#", "") if value.startswith("#") else EDGE


GLUED_AFTER = 5  # the fewest characters of a value's last word found with a lowercase word glued to it
MIN_CODE_KEY = 5  # a shorter code is too often some other number
MIN_NAME_LETTERS = 8  # a name searched for by its letters alone: a first name and a surname


def _printed_as(text: PageText, type_: str, value: str) -> list[tuple[tuple[int, ...], int, int]]:
    """Where a phone, a code or a name is printed in another format or as OCR misread it: a phone's
    digits over up to four words ("943-218-5379" for "(943) 218-5379"; "514.922.840", a digit
    lost; "+1 698 7.'4 1732", one read as marks), a code's form (`linking.code_form`: "0RD-4352595"
    for "ORD-4352595"), a code glued to a label by punctuation ("Statement.ST-3584773"), a name's
    letters, or those of its other whole forms, over up to four words ("JenniferQ. Jackson",
    "LONG, MEL ANIE"), the first one glued to the word before ("followingWILKERSON,DANIELLE", and
    so "F. Last": "officeJ.Weaver"); and
    a long name or code one character misread, lost or added
    (`PageText.one_edit`: "Camnpbell", "Es1-80002"), but for a code's digit read as another digit."""
    if type_ == "PHONE_NUMBER":
        e164 = normal_form(type_, value)  # an extension is no part of it
        want = phone_digits(e164)
        if len(want) < 10:
            return []
        lost = {want[:i] + want[i + 1 :] for i in range(len(want))}  # one digit lost, as "+1 ..." too
        keys = {want} | lost | ({"1" + k for k in lost} if e164.startswith("+1") else set())
        runs = [run for key in sorted(keys) for run in text.phone_runs.get(key, [])]
        return [_phone_edges(text.words, run) for run in runs]
    if type_ == "PERSON_NAME":
        flat = value.replace("\n", " ")
        forms = _name_forms(flat)
        whole = [form for form in forms if min(map(len, form)) > 1]  # "F. Last" is too short
        keys = {letters(flat)} | {letters("".join(form)) for form in whole}
        wanted = sorted(k for k in keys if len(k) >= MIN_NAME_LETTERS)
        runs = [
            run
            for want in wanted
            for run in text.letter_runs.get(want, []) + [run for _, run in text.one_edit("letters", want)]
        ]
        # glued to the word before, "F. Last" is not too short: the initial's capital opens the tail
        initialled = [letters("".join(form)) for form in forms if len(form[0]) == 1]
        glued_on = sorted(set(wanted + initialled))
        edged = [(edges(text.words, run), cut) for want in glued_on for run, cut in text.tail_letters.get(want, [])]
        glued = [(run, cut, right) for (run, _, right), cut in edged]
        return list(dict.fromkeys(edges(text.words, run) for run in runs)) + glued
    if type_ not in CODE_TYPES or len(want := code_form(value)) < MIN_CODE_KEY:
        return []
    chars = alnum(value)
    misread = [run for key, run in text.one_edit("alnum", chars) if _misread(chars, key)]
    codes = text.code_runs.get(want, []) + misread  # "0RD-4352595" is either
    out = list(dict.fromkeys(edges(text.words, run, _value_edge(value)) for run in codes))
    return out + [((i,), left, right) for i, left, right in text.glued.get(want, [])]


def _misread(value: str, read: str) -> bool:
    """Whether a code printed one edit from a value is that value misread, not another number of
    its series: the edit is no digit put for another."""
    (op,) = Levenshtein.editops(value, read)
    return not (op.tag == "replace" and value[op.src_pos].isdigit() and read[op.dest_pos].isdigit())


def _phone_edges(words: list[Word], run: tuple[int, ...]) -> tuple[tuple[int, ...], int, int]:
    """A run of words printing a phone number with the characters of its first and last word
    before its first digit or bracket and after its last ("943-218-5379.", "1732·eview")."""
    first, last = words[run[0]].text, words[run[-1]].text
    start = re.search(r"[\d(+]", first)
    end = [m.end() for m in re.finditer(r"[\d)]", last)]
    return run, start.start() if start else 0, len(last) - end[-1] if end else 0


REPEAT_LESS = 0.05  # a value printed again is a little less sure than where a recogniser found it
GARBLED_LESS = 0.05  # a garbled reading is the least sure: where a recogniser read the value in its words, it has them
_EXTENSION = re.compile(rf"\s*{EXTENSION_WORD}\s*\d+$", re.IGNORECASE)  # a phone's extension, printed or not
_COUNTRY = re.compile(r"^\+?1[\s.-]*(?=\(?\d{3})")  # a US number's country code, printed or not


def _with_extension(words: list[Word], span: Span) -> Span:
    """A phone printed again with the extension printed after it on its line, which the
    guidelines put inside the span ("+1 783 281 73(9 ex1. 439", the extension's "t" read as a one)."""
    last = span.words[-1]
    if span.cut_right or span.hidden:
        return span
    after = [i for i in range(last + 1, min(last + 3, len(words))) if words[i].line == words[last].line]
    joined = "".join(" " + words[i].text for i in after)
    if not (m := EXTENSION.match(joined)):
        return span
    starts = [sum(len(words[j].text) + 1 for j in after[:k]) for k in range(len(after))]
    taken = [i for i, start in zip(after, starts, strict=True) if start < m.end()]
    cut = starts[len(taken) - 1] + 1 + len(words[taken[-1]].text) - m.end()
    return replace(span, words=(*span.words, *taken), cut_right=cut)


def _as_printed_here(type_: str, value: str) -> str:
    """A value as a garbled reading of it is searched for: a phone without its extension or country
    code, which another printing of it may lack ("Te1.456-270-7371" is no garbled "+1 456 270
    7371": its "Te" would be the "+1", and the label would go into the box)."""
    if type_ != "PHONE_NUMBER":
        return value
    return _COUNTRY.sub("", _EXTENSION.sub("", value))


LONE_SURNAME_SCORE = 0.3  # below every recogniser: a surname inside an organisation's name stays with it
HIDDEN_PART = 3  # the fewest characters of a code printed beside a stamp's letters that hide the rest


def _hidden(text: PageText, value: str) -> list[tuple[int, int, int]]:
    """Words printing a part of a code or phone that a stamp's letters hide the rest of, with the
    characters hidden before and after the word as printed: the word is the value's first or last
    `HIDDEN_PART` characters or more, a digit among them, all but two or more of it, and a stamp's word
    (`unread.split`) overlaps its rows beside it, over as many characters as are hidden ("M16" of
    "M1651912" under "CONFIDENTIAL", which the OCR read no further; "212" of "C704212" after
    "APPROVED"; "3-7394" of "591.923.7394", its "591-92" under "CONFIDENTIAL")."""
    want = alnum(value)
    parts = sorted(
        (run[0], before, len(want) - size - before)
        for size in range(HIDDEN_PART, len(want) - 1)
        for before, part in ((0, want[:size]), (len(want) - size, want[-size:]))
        for run in text.alnum_runs.get(part, [])
        if len(run) == 1 and any(c.isdigit() for c in part)  # letters alone are a prefix, or a label ("Dept")
    )
    stamps = [w.bbox for w in split(text.words)[1]] if parts else []
    out = []
    for i, before, after in parts:
        before, after = _printed_count(value, before), _printed_count(value[::-1], after)
        x0, y0, x1, y1 = text.words[i].bbox
        char = (x1 - x0) / len(text.words[i].text)
        start, end = (x0 - char * before, x0 - char) if before else (x1 + char, x1 + char * after)
        if any(s[0] <= start and s[2] >= end and s[1] < y1 and s[3] > y0 for s in stamps):
            out.append((i, before, after))
    return out


def _printed_count(value: str, chars: int) -> int:
    """The characters of `value` as printed (its marks too) before its `chars`-th letter or digit."""
    if not chars:
        return 0
    places = [k for k, c in enumerate(value) if c.isalnum()]
    return places[chars] if chars < len(places) else len(value)


LOST_PREFIX = 6  # the fewest digits of a code printed without its letters to be that code
LOST_PREFIX_ROOM = 5  # as few where the line has room for the letters before them


def _prefix_lost(text: PageText, value: str) -> list[tuple[int, int]]:
    """Words printing a code's digits, `LOST_PREFIX` or more, without the letters it opens with,
    with how many characters those take as printed: a stamp's frame or damage took them ("886741"
    for "C886741", its 'C' under the edge of "PAID"'s frame, which the OCR did not read as a
    word); `LOST_PREFIX_ROOM` or more where the gap before the word holds those characters
    ("58362" for "CL-58362", a gray frame's edge through its "CL-", 47 px after the word before)."""
    want = alnum(value)
    digits = want.lstrip(string.ascii_lowercase)
    if not (digits.isdigit() and len(digits) >= LOST_PREFIX_ROOM and len(digits) < len(want)):
        return []
    prefix = len(value) - len(value.lstrip(string.ascii_letters + "-#. "))  # "CL-" of "CL-58362"
    runs = [run[0] for run in text.alnum_runs.get(digits, []) if len(run) == 1]
    return [(i, prefix) for i in runs if len(digits) >= LOST_PREFIX or _room_before(text.words, i, prefix)]


def _room_before(words: list[Word], i: int, chars: int) -> bool:
    """The gap between word `i` and the nearest word left of it in its rows (a skewed page's
    OCR lines part them) holds `chars` more of its characters and a space."""
    x0, y0, x1, y1 = words[i].bbox
    ends = [w.bbox[2] for w in words if w.bbox[2] <= x0 and min(w.bbox[3], y1) - max(w.bbox[1], y0) > (y1 - y0) / 2]
    char = (x1 - x0) / max(1, len(words[i].text))
    return bool(ends) and x0 - max(ends) >= (chars + 1) * char


def _surnames(name: str) -> list[str]:
    """The surname of a name as linking reads it (`person`: "First [M.] Last", "Last, First"), when
    it is one a reader would know alone (a census surname of two letters or more: `_short_alone`)."""
    parts = name.split()
    parsed = person(name)
    if len(parts) < 2 or parsed is None:
        return []
    last = next((p.strip(EDGE) for p in parts if alnum(p) == parsed.last), "")
    plain = len(last) >= 2 and last.isalpha() and is_common_surname(last)
    return [last] if plain else []


CUT_SHORT = 4  # the fewest letters of a surname read cut short that is searched for whole (`_completed`)
CUT_OFF = 3  # the most letters a stamp hides at a surname's end


def _completed(words: list[Word], name: str) -> list[int]:
    """Words that are a name's surname printed whole, alone, where the name was read with it cut
    short at its end (a stamp over "Julie Gardner" left "Gardn"; "Gardner" was printed alone
    further down): a census surname, capitalised, that opens with the surname read and is up to
    `CUT_OFF` letters longer, where the surname read is no census name."""
    parsed = person(name)
    if len(name.split()) < 2 or parsed is None:
        return []
    cut = parsed.last
    if len(cut) < CUT_SHORT or not cut.isalpha() or is_common_surname(cut) or is_first_name(cut):
        return []
    return [
        i
        for i, w in enumerate(words)
        if (whole := w.text.strip(EDGE))[:1].isupper()
        and whole.isalpha()
        and 0 < len(whole) - len(cut) <= CUT_OFF
        and whole.casefold().startswith(cut)
        and _lone(whole) == "surname"
        and is_common_surname(whole)
    ]


SHORT_SURNAME = 2  # letters of a surname that is also a word ("Le", "He", "So"): `_short_alone`


def _short_alone(words: list[Word], i: int, surname: str) -> bool:
    """Word `i` is a short surname printed alone as the person's: a longer one anywhere; one of
    `SHORT_SURNAME` letters as it is printed in the name ("Le", not "LE"), inside a sentence on
    its line (capitalised, it opens a sentence where it is a word: "He said ..."; after a title,
    "Ms. Le", the recognisers find it) or a line of its own ("Yu" signing a note)."""
    if len(surname) > SHORT_SURNAME:
        return True
    before = _before(words, i)
    alone = before == "" and _after(words, i) == ""
    inside = before != "" and not before.endswith((".", "!", "?", ":"))
    return words[i].text.strip(EDGE) == surname and (inside or alone)


def _name_forms(name: str) -> list[list[str]]:
    """The other ways a "First Last" name is printed: "LAST, FIRST" (or "Last First") and "F. Last"
    (`printed` ignores case and the comma or dot at a word's edge)."""
    parsed = person(name)
    if parsed is None or not parsed.full or not (parsed.first + parsed.last).isalpha():
        return []
    return [[parsed.last, parsed.first], [parsed.first[0], parsed.last], [parsed.first, parsed.last]]


def _unsplit(name: str) -> str:
    """A name whose first name or surname the OCR read in pieces as it is printed whole
    ("Nancy Thom as": `names.unsplit`)."""
    return "\n".join(" ".join(t for t, _ in unsplit(line.split(), field=True)) for line in name.split("\n"))


_GLUED_NAME = re.compile(r"^(?P<first>[A-Z][a-z]{2,})(?P<last>[A-Z][a-z]+)$")


def _unglued(name: str) -> str:
    """A name the OCR read as one word, the space between its first name and its surname lost
    ("AnthonyBrown", its other printing "BROWN, ANTHONY"), as two: a first name, then a capital;
    a name with a capital inside is no such pair ("DeShawn"; "MacArthur", a census surname,
    though "Mac" is a first name), and stays whole."""
    m = _GLUED_NAME.match(whole := name.strip(EDGE))
    if m is None or not is_rather_first_name(m["first"]) or is_common_surname(whole) or is_first_name(whole):
        return name
    return f"{m['first']} {m['last']}"


Lone = Literal["no", "surname", "after a title"]


def _lone(surname: str) -> Lone:
    """How a surname printed alone is the person's: anywhere, or, a form word ("Weeks", "Price"),
    only after a title ("Mr. Weeks") or inside running text (`_in_prose`)."""
    return "after a title" if surname.casefold() in FIELD_WORDS else "surname"


def _forms(type_: str, value: str) -> list[tuple[list[str], Lone, str]]:
    """The word sequences a found value is printed again as, each with whether it is a lone
    surname (which must be capitalised, and scores below every recogniser; one that is a form
    word, only after a title) and why: the value (a block's lines one by one: "Suite 200" is
    printed alone, a name's first name is not), a name's other forms, and its surname. A name of
    one word is a surname alone wherever it is printed ("Mr Phillips", found by its title)."""
    flat = value.replace("\n", " ")
    if type_ == "PERSON_NAME" and len(flat.split()) == 1:
        alone = flat.strip(EDGE)
        return [([alone], _lone(alone), "the surname")] if len(alone) >= 3 else []
    lines = [line.split() for line in ([flat] if type_ == "PERSON_NAME" else value.split("\n"))]
    out: list[tuple[list[str], Lone, str]] = [(t, "no", "printed again") for t in lines if len("".join(t)) >= 4]
    if type_ == "PERSON_NAME":
        out += [(form, "no", "another printed form") for form in _name_forms(flat)]
        out += [([last], _lone(last), "the surname") for last in _surnames(flat)]
    return out


def _first_name_before(words: list[Word], i: int) -> bool:
    """Word `i`, a person's surname, comes right after a census first name on its line, however
    rare, capitalised and no form word ("terms Kaitlin Duran processed": the name is both)."""
    before = _before(words, i)
    return before.isalpha() and before[0].isupper() and before.casefold() not in FIELD_WORDS and is_first_name(before)


TITLED_MISREAD = 6  # the fewest letters of a surname found after a title with one of them misread or lost
LOOK_ALIKE_MISREAD = 5  # the fewest letters of a surname found anywhere with one read as a look-alike
# characters the OCR reads one for another in a name, casefolded ("Ciark" for "Clark", "Fletchen" for "Fletcher")
LOOK_ALIKE = ("il1|!", "ce", "rn")


def _misread_alone(words: list[Word], surname: str, lone: Lone) -> list[int]:
    """Words that are a person's surname misread: right after a title, one character misread, lost
    or added ("Dr. imenez": the J lost), the surname `TITLED_MISREAD` letters or more; anywhere, for
    a surname that is no form word (`_lone`), capitalised, one letter read as its look-alike ("Ciark"
    for "Clark"), the surname `LOOK_ALIKE_MISREAD` letters or more, the word no census name of its own."""
    want = surname.casefold()
    titled = len(want) >= TITLED_MISREAD
    anywhere = lone == "surname" and len(want) >= LOOK_ALIKE_MISREAD
    out = []
    for i, w in enumerate(words):
        read = w.text.strip(EDGE)
        after_title = titled and _titled(words, i) and Levenshtein.distance(read.casefold(), want) == 1
        look_alike = anywhere and read[:1].isupper() and _looks_alike(read, surname)
        if after_title or (look_alike and not (is_common_surname(read) or is_first_name(read))):
            out.append(i)
    return out


def _split_alone(text: PageText, surname: str) -> list[tuple[tuple[int, ...], int, int]]:
    """A surname printed alone that the OCR read as two words, the second lowercase ("Thom as",
    a stamp's edge between), the surname `LOOK_ALIKE_MISREAD` letters or more."""
    if len(surname) < LOOK_ALIKE_MISREAD:
        return []
    runs = text.letter_runs.get(letters(surname), [])
    return [edges(text.words, run) for run in runs if len(run) == 2 and text.words[run[1]].text[:1].islower()]


def _looks_alike(read: str, value: str) -> bool:
    """`read` is `value` with one letter read as its look-alike (`LOOK_ALIKE`), case aside."""
    if len(read) != len(value):
        return False
    pairs = [(a, b) for a, b in zip(read.casefold(), value.casefold(), strict=True) if a != b]
    return len(pairs) == 1 and any(a in group and b in group for a, b in pairs for group in LOOK_ALIKE)


def _initial_before(words: list[Word], i: int, name: str) -> bool:
    """Word `i`, a person's surname, comes right after the initial of the name's first name on its
    line ("office M. Fletchen" for "Matthew Fletcher")."""
    parsed = person(name)
    return parsed is not None and bool(parsed.first) and _before(words, i).strip(EDGE) == parsed.first[0].upper()


def _surname_as(words: list[Word], i: int, whole: bool, surname: str) -> str:
    """A surname misread or read in pieces at word `i`, as it is printed: alone, or after the
    first name or initial before it (`whole`: "M. Fletcher" for "M. Fletchen")."""
    return f"{_before(words, i).strip(EDGE)} {surname}" if whole else surname


def _titled(words: list[Word], i: int) -> bool:
    """Word `i` comes right after a person's title on its line ("Mr. Weeks")."""
    return is_title(_before(words, i))


def _before(words: list[Word], i: int) -> str:
    """The text of the word before word `i` on its line ("" for its line's first word)."""
    return words[i - 1].text if i > 0 and words[i - 1].line == words[i].line else ""


def _after(words: list[Word], i: int) -> str:
    """The text of the word after word `i` on its line ("" for its line's last word)."""
    return words[i + 1].text if i + 1 < len(words) and words[i + 1].line == words[i].line else ""


def _in_prose(words: list[Word], i: int) -> bool:
    """Word `i` comes after a lowercase word on its line and before another or its line's end,
    inside running text, where a form word is printed lowercase: its capital is a name's ("within
    licence Price")."""
    before, after = _before(words, i), _after(words, i)
    return before.isalpha() and before.islower() and (not after or (after.isalpha() and after.islower()))


def spans_of(text: PageText, type_: str, value: str, score: float, source: str, why: str) -> list[Span]:
    """Where a found value is printed in `text`, in any of its forms (`_forms`); a name the OCR
    read glued is searched for as printed apart (`_unglued`), one read in pieces as printed whole
    (`_unsplit`)."""
    words = text.words
    value = _unglued(_unsplit(value)) if type_ == "PERSON_NAME" else value
    out = []
    for tokens, lone, how in _forms(type_, value):
        split = _split_alone(text, tokens[0]) if lone != "no" else []
        for ws, left, right in printed(text, tokens) + split:
            if lone == "no":
                out.append(Span(type_, ws, score, source, left, right, f"{how}; {why}"))
            elif (
                words[ws[0]].text[left:].lstrip(EDGE)[:1].isupper()  # "statusCollins": glued, its own capital
                and (lone == "surname" or _titled(words, ws[0]) or _in_prose(words, ws[0]))
                and _short_alone(words, ws[0], tokens[0])
            ):
                whole = _first_name_before(words, ws[0])  # the name whole, its first name too
                run, cut, said = ((ws[0] - 1, *ws), 0, f"{how} after a first name") if whole else (ws, left, how)
                of = _surname_as(words, ws[0], whole, tokens[0]) if (ws, left, right) in split else ""
                out.append(Span(type_, run, LONE_SURNAME_SCORE, source, cut, right, f"{said} of {value!r}", of=of))
        for i in _misread_alone(words, tokens[0], lone) if lone != "no" else []:
            whole = _initial_before(words, i, value) or _first_name_before(words, i)
            ws, left, right = edges(words, (i - 1, i) if whole else (i,))
            of = _surname_as(words, i, whole, tokens[0])
            out.append(Span(type_, ws, LONE_SURNAME_SCORE, source, left, right, f"{how} of {value!r}, misread", of=of))
    for i in _completed(words, value) if type_ == "PERSON_NAME" else []:
        ws, left, right = edges(words, (i,))
        out.append(Span(type_, ws, LONE_SURNAME_SCORE, source, left, right, f"the surname of {value!r} whole"))
    for ws, left, right in _printed_as(text, type_, value):
        out.append(Span(type_, ws, score, source, left, right, f"printed again in another form; {why}", of=value))
    numbers = type_ in CODE_TYPES or type_ == "PHONE_NUMBER"
    for ws, left, right in garbled(text, _as_printed_here(type_, value)) if numbers else []:
        reason = f"printed again as the OCR garbled it; {why}"
        out.append(Span(type_, ws, score - GARBLED_LESS, source, left, right, reason, of=value))
    if type_ == "PHONE_NUMBER":
        out = [_with_extension(words, span) for span in out]
    for i, before, after in _hidden(text, _as_printed_here(type_, value)) if numbers else []:
        part = "its end" if before else "its start"
        reason = f"{part}, the rest under a stamp; {why}"
        out.append(Span(type_, (i,), score, source, hidden_before=before, hidden=after, reason=reason, of=value))
    for i, before in _prefix_lost(text, value) if type_ in CODE_TYPES else []:
        reason = f"its digits, its letters lost; {why}"
        out.append(Span(type_, (i,), score, source, hidden_before=before, reason=reason, of=value))
    return out


def repeats(spans: list[Span], text: PageText) -> list[Span]:
    """Every other place a found value is printed, with the same type, in any case and in its
    other forms; a person's surname printed alone after the full name ("... call Huang")."""
    out = []
    for s in spans:
        if s.source == "date":  # dates repeat by design; each is found on its own
            continue
        value = value_of(s, text.words)
        out += spans_of(text, s.type, value, s.score - REPEAT_LESS, "repeat", f"first found as {s.reason or s.source}")
    return out
