"""Reading page images safely: one place that turns a file into upright RGB pages or a clear error.

Unreadable, truncated and oversized files (Pillow's decompression-bomb guard, kept at its
default limit) raise `InputError` naming the file; odd modes (palette, CMYK, 16-bit grey,
alpha) become plain 8-bit RGB, alpha flattened onto white, as a scan would show them. The EXIF
orientation (a phone's JPEG stored sideways, a TIFF's Orientation tag) is applied on reading,
so every page is found, redacted and written the way a viewer shows it. A multi-page TIFF
yields every frame.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from redact_agent.errors import InputError


def to_rgb(image: Image.Image) -> Image.Image:
    if image.mode == "RGB":
        return image
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        image = image.point(lambda v: v / 256).convert("L")  # 16-bit grey -> 8-bit
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return image.convert("RGB")


def _upright(frame: Image.Image) -> Image.Image:
    transposed = ImageOps.exif_transpose(frame)
    return to_rgb(frame if transposed is None else transposed)


@contextmanager
def _reading(path: Path) -> Iterator[Image.Image]:
    """An image file opened for reading, every way it can fail an `InputError` naming it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                yield im
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise InputError(f"{path}: refused, too many pixels ({exc})") from None
    except UnidentifiedImageError:
        raise InputError(f"{path}: not an image Pillow can read") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise InputError(f"{path}: cannot decode image: {exc}") from None


def image_frames(path: str | Path) -> Generator[Image.Image, None, None]:
    """Every frame of an image file (one for most formats, each page of a TIFF), upright 8-bit RGB."""
    with _reading(Path(path)) as im:
        for index in range(getattr(im, "n_frames", 1)):
            im.seek(index)
            im.load()
            yield _upright(im)


def image_frame_count(path: str | Path) -> int:
    """How many frames `image_frames` yields, from the file's header (nothing decoded)."""
    with _reading(Path(path)) as im:
        return int(getattr(im, "n_frames", 1))


def open_image(path: str | Path) -> Image.Image:
    """The first frame of an image file as upright 8-bit RGB, fully decoded."""
    frames = image_frames(path)
    try:
        return next(frames)
    finally:
        frames.close()


def png_bytes(image: Image.Image, compress_level: int = 6) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
