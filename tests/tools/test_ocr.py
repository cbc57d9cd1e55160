"""Both offline OCR engines on a real crop of a dev page (tests/fixtures/print-date.png)."""

from pathlib import Path

import pytest
from PIL import Image

from redact_agent.tools.ocr import ENGINES, OcrUnavailable, get_engine, image_key

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
