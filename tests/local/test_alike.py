"""A found code's other printings are found by their look: a prediction whose box drifted off the
value takes the found one's, a printing the OCR did not read gets a prediction, and another number
of the same series does not."""

import numpy as np
from PIL import Image, ImageDraw

from redact_agent.boxes import as_array, iou_matrix
from redact_agent.local.alike import alike
from redact_agent.local.ink import grey, tighten
from redact_agent.pages import Prediction
from redact_agent.synth.canvas import font
from redact_agent.tools.ocr import Word

CODE = "CUST-7257657"


def _page(
    *lines: tuple[int, int, str], px: int = 22, fax: bool = False
) -> tuple[np.ndarray, list[tuple[float, float, float, float]]]:
    """A white page with `lines` printed at (x, y) in `px` type (black and white only: `fax`), and
    each line's ink box."""
    image = Image.new("RGB", (1800, 700), "white")
    draw = ImageDraw.Draw(image)
    f = font("serif", px)
    for x, y, text in lines:
        draw.text((x, y), text, font=f, fill="black")
    page = grey(np.asarray(image))
    page = np.where(page < 128, 0, 255).astype(np.uint8) if fax else page
    boxes = []
    for x, y, text in lines:
        x0, y0, x1, y1 = draw.textbbox((x, y), text, font=f)
        boxes.append(tighten(page, (x0 - 2, y0 - 2, x1 + 2, y1 + 2)))
    return page, boxes


def _found(box: tuple[float, float, float, float]) -> Prediction:
    return Prediction(type="CUSTOMER_ID", bbox=box, value=CODE, confidence=0.6, reason="the value of 'Acct #'")


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    return float(iou_matrix(as_array([a]), as_array([b]))[0, 0])


def test_a_repeat_whose_box_drifted_takes_the_found_ones():
    page, (first, second) = _page((60, 60, CODE), (300, 300, CODE))
    drifted = (second[0] - 40, second[1], second[2] - 40, second[3])  # the OCR's word box off the print
    out = alike(page, [_found(first), _found(drifted)], [])
    assert len(out) == 2 and _iou(out[1].bbox, second) > 0.9 and "by its look" in (out[1].reason or "")


def test_a_printing_the_ocr_did_not_read_gets_a_prediction_and_another_number_none():
    page, (first, second) = _page((60, 60, CODE), (300, 300, CODE))
    unread = alike(page, [_found(first)], [])
    assert [round(_iou(p.bbox, second), 1) for p in unread[1:]] == [1.0]
    garbled = alike(page, [_found(first)], [Word("CUST-72S7657", second, 0.9, 1, 1)])
    assert len(garbled) == 2  # a digit read as a letter: the value garbled
    other = alike(page, [_found(first)], [Word("CUST-7257658", second, 0.9, 1, 1)])
    assert len(other) == 1  # a digit read as another: another number of the series


def test_a_short_number_or_a_box_that_cuts_its_glyphs_is_no_template():
    page, (first, _) = _page((60, 60, "C-1234"), (300, 300, "C-1234"))
    short = Prediction(type="CUSTOMER_ID", bbox=first, value="C-1234", confidence=0.6)
    assert len(alike(page, [short], [])) == 1
    page, (first, _) = _page((60, 60, CODE), (300, 300, CODE))
    cut = (first[0] + 6, first[1], first[2], first[3])  # its first glyph cut
    assert len(alike(page, [_found(cut)], [])) == 1


def test_another_printed_form_is_not_the_found_ones_look():
    # Entities seed 433: "+1 646 335 7853" matched "646.335.7853" at 0.8 with its "+1" over the
    # paper before it; each half of the template must match too.
    page, (first, _) = _page((60, 60, "+1 646 335 7853"), (300, 300, "646.335.7853"))
    found = Prediction(type="PHONE_NUMBER", bbox=first, value="+1 646 335 7853", confidence=0.9)
    assert len(alike(page, [found], [])) == 1
    # Entities seed 511, a fax at 300 dpi: "+1 687 691 2213" over "687.691.2213" matched 0.9, each
    # half too; the "+1" lies over paper there.
    page, (first, _) = _page((60, 60, "+1 687 691 2213"), (300, 300, "687.691.2213"), px=48, fax=True)
    found = Prediction(type="PHONE_NUMBER", bbox=first, value="+1 687 691 2213", confidence=0.9)
    assert len(alike(page, [found], [])) == 1
