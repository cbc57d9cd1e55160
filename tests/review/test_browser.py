"""The review page in a real browser: Playwright driving Debian's Chromium (`apt-get install
chromium`; Playwright's own browser download does not work here). Skipped only where no
Chromium is installed and REDACT_AGENT_REQUIRE_BROWSER is unset; CI sets it."""

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import uvicorn
from PIL import Image

from redact_agent.job import Job
from redact_agent.local.engine import LocalEngine
from redact_agent.policy import load_policy
from redact_agent.review.server import create_app, new_token
from redact_agent.review.session import LOG, Review
from redact_agent.run import run

PAGE = Path(__file__).parents[1] / "fixtures" / "form-block.png"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]  # fmt: skip

if CHROMIUM is None and not os.environ.get("REDACT_AGENT_REQUIRE_BROWSER"):
    pytest.skip("no Chromium here (apt-get install chromium)", allow_module_level=True)
playwright = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def served(tmp_path):
    """A run of one dev page, and its review served on a free port of 127.0.0.1."""
    out = tmp_path / "out"
    src = tmp_path / "form.png"
    Image.open(PAGE).save(src)
    assert run(Job(LocalEngine(policy=load_policy("all")), None, out), [str(src)]) == 0
    token = new_token()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(Review(out), token), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    yield out, f"http://127.0.0.1:{sock.getsockname()[1]}/?token={token}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def _open(browser, url):
    page = browser.new_page(viewport={"width": 1400, "height": 700})
    page.goto(url)
    page.wait_for_selector("body[data-ready=yes]")
    return page


def test_reject_draw_search_and_apply_in_the_browser(served, browser):
    out, url = served
    page = _open(browser, url)
    person = page.locator('.box[data-type="PERSON_NAME"]')
    person.click()
    page.keyboard.press("r")
    page.wait_for_selector('.box[data-type="PERSON_NAME"].rejected')
    rejected = json.loads((out / "form.json").read_text())["predictions"]
    x0, y0, x1, y1 = (int(v) for v in next(p["bbox"] for p in rejected if p["type"] == "PERSON_NAME"))

    page.select_option("#draw-type", "SIGNATURE")
    page.keyboard.press("d")
    origin = page.locator("#overlay").bounding_box()
    page.mouse.move(origin["x"] + 20, origin["y"] + 100)
    page.mouse.down()
    page.mouse.move(origin["x"] + 70, origin["y"] + 115, steps=4)
    page.mouse.move(origin["x"] + 120, origin["y"] + 130, steps=4)
    page.mouse.up()
    page.wait_for_selector('.box[data-type="SIGNATURE"]')
    page.keyboard.press("d")  # drawing off

    page.select_option("#draw-type", "PERSON_NAME")
    page.fill("#pattern", "primary")
    page.click("#search")
    page.wait_for_selector(".hit")
    page.click("#redact-hits")
    page.locator('.box[data-type="PERSON_NAME"]').nth(1).wait_for()  # the hit, beside the rejected name

    page.click("#apply")
    page.wait_for_selector("#status[data-applied=yes]", timeout=60_000)
    assert "boxes written" in page.inner_text("#status")

    pixels = np.asarray(Image.open(out / "form.redacted.png").convert("L"))
    original = np.asarray(Image.open(PAGE).convert("L"))
    assert (pixels[y0:y1, x0:x1] == original[y0:y1, x0:x1]).all()  # the rejected box: untouched
    assert (pixels[102:128, 22:118] == 0).all()  # the drawn box: black
    hit = next(p for p in json.loads((out / "form.json").read_text())["predictions"] if p.get("value") == "Primary")
    hx0, hy0, hx1, hy1 = (int(v) for v in hit["bbox"])
    assert (pixels[hy0:hy1, hx0:hx1] == 0).all()  # the search hit: black
    actions = [json.loads(line)["action"] for line in (out / LOG).read_text().splitlines()]
    assert actions == ["reject", "add", "add", "apply"]


def test_a_screenshot_of_the_page_view(served, browser, tmp_path):
    _, url = served
    page = _open(browser, url)
    page.locator(".box").first.hover()
    shot = tmp_path / "review.png"
    page.screenshot(path=str(shot))
    with Image.open(shot) as im:
        assert im.size == (1400, 700)
        assert len(set(im.convert("RGB").getdata())) > 50  # a page and its boxes, not a blank window
    if target := os.environ.get("REDACT_AGENT_SCREENSHOT"):  # the README's picture
        shutil.copy(shot, target)
