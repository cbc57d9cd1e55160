"""The bench harness: system specs, run folders and resume, the paired bootstrap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from redact_agent.bench import runner
from redact_agent.bench.compare import compare
from redact_agent.bench.runner import run_id, run_system
from redact_agent.cli import main
from redact_agent.errors import InputError
from redact_agent.pages import Finding, Prediction, PredictionPage, load_gold_page
from redact_agent.schema import default_schema
from redact_agent.synth.corpus import synthesise
from redact_agent.systems import SystemSpec, load_experiment, parse_spec
from redact_agent.tools.ocr import rapid_models


def test_specs_parse_into_systems() -> None:
    assert parse_spec("local:tools") == SystemSpec(backend="local", mode="tools")
    assert parse_spec("local:single:ocr=tesseract").ocr == "tesseract"
    s = parse_spec("openai:gpt-5.5:tools:prompt=v2:refine=ocr-snap:retries=1")
    assert (s.model, s.mode, s.prompt, s.refine, s.retries) == ("gpt-5.5", "tools", "v2", "ocr-snap", 1)
    assert s.slug == "openai-gpt-5.5-tools-prompt-v2-refine-ocr-snap-retries-1"
    v = parse_spec("vllm:Qwen/Qwen3-VL-8B-Instruct:single:base_url=http://127.0.0.1:8000/v1")
    assert v.base_url == ("http://127.0.0.1:8000/v1",) and v.slug == "vllm-Qwen-Qwen3-VL-8B-Instruct-single"


@pytest.mark.parametrize(
    "text",
    ["", "gemini:x:single", "local", "local:fast", "openai:gpt:single:extra", "openai:gpt:single:temp=0",
     "local:single:prompt=v2", "local:single:ocr=easyocr", "openai:gpt:prompt=v2:single", "local:single:base_url=x",
     "openai:gpt:single:retries=two"],
)  # fmt: skip
def test_bad_specs_are_clear_errors(text: str) -> None:
    with pytest.raises(InputError, match="system"):
        parse_spec(text)


def test_an_experiment_file_crosses_its_varied_fields(tmp_path: Path) -> None:
    path = tmp_path / "grid.yaml"
    path.write_text(
        "fixed: {backend: vllm, model: Qwen/Qwen3-VL-8B-Instruct, base_url: 'http://127.0.0.1:8000/v1'}\n"
        "vary: {mode: [single, tools], prompt: [v1, v2], retries: [0, 1]}\n"
    )
    specs = load_experiment(path)
    assert len(specs) == 8 and len({s.slug for s in specs}) == 8
    assert {(s.mode, s.prompt, s.retries) for s in specs} == {
        (m, p, r) for m in ("single", "tools") for p in ("v1", "v2") for r in (0, 1)
    }
    assert all(s.base_url == ("http://127.0.0.1:8000/v1",) for s in specs)
    for bad in ("vary: {mode: single}", "fixed: {backend: local}\nvary: {colour: [red]}", "other: 1",
                "fixed: {backend: local}\nvary: {mode: [fast]}", "fixed: [1, 2"):  # fmt: skip
        path.write_text(bad)
        with pytest.raises(InputError):
            load_experiment(path)


class CountingFinder:
    """Predicts each page's gold boxes, less its first item; counts the pages it was asked."""

    def __init__(self, data: Path, drop: int = 1) -> None:
        self.data, self.drop, self.calls = data, drop, 0

    @property
    def name(self) -> str:
        return "counting"

    def find_page(self, page_id: str, image: Image.Image) -> Finding:
        self.calls += 1
        gold = load_gold_page(self.data / f"{page_id}.json")
        preds = [Prediction(type=a.type, bbox=a.bbox) for a in gold.annotations[self.drop :]]
        transcript = [{"role": "assistant", "tool_calls": [{}, {}], "usage": {"prompt_tokens": 7}}]
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=preds), transcript)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bench-data")
    synthesise(out, 5, seed=2, workers=1)
    return out


