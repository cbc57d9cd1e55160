"""Labelled boxes: each black box says its type, entity or code in white, inside the black, and
never any part of the value; the audit reads the labels back as codes."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont, ImageOps

from redact_agent.audit import detect
from redact_agent.cli import main
from redact_agent.redact import LABEL, box_label, redact
from redact_agent.tools.ocr import get_engine

FIXTURES = Path(__file__).parent / "fixtures"


def test_labels_stay_inside_their_black_box_and_a_box_too_small_gets_none():
    page = Image.new("RGB", (400, 200), "white")
    boxes = [(20, 20, 200, 60), (250, 20, 262, 26)]
    out = np.asarray(redact(page, boxes, 2, ["PERSON 2", "PHONE 1"]))
    white = np.all(out > 128, axis=2)
    assert white[20:60, 20:200].any()  # the label's ink
    assert not white[18:62, 18:202].all(axis=None) and not white[18:28, 248:264].any()  # black around; no label
    outside = np.ones_like(white)
    outside[18:62, 18:202] = outside[18:28, 248:264] = False
    assert white[outside].all()  # nothing but white paper outside the boxes


@pytest.mark.parametrize(
    "mode, entity, codes, label",
    [
        ("none", "PERSON_NAME#2", {}, None),
        ("type", "PERSON_NAME#2", {}, "PERSON"),
        ("entity", "PERSON_NAME#2", {}, "PERSON 2"),
        ("entity", None, {}, "PERSON"),
        ("code", None, {"PERSON_NAME": "(b)(6)"}, "(b)(6)"),
        ("code", None, {"PHONE_NUMBER": "(b)(6)"}, None),
    ],
)
def test_what_a_box_says(mode, entity, codes, label):
    assert box_label(mode, "PERSON_NAME", entity, codes) == label


def _words(crop: Image.Image) -> str:
    """What OCR reads in a black box: its white print, inverted to dark on light."""
    return " ".join(w.text for w in get_engine("tesseract").words(ImageOps.invert(crop.convert("RGB"))))


def test_each_labelled_box_reads_as_its_label_and_never_as_its_value(tmp_path):
    out = tmp_path / "out"
    assert main([str(FIXTURES / "form-block.png"), "-o", str(out), "--label", "entity", "--no-verify"]) == 0
    page = json.loads((out / "form-block.json").read_text())
    redacted = Image.open(out / "form-block.redacted.png")
    read = 0
    for p in page["predictions"]:
        x0, y0, x1, y1 = p["bbox"]
        text = _words(redacted.crop((int(x0) - 2, int(y0) - 2, int(x1) + 3, int(y1) + 3)))
        value = re.sub(r"\W", "", p["value"]).casefold()
        runs = {value[k : k + 3] for k in range(len(value) - 2)}
        assert not any(r in re.sub(r"\W", "", text).casefold() for r in runs), (p["value"], text)
        if text.strip():
            assert LABEL.match(" ".join(text.split())), (p["type"], text)
            read += 1
    assert read >= 2  # the labels that fit are read, and read as labels


def test_the_audit_reads_our_labels_as_codes():
    page = Image.new("RGB", (1200, 600), "white")
    draw = ImageDraw.Draw(page)
    for row in range(8):
        draw.text(
            (60, 60 + row * 60),
            "Some running text of the page here",
            fill="black",
            font=ImageFont.load_default(size=26),
        )
    out = redact(page, [(300, 56, 700, 92), (60, 296, 420, 332)], 2, ["PERSON 2", "PHONE 1"])
    found = sorted(detect.find(out, get_engine()), key=lambda r: r.bbox[1])
    assert [(r.kind, r.code) for r in found] == [("black", "PERSON 2"), ("black", "PHONE 1")]
