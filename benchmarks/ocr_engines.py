"""OCR engines on the dev pages: seconds per page, and how well they read the gold values.

For each engine and each exhaustive dev page (../shared/data/dev/vrdu by default):
- seconds/page (first call per page; the model load is timed apart);
- word recall: the share of gold-value tokens (whitespace-split) read exactly by an OCR word
  whose box overlaps the gold box;
- character accuracy: 1 - CER between each gold value and the OCR words whose centres fall
  in its box, in reading order, whitespace folded;
- box IoU: the median IoU between a gold box and the union box of those words (gold boxes
  hug the ink, so this says how much tightening the main job needs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from PIL import Image
from rapidfuzz.distance import Levenshtein

from redact_agent.tools.ocr import ENGINES, Word, get_engine

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "dev" / "vrdu"


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _centre_in(a: tuple[float, ...], box: tuple[float, ...]) -> bool:
    cx, cy = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def score_page(words: list[Word], annotations: list[dict]) -> tuple[int, int, list[float], list[float]]:
    found = total = 0
    char_acc, ious = [], []
    for a in annotations:
        value, box = a.get("value"), tuple(a["bbox"])
        if not value:
            continue
        near = [w for w in words if _overlaps(w.bbox, box)]
        texts = {w.text for w in near}
        for token in value.split():
            total += 1
            found += token in texts
        grown = (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2)
        inside = [
            w
            for w in words
            if grown[0] <= (w.bbox[0] + w.bbox[2]) / 2 <= grown[2]
            and grown[1] <= (w.bbox[1] + w.bbox[3]) / 2 <= grown[3]
        ]
        inside.sort(key=lambda w: (w.line, w.bbox[0]))
        gold_text = " ".join(value.split())
        read = " ".join(w.text for w in inside)
        char_acc.append(max(0.0, 1 - Levenshtein.distance(gold_text, read) / max(1, len(gold_text))))
        if inside:
            union = (
                min(w.bbox[0] for w in inside),
                min(w.bbox[1] for w in inside),
                max(w.bbox[2] for w in inside),
                max(w.bbox[3] for w in inside),
            )
            ious.append(_iou(union, box))
    return found, total, char_acc, ious


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEV)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES))
    parser.add_argument("--pages", type=int, default=0, help="first N pages only (0: all)")
    args = parser.parse_args()
    golds = [json.loads(p.read_text()) for p in sorted(args.data.glob("*.json"))]
    golds = [g for g in golds if g.get("exhaustive", True)]
    if args.pages:
        golds = golds[: args.pages]
    print(f"{len(golds)} exhaustive pages from {args.data}")
    print(f"{'engine':<10} {'load s':>7} {'s/page':>7} {'word recall':>12} {'char acc':>9} {'median box IoU':>15}")
    for name in args.engines:
        t0 = time.perf_counter()
        engine = get_engine(name)
        load = time.perf_counter() - t0
        seconds, found, total, char_acc, ious = [], 0, 0, [], []
        for g in golds:
            image = Image.open(args.data / g["image"])
            t = time.perf_counter()
            words = engine.words(image)
            seconds.append(time.perf_counter() - t)
            f, n, c, i = score_page(words, g["annotations"])
            found, total = found + f, total + n
            char_acc += c
            ious += i
        print(
            f"{name:<10} {load:7.2f} {statistics.mean(seconds):7.2f} {found / total:12.3f} "
            f"{statistics.mean(char_acc):9.3f} {statistics.median(ious):15.3f}"
        )


if __name__ == "__main__":
    main()
