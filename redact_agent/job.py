"""The main job: redact every page of every input, write its outputs, verify the result.

A document (a PDF's pages, or a folder's files with `document`) is read in two passes: every
page is found and its entities linked, then each page gets, besides its own boxes, those of the
values found on the document's other pages that are printed on it. Then for each page: burn the
boxes into a copy of the image, then read the redacted
image again with a second reader (by default the other OCR engine, so that one engine's blind
spot is not checked by itself) and report what it still finds (`residual`): the first turn
of the produce-and-score loop. With `redact_residual`, a second turn burns those boxes in too
and adds them to the predictions (`residual` still lists what the first image showed).
Outputs per page: `<page_id>.json` (a prediction page) and `<page_id>.redacted.png`; a PDF
input also gets `<stem>.redacted.pdf` from its redacted page images once all of its pages
succeeded. A page or file that fails is reported and skipped, and the batch goes on; only a
model server that refuses every request (`BackendUnavailable`) stops it. Every page gets a
line in `OUT/manifest.jsonl`; with `resume`, pages that an earlier run of the same
configuration finished are skipped, so a killed run is completed by running it again.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from redact_agent import __version__
from redact_agent.boxes import areas, as_array, covered_areas, intersections, iou_matrix
from redact_agent.errors import BackendUnavailable, RedactAgentError
from redact_agent.images import png_bytes
from redact_agent.inputs import Document, Page
from redact_agent.linking import Linker
from redact_agent.local.engine import LocalEngine, printed_again
from redact_agent.local.unread import read
from redact_agent.machine import peak_mb
from redact_agent.manifest import Entry, Manifest, config_hash
from redact_agent.pages import Prediction, PredictionPage, load_prediction_page
from redact_agent.protocol import PROTOCOL, OcrName
from redact_agent.redact import (
    LabelMode,
    box_label,
    check_margin,
    images_to_pdf,
    redact,
    write_atomic,
)
from redact_agent.schema import default_schema
from redact_agent.systems import Finder
from redact_agent.tools.ocr import Word, get_engine

Values = Literal["keep", "omit"]
# A box at least this much under the page's boxes is one of them: a verifier's finding (OCR reads a
# black box as "I"), or a value found on another page that the page's own boxes already hold.
COVERED = 0.5
WITHIN = 0.9  # of a prediction's box that a repeat reaching beyond it takes in, to take its place


@dataclass
class PageOutcome:
    page_id: str
    source: Path
    error: str | None = None
    groups: Counter[str] = field(default_factory=Counter)
    residual: int | None = 0  # None: not verified
    seconds: float = 0.0
    earlier: bool = False  # finished by an earlier run of the same configuration (resume)

    @property
    def ok(self) -> bool:
        return self.error is None

    def summary(self) -> str:
        if self.error:
            return f"{self.page_id}: FAILED: {self.error}"
        if self.earlier:
            return f"{self.page_id}: done by an earlier run, skipped"
        items = sum(self.groups.values())
        by_group = ", ".join(f"{g} {n}" for g, n in sorted(self.groups.items())) or "none"
        residual = "not verified" if self.residual is None else f"residual {self.residual}"
        return f"{self.page_id}: {items} items ({by_group}); {residual}; {self.seconds:.2f} s"


@dataclass(frozen=True)
class Job:
    engine: Finder  # finds what to redact
    verifier: LocalEngine | None  # reads the redacted page again; None skips the check
    out_dir: Path
    margin: float = PROTOCOL.margin
    redact_residual: bool = False  # a second turn: black out what the verifier still finds
    values: Values = "keep"  # omit: the page JSON carries boxes and types, never the redacted text
    fail_on_residual: bool = False  # exit 1 when the verifier still reads PII on a redacted page
    settings: dict[str, Any] = field(default_factory=dict)  # what else changes the outputs (the CLI's options)
    label: LabelMode = "none"  # what each black box says (`redact.box_label`)
    document: bool = False  # a folder's files are one document: entities linked across them
    ocr: OcrName = PROTOCOL.ocr  # reads a document's later pages for its entities' other mentions
    codes: tuple[tuple[str, str], ...] = ()  # the policy's codes, for label "code"

    def __post_init__(self) -> None:
        check_margin(self.margin)

    @property
    def config(self) -> dict[str, Any]:
        """Everything that changes this job's outputs, as recorded in the manifest."""
        own: dict[str, Any] = {"finder": self.engine.name, "verifier": self.verifier.name if self.verifier else None}
        own |= {"margin": self.margin, "redact_residual": self.redact_residual, "values": self.values}
        own |= {"label": self.label, "codes": dict(self.codes)} if self.label != "none" else {}
        own |= {"document": True} if self.document else {}
        return {**self.settings, **own, "version": __version__}


