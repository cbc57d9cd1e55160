"""What a PDF page itself still holds under its redactions, read with pypdfium2.

A box drawn over text hides it on screen and on paper, but its characters stay in the page's
content, and a reader copies them out. The findings, each with the number of characters it lets
through (their text only when asked for):
- `text_under_box`: characters under an opaque filled shape drawn after them, or under a
  redaction found in the rendered page where no shape is (a scan's OCR text layer left under a
  box painted into the image); the code printed on a box is no finding;
- `unapplied_redaction`: a Redact annotation that marks an area but was never applied;
- `annotation_box`: a box that is an annotation with a fill (Square, Circle, Polygon) laid over
  the page, which anyone can delete to see what it covers.

Coordinates are the rendered page's pixels (pdfium's own page-to-device transform, so a rotated
page is handled as it is rendered). Shapes inside form XObjects are taken with the bounds pdfium
gives them; no test has a form XObject yet, so whether a form's own matrix is applied is unchecked.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from numpy.typing import NDArray

from redact_agent.audit.detect import MAX_PAGE_SHARE
from redact_agent.audit.regions import Region
from redact_agent.boxes import Box, areas, as_array, intersections
from redact_agent.errors import InputError

COVERED = 0.5  # share of a character's box a shape must cover to hide it
_FILLED_ANNOTS = {pdfium_c.FPDF_ANNOT_SQUARE, pdfium_c.FPDF_ANNOT_CIRCLE, pdfium_c.FPDF_ANNOT_POLYGON}


@dataclass(frozen=True)
class _Char:
    index: int  # in the page's text
    text: str
    box: Box
    z: int  # its text object's place in the drawing order


@dataclass(frozen=True)
class Finding:
    kind: str
    bbox: Box
    chars: int
    text: str | None

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "bbox": [round(v, 1) for v in self.bbox], "chars": self.chars, "text": self.text}


def _address(handle: Any) -> int:
    return ctypes.cast(handle, ctypes.c_void_p).value or 0


class _Device:
    """Page points to rendered pixels."""

    def __init__(self, page: pdfium.PdfPage, size: tuple[int, int]):
        self.page, self.size = page, size

    def point(self, x: float, y: float) -> tuple[float, float]:
        dx, dy = ctypes.c_int(), ctypes.c_int()
        w, h = self.size
        pdfium_c.FPDF_PageToDevice(self.page.raw, 0, 0, w, h, 0, x, y, ctypes.byref(dx), ctypes.byref(dy))
        return float(dx.value), float(dy.value)

    def box(self, left: float, bottom: float, right: float, top: float) -> Box:
        (x0, y0), (x1, y1) = self.point(left, bottom), self.point(right, top)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _opaque_fill(obj: pdfium.PdfObject) -> bool:
    mode, stroke = ctypes.c_int(), ctypes.c_int()
    if not pdfium_c.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(mode), ctypes.byref(stroke)):
        return False
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    filled = pdfium_c.FPDFPageObj_GetFillColor(obj.raw, *(ctypes.byref(c) for c in (r, g, b, a)))
    return mode.value != pdfium_c.FPDF_FILLMODE_NONE and bool(filled) and a.value == 255


def _covered(chars: list[_Char], boxes: list[Box]) -> NDArray[np.bool_]:
    """Which boxes hide which characters, shape (len(chars), len(boxes)): a box hides a character
    when it covers COVERED of the character's box."""
    if not chars or not boxes:
        return np.zeros((len(chars), len(boxes)), bool)
    char_boxes = as_array([c.box for c in chars])
    inter = intersections(char_boxes, as_array(boxes))
    need = COVERED * np.maximum(areas(char_boxes), 1e-6)
    return np.asarray((inter > 0) & (inter >= need[:, None]))


def _chars(page: pdfium.PdfPage, device: _Device, order: dict[int, int]) -> list[_Char]:
    textpage = page.get_textpage()
    try:
        out = []
        for i in range(textpage.count_chars()):
            text = textpage.get_text_range(i, 1)
            if text.strip():
                z = order.get(_address(pdfium_c.FPDFText_GetTextObject(textpage.raw, i)), -1)
                out.append(_Char(i, text, device.box(*textpage.get_charbox(i)), z))
        return out
    finally:
        textpage.close()


