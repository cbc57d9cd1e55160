"""Property tests: page order never matters; perfect predictions are perfect; prediction order
does not matter when no two candidate pairs tie."""

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from redact_agent.eval.scorer import Loaded, Pair, score_pages
from redact_agent.schema import default_schema
from tests.helpers import gold, pred

TYPES = default_schema().type_names
items = st.lists(
    st.tuples(
        st.sampled_from(TYPES),
        st.floats(0, 80),
        st.floats(0, 80),
        st.floats(1, 20),
        st.floats(1, 20),
    ).map(lambda t: (t[0], [t[1], t[2], t[1] + t[3], t[2] + t[4]])),
    max_size=8,
)
jitter = st.floats(-3, 3)


def _close(a, b):
    """Equal up to float summation order."""
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    return a == b


def _page(i, gold_items, pred_items, exhaustive=True):
    return Pair(gold(f"p{i}", gold_items, exhaustive=exhaustive), pred(f"p{i}", pred_items))


def _shifted(box, d):
    x0, y0, x1, y1 = box
    return [max(0.0, x0 + d), max(0.0, y0 + d), min(100.0, max(x0 + d, 0) + (x1 - x0)), min(100.0, y1 + d)]


pages = st.lists(st.tuples(items, items, st.booleans()), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(pages, st.randoms())
def test_page_order_does_not_matter(page_specs, rnd):
    pairs = [_page(i, g, p, e) for i, (g, p, e) in enumerate(page_specs)]
    shuffled = pairs[:]
    rnd.shuffle(shuffled)
    schema = default_schema()
    a = score_pages(Loaded(pairs), schema, [0.5, 0.75], pq=True)
    b = score_pages(Loaded(shuffled), schema, [0.5, 0.75], pq=True)
    assert _close(a, b)


@settings(max_examples=60, deadline=None)
@given(st.lists(items, min_size=1, max_size=5))
def test_perfect_predictions_score_perfectly(gold_items_per_page):
    pairs = [_page(i, g, g) for i, g in enumerate(gold_items_per_page)]
    r = score_pages(Loaded(pairs), default_schema(), [0.95])[0]
    any_gold = any(gold_items_per_page)
    assert r["valid"] == 1.0
    assert r["f1_loc"] in (1.0, None) and r["f1_type"] in (1.0, None)
    assert (r["f1_loc"] == 1.0) == any_gold
    for key in ("docleak_all", "docleak_crit", "docleak_all_agnostic", "docleak_crit_agnostic", "docleak_crit_cover"):
        assert r[key] in (0.0, None)
    assert all(v in (0.0, None) for v in r["groups"].values())
    assert sum(r["failures"].values()) == 0
    assert r["over_redaction"] is None or r["over_redaction"] < 1e-9


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(TYPES), jitter, st.booleans()), min_size=1, max_size=9), st.integers(0, 10**6)
)
def test_prediction_order_does_not_matter_without_ties(cells, seed):
    # Gold items sit in disjoint cells of a 3x3 grid; each prediction is a shifted copy in its cell,
    # so no prediction can compete for two gold items and ties cannot decide anything.
    gold_items, pred_items = [], []
    for k, (t, d, keep_type) in enumerate(cells):
        box = [(k % 3) * 33 + 5, (k // 3) * 33 + 5, (k % 3) * 33 + 25, (k // 3) * 33 + 20]
        gold_items.append((t, box))
        pred_items.append((t if keep_type else TYPES[(TYPES.index(t) + 1) % len(TYPES)], _shifted(box, d)))
    shuffled = pred_items[:]
    random.Random(seed).shuffle(shuffled)
    schema = default_schema()
    a = score_pages(Loaded([_page(0, gold_items, pred_items)]), schema, [0.5, 0.75, 0.95])
    b = score_pages(Loaded([_page(0, gold_items, shuffled)]), schema, [0.5, 0.75, 0.95])
    assert _close(a, b)
