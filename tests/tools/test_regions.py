import pytest
from PIL import Image

from redact_agent.tools.regions import MAX_SIDE, MIN_SIDE, RegionError, region


@pytest.fixture
def page():
    img = Image.new("RGB", (1000, 2000), "white")
    img.putpixel((500, 1000), (255, 0, 0))
    return img


def test_crop_keeps_offset_and_maps_back(page):
    r = region(page, (400.0, 900.0, 600.0, 1100.0))
    assert r.page_box == (400, 900, 600, 1100) and r.image.size == (200, 200) and r.scale == 1
    assert r.image.getpixel((100, 100)) == (255, 0, 0)
    assert r.to_page(100, 100) == (500, 1000)


def test_zoom_scales_and_maps_back(page):
    r = region(page, (490.0, 990.0, 530.0, 1030.0), scale=3)
    assert r.image.size == (120, 120) and r.scale == 3
    assert r.to_page(30, 30) == (500, 1000)


def test_clamped_to_the_page_and_grown_to_a_minimum(page):
    r = region(page, (-50.0, -50.0, 10.0, 5.0))
    assert r.page_box == (0, 0, MIN_SIDE, MIN_SIDE)
    sliver = region(page, (500.0, 1000.0, 501.0, 1001.0))
    # Grown around its centre to MIN_SIDE, then snapped outwards to whole pixels.
    assert MIN_SIDE <= sliver.page_box[2] - sliver.page_box[0] <= MIN_SIDE + 1
    assert sliver.page_box[0] < 500 < sliver.page_box[2]
    edge = region(page, (995.0, 1995.0, 1000.0, 2000.0))
    assert edge.page_box == (1000 - MIN_SIDE, 2000 - MIN_SIDE, 1000, 2000)


def test_output_size_is_capped(page):
    r = region(page, (0.0, 0.0, 1000.0, 2000.0), scale=4)
    assert max(r.image.size) <= MAX_SIDE and r.scale == pytest.approx(MAX_SIDE / 2000)
    x, y = r.to_page(*r.image.size)
    assert x == pytest.approx(1000) and y == pytest.approx(2000)


def test_regions_off_the_page_and_bad_scales(page):
    with pytest.raises(RegionError, match="does not overlap"):
        region(page, (1200.0, 0.0, 1300.0, 10.0))
    with pytest.raises(RegionError, match="scale"):
        region(page, (0.0, 0.0, 10.0, 10.0), scale=10)