def _annotations(page: pdfium.PdfPage, device: _Device) -> list[tuple[str, Box]]:
    out = []
    for k in range(pdfium_c.FPDFPage_GetAnnotCount(page.raw)):
        annot = pdfium_c.FPDFPage_GetAnnot(page.raw, k)
        try:
            subtype = pdfium_c.FPDFAnnot_GetSubtype(annot)
            rect = pdfium_c.FS_RECTF()
            if not pdfium_c.FPDFAnnot_GetRect(annot, ctypes.byref(rect)):
                continue
            box = device.box(rect.left, rect.bottom, rect.right, rect.top)
            r, g, b, a = (ctypes.c_uint() for _ in range(4))
            interior = pdfium_c.FPDFAnnot_GetColor(
                annot, pdfium_c.FPDFANNOT_COLORTYPE_InteriorColor, *(ctypes.byref(c) for c in (r, g, b, a))
            )
            if subtype == pdfium_c.FPDF_ANNOT_REDACT:
                out.append(("unapplied_redaction", box))
            elif subtype in _FILLED_ANNOTS and interior:
                out.append(("annotation_box", box))
        finally:
            pdfium_c.FPDFPage_CloseAnnot(annot)
    return out


def _spelt(hidden: list[_Char]) -> str:
    """The characters' text, a space where the page's text has one between them."""
    return "".join((" " if k and c.index > hidden[k - 1].index + 1 else "") + c.text for k, c in enumerate(hidden))


def _printed_code(hidden: list[_Char], region: Region) -> bool:
    """The characters under a region spell its own code (printed on the box, in the text layer)."""
    code = "".join((region.code or "").split()).casefold()
    return bool(code) and "".join(c.text for c in hidden).replace(" ", "").casefold() == code


def page_findings(page: pdfium.PdfPage, size: tuple[int, int], regions: list[Region], show_text: bool) -> list[Finding]:
    """The findings of one PDF page rendered at `size` pixels, whose image held `regions`."""
    device = _Device(page, size)
    order, shapes = {}, []
    limit = MAX_PAGE_SHARE * size[0] * size[1]
    for drawn, obj in enumerate(page.get_objects()):
        order[_address(obj.raw)] = drawn
        if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH and _opaque_fill(obj):
            box = device.box(*obj.get_bounds())
            if (box[2] - box[0]) * (box[3] - box[1]) <= limit:
                shapes.append((drawn, box))
    chars = _chars(page, device, order)
    annotations = _annotations(page, device)
    under = _covered(chars, [box for _, box in shapes])
    z = np.array([c.z for c in chars], dtype=int)  # each character's place in the drawing order
    taken = np.zeros(len(chars), bool)

    def finding(kind: str, box: Box, hidden: NDArray[np.bool_]) -> Finding:
        taken[hidden] = True
        which = [chars[i] for i in np.flatnonzero(hidden)]
        return Finding(kind, box, len(which), _spelt(which) if show_text else None)

    out = []
    for j, (drawn, box) in enumerate(shapes):
        hidden = under[:, j] & (z < drawn) & ~taken
        if hidden.any():
            out.append(finding("text_under_box", box, hidden))
    for (kind, box), hides in zip(annotations, _covered(chars, [box for _, box in annotations]).T, strict=True):
        out.append(finding(kind, box, hides & ~taken))
    # a character drawn over a shape is printed on it (a box's code or label), not hidden
    shape_z = np.array([drawn for drawn, _ in shapes], dtype=int)
    on_top = (under & (shape_z[None, :] < z[:, None])).any(axis=1) if shapes else np.zeros(len(chars), bool)
    for region, hides in zip(regions, _covered(chars, [r.bbox for r in regions]).T, strict=True):
        hidden = hides & ~taken & ~on_top
        if hidden.any() and not _printed_code([chars[i] for i in np.flatnonzero(hidden)], region):
            out.append(finding("text_under_box", region.bbox, hidden))
    return out


class PdfLayer:
    """A PDF's pages for their findings, opened on first use and closed with `close`."""

    def __init__(self, path: Path):
        self.path = path
        self._pdf: pdfium.PdfDocument | None = None

    def findings(self, index: int, size: tuple[int, int], regions: list[Region], show_text: bool) -> list[Finding]:
        if self._pdf is None:
            try:
                self._pdf = pdfium.PdfDocument(self.path)
            except pdfium.PdfiumError as exc:
                raise InputError(f"{self.path}: cannot open PDF: {exc}") from None
        page = self._pdf[index]
        try:
            return page_findings(page, size, regions, show_text)
        finally:
            page.close()

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
