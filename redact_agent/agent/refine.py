"""Beyond the paper: post-processing VLM boxes where its systems failed.

- `snap_to_ocr`: most of a strong VLM's remaining leaks are boxes in the right place that miss
  IoU 0.75. Each predicted box is replaced by the union of the OCR words it covers (a word
  counts when at least half of it lies inside the box), each word tightened to its ink. A box
  over no word keeps its own extent, tightened to the ink inside it.
- `union`: adds the embedded engine's predictions that no model box already overlaps, for
  recall.
The page JSON keeps the model's own boxes in `raw_predictions`, so both can be scored.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from redact_agent.boxes import areas, as_array, intersections, iou_matrix, union_box
from redact_agent.local.ink import tighten
from redact_agent.pages import Prediction
from redact_agent.tools.ocr import Word

MIN_WORD_SHARE = 0.5
UNION_IOU = 0.3


def snap_to_ocr(predictions: list[Prediction], words: list[Word], page_grey: NDArray[np.uint8]) -> list[Prediction]:
    if not predictions:
        return []
    pb = as_array([p.bbox for p in predictions])
    wb = as_array([w.bbox for w in words])
    share = intersections(pb, wb) / np.maximum(areas(wb), 1e-9)[None, :] if len(words) else np.zeros((len(pb), 0))
    out = []
    for i, p in enumerate(predictions):
        covered = np.flatnonzero(share[i] >= MIN_WORD_SHARE)
        boxes = [tighten(page_grey, words[j].bbox) for j in covered] or [tighten(page_grey, p.bbox)]
        out.append(p.model_copy(update={"bbox": union_box(boxes)}))
    return out


def union(predictions: list[Prediction], local: list[Prediction]) -> list[Prediction]:
    if not predictions or not local:
        return [*predictions, *local]
    iou = iou_matrix(as_array([q.bbox for q in local]), as_array([p.bbox for p in predictions]))
    return [*predictions, *(q for q, row in zip(local, iou, strict=True) if row.max() < UNION_IOU)]
