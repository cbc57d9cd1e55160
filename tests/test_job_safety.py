"""The main job's safety against what a new user may pass or feed it (issue 20): no option may
shrink a painted box, sideways phone photos and multi-page TIFFs are read whole, folders are
searched with every skip named, outputs fail up front and never half-written, the redacted
PDF keeps the source's page sizes, and a closed stdout never stops the batch."""

import json
import math
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from redact_agent.cli import main
from redact_agent.errors import OutputError
from redact_agent.job import Job
from redact_agent.pages import Finding, Prediction, PredictionPage
from redact_agent.redact import check_writable, redact
from redact_agent.run import run

FIXTURES = Path(__file__).parent / "fixtures"
PAGE = FIXTURES / "form-block.png"  # "Order / Rev: 14086", "Primary AE: David Cisco", dates


class _Fixed:
    """A finder that always predicts the same boxes."""

    name = "fixed"

    def __init__(self, boxes):
        self.boxes = boxes

    def find_page(self, page_id, image):
        # the reason quotes the value, as the embedded engine's reasons may ("the surname of ...")
        why = "printed again; first found as 'Ann Lee'"
        preds = [Prediction(type="PERSON_NAME", bbox=b, value="Ann Lee", reason=why) for b in self.boxes]
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=preds))

    def close(self):
        pass


@pytest.mark.parametrize("margin", ["-5", "-0.1", "nan", "inf"])
def test_a_margin_that_could_shrink_boxes_is_refused(tmp_path, capsys, margin):
    with pytest.raises(SystemExit) as exit_:
        main([str(PAGE), "-o", str(tmp_path / "out"), f"--margin={margin}"])
    assert exit_.value.code == 2 and "margin" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    with pytest.raises(ValueError):
        redact(Image.new("RGB", (10, 10), "white"), [(1, 1, 5, 5)], float(margin))


@settings(max_examples=200, deadline=None)
@given(
    st.floats(0, 60),
    st.floats(0, 40),
    st.floats(0.5, 40),
    st.floats(0.5, 30),
    st.sampled_from([0.0, 0.3, 2.0]),
)
def test_every_pixel_a_box_touches_is_painted(x0, y0, w, h, margin):
    page = Image.new("RGB", (100, 70), "white")
    x1, y1 = min(100.0, x0 + w), min(70.0, y0 + h)
    pixels = np.asarray(redact(page, [(x0, y0, x1, y1)], margin).convert("L"))
    assert pixels[math.floor(y0) : math.ceil(y1), math.floor(x0) : math.ceil(x1)].max() == 0


def _sideways_jpeg(path: Path, orientation: int = 6) -> Image.Image:
    """The page stored as a phone stores it: pixels turned, an EXIF tag saying how to show them."""
    upright = Image.open(PAGE).convert("RGB")
    stored = upright.rotate(90, expand=True) if orientation == 6 else upright.rotate(-90, expand=True)
    exif = Image.Exif()
    exif[0x0112] = orientation
    stored.save(path, exif=exif, quality=95)
    return upright


@pytest.mark.parametrize("orientation", [6, 8])
def test_exif_orientation_is_applied_on_reading(tmp_path, orientation):
    src = tmp_path / "phone.jpg"
    upright = _sideways_jpeg(src, orientation)
    out = tmp_path / "out"
    assert main([str(src), "-o", str(out), "--policy", "all", "--no-verify"]) == 0
    redacted = Image.open(out / "phone.redacted.png")
    assert redacted.size == upright.size  # written upright
    page = PredictionPage.model_validate_json((out / "phone.json").read_text())
    assert any(p.type == "CONTRACT_NUMBER" and p.value == "14086" for p in page.predictions)
    assert any(p.type == "PERSON_NAME" and "Cisco" in (p.value or "") for p in page.predictions)


def test_tiff_orientation_tag_is_applied(tmp_path):
    src = tmp_path / "scan.tiff"
    upright = Image.open(PAGE).convert("RGB")
    upright.rotate(90, expand=True).save(src, tiffinfo={0x0112: 6})
    assert main([str(src), "-o", str(tmp_path / "out"), "--no-verify"]) == 0
    assert Image.open(tmp_path / "out" / "scan.redacted.png").size == upright.size


def test_every_frame_of_a_multi_page_tiff_is_redacted(tmp_path):
    src = tmp_path / "fax.tiff"
    first = Image.open(PAGE).convert("RGB")
    second = Image.new("RGB", (300, 120), "white")
    first.save(src, save_all=True, append_images=[second, first])
    out = tmp_path / "out"
    assert main([str(src), "-o", str(out), "--no-verify"]) == 0
    assert sorted(p.name for p in out.glob("*.redacted.png")) == [f"fax-p{n}.redacted.png" for n in (1, 2, 3)]
    assert Image.open(out / "fax-p2.redacted.png").size == (300, 120)


