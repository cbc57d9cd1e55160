"""`redact-agent bench DATA_DIR --system SPEC...`: run systems on a gold page set, one run
folder each, resumable.

`RUNS_DIR/<run_id>/` holds `predictions/<page_id>.json`, `samples.jsonl` (one line per page,
appended and flushed as each page finishes), `run.json` (the system, its prompt and hash,
versions, scores, cost) and `report.md`. The run id is the system's slug plus a hash of the
data folder, the full spec, the run protocol and the package version, so the same bench of the
same build on the same data reuses its folder: pages
already in `samples.jsonl` are not run again, and a VLM's replies come from the response cache.
"""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import time
from collections.abc import Callable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from redact_agent import __version__
from redact_agent.bench.plots import plot_run
from redact_agent.bench.samples import page_metrics, read_samples, usage
from redact_agent.errors import BackendUnavailable, RedactAgentError
from redact_agent.eval.page_eval import evaluate, prepare
from redact_agent.eval.scorer import load_pairs, score_pages
from redact_agent.images import open_image
from redact_agent.linking import link
from redact_agent.pages import PredictionPage, gold_paths, load_gold_page
from redact_agent.policy import load_policy
from redact_agent.protocol import PROTOCOL
from redact_agent.redact import write_atomic
from redact_agent.schema import Schema
from redact_agent.systems import Finder, SystemSpec
from redact_agent.tables import markdown, number
from redact_agent.tools.ocr import clear_caches, rapid_models

_PACKAGES = ("rapidocr", "onnxruntime", "tesserocr", "openai", "numpy", "pillow")


@cache
def build() -> str:
    """A hash of the package's files: a change to the code or its data is another build, also
    while the version stays the same (a bench rerun after an edit must not reuse the old pages).
    The OCR models are left to their manifest, which records each one's sha256 (a test checks
    they agree): hashing their 15 MB took most of a second at every bench start."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    files = (p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".onnx")
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def run_id(data_dir: Path, spec: SystemSpec) -> str:
    """The system's slug and a hash of the data, the system, the protocol, the package version and
    its build, so that a resumed run never mixes two builds or two protocols."""
    key = json.dumps(
        {
            "data": str(data_dir.resolve()),
            "system": spec.as_json(),
            "protocol": PROTOCOL.as_json(),
            "version": __version__,
            "build": build(),
        },
        sort_keys=True,
    )
    return f"{spec.slug}-{hashlib.sha256(key.encode()).hexdigest()[:8]}"


def run_system(
    data_dir: Path, spec: SystemSpec, runs_dir: Path, schema: Schema, progress: Callable[[str], None] | None = None
) -> Path:
    """Run (or resume) one system; a system that fails before its first page leaves no folder."""
    run_dir = runs_dir / run_id(data_dir, spec)
    predictions = run_dir / "predictions"
    samples_path = run_dir / "samples.jsonl"
    _drop_torn_line(samples_path)
    done = read_samples(samples_path)
    golds = gold_paths(data_dir)
    todo = [g for g in golds if g.stem not in done]
    if todo:
        clear_caches()  # seconds per page are this system's own, not read from an earlier one
        finder = spec.finder(load_policy("all"))  # exhaustive gold covers every group
        new = not run_dir.exists()
        try:
            predictions.mkdir(parents=True, exist_ok=True)
            with samples_path.open("a", encoding="utf-8") as out:
                for path in todo:
                    out.write(json.dumps(_run_page(data_dir, path, finder, predictions, schema)) + "\n")
                    out.flush()
                    if progress:
                        progress(path.stem)
        except BaseException:
            if new and not read_samples(samples_path):
                shutil.rmtree(run_dir, ignore_errors=True)
            raise
        finally:
            finder.close()
    _finish(data_dir, spec, run_dir, schema)
    return run_dir


def _drop_torn_line(path: Path) -> None:
    """An interrupted run may leave half a line at the end; it is cut, and that page runs again."""
    if path.exists():
        text = path.read_bytes()
        if text and not text.endswith(b"\n"):
            path.write_bytes(text[: text.rfind(b"\n") + 1])


def _run_page(data_dir: Path, path: Path, finder: Finder, predictions: Path, schema: Schema) -> dict[str, Any]:
    gold = load_gold_page(path, schema)
    start = time.perf_counter()
    try:
        finding = finder.find_page(gold.page_id, open_image(data_dir / gold.image))
        page, calls = finding.page, usage(finding)
        page = page.model_copy(update={"predictions": link(page.predictions)})  # each page its own scope
        sent = next((t.get("sha256") for t in finding.transcript if t.get("role") == "system"), None)
    except BackendUnavailable:
        raise  # every page would fail the same way
    except RedactAgentError as exc:  # a page that cannot be read or answered counts as missed
        page = PredictionPage(page_id=gold.page_id, valid=False, predictions=[], reason=str(exc))
        calls, sent = {"model_calls": 0, "tool_calls": 0, "tokens": 0}, None
    seconds = time.perf_counter() - start
    write_atomic(predictions / f"{gold.page_id}.json", page.model_dump_json(exclude_none=True).encode())
    metrics = page_metrics(evaluate(prepare(gold, page, schema), "iou", PROTOCOL.tau), schema)
    return {
        "page_id": gold.page_id,
        "valid": page.valid,
        "reason": page.reason,
        "predictions": len(page.predictions),
        "seconds": round(seconds, 3),
        **calls,
        "prompt_sha256": sent,
        "metrics": metrics,
    }


def _finish(data_dir: Path, spec: SystemSpec, run_dir: Path, schema: Schema) -> None:
    samples = list(read_samples(run_dir / "samples.jsonl").values())
    results = score_pages(
        load_pairs(data_dir, run_dir / "predictions", schema), schema, sorted({PROTOCOL.tau, *PROTOCOL.plot_sweep})
    )
    scores = next(r for r in results if r["tau"] == PROTOCOL.tau)
    sweep = [{k: r[k] for k in ("tau", "f1_loc", "f1_type", "docleak_all", "docleak_crit")} for r in results]
    n = max(1, len(samples))
    cost = {
        "seconds_per_page": sum(s["seconds"] for s in samples) / n,
        **{f"{k}_per_page": sum(s[k] for s in samples) / n for k in ("model_calls", "tool_calls", "tokens")},
    }
    record = {
        "run_id": run_dir.name,
        "system": spec.as_json(),
        "prompt": _prompt_record(spec, samples),
        "data_dir": str(data_dir.resolve()),
        "pages": len(samples),
        "versions": {"redact_agent": __version__, "build": build(), "python": platform.python_version(), **_versions()},
        "rapidocr_models": rapid_models(),
        "protocol": PROTOCOL.as_json(),
        "scores": scores,
        "iou_sweep": sweep,
        "cost": cost,
    }
    write_atomic(run_dir / "run.json", (json.dumps(record, indent=2) + "\n").encode())
    write_atomic(run_dir / "report.md", report([record]).encode())
    plot_run(run_dir, scores, sweep, samples)


def _prompt_record(spec: SystemSpec, samples: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The prompt's name and the sha256 of each distinct text it sent (from the transcripts)."""
    if spec.backend == "local":
        return None
    return {"name": spec.prompt, "sha256": sorted({s["prompt_sha256"] for s in samples if s.get("prompt_sha256")})}


