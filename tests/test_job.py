"""The main job's contract: outputs, exit codes, bad inputs, PDFs, metadata, atomicity."""

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, PngImagePlugin

from redact_agent.cli import main
from redact_agent.errors import InputError
from redact_agent.job import Job
from redact_agent.local.engine import LocalEngine
from redact_agent.pages import Finding, Prediction, PredictionPage
from redact_agent.policy import load_policy
from redact_agent.run import Threads, run

FIXTURES = Path(__file__).parent / "fixtures"
PAGE = FIXTURES / "form-block.png"  # a real crop: "Order / Rev: 14086", "Primary AE: David Cisco", dates


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_one_page_writes_prediction_and_redacted_image(tmp_path, capsys):
    src = tmp_path / "page.png"
    meta = PngImagePlugin.PngInfo()
    meta.add_text("Author", "Jane Secret")
    Image.open(PAGE).save(src, pnginfo=meta, dpi=(300, 300))
    before = _sha(src)
    out = tmp_path / "out"
    assert main([str(src), "-o", str(out), "--policy", "all"]) == 0
    assert _sha(src) == before  # the input is never modified
    page = PredictionPage.model_validate_json((out / "page.json").read_text())
    assert page.valid and page.engine == "local:single:rapidocr" and page.residual is not None
    assert any(p.type == "CONTRACT_NUMBER" and p.value == "14086" for p in page.predictions)
    redacted = Image.open(out / "page.redacted.png")
    assert redacted.size == Image.open(src).size and "Author" not in redacted.info and "dpi" not in redacted.info
    pixels = np.asarray(redacted.convert("L"))
    for p in page.predictions:  # each box is solid black in the pixels
        x0, y0, x1, y1 = (round(v) for v in p.bbox)
        assert pixels[y0:y1, x0:x1].max() == 0
    line = capsys.readouterr().out
    assert line.startswith("page: ") and "items" in line and "residual" in line
    assert not list(out.glob(".*.tmp"))  # no temporary files left behind


def test_redact_subcommand_and_default_policy(tmp_path):
    out = tmp_path / "out"
    assert main(["redact", str(PAGE), "-o", str(out)]) == 0
    page = json.loads((out / "form-block.json").read_text())
    # The default policy leaves Contextual types (ORGANIZATION, DATE) visible.
    assert {p["type"] for p in page["predictions"]} == {"CONTRACT_NUMBER", "PERSON_NAME", "INSTITUTION_CODE"}


