"""Overlay images of a page under two runs, side by side (as in LeakageBench's Figure 3).

Gold items matched at tau are outlined green, missed gold magenta; predictions that matched are
blue, those that overlap gold but fall below tau orange, and those on no gold red.
"""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image, ImageDraw

from redact_agent.eval.page_eval import evaluate, prepare
from redact_agent.images import open_image, png_bytes
from redact_agent.pages import GoldPage, PredictionPage, load_gold_page, load_prediction_page
from redact_agent.protocol import PROTOCOL
from redact_agent.redact import write_atomic
from redact_agent.schema import Schema

COLOURS = {"gold": (0, 160, 0), "missed": (220, 0, 200), "matched": (0, 90, 255), "low_iou": (255, 140, 0),
           "stray": (230, 0, 0)}  # fmt: skip


def overlay(image: Image.Image, gold: GoldPage, pred: PredictionPage, schema: Schema) -> Image.Image:
    page = prepare(gold, pred, schema)
    e = evaluate(page, "iou", PROTOCOL.tau)
    out = image.convert("RGB")
    draw = ImageDraw.Draw(out)
    width = max(2, out.width // 400)
    matched = set(e.typed[e.typed >= 0].tolist())
    for j, p in enumerate(pred.predictions):
        kind = "matched" if j in matched else "low_iou" if page.iou.size and page.iou[:, j].max() > 0 else "stray"
        draw.rectangle(p.bbox, outline=COLOURS[kind], width=width)
    for i, a in enumerate(gold.annotations):
        box = (a.bbox[0] - width, a.bbox[1] - width, a.bbox[2] + width, a.bbox[3] + width)
        draw.rectangle(box, outline=COLOURS["gold" if e.typed[i] >= 0 else "missed"], width=width)
    return out


def write_overlays(run_a: Path, run_b: Path, page_ids: list[str], out: Path, schema: Schema) -> list[Path]:
    """One `<page_id>.png` per page in `out`: run A on the left, run B on the right."""
    data = Path(json.loads((run_b / "run.json").read_text(encoding="utf-8"))["data_dir"])
    written = []
    for page_id in page_ids:
        gold = load_gold_page(data / f"{page_id}.json", schema)
        image = open_image(data / gold.image)
        sides = []
        for run in (run_a, run_b):
            pred = load_prediction_page(run / "predictions" / f"{page_id}.json", schema, gold.width, gold.height)
            sides.append(overlay(image, gold, pred, schema))
        both = Image.new("RGB", (2 * gold.width + 20, gold.height), "white")
        both.paste(sides[0], (0, 0))
        both.paste(sides[1], (gold.width + 20, 0))
        path = out / f"{page_id}.png"
        write_atomic(path, png_bytes(both, compress_level=3))
        written.append(path)
    return written
