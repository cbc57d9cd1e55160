"""The local engine on the dev pages, scored with the LeakageBench protocol, per mode.

Runs `redact-agent`'s engine (policy `all`, since the gold is exhaustive over every group) on
every page of ../shared/data/dev/vrdu, writes the prediction pages, scores them with the
project's scorer and prints f1_loc, f1_type, docleak_crit, docleak_crit_agnostic,
docleak_crit_cover, valid and seconds/page for each mode; `--types` adds the per-type table.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from redact_agent.eval.scorer import load_pairs, score_pages
from redact_agent.images import open_image
from redact_agent.local.engine import LocalEngine
from redact_agent.pages import PredictionPage
from redact_agent.policy import load_policy
from redact_agent.protocol import PROTOCOL
from redact_agent.schema import default_schema
from redact_agent.tools.ocr import clear_caches

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "dev" / "vrdu"
KEYS = ("f1_loc", "f1_type", "docleak_crit", "docleak_crit_agnostic", "docleak_crit_cover", "valid")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEV)
    parser.add_argument("--modes", nargs="+", default=["single", "tools"])
    parser.add_argument("--ocr", default="tesseract")
    parser.add_argument("--types", action="store_true", help="print per-type P/R/F1")
    parser.add_argument("--keep", type=Path, help="write the prediction pages here")
    args = parser.parse_args()
    schema = default_schema()
    golds = sorted(args.data.glob("*.json"))
    print(f"{len(golds)} pages from {args.data}, OCR {args.ocr}, policy all")
    print(f"{'mode':<7}" + "".join(f"{k:>22}" for k in KEYS) + f"{'s/page':>8}")
    for mode in args.modes:
        engine = LocalEngine(mode=mode, policy=load_policy("all"), ocr=args.ocr)  # type: ignore[arg-type]
        clear_caches()  # each mode reads every page itself
        out = args.keep / mode if args.keep else Path(tempfile.mkdtemp(prefix=f"local-{mode}-"))
        out.mkdir(parents=True, exist_ok=True)
        seconds = []
        for g in golds:
            gold = json.loads(g.read_text())
            image = open_image(args.data / gold["image"])
            t = time.perf_counter()
            preds = engine.predict(image)
            seconds.append(time.perf_counter() - t)
            page = PredictionPage(page_id=gold["page_id"], valid=True, predictions=preds, engine=engine.name)
            (out / g.name).write_text(page.model_dump_json(exclude_none=True))
        r = score_pages(load_pairs(args.data, out, schema), schema, [PROTOCOL.tau])[0]
        row = "".join(f"{r[k]:>22.3f}" for k in KEYS)
        print(f"{mode:<7}{row}{sum(seconds) / len(seconds):>8.2f}")
        print(f"        failures of leaked critical items: {r['failures']}")
        if args.types:
            for t, c in r["per_type"].items():
                print(
                    f"        {t:<18} gold {c['gold']:>4} pred {c['pred']:>4} tp {c['tp']:>4}  R {c['recall'] or 0:.2f}"
                    f"  P {c['precision'] or 0:.2f}"
                )


if __name__ == "__main__":
    main()
