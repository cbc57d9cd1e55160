"""`redact-agent synth OUT --pages N --seed S [--profile P]`: a page set with exact gold.

Page i of seed S depends only on (S, i): its own random generator decides page type (from the
profile's mix, allotted over the whole set), size, resolution, font, density, injection text
and noise (`pages.py` draws it). Pages are written as `<page_id>.png` + `<page_id>.json` (a gold
page), the layout of ../shared/data/dev/, in parallel worker processes; the same arguments give
the same bytes. The `redactions` profile writes redacted pages of the `leakagebench` mix, with
their redactions as gold (`redactions.py`); `documents` writes the same mix as documents of
three pages (`<id>-p1` ...) that name each other's people, phones and codes (`render_document`).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path

from redact_agent.images import png_bytes
from redact_agent.machine import cores
from redact_agent.pages import GoldPage
from redact_agent.redact import write_atomic
from redact_agent.schema import Schema, default_schema
from redact_agent.synth.canvas import Canvas
from redact_agent.synth.degrade import Noise, degrade
from redact_agent.synth.layouts import LAYOUTS
from redact_agent.synth.pages import draw_page, ink_annotations, lay_out
from redact_agent.synth.profiles import BALANCED, DOCUMENTS, ENTITIES, LEAKAGEBENCH, REDACTIONS
from redact_agent.synth.redactions import render_redaction_page

# Page-type mixes per 500 pages. LeakageBench's Table 7; "balanced" gives each type a share.
PROFILES: dict[str, dict[str, int]] = {
    LEAKAGEBENCH: {"invoice": 229, "form": 39, "email": 90, "letter": 62, "file": 47, "other": 33},
    BALANCED: dict.fromkeys(LAYOUTS, 1),
}
DOCUMENT_PAGES = 3


def page_types(pages: int, profile: str, seed: int) -> list[str]:
    """The profile's mix allotted over `pages` by largest remainder, in a seeded order."""
    mix = PROFILES[LEAKAGEBENCH if profile in (REDACTIONS, ENTITIES, DOCUMENTS) else profile]
    total = sum(mix.values())
    exact = {t: pages * n / total for t, n in mix.items()}
    counts = {t: int(v) for t, v in exact.items()}
    for t in sorted(mix, key=lambda t: exact[t] - counts[t], reverse=True)[: pages - sum(counts.values())]:
        counts[t] += 1
    types = [t for t in mix for _ in range(counts[t])]
    random.Random(f"{seed}:mix").shuffle(types)
    return types


def render_page(
    seed: int, index: int, page_type: str, schema: Schema, mentions: bool = False, *, darken: bool
) -> tuple[GoldPage, bytes]:
    rng = random.Random(f"{seed}:{index}")
    canvas, drawn = draw_page(rng, page_type, mentions)
    return _finish(f"synth-s{seed}-{index:05d}", page_type, canvas, drawn, rng, schema, darken)


def render_document(
    seed: int, index: int, page_types: list[str], schema: Schema, *, darken: bool
) -> list[tuple[GoldPage, bytes]]:
    """A document's pages (`<id>-p1`, `-p2`, ...: the main job's page ids for a PDF), each of
    which names again, in other printed forms, up to three people, phones and codes printed on
    its other pages, earlier and later ones alike; entity ids hold across the document."""
    entities: dict[str, int] = {}
    rngs = [random.Random(f"{seed}:d{index}:{n}") for n in range(len(page_types))]
    laid = [lay_out(rng, t, entities) for rng, t in zip(rngs, page_types, strict=True)]
    own = [list(page.c.items) for page, _ in laid]
    for n, (page, _) in enumerate(laid):
        page.mentions([item for m, items in enumerate(own) if m != n for item in items])
    doc_id = f"synth-s{seed}-d{index:04d}"
    return [
        _finish(f"{doc_id}-p{n}", t, page.c, f"{drawn}; document {doc_id}", rng, schema, darken)
        for n, (t, (page, drawn), rng) in enumerate(zip(page_types, laid, rngs, strict=True), start=1)
    ]


def _finish(
    page_id: str, page_type: str, canvas: Canvas, drawn: str, rng: random.Random, schema: Schema, darken: bool
) -> tuple[GoldPage, bytes]:
    """A drawn page under its scan noise (`darken`: `degrade`'s), and its gold."""
    noise = Noise.draw(rng)
    image, items_map = degrade(canvas, noise, rng, darken=darken)
    gold = GoldPage(
        page_id=page_id,
        image=f"{page_id}.png",
        width=canvas.width,
        height=canvas.height,
        source=f"synth-{page_type}",
        annotations=ink_annotations(canvas.items, items_map, schema),
        render=f"synth v3; {drawn}; {noise.describe()}",
    )
    return gold, png_bytes(image, compress_level=3)  # level 3: 74 ms a page against 185 at 6, 12% larger


def _write(job: tuple[Path, int, int, list[str], str]) -> list[str]:
    out, seed, index, types, profile = job
    # stamps darken the page, but on the pages the OCR detection model is calibrated on, which it
    # keeps as they were drawn until it is rebuilt (benchmarks/build_ocr_models.py)
    darken = profile != BALANCED
    if profile == REDACTIONS:
        regions, png = render_redaction_page(seed, index, types[0], darken=darken)
        page_id = str(regions["page_id"])
        write_atomic(out / f"{page_id}.png", png)
        write_atomic(out / f"{page_id}.json", (json.dumps(regions, indent=1) + "\n").encode())
        return [page_id]
    if profile == DOCUMENTS:
        pages = render_document(seed, index, types, default_schema(), darken=darken)
    else:
        pages = [render_page(seed, index, types[0], default_schema(), profile == ENTITIES, darken=darken)]
    for gold, png in pages:
        write_atomic(out / gold.image, png)
        write_atomic(out / f"{gold.page_id}.json", (gold.model_dump_json(indent=1, exclude_none=True) + "\n").encode())
    return [gold.page_id for gold, _ in pages]


def synthesise(
    out: Path,
    pages: int,
    seed: int,
    profile: str = BALANCED,
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> list[str]:
    """Writes the set; returns the page ids in order."""
    out.mkdir(parents=True, exist_ok=True)
    types = page_types(pages, profile, seed)
    size = DOCUMENT_PAGES if profile == DOCUMENTS else 1
    jobs = [(out, seed, i, types[i * size : (i + 1) * size], profile) for i in range(-(-pages // size))]
    workers = max(1, workers or cores())
    ids = []
    with ProcessPoolExecutor(workers) if workers > 1 else nullcontext() as pool:
        for page_ids in pool.map(_write, jobs, chunksize=4) if pool else map(_write, jobs):
            ids += page_ids
            if progress:
                for page_id in page_ids:
                    progress(page_id)
    return ids


def pages_sha256(out: Path, ids: list[str]) -> str:
    """The sha256 of a set's page images, their PNG files one after another (the OCR detection
    model's manifest records its calibration pages' so, and a test checks the synthesiser still
    draws them)."""
    return hashlib.sha256(b"".join((out / f"{i}.png").read_bytes() for i in ids)).hexdigest()
