"""The review server through its HTTP API: the token on every request, no path outside the
run, decisions logged and replayed, search, and apply through the main job's redaction."""

import json
from pathlib import Path

import img2pdf
import numpy as np
import pypdfium2 as pdfium
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from redact_agent.cli import main
from redact_agent.job import Job
from redact_agent.local.engine import LocalEngine
from redact_agent.policy import load_policy
from redact_agent.review.server import HEADER, create_app
from redact_agent.review.session import LOG, Review
from redact_agent.run import run

PAGE = Path(__file__).parents[1] / "fixtures" / "form-block.png"
TOKEN = "the-token"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    """A run of the embedded engine over one page and a two-page PDF of it."""
    src = tmp_path_factory.mktemp("in")
    Image.open(PAGE).save(src / "form.png")
    png = (src / "form.png").read_bytes()
    (src / "two.pdf").write_bytes(img2pdf.convert([png, png]))
    out = tmp_path_factory.mktemp("out")
    assert run(Job(LocalEngine(policy=load_policy("all")), None, out), [str(src)]) == 0
    return out


@pytest.fixture
def out(run_dir, tmp_path) -> Path:
    """A copy of the run, for one test to change."""
    copy = tmp_path / "run"
    copy.mkdir()
    for path in run_dir.iterdir():
        (copy / path.name).write_bytes(path.read_bytes())
    return copy


@pytest.fixture
def client(out) -> TestClient:
    return TestClient(create_app(Review(out), TOKEN))


def _post(client: TestClient, path: str, body: dict) -> dict:
    response = client.post(path, json=body, headers={HEADER: TOKEN})
    assert response.status_code == 200, response.text
    return response.json()


def test_every_request_needs_the_token_and_a_post_needs_it_in_the_header(client):
    assert client.get("/").status_code == 403
    assert client.get("/?token=wrong").status_code == 403
    assert client.get("/api/pages", headers={HEADER: "wrong"}).status_code == 403
    assert client.post(f"/api/act?token={TOKEN}", json={"page": "form", "action": "undo"}).status_code == 403
    client.cookies.set("token", TOKEN)
    assert client.post("/api/apply").status_code == 403  # a cookie is not the header
    page = client.get(f"/?token={TOKEN}")
    assert page.status_code == 200 and f'content="{TOKEN}"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]


@pytest.mark.parametrize(
    "path",
    ["/api/image?id=../../../etc/passwd", "/api/image?id=/etc/passwd&kind=redacted", "/api/page?id=..%2Fform",
     "/static/..%2Fsession.py", "/static/../../session.py", "/api/image?id=form.redacted.png%00"],
)  # fmt: skip
def test_no_path_outside_the_run_is_served(client, path):
    response = client.get(path, headers={HEADER: TOKEN})
    assert response.status_code in (400, 404)
    assert b"import" not in response.content and b"root:" not in response.content


def test_decisions_are_logged_and_replayed(client, out):
    pages = client.get("/api/pages", headers={HEADER: TOKEN}).json()["pages"]
    assert [p["id"] for p in pages] == ["form", "two-p1", "two-p2"]
    boxes = client.get("/api/page?id=form", headers={HEADER: TOKEN}).json()["boxes"]
    first = boxes[0]["id"]
    _post(client, "/api/act", {"page": "form", "action": "reject", "box": first})
    added = _post(
        client, "/api/act", {"page": "form", "action": "add", "bbox": [10, 100, 60, 130], "type": "PERSON_NAME"}
    )
    _post(client, "/api/act", {"page": "form", "action": "move", "box": added["box"], "bbox": [12, 100, 70, 130]})
    _post(client, "/api/act", {"page": "form", "action": "undo"})  # the move
    bad = client.post("/api/act", json={"page": "form", "action": "add", "bbox": [1, 2], "type": "X"},
                      headers={HEADER: TOKEN})  # fmt: skip
    assert bad.status_code == 400 and "box" in bad.json()["error"]
    log = [json.loads(line) for line in (out / LOG).read_text().splitlines()]
    assert [r["action"] for r in log] == ["reject", "add", "move", "undo"]
    assert log[0]["before"]["state"] == "proposed" and log[0]["after"]["state"] == "rejected"
    again = Review(out).page("form")  # opened anew: the log replayed
    assert again.boxes[first].state == "rejected" and again.boxes[added["box"]].bbox == [10.0, 100.0, 60.0, 130.0]


def test_search_finds_the_words_and_the_hits_can_be_redacted(client):
    hits = _post(client, "/api/search", {"pattern": "cisco", "regex": False})["hits"]
    assert {h["page"] for h in hits} == {"form", "two-p1", "two-p2"} and all(h["text"] == "Cisco" for h in hits)
    one = _post(client, "/api/search", {"pattern": r"03/03/\d\d", "regex": True, "page": "form"})["hits"]
    assert len(one) == 2
    bad = client.post("/api/search", json={"pattern": "(", "regex": True}, headers={HEADER: TOKEN})
    assert bad.status_code == 400


def test_apply_writes_the_reviewed_boxes_through_the_main_jobs_redaction(client, out):
    boxes = client.get("/api/page?id=form", headers={HEADER: TOKEN}).json()["boxes"]
    rejected = next(b for b in boxes if b["type"] == "PERSON_NAME")
    _post(client, "/api/act", {"page": "form", "action": "reject", "box": rejected["id"]})
    drawn = [20, 100, 120, 130]
    _post(client, "/api/act", {"page": "form", "action": "add", "bbox": drawn, "type": "SIGNATURE"})
    for page in ("two-p1", "two-p2"):
        _post(client, "/api/act", {"page": page, "action": "reject", "box": "f0"})
    result = _post(client, "/api/apply", {})["pages"]
    assert result["form"]["kept"] == len(boxes)  # one rejected, one drawn
    pixels = np.asarray(Image.open(out / "form.redacted.png").convert("L"))
    original = np.asarray(Image.open(PAGE).convert("L"))
    x0, y0, x1, y1 = (int(v) for v in rejected["bbox"])
    assert (pixels[y0:y1, x0:x1] == original[y0:y1, x0:x1]).all()  # left as it was
    assert (pixels[100:130, 20:120] == 0).all()  # drawn, black
    kept = next(b for b in boxes if b["type"] == "CONTRACT_NUMBER")
    x0, y0, x1, y1 = (int(v) for v in kept["bbox"])
    assert (pixels[y0:y1, x0:x1] == 0).all()
    written = json.loads((out / "form.json").read_text())
    assert written["engine"] == "review" and "residual" in written
    assert any(p.get("reason") == "drawn in review" for p in written["predictions"])
    assert len(pdfium.PdfDocument(out / "two.redacted.pdf")) == 2  # rebuilt from both reviewed pages
    assert json.loads((out / LOG).read_text().splitlines()[-1])["action"] == "apply"


def test_review_of_a_folder_with_no_run_is_one_clear_error(tmp_path, capsys):
    assert main(["review", str(tmp_path), "--no-browser"]) == 2
    assert "no redacted pages to review" in capsys.readouterr().err
