"""`redact-agent ask` against the scripted server (a test double for the plumbing: no model
result): each method's requests, DVA's policy-free first stage, failing closed, redact-first."""

import base64
import io
import json

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from redact_agent.agent.client import ChatClient, ModelConfig
from redact_agent.agent.scripted import ScriptedServer, Step
from redact_agent.cli import main
from redact_agent.errors import InputError
from redact_agent.qa.ask import Asker, redact_pages
from redact_agent.qa.policies import read_policy
from redact_agent.tools.ocr import get_engine

POLICY = "Do not disclose the contract number."
QUESTION = "Which contract is this and who is the buyer?"


@pytest.fixture(scope="module")
def page() -> Image.Image:
    image = Image.new("RGB", (900, 260), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=30)
    draw.text((40, 40), "Contract number: 4268442", fill="black", font=font)
    draw.text((40, 140), "Buyer: Acme Media Group", fill="black", font=font)
    return image


def _texts(request: dict) -> str:
    return "\n".join(c["text"] for m in request["messages"] if isinstance(m["content"], list)
                     for c in m["content"] if c["type"] == "text")  # fmt: skip


def _images(request: dict) -> list[Image.Image]:
    found = []
    for m in request["messages"]:
        for c in m["content"] if isinstance(m["content"], list) else []:
            if c["type"] == "image_url":
                found.append(Image.open(io.BytesIO(base64.b64decode(c["image_url"]["url"].split(",", 1)[1]))))
    return found


def _ask(steps: list[Step], page, method, mode="image"):
    with ScriptedServer(steps) as server:
        client = ChatClient(ModelConfig(model="m", base_urls=(server.url,), attempts=1))
        result = Asker(client, mode).ask([page], QUESTION, [POLICY], method)
    return result, server.requests


def test_plain_is_one_request_with_policy_question_and_page(page):
    result, requests = _ask([Step("It is a contract with Acme Media Group.")], page, "plain")
    assert result.answer == "It is a contract with Acme Media Group." and not result.withheld
    assert len(requests) == 1 and POLICY in _texts(requests[0]) and QUESTION in _texts(requests[0])
    assert len(_images(requests[0])) == 1 and result.calls == 1 and result.tokens == 120


def test_cot_and_revision_answer_in_json_and_fail_closed_when_they_do_not(page):
    cot, _ = _ask([Step('{"reasoning": "the buyer line", "answer": "Acme Media Group"}')], page, "cot")
    assert cot.answer == "Acme Media Group"
    bad, _ = _ask([Step("Acme Media Group, I think")], page, "cot")
    assert bad.withheld and bad.answer is None and "malformed" in bad.reason
    revised, requests = _ask([Step("Contract 4268442 for Acme."), Step('{"answer": "A contract for Acme."}')],
                             page, "revision")  # fmt: skip
    assert revised.answer == "A contract for Acme." and len(requests) == 2
    assert "Contract 4268442 for Acme." in _texts(requests[1])  # the draft, revised against the policy


DECOMPOSED = Step('{"elements": ["The contract number is 4268442.", "The buyer is Acme Media Group."]}')


def test_dva_decomposes_without_the_policy_and_answers_from_the_valid_elements(page):
    verify = {"verdicts": [{"index": 0, "valid": False, "reason": "it states 4268442"},
                           {"index": 1, "valid": True, "reason": "allowed"}],
              "answer": "The buyer is Acme Media Group."}  # fmt: skip
    result, requests = _ask([DECOMPOSED, Step("```json\n" + json.dumps(verify) + "\n```")], page, "dva")
    assert POLICY not in _texts(requests[0]) and POLICY in _texts(requests[1])
    assert "4268442" in _texts(requests[1])  # the elements go to the verifier
    assert result.answer == "The buyer is Acme Media Group." and not result.withheld
    shown = result.as_json()
    assert shown["elements"] == ["The buyer is Acme Media Group."]  # the invalid one left out
    assert "4268442" not in json.dumps(shown)
    assert "4268442" in json.dumps(result.as_json(debug=True))


