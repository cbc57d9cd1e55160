"""The scorer on the real dev pages of ../shared (skipped where that folder is absent)."""

import json
from pathlib import Path

import pytest

from redact_agent.eval.scorer import load_pairs, score_pages
from redact_agent.schema import default_schema

DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev" / "vrdu"
pytestmark = pytest.mark.skipif(not DEV.is_dir(), reason="../shared/data/dev/vrdu is not here")


def _write_predictions(pred_dir: Path, grow: float) -> None:
    for g in DEV.glob("*.json"):
        page = json.loads(g.read_text())
        w, h = page["width"], page["height"]
        preds = []
        for a in page["annotations"]:
            x0, y0, x1, y1 = a["bbox"]
            box = [max(0, x0 - grow), max(0, y0 - grow), min(w, x1 + grow), min(h, y1 + grow)]
            preds.append({"type": a["type"], "bbox": box, "value": a["value"]})
        (pred_dir / g.name).write_text(json.dumps({"page_id": page["page_id"], "valid": True, "predictions": preds}))


def test_gold_as_prediction_is_perfect_on_every_dev_page(tmp_path):
    _write_predictions(tmp_path, grow=0)
    loaded = load_pairs(DEV, tmp_path, default_schema())
    assert len(loaded.pairs) == 25 and not loaded.missing and not loaded.unreadable
    r = score_pages(loaded, default_schema(), [0.75])[0]
    assert r["exhaustive_pages"] == 24 and r["non_exhaustive_pages"] == 1
    assert r["f1_loc"] == 1.0 and r["f1_type"] == 1.0 and r["docleak_crit"] == 0.0 and r["docleak_all"] == 0.0
    assert r["value_accuracy"]["exact"] == 1.0


def test_loose_boxes_leak_by_iou_but_still_cover(tmp_path):
    """Boxes grown by 4 px, like untightened word boxes, miss IoU 0.75 on small text, yet the
    ink stays covered: exactly the gap docleak_crit_cover measures."""
    _write_predictions(tmp_path, grow=4)
    r = score_pages(load_pairs(DEV, tmp_path, default_schema()), default_schema(), [0.75])[0]
    assert r["docleak_crit"] > 0.5 and r["failures"]["low_iou"] > 0
    assert r["docleak_crit_cover"] == 0.0 and r["over_redaction"] > 0.2
