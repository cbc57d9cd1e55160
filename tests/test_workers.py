"""The main job in worker processes (`--workers N`): each builds its own engines from their
pickled settings; the outputs are the bytes one process writes; two inputs that would write one
name are settled in input order; a worker that dies fails its pages without stopping the batch,
and leaves nothing running."""

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import img2pdf
from PIL import Image

from redact_agent.cli import main
from redact_agent.job import Job
from redact_agent.local.engine import LocalEngine
from redact_agent.policy import load_policy
from redact_agent.run import Processes, run
from tests.helpers import Corner, slow_pages

FIXTURES = Path(__file__).parent / "fixtures"
PAGES = [FIXTURES / name for name in ("form-block.png", "order-block.png", "print-date.png")]


def _inputs(folder: Path) -> list[str]:
    folder.mkdir()
    for page in PAGES:
        Image.open(page).save(folder / page.name)
    with Image.open(PAGES[0]) as a, Image.open(PAGES[1]) as b:  # a two-page PDF: its pages in order
        (folder / "two.pdf").write_bytes(img2pdf.convert([_png(a), _png(b)]))
    return [str(folder)]


def _png(image: Image.Image) -> bytes:
    import io

    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    return buf.getvalue()


def _outputs(out: Path) -> dict[str, str]:
    skip = ("manifest.jsonl", "summary.md")  # they record the seconds each page took
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.iterdir() if p.name not in skip}


def test_two_workers_write_the_bytes_one_process_writes(tmp_path, capsys):
    inputs = _inputs(tmp_path / "in")
    engine = LocalEngine(mode="single", policy=load_policy("all"))
    verifier = LocalEngine(ocr="tesseract")
    outs = [tmp_path / "one", tmp_path / "two"]
    assert run(Job(engine, verifier, outs[0], label="entity"), inputs, spread=Processes(1)) == 0
    assert run(Job(engine, verifier, outs[1], label="entity"), inputs, spread=Processes(2)) == 0
    one, two = _outputs(outs[0]), _outputs(outs[1])
    assert one == two and "two.redacted.pdf" in one and len(one) == 2 * 5 + 1
    assert json.loads((outs[1] / "two-p2.json").read_text())["predictions"], "the engine found nothing to compare"
    entries = [json.loads(line) for line in (outs[1] / "manifest.jsonl").read_text().splitlines()]
    assert sorted(e["page"] for e in entries) == ["form-block", "order-block", "print-date", "two-p1", "two-p2"]
    assert "5 of 5 pages redacted" in capsys.readouterr().err
    assert "pages: 5; redacted: 5" in (outs[1] / "summary.md").read_text()


def test_a_name_two_inputs_would_write_goes_to_the_first_in_input_order(tmp_path, capsys):
    for name in ("x.png", "y.png"):
        Image.open(PAGES[0]).save(tmp_path / name)
    Image.open(PAGES[1]).convert("RGB").save(tmp_path / "x.jpg")
    order = [str(tmp_path / n) for n in ("y.png", "x.jpg", "x.png")]
    assert run(Job(Corner(), None, tmp_path / "out"), order, spread=Processes(2)) == 1
    err = capsys.readouterr().err
    assert f"x: FAILED: page id already written from {tmp_path / 'x.jpg'}" in err
    with Image.open(tmp_path / "out" / "x.redacted.png") as im:
        assert im.size == Image.open(PAGES[1]).size  # the JPEG's page, whichever worker ended first


class _DiesOn(Corner):
    """Ends its worker process, as the kernel's OOM killer would, on one page."""

    def __init__(self, page_id: str):
        self.page_id = page_id

    def find_page(self, page_id, image):
        if page_id == self.page_id:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().find_page(page_id, image)


def test_a_worker_that_dies_fails_its_pages_and_the_batch_ends(tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    for k in range(6):
        Image.open(PAGES[0]).save(src / f"p{k}.png")
    out = tmp_path / "out"
    assert run(Job(_DiesOn("p3"), None, out), [str(src)], spread=Processes(2)) == 1
    err = capsys.readouterr().err
    assert "p3: FAILED: a worker process died" in err and "--resume redoes" in err
    entries = {json.loads(line)["page"]: json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()}
    assert entries["p3"]["status"] == "failed"
    done = [page for page, e in entries.items() if e["status"] == "ok"]
    assert all((out / f"{page}.redacted.png").is_file() for page in done)
    assert run(Job(Corner(), None, out), [str(src)], spread=Processes(2), resume=True) == 0
    assert len(list(out.glob("*.redacted.png"))) == 6


def test_workers_end_with_a_killed_run(tmp_path):
    src = tmp_path / "in"
    slow_pages(src, PAGES[0], 8)
    out = tmp_path / "out"
    args = [sys.executable, "-m", "redact_agent", str(src), "-o", str(out), "--no-verify", "--workers", "2"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(out.glob("*.redacted.png")):
        time.sleep(0.05)
    children = _children(proc.pid)
    assert children, "no worker process was running"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{c}").exists() for c in children):
        time.sleep(0.05)
    assert not [c for c in children if Path(f"/proc/{c}").exists()], "a worker outlived its killed parent"


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    found = []
    for task in tasks.iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def test_threads_and_processes_are_one_choice(tmp_path, capsys):
    assert main([str(PAGES[0]), "-o", str(tmp_path / "o"), "--workers", "2", "--concurrency", "2"]) == 2
    assert "choose one" in capsys.readouterr().err


def test_ray_without_its_extra_is_one_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    assert main([str(PAGES[0]), "-o", str(tmp_path / "o"), "--ray"]) == 2
    assert "needs the 'ray' extra" in capsys.readouterr().err