@pytest.mark.parametrize(
    ("verify", "why"),
    [({"verdicts": [{"index": 0, "valid": False}, {"index": 1, "valid": True}],
       "answer": "Contract 4268442, bought by Acme Media Group."}, "still states"),
     ({"verdicts": [{"index": 0, "valid": True}], "answer": "x"}, "without a verdict"),
     ({"verdicts": [{"index": 0, "valid": "no"}, {"index": 1, "valid": True}], "answer": "x"}, "judged once"),
     ("The buyer is Acme.", "malformed")],
)  # fmt: skip
def test_dva_withholds_an_answer_that_leaks_or_a_malformed_stage(page, verify, why):
    reply = verify if isinstance(verify, str) else json.dumps(verify)
    result, _ = _ask([DECOMPOSED, Step(reply)], page, "dva")
    assert result.withheld and result.answer is None and why in result.reason


def test_redact_first_sends_only_the_redacted_page(page):
    verify = {"verdicts": [{"index": 0, "valid": True}], "answer": "Acme Media Group"}
    steps = [Step('{"elements": ["The buyer is Acme Media Group."]}'), Step(json.dumps(verify))]
    result, requests = _ask(steps, page, "redact-first", mode="both")
    assert result.answer == "Acme Media Group"
    words = {w.text: [int(v) for v in w.bbox] for w in get_engine().words(page)}
    x0, y0, x1, y1 = words["4268442"]
    bx0, by0, bx1, by1 = words["Acme"]
    for request in requests:
        text = _texts(request)
        assert "4268442" not in text and "Acme" in text  # the OCR of the redacted page
        sent = np.asarray(_images(request)[0].convert("L"))
        assert (sent[y0:y1, x0:x1] == 0).all()  # the number's place is black
        assert (sent[by0:by1, bx0:bx1] == np.asarray(page.convert("L"))[by0:by1, bx0:bx1]).all()  # the buyer kept


def test_type_level_policies_redact_the_schema_type_with_the_embedded_engine():
    image = Image.new("RGB", (900, 160), "white")
    ImageDraw.Draw(image).text((40, 40), "Phone: (555) 123-4567", fill="black", font=ImageFont.load_default(size=30))
    policy = read_policy("Do not disclose phone numbers.")
    assert policy.types == ("PHONE_NUMBER",)
    redacted = np.asarray(redact_pages([image], [policy])[0].convert("L"))
    number = next(w for w in get_engine().words(image) if "4567" in w.text)
    x0, y0, x1, y1 = (int(v) for v in number.bbox)
    ink = np.asarray(image.convert("L"))[y0:y1, x0:x1] < 128
    assert ink.any() and (redacted[y0:y1, x0:x1][ink] == 0).all()  # none of its ink is left


def test_ask_from_the_command_line(tmp_path, page, capsys):
    path = tmp_path / "doc.png"
    page.save(path)
    steps = [DECOMPOSED, Step(json.dumps({"verdicts": [{"index": 0, "valid": False}, {"index": 1, "valid": True}],
                                          "answer": "Acme Media Group"}))]  # fmt: skip
    transcript = tmp_path / "t.jsonl"
    with ScriptedServer(steps) as server:
        args = [str(path), "--question", QUESTION, "--policy", POLICY, "--backend", "vllm", "--model", "m",
                "--base-url", server.url, "--json", "--no-cache", "--transcript", str(transcript)]  # fmt: skip
        assert main(["ask", *args]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["answer"] == "Acme Media Group" and shown["method"] == "dva" and shown["calls"] == 2
    assert [json.loads(line)["stage"] for line in transcript.read_text().splitlines()] == ["decompose", "verify"]
    with ScriptedServer([Step("no JSON here")]) as server:
        args = [str(path), "--question", QUESTION, "--policy", POLICY, "--backend", "vllm", "--model", "m",
                "--base-url", server.url, "--no-cache"]  # fmt: skip
        assert main(["ask", *args]) == 1
    assert "withheld" in capsys.readouterr().err


def test_more_pages_than_the_models_profile_takes_is_a_clear_error(page):
    client = ChatClient(ModelConfig(model="OpenGVLab/InternVL3-8B", base_urls=("http://127.0.0.1:9/v1",)))
    with pytest.raises(InputError, match="--pages"):
        Asker(client, "image").ask([page] * 40, QUESTION, [POLICY], "dva")