def verify(verifier: LocalEngine, redacted: Image.Image, predictions: list[Prediction]) -> list[Prediction]:
    """What the verifier still finds on the redacted page, less the black boxes themselves
    (OCR reads a filled box as "I" or "1"; those are not leaks)."""
    found = verifier.predict(redacted)
    if not found or not predictions:
        return found
    filled = as_array([p.bbox for p in predictions])
    seen = as_array([p.bbox for p in found])
    covered = covered_areas(seen, filled, intersections(seen, filled))
    return [p for p, c, a in zip(found, covered, areas(seen), strict=True) if c < COVERED * a]


def _uncovered(new: list[Prediction], predictions: list[Prediction]) -> list[Prediction]:
    """The new predictions that the page's own do not already cover (`COVERED` of their area);
    a critical one is covered only by critical predictions ("W. Davis" inside a wrongly found
    organisation's name is still a person's name, and is labelled one)."""
    critical = default_schema().is_critical
    boxes = as_array([p.bbox for p in new])

    def covered(taken: list[Prediction]) -> NDArray[np.float64]:
        others = as_array([q.bbox for q in taken])
        return covered_areas(boxes, others, intersections(boxes, others))

    by_any, by_critical = covered(predictions), covered([q for q in predictions if critical(q.type)])
    return [
        p
        for p, area, any_, crit in zip(new, areas(boxes), by_any, by_critical, strict=True)
        if (crit if critical(p.type) else any_) < COVERED * area
    ]


def _outranked(predictions: list[Prediction], again: list[Prediction]) -> list[Prediction]:
    """The page's predictions less those that a surer mention found on another page, printed in
    the same place, types otherwise: a code typed by its shape alone here that another page
    printed under its label ("Invoice # ST-12183"); and those that a repeat of their type takes in
    (`WITHIN` of their box) and reaches beyond (its box over a ninth larger): the value read
    further ("ORD-4", the start of "ORD-47797" that the page took for a whole code, the rest under
    a stamp's letters). The repeat takes their place."""
    if not predictions or not again:
        return predictions
    mine, theirs = as_array([p.bbox for p in predictions]), as_array([a.bbox for a in again])
    same_place = iou_matrix(mine, theirs) >= COVERED
    taken_in = intersections(mine, theirs) >= WITHIN * areas(mine)[:, None]
    further = taken_in & (areas(theirs)[None, :] > areas(mine)[:, None] / WITHIN)
    return [
        p
        for p, places, beyond in zip(predictions, same_place, further, strict=True)
        if not any(
            (here and a.type != p.type and (a.confidence or 0.0) > (p.confidence or 0.0)) or (more and a.type == p.type)
            for a, here, more in zip(again, places, beyond, strict=True)
        )
    ]


def write_page_json(path: Path, page: PredictionPage, values: Values) -> None:
    if values == "omit":
        update = {}
        for key in ("predictions", "residual", "raw_predictions"):
            items: list[Prediction] | None = getattr(page, key)
            if items is not None:
                # a reason may quote the value ("the surname of 'Ann Lee'"): it goes with it
                update[key] = [p.model_copy(update={"value": None, "reason": None}) for p in items]
        page = page.model_copy(update=update)
    write_atomic(path, (page.model_dump_json(indent=1, exclude_none=True) + "\n").encode())


@dataclass
class Found:
    """One page after the finding pass: its linked predictions and, for a document of more than
    one page, its OCR words, read upright (where the other pages' values are searched)."""

    doc: Document
    page: PredictionPage
    words: list[Word] | None
    turn: Image.Transpose | None  # the turn the words were read at (`unread.read`)
    seconds: float

    @property
    def page_id(self) -> str:
        return self.page.page_id

    @property
    def name(self) -> Path:
        """Where its outputs go, under the output folder."""
        return self.doc.subdir / self.page_id