@pytest.mark.parametrize(
    "mode",
    ["CMYK", "RGBA", "I;16", "L", "P"],
)
def test_odd_image_modes_are_processed(tmp_path, mode):
    img = Image.open(PAGE)
    src = tmp_path / f"odd-{mode.replace(';', '')}.tiff"
    if mode == "I;16":
        Image.fromarray(np.asarray(img.convert("L")).astype(np.uint16) * 257).save(src)
    else:
        img.convert(mode).save(src)
    assert main([str(src), "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / f"{src.stem}.redacted.png").exists()


def test_bad_inputs_fail_alone_and_the_batch_goes_on(tmp_path, capsys):
    good = tmp_path / "good.png"
    Image.open(PAGE).save(good)
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    corrupt = tmp_path / "corrupt.png"
    corrupt.write_bytes(good.read_bytes()[:200])
    bomb = tmp_path / "bomb.png"
    Image.new("1", (10_000, 10_000)).save(bomb)
    out = tmp_path / "out"
    code = main([str(empty), str(corrupt), str(bomb), str(good), str(tmp_path / "missing.png"), "-o", str(out)])
    assert code == 1
    err = capsys.readouterr().err
    assert "empty.png" in err and "corrupt.png" in err and "too many pixels" in err and "missing.png" in err
    assert (out / "good.json").exists() and (out / "good.redacted.png").exists()
    assert not (out / "empty.json").exists() and not (out / "bomb.json").exists()


def _pdf(path: Path, pages: int) -> None:
    pngs = []
    for _ in range(pages):
        buf = io.BytesIO()
        Image.open(PAGE).save(buf, format="PNG")
        pngs.append(buf.getvalue())
    import img2pdf

    path.write_bytes(img2pdf.convert(pngs))


def test_pdf_pages_and_an_image_only_redacted_pdf(tmp_path):
    src = tmp_path / "doc.pdf"
    _pdf(src, 2)
    out = tmp_path / "out"
    assert main([str(src), "-o", str(out)]) == 0
    assert (out / "doc-p1.json").exists() and (out / "doc-p2.redacted.png").exists()
    pdf = pdfium.PdfDocument(out / "doc.redacted.pdf")
    assert len(pdf) == 2 and pdf[0].get_textpage().get_text_range() == ""
    with pikepdf.open(out / "doc.redacted.pdf") as p:
        assert len(p.docinfo) == 0  # no metadata


def test_encrypted_pdf_is_a_clear_error(tmp_path, capsys):
    plain = tmp_path / "plain.pdf"
    _pdf(plain, 1)
    locked = tmp_path / "locked.pdf"
    with pikepdf.open(plain) as p:
        p.save(locked, encryption=pikepdf.Encryption(owner="o", user="secret"))
    assert main([str(locked), "-o", str(tmp_path / "out")]) == 1
    assert "locked.pdf" in capsys.readouterr().err


def test_a_directory_means_every_page_file_in_it(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a.png", "b.jpg"):
        Image.open(PAGE).convert("RGB").save(folder / name)
    (folder / "notes.txt").write_text("ignored")
    out = tmp_path / "out"
    assert main([str(folder), "-o", str(out)]) == 0
    assert sorted(p.name for p in out.glob("*.json")) == ["a.json", "b.json"]


def test_same_page_id_twice_is_refused_not_overwritten(tmp_path, capsys):
    Image.open(PAGE).save(tmp_path / "x.png")
    Image.open(PAGE).convert("RGB").save(tmp_path / "x.jpg")
    assert main([str(tmp_path / "x.png"), str(tmp_path / "x.jpg"), "-o", str(tmp_path / "out")]) == 1
    assert "already written" in capsys.readouterr().err


def test_no_verify_skips_the_residual_check(tmp_path, capsys):
    assert main([str(PAGE), "-o", str(tmp_path), "--no-verify", "--ocr", "tesseract"]) == 0
    assert "residual" not in json.loads((tmp_path / "form-block.json").read_text())
    assert "not verified" in capsys.readouterr().out


class _Blind:
    """A finder that finds nothing, so that only the verifier sees the page's PII."""

    name = "blind"

    def find_page(self, page_id, image):
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=[]))

    def close(self):
        pass


@pytest.mark.parametrize("second_turn", [False, True])
def test_redact_residual_blacks_out_what_the_verifier_still_reads(tmp_path, second_turn):
    verifier = LocalEngine(mode="single", policy=load_policy("default"), ocr="tesseract")
    job = Job(_Blind(), verifier, tmp_path, margin=2.0, redact_residual=second_turn)
    assert run(job, [str(PAGE)]) == 0
    page = PredictionPage.model_validate_json((tmp_path / "form-block.json").read_text())
    assert page.residual and any(p.value == "14086" for p in page.residual)
    pixels = np.asarray(Image.open(tmp_path / "form-block.redacted.png").convert("L"))
    blacked = [pixels[round(p.bbox[1]) : round(p.bbox[3]), round(p.bbox[0]) : round(p.bbox[2])].max() == 0
               for p in page.residual]  # fmt: skip
    assert all(blacked) if second_turn else not any(blacked)
    assert page.predictions == (page.residual if second_turn else [])


def test_redact_residual_needs_the_verifier(tmp_path, capsys):
    assert main([str(PAGE), "-o", str(tmp_path), "--no-verify", "--redact-residual"]) == 2
    assert "needs the verifier" in capsys.readouterr().err


class _People:
    """A finder that reads Ann Lee and Bob Stone on a document's first page, Bob Stone on the rest."""

    name = "people"

    def find_page(self, page_id, image):
        names = ["Ann Lee", "Bob Stone"] if page_id.endswith("-p1") else ["Bob Stone"]
        preds = [
            Prediction(type="PERSON_NAME", bbox=(10, 10 + 30 * k, 80, 30 + 30 * k), value=n)
            for k, n in enumerate(names)
        ]
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=preds))

    def close(self):
        pass


