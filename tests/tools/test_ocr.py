"""Both offline OCR engines on a real crop of a dev page (tests/fixtures/print-date.png)."""

import hashlib
import json
from pathlib import Path

import numpy as np
import onnxruntime
import pytest
from PIL import Image

from redact_agent.synth.corpus import pages_sha256, synthesise
from redact_agent.tools.ocr import ENGINES, MODELS_DIR, RAPID_PARAMS, OcrUnavailable, get_engine, image_key

FIXTURE = Path(__file__).parent.parent / "fixtures" / "print-date.png"


@pytest.mark.parametrize("name", list(ENGINES))
def test_engine_reads_the_date_with_a_tight_box(name):
    words = get_engine(name).words(Image.open(FIXTURE))
    date = [w for w in words if w.text == "02/28/20"]
    assert len(date) == 1
    x0, y0, x1, y1 = date[0].bbox
    # The ink of "02/28/20" spans x 108..171, y 15..29 in this crop.
    assert abs(x0 - 108) <= 3 and abs(x1 - 172) <= 3 and y0 >= 8 and y1 <= 34
    assert 0.0 <= date[0].confidence <= 1.0
    time = next(w for w in words if w.text == "14:21:20")
    assert time.line == date[0].line and time.bbox[0] > x1  # same line, reading order


@pytest.mark.parametrize("name", list(ENGINES))
def test_results_are_cached_by_pixels(name, monkeypatch):
    engine = get_engine(name)
    image = Image.open(FIXTURE)
    first = engine.words(image)
    monkeypatch.setattr(engine, "_recognise", lambda image: pytest.fail("recognised twice"))
    assert engine.words(image.copy()) == first


def test_image_key_depends_on_pixels_only():
    a = Image.new("RGB", (4, 4), "white")
    b = Image.new("RGB", (4, 4), "white")
    assert image_key(a) == image_key(b)
    b.putpixel((0, 0), (0, 0, 0))
    assert image_key(a) != image_key(b)
    assert image_key(a) != image_key(Image.new("RGB", (2, 8), "white"))


def test_unknown_engine():
    with pytest.raises(OcrUnavailable, match="unknown OCR engine 'abbyy'"):
        get_engine("abbyy")


def test_shipped_rapidocr_models_are_the_built_ones():
    """The engine runs the models in the package, byte for byte those the manifest records
    (benchmarks/build_ocr_models.py), and the recogniser's classes are its character list
    plus CTC's blank and the space, every one of them Latin-script or a Western symbol."""
    manifest = json.loads((MODELS_DIR / "manifest.json").read_text())
    for task, key in (("det", "Det.model_path"), ("rec", "Rec.model_path")):
        path = Path(RAPID_PARAMS[key])
        assert path.parent == MODELS_DIR and path.name == manifest[task]["file"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == manifest[task]["sha256"]
    rec = onnxruntime.InferenceSession(RAPID_PARAMS["Rec.model_path"], providers=["CPUExecutionProvider"])
    characters = rec.get_modelmeta().custom_metadata_map["character"].splitlines()
    (out,) = rec.run(None, {"x": np.zeros((1, 3, 48, 96), np.float32)})
    assert out.shape[2] == len(characters) + 2 == manifest["rec"]["classes"]
    assert all(ord(c) < 0x250 or 0x2000 <= ord(c) < 0x2150 for c in characters)
    assert set("0123456789@#$%&/-.,:;()'") <= set(characters)
    assert all(chr(c) in characters for c in range(ord("A"), ord("z") + 1) if chr(c).isalpha())


def test_the_detection_models_calibration_pages_are_what_the_synthesiser_draws(tmp_path):
    """The int8 detection model is calibrated on synthetic pages (benchmarks/build_ocr_models.py);
    a change to the synthesiser that redraws them leaves the shipped model one the script no
    longer builds, until it is run again."""
    calibration = json.loads((MODELS_DIR / "manifest.json").read_text())["calibration"]
    ids = synthesise(tmp_path, calibration["pages"], calibration["seed"], profile=calibration["profile"])
    assert pages_sha256(tmp_path, ids) == calibration["pages_sha256"], "run benchmarks/build_ocr_models.py"


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("size", [(2, 30_000), (30_000, 3), (10, 10)])
def test_a_sliver_or_a_speck_has_no_words_and_no_error(name, size):
    # a PDF page 1 pt wide renders to a sliver; RapidOCR raised on it, which stopped the whole batch
    assert get_engine(name).words(Image.new("RGB", size, "white")) == []


def _pieces(*parts: tuple[str, float, float]) -> list:
    from redact_agent.tools.ocr import Word

    return [Word(text, (x0, 100.0, x1, 120.0), 0.9, 0, 0) for text, x0, x1 in parts]


def test_pieces_rapidocr_splits_are_joined_and_words_are_not():
    from redact_agent.tools.ocr import _join_pieces

    def texts(*parts):
        return [w.text for w in _join_pieces(_pieces(*parts))]

    assert texts(("J", 10, 20), ("im", 22, 40), ("Quinn", 50, 90)) == ["Jim", "Quinn"]
    assert texts(("Client", 10, 50), ("M1", 60, 77), ("2168", 77, 108)) == ["Client", "M12168"]  # no gap
    assert texts(("INV-01", 10, 45), ("796", 45, 62)) == ["INV-01796"]
    assert texts(("M1", 60, 77), ("2168", 85, 108)) == ["M1", "2168"]  # a space's gap
    assert texts(("+1", 10, 22), ("639", 22, 45)) == ["+1", "639"]  # a phone's groups
    assert texts(("03/08/20", 10, 60), ("10:29", 61, 90)) == ["03/08/20", "10:29"]
    assert texts(("W", 10, 20), ("hite", 30, 60)) == ["White"]  # half a line height apart
    assert texts(("I", 10, 14), ("think", 20, 60)) == ["I", "think"]
    assert texts(("CLM-2017-", 10, 60), ("226", 70, 90)) == ["CLM-2017-226"]  # characters lost after a dash
    assert texts(("pre-", 10, 30), ("and", 35, 50)) == ["pre-", "and"]
    assert texts(("2017-", 10, 40), ("2018", 45, 70)) == ["2017-", "2018"]
    assert texts(("http://www.dou", 10, 90), ("glas.com", 90, 140)) == ["http://www.douglas.com"]
    assert texts(("jo@smith.net", 10, 90), ("sent", 90, 120)) == ["jo@smith.net", "sent"]  # a whole address


def test_a_middle_initial_glued_to_a_first_name_is_a_word_of_its_own():
    from redact_agent.tools.ocr import _split_initials

    words = _split_initials(_pieces(("EvanR.", 10, 70), ("Pennington", 80, 180), ("PhD.", 190, 230)))
    assert [w.text for w in words] == ["Evan", "R.", "Pennington", "PhD."]
    assert words[0].bbox[2] == words[1].bbox[0] == 50
