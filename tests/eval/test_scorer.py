import json
import shutil
from pathlib import Path

import pytest

from redact_agent.cli import main
from redact_agent.errors import InputError
from redact_agent.eval.scorer import load_pairs
from redact_agent.schema import default_schema

FIXTURES = Path(__file__).parent.parent / "fixtures" / "gold"
PAPER_KEYS = [
    "tau",
    "pages",
    "valid",
    "f1_loc",
    "f1_type",
    "docleak_all",
    "docleak_crit",
    "docleak_all_agnostic",
    "docleak_crit_agnostic",
    "groups",
    "severity",
]


@pytest.fixture
def dirs(tmp_path):
    gold_dir, pred_dir = tmp_path / "gold", tmp_path / "pred"
    shutil.copytree(FIXTURES, gold_dir)
    pred_dir.mkdir()
    return gold_dir, pred_dir


def _perfect(gold_path: Path, pred_dir: Path) -> None:
    g = json.loads(gold_path.read_text())
    preds = [{"type": a["type"], "bbox": a["bbox"], "value": a.get("value")} for a in g["annotations"]]
    (pred_dir / gold_path.name).write_text(json.dumps({"page_id": g["page_id"], "valid": True, "predictions": preds}))


def test_missing_unreadable_and_orphan_prediction_files(dirs):
    gold_dir, pred_dir = dirs
    (pred_dir / "vrdu-adbuy-00c3353ea25f-p1.json").write_text('{"page_id": "vrdu-adbuy-00c3353ea25f-p1"}')
    (pred_dir / "stray.json").write_text("{}")
    loaded = load_pairs(gold_dir, pred_dir, default_schema())
    assert loaded.missing == ["vrdu-adbuy-078b984c7349-p1"]
    assert list(loaded.unreadable) == ["vrdu-adbuy-00c3353ea25f-p1"]
    assert loaded.orphans == ["stray"]
    assert all(not p.pred.valid for p in loaded.pairs)
    assert "Field required" in loaded.pairs[0].pred.reason


def test_prediction_outside_the_gold_page_invalidates_it(dirs):
    gold_dir, pred_dir = dirs
    page = {
        "page_id": "vrdu-adbuy-00c3353ea25f-p1",
        "valid": True,
        "predictions": [{"type": "DATE", "bbox": [0, 0, 1276, 5]}],
    }
    (pred_dir / "vrdu-adbuy-00c3353ea25f-p1.json").write_text(json.dumps(page))
    loaded = load_pairs(gold_dir, pred_dir, default_schema())
    assert "outside the 1275x1651 page" in loaded.unreadable["vrdu-adbuy-00c3353ea25f-p1"]


def test_page_id_mismatch_in_a_prediction_file(dirs):
    gold_dir, pred_dir = dirs
    (pred_dir / "vrdu-adbuy-00c3353ea25f-p1.json").write_text('{"page_id": "other", "valid": true, "predictions": []}')
    loaded = load_pairs(gold_dir, pred_dir, default_schema())
    assert "does not match the gold page" in loaded.unreadable["vrdu-adbuy-00c3353ea25f-p1"]


def test_bad_gold_is_fatal(dirs, tmp_path):
    gold_dir, pred_dir = dirs
    (gold_dir / "broken.json").write_text("{")
    with pytest.raises(InputError, match=r"broken\.json: not a valid gold page"):
        load_pairs(gold_dir, pred_dir, default_schema())
    with pytest.raises(InputError, match="no gold pages"):
        load_pairs(pred_dir, pred_dir, default_schema())
    with pytest.raises(InputError, match="does not exist"):
        load_pairs(tmp_path / "nope", pred_dir, default_schema())


def test_cli_json_has_the_paper_keys_first(dirs, tmp_path, capsys):
    gold_dir, pred_dir = dirs
    for g in gold_dir.glob("*.json"):
        _perfect(g, pred_dir)
    out = tmp_path / "scores.json"
    assert main(["score", str(gold_dir), str(pred_dir), "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert list(result)[: len(PAPER_KEYS)] == PAPER_KEYS
    assert result["f1_loc"] == 1.0 and result["docleak_crit"] == 0.0 and result["valid"] == 1.0
    printed = capsys.readouterr().out
    assert "F1loc" in printed and "DocLeak_crit" in printed and "1 not" in printed


def test_cli_several_taus_and_sweep_give_a_list(dirs, tmp_path):
    gold_dir, pred_dir = dirs
    out = tmp_path / "s.json"
    assert main(["score", str(gold_dir), str(pred_dir), "--tau", "0.6", "--sweep", "--json", str(out)]) == 0
    assert [r["tau"] for r in json.loads(out.read_text())] == [0.5, 0.6, 0.75, 0.95]


def test_cli_options_pq_supported_and_schema(dirs, tmp_path):
    gold_dir, pred_dir = dirs
    types_file = tmp_path / "types.txt"
    types_file.write_text("# what the system knows\nDATE\nCONTRACT_NUMBER, PERSON_NAME\n")
    out = tmp_path / "s.json"
    args = ["score", str(gold_dir), str(pred_dir), "--match", "pq", "--supported", str(types_file), "--json", str(out)]
    assert main(args) == 0
    result = json.loads(out.read_text())
    assert result["supported"]["types"] == ["CONTRACT_NUMBER", "DATE", "PERSON_NAME"] and "pq" in result
    assert main(["score", str(gold_dir), str(pred_dir), "--supported", "DATE,PERSON_NAME"]) == 0


def test_cli_errors_exit_2_with_one_line(dirs, capsys):
    gold_dir, pred_dir = dirs
    assert main(["score", str(gold_dir), str(pred_dir), "--supported", "SSN"]) == 2
    assert "unknown PII type 'SSN'" in capsys.readouterr().err
    assert main(["score", str(gold_dir / "nope"), str(pred_dir)]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["score", str(gold_dir), str(pred_dir), "--tau", "1.5"])
    assert exc.value.code == 2
