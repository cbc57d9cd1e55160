"""Recognisers for names, addresses, places and job titles (organisations: `organizations.py`).

- PERSON_NAME: 2–3 capitalised words whose first and last are in the US census name lists, or
  "Last, First" (`names.py`). A line that is only a common first name and a surname the lists
  lack is a name when `probablepeople` reads it as one.
- POSTAL_ADDRESS: a street line (house number + street type, or a P.O. box, confirmed by
  `usaddress`; a house number spelt out or on a grid over a city line) with the suite and
  city/state/zip lines directly below it and a suite line right over it, as one block.
- LOCATION: a city/state/zip line on its own.
- JOB_TITLE: a closed list of titles, when not used as a field label.
"""

from __future__ import annotations

import re

import usaddress

from redact_agent.linking import is_title
from redact_agent.local.layout import Segment, above, below, part
from redact_agent.local.names import (
    is_common_first_name,
    is_common_surname,
    is_first_name_only,
    is_misread_name,
    is_name_with_rare_surname,
    is_person_name,
    is_rather_first_name,
    unsplit,
)
from redact_agent.local.organizations import names_an_organization, person_after_label
from redact_agent.local.places import is_place
from redact_agent.local.spans import PageText, Recogniser, Span, as_initial, next_label
from redact_agent.local.vocabulary import PROGRAMME, field_share
from redact_agent.tools.ocr import Word

# A house number: digits, or a grid address's two ("N56 W13605", Wisconsin and Utah).
_HOUSE = r"(?:[NSEW]\d+\s+[NSEW]\d+|\d+[A-Za-z]?)"
_PO = r"p\.?\s*[o0]\.?\s*"  # a P.O. box's "P.O.", as printed ("PO") or read ("P.0.")
# A house number spelt out, capitalised ("One Penn Plaza"): a street line only over a city line.
_NUMBER_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_WORD_NUMBER = "(?-i:" + "|".join(w for n in _NUMBER_WORDS for w in (n.title(), n.upper())) + ")"
_STREET = re.compile(
    rf"^(?:{_HOUSE}\s+(?:[\w.'-]+\s+){{0,5}}(?:st|street|ave|avenue|rd|road|b[il1]vd|boulevard|dr|drive|ln|lane|"
    r"way|pkwy|parkway|pl|place|ct|court|hwy|highway|cir|circle|ter|terrace|sq|square|trl|trail|plz|plaza|"
    rf"pike|row|loop|run|walk)\b(?![-/]\d|-\w).*|(?:{_PO}box|box)\.?\s*\d+.*)$",
    re.IGNORECASE,
)
_BOX_NUMBER = re.compile(r"\b(box\.?)(?=\d)", re.IGNORECASE)
_BOX_MISREAD = re.compile(rf"\b({_PO})b[oc0][x×m](?=\.?\s*\d)", re.IGNORECASE)
_UNIT_WORD = r"(?:suite|ste|fl|flr|f[il1]r|floor|unit|apt|room|rm|bldg|building|#)"  # OCR reads "flr" as "fir"
# a unit line: its word and its number or letter ("Suite 200", "Bldg A", "# 4B"), or an ordinal
# before it ("12th Floor"); "Building surveyor", a title under a city line, is none
_UNIT = re.compile(
    rf"^(?:(?:n|s|e|w|nw|ne|sw|se)\s+)?(?:\d+(?:st|nd|rd|th)\s+{_UNIT_WORD}\b|{_UNIT_WORD}\.?\s*(?:\d|[a-z]\b)).*",
    re.IGNORECASE,
)
_ZIP_CODE = r"\d{5}(?:-\d{4})?"
CITY_LINE = re.compile(
    r"^[A-Za-z][A-Za-z .'-]*[A-Za-z.](?:,\s*|\s+)(?:[A-Z]{2}|D\.\s?C\.)(?:\.\s*|,?\s+)"
    rf"{_ZIP_CODE}(?:\s+(?:US|USA))?$"
)
# A city line as the OCR may misread it, under a street line of its block: a state's letter read
# as a digit or one too many ("New Aliciatown, M1 66029", "South Isaiah. MII 66864"), the state
# glued to the city or the ZIP, split or lost ("North ElizabethbergDE", "Martinport, OK54573", "A R",
# "Eaat Stephanie. 65193"), a ZIP's digit lost, read as '+' or 'O', or split ("AL 2601", "VT 851 44"),
# a mark or a stamp's letters glued to it ("PW 68746D", "ID 3882RE"), a colon read after the state
# ("Brownland. NE: 75375"); the city's O read as a zero ("0lsonland, NJ 11710").
_READ_STATE = r"(?:(?=[A-Z0-9]{0,2}[A-Z])[A-Z0-9]{2,3}|[A-Z] [A-Z])"  # a letter at least: no day of a date
_READ_CITY_LINE = re.compile(
    rf"^[A-Za-z0][A-Za-z .'-]*?[a-z](?:[.,]\s*|\s+(?={_READ_STATE}\b)|(?=[A-Z]{{2}}\b))"
    rf"(?:{_READ_STATE}[.:]?,?['’]?\s*)?"
    r"\d(?:\s?[\d+O]){3,4}(?:-\d{4})?[A-Za-z]{0,2}$"
)
_TITLES = re.compile(
    r"^(?:(?:senior|sr\.?|junior|jr\.?|assistant|associate|executive|chief|general|regional|national|local)\s+)*"
    r"(?:account\s+executive|sales\s+manager|general\s+manager|station\s+manager|traffic\s+manager|"
    r"business\s+manager|office\s+manager|media\s+buyer|president|vice\s+president|director|manager|"
    r"coordinator|treasurer|secretary|ceo|cfo|coo|vp|owner|partner|attorney|accountant|analyst|engineer|"
    r"consultant|officer|supervisor)$",
    re.IGNORECASE,
)


