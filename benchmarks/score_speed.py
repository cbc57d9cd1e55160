"""Scoring speed: pages/second on generated pages (default 10,000 pages, 30 gold items each).

Gold items sit in the cells of a 3-column text layout, as on real pages (disjoint boxes).
Predictions jitter each gold box (so most match at tau 0.75 and some do not), drop a few,
retype a few and add false positives, so every code path of the scorer runs. Prints the
seconds and pages/second of (a) reading and validating the JSON files, (b) scoring in memory
at tau 0.75, (c) the whole `score_pages` with --sweep and --match pq. Run on one core:
`taskset -c 0 python benchmarks/score_speed.py`.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from redact_agent.eval.scorer import load_pairs, score_pages
from redact_agent.protocol import PROTOCOL
from redact_agent.schema import default_schema


def generate(gold_dir: Path, pred_dir: Path, pages: int, items: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    schema = default_schema()
    names = schema.type_names
    for i in range(pages):
        page_id = f"bench-{i:05d}"
        w, h = 1275, 1650
        annotations, predictions = [], []
        cells = rng.permutation(3 * 40)[:items]  # 3 columns x 40 lines of 400 x 40 px
        for k, cell in enumerate(cells):
            x0 = 20 + (cell % 3) * 410 + rng.uniform(0, 150)
            y0 = 20 + (cell // 3) * 40 + rng.uniform(0, 10)
            box = [x0, y0, x0 + rng.uniform(20, 240), y0 + rng.uniform(8, 28)]
            t = names[int(rng.integers(len(names)))]
            annotations.append({"id": f"a{k}", "type": t, "group": schema.group_of(t), "bbox": box, "value": f"v{k}"})
            if rng.random() < 0.9:
                j = rng.normal(0, 2.0, 4)
                x0p, y0p = max(0.0, box[0] + j[0]), max(0.0, box[1] + j[1])
                pb = [x0p, y0p, min(w, max(x0p + 1, box[2] + j[2])), min(h, max(y0p + 1, box[3] + j[3]))]
                pt = t if rng.random() < 0.9 else names[int(rng.integers(len(names)))]
                predictions.append({"type": pt, "bbox": pb, "value": f"v{k}", "confidence": 0.9})
        for _ in range(3):
            x0, y0 = rng.uniform(0, w - 100), rng.uniform(0, h - 20)
            predictions.append({"type": "DATE", "bbox": [x0, y0, x0 + 80, y0 + 15]})
        gold = {
            "page_id": page_id,
            "image": f"{page_id}.png",
            "width": w,
            "height": h,
            "source": "bench",
            "annotations": annotations,
        }
        (gold_dir / f"{page_id}.json").write_text(json.dumps(gold))
        pred = {"page_id": page_id, "valid": True, "predictions": predictions}
        (pred_dir / f"{page_id}.json").write_text(json.dumps(pred))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--items", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    schema = default_schema()
    with tempfile.TemporaryDirectory() as tmp:
        gold_dir, pred_dir = Path(tmp, "gold"), Path(tmp, "pred")
        gold_dir.mkdir()
        pred_dir.mkdir()
        generate(gold_dir, pred_dir, args.pages, args.items, args.seed)
        t0 = time.perf_counter()
        loaded = load_pairs(gold_dir, pred_dir, schema)
        t1 = time.perf_counter()
        result = score_pages(loaded, schema, [PROTOCOL.tau])[0]
        t2 = time.perf_counter()
        score_pages(loaded, schema, PROTOCOL.score_sweep, pq=True)
        t3 = time.perf_counter()
    n = args.pages
    quality = f"f1_loc {result['f1_loc']:.3f}, docleak_crit {result['docleak_crit']:.3f}"
    print(f"{n} pages x {args.items} gold items ({quality})")
    print(f"read + validate files : {t1 - t0:7.2f} s  {n / (t1 - t0):8.0f} pages/s")
    print(f"score, tau 0.75       : {t2 - t1:7.2f} s  {n / (t2 - t1):8.0f} pages/s")
    print(f"read + score          : {t2 - t0:7.2f} s  {n / (t2 - t0):8.0f} pages/s")
    print(f"score, sweep + pq     : {t3 - t2:7.2f} s  {n / (t3 - t2):8.0f} pages/s")


if __name__ == "__main__":
    main()
