"""Entity clustering scores: BCubed and ELM over the gold items, after type-agnostic matching.

Within a scope (a page, or a document's pages), a gold item e's gold cluster L(e) is the gold
items sharing its `entity` id (an item without one is alone), and its predicted cluster C(e) is
the gold items whose matched predictions carry the entity id of e's matched prediction (a
prediction without one is alone). Two views:
- `end_to_end`: every gold item; an unmatched one is a singleton, so missed mentions cost recall;
- `matched`: the matched gold items only, both clusters restricted to them (the linking alone).
BCubed: P(e) = |C∩L| / |C|, R(e) = |C∩L| / |L|. ELM (elements like me; e is left out of its own
clusters): TP(e) = |C∩L| - 1, P(e) = 1 if C = {e} else TP / (|C| - 1), R(e) = 1 if L = {e} else
TP / (|L| - 1). P and R are means over the gold items of every scope; F1 the harmonic mean of the
two means. Counting pairs of keys makes each item O(1): |C∩L| is the number of items with e's
gold key and e's predicted key. Beside them, `critical_repeats` counts the critical items printed
more than once, those missed although another mention of theirs was found (what propagation
should leave at 0), and of those the ones not even covered by the predictions.

Gold pages without entity ids (the real dev pages) get them derived: items of one type whose
values have the same normal form (`linking.normal_form`) are one entity. That is a weaker check
than annotated ids, and the result says which gold it used.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from redact_agent.eval.page_eval import PageEval
from redact_agent.linking import normal_form
from redact_agent.pages import GoldPage

Scope = Literal["page", "document"]
View = Literal["end_to_end", "matched"]
VIEWS: tuple[View, ...] = ("end_to_end", "matched")
Baseline = Literal["singletons", "one_per_type"]
BASELINES: tuple[Baseline, ...] = ("singletons", "one_per_type")
_PAGE_OF = re.compile(r"^(?P<doc>.+)-p\d+$")  # a PDF's pages are "<stem>-p<N>" (the main job's ids)


@dataclass(frozen=True)
class Mention:
    """One gold item, as clustering sees it: its gold key, its predicted key (None when it is
    unmatched) and its type. Keys are unique within a scope."""

    gold: Hashable
    pred: Hashable | None
    type: str
    critical: bool = False
    covered: bool = False  # >= 90% under the union of the predictions, matched or not


def document_of(page_id: str) -> str:
    """The document a page belongs to: a PDF page's stem, else the page itself."""
    m = _PAGE_OF.match(page_id)
    return m.group("doc") if m else page_id


def gold_keys(gold: GoldPage) -> tuple[list[Hashable], bool]:
    """Each gold item's entity key, and whether they were derived (no item carries an id)."""
    if any(a.entity for a in gold.annotations):
        return [a.entity or ("item", a.id) for a in gold.annotations], False
    return [(a.type, normal_form(a.type, a.value)) if a.value else ("item", a.id) for a in gold.annotations], True


def mentions(e: PageEval, prefix: str = "", baseline: Baseline | None = None) -> tuple[list[Mention], bool]:
    """The gold items of one evaluated page as mentions; `prefix` keeps keys of different pages
    of a document apart where they are page-local (an item, a prediction without an entity).
    A `baseline` replaces the predicted entities: every prediction alone, or one per type."""
    keys, derived = gold_keys(e.page.gold)
    preds = e.page.pred.predictions
    out = []
    for i, a in enumerate(e.page.gold.annotations):
        j = int(e.agnostic[i])
        if j < 0:
            pred: Hashable | None = None
        elif baseline == "one_per_type":
            pred = ("type", preds[j].type)
        elif baseline is None and preds[j].entity:
            pred = ("entity", preds[j].entity)
        else:
            pred = ("pred", prefix, j)
        key = keys[i]
        gold = (prefix, key) if isinstance(key, tuple) and key[0] == "item" else key
        out.append(Mention(gold, pred, a.type, bool(e.page.critical[i]), bool(e.page.covered[i])))
    return out, derived