def _tag(text: str) -> tuple[dict[str, str], str]:
    """usaddress's components and address kind, or none for a string it cannot label."""
    try:
        tags, kind = usaddress.tag(text)
    except usaddress.RepeatedLabelError:
        return {}, ""
    return dict(tags), str(kind)


_CLOCK = re.compile(r"\d{1,2}(?::\d\d)?\s*[AaPp]\.?[Mm]\b")  # a clock time is no house number


def _box_as_printed(text: str) -> str:
    """`text` with a P.O. box's "Box" as the OCR misread it after its "P.O." ("P.0. Bo× 2814",
    "P.O. Bom 3018", "P.O. Bcx 2043") spelt right, character for character."""
    return _BOX_MISREAD.sub(r"\1Box", text)


def is_street_line(text: str) -> bool:
    """A street line by its shape and usaddress's reading: a listed suffix, or any USPS suffix
    usaddress names ("599 Alyssa Keys Apt. 200"), or a P.O. box (its number glued on: "P.O. Box7846";
    its "Box" misread, `_box_as_printed`)."""
    text = _box_as_printed(text)
    tags, kind = _tag(_BOX_NUMBER.sub(r"\1 ", text))
    if _STREET.match(text.strip()):
        return bool("AddressNumber" in tags or "USPSBoxID" in tags) and kind in (
            "Street Address",
            "PO Box",
            "Ambiguous",
        )
    named = {"AddressNumber", "StreetName", "StreetNamePostType"} <= set(tags) and kind == "Street Address"
    if not named or not text.strip()[:1].isdigit() or PROGRAMME.search(text) or _CLOCK.match(text.strip()):
        # "11 News At 5am", "5 PM EST 11/20"
        return False
    return _title_words(tags["StreetName"]) and _title_words(tags["StreetNamePostType"])


def _title_words(text: str) -> bool:
    return all(w[:1].isupper() for w in text.split())


def _tags_as_street(text: str) -> bool:
    tags, kind = _tag(text)
    return "AddressNumber" in tags and kind == "Street Address"


