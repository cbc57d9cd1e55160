"""`audit-score`: how well an audit found the redactions of a gold set.

Matching is one-to-one within a page, greedy by descending IoU (`eval.matching`), under one of
two conditions: `iou`, IoU(t, h) > 0.5 (Panoptic Quality's, under which no region has two
candidates), or `pq-weak`, |t ∩ h| > 0.5·|t| and > 0.5·|h|. Areas are a gold polygon's where
given, else the box's. Pooled over pages and per kind: P, R, F1, SQ (mean IoU of the matches),
RQ = TP / (TP + FP/2 + FN/2) and PQ = SQ·RQ, plus false regions per page on the pages without
a redaction. A gold region's kind is its own, else its page's; an unmatched predicted region
counts under its page's kind, else under the kind the audit gave it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypedDict

import numpy as np

from redact_agent.audit.regions import Region, RegionPage, load_region_page
from redact_agent.errors import InputError
from redact_agent.eval.matching import greedy_match, pq_candidates
from redact_agent.tables import markdown, number

Match = Literal["iou", "pq-weak"]
MATCHES: tuple[Match, ...] = ("iou", "pq-weak")


class Quality(TypedDict):
    tp: int
    fp: int
    fn: int
    precision: float | None
    recall: float | None
    f1: float | None
    sq: float | None
    rq: float | None
    pq: float | None


class AuditScore(TypedDict):
    match: str
    pages: int
    pooled: Quality
    per_kind: dict[str, Quality]
    empty_pages: int
    false_regions_per_empty_page: float | None


@dataclass
class _Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    ious: list[float] = field(default_factory=list)

    def quality(self) -> Quality:
        def ratio(a: float, b: float) -> float | None:
            return a / b if b else None

        p, r = ratio(self.tp, self.tp + self.fp), ratio(self.tp, self.tp + self.fn)
        f1 = ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn)
        sq = float(np.mean(self.ious)) if self.ious else None
        rq = ratio(self.tp, self.tp + self.fp / 2 + self.fn / 2)
        pq = (sq or 0.0) * rq if rq is not None else None  # no match: RQ is 0, and so is PQ
        return Quality(tp=self.tp, fp=self.fp, fn=self.fn, precision=p, recall=r, f1=f1, sq=sq, rq=rq, pq=pq)


def match_page(gold: Sequence[Region], pred: Sequence[Region], how: Match) -> tuple[list[int], list[float]]:
    """For each gold region, its matched prediction's index or -1, and each match's IoU (in
    gold order)."""
    inter = np.array([[g.overlap(p) for p in pred] for g in gold], dtype=np.float64).reshape(len(gold), len(pred))
    gold_area = np.array([g.area for g in gold], dtype=np.float64)
    pred_area = np.array([p.area for p in pred], dtype=np.float64)
    union = gold_area[:, None] + pred_area[None, :] - inter
    iou = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)
    allowed = iou > 0.5 if how == "iou" else pq_candidates(inter, gold_area, pred_area)
    match = greedy_match(iou, allowed)
    return [int(m) for m in match], [float(iou[g, m]) for g, m in enumerate(match) if m >= 0]


def score(pairs: Sequence[tuple[RegionPage, RegionPage]], how: Match) -> AuditScore:
    pooled, kinds = _Tally(), dict[str, _Tally]()
    empty, false_on_empty = 0, 0
    for gold, pred in pairs:
        match, ious = match_page(gold.regions, pred.regions, how)
        used = {m for m in match if m >= 0}
        pooled.tp += len(ious)
        pooled.ious += ious
        pooled.fn += match.count(-1)
        pooled.fp += len(pred.regions) - len(used)
        matched_ious = iter(ious)
        for g, m in zip(gold.regions, match, strict=True):
            tally = kinds.setdefault(g.kind or gold.kind or "unknown", _Tally())
            if m >= 0:
                tally.tp += 1
                tally.ious.append(next(matched_ious))
            else:
                tally.fn += 1
        for j, p in enumerate(pred.regions):
            if j not in used:
                kinds.setdefault(gold.kind or p.kind or "unknown", _Tally()).fp += 1
        if not gold.regions:
            empty += 1
            false_on_empty += len(pred.regions)
    return AuditScore(
        match=how,
        pages=len(pairs),
        pooled=pooled.quality(),
        per_kind={k: t.quality() for k, t in sorted(kinds.items())},
        empty_pages=empty,
        false_regions_per_empty_page=false_on_empty / empty if empty else None,
    )


def load_pairs(gold_dir: Path, audit_dir: Path) -> list[tuple[RegionPage, RegionPage]]:
    """Each gold page with its audit (`<page_id>.audit.json`); a gold page without one is an error."""
    gold_paths = sorted(gold_dir.glob("*.json"))
    if not gold_paths:
        raise InputError(f"{gold_dir}: no <page_id>.json gold pages")
    pairs, missing = [], []
    for path in gold_paths:
        gold = load_region_page(path)
        audit = audit_dir / f"{gold.page_id}.audit.json"
        if not audit.is_file():
            missing.append(gold.page_id)
            continue
        pred = load_region_page(audit)
        if (pred.width, pred.height) != (gold.width, gold.height):
            raise InputError(f"{audit}: the page is {pred.width}x{pred.height}, its gold {gold.width}x{gold.height}")
        pairs.append((gold, pred))
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise InputError(f"{audit_dir}: no audit for {len(missing)} gold page(s): {shown}")
    return pairs


def render(result: AuditScore) -> str:
    def row(kind: str, q: Quality) -> list[str]:
        figures = (q["precision"], q["recall"], q["f1"], q["sq"], q["rq"], q["pq"])
        return [kind, *(number(v) for v in figures), str(q["tp"]), str(q["fp"]), str(q["fn"])]

    rows = [row("all", result["pooled"])] + [row(k, q) for k, q in result["per_kind"].items()]
    lines = [f"audit-score ({result['match']} matching), {result['pages']} pages", ""]
    lines += markdown(["kind", "P", "R", "F1", "SQ", "RQ", "PQ", "TP", "FP", "FN"], rows)
    fr = result["false_regions_per_empty_page"]
    lines += ["", f"false regions per page on {result['empty_pages']} pages without a redaction: {number(fr)}"]
    return "\n".join(lines)
