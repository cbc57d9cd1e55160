"""The QA harness end to end on `synth-qa` questions, against scripted servers (plumbing only:
no figure here is a model's)."""

import json

import pytest

from redact_agent.agent.client import ChatClient, ModelConfig
from redact_agent.agent.scripted import ScriptedServer, Step
from redact_agent.cli import main
from redact_agent.errors import InputError
from redact_agent.qa.bench import Judge, QaSystem, bench_qa, synth_qa


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    out = tmp_path_factory.mktemp("qa")
    return out, synth_qa(out, pages=2, seed=3)


def _client(server: ScriptedServer) -> ChatClient:
    return ChatClient(ModelConfig(model="m", base_urls=(server.url,), attempts=1))


def test_synth_qa_asks_about_a_protected_value_directly_and_through_a_summary(data):
    out, questions = data
    assert [q["kind"] for q in questions] == ["explicit", "implicit"] * 2
    for q in questions:
        assert (out / q["doc"]).is_file() and q["value"] and q["policy"].startswith("Do not disclose the ")
        assert q["value"] not in q["checklist"]
    assert all(q["checklist"] for q in questions if q["kind"] == "implicit")
    assert json.loads((out / "qa.json").read_text()) == questions


def test_bench_qa_measures_each_system_and_compares_them(data, tmp_path):
    out, questions = data
    value = questions[0]["value"]
    leaking = Step(f"The value is {value}.")  # leaks the first page's value, none of the second's
    verify = json.dumps({"verdicts": [{"index": 0, "valid": False}], "answer": "I cannot say."})
    dva = [Step('{"elements": ["something protected"]}'), Step(verify)] * len(questions)
    with ScriptedServer([leaking], repeat_last=True) as plain, ScriptedServer(dva) as safe:
        systems = [
            (QaSystem.parse("vllm:m:plain"), _client(plain)),
            (QaSystem.parse("vllm:m:dva:input=image"), _client(safe)),
        ]
        report = bench_qa(out / "qa.json", systems, Judge(None), tmp_path)
    first, second = report["systems"]["vllm-m-plain-image"], report["systems"]["vllm-m-dva-image"]
    assert first["leakage_explicit"] == 0.5 and first["leakage_implicit"] == 0.5  # page 1's two questions
    assert second["leakage_explicit"] == 0.0 and second["calls_per_question"] == 2.0
    assert report["bootstrap"]["vllm-m-dva-image"]["difference"] == -0.5
    assert report["judge"] == "normalised string check"
    rows = (tmp_path / "vllm-m-plain-image" / "answers.jsonl").read_text().splitlines()
    assert len(rows) == len(questions) and json.loads(rows[0])["leaked"] is True


def test_a_model_judge_answers_in_strict_json():
    with ScriptedServer([Step('{"discloses": true}'), Step('{"satisfied": [true, false]}'), Step("yes")]) as server:
        judge = Judge(_client(server))
        assert judge.leaks("it is forty-two", "42") is True  # the meaning, as the model judges it
        assert judge.faithfulness("an answer", ["a", "b"]) == 0.5
        with pytest.raises(ValueError, match="JSON"):
            judge.leaks("an answer", "42")
    assert Judge(None).leaks(None, "42") is False  # a withheld answer discloses nothing


@pytest.mark.parametrize("text", ["vllm:m", "gemini:m:dva", "vllm:m:fast", "vllm:m:dva:input=audio", "vllm:m:dva:x"])
def test_bad_qa_systems_are_clear_errors(text):
    with pytest.raises(InputError):
        QaSystem.parse(text)


def test_synth_qa_and_bench_qa_from_the_command_line(tmp_path, capsys):
    assert main(["synth-qa", str(tmp_path / "qa"), "--pages", "1", "--seed", "5"]) == 0
    with ScriptedServer([Step("No.")], repeat_last=True) as server:
        args = ["bench-qa", str(tmp_path / "qa" / "qa.json"), "--system", "vllm:m:plain", "--base-url", server.url,
                "-o", str(tmp_path / "runs"), "--no-cache"]  # fmt: skip
        assert main(args) == 0
    out = capsys.readouterr().out
    assert "| vllm-m-plain-image | 0.0% | 0.0% |" in out and (tmp_path / "runs" / "report.json").is_file()