def find_page(job: Job, out: Path, page: Page, doc: Document, linker: Linker, many: bool) -> Found | PageOutcome:
    """Find and link (`linker`: the document's, so that an entity keeps its id from page to page)
    one page; with `many` pages in the document, read its words for the second pass. Fails
    closed: when the finder's output was invalid, the prediction page (with its reason) is
    written and the page fails."""
    t0 = time.perf_counter()
    page_id, image = page.page_id, page.image
    finding = job.engine.find_page(page_id, image)
    found = finding.page.model_copy(update={"engine": job.engine.name})
    if finding.transcript:
        lines = "".join(json.dumps(record) + "\n" for record in finding.transcript)
        write_atomic(out / f"{page_id}.transcript.jsonl", lines.encode())
    for name, png in finding.images.items():  # the crops and zooms the model was shown
        write_atomic(out / f"{page_id}.transcript" / name, png)
    if not found.valid:
        write_page_json(out / f"{page_id}.json", found, job.values)
        error = f"invalid model output ({found.reason}); no redacted image written"
        return PageOutcome(page_id, doc.path, error, seconds=time.perf_counter() - t0)
    found = found.model_copy(update={"predictions": linker.link(found.predictions)})
    words, turn = None, None
    if many:
        _, turn, words = read(image, get_engine(job.ocr))
    return Found(doc, found, words, turn, time.perf_counter() - t0)


def redact_page(
    job: Job, page: Found, image: Image.Image, others: list[Prediction], linker: Linker
) -> tuple[PageOutcome, bytes]:
    """Redact, verify and write one found page. `others`: what the document's other pages found;
    where their values are printed here, in any of their forms, and the finder missed them,
    they are redacted too (linked as the entities they are)."""
    t0 = time.perf_counter()
    out = job.out_dir / page.doc.subdir
    predictions = page.page.predictions
    if others and page.words is not None:
        again = printed_again(image, page.words, page.turn, others)
        predictions = _outranked(predictions, again)
        predictions = predictions + linker.link(_uncovered(again, predictions))
    codes = dict(job.codes)
    labels = [box_label(job.label, p.type, p.entity, codes) for p in predictions]
    redacted = redact(image, [p.bbox for p in predictions], job.margin, labels)
    residual = verify(job.verifier, redacted, predictions) if job.verifier is not None else None
    if job.redact_residual and residual:
        redacted = redact(redacted, [p.bbox for p in residual], job.margin)
        predictions = predictions + residual
    png = png_bytes(redacted)
    write_atomic(out / f"{page.page_id}.redacted.png", png)
    final = page.page.model_copy(update={"predictions": predictions, "residual": residual})
    write_page_json(out / f"{page.page_id}.json", final, job.values)
    groups: Counter[str] = Counter(default_schema().group_of(p.type) for p in predictions)
    checked = len(residual) if residual is not None else None
    seconds = page.seconds + time.perf_counter() - t0
    return PageOutcome(page.page_id, page.doc.path, None, groups, checked, seconds), png


class Batch:
    """What the documents of one run share (in threads, or copied into worker processes): the
    source that holds each output name (the first input, in order, whose page has it), so that two
    inputs never overwrite each other's outputs, the manifest, and the stop signal."""

    def __init__(self, job: Job, docs: list[Document], resume: bool) -> None:
        self._lock = threading.Lock()
        self.owners: dict[Path, Path] = {}
        self.pages: dict[Path, int] = {}  # each input's page count
        for doc in docs:
            page_ids = doc.page_ids()
            self.pages[doc.path] = len(page_ids)
            for page_id in page_ids:
                self.owners.setdefault(doc.subdir / page_id, doc.path)
        self.stop = threading.Event()  # set when the finder can serve no page at all
        self.manifest = Manifest(job.out_dir, resume)
        self.config = config_hash(job.config)
        self.entries: list[Entry] = []

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("_lock", "stop")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _lock=threading.Lock(), stop=threading.Event())

    def record(self, name: Path, outcome: PageOutcome) -> None:
        entry = Entry(
            page=str(name),
            source=str(outcome.source.absolute()),  # where the original is, for `review`
            status="ok" if outcome.ok else "failed",
            seconds=round(outcome.seconds, 3),
            items=sum(outcome.groups.values()),
            groups=dict(outcome.groups),
            residual=outcome.residual,
            config=self.config,
            version=__version__,
            error=outcome.error,
            process=os.getpid(),
            peak_mb=peak_mb(),
        )
        with self._lock:
            self.entries.append(entry)
        if not outcome.earlier:
            self.manifest.record(entry)

    def earlier(self, name: Path, out: Path, source: Path) -> PageOutcome | None:
        """The outcome of a page an earlier run finished under this configuration, when its
        outputs are all still there."""
        entry = self.manifest.finished(str(name), self.config)
        if entry is None or not (out / f"{name.name}.json").is_file():
            return None
        if not (out / f"{name.name}.redacted.png").is_file():
            return None
        return PageOutcome(name.name, source, None, Counter(entry.groups), entry.residual, entry.seconds, earlier=True)


