import pytest
from hypothesis import given
from hypothesis import strategies as st

from redact_agent.coords import GEMINI_1000, GRID_999, GRID_1000, ResizedPixels

W, H = 1275, 1650


def test_grid_999_to_pixels_by_the_formula():
    # px = v / 999 * W
    assert GRID_999.to_pixels((0, 0, 999, 999), W, H) == (0.0, 0.0, W, H)
    x0, y0, x1, y1 = GRID_999.to_pixels((100, 200, 300, 400), W, H)
    assert (x0, y0, x1, y1) == pytest.approx((100 / 999 * W, 200 / 999 * H, 300 / 999 * W, 400 / 999 * H))


def test_grid_1000_and_gemini_order():
    assert GRID_1000.to_pixels((100, 200, 300, 400), 1000, 2000) == (100, 400, 300, 800)
    # Gemini answers [ymin, xmin, ymax, xmax].
    assert GEMINI_1000.to_pixels((200, 100, 400, 300), 1000, 2000) == (100, 400, 300, 800)
    assert GEMINI_1000.from_pixels((100, 400, 300, 800), 1000, 2000) == (200, 100, 400, 300)


def test_resized_pixels_scale_from_the_sent_size():
    space = ResizedPixels(sent_width=616, sent_height=812)
    assert space.to_pixels((0, 0, 616, 812), W, H) == pytest.approx((0, 0, W, H))
    assert space.to_pixels((308, 406, 616, 812), W, H) == pytest.approx((W / 2, H / 2, W, H))
    assert space.from_pixels((W / 2, H / 2, W, H), W, H) == (308, 406, 616, 812)


@pytest.mark.parametrize(
    "space, box, problem",
    [
        (GRID_999, (0, 0, 999, 999), None),
        (GRID_999, (0, 0, 1000, 999), "outside 0..999"),
        (GRID_999, (-1, 0, 10, 10), "outside"),
        (GRID_999, (10, 0, 10, 10), "x0 < x1"),
        (GRID_1000, (0, 0, 1000, 1000), None),
        (GEMINI_1000, (10, 50, 20, 40), "x0 < x1"),  # xmin 50 > xmax 40
        (GEMINI_1000, (20, 10, 10, 40), "y0 < y1"),
        (ResizedPixels(100, 50), (0, 0, 100, 50), None),
        (ResizedPixels(100, 50), (0, 0, 100, 51), "outside the 100x50"),
    ],
)
def test_range_and_order_problems(space, box, problem):
    got = space.problem(box)
    assert (got is None) if problem is None else (problem in got)


spaces = st.sampled_from([GRID_999, GRID_1000, GEMINI_1000, ResizedPixels(616, 812), ResizedPixels(1288, 980)])
sizes = st.tuples(st.integers(200, 4000), st.integers(200, 4000))


@given(spaces, sizes, st.data())
def test_model_grid_round_trips_exactly(space, size, data):
    """model -> pixels -> model gives back the same integers (whenever a grid step >= 1 px)."""
    w, h = size
    hi_x, hi_y = (space.sent_width, space.sent_height) if isinstance(space, ResizedPixels) else (space.scale,) * 2
    if w < hi_x or h < hi_y:
        return
    x0, x1 = sorted(data.draw(st.lists(st.integers(0, hi_x), min_size=2, max_size=2, unique=True)))
    y0, y1 = sorted(data.draw(st.lists(st.integers(0, hi_y), min_size=2, max_size=2, unique=True)))
    model = (y0, x0, y1, x1) if getattr(space, "y_first", False) else (x0, y0, x1, y1)
    assert space.from_pixels(space.to_pixels(model, w, h), w, h) == model


@given(spaces, sizes, st.data())
def test_pixels_round_trip_within_half_a_grid_step(space, size, data):
    """pixels -> model -> pixels moves each edge by at most half a grid step."""
    w, h = size
    x0, x1 = sorted(data.draw(st.lists(st.floats(0, w), min_size=2, max_size=2, unique=True)))
    y0, y1 = sorted(data.draw(st.lists(st.floats(0, h), min_size=2, max_size=2, unique=True)))
    back = space.to_pixels(space.from_pixels((x0, y0, x1, y1), w, h), w, h)
    steps = (
        (w / space.sent_width, h / space.sent_height)
        if isinstance(space, ResizedPixels)
        else (
            w / space.scale,
            h / space.scale,
        )
    )
    for got, want, step in zip(back, (x0, y0, x1, y1), (steps[0], steps[1]) * 2, strict=True):
        assert abs(got - want) <= step / 2 + 1e-9
