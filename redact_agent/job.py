"""The main job: redact every page of every input, write its outputs, verify the result.

For each page: find PII, burn the boxes into a copy of the image, then read the redacted
image again with a second reader (by default the other OCR engine, so that one engine's blind
spot is not checked by itself) and report what it still finds (`residual`): the first turn
of the produce-and-score loop. With `redact_residual`, a second turn burns those boxes in too
and adds them to the predictions (`residual` still lists what the first image showed).
Outputs per page: `<page_id>.json` (a prediction page) and `<page_id>.redacted.png`; a PDF
input also gets `<stem>.redacted.pdf` from its redacted page images once all of its pages
succeeded. A file that fails is reported and skipped; the batch
goes on.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from PIL import Image
from tqdm import tqdm

from redact_agent.boxes import areas, as_array, covered_areas, intersections
from redact_agent.errors import RedactAgentError
from redact_agent.images import png_bytes
from redact_agent.inputs import Document, collect
from redact_agent.local.engine import LocalEngine
from redact_agent.pages import Finding, Prediction, PredictionPage
from redact_agent.redact import images_to_pdf, redact, write_atomic
from redact_agent.schema import default_schema


@dataclass
class PageOutcome:
    page_id: str
    source: Path
    error: str | None = None
    groups: Counter[str] = field(default_factory=Counter)
    residual: int | None = 0  # None: not verified
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None

    def summary(self) -> str:
        if self.error:
            return f"{self.page_id}: FAILED: {self.error}"
        items = sum(self.groups.values())
        by_group = ", ".join(f"{g} {n}" for g, n in sorted(self.groups.items())) or "none"
        residual = "not verified" if self.residual is None else f"residual {self.residual}"
        return f"{self.page_id}: {items} items ({by_group}); {residual}; {self.seconds:.2f} s"


class Finder(Protocol):
    """What finds PII on a page: the embedded engine or a VLM backend."""

    @property
    def name(self) -> str: ...

    def find_page(self, page_id: str, image: Image.Image) -> Finding: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Job:
    engine: Finder  # finds what to redact
    verifier: LocalEngine | None  # reads the redacted page again; None skips the check
    out_dir: Path
    margin: float
    redact_residual: bool = False  # a second turn: black out what the verifier still finds


def _residual(verifier: LocalEngine, redacted: Image.Image, predictions: list[Prediction]) -> list[Prediction]:
    """What the verifier still finds on the redacted page, less the black boxes themselves
    (OCR reads a filled box as "I" or "1"; those are not leaks)."""
    found = verifier.predict(redacted)
    if not found or not predictions:
        return found
    filled = as_array([p.bbox for p in predictions])
    seen = as_array([p.bbox for p in found])
    covered = covered_areas(seen, filled, intersections(seen, filled))
    return [p for p, c, a in zip(found, covered, areas(seen), strict=True) if c < 0.5 * a]


def _write_json(path: Path, page: PredictionPage) -> None:
    write_atomic(path, (page.model_dump_json(indent=1, exclude_none=True) + "\n").encode())


def redact_page(job: Job, page_id: str, source: Path, image: Image.Image) -> tuple[PageOutcome, bytes | None]:
    """Find, redact, verify and write one page. Fails closed: when the finder's output was
    invalid, the prediction page (with its reason) is written but no redacted image is."""
    t0 = time.perf_counter()
    finding = job.engine.find_page(page_id, image)
    found = finding.page
    if finding.transcript:
        lines = "".join(json.dumps(record) + "\n" for record in finding.transcript)
        write_atomic(job.out_dir / f"{page_id}.transcript.jsonl", lines.encode())
    for name, png in finding.images.items():  # the crops and zooms the model was shown
        write_atomic(job.out_dir / f"{page_id}.transcript" / name, png)
    if not found.valid:
        _write_json(job.out_dir / f"{page_id}.json", found.model_copy(update={"engine": job.engine.name}))
        error = f"invalid model output ({found.reason}); no redacted image written"
        return PageOutcome(page_id, source, error, seconds=time.perf_counter() - t0), None
    predictions = found.predictions
    redacted = redact(image, [p.bbox for p in predictions], job.margin)
    residual = _residual(job.verifier, redacted, predictions) if job.verifier is not None else None
    if job.redact_residual and residual:
        redacted = redact(redacted, [p.bbox for p in residual], job.margin)
        predictions = predictions + residual
        found = found.model_copy(update={"predictions": predictions})
    png = png_bytes(redacted)
    write_atomic(job.out_dir / f"{page_id}.redacted.png", png)
    _write_json(
        job.out_dir / f"{page_id}.json", found.model_copy(update={"engine": job.engine.name, "residual": residual})
    )
    groups: Counter[str] = Counter(default_schema().group_of(p.type) for p in predictions)
    checked = len(residual) if residual is not None else None
    return PageOutcome(page_id, source, None, groups, checked, time.perf_counter() - t0), png


_SEEN_LOCK = threading.Lock()


def _document(job: Job, doc: Document, seen: dict[str, Path]) -> list[PageOutcome]:
    outcomes: list[PageOutcome] = []
    pngs: list[bytes] = []
    try:
        for page_id, image in doc.pages():
            with _SEEN_LOCK:  # documents run in threads: claim the page id atomically
                first = seen.setdefault(page_id, doc.path)
            if first != doc.path:
                outcomes.append(PageOutcome(page_id, doc.path, f"page id already written from {first}"))
                continue
            try:
                outcome, png = redact_page(job, page_id, doc.path, image)
            except RedactAgentError as exc:
                outcomes.append(PageOutcome(page_id, doc.path, str(exc)))
                continue
            outcomes.append(outcome)
            if png is not None:
                pngs.append(png)
    except RedactAgentError as exc:
        outcomes.append(PageOutcome(doc.path.stem, doc.path, str(exc)))
    if doc.is_pdf and pngs and all(o.ok for o in outcomes):
        write_atomic(job.out_dir / f"{doc.path.stem}.redacted.pdf", images_to_pdf(pngs))
    return outcomes


def run(job: Job, inputs: list[str], concurrency: int = 1) -> int:
    """Process everything, `concurrency` documents at a time (pages of one PDF stay in order);
    print one line per page; 0 when every page succeeded, else 1."""
    docs, errors = collect(inputs)
    for e in errors:
        print(f"redact-agent: error: {e}", file=sys.stderr)
    outcomes = asyncio.run(_run_all(job, docs, max(1, concurrency)))
    failed = [o for o in outcomes if not o.ok]
    if len(outcomes) > 1 or failed or errors:
        print(f"{len(outcomes) - len(failed)} of {len(outcomes)} pages redacted into {job.out_dir}", file=sys.stderr)
    return 0 if outcomes and not failed and not errors else 1


async def _run_all(job: Job, docs: list[Document], concurrency: int) -> list[PageOutcome]:
    seen: dict[str, Path] = {}
    outcomes: list[PageOutcome] = []
    gate = asyncio.Semaphore(concurrency)
    with tqdm(total=len(docs), unit="file", disable=None if len(docs) > 1 else True, file=sys.stderr) as bar:

        async def one(doc: Document) -> None:
            async with gate:
                done = await asyncio.to_thread(_document, job, doc, seen)
            for outcome in done:
                outcomes.append(outcome)
                line = outcome.summary()
                if outcome.ok:
                    tqdm.write(line, file=sys.stdout)
                else:
                    tqdm.write(f"redact-agent: error: {line}", file=sys.stderr)
            bar.update(1)

        await asyncio.gather(*(one(doc) for doc in docs))
    return outcomes
