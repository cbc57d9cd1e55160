"""BCubed and ELM on the issue's worked checks, the two views, and the scorer's clusters block."""

import json

import pytest

from redact_agent.eval.clusters import Mention, cluster_scores, document_of, repeats_left, score_clusters
from redact_agent.eval.page_eval import evaluate, prepare
from redact_agent.pages import GoldPage, PredictionPage
from redact_agent.schema import default_schema


def _scope(gold: str, pred: str) -> list[Mention]:
    """One mention per letter: `gold` and `pred` give each item's cluster label ('.' unmatched)."""
    return [Mention(g, None if p == "." else p, "PERSON_NAME") for g, p in zip(gold, pred, strict=True)]


def _figures(gold: str, pred: str, view: str = "end_to_end") -> tuple[float, ...]:
    s = cluster_scores([_scope(gold, pred)])[view]
    return s["bcubed"]["p"], s["bcubed"]["r"], s["elm"]["p"], s["elm"]["r"]


@pytest.mark.parametrize(
    "gold, pred, expected",
    [
        ("aaaa", "abcd", (1.0, 0.25, 1.0, 0.0)),  # one gold entity, all singletons predicted
        ("abcd", "aaaa", (0.25, 1.0, 0.0, 1.0)),  # all singletons, one cluster predicted
        ("aabb", "abab", (0.5, 0.5, 0.0, 0.0)),  # {a,b},{c,d} against {a,c},{b,d}
        ("aabb", "xxyy", (1.0, 1.0, 1.0, 1.0)),  # labels need not agree, only the partition
    ],
)
def test_worked_checks(gold, pred, expected):
    assert _figures(gold, pred) == pytest.approx(expected)


def test_a_missed_mention_costs_recall_end_to_end_but_not_when_matched():
    # gold {a,b,c} one entity; c is missed, a and b are predicted as one entity
    assert _figures("aaa", "xx.") == pytest.approx((1.0, 5 / 9, 1.0, 1 / 3))
    assert _figures("aaa", "xx.", view="matched") == pytest.approx((1.0, 1.0, 1.0, 1.0))


def test_scopes_are_pooled_over_items_and_typed():
    s = cluster_scores([_scope("aa", "xx"), _scope("ab", "xx")])
    assert s["end_to_end"]["bcubed"]["p"] == pytest.approx((1 + 1 + 0.5 + 0.5) / 4)
    assert set(s["per_type"]) == {"PERSON_NAME"}


def test_pdf_pages_belong_to_their_document():
    assert document_of("report-p3") == "report" and document_of("vrdu-adbuy-0001") == "vrdu-adbuy-0001"


def _page(gold_entities, pred_entities, value="Fran Brown"):
    ann = [
        {"id": f"a{k}", "type": "PERSON_NAME", "group": "Direct", "bbox": [10, 10 + 30 * k, 90, 30 + 30 * k],
         "value": value, **({"entity": g} if g else {})}
        for k, g in enumerate(gold_entities)
    ]  # fmt: skip
    preds = [
        {"type": "PERSON_NAME", "bbox": [10, 10 + 30 * k, 90, 30 + 30 * k], **({"entity": p} if p else {})}
        for k, p in enumerate(pred_entities)
    ]
    gold = GoldPage.model_validate(
        {"page_id": "p", "image": "p.png", "width": 100, "height": 200, "source": "t", "annotations": ann}
    )
    pred = PredictionPage.model_validate({"page_id": "p", "valid": True, "predictions": preds})
    return evaluate(prepare(gold, pred, default_schema()), "iou", 0.75)


def test_the_clusters_block_scores_the_system_and_the_baselines():
    block = score_clusters([_page(["E1", "E1", "E2"], ["PERSON_NAME#1", "PERSON_NAME#1", "PERSON_NAME#2"])])
    assert block["gold_entities"] == "annotated" and block["scope"] == "page"
    assert block["matched"]["elm"]["f1"] == pytest.approx(1.0)
    assert block["baselines"]["singletons"]["matched"]["elm"]["r"] == pytest.approx(1 / 3)  # E2 alone counts 1
    assert block["baselines"]["one_per_type"]["matched"]["bcubed"]["p"] == pytest.approx((2 / 3 + 2 / 3 + 1 / 3) / 3)
    json.dumps(block)  # it goes into score --json as it is


def test_gold_without_entity_ids_derives_them_from_normal_forms():
    # three mentions of one name, no ids: derived as one entity; the prediction keeps them apart
    block = score_clusters([_page([None, None, None], [None, None, None])])
    assert block["gold_entities"] == "derived"
    assert block["matched"]["bcubed"]["r"] == pytest.approx(1 / 3)


def test_a_critical_repeat_missed_where_another_mention_was_found_is_counted():
    scope = [Mention("e1", "x", "PHONE_NUMBER", True), Mention("e1", None, "PHONE_NUMBER", True),
             Mention("e2", None, "PHONE_NUMBER", True), Mention("e2", None, "PHONE_NUMBER", True),
             Mention("e3", None, "DATE", False), Mention("e3", "y", "DATE", False),
             Mention("e4", "z", "CUSTOMER_ID", True),
             Mention("e4", None, "CUSTOMER_ID", True, covered=True)]  # fmt: skip
    assert repeats_left([scope]) == {"repeated": 6, "left": 2, "left_uncovered": 1}
