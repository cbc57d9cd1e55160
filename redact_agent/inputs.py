"""Inputs of the main job: image files and PDFs (every page), directories of them.

Page ids are the file's stem, or `<stem>-p<N>` (1-based) for the pages of a PDF or of a TIFF
with more than one frame. PDFs are rendered with pypdfium2 at 150 DPI (the dev set's
rendering), and each page keeps its size in points so that the redacted PDF has the source's
page sizes. A directory is searched recursively (not following links to directories, so a
link loop cannot trap it); its files keep their sub-folder under the output folder. Every file
or folder that is passed over is named with the reason. Anything unreadable is an
`InputError` for that file alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from redact_agent.errors import InputError
from redact_agent.images import image_frame_count, image_frames, to_rgb

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
SUFFIXES = (*IMAGE_SUFFIXES, ".pdf")
PDF_DPI = 150
MAX_PDF_PIXELS = 40_000_000  # per rendered page
_KINDS = "/".join(s.lstrip(".") for s in SUFFIXES)


@dataclass(frozen=True)
class Page:
    page_id: str
    image: Image.Image
    size_pt: tuple[float, float] | None = None  # a PDF page's own size in points (1/72 inch)


@dataclass(frozen=True)
class Document:
    path: Path
    subdir: Path = Path()  # where its outputs go, under the output folder (a directory input's sub-folder)

    @property
    def is_pdf(self) -> bool:
        return self.path.suffix.lower() == ".pdf"

    def page_ids(self) -> list[str]:
        """The ids its pages will have, from the page count alone (nothing is rendered or
        decoded); none when the file cannot be read, which `pages` then reports."""
        try:
            count = _pdf_page_count(self.path) if self.is_pdf else image_frame_count(self.path)
        except InputError:
            return []
        if count == 1 and not self.is_pdf:
            return [self.path.stem]
        return [f"{self.path.stem}-p{n}" for n in range(1, count + 1)]

    def page(self, page_id: str) -> Page:
        """One of its pages by id, rendering (or decoding) that page alone where the format allows."""
        if self.is_pdf and page_id.startswith(f"{self.path.stem}-p"):
            index = page_id.removeprefix(f"{self.path.stem}-p")
            if index.isdigit():
                return _pdf_page(self.path, int(index) - 1)
        for page in self.pages():
            if page.page_id == page_id:
                return page
        raise InputError(f"{self.path}: has no page {page_id!r}")

    def pages(self) -> Iterator[Page]:
        """Each page in order; raises InputError if the file cannot be read."""
        if self.is_pdf:
            yield from _pdf_pages(self.path)
            return
        frames = image_frames(self.path)
        first = next(frames)
        second = next(frames, None)
        if second is None:
            yield Page(self.path.stem, first)
            return
        yield Page(f"{self.path.stem}-p1", first)
        yield Page(f"{self.path.stem}-p2", second)
        for n, frame in enumerate(frames, start=3):
            yield Page(f"{self.path.stem}-p{n}", frame)


def _open_pdf(path: Path) -> Any:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        hint = " (encrypted? a password-protected PDF cannot be read)" if "password" in str(exc).lower() else ""
        raise InputError(f"{path}: cannot open PDF: {exc}{hint}") from None


def _pdf_page_count(path: Path) -> int:
    pdf = _open_pdf(path)
    try:
        return len(pdf)
    finally:
        pdf.close()


def _pdf_pages(path: Path) -> Iterator[Page]:
    pdf = _open_pdf(path)
    try:
        if len(pdf) == 0:
            raise InputError(f"{path}: the PDF has no pages")
        for i in range(len(pdf)):
            yield _render(pdf, i, f"{path.stem}-p{i + 1}")
    finally:
        pdf.close()


def _pdf_page(path: Path, index: int) -> Page:
    pdf = _open_pdf(path)
    try:
        if not 0 <= index < len(pdf):
            raise InputError(f"{path}: has no page {index + 1} (it has {len(pdf)})")
        return _render(pdf, index, f"{path.stem}-p{index + 1}")
    finally:
        pdf.close()


def _render(pdf: Any, index: int, page_id: str) -> Page:
    page = pdf[index]
    w, h = page.get_size()
    scale = PDF_DPI / 72
    if w * h * scale * scale > MAX_PDF_PIXELS:
        scale = (MAX_PDF_PIXELS / (w * h)) ** 0.5
    image = to_rgb(page.render(scale=scale).to_pil())
    if (image.width > image.height) != (w > h):  # rendered with the page's /Rotate
        w, h = h, w
    return Page(page_id, image, (w, h))


@dataclass
class Collected:
    documents: list[Document]
    errors: list[str]  # inputs that cannot be used: the run fails
    skipped: list[tuple[Path, str]]  # files and folders passed over inside a directory, with why

    def skip_notes(self, named: int = 20) -> list[str]:
        """One line per skipped path, the first `named` of each reason, then a count of the rest."""
        by_reason: dict[str, list[Path]] = {}
        for path, why in self.skipped:
            by_reason.setdefault(why, []).append(path)
        notes = []
        for why, paths in by_reason.items():
            notes += [f"{path}: {why}" for path in paths[:named]]
            if len(paths) > named:
                notes.append(f"{len(paths) - named} more: {why}")
        return notes


def collect(inputs: list[str], recursive: bool = True) -> Collected:
    """Documents to process, in order, and a message for every input not used."""
    found = Collected([], [], [])
    for raw in inputs:
        path = Path(raw)
        if path.is_dir():
            before = len(found.documents)
            _walk(path, recursive, found)
            if len(found.documents) == before:
                found.errors.append(f"{path}: no {_KINDS} files in this directory")
        elif path.is_file():
            found.documents.append(Document(path))
        else:
            found.errors.append(f"{path}: no such file or directory")
    return found


def _walk(root: Path, recursive: bool, found: Collected) -> None:
    def unreadable(exc: OSError) -> None:
        found.skipped.append((Path(exc.filename), exc.strerror or "cannot be read"))

    for folder, dirs, files in os.walk(root, onerror=unreadable):
        here = Path(folder)
        dirs.sort()
        for name in list(dirs):
            sub = here / name
            if sub.is_symlink():
                found.skipped.append((sub, "a link to a directory (not followed)"))
            elif not recursive:
                found.skipped.append((sub, "a sub-directory (--no-recursive)"))
        if not recursive:
            dirs.clear()
        for name in sorted(files):
            path = here / name
            if path.suffix.lower() not in SUFFIXES:
                found.skipped.append((path, f"not a {_KINDS} file"))
            elif not path.is_file():
                found.skipped.append((path, "a broken link or not a regular file"))
            else:
                found.documents.append(Document(path, here.relative_to(root)))
