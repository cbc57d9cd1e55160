"""`redact-agent bench compare RUN_A RUN_B`: did B really differ from A?

Paired over the pages both runs hold: each bootstrap replicate draws pages with replacement
(the same draw for both runs), recomputes F1loc, F1type and DocLeak for each run from the
per-page figures in `samples.jsonl`, and keeps the difference B - A. The interval is the
2.5th-97.5th percentile of those differences (seeded, 2,000 replicates by default). Also: per-type
F1 deltas and the pages that flipped between leaking and safe on critical items.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from redact_agent.bench.samples import page_arrays, read_samples
from redact_agent.errors import InputError
from redact_agent.tables import markdown, number

REPLICATES = 2000


def _nanmean_weighted(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per replicate (row of `weights`): the mean of `values` over the pages where it applies."""
    ok = ~np.isnan(values)
    num = weights[:, ok] @ values[ok]
    den = weights[:, ok].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.maximum(den, 1), np.nan)


def _f1_type(weights: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per replicate: mean over types with gold of pooled 2·TP/(G+P)."""
    pooled = np.einsum("bp,ptk->btk", weights, counts)  # replicate x type x (gold, pred, tp)
    gold, pred, tp = pooled[..., 0], pooled[..., 1], pooled[..., 2]
    has = gold > 0
    f1 = np.where(has, 2 * tp / np.maximum(gold + pred, 1), 0.0)
    return np.where(has.any(axis=1), f1.sum(axis=1) / np.maximum(has.sum(axis=1), 1), np.nan)


def _metrics(weights: np.ndarray, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {
        "f1_loc": _nanmean_weighted(weights, arrays["f1_loc"]),
        "f1_type": _f1_type(weights, arrays["types"]),
        "docleak_all": _nanmean_weighted(weights, arrays["leak_all"]),
        "docleak_crit": _nanmean_weighted(weights, arrays["leak_crit"]),
    }


def compare(run_a: Path, run_b: Path, replicates: int = REPLICATES, seed: int = 0) -> dict[str, Any]:
    a, b = (read_samples(r / "samples.jsonl") for r in (run_a, run_b))
    if not a or not b:
        raise InputError(f"{run_a if not a else run_b}: no samples.jsonl with pages (is it a run folder?)")
    pages = sorted(a.keys() & b.keys())
    if not pages:
        raise InputError(f"{run_a} and {run_b} share no pages")
    sa, sb = [a[p] for p in pages], [b[p] for p in pages]
    types = sorted({t for s in sa + sb for t in s["metrics"]["types"]})
    xa, xb = page_arrays(sa, types), page_arrays(sb, types)
    n = len(pages)
    once = np.ones((1, n))
    weights = np.random.default_rng(seed).multinomial(n, np.full(n, 1 / n), size=replicates).astype(float)
    point_a, point_b = _metrics(once, xa), _metrics(once, xb)
    boot_a, boot_b = _metrics(weights, xa), _metrics(weights, xb)
    deltas = {}
    for k in point_a:
        d = boot_b[k] - boot_a[k]
        d = d[~np.isnan(d)]
        lo, hi = np.percentile(d, [2.5, 97.5]).tolist() if len(d) else [None, None]
        deltas[k] = {"a": _num(point_a[k][0]), "b": _num(point_b[k][0]), "delta": _num(point_b[k][0] - point_a[k][0]),
                     "ci95": [lo, hi]}  # fmt: skip
    per_type = {}
    for j, t in enumerate(types):
        fa, fb = (_f1_of(x["types"][:, j].sum(axis=0)) for x in (xa, xb))
        per_type[t] = {"a": fa, "b": fb, "delta": None if fa is None or fb is None else fb - fa}
    la, lb = xa["leak_crit"], xb["leak_crit"]  # NaN where a page has no critical gold: never a flip
    flips = {
        "became_safe": [pages[i] for i in np.flatnonzero((la == 1) & (lb == 0))],
        "became_leaking": [pages[i] for i in np.flatnonzero((la == 0) & (lb == 1))],
    }
    return {"run_a": run_a.name, "run_b": run_b.name, "pages": n, "replicates": replicates, "metrics": deltas,
            "per_type": per_type, "flips": flips}  # fmt: skip


def _f1_of(c: np.ndarray) -> float | None:
    return float(2 * c[2] / (c[0] + c[1])) if c[0] + c[1] else None


def _num(v: float) -> float | None:
    return None if np.isnan(v) else float(v)


def render(result: dict[str, Any]) -> str:
    rows = []
    for k, m in result["metrics"].items():
        lo, hi = m["ci95"]
        ci = "-" if lo is None else f"[{lo:+.3f}, {hi:+.3f}]"
        rows.append([k, number(m["a"]), number(m["b"]), number(m["delta"], signed=True), ci])
    lines = [f"{result['run_b']} vs {result['run_a']}: {result['pages']} paired pages, "
             f"{result['replicates']} bootstrap replicates", "",
             *markdown(["metric", "A", "B", "B - A", "95% CI"], rows)]  # fmt: skip
    lines += ["", "Per-type F1 (B - A):"]
    for t, m in result["per_type"].items():
        lines.append(f"  {t:<18} {number(m['a'])} -> {number(m['b'])}  ({number(m['delta'], signed=True)})")
    f = result["flips"]
    lines += ["", f"Critical leakage flipped: {len(f['became_safe'])} pages became safe, "
              f"{len(f['became_leaking'])} became leaking"]  # fmt: skip
    lines += [f"  safe now:    {p}" for p in f["became_safe"]] + [f"  leaking now: {p}" for p in f["became_leaking"]]
    return "\n".join(lines)


def write(result: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
