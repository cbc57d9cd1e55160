"""One page of the corpus: drawn clean, with each PII value's exact ink, and its gold.

Shared by the corpus (`corpus.py`) and the redacted pages (`redactions.py`).
"""

from __future__ import annotations

import random

import numpy as np
from numpy.typing import NDArray

from redact_agent.pages import GoldAnnotation
from redact_agent.schema import Schema
from redact_agent.synth.canvas import FACES, Canvas, Item
from redact_agent.synth.layouts import LAYOUTS, Page
from redact_agent.synth.values import Values

DENSITY = (22.0, 7.0)  # items per page: mean and spread (LeakageBench Table 2: about 24, 8.6 critical)
DPIS = [100, 150, 150, 200, 200, 200, 250, 300]
INJECTION_RATE = 0.08


def draw_page(rng: random.Random, page_type: str, mentions: bool = False) -> tuple[Canvas, str]:
    """A page of `page_type` drawn clean, and how it was drawn; `mentions` adds running text
    that names some of its people, phones and codes again in other printed forms."""
    page, drawn = lay_out(rng, page_type)
    if mentions:
        page.mentions()
    return page.c, drawn + ("; mentions again" if mentions else "")


def lay_out(rng: random.Random, page_type: str, entities: dict[str, int] | None = None) -> tuple[Page, str]:
    """A page of `page_type` laid out on a clean canvas (its entities numbered on from
    `entities`, a document's count so far), and how it was drawn."""
    dpi = rng.choice(DPIS)
    landscape = page_type == "other" and rng.random() < 0.4
    w, h = (11.0, 8.5) if landscape else (8.5, 11.0)
    face, pt = rng.choice(sorted(FACES)), round(rng.triangular(7, 14, 10), 1)
    canvas = Canvas(round(w * dpi), round(h * dpi), dpi, face, pt, rng, entities)
    injection = rng.random() < INJECTION_RATE
    target = max(8, round(rng.gauss(*DENSITY)))
    page = Page(canvas, Values(rng.getrandbits(63)), injection)
    LAYOUTS[page_type](page, target)
    return page, f"dpi {dpi}; font {face} {pt}pt; injection {'yes' if injection else 'no'}"


def ink_annotations(items: list[Item], items_map: NDArray[np.uint16], schema: Schema) -> list[GoldAnnotation]:
    """One annotation per item with ink left on the page, boxed by that ink's extents."""
    ys, xs = np.nonzero(items_map)
    labels = items_map[ys, xs]
    order = np.argsort(labels, kind="stable")
    labels, ys, xs = labels[order], ys[order], xs[order]
    present, starts = np.unique(labels, return_index=True)
    x0, x1 = np.minimum.reduceat(xs, starts), np.maximum.reduceat(xs, starts)
    y0, y1 = np.minimum.reduceat(ys, starts), np.maximum.reduceat(ys, starts)
    out: list[GoldAnnotation] = []
    for k, a, b, c, d in zip(present.tolist(), x0.tolist(), y0.tolist(), x1.tolist(), y1.tolist(), strict=True):
        item = items[k - 1]
        out.append(
            GoldAnnotation(
                id=f"a{len(out) + 1}",
                type=item.type,
                group=schema.group_of(item.type),
                bbox=(float(a), float(b), float(c + 1), float(d + 1)),
                value=item.value,
                entity=item.entity,
            )
        )
    return out
