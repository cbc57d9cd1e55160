"""Batches that survive faults (issue 19): a run killed with SIGKILL leaves only complete
files and a resume finishes it, redoing only what was unfinished; damaged inputs fail alone and
are named once; odd PDFs, names and folders do not stop a batch."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from redact_agent.cli import main
from redact_agent.job import Job
from redact_agent.pages import PredictionPage
from redact_agent.run import run
from tests.helpers import Corner, slow_pages

FIXTURES = Path(__file__).parent / "fixtures"
PAGE = FIXTURES / "form-block.png"


def _page(path: Path, k: int) -> None:
    image = Image.new("RGB", (160, 90), "white")
    ImageDraw.Draw(image).text((10, 30), f"page {k}", fill="black")
    image.save(path)


def _complete(out: Path) -> int:
    """Every output present parses or opens whole; returns how many pages are written."""
    assert not [p for p in out.rglob("*.tmp") if p.is_file() and not p.name.startswith(".")]
    for path in out.rglob("*.json"):
        PredictionPage.model_validate_json(path.read_text())
    pngs = list(out.rglob("*.redacted.png"))
    for path in pngs:
        with Image.open(path) as im:
            im.load()
    for path in out.rglob("*.redacted.pdf"):
        pdfium.PdfDocument(path).close()
    return len(pngs)


@pytest.mark.parametrize("kill_after", [0, 3])  # pages written before the kill (0: during start-up)
def test_a_killed_run_leaves_complete_files_and_a_resume_finishes_it(tmp_path, kill_after):
    src = tmp_path / "in"
    slow_pages(src, PAGE, 10)
    out = tmp_path / "out"
    args = [sys.executable, "-m", "redact_agent", str(src), "-o", str(out), "--no-verify", "--ocr", "tesseract"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list(out.glob("*.redacted.png"))) >= kill_after:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    written = _complete(out) if out.exists() else 0
    assert written < 10, "the run finished before it was killed"
    resumed = subprocess.run([*args, "--resume"], capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert _complete(out) == 10
    entries = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert sorted(e["page"] for e in entries) == [f"p{k:02d}" for k in range(10)]  # one line each
    earlier = resumed.stdout.count("done by an earlier run, skipped")
    assert earlier <= written and resumed.stdout.count(" items (") == 10 - earlier
    assert not list(out.glob(".*.tmp"))  # the killed run's temporary file is gone
    again = subprocess.run([*args, "--resume"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and again.stdout.count("done by an earlier run, skipped") == 10


def test_resume_redoes_pages_done_under_other_settings(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(Job(Corner(), None, out), [str(PAGE)], resume=True) == 0
    assert run(Job(Corner(), None, out, margin=5.0), [str(PAGE)], resume=True) == 0
    assert "skipped" not in capsys.readouterr().out  # redone: the margin changed the outputs
    entries = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len({e["config"] for e in entries}) == 2 and all(e["status"] == "ok" for e in entries)
    assert run(Job(Corner(), None, out, margin=5.0), [str(PAGE)], resume=True) == 0
    assert "done by an earlier run, skipped" in capsys.readouterr().out


def _damage(path: Path, k: int) -> None:
    data = path.read_bytes()
    kinds = [b"", data[: len(data) // 3], os.urandom(500), data[:40] + os.urandom(len(data) - 40)]
    path.write_bytes(kinds[k % len(kinds)])


def test_300_pages_with_5_percent_damaged(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    bad = set(range(3, 300, 20))  # 15 of 300
    for k in range(300):
        path = src / f"page-{k:03d}.png"
        _page(path, k)
        if k in bad:
            _damage(path, k)
    out = tmp_path / "out"
    assert run(Job(Corner(), None, out), [str(src)]) == 1
    err = capsys.readouterr().err
    for k in range(300):
        named = err.count(f"page-{k:03d}.png")
        assert named == (1 if k in bad else 0), (k, named)
        assert (out / f"page-{k:03d}.redacted.png").exists() == (k not in bad)
    assert "285 of 300 pages redacted" in err
    summary = (out / "summary.md").read_text()
    assert "pages: 300; redacted: 285; failed: 15" in summary


def test_pdfs_with_a_thousand_pages_an_absurd_size_or_no_width_fail_alone_or_pass(tmp_path):
    many = tmp_path / "many.pdf"
    pdf = pdfium.PdfDocument.new()
    for _ in range(1000):
        pdf.new_page(72, 72)
    pdf.save(many)
    huge = tmp_path / "huge.pdf"
    pdf = pdfium.PdfDocument.new()
    pdf.new_page(14400, 14400)  # 200 inches square: rendered within the pixel cap
    pdf.new_page(1, 14400)  # a sliver
    pdf.save(huge)
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    out = tmp_path / "out"
    assert run(Job(Corner(), None, out), [str(many), str(huge), str(garbage)]) == 1
    assert len(pdfium.PdfDocument(out / "many.redacted.pdf")) == 1000
    assert [tuple(round(v) for v in p.get_size()) for p in pdfium.PdfDocument(out / "huge.redacted.pdf")] == [
        (14400, 14400),
        (1, 14400),
    ]
    big = Image.open(out / "huge-p1.redacted.png")
    assert big.width * big.height <= 40_100_000  # the render cap (40 MP), up to rounding
    assert not list(out.glob("garbage*"))


@pytest.mark.parametrize("name", ["with space.png", "naïve-ünïcode.png", "new\nline.png"])
def test_odd_file_names(tmp_path, name):
    src = tmp_path / name
    Image.open(PAGE).save(src, format="PNG")
    out = tmp_path / "out"
    assert run(Job(Corner(), None, out), [str(src)]) == 0
    assert (out / f"{src.stem}.redacted.png").exists() and (out / f"{src.stem}.json").exists()


def test_a_directory_of_ten_thousand_entries(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    for k in range(10_000):
        (src / f"note-{k:05d}.txt").touch()
    _page(src / "only.png", 0)
    assert main([str(src), "-o", str(tmp_path / "out"), "--no-verify", "--ocr", "tesseract"]) == 0
    err = capsys.readouterr().err
    assert "9980 more: not a png/jpg/jpeg/tif/tiff/pdf file" in err and len(err.splitlines()) < 40
    assert (tmp_path / "out" / "only.redacted.png").exists()
