"""The tool loop through the real `openai` client against a scripted server."""

import json

import pytest
from PIL import Image, ImageDraw, ImageFont

from redact_agent.agent.budgets import Budgets
from redact_agent.agent.client import ChatClient, ModelConfig
from redact_agent.agent.loop import run_page
from redact_agent.agent.scripted import ScriptedServer, Step


@pytest.fixture(scope="module")
def page():
    img = Image.new("RGB", (999, 999), "white")
    ImageDraw.Draw(img).text((100, 100), "Invoice # 88123", fill="black", font=ImageFont.load_default(size=28))
    return img


def _call(name, arguments, i=1):
    return {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def _client(server):
    return ChatClient(ModelConfig(model="gpt-test", base_urls=(server.url,), attempts=2, backoff_max_s=0.01))


ENTITY = {"type": "INVOICE_NUMBER", "value": "88123", "box_2d": [240, 100, 330, 130]}


def test_zoom_and_ocr_then_submit(page):
    script = [
        Step(tool_calls=[_call("zoom", {"box_2d": [50, 50, 500, 200], "scale": 2}, 1)]),
        Step(
            tool_calls=[_call("ocr", {"box_2d": [50, 50, 500, 200]}, 2), _call("crop", {"box_2d": [0, 0, 10, 5000]}, 3)]
        ),
        Step(tool_calls=[_call("submit_redactions", {"entities": [ENTITY]}, 4)]),
    ]
    with ScriptedServer(script) as server:
        run = run_page("p1", page, _client(server), "tools")
    assert run.page.valid and run.page.predictions[0].type == "INVOICE_NUMBER"
    first, second, third = server.requests
    names = [t["function"]["name"] for t in first["tools"]]
    assert names == ["crop", "zoom", "ocr", "submit_redactions"]  # no run_python without a sandbox runner
    # The zoom's image follows the tool message as a user message (tool messages carry text only).
    tool_msg, image_msg = second["messages"][-2:]
    assert tool_msg["role"] == "tool" and json.loads(tool_msg["content"])["scale"] == pytest.approx(2, rel=0.01)
    assert image_msg["role"] == "user" and image_msg["content"][1]["image_url"]["url"].startswith("data:image/png")
    ocr_result, crop_error = (m for m in third["messages"] if m["role"] == "tool" and m["tool_call_id"] != "call_1")
    assert "88123" in ocr_result["content"]
    assert crop_error["content"].startswith("error: bad arguments for crop")  # the model sees its mistake
    assert [r.get("name") for r in run.transcript if r.get("role") == "tool"] == ["zoom", "ocr", "crop"]


def test_a_final_message_also_ends_the_page(page):
    with ScriptedServer([Step(json.dumps({"entities": [ENTITY]}))]) as server:
        run = run_page("p1", page, _client(server), "tools")
    assert run.page.valid and len(run.page.predictions) == 1


def test_invalid_submission_empties_the_page(page):
    bad = {"entities": [{"type": "INVOICE", "box_2d": [1, 2, 3, 4]}]}
    with ScriptedServer([Step(tool_calls=[_call("submit_redactions", bad)])]) as server:
        run = run_page("p1", page, _client(server), "tools")
    assert not run.page.valid and "unknown PII type" in run.page.reason


@pytest.mark.parametrize(
    "budgets, reason",
    [
        (Budgets(turns=2), "turn budget of 2 exhausted"),
        (Budgets(tool_calls=1), "tool-call budget of 1 exhausted"),
        (Budgets(tokens=150), "token budget of 150 exhausted"),
        (Budgets(seconds=0.0), "wall-clock budget"),
    ],
)
def test_budgets_end_the_page_as_invalid(page, budgets, reason):
    looping = Step(tool_calls=[_call("crop", {"box_2d": [0, 0, 500, 500]})])
    with ScriptedServer([looping], repeat_last=True) as server:
        run = run_page("p1", page, _client(server), "tools", budgets=budgets)
    assert not run.page.valid and reason in run.page.reason


@pytest.mark.slow
def test_run_python_in_the_sandbox_through_the_finder(page):
    from redact_agent.agent.engine import VlmFinder
    from redact_agent.tools.confine import confinement_problem

    if confinement_problem() is not None:
        pytest.skip("no confinement here")
    code = "print(W, H, len(ocr([50, 50, 500, 200])) > 0)\ndisplay(zoom([50, 50, 500, 200], 2))"
    script = [
        Step(tool_calls=[_call("run_python", {"code": code})]),
        Step(tool_calls=[_call("submit_redactions", {"entities": [ENTITY]}, 2)]),
    ]
    with ScriptedServer(script) as server:
        finder = VlmFinder(_client(server), mode="tools")
        try:
            finding = finder.find_page("p1", page)
            page_out, transcript = finding.page, finding.transcript
        finally:
            finder.close()
    assert page_out.valid and finder.name == "vlm:tools:gpt-test"
    assert "run_python" in [t["function"]["name"] for t in server.requests[0]["tools"]]
    tool_msg = next(m for m in server.requests[1]["messages"] if m["role"] == "tool")
    assert json.loads(tool_msg["content"])["stdout"] == "999 999 True\n"
    assert server.requests[1]["messages"][-1]["role"] == "user"  # the displayed image follows
    assert transcript[0]["prompt"] == "v1" and transcript[0]["model"]["model"] == "gpt-test"
    assert transcript[0]["mode"] == "tools"


def test_cli_tools_mode_end_to_end(tmp_path, page):
    from redact_agent.cli import main

    src = tmp_path / "page.png"
    page.save(src)
    script = [
        Step(tool_calls=[_call("zoom", {"box_2d": [50, 50, 500, 200], "scale": 2}, 1)]),
        Step(tool_calls=[_call("submit_redactions", {"entities": [ENTITY]}, 2)]),
    ]
    args = ["--backend", "openai", "--model", "gpt-test", "--mode", "tools", "--no-cache", "-o", str(tmp_path / "out")]
    with ScriptedServer(script) as server:
        assert main([str(src), *args, "--base-url", server.url]) == 0
    out = json.loads((tmp_path / "out" / "page.json").read_text())
    assert out["valid"] and out["engine"] == "vlm:tools:gpt-test" and out["predictions"][0]["value"] == "88123"
    lines = [json.loads(x) for x in (tmp_path / "out" / "page.transcript.jsonl").read_text().splitlines()]
    (zoom_record,) = [r for r in lines if r.get("role") == "tool"]
    assert zoom_record["name"] == "zoom"
    (shown,) = zoom_record["images"]
    saved = Image.open(tmp_path / "out" / "page.transcript" / f"a0-{shown['file']}")
    assert list(saved.size) == shown["size"]  # the zoom the model saw is kept beside the transcript


def test_prompt_level_tool_protocol_for_models_without_native_tools(page):
    """InternVL's profile has no native tool calling: tools are described in the prompt and a
    message that is exactly {"tool", "arguments"} is a call; results come back as user messages."""
    script = [
        Step(json.dumps({"tool": "ocr", "arguments": {"box_2d": [50, 50, 500, 200]}})),
        Step(json.dumps({"tool": "submit_redactions", "arguments": {"entities": [ENTITY]}})),
    ]
    with ScriptedServer(script) as server:
        client = ChatClient(ModelConfig(model="OpenGVLab/InternVL3-8B", base_urls=(server.url,), attempts=1))
        run = run_page("p1", page, client, "tools")
    first, second = server.requests
    assert "tools" not in first and '{"tool": "<name>"' in first["messages"][1]["content"][0]["text"]
    result = second["messages"][-1]
    assert result["role"] == "user" and result["content"][0]["text"].startswith("Result of ocr: ")
    # InternVL answers on 0-1000: the same grid numbers land slightly differently than on 0-999.
    assert run.page.valid and run.page.predictions[0].bbox == pytest.approx((239.76, 99.9, 329.67, 129.87))


def _box_descriptions(node, out):
    """Every description of a `box_2d` property anywhere in a JSON document."""
    if isinstance(node, dict):
        box = node.get("properties", {}).get("box_2d")
        if isinstance(box, dict):
            out.append(box.get("description", ""))
        for value in node.values():
            _box_descriptions(value, out)
    elif isinstance(node, list):
        for value in node:
            _box_descriptions(value, out)
    return out


@pytest.mark.parametrize(
    "model, says",
    [
        ("Qwen/Qwen3-VL-8B-Instruct", "0-1000 grid"),
        ("gemini-2.5-pro", "[ymin, xmin, ymax, xmax]"),
        ("Qwen/Qwen2.5-VL-7B-Instruct", "absolute pixel"),
        ("OpenGVLab/InternVL3-8B", "0-1000 grid"),  # the tools are described in the prompt
    ],
)
def test_a_request_describes_box_2d_one_way_throughout(page, model, says):
    with ScriptedServer([Step(json.dumps({"entities": []}))]) as server:
        client = ChatClient(ModelConfig(model=model, base_urls=(server.url,), attempts=1))
        run_page("p1", page, client, "tools")
    body = server.requests[0]
    system = body["messages"][0]["content"]
    assert f"`box_2d` is {says}" in system or says in system
    described = _box_descriptions(body.get("tools", []), [])
    prompt_text = body["messages"][1]["content"][0]["text"]
    if "tools" not in body:  # prompt-level protocol: the schemas are in the prompt
        schemas = [line.split("Arguments: ", 1)[1] for line in prompt_text.splitlines() if "Arguments: " in line]
        described = _box_descriptions([json.loads(s) for s in schemas], [])
    assert len(described) >= 4 and all(says in d for d in described), described
    assert "0-999" not in json.dumps(body)


def test_the_finders_ocr_engine_reads_for_the_models_ocr_tool(page, monkeypatch):
    from redact_agent.tools import page_tools

    asked = []
    real = page_tools.get_engine
    monkeypatch.setattr(page_tools, "get_engine", lambda name: asked.append(name) or real(name))
    script = [
        Step(tool_calls=[_call("ocr", {"box_2d": [50, 50, 500, 200]}, 1)]),
        Step(tool_calls=[_call("submit_redactions", {"entities": []}, 2)]),
    ]
    with ScriptedServer(script) as server:
        run_page("p1", page, _client(server), "tools", ocr="tesseract")
    assert asked == ["tesseract"]
