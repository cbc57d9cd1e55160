"""Throughput of the main job on one machine: worker processes and Ray actors, side by side in one run.

Runs `redact-agent DIR --workers N` and `redact-agent DIR --ray --workers N` (the embedded
engine, the Tesseract verifier, every write: the whole job, model loading and Ray's start
included) as a fresh process for each setting, in turn, and prints for
each: wall seconds, pages per second, the ratio to the first N, the time to the first written
page, the peak memory of each process (from the run's manifest), how many cores the run kept busy
(its processes' CPU seconds over its wall seconds: what one worker already takes of the machine
bounds what more workers can add), and a paper estimate of what a million pages cost on machines
of this size. Figures on this machine are noisy: compare ratios from one run, not figures from
two. Ray's actors run under its own daemons, whose CPU the run's count misses.

    python benchmarks/scale.py [DIR] [--workers 1 2] [--ray 1 2] [--price 0.09]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from redact_agent.machine import cores
from redact_agent.manifest import peak_memory, read_entries

DEV = Path(__file__).resolve().parents[2] / "shared" / "data" / "dev" / "vrdu"


def _run(pages: Path, out: Path, options: list[str]) -> dict[str, float]:
    args = [sys.executable, "-m", "redact_agent", str(pages), "-o", str(out), *options]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first = None
    while proc.poll() is None:
        if first is None and out.is_dir() and any(out.glob("*.redacted.png")):
            first = time.perf_counter() - t0
        time.sleep(0.02)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the job and the workers it waited for
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{proc.stderr.read() if proc.stderr else ''}")
    entries = list(read_entries(out).values())
    peaks = peak_memory(entries)
    return {
        "pages": len(entries),
        "wall": wall,
        "first": first or wall,
        "peak": max(peaks.values()),
        "procs": len(peaks),
        "cores": cpu / wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="?", type=Path, default=DEV, help=f"a folder of pages (default {DEV})")
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2], help="processes per row")
    parser.add_argument("--ray", type=int, nargs="*", default=[1, 2], help="Ray actors per row (needs the ray extra)")
    parser.add_argument("--price", type=float, default=0.09, help="dollars per machine-hour (default 0.09)")
    args = parser.parse_args()
    print(f"{args.pages}: the whole main job on {cores()} cores, one fresh process per row")
    head = f"{'setting':<12} {'pages':>5} {'wall s':>7} {'pages/s':>8} {'ratio':>6} {'first s':>8} {'MiB/proc':>9}"
    print(f"{head} {'cores busy':>10}")
    base = None
    with tempfile.TemporaryDirectory() as tmp:
        rows = [(f"workers {n}", ["--workers", str(n)]) for n in args.workers]
        rows += [(f"ray {n}", ["--ray", "--workers", str(n)]) for n in args.ray]
        for k, (name, options) in enumerate(rows):
            r = _run(args.pages, Path(tmp, str(k)), options)
            rate = r["pages"] / r["wall"]
            base = base or rate
            print(
                f"{name:<12} {r['pages']:>5.0f} {r['wall']:>7.1f} {rate:>8.3f} {rate / base:>6.2f}"
                f" {r['first']:>8.1f} {r['peak']:>9.0f} {r['cores']:>10.2f}",
                flush=True,
            )
            hours = 1e6 / rate / 3600
            cost = hours * args.price
            print(f"{'':<12} a million pages: {hours:,.0f} machine-hours, ${cost:,.0f} at ${args.price}/h", flush=True)


if __name__ == "__main__":
    main()
