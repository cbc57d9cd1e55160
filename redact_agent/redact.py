"""Burning boxes into pixels, and writing outputs so that nothing half-written is left.

Redaction paints each box, grown by a margin, solid black into a fresh copy of the page: the
input is never touched, and the copy carries no metadata (no EXIF, text chunks, ICC or DPI).
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from redact_agent.boxes import Box

DEFAULT_MARGIN = 2.0
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def redact(page: Image.Image, boxes: Sequence[Box], margin: float = DEFAULT_MARGIN) -> Image.Image:
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


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; outputs get the usual mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def images_to_pdf(pngs: Sequence[bytes]) -> bytes:
    """A PDF of the given page images only: lossless, no text layer, an empty info dictionary."""
    import img2pdf

    out: bytes = img2pdf.convert(list(pngs), nodate=True, producer=None, engine=img2pdf.Engine.internal)
    return out
