"""Inputs of the main job: image files and PDFs (every page), directories of them.

Page ids are the file's stem, or `<stem>-p<N>` (1-based) for PDF pages. PDFs are rendered
with pypdfium2 at 150 DPI (the dev set's rendering). Anything unreadable is an `InputError`
for that file alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from redact_agent.errors import InputError
from redact_agent.images import open_image, to_rgb

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
SUFFIXES = (*IMAGE_SUFFIXES, ".pdf")
PDF_DPI = 150
MAX_PDF_PIXELS = 40_000_000  # per rendered page


@dataclass(frozen=True)
class Document:
    path: Path

    @property
    def is_pdf(self) -> bool:
        return self.path.suffix.lower() == ".pdf"

    def pages(self) -> Iterator[tuple[str, Image.Image]]:
        """(page_id, RGB image) for each page; raises InputError if the file cannot be read."""
        if not self.is_pdf:
            yield self.path.stem, open_image(self.path)
            return
        yield from _pdf_pages(self.path)


def _pdf_pages(path: Path) -> Iterator[tuple[str, Image.Image]]:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        hint = " (encrypted? a password-protected PDF cannot be read)" if "password" in str(exc).lower() else ""
        raise InputError(f"{path}: cannot open PDF: {exc}{hint}") from None
    try:
        if len(pdf) == 0:
            raise InputError(f"{path}: the PDF has no pages")
        for i in range(len(pdf)):
            page = pdf[i]
            w, h = page.get_size()
            scale = PDF_DPI / 72
            if w * h * scale * scale > MAX_PDF_PIXELS:
                scale = (MAX_PDF_PIXELS / (w * h)) ** 0.5
            image = page.render(scale=scale).to_pil()
            yield f"{path.stem}-p{i + 1}", to_rgb(image)
    finally:
        pdf.close()


def collect(inputs: list[str]) -> tuple[list[Document], list[str]]:
    """Documents to process, in order, and a message for every input that is not usable."""
    docs: list[Document] = []
    errors: list[str] = []
    for raw in inputs:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES)
            if not found:
                errors.append(f"{path}: no {'/'.join(s.lstrip('.') for s in SUFFIXES)} files in this directory")
            docs += [Document(p) for p in found]
        elif path.is_file():
            docs.append(Document(path))
        else:
            errors.append(f"{path}: no such file or directory")
    return docs, errors
