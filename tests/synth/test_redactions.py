"""The redacted synthetic pages: deterministic, the audit-score gold format, each region's pixels
painted as its kind says, skewed regions as polygons, and pages with none."""

import json
from collections import Counter

import numpy as np
from PIL import Image

from redact_agent.audit.regions import load_region_page
from redact_agent.synth.corpus import page_types, synthesise
from redact_agent.synth.redactions import render_redaction_page


def test_the_same_seed_gives_the_same_pages_and_gold_the_audit_reads(tmp_path):
    for run in ("a", "b"):
        synthesise(tmp_path / run, 12, seed=3, profile="redactions", workers=1)
    for f in sorted((tmp_path / "a").iterdir()):
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name
    pages = [load_region_page(f) for f in sorted((tmp_path / "a").glob("*.json"))]
    assert len(pages) == 12 and any(not p.regions for p in pages) and sum(len(p.regions) for p in pages) > 30
    kinds = Counter(r.kind for p in pages for r in p.regions)
    assert set(kinds) <= {"black", "gray", "outline", "marker"} and len(kinds) >= 2


def test_a_regions_pixels_are_painted_as_its_kind_says(tmp_path):
    synthesise(tmp_path, 12, seed=3, profile="redactions", workers=1)
    checked = 0
    for f in sorted(tmp_path.glob("*.json")):
        gold = json.loads(f.read_text())
        grey = np.asarray(Image.open(tmp_path / gold["image"]).convert("L"), dtype=float)
        for r in gold["redactions"]:
            if "polygon" in r:
                assert len(r["polygon"]) == 4
                continue
            x0, y0, x1, y1 = (round(v) for v in r["bbox"])
            inside, border = grey[y0 + 1 : y1 - 1, x0 + 1 : x1 - 1], grey[y0, x0:x1]
            if r["kind"] in ("black", "marker"):  # a stroke's round ends leave its box's corners bare
                assert np.median(inside) < 80
            elif r["kind"] == "gray":
                assert 80 <= np.median(inside) < 230
            else:  # an outline: a line around a blanked area
                assert np.median(border) < 160 and np.median(inside) > 200
            checked += 1
    assert checked > 20


def test_a_region_at_the_pages_edge_is_gold_on_the_page(tmp_path):
    """Seed 173's page 52 redacts a value printed to the right margin: its padded box went 4 px
    past the page, a gold the audit could not read. What is drawn is what lies on the page."""
    page_type = page_types(60, "redactions", 173)[52]
    gold, _ = render_redaction_page(173, 52, page_type, darken=True)
    (tmp_path / "p.json").write_text(json.dumps(gold))
    page = load_region_page(tmp_path / "p.json")
    assert max(r.bbox[2] for r in page.regions) == page.width
