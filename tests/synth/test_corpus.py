"""The synthetic corpus: determinism, valid and exhaustive gold, ink-tight boxes, the profile."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from faker.providers.address.en_US import Provider as AddressProvider
from faker.providers.person.en_US import Provider as PersonProvider
from PIL import Image

from redact_agent.boxes import iou_matrix
from redact_agent.cli import main
from redact_agent.eval.scorer import load_pairs, score_pages
from redact_agent.local.ink import tighten
from redact_agent.pages import GoldAnnotation, GoldPage, Prediction, PredictionPage, load_gold_page
from redact_agent.schema import default_schema
from redact_agent.synth.canvas import Canvas
from redact_agent.synth.corpus import PROFILES, page_types, render_page, synthesise
from redact_agent.synth.degrade import Noise, degrade
from redact_agent.synth.layouts import LAYOUTS, WORDS
from redact_agent.synth.pages import ink_annotations


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("synth")
    synthesise(out, 60, seed=3, profile="leakagebench", workers=2)
    return out


def _golds(out: Path) -> list[GoldPage]:
    return [load_gold_page(p) for p in sorted(out.glob("*.json"))]


def test_same_arguments_give_the_same_bytes_whatever_the_workers(tmp_path: Path) -> None:
    synthesise(tmp_path / "a", 6, seed=11, workers=1)
    synthesise(tmp_path / "b", 6, seed=11, workers=2)
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) == 12 and names == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    synthesise(tmp_path / "c", 6, seed=12, workers=1)
    other = (tmp_path / "c" / names[1].replace("-s11-", "-s12-")).read_bytes()
    assert other != (tmp_path / "a" / names[1]).read_bytes()


def test_pages_are_valid_gold_next_to_their_images(corpus: Path) -> None:
    golds = _golds(corpus)
    assert len(golds) == 60
    for g in golds:
        with Image.open(corpus / g.image) as im:
            assert im.size == (g.width, g.height)
        assert g.annotations and g.source.startswith("synth-")
        assert all(a.value for a in g.annotations if a.type != "SIGNATURE")


def test_gold_scored_against_itself_is_perfect(corpus: Path, tmp_path: Path) -> None:
    """`redact-agent score OUT PRED` reads the set as it is."""
    schema = default_schema()
    for g in _golds(corpus):
        preds = [Prediction(type=a.type, bbox=a.bbox, value=a.value) for a in g.annotations]
        page = PredictionPage(page_id=g.page_id, valid=True, predictions=preds)
        (tmp_path / f"{g.page_id}.json").write_text(page.model_dump_json())
    result = score_pages(load_pairs(corpus, tmp_path, schema), schema, [0.75])[0]
    assert result["f1_loc"] == 1.0 and result["docleak_crit"] == 0.0


def test_profile_mix_is_the_papers_table_7() -> None:
    assert Counter(page_types(500, "leakagebench", seed=1)) == Counter(PROFILES["leakagebench"])
    counts = Counter(page_types(50, "leakagebench", seed=1))
    for kind, n in PROFILES["leakagebench"].items():
        assert abs(counts[kind] - n / 10) <= 1
    assert page_types(20, "leakagebench", seed=1) != page_types(20, "leakagebench", seed=2)  # order is seeded


def test_density_and_types_follow_the_profile(corpus: Path) -> None:
    schema = default_schema()
    golds = _golds(corpus)
    items = np.mean([len(g.annotations) for g in golds])
    critical = np.mean([sum(schema.is_critical(a.type) for a in g.annotations) for g in golds])
    assert 20 <= items <= 28, items  # Table 2: about 24
    assert 7 <= critical <= 12, critical  # Table 2: about 8.6
    present = {a.type for g in golds for a in g.annotations}
    assert present == set(schema.type_names), set(schema.type_names) - present


def test_some_pages_carry_prompt_injection(corpus: Path) -> None:
    assert any("injection yes" in (g.render or "") for g in _golds(corpus))


def test_values_wrap_and_repeat(corpus: Path) -> None:
    golds = _golds(corpus)
    assert any("\n" in (a.value or "") for g in golds for a in g.annotations if a.type != "POSTAL_ADDRESS")
    assert any(max(Counter(a.value for a in g.annotations).values()) > 1 for g in golds)


def test_gold_boxes_hug_the_ink(corpus: Path) -> None:
    """The Otsu ink extent of each box (the annotation guideline's tightening) is the box."""
    ious = []
    for g in _golds(corpus)[:20]:
        grey = np.asarray(Image.open(corpus / g.image).convert("L"))
        for a in g.annotations:
            if a.type != "SIGNATURE":
                t = tighten(grey, a.bbox)
                ious.append(float(iou_matrix(np.array([a.bbox]), np.array([t]))[0, 0]))
    assert np.median(ious) >= 0.97 and np.percentile(ious, 10) >= 0.8


def test_one_value_box_is_its_exact_ink() -> None:
    canvas = Canvas(400, 120, 150, "sans", 10, random.Random(0))
    canvas.ink = 0  # pure black: a pixel is below 128 exactly where its mask alpha is at least 128
    canvas.text(10, 10, "Phone: ", canvas.font())
    canvas.text(100, 10, "555-123-4567", canvas.font(), pii="PHONE_NUMBER")
    image, items = degrade(canvas, Noise(0, 0, 0, None, False, 0, 0), random.Random(0), darken=True)
    (ann,) = render_annotations(canvas, items)
    ink = np.argwhere(np.asarray(image)[:, 95:] < 128)
    y0, x0 = ink.min(axis=0)
    y1, x1 = ink.max(axis=0)
    assert ann.bbox == (x0 + 95.0, float(y0), x1 + 96.0, y1 + 1.0)
    assert ann.value == "555-123-4567"


def test_skew_moves_the_boxes_with_the_ink() -> None:
    canvas = Canvas(600, 400, 150, "serif", 11, random.Random(0))
    canvas.text(200, 180, "INV-004512", canvas.font(), pii="INVOICE_NUMBER")
    straight = render_annotations(canvas, canvas.items_map)[0].bbox
    image, items = degrade(canvas, Noise(3.0, 0, 0, None, False, 0, 0), random.Random(0), darken=True)
    (ann,) = render_annotations(canvas, items)
    assert ann.bbox != straight and (ann.bbox[3] - ann.bbox[1]) > (straight[3] - straight[1])
    t = tighten(np.asarray(image), ann.bbox)
    assert iou_matrix(np.array([ann.bbox]), np.array([t]))[0, 0] >= 0.9


def test_a_fax_of_blurred_small_print_leaves_no_visible_value() -> None:
    """Binarised after a blur, a 9 pt value at 100 dpi is left as specks: not visible, not gold;
    at 12 pt it stays, with its ink box."""
    fax = Noise(0, 1.0, 0, None, True, 0, 0)
    kept = []
    for pt in (9, 12):
        canvas = Canvas(400, 120, 100, "sans", pt, random.Random(0))
        canvas.text(10, 10, "Phone: ", canvas.font())
        canvas.text(100, 10, "555-123-4567", canvas.font(), pii="PHONE_NUMBER")
        _, items = degrade(canvas, fax, random.Random(0), darken=True)
        kept.append([a.value for a in render_annotations(canvas, items)])
    assert kept == [[], ["555-123-4567"]]


def render_annotations(canvas: Canvas, items: np.ndarray) -> list[GoldAnnotation]:
    return ink_annotations(canvas.items, items, default_schema())


def test_vocabulary_cannot_be_pii() -> None:
    """Non-PII words are no name or place Faker could print as a value."""
    names = {n.lower() for n in [*PersonProvider.first_names, *PersonProvider.last_names]}
    places = {p.lower() for p in [*AddressProvider.city_suffixes, *AddressProvider.street_suffixes]}
    assert not {w.lower() for w in WORDS} & (names | places)


def test_every_layout_renders(tmp_path: Path) -> None:
    schema = default_schema()
    for i, kind in enumerate(LAYOUTS):
        gold, png = render_page(5, i, kind, schema, darken=True)
        assert gold.source == f"synth-{kind}" and png.startswith(b"\x89PNG")


def test_cli_synth_and_data_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["synth", str(tmp_path / "set"), "--pages", "4", "--seed", "1", "--workers", "1"]) == 0
    assert len(list((tmp_path / "set").glob("*.png"))) == 4
    stats = tmp_path / "stats"
    assert main(["data", "stats", str(tmp_path / "set"), "-o", str(stats), "--json", str(tmp_path / "s.json")]) == 0
    out = capsys.readouterr().out
    assert "4 pages" in out and (stats / "density.png").exists() and (stats / "items_per_page.png").exists()
    assert main(["synth", str(tmp_path / "x"), "--pages", "0"]) == 2
    assert main(["data", "stats", str(tmp_path / "empty")]) == 2