def _versions() -> dict[str, str]:
    out = {}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def report(records: list[dict[str, Any]]) -> str:
    """The paper-style table, one row per run, with cost columns and the failure causes."""
    columns = ["system", "pages", "F1loc", "F1type", "DocLeak_all", "DocLeak_crit", "Valid", "s/page", "calls/page",
               "tools/page", "tokens/page"]  # fmt: skip
    rows = []
    for r in records:
        s, c = r["scores"], r["cost"]
        cells = [r["run_id"], str(r["pages"])] + [number(s[k]) for k in ("f1_loc", "f1_type", "docleak_all",
                 "docleak_crit", "valid")]  # fmt: skip
        cells += [f"{c['seconds_per_page']:.2f}", f"{c['model_calls_per_page']:.1f}", f"{c['tool_calls_per_page']:.1f}",
                  f"{c['tokens_per_page']:.0f}"]  # fmt: skip
        rows.append(cells)
    lines = markdown(columns, rows)
    lines += ["", f"Leaked critical items by cause (tau {PROTOCOL.tau}):", ""]
    for r in records:
        causes = ", ".join(f"{k} {v}" for k, v in r["scores"]["failures"].items())
        lines.append(f"- {r['run_id']}: {causes}")
    lines += ["", "Page leakage by group (typed):", ""]
    for r in records:
        groups = ", ".join(f"{g} {number(v)}" for g, v in r["scores"]["groups"].items())
        lines.append(f"- {r['run_id']}: {groups}")
    for r in records:
        per_type = [[t, str(c["gold"]), str(c["pred"]), str(c["tp"]), number(c["precision"]), number(c["recall"]),
                     number(c["f1"])] for t, c in r["scores"]["per_type"].items()]  # fmt: skip
        lines += [
            "",
            f"Per type, {r['run_id']}:",
            "",
            *markdown(["type", "gold", "pred", "tp", "P", "R", "F1"], per_type),
        ]
    return "\n".join(lines) + "\n"
