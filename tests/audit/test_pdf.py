"""Redactions in a PDF that do not hold: text under a drawn box or a scan's painted box, a
Redact annotation never applied, a box that is an annotation; and what holds."""

import json

import pytest

from redact_agent.audit.job import run
from redact_agent.cli import main
from tests.audit.pdfs import box, pdf, text

REDACT = "<< /Type /Annot /Subtype /Redact /Rect [110 645 200 662] >>"
SQUARE = "<< /Type /Annot /Subtype /Square /Rect [110 595 200 612] /C [0 0 0] /IC [0 0 0] >>"


def _audit(tmp_path, data: bytes, *flags: bool) -> tuple[int, dict, dict]:
    (tmp_path / "doc.pdf").write_bytes(data)
    rc = run([str(tmp_path / "doc.pdf")], tmp_path / "out", tmp_path / "summary.json", *flags)
    page = json.loads((tmp_path / "out" / "doc-p1.audit.json").read_text())
    return rc, page, json.loads((tmp_path / "summary.json").read_text())


def test_text_under_a_box_drawn_after_it_is_found_and_its_text_shown_only_when_asked(tmp_path):
    data = pdf(text(72, 700, "Name: John Smith") + box(108, 695, 80, 18))
    rc, page, summary = _audit(tmp_path, data)
    assert rc == 1 and summary["findings"] == {"text_under_box": 1}
    [finding] = page["findings"]
    assert finding["chars"] == len("JohnSmith") and finding["text"] is None
    assert any(r["kind"] == "black" for r in page["redactions"])
    assert "text_under_box" in (tmp_path / "out" / "audit.md").read_text()
    _, shown, _ = _audit(tmp_path, data, True)
    assert shown["findings"][0]["text"] == "John Smith"


def test_a_code_printed_on_a_box_and_text_on_a_shaded_cell_are_no_finding(tmp_path):
    content = box(108, 695, 80, 18) + "1 g\n" + text(120, 700, "5.1.2e") + "0 g\n"
    content += box(72, 640, 300, 18, grey=0.8) + text(76, 645, "Omschrijving van de kosten")
    rc, page, _ = _audit(tmp_path, pdf(content))
    assert rc == 0 and page["findings"] == []


@pytest.mark.parametrize("annot, kind", [(REDACT, "unapplied_redaction"), (SQUARE, "annotation_box")])
def test_a_redaction_annotation_never_applied_and_a_box_that_is_an_annotation(tmp_path, annot, kind):
    content = text(72, 650, "Phone: 312 555 0199") + text(72, 600, "Agent: Mary Jones")
    rc, page, _ = _audit(tmp_path, pdf(content, (annot,)))
    assert rc == 1 and [f["kind"] for f in page["findings"]] == [kind]
    assert page["findings"][0]["chars"] > 0


def test_a_scans_text_layer_under_a_box_painted_into_the_image(tmp_path):
    w, h = 306, 396  # 2 points a pixel
    pixels = bytearray(b"\xff" * (w * h))
    for y in range(h - 353, h - 344):  # a black box over where the text layer has "John Smith"
        pixels[y * w + 54 : y * w + 94] = b"\x00" * 40
    layer = "3 Tr\n" + text(72, 700, "Name: John Smith") + "0 Tr\n"  # OCR text, invisible
    rc, page, _ = _audit(tmp_path, pdf(layer, image=(bytes(pixels), w, h)))
    assert rc == 1 and [f["kind"] for f in page["findings"]] == ["text_under_box"]


def test_our_own_redacted_pdf_holds(tmp_path):
    source = tmp_path / "letter.pdf"
    source.write_bytes(pdf(text(72, 700, "Call Mary Jones at (312) 555-0199 today.", size=14)))
    assert main([str(source), "-o", str(tmp_path / "red")]) == 0
    rc, page, _ = _audit(tmp_path, (tmp_path / "red" / "letter.redacted.pdf").read_bytes())
    assert rc == 0 and page["findings"] == [] and len(page["redactions"]) >= 2