def _aligned_below(nxt: Segment, street: Segment) -> bool:
    """A line of the same address block starts where the street line does, or, in a centred
    block, is centred under it."""
    centre = abs(nxt.box[0] + nxt.box[2] - street.box[0] - street.box[2]) / 2
    return min(abs(nxt.box[0] - street.box[0]), centre) < 3 * street.height


def _over_city_line(street: Segment, segs: list[Segment]) -> bool:
    """A "City, ST 12345" line comes next in the block, directly or after a suite line."""
    nxt = below(street, segs, max_lines=2.0)
    if nxt is not None and _aligned_below(nxt, street) and _UNIT.match(nxt.text):
        nxt = below(nxt, segs, max_lines=2.0)
    return nxt is not None and _aligned_below(nxt, street) and _city_line_of_block(nxt.text)


def _city_line_of_block(text: str) -> bool:
    """A city line under a street line: "City, ST 12345" as printed or misread, or a listed city
    with its state, spelt out or not, the ZIP left off ("New York, NY", "Arlington, Virginia 22209")."""
    if CITY_LINE.match(text) or _READ_CITY_LINE.match(text):
        return True
    place = re.sub(rf"\s+{_ZIP_CODE}$", "", text.strip())
    return "," in place and is_place(place)


# A house number and a few words: what a street line over a city line is, whatever its suffix or
# however the OCR spelt it ("39218Heather Meadow", the number glued to the name).
_NUMBER_LED = re.compile(r"^\d{1,6}[A-Za-z]?\s*[A-Za-z][\w.'-]*(?:\s+[\w.'#-]+){0,5}$")


def _street_start(seg: Segment, segs: list[Segment], words: list[Word]) -> int | None:
    """Where a street line starts in a segment (OCR often glues logo debris in front of it).
    A number-led line right above a "City, ST 12345" line, at the segment's start or after a
    label, is a street line whatever its suffix ("5472 Frank Lights", "One Penn Plaza"), when
    usaddress reads it as one or it is a house number and a few words."""
    text = _box_as_printed(seg.text)
    for m in re.finditer(
        rf"(?:(?<=[\s:])|^)(?:{_HOUSE}\s|{_WORD_NUMBER}\s|\d+(?=[A-Z][a-z])|{_PO}box\.?(?:\s|(?=\d))|box\.?\s)",
        text,
        re.IGNORECASE,
    ):
        rest = text[m.start() : next_label(text, m.start())]  # the next field's label ends it ("... Plate:")
        if is_street_line(rest):
            return m.start()
        before = text[: m.start()].rstrip()
        after_label = not before or before.endswith(":") or field_share(before) == 1.0  # "Ship to 90130 ..."
        if after_label and (_tags_as_street(rest) or _NUMBER_LED.match(rest)):
            run, glued, _ = seg.cuts(m.start(), len(seg.text))
            street = part(seg, run, words, cut_left=glued)
            if _over_city_line(street, segs):
                return m.start()
    return None


def _address_blocks(segs: list[Segment], words: list[Word]) -> list[Span]:
    out = []
    for seg in segs:
        start = _street_start(seg, segs, words)
        if start is None:
            continue
        # a label glued to it ("to:1024 Johnson Hill"); the next field's label ends it ("... Apt. 618 VIN: 22UX729")
        first, label, _ = seg.cuts(start, next_label(seg.text, start))
        street = part(seg, first, words, cut_left=label)
        block_words = list(first)
        if start == 0:  # a suite line printed over its street line (and no label before it)
            over = above(seg, segs, max_lines=2.0)
            block_words[:0] = next((s.words for s in over if _aligned_below(street, s) and _UNIT.match(s.text)), ())
        line, nxt, lines = street, below(street, segs, max_lines=2.0), 1
        while nxt is not None and lines < 5 and _aligned_below(nxt, street) and _goes_on(line.text, nxt.text):
            block_words += nxt.words
            line, nxt, lines = nxt, below(nxt, segs, max_lines=2.0), lines + 1
        out.append(Span("POSTAL_ADDRESS", tuple(block_words), 0.8, "usaddress", cut_left=label))
    return out


