"""The main job as a Ray Data pipeline, on a local Ray of 2 CPUs: the bytes one process writes;
an actor killed mid-document loses nothing and writes nothing twice; a document that kills
every actor it is given fails alone, after a bounded number of tries."""

import hashlib
import io
import json
import os
import signal
from pathlib import Path

import img2pdf
import pytest
from PIL import Image

from redact_agent.cli import main
from redact_agent.inputs import Document
from redact_agent.job import Job
from redact_agent.local.engine import LocalEngine
from redact_agent.policy import load_policy
from redact_agent.ray_run import RayPipeline
from redact_agent.run import run
from tests.helpers import Corner

ray = pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
PAGES = [FIXTURES / name for name in ("form-block.png", "order-block.png", "print-date.png")]


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    # The actors import this module's finders: they need the checkout on their path.
    ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
    yield
    ray.shutdown()


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    return buf.getvalue()


def _inputs(folder: Path, pdf_pages: int = 2) -> list[str]:
    folder.mkdir()
    for page in PAGES:
        Image.open(page).save(folder / page.name)
    pages = [_png(Image.open(PAGES[k % len(PAGES)])) for k in range(pdf_pages)]
    (folder / "doc.pdf").write_bytes(img2pdf.convert(pages))
    return [str(folder)]


def _outputs(out: Path) -> dict[str, str]:
    skip = ("manifest.jsonl", "summary.md")  # they record the seconds each page took
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.iterdir() if p.name not in skip}


def _manifest(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]


def test_ray_writes_the_bytes_one_process_writes(tmp_path):
    inputs = _inputs(tmp_path / "in")
    engine = LocalEngine(mode="single", policy=load_policy("all"))
    verifier = LocalEngine(ocr="tesseract")
    one, pipeline = tmp_path / "one", tmp_path / "ray"
    assert run(Job(engine, verifier, one, label="entity"), inputs) == 0
    assert run(Job(engine, verifier, pipeline, label="entity"), inputs, RayPipeline(actors=2)) == 0
    assert _outputs(one) == _outputs(pipeline) and "doc.redacted.pdf" in _outputs(pipeline)
    assert len({e["process"] for e in _manifest(pipeline)} - {os.getpid()}) >= 1  # done in the actors


class _Dies(Corner):
    """Kills its actor's process on one page: once (a marker file says it did), or every time."""

    def __init__(self, page_id: str, marker: Path | None):
        self.page_id, self.marker = page_id, marker

    def find_page(self, page_id, image):
        if page_id == self.page_id and (self.marker is None or not self.marker.exists()):
            if self.marker is not None:
                self.marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().find_page(page_id, image)


class _DiesReading(LocalEngine):
    """A verifier that kills its actor's process when it reads a page of one size, once (a marker
    file says it did): a kill in the writing pass, after the document's earlier pages were written."""

    def __init__(self, size: tuple[int, int], marker: Path):
        super().__init__(ocr="tesseract")
        self.size, self.marker = size, marker

    def __reduce__(self):
        return _DiesReading, (self.size, self.marker)

    def predict(self, page):
        if page.size == self.size and not self.marker.exists():
            self.marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return super().predict(page)


@pytest.mark.parametrize("when", ["reading", "writing"])
def test_an_actor_killed_mid_document_loses_nothing_and_writes_nothing_twice(tmp_path, capsys, when):
    inputs = _inputs(tmp_path / "in", pdf_pages=3)
    clean, killed = tmp_path / "clean", tmp_path / "killed"
    assert run(Job(Corner(), LocalEngine(ocr="tesseract"), clean), inputs) == 0
    marker = tmp_path / "died"
    if when == "reading":  # the document's pages are all found before any is written
        job = Job(_Dies("doc-p3", marker), LocalEngine(ocr="tesseract"), killed)
    else:
        size = Document(tmp_path / "in" / "doc.pdf").page("doc-p3").image.size
        assert size not in {Image.open(p).size for p in PAGES}
        job = Job(Corner(), _DiesReading(size, marker), killed)
    assert run(job, inputs, RayPipeline(actors=2)) == 0
    assert marker.exists(), "no actor was killed"
    assert _outputs(killed) == _outputs(clean)  # the document's PDF too, from all three pages
    pages = [e["page"] for e in _manifest(killed)]
    assert sorted(pages) == ["doc-p1", "doc-p2", "doc-p3", "form-block", "order-block", "print-date"]
    assert all(e["status"] == "ok" for e in _manifest(killed))
    if when == "writing":  # the retry took up what the killed actor wrote
        assert "doc-p1: done by an earlier run, skipped" in capsys.readouterr().out


def test_a_document_that_kills_every_actor_is_tried_a_bounded_number_of_times_then_failed(tmp_path, capsys):
    inputs = _inputs(tmp_path / "in", pdf_pages=1)
    out = tmp_path / "out"
    assert run(Job(_Dies("doc-p1", None), None, out), inputs, RayPipeline(actors=1)) == 1
    entries = {e["page"]: e for e in _manifest(out)}
    assert entries["doc"]["status"] == "failed" and "--resume" in entries["doc"]["error"]
    assert "doc: FAILED: the Ray pipeline stopped" in capsys.readouterr().err


def test_ray_from_the_command_line(tmp_path, capsys):
    inputs = _inputs(tmp_path / "in")
    out = tmp_path / "out"
    assert main([*inputs, "-o", str(out), "--no-verify", "--ray", "--workers", "2"]) == 0
    assert len(list(out.glob("*.redacted.png"))) == 5 and (out / "doc.redacted.pdf").is_file()
    assert main(["--ray", *inputs, str(PAGES[0]), "-o", str(out)]) == 2  # the folder taken as an address
    assert "put --ray after the inputs" in capsys.readouterr().err
