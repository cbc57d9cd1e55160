"""The codes printed on redactions, and reading them: Woo/Wob grounds ("5.1.2e", "10.2.g",
"11.1"), US FOIA exemptions ("(b)(6)", "(b)(7)(C)", "b6"), the markings of what is out of a
request's scope ("Buiten reikwijdte"), and the labels `redact --label` writes ("PERSON 2"), as
the OCR reads and misreads them in small print. A code is read by OCR, light text on a dark fill
inverted first.
"""

from __future__ import annotations

import re

import numpy as np
from PIL import Image, ImageOps
from rapidfuzz import fuzz, process

from redact_agent.redact import LABEL
from redact_agent.tools.ocr import OcrEngine

# the grounds and exemptions; the markings below are matched as the OCR spells them ("behoort
# noiet tot Wob verzoek")
CODE = re.compile(
    r"^(?:\d{1,2}(?:\s?\.\s?\d{1,2}){1,3}\s?\.?\s?[a-zA-Z]?|\(?b\)?\s?\(?\d\)?(?:\s?\(?[A-Fa-f]\)?)?|"
    r"n\.?v\.?t\.?)$",
    re.IGNORECASE,
)
NUMBERED = re.compile(r"^\d{1,2}[a-zA-Z]?$")  # a ground by its number in a legend ("3"), on a black box only
MARKING_RATIO = 85  # percent alike, as rapidfuzz scores the OCR's spelling against a marking
MIN_CUT_MARKING = 10  # characters, two words at least: the start of a marking that its box cuts short
MARKINGS = ["buiten reikwijdte", "behoort niet tot wob verzoek", "behoort niet tot het verzoek", "niet openbaar",
            "out of scope", "withheld"]  # fmt: skip


# a code as the OCR misreads small print: a FOIA code's opening ("(bN7HC)", "(bK(7HC)", "(H(7)(C)"
# for "(b)(7)(C)"), or a Woo ground whose first digit is read as a letter ("C.1.1C" for "5.1.1c"),
# one of whose digits a stamp's ring hides ("5..2i"), with a stamp's frame beside its end read as
# a stroke ("5.1.1cl"), or with its dots lost: the Woo and Wob articles' numbers (5.1.1, 5.1.2,
# 5.2, 5.3, 10.1, 10.2, 11.1) and a ground's letter ("51 1c", "10 2 e", "111")
CODE_MISREAD = re.compile(
    r"^(?:\([bhk6].{0,2}\d[\w()]{0,5}|(?=.*\d)[0-9a-z]{1,2}(?:\.\d{0,2}){2,3}\.?[a-z]?[|l]?|"
    r"(?:5\s?1\s?[12]|5\s?[23]|10\s?[12]|11\s?1)\s?[a-il]?)$",
    re.IGNORECASE,
)


def is_code(text: str, dark_fill: bool = False) -> bool:
    """Whether text read inside a box is a redaction's code or marking (or a marking's start, cut
    short by the box's end). A bare number is one only in light print on a black box: on a shaded
    or outlined one it is a table's cell; so is a label of ours ("PERSON 2"), which a heading bar
    could print too in other colours."""
    folded = " ".join(text.casefold().split())
    marking = process.extractOne(folded, MARKINGS, scorer=fuzz.ratio, score_cutoff=MARKING_RATIO)
    # a marking the box's end cuts short ("behoort noiet" for "behoort niet tot Wob verzoek")
    cut = len(folded) >= MIN_CUT_MARKING and " " in folded
    cut = cut and any(fuzz.ratio(folded, m[: len(folded)]) >= MARKING_RATIO for m in MARKINGS)
    ours = dark_fill and LABEL.match(" ".join(text.split()))  # a label `redact --label` wrote ("PERSON 2")
    return bool(CODE.match(text) or (dark_fill and NUMBERED.match(text)) or ours or cut) or marking is not None


def misread(text: str) -> bool:
    """Whether text read on a fill is a small code that OCR misread ("51 2e", "bH4)", "(bN7HC)"
    for "5.1.2e", "(b)(4)", "(b)(7)(C)" in small print on a blurred scan): a code misread in its
    shape (`CODE_MISREAD`), or three to seven characters, a digit among them, at most two
    letters, no run of four digits (a value showing through a shaded field has longer ones, a word
    more letters). On an outline it could be a boxed page number."""
    chars = "".join(text.split())
    if CODE_MISREAD.match(chars):
        return True
    letters = sum(c.isalpha() for c in chars)
    return 3 <= len(chars) <= 7 and letters <= 2 and any(c.isdigit() for c in chars) and not re.search(r"\d{4}", chars)


def reads_as_code(text: str, dark_fill: bool = False) -> bool:
    """Whether text read on a fill is a code (`is_code`) or one that OCR misread (`misread`)."""
    return is_code(text, dark_fill) or misread(text)


BRACKETS = str.maketrans("{}[]", "()()")  # small print's brackets as the OCR reads them: "(b)(7}(C}"


def read(crop: Image.Image, dark_fill: bool, ocr: OcrEngine) -> str | None:
    """The text printed inside a box, or None when there is none; OCR reads dark on light."""
    if dark_fill:
        crop = Image.fromarray(255 - np.asarray(crop.convert("L"))).convert("RGB")
    text = " ".join(w.text for w in ocr.words(crop)).strip().translate(BRACKETS)
    return text or None


CODE_READ_HEIGHT = 40  # px: an outline lower than this is read enlarged; the OCR reads no smaller print


def enlarged(crop: Image.Image) -> Image.Image:
    """An outline's inside as the OCR can read it: small print enlarged (a 13 px outline's
    "(b)(6)" at 40 px), with a white margin. Fills are read as they are: enlarged, the OCR read
    text that is no code in 31 of our own small black boxes on the dev pages, which were then
    taken for no redaction (tests/audit/test_own_outputs.py)."""
    if crop.height < CODE_READ_HEIGHT:
        f = -(-CODE_READ_HEIGHT // max(crop.height, 1))
        crop = crop.resize((crop.width * f, crop.height * f), Image.Resampling.LANCZOS)
    return ImageOps.expand(crop, border=crop.height // 4, fill="white")