def _run(data: Path, runs: Path, finder: CountingFinder, spec: SystemSpec, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(SystemSpec, "finder", lambda self, policy, *a, **k: finder)
    return run_system(data, spec, runs, default_schema())


def test_a_run_folder_holds_samples_predictions_record_and_report(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = parse_spec("local:single")
    run = _run(data, tmp_path, CountingFinder(data), spec, monkeypatch)
    assert run.name == run_id(data, spec)
    samples = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    assert len(samples) == 5 and len(list((run / "predictions").glob("*.json"))) == 5
    assert all(s["metrics"]["leak_all"] == 1 and s["tool_calls"] == 2 and s["tokens"] == 7 for s in samples)
    record = json.loads((run / "run.json").read_text())
    assert record["system"] == {"backend": "local", "mode": "single", "prompt": "v1", "ocr": "rapidocr", "retries": 0}
    assert record["scores"]["docleak_all"] == 1.0 and record["cost"]["tool_calls_per_page"] == 2
    assert record["rapidocr_models"] == rapid_models() and len(record["rapidocr_models"]["det"]) == 64
    assert "| local-single-" in (run / "report.md").read_text()
    assert [r["tau"] for r in record["iou_sweep"]] == [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]
    for plot in ("leakage_by_group", "iou_sweep", "missed_critical", "per_type_f1"):
        with Image.open(run / f"{plot}.png") as im:
            assert im.format == "PNG" and im.width > 100


def test_an_interrupted_run_resumes_where_it_stopped(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = parse_spec("local:tools")
    first = CountingFinder(data)
    run = _run(data, tmp_path, first, spec, monkeypatch)
    lines = (run / "samples.jsonl").read_text().splitlines()
    (run / "samples.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:15])  # killed mid-write
    again = CountingFinder(data)
    _run(data, tmp_path, again, spec, monkeypatch)
    assert again.calls == 3  # the torn line and the two never written
    record = json.loads((run / "run.json").read_text())
    assert record["pages"] == 5
    done = CountingFinder(data)
    _run(data, tmp_path, done, spec, monkeypatch)
    assert done.calls == 0


def test_another_build_of_the_same_version_is_another_run(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # an edited checkout keeps its version: a rerun after an edit must not reuse the old pages
    spec = parse_spec("local:single")
    before = run_id(data, spec)
    monkeypatch.setattr(runner, "build", lambda: "edited")
    assert run_id(data, spec) != before


def test_overlays_show_the_flipped_pages(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _run(data, tmp_path, CountingFinder(data, drop=3), parse_spec("local:single"), monkeypatch)
    b = _run(data, tmp_path, CountingFinder(data, drop=0), parse_spec("local:tools"), monkeypatch)
    flipped = compare(a, b, replicates=100)["flips"]["became_safe"]
    assert flipped  # dropping three items leaks a critical one somewhere
    assert main(["bench", "compare", str(a), str(b), "--overlays", str(tmp_path / "ov")]) == 0
    assert f"{len(flipped)} overlays" in capsys.readouterr().out
    gold = load_gold_page(data / f"{flipped[0]}.json")
    with Image.open(tmp_path / "ov" / f"{flipped[0]}.png") as im:
        assert im.size == (2 * gold.width + 20, gold.height)
        x0, y0, _, y1 = (int(v) for v in gold.annotations[0].bbox)
        w = max(2, gold.width // 400)
        assert im.getpixel((x0 - w, (y0 + y1) // 2)) == (220, 0, 200)  # missed by A: magenta
        assert im.getpixel((gold.width + 20 + x0 - w, (y0 + y1) // 2)) == (0, 160, 0)  # matched by B: green


def _fake_run(path: Path, pages: list[dict[str, Any]]) -> Path:
    path.mkdir(parents=True)
    lines = [json.dumps({"page_id": f"p{i}", "metrics": m}) for i, m in enumerate(pages)]
    (path / "samples.jsonl").write_text("\n".join(lines) + "\n")
    return path


def _page(f1: float | None, leak: int | None, types: dict[str, list[int]]) -> dict[str, Any]:
    return {"f1_loc": f1, "leak_crit": leak, "leak_all": leak, "types": types}


def test_bootstrap_deltas_are_paired_and_their_interval_holds_the_point(tmp_path: Path) -> None:
    a = _fake_run(tmp_path / "a", [_page(0.5, 1, {"DATE": [2, 2, 1]}), _page(1.0, 0, {"DATE": [1, 1, 1]}),
                                   _page(None, None, {}), _page(0.0, 1, {"PERSON_NAME": [1, 0, 0]})])  # fmt: skip
    b = _fake_run(tmp_path / "b", [_page(1.0, 0, {"DATE": [2, 2, 2]}), _page(1.0, 0, {"DATE": [1, 1, 1]}),
                                   _page(None, None, {}), _page(0.0, 1, {"PERSON_NAME": [1, 1, 0]})])  # fmt: skip
    r = compare(a, b, replicates=500, seed=1)
    m = r["metrics"]
    assert m["f1_loc"]["a"] == pytest.approx(0.5) and m["f1_loc"]["delta"] == pytest.approx(0.5 / 3)
    assert m["docleak_crit"]["a"] == pytest.approx(2 / 3) and m["docleak_crit"]["delta"] == pytest.approx(-1 / 3)
    # F1type pooled per type: A DATE 2*2/6, PERSON 0 -> mean 1/3; B DATE 2*3/6 = 1, PERSON 0/2 -> mean 0.5
    assert m["f1_type"]["a"] == pytest.approx(1 / 3) and m["f1_type"]["b"] == pytest.approx(0.5)
    for k in ("f1_loc", "docleak_crit", "f1_type"):
        lo, hi = m[k]["ci95"]
        assert lo <= m[k]["delta"] <= hi and lo < hi
    assert r["flips"] == {"became_safe": ["p0"], "became_leaking": []}
    assert r["per_type"]["DATE"]["delta"] == pytest.approx(1.0 - 4 / 6)
    same = compare(a, a, replicates=200)["metrics"]["f1_loc"]
    assert same["delta"] == 0 and same["ci95"] == [0.0, 0.0]
    assert compare(a, b, replicates=200, seed=3) == compare(a, b, replicates=200, seed=3)


def test_bootstrap_interval_narrows_with_more_pages(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)

    def runs(n: int, name: str) -> tuple[Path, Path]:
        xs = rng.uniform(0, 1, n)
        a = _fake_run(tmp_path / f"{name}a", [_page(float(x), None, {}) for x in xs])
        b = _fake_run(tmp_path / f"{name}b", [_page(float(min(1, x + rng.normal(0.05, 0.1))), None, {}) for x in xs])
        return a, b

    small, large = compare(*runs(10, "s"), replicates=400), compare(*runs(400, "l"), replicates=400)
    width = [r["metrics"]["f1_loc"]["ci95"][1] - r["metrics"]["f1_loc"]["ci95"][0] for r in (small, large)]
    assert width[1] < width[0] / 3


def test_cli_bench_and_compare_on_the_real_engine(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = tmp_path / "runs"
    systems = ["--system", "local:single:ocr=tesseract", "--system", "local:tools:ocr=tesseract"]
    assert main(["bench", str(data), *systems, "-o", str(runs)]) == 0
    out = capsys.readouterr().out
    assert "| local-single-ocr-tesseract-" in out and "| local-tools-ocr-tesseract-" in out
    a, b = sorted(runs.iterdir())
    assert main(["bench", "compare", str(a), str(b), "--json", str(tmp_path / "c.json")]) == 0
    assert "95% CI" in capsys.readouterr().out and json.loads((tmp_path / "c.json").read_text())["pages"] == 5
    assert main(["bench", str(data), "--system", "local:nope"]) == 2
    assert main(["bench", str(data)]) == 2  # neither --system nor --experiment
    assert main(["bench", "compare", str(a), str(tmp_path / "missing")]) == 2