def test_documents_name_each_others_values_on_earlier_and_later_pages(tmp_path: Path) -> None:
    ids = synthesise(tmp_path, 7, seed=13, profile="documents", workers=1)
    assert ids[:4] == ["synth-s13-d0000-p1", "synth-s13-d0000-p2", "synth-s13-d0000-p3", "synth-s13-d0001-p1"]
    assert len(ids) == 7 and ids[-1] == "synth-s13-d0002-p1"  # the last document is short
    backward = 0
    for doc in ("d0000", "d0001"):
        pages = [load_gold_page(tmp_path / f"synth-s13-{doc}-p{n}.json").annotations for n in (1, 2, 3)]
        later = {a.entity for page in pages[1:] for a in page}
        shared = {a.entity for a in pages[0]} & later
        assert shared  # one entity, printed on several pages
        # A document numbers entities page by page: one on page 1 numbered beyond page 1's own
        # count was first printed on a later page, and page 1 names it again.
        count = Counter(e.split("#")[0] for e in {a.entity for a in pages[0]})
        backward += sum(1 for e in shared if int(str(e).split("#")[1]) > count[str(e).split("#")[0]])
    assert backward


def test_a_stamp_or_a_ring_darkens_what_it_lies_on() -> None:
    """Ink and a stain darken the page: a black box under a stamp stays black (painted over it,
    a lighter stamp would cut the box, which no scan shows), and paper under one takes its ink.
    Painted over is kept for the pages the OCR detection model is calibrated on."""
    marked = Noise(0, 0, 0, None, False, stamps=2, blotches=3)
    for darken, kept in ((True, True), (False, False)):
        canvas = Canvas(600, 800, 150, "sans", 10, random.Random(0))
        canvas.image.paste(0, (0, 0, 600, 400))  # the top half one black box
        image, _ = degrade(canvas, marked, random.Random(5), darken=darken)
        grey = np.asarray(image)
        assert bool((grey[:400] == 0).all()) == kept
        assert (grey[400:] < 255).any()
