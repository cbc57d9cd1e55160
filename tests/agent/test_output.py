import json

import pytest

from redact_agent.agent.output import ModelOutput, validate_output
from redact_agent.coords import GEMINI_1000, ResizedPixels

W, H = 999, 1998


def _v(text, **kw):
    return validate_output(text, page_id="p1", width=kw.pop("width", W), height=kw.pop("height", H), **kw)


def _entities(*entities):
    return json.dumps({"entities": list(entities)})


GOOD = {"type": "PERSON_NAME", "value": "Ann Lee", "confidence": 0.9, "box_2d": [10, 20, 30, 40]}


def test_valid_output_becomes_pixel_predictions():
    page = _v(_entities(GOOD))
    assert page.valid and page.reason is None
    (p,) = page.predictions
    assert (p.type, p.value, p.confidence) == ("PERSON_NAME", "Ann Lee", 0.9)
    assert p.bbox == (10.0, 40.0, 30.0, 80.0)  # px = v / 999 * W with W = 999, H = 1998


def test_empty_entity_list_is_valid():
    page = _v('{"entities": []}')
    assert page.valid and page.predictions == []


@pytest.mark.parametrize(
    "text",
    [
        "```json\n" + _entities(GOOD) + "\n```",
        "```\n" + _entities(GOOD) + "\n```",
        "  \n```json\n" + _entities(GOOD) + "\n```\n",
    ],
)
def test_one_code_fence_is_accepted(text):
    assert _v(text).valid


@pytest.mark.parametrize(
    "text, reason",
    [
        ("", "not exactly one JSON object"),
        ("Here are the boxes: " + _entities(GOOD), "not exactly one JSON object"),
        (_entities(GOOD) + "\nI hope this helps.", "not exactly one JSON object"),
        (_entities(GOOD) + _entities(GOOD), "not exactly one JSON object"),
        ("```json\n" + _entities(GOOD) + "\n```\nDone.", "one markdown code fence"),
        ("```json\n" + _entities(GOOD) + "\n```\n```json\n{}\n```", "one markdown code fence"),
        ("[" + _entities(GOOD) + "]", "top level is a JSON list"),
        ('{"entities": [], "notes": "x"}', "Extra inputs"),
        ('{"entities": [], "entities": []}', "duplicate key"),
        ("{}", "entities: Field required"),
        (_entities({**GOOD, "type": "SSN"}), "unknown PII type 'SSN'"),
        (_entities({**GOOD, "type": "person_name"}), "unknown PII type"),
        (_entities({**GOOD, "colour": "red"}), "Extra inputs"),
        (_entities({**GOOD, "box_2d": [10.0, 20, 30, 40]}), "valid integer"),
        (_entities({**GOOD, "box_2d": [10.5, 20, 30, 40]}), "valid integer"),
        (_entities({**GOOD, "box_2d": ["10", 20, 30, 40]}), "valid integer"),
        (_entities({**GOOD, "box_2d": [True, 20, 30, 40]}), "valid integer"),
        (_entities({**GOOD, "box_2d": [10, 20, 30]}), "box_2d"),
        (_entities({**GOOD, "box_2d": [10, 20, 30, 1000]}), "outside 0..999"),
        (_entities({**GOOD, "box_2d": [-1, 20, 30, 40]}), "outside 0..999"),
        (_entities({**GOOD, "box_2d": [30, 20, 30, 40]}), "x0 < x1"),
        (_entities({**GOOD, "box_2d": [10, 40, 30, 40]}), "y0 < y1"),
        (_entities({**GOOD, "confidence": 1.5}), "less than or equal to 1"),
        (_entities({**GOOD, "confidence": -0.1}), "greater than or equal to 0"),
        ('{"entities": [{"type": "DATE", "box_2d": [1, 2, 3, 4], "confidence": NaN}]}', "NaN is not JSON"),
        (_entities({k: v for k, v in GOOD.items() if k != "box_2d"}), "box_2d: Field required"),
    ],
)
def test_any_violation_invalidates_the_whole_page(text, reason):
    page = _v(text)
    assert not page.valid and page.predictions == []
    assert reason in page.reason


def test_one_bad_entity_empties_the_page():
    page = _v(_entities(GOOD, {**GOOD, "box_2d": [0, 0, 1000, 10]}))
    assert not page.valid and page.predictions == []


def test_other_coordinate_spaces():
    gemini = _v(_entities({**GOOD, "box_2d": [200, 100, 400, 300]}), space=GEMINI_1000, width=1000, height=2000)
    assert gemini.predictions[0].bbox == (100, 400, 300, 800)
    bad = _v(_entities({**GOOD, "box_2d": [100, 200, 300, 400]}), space=ResizedPixels(250, 500))
    assert not bad.valid and "outside the 250x500 image" in bad.reason
    ok = _v(_entities({**GOOD, "box_2d": [100, 200, 250, 500]}), space=ResizedPixels(250, 500), width=500, height=1000)
    assert ok.predictions[0].bbox == (200, 400, 500, 1000)


def test_output_schema_is_strict_json_schema():
    schema = ModelOutput.model_json_schema()
    entity = schema["$defs"]["ModelEntity"]
    assert entity["additionalProperties"] is False and set(entity["required"]) == {"type", "box_2d"}
