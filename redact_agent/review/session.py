"""The state of a review of one run's output folder, and every change to it.

A run's pages are those its manifest records as done, each with its prediction JSON and its
original (the manifest says where). Each proposed box starts `proposed`; a reviewer accepts or
rejects it, moves or resizes it, draws new ones or adds every hit of a search. Each decision is
appended to `OUT/review.jsonl` (time, page, box, action, before, after) as it is made, and the
state is that log replayed, so a review that is closed and opened again goes on where it
stopped, and the release can be audited later. `apply` writes the final outputs from the boxes
that are not rejected, through the main job's own redaction and verification.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from PIL import Image

from redact_agent.boxes import union_box
from redact_agent.errors import InputError
from redact_agent.images import png_bytes
from redact_agent.inputs import Document, Page
from redact_agent.job import verify, write_page_json
from redact_agent.local.engine import LocalEngine
from redact_agent.manifest import read_entries
from redact_agent.pages import Prediction, PredictionPage, load_prediction_page
from redact_agent.protocol import PROTOCOL
from redact_agent.redact import images_to_pdf, redact, write_atomic
from redact_agent.schema import default_schema
from redact_agent.tools.ocr import get_engine, lines

LOG = "review.jsonl"
State = Literal["proposed", "accepted", "rejected"]


@dataclass
class Box:
    id: str
    bbox: list[float]
    type: str
    group: str
    value: str | None = None
    state: State = "proposed"
    origin: str = "finder"  # finder, drawn, search
    entity: str | None = None
    reason: str | None = None

    @property
    def kept(self) -> bool:
        return self.state != "rejected"


@dataclass
class ReviewPage:
    page_id: str  # the page's outputs, relative to the output folder, without suffix: "sub/doc-p3"
    source: Path
    boxes: dict[str, Box]
    residual: int
    width: int
    height: int
    history: list[dict[str, Any]] = field(default_factory=list)  # this page's decisions, for undo

    @property
    def reviewed(self) -> bool:
        return all(b.state != "proposed" for b in self.boxes.values())

    def summary(self) -> dict[str, Any]:
        groups: dict[str, int] = {}
        for b in self.boxes.values():
            if b.kept:
                groups[b.group] = groups.get(b.group, 0) + 1
        state = "reviewed" if self.reviewed else "open"
        return {"id": self.page_id, "groups": groups, "residual": self.residual, "state": state}


class Review:
    def __init__(self, out_dir: Path, margin: float = PROTOCOL.margin) -> None:
        self.out_dir = out_dir
        self.margin = margin
        self.log = out_dir / LOG
        self._lock = threading.Lock()
        self._schema = default_schema()
        entries = read_entries(out_dir)
        self.pages: dict[str, ReviewPage] = {}
        for name, entry in entries.items():
            if entry.status == "ok" and (out_dir / f"{name}.json").is_file():
                self.pages[name] = self._load(name, Path(entry.source))
        if not self.pages:
            raise InputError(f"{out_dir}: no redacted pages to review (run `redact-agent INPUT -o {out_dir}` first)")
        if self.log.is_file():
            for line in self.log.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line torn by a kill
                if record.get("page") in self.pages and record["action"] != "apply":
                    self._apply_record(self.pages[record["page"]], record)

    def _load(self, name: str, source: Path) -> ReviewPage:
        found = load_prediction_page(self.out_dir / f"{name}.json")
        boxes = {}
        for k, p in enumerate(found.predictions):
            box = Box(
                f"f{k}", list(p.bbox), p.type, self._schema.group_of(p.type), p.value, entity=p.entity, reason=p.reason
            )
            boxes[box.id] = box
        with Image.open(self.out_dir / f"{name}.redacted.png") as im:
            width, height = im.size
        return ReviewPage(name, source, boxes, len(found.residual or []), width, height)

    def page(self, name: str) -> ReviewPage:
        try:
            return self.pages[name]
        except KeyError:
            raise InputError(f"no page {name!r} in this review") from None

    def original(self, name: str) -> Page:
        """The page as the main job read it (with a PDF page's size), from the original the
        manifest names."""
        return Document(self.page(name).source).page(Path(name).name)

    def act(self, name: str, action: str, box: str | None = None, **change: Any) -> dict[str, Any]:
        """One decision: accept or reject a box, add one (`bbox`, `type`, `origin`), move one
        (`bbox`), or undo this page's last decision. Logged before it is returned."""
        with self._lock:
            page = self.page(name)
            if action == "undo":
                if not page.history:
                    raise InputError(f"{name}: nothing to undo")
                last = page.history[-1]
                record = {"page": name, "box": last["box"], "action": "undo", "before": last["after"],
                          "after": last["before"]}  # fmt: skip
            elif action == "add":
                prefix = "s" if change.get("origin") == "search" else "d"
                new = Box(f"{prefix}{len(page.boxes)}", _bbox(change.get("bbox"), page), _type(change.get("type")),
                          "", change.get("value"), "accepted", "search" if prefix == "s" else "drawn")  # fmt: skip
                new.group = self._schema.group_of(new.type)
                record = {"page": name, "box": new.id, "action": "add", "before": None, "after": asdict(new)}
            else:
                if box not in page.boxes:
                    raise InputError(f"{name}: no box {box!r}")
                before = asdict(page.boxes[box])
                after = dict(before)
                if action == "accept":
                    after["state"] = "accepted"
                elif action == "reject":
                    after["state"] = "rejected"
                elif action == "move":
                    after["bbox"] = _bbox(change.get("bbox"), page)
                else:
                    raise InputError(f"unknown action {action!r}")
                record = {"page": name, "box": box, "action": action, "before": before, "after": after}
            record = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), **record}
            with self.log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(record) + "\n")
            self._apply_record(page, record)
            return record

    @staticmethod
    def _apply_record(page: ReviewPage, record: dict[str, Any]) -> None:
        after = record["after"]
        if after is None:
            page.boxes.pop(record["box"], None)
        else:
            page.boxes[record["box"]] = Box(**after)
        if record["action"] == "undo":
            page.history.pop()
        else:
            page.history.append(record)

    def search(self, pattern: str, regex: bool, names: list[str] | None = None) -> list[dict[str, Any]]:
        """Every OCR word (or run of words on a line) of the pages that matches, case-insensitively:
        a regular expression, or a plain word or phrase."""
        try:
            compiled = re.compile(pattern if regex else re.escape(pattern), re.IGNORECASE)
        except re.error as exc:
            raise InputError(f"not a regular expression: {exc}") from None
        if not pattern.strip():
            raise InputError("an empty search")
        hits = []
        for name in names or list(self.pages):
            for line in lines(get_engine(PROTOCOL.ocr).words(self.original(name).image)):
                text, spans = "", []
                for w in line:
                    start = len(text) + (1 if text else 0)
                    text = f"{text} {w.text}" if text else w.text
                    spans.append((start, start + len(w.text), w))
                for m in compiled.finditer(text):
                    inside = [w for a, b, w in spans if a < m.end() and b > m.start()]
                    if m.end() > m.start() and inside:
                        bbox = list(union_box([w.bbox for w in inside]))
                        hits.append({"page": name, "bbox": bbox, "text": m.group(0)})
        return hits

    def apply(self, names: list[str] | None = None) -> dict[str, Any]:
        """Write each page's final outputs from its kept boxes, verify them, and rebuild the
        redacted PDF of each PDF original whose pages are all in this review."""
        verifier = LocalEngine(mode="single", ocr="tesseract")
        done: dict[str, Any] = {}
        sizes: dict[str, tuple[float, float]] = {}  # each PDF page's size in points, as rendered here
        for name in names or list(self.pages):
            page = self.page(name)
            original = self.original(name)
            kept = [b for b in page.boxes.values() if b.kept]
            predictions = [Prediction(type=b.type, bbox=(b.bbox[0], b.bbox[1], b.bbox[2], b.bbox[3]), value=b.value,
                                      reason=b.reason if b.origin == "finder" else f"{b.origin} in review",
                                      entity=b.entity)
                           for b in kept]  # fmt: skip
            redacted = redact(original.image, [p.bbox for p in predictions], self.margin)
            still = verify(verifier, redacted, predictions)
            write_atomic(self.out_dir / f"{name}.redacted.png", png_bytes(redacted))
            final = PredictionPage(page_id=Path(name).name, valid=True, predictions=predictions, residual=still)
            write_page_json(self.out_dir / f"{name}.json", final.model_copy(update={"engine": "review"}), "keep")
            page.residual = len(still)
            done[name] = {"kept": len(kept), "residual": [{"type": r.type, "bbox": r.bbox, "value": r.value}
                                                          for r in still]}  # fmt: skip
            if original.size_pt is not None:
                sizes[name] = original.size_pt
        for source in {self.pages[name].source for name in sizes}:
            self._pdf(source, sizes)
        with self._lock, self.log.open("a", encoding="utf-8") as fh:
            record = {"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "page": None, "box": None, "action": "apply",
                      "before": None, "after": {n: d["kept"] for n, d in done.items()}}  # fmt: skip
            fh.write(json.dumps(record) + "\n")
        return done

    def _pdf(self, source: Path, sizes: dict[str, tuple[float, float]]) -> None:
        """The redacted PDF of `source` again, when every page of it is in this review; the
        pages applied now have their sizes, the others are rendered for theirs."""
        doc = Document(source)
        order = {page_id: k for k, page_id in enumerate(doc.page_ids())}
        names = sorted(
            (n for n, p in self.pages.items() if p.source == source), key=lambda n: order.get(Path(n).name, -1)
        )
        if [Path(n).name for n in names] != list(order):
            return  # a page of it is not in this review: the PDF would miss it
        pages = []
        for name in names:
            size = sizes.get(name) or doc.page(Path(name).name).size_pt
            assert size is not None
            pages.append(((self.out_dir / f"{name}.redacted.png").read_bytes(), size))
        parent = Path(names[0]).parent
        write_atomic(self.out_dir / parent / f"{source.stem}.redacted.pdf", images_to_pdf(pages))


def _bbox(value: Any, page: ReviewPage) -> list[float]:
    """A box from the browser, checked: four finite numbers, inside the page, not empty."""
    if not isinstance(value, list) or len(value) != 4 or not all(isinstance(v, int | float) for v in value):
        raise InputError("a box is [x0, y0, x1, y1] in page pixels")
    x0, y0, x1, y1 = (float(v) for v in value)
    x0, x1 = max(0.0, min(x0, x1)), min(float(page.width), max(x0, x1))
    y0, y1 = max(0.0, min(y0, y1)), min(float(page.height), max(y0, y1))
    if x1 - x0 < 1 or y1 - y0 < 1:
        raise InputError("a box must be at least a pixel on each side, inside the page")
    return [x0, y0, x1, y1]


def _type(value: Any) -> str:
    schema = default_schema()
    if not isinstance(value, str) or value not in schema.type_names:
        raise InputError(f"unknown type {value!r}")
    return value