@dataclass
class _Settled:
    """A page the reading pass settled: failed, or finished by an earlier run (with its
    predictions, whose values the other pages are searched for, and its PDF page)."""

    name: Path
    outcome: PageOutcome
    predictions: list[Prediction] = field(default_factory=list)
    pdf_page: tuple[bytes, tuple[float, float]] | None = None


def documents(job: Job, docs: list[Document], batch: Batch) -> list[PageOutcome]:
    """Files one after another, their entities linked across all their pages: a PDF's pages, or,
    with `job.document`, every file of a folder (in name order) as one document. Two passes, as
    a careful redactor reads: every page is found and linked first, then each is redacted with
    the values found on all the others, earlier and later pages alike, searched in its words;
    no page of a document is written before all of it has been read."""
    linker = Linker()
    many = sum(batch.pages[doc.path] for doc in docs) > 1
    read: list[Found | _Settled] = []
    for doc in docs:
        try:
            for page in doc.pages():
                if batch.stop.is_set():
                    return [r.outcome for r in read if isinstance(r, _Settled)]
                found = _find(job, doc, page, batch, linker, many)
                if isinstance(found, _Settled):
                    batch.record(found.name, found.outcome)
                read.append(found)
        except BackendUnavailable:
            raise
        except RedactAgentError as exc:  # the file cannot be read (further)
            outcome = PageOutcome(doc.path.stem, doc.path, str(exc))
            batch.record(doc.subdir / doc.path.stem, outcome)
            read.append(_Settled(doc.subdir / doc.path.stem, outcome))
    values = _values(r.page.predictions if isinstance(r, Found) else r.predictions for r in read)
    outcomes: list[PageOutcome] = []
    pdf_pages: dict[Path, list[tuple[bytes, tuple[float, float]]]] = {}
    for k, r in enumerate(read):
        if isinstance(r, _Settled):
            outcomes.append(r.outcome)
            if r.pdf_page is not None:
                pdf_pages.setdefault(r.outcome.source, []).append(r.pdf_page)
            continue
        others = [p for p, on in values if on != {k}]
        try:
            page = r.doc.page(r.page_id)  # read again: a document's images are not all held at once
            outcome, png = redact_page(job, r, page.image, others, linker)
            if page.size_pt is not None:
                pdf_pages.setdefault(r.doc.path, []).append((png, page.size_pt))
        except RedactAgentError as exc:
            outcome = PageOutcome(r.page_id, r.doc.path, str(exc))
        batch.record(r.name, outcome)
        outcomes.append(outcome)
    for doc in docs:
        if doc.is_pdf and doc.path in pdf_pages and all(o.ok for o in outcomes if o.source == doc.path):
            try:
                pdf = images_to_pdf(pdf_pages[doc.path])
                write_atomic(job.out_dir / doc.subdir / f"{doc.path.stem}.redacted.pdf", pdf)
            except RedactAgentError as exc:
                outcomes.append(PageOutcome(doc.path.stem, doc.path, str(exc)))
    return outcomes


def _values(pages: Iterable[list[Prediction]]) -> list[tuple[Prediction, set[int]]]:
    """Each value the pages found (its first mention), with the pages it was found on."""
    seen: dict[tuple[str, str], tuple[Prediction, set[int]]] = {}
    for k, predictions in enumerate(pages):
        for p in predictions:
            if p.value:
                seen.setdefault((p.type, p.value), (p, set()))[1].add(k)
    return list(seen.values())


def _find(job: Job, doc: Document, page: Page, batch: Batch, linker: Linker, many: bool) -> Found | _Settled:
    """The reading pass for one page: found and linked, or settled (another input writes its
    outputs; an earlier run finished it, whose entities are linked again; it failed)."""
    out, name = job.out_dir / doc.subdir, doc.subdir / page.page_id
    first = batch.owners.get(name, doc.path)
    if first != doc.path:
        return _Settled(name, PageOutcome(page.page_id, doc.path, f"page id already written from {first}"))
    outcome = batch.earlier(name, out, doc.path)
    if outcome is not None:
        predictions = linker.link(load_prediction_page(out / f"{page.page_id}.json").predictions)
        png = (out / f"{page.page_id}.redacted.png").read_bytes() if page.size_pt else None
        return _Settled(name, outcome, predictions, (png, page.size_pt) if png and page.size_pt else None)
    try:
        found = find_page(job, out, page, doc, linker, many)
    except BackendUnavailable:
        batch.stop.set()
        raise
    except RedactAgentError as exc:
        found = PageOutcome(page.page_id, doc.path, str(exc))
    return _Settled(name, found) if isinstance(found, PageOutcome) else found