def test_directories_are_searched_recursively_and_every_skip_is_named(tmp_path, capsys):
    src = tmp_path / "in"
    (src / "sub" / "deeper").mkdir(parents=True)
    Image.open(PAGE).save(src / "a.png")
    Image.open(PAGE).save(src / "sub" / "a.png")  # the same stem in a sub-folder: its own output folder
    Image.open(PAGE).save(src / "sub" / "deeper" / "b.png")
    (src / "notes.txt").write_text("not a page")
    (src / "loop").symlink_to(src, target_is_directory=True)  # a link loop cannot trap the walk
    out = tmp_path / "out"
    assert main([str(src), "-o", str(out), "--no-verify"]) == 0
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*.redacted.png"))
    assert written == ["a.redacted.png", "sub/a.redacted.png", "sub/deeper/b.redacted.png"]
    err = capsys.readouterr().err
    assert "notes.txt: not a png/jpg/jpeg/tif/tiff/pdf file" in err and "loop: a link to a directory" in err
    flat = tmp_path / "flat"
    assert main([str(src), "-o", str(flat), "--no-verify", "--no-recursive"]) == 0
    assert [p.name for p in flat.rglob("*.redacted.png")] == ["a.redacted.png"]
    assert "sub: a sub-directory (--no-recursive)" in capsys.readouterr().err


def test_redacted_pdf_pages_have_the_source_page_sizes(tmp_path):
    src = tmp_path / "doc.pdf"
    pdf = pdfium.PdfDocument.new()
    for w, h in ((612, 792), (842, 595)):  # Letter portrait, A4 landscape
        pdf.new_page(w, h)
    pdf.save(src)
    out = tmp_path / "out"
    assert main([str(src), "-o", str(out), "--no-verify"]) == 0
    redacted = pdfium.PdfDocument(out / "doc.redacted.pdf")
    sizes = [tuple(round(v, 2) for v in redacted[i].get_size()) for i in range(len(redacted))]
    assert sizes == [(612.0, 792.0), (842.0, 595.0)]


def test_an_unwritable_output_folder_fails_up_front(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main([str(PAGE), "-o", str(blocker / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("redact-agent: error: cannot write to the output folder") and "\n" not in err


def test_a_read_only_output_folder_fails_up_front_for_an_ordinary_user(tmp_path):
    """Root may write anywhere, so the check runs in a child that drops to `nobody` when needed."""
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"ro-{os.getpid()}"
    folder.mkdir(mode=0o555)
    try:
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 3
            try:
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
                try:
                    check_writable(folder)
                    code = 0
                except OutputError as exc:
                    code = 1 if "Permission denied" in str(exc) else 4
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 1
    finally:
        folder.rmdir()


def _full_disk() -> None:
    """In the child: files may not grow past 4 KiB, and the kernel says so with EFBIG rather than
    killing the process (SIGXFSZ ignored), as a full disk says ENOSPC."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))


def test_a_full_disk_is_one_clear_error_per_page_and_leaves_no_partial_file(tmp_path):
    out = tmp_path / "out"
    args = [sys.executable, "-m", "redact_agent", str(PAGE), "-o", str(out), "--no-verify", "--ocr", "tesseract"]
    done = subprocess.run(args, capture_output=True, text=True, preexec_fn=_full_disk, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot write" in done.stderr and "form-block.redacted.png: File too large" in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["manifest.jsonl", "summary.md"]  # no partial output
    assert json.loads((out / "manifest.jsonl").read_text())["status"] == "failed"


def test_values_omit_keeps_boxes_and_types_but_no_text(tmp_path):
    job = Job(_Fixed([(10, 10, 80, 30)]), None, tmp_path, values="omit")
    assert run(job, [str(PAGE)]) == 0
    text = (tmp_path / "form-block.json").read_text()
    page = PredictionPage.model_validate_json(text)
    assert page.predictions[0].type == "PERSON_NAME" and page.predictions[0].value is None
    assert "Ann Lee" not in text


def test_fail_on_residual_and_the_summary_counts_pages_with_residual_findings(tmp_path, capsys):
    from redact_agent.local.engine import LocalEngine
    from redact_agent.policy import load_policy

    verifier = LocalEngine(mode="single", policy=load_policy("default"), ocr="tesseract")
    blind = _Fixed([])
    assert run(Job(blind, verifier, tmp_path / "a"), [str(PAGE)]) == 0
    err = capsys.readouterr().err
    assert "1 of 1 pages redacted" in err and "1 with residual findings" in err
    assert run(Job(blind, verifier, tmp_path / "b", fail_on_residual=True), [str(PAGE)]) == 1


@pytest.mark.parametrize("value", ["0", "-1", "two"])
def test_concurrency_below_one_is_refused(tmp_path, value):
    with pytest.raises(SystemExit) as exit_:
        main([str(PAGE), "-o", str(tmp_path), "--concurrency", value])
    assert exit_.value.code == 2


def _closed_stdout(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with a stdout whose reader has gone (`| head` after it read enough)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "redact_agent", *args], stdout=write, stderr=subprocess.PIPE, timeout=600
        )
    finally:
        os.close(write)


def test_a_closed_stdout_does_not_stop_the_batch(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    for k in range(4):
        Image.open(PAGE).save(src / f"p{k}.png")
    out = tmp_path / "out"
    done = _closed_stdout([str(src), "-o", str(out), "--no-verify", "--ocr", "tesseract"])
    assert done.returncode == 0, done.stderr.decode()
    assert len(list(out.glob("*.redacted.png"))) == 4 and b"Traceback" not in done.stderr


def test_data_stats_into_a_closed_pipe_prints_no_traceback(tmp_path):
    gold = {"page_id": "g", "image": "g.png", "width": 10, "height": 10, "source": "t", "annotations": []}
    (tmp_path / "g.json").write_text(json.dumps(gold))
    done = _closed_stdout(["data", "stats", str(tmp_path), "-o", str(tmp_path / "stats")])
    assert done.returncode == 0 and b"Traceback" not in done.stderr and b"BrokenPipe" not in done.stderr
