import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from redact_agent.errors import InputError
from redact_agent.pages import GoldPage, PredictionPage, load_gold_page, load_prediction_page

FIXTURES = Path(__file__).parent / "fixtures" / "gold"


def _gold_dict():
    return json.loads((FIXTURES / "vrdu-adbuy-00c3353ea25f-p1.json").read_text())


def test_dev_gold_pages_load_with_their_provenance():
    exhaustive = load_gold_page(FIXTURES / "vrdu-adbuy-00c3353ea25f-p1.json")
    assert exhaustive.exhaustive and len(exhaustive.annotations) == 26 and exhaustive.width == 1275
    partial = load_gold_page(FIXTURES / "vrdu-adbuy-078b984c7349-p1.json")
    assert partial.exhaustive is False and partial.field_report == {
        "contract_num": 1,
        "advertiser": "not-found",
        "flight_from": 1,
        "flight_to": 1,
    }


def test_exhaustive_defaults_to_true():
    d = _gold_dict()
    del d["exhaustive"]
    assert GoldPage.model_validate(d).exhaustive is True


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(colour="red"), "Extra inputs"),
        (lambda d: d["annotations"][0].update(note="x"), "Extra inputs"),
        (lambda d: d["annotations"][0].update(type="SSN"), "unknown PII type 'SSN'"),
        (lambda d: d["annotations"][0].update(group="Direct"), "belongs to group Contextual"),
        (lambda d: d["annotations"][0].update(group="Secret"), "Direct"),
        (lambda d: d["annotations"][0].update(bbox=[938, 40, 1300, 54]), "outside"),
        (lambda d: d["annotations"][0].update(bbox=[938, 40, 938, 54]), "empty or inverted"),
        (lambda d: d["annotations"][1].update(id="a1"), "duplicate annotation id"),
        (lambda d: d.update(width=0), "greater than 0"),
        (lambda d: d.pop("annotations"), "Field required"),
    ],
)
def test_gold_page_rejects(mutate, message):
    d = _gold_dict()
    mutate(d)
    with pytest.raises(ValidationError, match=message):
        GoldPage.model_validate(d)


def test_prediction_page_rules():
    ok = {"page_id": "p", "valid": True, "predictions": [{"type": "DATE", "bbox": [1, 2, 3, 4], "confidence": 0.5}]}
    assert PredictionPage.model_validate(ok).predictions[0].confidence == 0.5
    with pytest.raises(ValidationError, match="empty prediction list"):
        PredictionPage.model_validate({**ok, "valid": False})
    with pytest.raises(ValidationError, match="less than or equal to 1"):
        PredictionPage.model_validate({**ok, "predictions": [{"type": "DATE", "bbox": [1, 2, 3, 4], "confidence": 2}]})
    with pytest.raises(ValidationError, match="unknown PII type"):
        PredictionPage.model_validate({**ok, "predictions": [{"type": "NAME", "bbox": [1, 2, 3, 4]}]})
    with pytest.raises(ValidationError, match="outside the 2x10 page"):
        PredictionPage.model_validate(ok, context={"width": 2, "height": 10})
    invalid = PredictionPage.invalid("p", "why")
    assert not invalid.valid and invalid.predictions == [] and invalid.reason == "why"


def test_loaders_name_the_file(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text("{not json")
    with pytest.raises(InputError, match=r"x\.json: not a valid gold page"):
        load_gold_page(bad)
    with pytest.raises(InputError, match=r"x\.json: not a valid prediction page"):
        load_prediction_page(bad)
    with pytest.raises(InputError, match="cannot read"):
        load_gold_page(tmp_path / "missing.json")
