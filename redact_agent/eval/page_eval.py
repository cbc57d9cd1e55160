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
    masks: dict[str, NDArray[np.bool_]]  # gold-item selections: "all", "critical", each group present
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

    @property
    def critical(self) -> NDArray[np.bool_]:
        return self.masks["critical"]


def prepare(gold: GoldPage, pred: PredictionPage, schema: Schema) -> PreparedPage:
    gb = as_array([a.bbox for a in gold.annotations])
    pb = as_array([p.bbox for p in pred.predictions])
    gold_types = np.array([schema.index(a.type) for a in gold.annotations], dtype=np.intp)
    pred_types = np.array([schema.index(p.type) for p in pred.predictions], dtype=np.intp)
    groups = np.array([schema.group_of(a.type) for a in gold.annotations], dtype=object)
    masks = {"all": np.ones(len(gb), dtype=bool), "critical": np.isin(groups, list(schema.critical_groups))}
    masks.update({g: groups == g for g in set(groups)})
    inter = intersections(gb, pb)
    gold_area = areas(gb)
    covered = covered_areas(gb, pb, inter) >= COVER_THRESHOLD * gold_area
    return PreparedPage(
        gold=gold,
        pred=pred,
        gold_types=gold_types,
        pred_types=pred_types,
        masks=masks,
        iou=iou_matrix(gb, pb),
        inter=inter,
        same_type=gold_types[:, None] == pred_types[None, :],
        gold_area=gold_area,
        pred_area=areas(pb),
        covered=covered,
        pred_area_outside_gold=max(0.0, float(areas(pb).sum() - covered_areas(pb, gb, inter.T).sum())),
    )


@dataclass(frozen=True)
class PageEval:
    page: PreparedPage
    typed: NDArray[np.intp]  # gold index -> matched prediction index under typed matching, or -1
    agnostic: NDArray[np.intp]  # the same under type-agnostic matching
    failures: tuple[Failure, ...]  # one per leaked critical item (typed), in gold order


def evaluate(page: PreparedPage, criterion: Criterion, tau: float) -> PageEval:
    if criterion == "iou":
        allowed = iou_candidates(page.iou, tau)
    else:
        allowed = pq_candidates(page.inter, page.gold_area, page.pred_area)
    typed = greedy_match(page.iou, allowed & page.same_type)
    agnostic = greedy_match(page.iou, allowed)
    return PageEval(page, typed, agnostic, _attribute(page, allowed, typed))


def _attribute(page: PreparedPage, allowed: NDArray[np.bool_], typed: NDArray[np.intp]) -> tuple[Failure, ...]:
    out: list[Failure] = []
    for g in np.flatnonzero(page.critical & (typed < 0)):
        if not page.valid:
            out.append("invalid_page")
        elif (allowed[g] & page.same_type[g]).any():
            out.append("conflict")  # a same-type candidate existed but went to another gold item
        elif allowed[g].any():
            out.append("mistyped")
        elif (page.inter[g] > 0).any():
            out.append("low_iou")
        else:
            out.append("no_overlap")
    return tuple(out)
