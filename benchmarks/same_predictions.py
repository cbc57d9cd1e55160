"""Do two bench runs of a system hold the same predictions? Compares `predictions/*.json` of two
run folders page by page, byte for byte after parsing (so key order and whitespace do not
count), and prints each page that differs with the first difference. Exit 0 when all agree.

    python benchmarks/same_predictions.py RUN_A RUN_B
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(a: Path, b: Path) -> int:
    pages_a = {p.name: json.loads(p.read_text()) for p in sorted((a / "predictions").glob("*.json"))}
    pages_b = {p.name: json.loads(p.read_text()) for p in sorted((b / "predictions").glob("*.json"))}
    differ = 0
    for name in sorted(pages_a.keys() | pages_b.keys()):
        x, y = pages_a.get(name), pages_b.get(name)
        if x != y:
            differ += 1
            print(f"{name}: differs" if x and y else f"{name}: only in {'A' if x else 'B'}")
            if x and y:
                for i, (p, q) in enumerate(zip(x["predictions"], y["predictions"], strict=False)):
                    if p != q:
                        print(f"  prediction {i}: {p} != {q}")
                        break
                else:
                    print(f"  {len(x['predictions'])} against {len(y['predictions'])} predictions")
    print(f"{len(pages_a)} pages in A, {len(pages_b)} in B, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
