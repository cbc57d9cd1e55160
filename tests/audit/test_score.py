"""audit-score: exact region areas, one-to-one matching under both conditions, and the figures."""

import json

import pytest

from redact_agent.audit.regions import Region, RegionPage, load_region_page
from redact_agent.audit.score import load_pairs, match_page, score
from redact_agent.errors import InputError


def test_a_polygon_is_clipped_to_a_box_exactly():
    # an L-shaped outline: a 100x20 bar with a 40x20 foot under its left end
    ell = Region((0, 0, 100, 40), polygon=((0, 0), (100, 0), (100, 20), (40, 20), (40, 40), (0, 40)))
    assert ell.area == pytest.approx(100 * 20 + 40 * 20)
    assert ell.intersection((50, 0, 100, 40)) == pytest.approx(50 * 20)  # the bar's right half only
    assert ell.intersection((0, 20, 40, 40)) == pytest.approx(40 * 20)
    assert ell.intersection((200, 200, 300, 300)) == 0


def test_iou_needs_more_than_half_and_pq_weak_needs_half_of_each():
    gold = [Region((0, 0, 100, 20))]
    wide = [Region((0, 0, 180, 20))]  # IoU 100/180 = 0.56: a match under both
    assert match_page(gold, wide, "iou")[0] == [0]
    half = [Region((0, 0, 210, 20))]  # IoU 0.48, but the gold is covered and is 48% of the box
    assert match_page(gold, half, "iou")[0] == [-1]
    assert match_page(gold, half, "pq-weak")[0] == [-1]
    shifted = [Region((45, 0, 145, 20))]  # 55% of each: pq-weak matches, IoU 0.38 does not
    assert match_page(gold, shifted, "pq-weak")[0] == [0]
    assert match_page(gold, shifted, "iou")[0] == [-1]


def test_each_region_is_matched_once_and_the_figures_follow():
    gold = RegionPage("p", 500, 500, (Region((0, 0, 100, 20)), Region((0, 100, 100, 120))), kind="black")
    pred = RegionPage("p", 500, 500, (Region((0, 0, 100, 20)), Region((0, 2, 100, 22)), Region((300, 300, 400, 320))))
    empty_gold = RegionPage("q", 500, 500, ())
    empty_pred = RegionPage("q", 500, 500, (Region((10, 10, 50, 30)),))
    result = score([(gold, pred), (empty_gold, empty_pred)], "iou")
    pooled = result["pooled"]
    assert (pooled["tp"], pooled["fp"], pooled["fn"]) == (1, 3, 1)
    assert pooled["precision"] == pytest.approx(0.25) and pooled["recall"] == pytest.approx(0.5)
    assert pooled["sq"] == pytest.approx(1.0)
    assert pooled["rq"] == pytest.approx(1 / (1 + 1.5 + 0.5))
    assert pooled["pq"] == pytest.approx(pooled["sq"] * pooled["rq"])
    assert result["per_kind"]["black"]["fp"] == 2 and result["false_regions_per_empty_page"] == 1.0


def test_a_gold_page_without_its_audit_is_named(tmp_path):
    gold, audits = tmp_path / "gold", tmp_path / "audits"
    gold.mkdir()
    audits.mkdir()
    (gold / "a.json").write_text(json.dumps({"page_id": "a", "width": 10, "height": 10, "redactions": []}))
    with pytest.raises(InputError, match="no audit for 1 gold page"):
        load_pairs(gold, audits)
    (audits / "a.audit.json").write_text(
        json.dumps({"page_id": "a", "width": 10, "height": 10, "redactions": [{"bbox": [5, 5, 20, 8]}]})
    )
    with pytest.raises(InputError, match="outside the 10x10 page"):
        load_region_page(audits / "a.audit.json")


def test_two_turned_boxes_overlap_exactly():
    diamond = Region((0, 0, 20, 20), polygon=((10, 0), (20, 10), (10, 20), (0, 10)))  # a square turned 45 degrees
    same = Region((0, 0, 20, 20), polygon=((0, 10), (10, 20), (20, 10), (10, 0)))  # the same, clockwise
    assert diamond.overlap(same) == pytest.approx(200)
    assert diamond.overlap(Region((0, 0, 10, 20))) == pytest.approx(100)  # its left half
    assert Region((0, 0, 10, 20)).overlap(diamond) == pytest.approx(100)
