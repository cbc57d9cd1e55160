"""Propagation across a document's pages, measured on synthetic documents.

`redact-agent synth DIR --profile documents` writes documents of three pages (`<id>-p1` ...) whose
pages name each other's people, phones and codes, earlier and later pages alike. This runs the
main job (embedded engine, policy `all`, no verification) on them twice, side by side: each page
alone, and each document's pages together (`--document`: a value found on any page is searched on
all the others), then scores both per page (DocLeak_crit, precision over all types) and the
entities within documents (`score --clusters --document`), printing the critical items printed
more than once, those missed although another mention of their entity was found, and of those
the ones not even covered.

    python benchmarks/documents.py /tmp/docs41
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from redact_agent.eval.clusters import document_of
from redact_agent.eval.scorer import load_pairs, score_pages
from redact_agent.job import Job
from redact_agent.local.engine import LocalEngine
from redact_agent.policy import load_policy
from redact_agent.protocol import PROTOCOL
from redact_agent.run import run
from redact_agent.schema import default_schema
from redact_agent.tools.ocr import clear_caches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="a `synth --profile documents` set")
    args = parser.parse_args()
    schema = default_schema()
    work = Path(tempfile.mkdtemp(prefix="documents-"))
    folders: dict[str, Path] = {}
    for gold in sorted(args.data.glob("*.json")):
        folder = folders.setdefault(document_of(gold.stem), work / "in" / document_of(gold.stem))
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{gold.stem}.png").symlink_to((args.data / f"{gold.stem}.png").resolve())
    engine = LocalEngine(mode="single", policy=load_policy("all"))
    inputs = [str(f) for f in folders.values()]
    print(f"{sum(1 for _ in args.data.glob('*.json'))} pages in {len(folders)} documents from {args.data}")
    head = ("pages", "s/page", "F1loc", "DocLeak_crit", "precision", "critical repeats", "left", "left uncovered")
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for label, document in (("alone", False), ("document", True)):
        out = work / label
        clear_caches()  # each run reads every page itself
        t0 = time.perf_counter()
        run(Job(engine, None, out, document=document), inputs)
        seconds = (time.perf_counter() - t0) / sum(1 for _ in out.glob("*.redacted.png"))
        r = score_pages(load_pairs(args.data, out, schema), schema, [PROTOCOL.tau], clusters="document")[0]
        types = r["per_type"].values()
        precision = sum(t["tp"] for t in types) / max(1, sum(t["pred"] for t in types))
        repeats = r["clusters"]["critical_repeats"]
        row = (label, f"{seconds:.2f}", f"{r['f1_loc']:.3f}", f"{r['docleak_crit']:.3f}", f"{precision:.3f}")
        counts = (str(repeats[k]) for k in ("repeated", "left", "left_uncovered"))
        print("| " + " | ".join((*row, *counts)) + " |")
    print(f"outputs in {work}")


if __name__ == "__main__":
    main()
