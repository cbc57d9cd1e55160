"""Single-pass VLM redaction through the real `openai` client against a scripted server."""

import json

import pytest
from PIL import Image

from redact_agent.agent.cache import ResponseCache
from redact_agent.agent.client import ChatClient, ModelConfig
from redact_agent.agent.loop import run_page
from redact_agent.agent.profiles import profile_for, smart_resize
from redact_agent.agent.scripted import ScriptedServer, Step

PAGE = Image.new("RGB", (999, 1998), "white")


def _answer(*entities):
    return json.dumps({"entities": list(entities)})


def _client(server, model="gpt-test", cache=None):
    return ChatClient(ModelConfig(model=model, base_urls=(server.url,), attempts=4, backoff_max_s=0.01), cache)


def test_valid_answer_becomes_page_pixels_and_the_request_carries_prompt_and_image():
    ent = {"type": "PERSON_NAME", "value": "Ann Lee", "confidence": 0.9, "box_2d": [100, 200, 300, 400]}
    with ScriptedServer([Step(_answer(ent))]) as server:
        run = run_page("p1", PAGE, _client(server))
    assert run.page.valid and run.page.predictions[0].bbox == (100.0, 400.0, 300.0, 800.0)
    body = server.requests[0]
    assert body["model"] == "gpt-test" and body["temperature"] == 0.0
    system, user = body["messages"]
    assert "| CUSTOMER_ID | Linkage |" in system["content"] and "0-999 grid" in system["content"]
    assert user["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert (
        run.prompt_name == "v1" and len(run.prompt_sha256) == 64 and run.transcript[2]["usage"]["prompt_tokens"] == 100
    )


@pytest.mark.parametrize(
    "content, reason",
    [
        ("Sure! Here you go: {}", "not exactly one JSON object"),
        (_answer({"type": "SSN", "box_2d": [1, 2, 3, 4]}), "unknown PII type"),
        (_answer({"type": "DATE", "box_2d": [1, 2, 3, 1000]}), "outside 0..999"),
        (None, "not exactly one JSON object"),
    ],
)
def test_invalid_answers_empty_the_page_with_a_reason(content, reason):
    with ScriptedServer([Step(content)]) as server:
        run = run_page("p1", PAGE, _client(server))
    assert not run.page.valid and run.page.predictions == [] and reason in run.page.reason
    assert len(server.requests) == 1  # invalid output is not retried


def test_transport_failures_are_retried_then_succeed():
    with ScriptedServer([Step(status=429), Step(status=500), Step(status=503), Step(_answer())]) as server:
        client = _client(server)
        run = run_page("p1", PAGE, client)
    assert run.page.valid and len(server.requests) == 4 and client.calls == 4


def test_retries_are_bounded():
    with ScriptedServer([Step(status=500)], repeat_last=True) as server, pytest.raises(Exception, match="scripted 500"):
        run_page("p1", PAGE, _client(server))
    assert len(server.requests) == 4


def test_a_rerun_with_the_same_settings_makes_no_model_call(tmp_path):
    cache = ResponseCache(tmp_path)
    ent = {"type": "DATE", "box_2d": [1, 2, 30, 40]}
    with ScriptedServer([Step(_answer(ent)), Step(_answer())]) as server:
        first = run_page("p1", PAGE, _client(server, cache=cache))
        again = run_page("p1", PAGE, _client(server, cache=cache))
        assert len(server.requests) == 1 and again.page == first.page and again.transcript[2]["cached"]
        other = run_page("p1", PAGE.rotate(90, expand=True), _client(server, cache=cache))  # another image: a miss
    assert len(server.requests) == 2 and other.page.predictions == []


def test_gemini_answers_y_first_on_0_1000():
    ent = {"type": "DATE", "box_2d": [200, 100, 400, 300]}  # [ymin, xmin, ymax, xmax]
    with ScriptedServer([Step(_answer(ent))]) as server:
        run = run_page("p1", Image.new("RGB", (1000, 2000), "white"), _client(server, model="gemini-2.5-pro"))
    assert run.page.predictions[0].bbox == (100.0, 400.0, 300.0, 800.0)
    assert "[ymin, xmin, ymax, xmax]" in server.requests[0]["messages"][0]["content"]


def test_qwen25_vl_gets_a_resized_image_and_answers_in_its_pixels():
    page = Image.new("RGB", (1275, 1651), "white")
    h, w = smart_resize(1651, 1275)
    assert (w, h) == (1288, 1652)
    # A box in the sent image's pixels maps back to the page by the sent size.
    ent = {"type": "DATE", "box_2d": [644, 826, 1288, 1652]}
    with ScriptedServer([Step(_answer(ent))]) as server:
        run = run_page("p1", page, _client(server, model="Qwen/Qwen2.5-VL-7B-Instruct"))
    assert run.sent_size == (1288, 1652)
    assert run.page.predictions[0].bbox == pytest.approx((637.5, 825.5, 1275, 1651))
    assert "absolute pixel" in server.requests[0]["messages"][0]["content"]


@pytest.mark.parametrize(
    "model, coordinates",
    [
        ("gpt-5.5", "grid999"),
        ("Qwen/Qwen3-VL-8B-Instruct", "grid1000"),
        ("OpenGVLab/InternVL3-8B", "grid1000"),
        ("gemini-2.5-pro", "gemini1000"),
        ("Qwen/Qwen2.5-VL-7B-Instruct", "resized-pixels"),
    ],
)
def test_profiles_by_model_name(model, coordinates):
    assert profile_for(model).coordinates.name == coordinates


