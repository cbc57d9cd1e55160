"""A model server that is down, refuses the key, or never answers: each page fails alone with its
reason in its JSON and the batch goes on, within the timeouts the user set; a refused key or
model stops the batch at once with one line (issue 20)."""

import json
import socket
import time
from pathlib import Path

import pytest
from PIL import Image

from redact_agent.agent.scripted import ScriptedServer, Step
from redact_agent.agent.serve import vllm_command
from redact_agent.cli import main


@pytest.fixture
def pages(tmp_path: Path) -> list[str]:
    paths = []
    for k in range(2):
        path = tmp_path / f"p{k}.png"
        Image.new("RGB", (200, 100), "white").save(path)
        paths.append(str(path))
    return paths


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return port


def _vllm(url: str) -> list[str]:
    return ["--backend", "vllm", "--base-url", url, "--model", "m", "--no-verify", "--no-cache"]


def test_nothing_listening_fails_each_page_alone_with_its_reason(tmp_path, pages, capsys):
    out = tmp_path / "out"
    url = f"http://127.0.0.1:{_free_port()}/v1"
    assert main([*pages, "-o", str(out), *_vllm(url), "--page-timeout", "2"]) == 1
    for k in range(2):  # later files are still tried
        page = json.loads((out / f"p{k}.json").read_text())
        assert page["valid"] is False and "cannot connect" in page["reason"]
    err = capsys.readouterr().err
    assert "0 of 2 pages redacted" in err and "Traceback" not in err


def test_a_refused_key_stops_the_batch_with_one_line(tmp_path, pages, capsys):
    with ScriptedServer([Step(status=401)], repeat_last=True) as server:
        assert main([*pages, "-o", str(tmp_path / "out"), *_vllm(server.url)]) == 2
    assert len(server.requests) == 1  # not retried, and the second page is never sent
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"redact-agent: error: {server.url} refused the request: Error code: 401 - scripted 401"]


def test_a_server_that_never_answers_costs_the_request_timeout_not_minutes(tmp_path, pages):
    silent = socket.socket()  # accepts connections (the kernel's backlog) and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
    out = tmp_path / "out"
    t0 = time.monotonic()
    try:
        code = main([*pages, "-o", str(out), *_vllm(url), "--request-timeout", "0.5", "--page-timeout", "1.5"])
    finally:
        silent.close()
    assert code == 1 and time.monotonic() - t0 < 10
    page = json.loads((out / "p0.json").read_text())
    assert page["valid"] is False and ("within the request timeout" in page["reason"] or "limit" in page["reason"])


def test_a_bench_system_that_cannot_start_leaves_no_run_folder(tmp_path, capsys):
    from redact_agent.synth.corpus import synthesise

    data = tmp_path / "data"
    synthesise(data, 1, 0, "balanced", 1, None)
    with ScriptedServer([Step(status=401)], repeat_last=True) as server:
        code = main(["bench", str(data), "--system", f"vllm:m:single:base_url={server.url}", "-o", str(tmp_path / "r")])
    assert code == 2 and not any((tmp_path / "r").iterdir())


def test_serve_offers_tool_flags_only_to_profiles_with_native_tool_calls():
    qwen = vllm_command("Qwen/Qwen3-VL-8B-Instruct")
    assert qwen[qwen.index("--tool-call-parser") + 1] == "hermes" and "--mm-processor-kwargs" in qwen
    intern = vllm_command("OpenGVLab/InternVL3-8B")
    assert "--tool-call-parser" not in intern and "--enable-auto-tool-choice" not in intern
