import numpy as np
import pytest
from PIL import Image

from redact_agent.errors import InputError
from redact_agent.images import open_image


def test_plain_rgb_round_trip(tmp_path):
    p = tmp_path / "a.png"
    Image.new("RGB", (5, 4), (10, 20, 30)).save(p)
    img = open_image(p)
    assert img.mode == "RGB" and img.size == (5, 4) and img.getpixel((0, 0)) == (10, 20, 30)


@pytest.mark.parametrize(
    "make, expected",
    [
        (lambda: Image.new("CMYK", (4, 4), (0, 0, 0, 255)), (0, 0, 0)),
        (lambda: Image.new("RGBA", (4, 4), (0, 0, 0, 0)), (255, 255, 255)),  # transparent -> white paper
        (lambda: Image.new("LA", (4, 4), (0, 255)), (0, 0, 0)),
        (lambda: Image.new("L", (4, 4), 128), (128, 128, 128)),
        (lambda: Image.new("1", (4, 4), 1), (255, 255, 255)),
        (lambda: Image.fromarray(np.full((4, 4), 65535, dtype=np.uint16)), (255, 255, 255)),
    ],
)
def test_odd_modes_become_8_bit_rgb(tmp_path, make, expected):
    p = tmp_path / "x.tiff"
    make().save(p)
    img = open_image(p)
    assert img.mode == "RGB" and img.getpixel((1, 1)) == expected


def test_bad_files_are_clear_errors(tmp_path):
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    with pytest.raises(InputError, match="not an image"):
        open_image(empty)
    corrupt = tmp_path / "corrupt.png"
    good = tmp_path / "good.png"
    Image.new("RGB", (64, 64), "white").save(good)
    corrupt.write_bytes(good.read_bytes()[:60])
    with pytest.raises(InputError, match=r"corrupt\.png"):
        open_image(corrupt)
    with pytest.raises(InputError, match="no such file"):
        open_image(tmp_path / "missing.png")


def test_decompression_bomb_is_refused(tmp_path):
    bomb = tmp_path / "bomb.png"
    Image.new("1", (10_000, 10_000)).save(bomb)  # 100 Mpx, a few kB on disk
    assert bomb.stat().st_size < 100_000
    with pytest.raises(InputError, match="too many pixels"):
        open_image(bomb)