def _scores(items: list[tuple[int, int, int]]) -> dict[str, dict[str, float | None]]:
    """BCubed and ELM from (|C∩L|, |C|, |L|) per item."""
    if not items:
        empty = {"p": None, "r": None, "f1": None}
        return {"bcubed": dict(empty), "elm": dict(empty)}
    n = len(items)
    b_p = sum(both / c for both, c, _ in items) / n
    b_r = sum(both / g for both, _, g in items) / n
    e_p = sum(1.0 if c == 1 else (both - 1) / (c - 1) for both, c, _ in items) / n
    e_r = sum(1.0 if g == 1 else (both - 1) / (g - 1) for both, _, g in items) / n
    return {"bcubed": _prf(b_p, b_r), "elm": _prf(e_p, e_r)}


def _prf(p: float, r: float) -> dict[str, float | None]:
    return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def _counts(scope: Sequence[Mention], view: View) -> list[tuple[str, tuple[int, int, int]]]:
    """(type, (|C∩L|, |C|, |L|)) for each gold item of a scope in the view."""
    kept = [m for m in scope if view == "end_to_end" or m.pred is not None]
    preds = [m.pred if m.pred is not None else ("alone", k) for k, m in enumerate(kept)]
    gold, pred = Counter(m.gold for m in kept), Counter(preds)
    both = Counter(zip((m.gold for m in kept), preds, strict=True))
    return [(m.type, (both[(m.gold, p)], pred[p], gold[m.gold])) for m, p in zip(kept, preds, strict=True)]


def repeats_left(scopes: Sequence[Sequence[Mention]]) -> dict[str, int]:
    """Critical gold items printed more than once (`repeated`: the mentions of entities with
    several), those left unmatched although another mention of their entity was matched
    (`left`): what propagation is for; and of those, the ones not even covered (`left_uncovered`:
    under 90% of their box under the predictions, so not redacted; the rest are redacted by a
    box too loose or too tight to match)."""
    repeated = left = uncovered = 0
    for scope in scopes:
        sizes = Counter(m.gold for m in scope)
        found = {m.gold for m in scope if m.pred is not None}
        for m in scope:
            if m.critical and sizes[m.gold] > 1:
                repeated += 1
                missed = m.pred is None and m.gold in found
                left += missed
                uncovered += missed and not m.covered
    return {"repeated": repeated, "left": left, "left_uncovered": uncovered}


def cluster_scores(scopes: Sequence[Sequence[Mention]]) -> dict[str, object]:
    """Both views pooled over the scopes, and per gold type."""
    out: dict[str, object] = {}
    per_type: dict[str, dict[str, object]] = {}
    for view in VIEWS:
        counted = [c for scope in scopes for c in _counts(scope, view)]
        out[view] = _scores([c for _, c in counted])
        for t in sorted({t for t, _ in counted}):
            per_type.setdefault(t, {})[view] = _scores([c for tt, c in counted if tt == t])
    out["per_type"] = per_type
    return out


def score_clusters(evals: Sequence[PageEval], document: bool = False) -> dict[str, object]:
    """The `clusters` block of `score --clusters`: the system's entities, the two trivial
    baselines beside them, per page or (`document`) per document, and which gold was used."""

    def scopes(baseline: Baseline | None) -> tuple[list[list[Mention]], set[bool]]:
        grouped: dict[str, list[Mention]] = {}
        derived = set()
        for e in evals:
            page_id = e.page.gold.page_id
            key = document_of(page_id) if document else page_id
            found, was_derived = mentions(e, page_id, baseline)
            grouped.setdefault(key, []).extend(found)
            derived.add(was_derived)
        return list(grouped.values()), derived

    system, derived = scopes(None)
    return {
        "scope": "document" if document else "page",
        "gold_entities": "derived" if derived == {True} else "annotated" if derived == {False} else "mixed",
        **cluster_scores(system),
        "critical_repeats": repeats_left(system),
        "baselines": {b: {k: v for k, v in cluster_scores(scopes(b)[0]).items() if k in VIEWS} for b in BASELINES},
    }