def _entities(out: Path, page_id: str) -> list[str]:
    return [p["entity"] for p in json.loads((out / f"{page_id}.json").read_text())["predictions"]]


def test_an_entity_keeps_its_id_across_a_documents_pages_also_when_resumed(tmp_path):
    src = tmp_path / "doc.pdf"
    _pdf(src, 2)
    out = tmp_path / "out"
    assert run(Job(_People(), None, out, label="entity"), [str(src)]) == 0
    assert _entities(out, "doc-p1") == ["PERSON_NAME#1", "PERSON_NAME#2"]
    assert _entities(out, "doc-p2") == ["PERSON_NAME#2"]  # Bob Stone, as on page 1
    first = _sha(out / "doc-p2.redacted.png")
    for name in ("doc-p2.json", "doc-p2.redacted.png"):
        (out / name).unlink()
    assert run(Job(_People(), None, out, label="entity"), [str(src)], resume=True) == 0
    assert _entities(out, "doc-p2") == ["PERSON_NAME#2"] and _sha(out / "doc-p2.redacted.png") == first


def test_a_folder_as_one_document_links_entities_across_its_files(tmp_path):
    src = tmp_path / "pages"
    src.mkdir()
    for name in ("a-p1.png", "b.png"):  # "a-p1" reads both people, "b" Bob Stone only
        Image.open(PAGE).save(src / name)
    for document, bob in ((False, "PERSON_NAME#1"), (True, "PERSON_NAME#2")):
        out = tmp_path / f"out-{document}"
        assert run(Job(_People(), None, out, document=document), [str(src)], spread=Threads(2)) == 0
        assert _entities(out, "a-p1") == ["PERSON_NAME#1", "PERSON_NAME#2"] and _entities(out, "b") == [bob]


def _text_pdf(path: Path, pages: list[list[str]], sideways: int | None = None) -> None:
    """A PDF of pages that print these lines; page `sideways` (counted from 0) printed sideways."""
    import img2pdf
    from PIL import ImageDraw, ImageFont

    pngs = []
    for n, lines in enumerate(pages):
        page = Image.new("RGB", (1100, 400), "white")
        draw = ImageDraw.Draw(page)
        for k, line in enumerate(lines):
            draw.text((40, 40 + 60 * k), line, fill="black", font=ImageFont.load_default(size=30))
        if n == sideways:
            page = page.transpose(Image.Transpose.ROTATE_90)
        buf = io.BytesIO()
        page.save(buf, format="PNG")
        pngs.append(buf.getvalue())
    path.write_bytes(img2pdf.convert(pngs))


def test_values_found_on_any_page_are_searched_on_the_documents_other_pages(tmp_path):
    src = tmp_path / "doc.pdf"
    _text_pdf(
        src,
        [
            ["Please quote 4268442 and ask F. Brown", "or call 312.555.0199"],  # only found on page 2
            ["Contract #: 4268442", "Attn: Fran Brown", "Tel: (312) 555-0199"],
            ["Re: Brown, Fran; contract 4268442"],
        ],
    )
    engine = LocalEngine(mode="single", policy=load_policy("default"))
    out = tmp_path / "out"
    assert run(Job(engine, None, out), [str(src)]) == 0
    first = json.loads((out / "doc-p1.json").read_text())["predictions"]  # written after page 2 was read
    found = {(p["type"], p["value"], p["entity"]) for p in first}
    assert found == {
        ("CONTRACT_NUMBER", "4268442", "CONTRACT_NUMBER#1"),
        ("PERSON_NAME", "F. Brown", "PERSON_NAME#1"),
        ("PHONE_NUMBER", "312.555.0199", "PHONE_NUMBER#1"),  # the same number as page 2's
    }
    assert {p["value"] for p in first if "found on another page" in p["reason"]} >= {"4268442", "F. Brown"}
    third = json.loads((out / "doc-p3.json").read_text())["predictions"]
    assert {(p["value"], p["entity"]) for p in third} == {
        ("4268442", "CONTRACT_NUMBER#1"),
        ("Brown, Fran", "PERSON_NAME#1"),
    }


