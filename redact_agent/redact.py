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
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Literal, get_args

from PIL import Image, ImageDraw, ImageFont

from redact_agent.boxes import Box
from redact_agent.errors import OutputError
from redact_agent.protocol import PROTOCOL


def check_margin(margin: float) -> float:
    if not math.isfinite(margin) or margin < 0:
        raise ValueError(f"the margin must be a finite number of pixels >= 0, not {margin}")
    return margin


LabelMode = Literal["none", "type", "entity", "code"]
LABEL_MODES: tuple[LabelMode, ...] = get_args(LabelMode)
# What a labelled box says of each type: short enough to fit a value's box
SHORT = {
    "PERSON_NAME": "PERSON", "POSTAL_ADDRESS": "ADDRESS", "EMAIL_ADDRESS": "EMAIL", "PHONE_NUMBER": "PHONE",
    "GOVERNMENT_ID": "GOV ID", "FINANCIAL_ACCOUNT": "ACCOUNT", "CUSTOMER_ID": "CUSTOMER", "EMPLOYEE_ID": "EMPLOYEE",
    "POLICY_NUMBER": "POLICY", "CASE_NUMBER": "CASE", "CONTRACT_NUMBER": "CONTRACT", "INVOICE_NUMBER": "INVOICE",
    "ONLINE_ID": "ONLINE ID", "VEHICLE_ID": "VEHICLE", "DATE_OF_BIRTH": "BIRTH DATE", "DATE": "DATE",
    "LOCATION": "LOCATION", "ORGANIZATION": "ORG", "BUSINESS_ID": "BUSINESS ID", "JOB_TITLE": "TITLE",
    "SIGNATURE": "SIGNATURE", "INSTITUTION_CODE": "INSTITUTION",
}  # fmt: skip
# A label this package writes, as the audit reads it back ("PERSON 2")
LABEL = re.compile(rf"^(?:{'|'.join(sorted(map(re.escape, SHORT.values()), key=len, reverse=True))})(?: \d{{1,4}})?$")
LABEL_INK = (255, 255, 255)
_MIN_LABEL_PX = 6  # smaller print is left out: no one reads it, and OCR reads it as noise


def box_label(mode: LabelMode, type_: str, entity: str | None, codes: Mapping[str, str]) -> str | None:
    """What a box of `type_` says in `mode`: its type ("PERSON"), its entity ("PERSON 2"), its
    policy's code ("(b)(6)"), or nothing. Never any part of the value."""
    if mode == "type" or (mode == "entity" and not entity):
        return SHORT[type_]
    if mode == "entity" and entity:
        return f"{SHORT[type_]} {entity.rpartition('#')[2]}"
    return codes.get(type_) if mode == "code" else None


def _painted(box: Box, margin: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The pixels a box grown by `margin` touches, inclusive, clipped to the page."""
    x0, y0, x1, y1 = box
    w, h = size
    return (
        max(0, math.floor(x0 - margin)),
        max(0, math.floor(y0 - margin)),
        min(w - 1, math.ceil(x1 + margin) - 1),
        min(h - 1, math.ceil(y1 + margin) - 1),
    )


@cache
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's default font at `px` (loaded once a size: `_fit` tries a box's sizes in turn)."""
    return ImageFont.load_default(size=px)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, height: int) -> ImageFont.FreeTypeFont | None:
    """The largest default font whose `text` fits inside width x height (a pixel of black kept
    around it), or None when even the smallest readable one does not."""
    for px in range(min(height - 2, 48), _MIN_LABEL_PX - 1, -1):
        font = _font(px)
        if not isinstance(font, ImageFont.FreeTypeFont):
            return None  # a Pillow without FreeType has only a bitmap font of one size
        x0, y0, x1, y1 = draw.textbbox((0, 0), text, font=font)
        if x1 - x0 <= width - 2 and y1 - y0 <= height - 2:
            return font
    return None


def redact(
    page: Image.Image,
    boxes: Sequence[Box],
    margin: float = PROTOCOL.margin,
    labels: Sequence[str | None] | None = None,
) -> Image.Image:
    """The page with each box painted black; with `labels`, each box's label in white inside it,
    scaled to fit (left out where it cannot fit), after every box is painted, so that no box
    paints over another's label and no label reaches outside the black."""
    check_margin(margin)
    out = Image.frombytes("RGB", page.size, page.convert("RGB").tobytes())  # pixels only, no info
    draw = ImageDraw.Draw(out)
    painted = [_painted(box, margin, page.size) for box in boxes]
    for rect in painted:
        draw.rectangle(rect, fill=(0, 0, 0))
    for rect, label in zip(painted, labels or [], strict=False):
        x0, y0, x1, y1 = rect
        if label and (font := _fit(draw, label, x1 - x0 + 1, y1 - y0 + 1)) is not None:
            draw.text(((x0 + x1 + 1) / 2, (y0 + y1 + 1) / 2), label, fill=LABEL_INK, font=font, anchor="mm")
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
