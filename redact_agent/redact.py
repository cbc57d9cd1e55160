"""Burning boxes into pixels, and writing outputs so that nothing half-written is left.

Redaction paints each box, grown by a margin, solid black into a fresh copy of the page: the
input is never touched, and the copy carries no metadata (no EXIF, text chunks, ICC or DPI).
Every pixel that the box touches is painted, so a painted area is never smaller than the
predicted box; a margin below zero is refused, since it would leave the value's edges readable.
"""

from __future__ import annotations

import math
import os
import re
import secrets
from collections.abc import Iterator, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from redact_agent.boxes import Box
from redact_agent.errors import OutputError
from redact_agent.protocol import PROTOCOL


def check_margin(margin: float) -> float:
    if not math.isfinite(margin) or margin < 0:
        raise ValueError(f"the margin must be a finite number of pixels >= 0, not {margin}")
    return margin


def redact(page: Image.Image, boxes: Sequence[Box], margin: float = PROTOCOL.margin) -> Image.Image:
    check_margin(margin)
    out = Image.frombytes("RGB", page.size, page.convert("RGB").tobytes())  # pixels only, no info
    draw = ImageDraw.Draw(out)
    w, h = page.size
    for x0, y0, x1, y1 in boxes:
        draw.rectangle(
            (
                max(0, math.floor(x0 - margin)),
                max(0, math.floor(y0 - margin)),
                min(w - 1, math.ceil(x1 + margin) - 1),
                min(h - 1, math.ceil(y1 + margin) - 1),
            ),
            fill=(0, 0, 0),
        )
    return out


_TEMPORARY = re.compile(r"^\..+\.[0-9a-f]{12}\.tmp$")  # the names `_temporary` makes


def _temporary(path: Path) -> Path:
    return path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"


def remove_stale_temporaries(folder: Path) -> None:
    """A process killed mid-write leaves its temporary file behind (never a torn output): drop
    them. One run writes into a folder at a time."""
    if folder.is_dir():
        for path in folder.rglob(".*.tmp"):
            if _TEMPORARY.match(path.name):
                path.unlink(missing_ok=True)


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename, so that
    a reader (or a process killed mid-write) never sees part of a file. The file gets the usual
    mode for the process's umask. A failure is an `OutputError` naming the file."""
    tmp = _temporary(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def check_writable(folder: Path) -> None:
    """Fail up front, before any work, when outputs cannot be written into `folder`."""
    probe = _temporary(folder / "probe")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as exc:
        raise OutputError(f"cannot write to the output folder {folder}: {exc.strerror or exc}") from None


def images_to_pdf(pages: Sequence[tuple[bytes, tuple[float, float]]]) -> bytes:
    """A PDF of the given page images (PNG bytes, each with its page size in points) only:
    lossless, no text layer, an empty info dictionary, each page the size given."""
    import img2pdf

    sizes: Iterator[tuple[float, float]] = iter([size for _, size in pages])

    def layout(_w: int, _h: int, _dpi: object) -> tuple[float, float, float, float]:
        width, height = next(sizes)  # img2pdf lays out the images in order, one call each
        return width, height, width, height

    out: bytes = img2pdf.convert(
        [png for png, _ in pages], layout_fun=layout, nodate=True, producer=None, engine=img2pdf.Engine.internal
    )
    return out
