"""Aggregate metrics over evaluated pages, defined as in the LeakageBench paper.

- `f1_loc`: page-macro mean of 2·TP/(G+P), type-agnostic, over exhaustive pages with G+P > 0.
- `f1_type`: per type present in exhaustive gold, 2·TP_t/(G_t+P_t) pooled over pages (typed);
  the mean over those types.
- `docleak_*`: over pages with >= 1 gold item (critical item for `_crit`), the share where
  any such item is unmatched; typed, or type-agnostic for `_agnostic`. All pages count,
  non-exhaustive ones included (their labelled items can still leak).
- `groups`: the typed page leakage restricted to each group; None where no page applies.
- `severity`: over pages leaking critical items (typed), the missed-critical count's mean,
  median and 90th percentile (linear interpolation); `mean_proportion` over pages with
  critical gold, of missed / critical.
- `valid`: share of pages whose prediction page is valid.
Precision needs exhaustive gold, so non-exhaustive pages are left out of F1, per-type
precision and over-redaction. Ratios with an empty denominator are None.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

from redact_agent.eval.page_eval import FAILURES, PageEval, PreparedPage
from redact_agent.eval.results import CoreMetrics, Severity, TypeCounts, TypeFigures, ValueAccuracy
from redact_agent.schema import Schema


def ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if len(values) else None


def _share_leaking(evals: Sequence[PageEval], select: str, typed: bool) -> float | None:
    """Share of applicable pages with an unmatched gold item; `select` is 'all', 'critical' or a group."""
    applicable = [e for e in evals if select in e.page.present]
    leaking = sum(select in (e.leaking if typed else e.leaking_agnostic) for e in applicable)
    return ratio(leaking, len(applicable))


def page_f1_loc(e: PageEval) -> float | None:
    """One page's type-agnostic 2·TP/(G+P); None on a non-exhaustive page or one with no items."""
    n = len(e.page.gold_types) + len(e.page.pred_types)
    return 2 * int((e.agnostic >= 0).sum()) / n if e.page.exhaustive and n else None


def core_metrics(evals: Sequence[PageEval], schema: Schema) -> CoreMetrics:
    """The paper's headline metrics (the keys every scorer output carries)."""
    exhaustive = [e for e in evals if e.page.exhaustive]
    page_f1 = [f for f in map(page_f1_loc, exhaustive) if f is not None]
    counts = type_counts(exhaustive, schema)
    type_f1 = [2 * c["tp"] / (c["gold"] + c["pred"]) for c in counts.values() if c["gold"]]
    return {
        "pages": len(evals),
        "valid": ratio(sum(e.page.valid for e in evals), len(evals)),
        "f1_loc": _mean(page_f1),
        "f1_type": _mean(type_f1),
        "docleak_all": _share_leaking(evals, "all", typed=True),
        "docleak_crit": _share_leaking(evals, "critical", typed=True),
        "docleak_all_agnostic": _share_leaking(evals, "all", typed=False),
        "docleak_crit_agnostic": _share_leaking(evals, "critical", typed=False),
        "groups": {g: _share_leaking(evals, g, typed=True) for g in schema.groups},
    }


def type_counts(evals: Sequence[PageEval], schema: Schema) -> dict[str, TypeCounts]:
    """Per type seen in gold or predictions: gold items, predictions and typed true positives,
    pooled over `evals`, in type-name order."""
    n = len(schema.types)
    gold, pred, tp = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    for e in evals:
        gold += np.bincount(e.page.gold_types, minlength=n)
        pred += np.bincount(e.page.pred_types, minlength=n)
        tp += np.bincount(e.page.gold_types[e.typed >= 0], minlength=n)
    names = schema.type_names
    seen = sorted((names[i], i) for i in np.flatnonzero(gold + pred))
    return {t: {"gold": int(gold[i]), "pred": int(pred[i]), "tp": int(tp[i])} for t, i in seen}


def per_type(evals: Sequence[PageEval], schema: Schema) -> dict[str, TypeFigures]:
    """Per type precision, recall, F1: recall over all pages, precision and F1 over exhaustive ones."""
    exhaustive = type_counts([e for e in evals if e.page.exhaustive], schema)
    everything = type_counts(evals, schema)
    out: dict[str, TypeFigures] = {}
    for t, c in everything.items():
        x = exhaustive.get(t, TypeCounts(gold=0, pred=0, tp=0))
        out[t] = {
            "gold": c["gold"],
            "pred": c["pred"],
            "tp": c["tp"],
            "precision": ratio(x["tp"], x["pred"]),
            "recall": ratio(c["tp"], c["gold"]),
            "f1": ratio(2 * x["tp"], x["gold"] + x["pred"]),
        }
    return out


def severity(evals: Sequence[PageEval]) -> Severity:
    missed, proportions = [], []
    for e in evals:
        n_crit = int(e.page.critical.sum())
        if not n_crit:
            continue
        k = int((e.page.critical & (e.typed < 0)).sum())
        proportions.append(k / n_crit)
        if k:
            missed.append(k)
    arr = np.array(missed, dtype=float)
    return {
        "mean_missed": float(arr.mean()) if len(arr) else None,
        "median_missed": float(np.median(arr)) if len(arr) else None,
        "p90_missed": float(np.percentile(arr, 90)) if len(arr) else None,
        "mean_proportion": _mean(proportions),
    }


def failures(evals: Sequence[PageEval]) -> dict[str, int]:
    """Why each leaked critical item leaked (typed matching), counted over all pages."""
    counts = Counter(f for e in evals for f in e.failures)
    return {f: counts[f] for f in FAILURES}


def value_accuracy(evals: Sequence[PageEval]) -> ValueAccuracy:
    """On type-agnostic matched pairs where both carry a value: exact match after whitespace
    folding, and mean character error rate (edit distance / gold length)."""
    exact, cers = 0, []
    for e in evals:
        gold, preds = e.page.gold.annotations, e.page.pred.predictions
        for g, p in enumerate(e.agnostic):
            gold_value = gold[g].value
            pred_value = preds[p].value if p >= 0 else None
            if gold_value is None or pred_value is None:
                continue
            gv, pv = " ".join(gold_value.split()), " ".join(pred_value.split())
            same = gv == pv
            exact += same
            cers.append(0.0 if same else Levenshtein.distance(gv, pv) / max(1, len(gv)))
    return {"pairs": len(cers), "exact": ratio(exact, len(cers)), "cer": _mean(cers)}


def cover_and_over_redaction(pages: Sequence[PreparedPage]) -> dict[str, float | None]:
    """`docleak_crit_cover`: pages with critical gold where a critical item is < 90% covered by
    the union of all predictions (any type). `over_redaction`: the share of predicted box area
    (summed per box, exhaustive pages) that lies on no gold box."""
    crit_pages = [p for p in pages if p.critical.any()]
    leaking = sum(bool((p.critical & ~p.covered).any()) for p in crit_pages)
    exhaustive = [p for p in pages if p.exhaustive]
    total = sum(float(p.pred_area.sum()) for p in exhaustive)
    outside = sum(p.pred_area_outside_gold for p in exhaustive)
    return {"docleak_crit_cover": ratio(leaking, len(crit_pages)), "over_redaction": ratio(outside, total)}
