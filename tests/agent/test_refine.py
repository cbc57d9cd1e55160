import json

import numpy as np
import pytest
from PIL import Image, ImageDraw

from redact_agent.agent.refine import snap_to_ocr, union
from redact_agent.cli import main
from redact_agent.local.ink import grey
from redact_agent.pages import Prediction
from redact_agent.tools.ocr import Word


@pytest.fixture
def page():
    img = Image.new("RGB", (400, 100), "white")
    d = ImageDraw.Draw(img)
    d.rectangle((50, 40, 89, 54), fill="black")  # the ink of word A
    d.rectangle((100, 40, 139, 54), fill="black")  # word B
    return img


WORDS = [Word("A", (48.0, 36.0, 92.0, 58.0), 0.9, 0, 0), Word("B", (98.0, 36.0, 142.0, 58.0), 0.9, 0, 0)]


def test_snap_replaces_a_loose_box_by_the_ink_of_the_words_it_covers(page):
    loose = Prediction(type="PERSON_NAME", bbox=(40.0, 30.0, 150.0, 70.0))
    (snapped,) = snap_to_ocr([loose], WORDS, grey(np.asarray(page)))
    assert snapped.bbox == (50.0, 40.0, 140.0, 55.0) and snapped.type == "PERSON_NAME"
    # Covering less than half of a word does not take it.
    (half,) = snap_to_ocr([Prediction(type="DATE", bbox=(40.0, 30.0, 100.0, 70.0))], WORDS, grey(np.asarray(page)))
    assert half.bbox == (50.0, 40.0, 90.0, 55.0)
    # Over no word: tightened to its own ink.
    (alone,) = snap_to_ocr([Prediction(type="DATE", bbox=(45.0, 35.0, 95.0, 60.0))], [], grey(np.asarray(page)))
    assert alone.bbox == (50.0, 40.0, 90.0, 55.0)


def test_union_adds_only_what_the_model_missed():
    model = [Prediction(type="DATE", bbox=(0.0, 0.0, 10.0, 10.0))]
    local = [
        Prediction(type="DATE", bbox=(1.0, 0.0, 10.0, 10.0)),
        Prediction(type="PHONE_NUMBER", bbox=(50.0, 0.0, 60.0, 10.0)),
    ]
    assert [p.type for p in union(model, local)] == ["DATE", "PHONE_NUMBER"]
    assert union([], local) == local and union(model, []) == model


def test_scorer_can_score_raw_or_refined_predictions(tmp_path):
    gold_dir, pred_dir = tmp_path / "g", tmp_path / "p"
    gold_dir.mkdir()
    pred_dir.mkdir()
    gold = {
        "page_id": "x",
        "image": "x.png",
        "width": 100,
        "height": 100,
        "source": "t",
        "annotations": [{"id": "a1", "type": "DATE", "group": "Contextual", "bbox": [10, 10, 30, 20]}],
    }
    (gold_dir / "x.json").write_text(json.dumps(gold))
    pred = {
        "page_id": "x",
        "valid": True,
        "predictions": [{"type": "DATE", "bbox": [10, 10, 30, 20]}],
        "raw_predictions": [{"type": "DATE", "bbox": [5, 5, 40, 30]}],
    }
    (pred_dir / "x.json").write_text(json.dumps(pred))
    for which, expected in (("final", 0.0), ("raw", 1.0)):
        out = tmp_path / f"{which}.json"
        assert main(["score", str(gold_dir), str(pred_dir), "--predictions", which, "--json", str(out)]) == 0
        assert json.loads(out.read_text())["docleak_all"] == expected


def test_cli_refine_and_union_keep_the_raw_boxes(tmp_path):
    from pathlib import Path

    from redact_agent.agent.scripted import ScriptedServer, Step

    src = Path(__file__).parent.parent / "fixtures" / "form-block.png"  # 830 x 160: "Order / Rev: 14086" ...
    # A loose box around "14086" (ink 189..234 x 13..25) on the 0-999 grid.
    loose = {"type": "CONTRACT_NUMBER", "value": "14086", "box_2d": [220, 50, 290, 200]}
    args = ["--backend", "vllm", "--model", "m", "--no-cache", "--refine", "ocr-snap", "--union", "local"]
    with ScriptedServer([Step(json.dumps({"entities": [loose]}))]) as server:
        assert main([str(src), "-o", str(tmp_path), "--base-url", server.url, *args]) == 0
    page = json.loads((tmp_path / "form-block.json").read_text())
    assert page["engine"] == "vlm:single:m+ocr-snap+local"
    (raw,) = page["raw_predictions"]
    snapped = page["predictions"][0]
    assert raw["bbox"] != snapped["bbox"] and snapped["bbox"] == pytest.approx([189, 13, 234, 25], abs=2)
    assert {p["value"] for p in page["predictions"][1:]} >= {"David Cisco"}  # added by the local engine
