import numpy as np

from redact_agent.eval.matching import greedy_match, iou_candidates, pq_candidates


def test_greedy_takes_the_highest_iou_first_not_the_maximum_matching():
    # Max cardinality would pair A-Y and B-X (2 matches); the protocol is greedy: A-X only.
    iou = np.array([[0.9, 0.8], [0.8, 0.0]])
    assert greedy_match(iou, iou_candidates(iou, 0.75)).tolist() == [0, -1]


def test_ties_go_to_the_lower_gold_then_lower_prediction_index():
    iou = np.array([[0.8, 0.8], [0.8, 0.8]])
    assert greedy_match(iou, iou_candidates(iou, 0.75)).tolist() == [0, 1]
    one_pred = np.array([[0.8], [0.8]])
    assert greedy_match(one_pred, iou_candidates(one_pred, 0.75)).tolist() == [0, -1]
    two_preds = np.array([[0.8, 0.8]])
    assert greedy_match(two_preds, iou_candidates(two_preds, 0.75)).tolist() == [0]


def test_each_item_used_once_and_threshold_inclusive():
    iou = np.array([[0.75, 0.7499], [0.76, 0.0]])
    # Pair (1, 0) has the highest IoU and takes prediction 0; gold 0's other pair is below tau.
    assert greedy_match(iou, iou_candidates(iou, 0.75)).tolist() == [-1, 0]
    exact = np.array([[0.75]])
    assert greedy_match(exact, iou_candidates(exact, 0.75)).tolist() == [0]
    # IoU 3/4 computed in floats may land a hair below 0.75; it still matches.
    assert iou_candidates(np.array([[0.75 - 1e-15]]), 0.75).all()


def test_no_candidates():
    assert greedy_match(np.zeros((2, 0)), np.zeros((2, 0), dtype=bool)).tolist() == [-1, -1]
    assert greedy_match(np.zeros((0, 3)), np.zeros((0, 3), dtype=bool)).tolist() == []


def test_pq_condition_needs_more_than_half_of_each_box():
    inter = np.array([[6.0, 5.0, 6.0]])
    gold_area = np.array([10.0])
    pred_area = np.array([11.0, 9.0, 12.0])
    assert pq_candidates(inter, gold_area, pred_area).tolist() == [[True, False, False]]
