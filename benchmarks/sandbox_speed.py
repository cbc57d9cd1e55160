"""run_python sandbox figures: kernel start (cold, and with the page loaded), per-call
overhead of a trivial cell, and a crop + zoom + display round trip, on a real dev page."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from redact_agent.images import open_image, png_bytes
from redact_agent.tools.sandbox import Kernel, KernelPool, Limits

DEV_PAGE = Path(__file__).resolve().parents[2] / "shared/data/dev/vrdu/vrdu-adbuy-00c3353ea25f-p1.png"


def _timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", type=Path, default=DEV_PAGE)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    png = png_bytes(open_image(args.page))
    limits = Limits()

    starts, loads = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        k = Kernel(limits)
        t1 = time.perf_counter()
        k.load_page(png)
        loads.append(time.perf_counter() - t1)
        starts.append(t1 - t)
        k.shutdown()
    k = Kernel(limits)
    k.load_page(png)
    trivial = _timed(lambda: k.execute("1"), 50)
    roundtrip = _timed(lambda: k.execute("display(crop([600, 0, 999, 200])); display(zoom([700, 20, 850, 40], 3))"), 20)
    k.shutdown()
    pool = KernelPool(warm=1, limits=limits)
    time.sleep(3)  # let the warm kernel come up, as it would during the previous page
    t = time.perf_counter()
    pooled = pool.acquire(png)
    acquire = time.perf_counter() - t
    pooled.shutdown()
    pool.close()

    def ms(xs: list[float]) -> str:
        return f"median {statistics.median(xs) * 1000:7.1f} ms  (min {min(xs) * 1000:.1f}, max {max(xs) * 1000:.1f})"

    print(f"page {args.page.name}")
    print(f"kernel start (confined)       : {ms(starts)}")
    print(f"page load into the kernel     : {ms(loads)}")
    print(f"pool acquire (warm kernel)    : {acquire * 1000:7.1f} ms")
    print(f"trivial cell ('1')            : {ms(trivial)}")
    print(f"crop + zoom + 2x display      : {ms(roundtrip)}")


if __name__ == "__main__":
    main()
