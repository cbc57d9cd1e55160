"""Per-page evaluation: the matchings and per-item outcomes every metric is built from.

`prepare` computes what does not depend on the matching threshold once per page (IoU and
intersection matrices, type agreement, area coverage); `evaluate` runs typed and
type-agnostic matching for one criterion and records, for each gold item, whether it was
matched and, for a leaked critical item, why (failure attribution).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from redact_agent.boxes import areas, as_array, covered_areas, intersections, iou_matrix
from redact_agent.eval.matching import greedy_match, iou_candidates, pq_candidates
from redact_agent.pages import GoldPage, PredictionPage
from redact_agent.schema import Schema

Criterion = Literal["iou", "pq"]
Failure = Literal["invalid_page", "no_overlap", "low_iou", "mistyped", "conflict"]
FAILURES: tuple[Failure, ...] = ("invalid_page", "no_overlap", "low_iou", "mistyped", "conflict")
COVER_THRESHOLD = 0.9


@dataclass(frozen=True)
class PreparedPage:
    gold: GoldPage
    pred: PredictionPage
    gold_types: NDArray[np.intp]  # schema index of each gold item's type
    pred_types: NDArray[np.intp]
    gold_groups: tuple[str, ...]
    critical: NDArray[np.bool_]  # gold item is in a critical group
    present: frozenset[str]  # selections with a gold item: "all", "critical", group names
    iou: NDArray[np.float64]
    inter: NDArray[np.float64]
    same_type: NDArray[np.bool_]
    gold_area: NDArray[np.float64]
    pred_area: NDArray[np.float64]
    covered: NDArray[np.bool_]  # gold item >= 90% covered by the union of all predictions
    pred_area_outside_gold: float  # summed over predictions: area not on any gold box

    @property
    def exhaustive(self) -> bool:
        return self.gold.exhaustive

    @property
    def valid(self) -> bool:
        return self.pred.valid


def prepare(gold: GoldPage, pred: PredictionPage, schema: Schema) -> PreparedPage:
    gb = as_array([a.bbox for a in gold.annotations])
    pb = as_array([p.bbox for p in pred.predictions])
    gold_types = np.array([schema.index(a.type) for a in gold.annotations], dtype=np.intp)
    pred_types = np.array([schema.index(p.type) for p in pred.predictions], dtype=np.intp)
    groups = tuple(schema.group_of(a.type) for a in gold.annotations)
    critical = np.array([g in schema.critical_groups for g in groups], dtype=bool)
    present = set(groups) | ({"all"} if groups else set()) | ({"critical"} if critical.any() else set())
    inter = intersections(gb, pb)
    gold_area, pred_area = areas(gb), areas(pb)
    covered = covered_areas(gb, pb, inter) >= COVER_THRESHOLD * gold_area
    return PreparedPage(
        gold=gold,
        pred=pred,
        gold_types=gold_types,
        pred_types=pred_types,
        gold_groups=groups,
        critical=critical,
        present=frozenset(present),
        iou=iou_matrix(gb, pb),
        inter=inter,
        same_type=gold_types[:, None] == pred_types[None, :],
        gold_area=gold_area,
        pred_area=pred_area,
        covered=covered,
        pred_area_outside_gold=max(0.0, float(pred_area.sum() - covered_areas(pb, gb, inter.T).sum())),
    )


@dataclass(frozen=True)
class PageEval:
    page: PreparedPage
    typed: NDArray[np.intp]  # gold index -> matched prediction index under typed matching, or -1
    agnostic: NDArray[np.intp]  # the same under type-agnostic matching
    failures: tuple[Failure, ...]  # one per leaked critical item (typed), in gold order
    leaking: frozenset[str]  # selections ("all", "critical", groups) with an unmatched item, typed
    leaking_agnostic: frozenset[str]  # the same under type-agnostic matching


def _leaking(page: PreparedPage, match: NDArray[np.intp]) -> frozenset[str]:
    missed = np.flatnonzero(match < 0)
    if not len(missed):
        return frozenset()
    out = {page.gold_groups[i] for i in missed} | {"all"}
    if page.critical[missed].any():
        out.add("critical")
    return frozenset(out)


def evaluate(page: PreparedPage, criterion: Criterion, tau: float) -> PageEval:
    if criterion == "iou":
        allowed = iou_candidates(page.iou, tau)
    else:
        allowed = pq_candidates(page.inter, page.gold_area, page.pred_area)
    typed = greedy_match(page.iou, allowed & page.same_type)
    agnostic = greedy_match(page.iou, allowed)
    return PageEval(
        page, typed, agnostic, _attribute(page, allowed, typed), _leaking(page, typed), _leaking(page, agnostic)
    )


def _attribute(page: PreparedPage, allowed: NDArray[np.bool_], typed: NDArray[np.intp]) -> tuple[Failure, ...]:
    leaked = np.flatnonzero(page.critical & (typed < 0))
    if not len(leaked):
        return ()
    if not page.valid:
        invalid: Failure = "invalid_page"
        return (invalid,) * len(leaked)
    rows = allowed[leaked]
    # A same-type candidate existed but went to another gold item: conflict.
    conflict = np.any(rows & page.same_type[leaked], axis=1).tolist()
    located = np.any(rows, axis=1).tolist()
    overlap = np.any(page.inter[leaked] > 0, axis=1).tolist()
    causes: list[Failure] = []
    for i in range(len(leaked)):
        causes.append(
            "conflict" if conflict[i] else "mistyped" if located[i] else "low_iou" if overlap[i] else "no_overlap"
        )
    return tuple(causes)
