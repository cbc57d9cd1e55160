"""The redaction detector, scored and timed: audit-score figures and seconds per page.

For each gold folder (`<page_id>.json` redaction pages beside their images: the real Woo pages
of ../shared/data/dev/redactions, or `redact-agent synth OUT --profile redactions`), runs the
detector on every page and prints seconds/page and the `iou` table; for each folder of pages
with no redaction (the VRDU dev pages), the false regions per page. Printed, never asserted.

    python benchmarks/audit_detect.py --gold ../shared/data/dev/redactions /tmp/red31 \\
        --clean ../shared/data/dev/vrdu ../shared/data/dev/vrdu2
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from PIL import Image

from redact_agent.audit import detect
from redact_agent.audit.regions import RegionPage, load_region_page
from redact_agent.audit.score import render, score
from redact_agent.tools.ocr import get_engine

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "dev"


def _image(gold: Path) -> Path:
    named = json.loads(gold.read_text()).get("image")
    return gold.parent / named if named else gold.with_suffix(".png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gold", nargs="*", type=Path, default=[SHARED / "redactions"])
    parser.add_argument("--clean", nargs="*", type=Path, default=[SHARED / "vrdu", SHARED / "vrdu2"])
    args = parser.parse_args()
    ocr = get_engine()
    detect.find(Image.new("RGB", (850, 1100), "white"), ocr)  # models loaded before the clock starts
    for folder in args.gold:
        pairs, seconds = [], 0.0
        for f in sorted(folder.glob("*.json")):
            gold = load_region_page(f)
            image = Image.open(_image(f))
            t = time.perf_counter()
            regions = detect.find(image, ocr)
            seconds += time.perf_counter() - t
            pairs.append((gold, RegionPage(gold.page_id, gold.width, gold.height, tuple(regions))))
        print(f"{folder}: {len(pairs)} pages, {seconds / max(1, len(pairs)):.2f} s/page")
        print(render(score(pairs, "iou")))
    for folder in args.clean:
        images = sorted(folder.glob("*.png"))
        kinds = Counter(r.kind for p in images for r in detect.find(Image.open(p), ocr))
        per_page = sum(kinds.values()) / max(1, len(images))
        print(f"{folder}: {len(images)} pages with no redaction, {per_page:.2f} false regions per page {dict(kinds)}")


if __name__ == "__main__":
    main()
