"""A page printed sideways or upside down is read turned upright, and its boxes land on the page
as given."""

import pytest
from PIL import Image, ImageDraw, ImageFont

from redact_agent.local.engine import LocalEngine
from redact_agent.local.orientation import TURNS, sideways, turned_back, upright
from redact_agent.pages import Prediction
from redact_agent.policy import load_policy
from redact_agent.tools.ocr import get_engine

LINES = ["Contact: Mary Johnson", "Phone: (312) 555-0199", "Invoice No. INV-204871", "Thank you for your order"]
LEFT, RIGHT = TURNS
HALF = Image.Transpose.ROTATE_180
OTHER_WAY = {LEFT: RIGHT, RIGHT: LEFT, HALF: HALF}


def _landscape() -> Image.Image:
    page = Image.new("RGB", (1400, 700), "white")
    draw = ImageDraw.Draw(page)
    for k, line in enumerate(LINES):
        draw.text((60, 60 + 60 * k), line, fill="black", font=ImageFont.load_default(size=26))
    return page


def _value(p: Prediction) -> str:
    return p.value or ""


@pytest.mark.parametrize("turn", [*TURNS, HALF])
def test_a_box_turned_back_lands_where_it_was(turn):
    page = Image.new("L", (300, 200), 255)
    ImageDraw.Draw(page).rectangle((50, 30, 119, 59), fill=0)
    turned = page.transpose(turn)
    ink = turned.point(lambda v: 255 - v).getbbox()  # the box on the turned page
    assert turned_back(ink, turn, page.size) == (50, 30, 120, 60)


@pytest.mark.parametrize("turn", [*TURNS, HALF])
def test_a_sideways_or_upside_down_page_is_read_upright_and_its_boxes_turned_back(turn):
    engine = LocalEngine(policy=load_policy("all"))
    level = _landscape()
    expected = engine.predict(level)
    page = level.transpose(turn)  # the landscape form printed on a portrait page, or fed upside down
    assert sideways(get_engine().words(page)) == (turn != HALF) and not sideways(get_engine().words(level))
    assert upright(level, get_engine()).turn is None and upright(page, get_engine()).turn == OTHER_WAY[turn]
    got = engine.predict(page)
    assert sorted((p.type, p.value) for p in got) == sorted((p.type, p.value) for p in expected)
    assert {"PERSON_NAME", "PHONE_NUMBER", "INVOICE_NUMBER"} <= {p.type for p in got}
    for g, e in zip(sorted(got, key=_value), sorted(expected, key=_value), strict=True):
        on_page = turned_back(e.bbox, OTHER_WAY[turn], page.size)
        assert all(abs(a - b) <= 2 for a, b in zip(g.bbox, on_page, strict=True)), (g, on_page)