def test_a_value_from_another_page_is_found_on_a_page_printed_sideways(tmp_path):
    src = tmp_path / "doc.pdf"
    _text_pdf(src, [["Please quote 4268442 today"], ["Contract #: 4268442"]], sideways=0)
    out = tmp_path / "out"
    assert run(Job(LocalEngine(mode="single", policy=load_policy("default")), None, out), [str(src)]) == 0
    [again] = [p for p in json.loads((out / "doc-p1.json").read_text())["predictions"] if p["value"] == "4268442"]
    x0, y0, x1, y1 = again["bbox"]
    assert "found on another page" in again["reason"] and y1 - y0 > 3 * (x1 - x0)  # up the page, as printed


class _Fails:
    """A finder that cannot read any page."""

    name = "fails"

    def find_page(self, page_id, image):
        raise InputError(f"{page_id}: unreadable")

    def close(self):
        pass


def test_a_failure_recorded_before_any_output_still_makes_the_manifest(tmp_path):
    out = tmp_path / "not" / "made" / "yet"
    assert run(Job(_Fails(), None, out), [str(PAGE)]) == 1
    entries = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert [(e["status"], e["error"]) for e in entries] == [("failed", f"{PAGE.stem}: unreadable")]


def test_a_value_from_another_page_inside_a_less_sensitive_prediction_is_added():
    from redact_agent.job import _uncovered

    name = Prediction(type="PERSON_NAME", bbox=(300, 100, 400, 120), value="W. Davis")
    organization = Prediction(type="ORGANIZATION", bbox=(100, 100, 400, 124), value="spots W. Davis")
    phone = Prediction(type="PHONE_NUMBER", bbox=(100, 100, 400, 124), value="(555) 010-0199")
    assert _uncovered([name], [organization]) == [name]  # a person's name, whatever was found around it
    assert _uncovered([name], [phone]) == []  # covered by a critical box already
    place = Prediction(type="LOCATION", bbox=(300, 100, 400, 120), value="Davis")
    assert _uncovered([place], [organization]) == []


def test_a_repeat_that_reads_a_value_further_takes_the_place_of_the_pages_part():
    from redact_agent.job import _outranked

    # Synthetic documents seed 241: the page found "ORD-4" as a whole code, the rest of "ORD-47797"
    # under a stamp's letters; the value found on another page, printed here, covers all of it.
    start = Prediction(type="CONTRACT_NUMBER", bbox=(570, 1586, 672, 1626), value="ORD-4", confidence=0.7)
    whole = Prediction(type="CONTRACT_NUMBER", bbox=(570, 1586, 752, 1626), value="ORD-4", confidence=0.5)
    same = Prediction(type="CONTRACT_NUMBER", bbox=(571, 1586, 672, 1626), value="ORD-4", confidence=0.5)
    other = Prediction(type="CUSTOMER_ID", bbox=(570, 1586, 752, 1626), value="ORD-4", confidence=0.5)
    assert _outranked([start], [whole]) == []
    assert _outranked([start], [same]) == [start]  # no further: the page's own stays
    assert _outranked([start], [other]) == [start]  # another type, and less sure


def test_a_code_another_page_printed_under_its_label_types_its_bare_mention(tmp_path):
    engine = LocalEngine(mode="single", policy=load_policy("all"))
    bare = ["Please quote ST-5046768 when paying"]
    _text_pdf(tmp_path / "doc.pdf", [bare, ["Invoice #: ST-5046768"]])
    _text_pdf(tmp_path / "alone.pdf", [bare])
    assert run(Job(engine, None, tmp_path / "out"), [str(tmp_path / "doc.pdf"), str(tmp_path / "alone.pdf")]) == 0

    def code(page: str) -> list[tuple[str, str]]:
        found = json.loads((tmp_path / "out" / f"{page}.json").read_text())["predictions"]
        return [(p["type"], p["entity"]) for p in found if p["value"] == "ST-5046768"]

    assert code("doc-p1") == [("INVOICE_NUMBER", "INVOICE_NUMBER#1")]  # its shape alone guesses a CUSTOMER_ID
    assert code("alone-p1") == [("CUSTOMER_ID", "CUSTOMER_ID#1")]
