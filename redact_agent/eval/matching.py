"""One-to-one greedy box matching within a page (the LeakageBench protocol).

Candidate pairs are (gold, prediction) pairs allowed by a criterion: IoU >= tau (typed
matching additionally needs equal types), or the panoptic-quality condition (the
intersection exceeds half of each box's area). Candidates are taken greedily by descending
IoU; ties go to the lower gold index, then the lower prediction index (file order). Each gold
item and each prediction is used at most once. IoU is compared with `>= tau - 1e-12`, so a
pair whose IoU is exactly tau in real arithmetic is not lost to float rounding.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

IOU_EPS = 1e-12


def iou_candidates(iou: NDArray[np.float64], tau: float) -> NDArray[np.bool_]:
    return iou >= tau - IOU_EPS


def pq_candidates(
    inter: NDArray[np.float64], gold_area: NDArray[np.float64], pred_area: NDArray[np.float64]
) -> NDArray[np.bool_]:
    """Pairs whose intersection exceeds half of each box's area."""
    return (inter > 0.5 * gold_area[:, None]) & (inter > 0.5 * pred_area[None, :])


def greedy_match(iou: NDArray[np.float64], allowed: NDArray[np.bool_]) -> NDArray[np.intp]:
    """For each gold row, the index of its matched prediction column, or -1."""
    match = np.full(iou.shape[0], -1, dtype=np.intp)
    gi, pi = np.nonzero(allowed)
    if len(gi) == 0:
        return match
    if len(np.unique(gi)) == len(gi) and len(np.unique(pi)) == len(pi):
        match[gi] = pi  # no item has two candidates: greedy takes them all, order is moot
        return match
    # lexsort: last key is primary. Descending IoU, then gold index, then prediction index.
    order = np.lexsort((pi, gi, -iou[gi, pi]))
    pred_used = np.zeros(iou.shape[1], dtype=bool)
    for k in order:
        g, p = gi[k], pi[k]
        if match[g] < 0 and not pred_used[p]:
            match[g] = p
            pred_used[p] = True
    return match
