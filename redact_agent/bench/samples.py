"""Per-page records of a run (`samples.jsonl`), and the page-level figures a paired comparison
resamples: page F1loc, whether critical (and any) gold leaked, and typed counts per type.

The per-page figures are the scorer's own (`eval.page_eval`), so the run's totals and the
bootstrap over its pages agree: F1loc is the mean of the page values, DocLeak the mean of the
leak indicators, F1type pooled counts per type.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from redact_agent.eval.metrics import page_f1_loc, type_counts
from redact_agent.eval.page_eval import PageEval
from redact_agent.pages import Finding
from redact_agent.schema import Schema


def page_metrics(e: PageEval, schema: Schema) -> dict[str, Any]:
    page = e.page
    counts = type_counts([e], schema) if page.exhaustive else {}
    types = {t: [c["gold"], c["pred"], c["tp"]] for t, c in counts.items()}
    return {
        "f1_loc": page_f1_loc(e),
        "leak_crit": int("critical" in e.leaking) if "critical" in page.present else None,
        "leak_all": int("all" in e.leaking) if "all" in page.present else None,
        "missed_crit": len(e.failures),
        "failures": list(e.failures),
        "types": types,  # type -> [gold, predicted, typed true positives]
    }


def usage(finding: Finding) -> dict[str, int]:
    """Model calls, tool calls and tokens of a page, from its transcript (zero for the engine)."""
    replies = [t for t in finding.transcript if t.get("role") == "assistant"]
    return {
        "model_calls": len(replies),
        "tool_calls": sum(len(t.get("tool_calls") or ()) for t in replies),
        "tokens": sum(sum((t.get("usage") or {}).values()) for t in replies),
    }


def read_samples(path: Path) -> dict[str, dict[str, Any]]:
    """The samples of a run by page id; a torn last line (an interrupted write) is skipped."""
    out: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            sample = json.loads(line)
        except json.JSONDecodeError:
            continue
        out[sample["page_id"]] = sample
    return out


def page_arrays(samples: list[dict[str, Any]], types: list[str]) -> dict[str, np.ndarray]:
    """Column arrays over pages: NaN where a figure does not apply to a page."""

    def column(key: str) -> np.ndarray:
        return np.array([np.nan if s["metrics"][key] is None else s["metrics"][key] for s in samples], dtype=float)

    counts = np.zeros((len(samples), len(types), 3))
    for i, s in enumerate(samples):
        for j, t in enumerate(types):
            counts[i, j] = s["metrics"]["types"].get(t, (0, 0, 0))
    return {"f1_loc": column("f1_loc"), "leak_crit": column("leak_crit"), "leak_all": column("leak_all"),
            "types": counts}  # fmt: skip