_UNIT_END = re.compile(rf"\b{_UNIT_WORD}\.?\s*$", re.IGNORECASE)
_UNIT_NUMBER = re.compile(r"^#?\d{1,5}[A-Z]?$")
_ZIP = re.compile(rf"^{_ZIP_CODE}$")


def _goes_on(line: str, nxt: str) -> bool:
    """Whether the line under a block's last one is of the block: a suite line, a city line, the
    country, a suite's number the line above ends before ("... St. Suite" over "600"), or a ZIP
    code under a city line that has none ("ALEXANDRIA, VA" over "22313")."""
    nxt = nxt.strip()
    if _UNIT.match(nxt) or _city_line_of_block(nxt) or nxt.upper() in ("US", "USA"):
        return True
    if _UNIT_NUMBER.match(nxt) and _UNIT_END.search(line):
        return True
    return bool(_ZIP.match(nxt)) and _city_line_of_block(line) and not re.search(_ZIP_CODE, line)


def _names_within(seg: Segment, words: list[Word]) -> list[Span]:
    """Census names inside a longer line: runs of 2–3 capitalised words with a common first
    name ("... thank you, Gary Huang, for ...", "Clarence B. Smith"), or any census first name
    before a middle initial or after a common surname and its comma ("status Rogers, Tracie any"),
    or one that is no surname before a common surname ("amount Brianna Thompson the"), longest
    first, each word used once; a middle initial may be read as a digit ("Roger 0. Zavala"), a
    name's word read in pieces (`names.unsplit`)."""
    tokens = unsplit([as_initial(words[i].text) for i in seg.words])
    texts = [text for text, _ in tokens]
    out: list[Span] = []
    used: set[int] = set()
    for size in (3, 2):
        for k in range(len(texts) - size + 1):
            run = range(k, k + size)
            if used & set(run) or not all(texts[j][:1].isupper() for j in run):
                continue
            candidate = " ".join(texts[j] for j in run).strip(".,;:()")
            after = texts[k + size] if k + size < len(texts) else ""
            if after[:1].isupper() and PROGRAMME.fullmatch(after.strip(".,;:()")):
                continue  # "Jimmy Kimmel Live": a programme title, not "project Tommy Stanley report"
            first = texts[k + 1] if texts[k].endswith(",") else texts[k]  # "Burns, Bobby"
            # a middle initial makes a rarer first name one too ("Katelyn S. Burns"), and so does a
            # comma after a common surname ("Rogers, Tracie"; not "Brown, Hunter", "Hunter" a
            # commoner surname than first name), a place ("Madison, Virginia") or a firm named by
            # surnames ("Wright, Ali and Le") aside
            initial = size == 3 and re.fullmatch(r"[A-Z]\.", texts[k + 1]) is not None
            inverted = size == 2 and texts[k].endswith(",")
            firm = after in ("and", "&") and "".join(texts[k + size + 1 : k + size + 2])[:1].isupper()
            if inverted and (is_place(candidate) or firm):
                continue
            rare_first = (
                initial
                or (inverted and is_common_surname(texts[k].rstrip(",")) and is_rather_first_name(first))
                or (size == 2 and not inverted and is_first_name_only(first) and is_common_surname(texts[k + 1]))
            )
            # with its middle initial, a common first name or surname beside one read one letter
            # off ("Emly R. Chang", "Kathy Y. Henstey")
            misread = initial and (
                (is_common_first_name(first) and is_misread_name(texts[k + 2], surname=True))
                or (is_common_surname(texts[k + 2].rstrip(".,;:()")) and is_misread_name(first, surname=False))
            )
            if misread or ((rare_first or is_common_first_name(first)) and is_person_name(candidate)):
                last = texts[k + size - 1]
                right = len(last) - len(last.rstrip(".,;:()"))  # "Gary Huang," ends at the name
                held = tuple(seg.words[i] for j in run for i in tokens[j][1])
                out.append(Span("PERSON_NAME", held, 0.5, "census-names", 0, right))
                used.update(run)
    return out


