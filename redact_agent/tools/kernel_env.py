"""What a sandboxed kernel starts with: the page and helpers, imported by the kernel itself.

Runs *inside* the sandbox only. `load()` opens the page and sets `page`, `W`, `H`; the helpers
mirror the model's tools but return Python values: `crop` and `zoom` give PIL images (pass
them to `display()` to show them), `ocr` gives word dicts with page `box_2d`, and
`to_px` / `to_grid` convert between the page's model grid and page pixels.

`display()` is our own for PIL images: IPython's path goes through Pillow's `_repr_png_`,
which returns None on *any* exception while encoding, and IPython then sends the text
`<PIL.Image.Image ...>` alone, so a transient encoder failure (a resource limit, say) lost an
image without a word. Here the PNG is encoded first and sent as a raw bundle; a failure raises,
and the model reads the error.
"""

from __future__ import annotations

import io
import sys
from typing import Any

from IPython import get_ipython
from IPython.display import display as _ipython_display
from PIL import Image

from redact_agent.coords import CoordSpace, space_named
from redact_agent.protocol import PROTOCOL
from redact_agent.tools.ocr import get_engine
from redact_agent.tools.regions import ocr_words, region

__all__ = ["H", "W", "crop", "display", "ocr", "page", "to_grid", "to_px", "zoom"]

page: Image.Image
W: int
H: int
_space: CoordSpace
_ocr: str = PROTOCOL.ocr


class _Capped:
    """A kernel stream that passes on the first `limit` characters a cell writes and counts the
    rest: a flood (a 100 MB write) is not buffered and sent whole, which could run the kernel out
    of memory outside the cell's code, and its next call then ended without running or an error."""

    def __init__(self, stream: Any, limit: int) -> None:
        self._stream, self._limit, self.written = stream, limit, 0

    def write(self, text: str) -> int:
        room = self._limit - self.written
        self.written += len(text)
        if room > 0:
            self._stream.write(text[:room])
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def cap_output(limit: int) -> None:
    """Each cell's stdout and stderr pass on `limit` characters at most (`_Capped`)."""
    streams = _Capped(sys.stdout, limit), _Capped(sys.stderr, limit)
    sys.stdout, sys.stderr = streams

    def new_cell(*_: Any) -> None:
        for stream in streams:
            stream.written = 0

    get_ipython().events.register("pre_run_cell", new_cell)


def load(path: str, space: str = "grid999", ocr_engine: str = PROTOCOL.ocr) -> None:
    """Open the page; `space` names the model's coordinate space (for "resized-pixels", the
    page here is the image the model was sent); `ocr_engine` is the finder's OCR engine."""
    global page, W, H, _space, _ocr
    page = Image.open(path).convert("RGB")
    W, H = page.size
    _space = space_named(space, W, H)
    _ocr = ocr_engine


def to_px(box_2d: list[int]) -> tuple[float, float, float, float]:
    """Page grid box -> page pixel box."""
    x0, y0, x1, y1 = box_2d
    return _space.to_pixels((x0, y0, x1, y1), W, H)


def to_grid(box_px: list[float]) -> list[int]:
    """Page pixel box -> page grid box."""
    x0, y0, x1, y1 = box_px
    return list(_space.from_pixels((x0, y0, x1, y1), W, H))


def crop(box_2d: list[int]) -> Image.Image:
    return region(page, to_px(box_2d)).image


def zoom(box_2d: list[int], scale: float = 2.0) -> Image.Image:
    return region(page, to_px(box_2d), scale).image


def ocr(box_2d: list[int] | None = None) -> list[dict[str, Any]]:
    box = to_px(box_2d) if box_2d is not None else None
    words = ocr_words(page, get_engine(_ocr), box, scale=2.0 if box is not None else 1.0)
    return [{"text": w.text, "box_2d": to_grid(list(w.bbox)), "confidence": w.confidence} for w in words]


def display(*objs: Any) -> None:
    """Show objects to the model: PIL images as PNG, anything else as IPython shows it."""
    for obj in objs:
        if not isinstance(obj, Image.Image):
            _ipython_display(obj)  # type: ignore[no-untyped-call]  # IPython is untyped here
            continue
        buf = io.BytesIO()
        obj.save(buf, format="PNG", compress_level=1)  # raises on failure: never a silent text-only display
        bundle = {"image/png": buf.getvalue(), "text/plain": f"<image {obj.width}x{obj.height}>"}
        _ipython_display(bundle, raw=True)  # type: ignore[no-untyped-call]
