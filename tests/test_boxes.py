import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from redact_agent.boxes import as_array, box_problem, covered_area, covered_areas, intersections, iou_matrix


def test_iou_hand_computed():
    a = as_array([[0, 0, 10, 10]])
    b = as_array([[0, 0, 10, 10], [5, 0, 15, 10], [0, 0, 10, 7.5], [20, 20, 30, 30], [10, 0, 20, 10]])
    np.testing.assert_allclose(iou_matrix(a, b)[0], [1.0, 50 / 150, 0.75, 0.0, 0.0])


def test_iou_with_empty_sides_and_degenerate_boxes():
    assert iou_matrix(as_array([]), as_array([[0, 0, 1, 1]])).shape == (0, 1)
    assert iou_matrix(as_array([[0, 0, 1, 1]]), as_array([])).shape == (1, 0)
    # A zero-area box has IoU 0 with anything, itself included (no division by zero).
    d = as_array([[5, 5, 5, 9]])
    assert iou_matrix(d, d)[0, 0] == 0.0
    assert iou_matrix(d, as_array([[0, 0, 10, 10]]))[0, 0] == 0.0


@pytest.mark.parametrize(
    "box, size, problem",
    [
        ([0, 0, 10, 10], (10, 10), None),
        ([0, 0, 0, 10], None, "empty or inverted"),
        ([5, 0, 4, 10], None, "empty or inverted"),
        ([-1, 0, 4, 10], None, "negative"),
        ([0, 0, 11, 10], (10, 10), "outside"),
        ([0, 0, float("nan"), 10], None, "non-finite"),
        ([0, 0, 1], None, "4 numbers"),
    ],
)
def test_box_problem(box, size, problem):
    got = box_problem(box, *(size or (None, None)))
    assert (got is None) if problem is None else (problem in got)


def test_covered_area_exact_union():
    t = np.array([0.0, 0.0, 10.0, 10.0])
    assert covered_area(t, as_array([])) == 0.0
    assert covered_area(t, as_array([[5, 5, 20, 20]])) == 25.0
    # Two overlapping halves: the overlap counts once.
    assert covered_area(t, as_array([[0, 0, 6, 10], [4, 0, 10, 10]])) == 100.0
    # Three boxes with a common overlap (inclusion-exclusion would need the triple term).
    three = as_array([[0, 0, 6, 6], [4, 0, 10, 6], [2, 2, 8, 10]])
    # The first two make [0, 0, 10, 6] (60); the third adds its part below y = 6: 6 x 4 = 24.
    assert covered_area(t, three) == 84.0
    grid = np.zeros((100, 100), dtype=bool)  # brute force at 0.1 px
    for x0, y0, x1, y1 in three:
        grid[int(y0 * 10) : int(y1 * 10), int(x0 * 10) : int(x1 * 10)] = True
    assert covered_area(t, three) == pytest.approx(grid.sum() / 100)


boxes = st.lists(
    st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(1, 10), st.integers(1, 10)).map(
        lambda t: [t[0], t[1], t[0] + t[2], t[1] + t[3]]
    ),
    max_size=6,
)


@given(boxes, boxes)
def test_covered_areas_matches_a_raster(targets, others):
    """Exact union areas (with and without the fast paths) against a 1-px raster on integer boxes."""
    ta, oa = as_array(targets), as_array(others)
    got = covered_areas(ta, oa, intersections(ta, oa))
    union = np.zeros((30, 30), dtype=bool)
    for x0, y0, x1, y1 in others:
        union[y0:y1, x0:x1] = True
    for t, (x0, y0, x1, y1) in enumerate(targets):
        assert got[t] == pytest.approx(union[y0:y1, x0:x1].sum())