def test_smart_resize_bounds():
    assert smart_resize(10, 10) == (56, 56)  # grown to the minimum pixel count
    h, w = smart_resize(20_000, 15_000)
    assert h % 28 == 0 and w % 28 == 0 and h * w <= 16384 * 28 * 28 and abs(h / w - 4 / 3) < 0.02
    with pytest.raises(ValueError, match="aspect ratio"):
        smart_resize(10, 3000)


def test_main_job_with_an_openai_compatible_backend(tmp_path, capsys):
    """`redact-agent page.png --backend vllm --base-url URL --model M` end to end, and fail-closed
    on invalid output: a JSON with the reason, no redacted image, exit 1."""
    from redact_agent.cli import main

    src = tmp_path / "page.png"
    Image.new("RGB", (999, 999), "white").save(src)
    ent = {"type": "PERSON_NAME", "value": "Ann Lee", "box_2d": [100, 100, 300, 150]}
    common = ["--backend", "vllm", "--model", "Qwen/Qwen3-VL-8B-Instruct", "--cache", str(tmp_path / "cache")]
    with ScriptedServer([Step(_answer(ent)), Step("not json")]) as server:
        out = tmp_path / "ok"
        assert main([str(src), "-o", str(out), "--base-url", server.url, *common]) == 0
        page = json.loads((out / "page.json").read_text())
        assert page["valid"] and page["engine"] == "vlm:single:Qwen/Qwen3-VL-8B-Instruct"
        # Qwen3-VL answers on 0-1000: 100 / 1000 * 999 = 99.9
        assert page["predictions"][0]["bbox"] == pytest.approx([99.9, 99.9, 299.7, 149.85])
        transcript = [json.loads(line) for line in (out / "page.transcript.jsonl").read_text().splitlines()]
        assert transcript[0]["prompt"] == "v1" and len(transcript[0]["prompt_sha256"]) == 64
        bad = tmp_path / "bad"
        assert main([str(src), "-o", str(bad), "--base-url", server.url, *common, "--no-cache"]) == 1
    assert not (bad / "page.redacted.png").exists()
    assert json.loads((bad / "page.json").read_text())["valid"] is False
    assert "invalid model output" in capsys.readouterr().err


def test_backend_argument_errors(tmp_path, capsys, monkeypatch):
    from redact_agent.cli import main

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    src = tmp_path / "page.png"
    Image.new("RGB", (10, 10), "white").save(src)
    assert main([str(src), "--backend", "vllm", "--model", "m"]) == 2
    assert "needs a base URL (--base-url" in capsys.readouterr().err
    assert main([str(src), "--backend", "openai"]) == 2
    assert "needs a model (--model" in capsys.readouterr().err
    assert main([str(src), "--backend", "openai", "--model", "gpt-5.5"]) == 2
    assert "OPENAI_API_KEY" in capsys.readouterr().err


def test_pages_run_concurrently_and_a_failing_page_does_not_stop_the_batch(tmp_path):
    from redact_agent.cli import main

    srcs = []
    for i in range(4):
        srcs.append(tmp_path / f"p{i}.png")
        Image.new("RGB", (100 + i, 100), "white").save(srcs[-1])
    ok = Step(_answer({"type": "DATE", "box_2d": [1, 1, 50, 50]}))
    args = ["--backend", "vllm", "--model", "m", "--no-cache", "--concurrency", "4", "--verify-ocr", "tesseract"]
    with ScriptedServer([ok], latency_s=0.3, repeat_last=True) as server:
        code = main(
            [
                *map(str, srcs),
                str(tmp_path / "missing.png"),
                "-o",
                str(tmp_path / "out"),
                "--base-url",
                server.url,
                *args,
            ]
        )
    assert code == 1  # the missing file
    assert len(list((tmp_path / "out").glob("*.redacted.png"))) == 4
    assert server.max_in_flight >= 2


def test_serve_builds_the_vllm_command(capsys, monkeypatch):
    from redact_agent.cli import main

    assert main(["serve", "--model", "Qwen/Qwen2.5-VL-7B-Instruct", "--dry-run"]) == 0
    line = capsys.readouterr().out
    assert line.startswith("vllm serve Qwen/Qwen2.5-VL-7B-Instruct --port 8000")
    assert "--enable-auto-tool-choice --tool-call-parser hermes" in line and '"max_pixels": 12845056' in line
    assert "'{\"image\": 4}'" in line
    monkeypatch.setenv("PATH", "/nonexistent")
    assert main(["serve", "--model", "Qwen/Qwen3-VL-8B-Instruct"]) == 2
    err = capsys.readouterr().err
    assert "vllm is not installed" in err and "pip install 'redact-agent[vllm]'" in err and "vllm serve" in err


def test_retries_on_invalid_ask_again_and_are_recorded(tmp_path):
    from redact_agent.agent.engine import VlmFinder

    with ScriptedServer([Step("oops"), Step(_answer())]) as server:
        no_retry = VlmFinder(_client(server, cache=ResponseCache(tmp_path)))
        page = no_retry.find_page("p1", PAGE).page
        assert not page.valid and len(server.requests) == 1
        retrying = VlmFinder(_client(server, cache=ResponseCache(tmp_path)), retries_on_invalid=2)
        finding = retrying.find_page("p1", PAGE)
        page, transcript = finding.page, finding.transcript
    # The first attempt is the cached invalid answer; the retry is a new request that succeeds.
    assert page.valid and len(server.requests) == 2
    attempts = [r for r in transcript if "attempt" in r]
    assert [r["attempt"] for r in attempts] == [0, 1] and attempts[0]["retries_on_invalid"] == 2