def _surnames_after_titles(seg: Segment, words: list[Word]) -> list[Span]:
    """A census surname right after a person's title ("Mr Phillips", "Dr. Jimenez"): the person,
    named by the surname alone, the title no part of it (annotation guidelines)."""
    out = []
    for k, j in enumerate(seg.words[1:], 1):
        text = words[j].text
        surname = text.rstrip(".,;:)")
        if is_title(words[seg.words[k - 1]].text) and surname[:1].isupper() and is_common_surname(surname):
            out.append(Span("PERSON_NAME", (j,), 0.45, "surname after a title", 0, len(text) - len(surname)))
    return out


def _two_line_names(segs: list[Segment]) -> list[Span]:
    """A name a narrow cell wraps: a common first name alone on its line, its surname alone
    under it ("JOHN" over "ZWIRBLIS"), read as one name."""
    out = []
    for seg in segs:
        first = seg.text.strip(" ,;:|")
        if len(seg.words) != 1 or not first.isalpha() or not is_common_first_name(first):
            continue
        nxt = below(seg, segs, max_lines=1.0)
        if nxt is None or len(nxt.words) != 1 or not _aligned_below(nxt, seg):
            continue
        surname = nxt.text.strip(" ,;:|")
        if surname.casefold() == first.casefold():
            continue  # a column's repeated value ("JUDY" over "JUDY") is no first name over its surname
        name = f"{first} {surname}"
        if is_person_name(name) or is_name_with_rare_surname(name):
            out.append(Span("PERSON_NAME", seg.words + nxt.words, 0.5, "two-line-name"))
    return out


def find(page_text: PageText) -> list[Span]:
    segs, words = page_text.segs, page_text.words
    out = _address_blocks(segs, words) + _two_line_names(segs)
    for seg in segs:
        text = seg.text.strip(" :;|")
        if CITY_LINE.match(text):
            out.append(Span("LOCATION", seg.words, 0.6, "city-line"))
        if names_an_organization(text):  # the organisations recogniser has it
            pass
        elif (name := person_after_label(seg.text)) is not None:
            run, left, right = seg.cuts(*name)
            out.append(Span("PERSON_NAME", run, 0.6, "census-names after a label", left, right))
        elif is_person_name(text):
            out.append(Span("PERSON_NAME", seg.words, 0.6, "census-names"))
        elif is_name_with_rare_surname(text):
            out.append(Span("PERSON_NAME", seg.words, 0.55, "given-name+surname"))
        else:
            out += _names_within(seg, words)
        out += _surnames_after_titles(seg, words)
        if _TITLES.match(text) and not seg.text.rstrip().endswith(":") and _after_a_name(seg, segs):
            out.append(Span("JOB_TITLE", seg.words, 0.5, "title-list"))
    return out


def _after_a_name(seg: Segment, segs: list[Segment]) -> bool:
    """A title printed for a person: under a name (a signature block) or after one on its line.
    A title with a name under it or to its right is a field label ("Account Executive")."""
    cy = (seg.box[1] + seg.box[3]) / 2
    left = [s for s in segs if s.box[2] <= seg.box[0] + 2 and s.box[1] < cy < s.box[3] and s.index != seg.index]
    if left and is_person_name(max(left, key=lambda s: s.box[2]).text.strip(" ,;:|")):
        return True
    return any(is_person_name(s.text.strip(" ,;:|")) for s in above(seg, segs, max_lines=2.0))


RECOGNISER = Recogniser("entities", frozenset({"POSTAL_ADDRESS", "LOCATION", "PERSON_NAME", "JOB_TITLE"}), find)
