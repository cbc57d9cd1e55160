"""Several servers of one model used as one: requests spread over the replicas that are up,
never more than the bound in flight on one, a failing replica taken out for a while and put
back, and the main job given its replicas as repeated --base-url or a file (scripted servers:
a test double for the plumbing, no model result)."""

import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from redact_agent.agent.client import ChatClient, ModelConfig
from redact_agent.agent.scripted import ScriptedServer, Step
from redact_agent.agent.serve import serve
from redact_agent.cli import main

ANSWER = json.dumps({"entities": [{"type": "DATE", "box_2d": [100, 100, 300, 130]}]})
MESSAGES = [{"role": "user", "content": "hello"}]


def _dead_url() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    return f"http://127.0.0.1:{port}/v1"


def _ask(client: ChatClient, n: int, threads: int) -> list[str | None]:
    with ThreadPoolExecutor(threads) as pool:
        replies = pool.map(lambda k: client.complete(MESSAGES, deadline=time.monotonic() + 30, k=k), range(n))
        return [reply.content for reply in replies]


def test_requests_spread_over_the_healthy_replicas_and_skip_a_failing_one():
    with (
        ScriptedServer([Step(ANSWER)], latency_s=0.05, repeat_last=True) as a,
        ScriptedServer([Step(ANSWER)], latency_s=0.05, repeat_last=True) as b,
        ScriptedServer([Step(status=500)], repeat_last=True) as broken,
    ):
        config = ModelConfig(model="m", base_urls=(a.url, broken.url, b.url), backoff_max_s=0.01, per_replica=2)
        client = ChatClient(config)
        answers = _ask(client, 24, threads=8)
    assert answers == [ANSWER] * 24  # every request answered, the failures retried elsewhere
    assert len(broken.requests) <= 2  # out after its first failures, for longer than the run
    assert abs(len(a.requests) - len(b.requests)) <= 4 and len(a.requests) + len(b.requests) == 24
    assert a.max_in_flight <= 2 and b.max_in_flight <= 2  # the bound per replica


def test_a_replica_that_fails_is_put_back_after_its_time_out():
    with (
        ScriptedServer([Step(status=503), Step(ANSWER)], repeat_last=True) as flaky,
        ScriptedServer([Step(ANSWER)], repeat_last=True) as steady,
    ):
        client = ChatClient(ModelConfig(model="m", base_urls=(flaky.url, steady.url), backoff_max_s=0.01))
        client.replicas.cooldown_s = 1.0  # long enough that a slow machine still sees it down below
        assert _ask(client, 1, threads=1) == [ANSWER]
        assert len(flaky.requests) == 1 and len(steady.requests) == 1  # the retry went to the other one
        assert "down" in client.replicas.state()
        time.sleep(1.1)
        _ask(client, 4, threads=1)
    assert len(flaky.requests) >= 2  # back in service


def test_when_every_replica_is_down_the_request_fails_at_the_deadline_with_their_state():
    client = ChatClient(ModelConfig(model="m", base_urls=(_dead_url(), _dead_url()), backoff_max_s=0.01))
    t0 = time.monotonic()
    try:
        client.complete(MESSAGES, deadline=time.monotonic() + 1.0)
    except Exception as exc:
        message = str(exc)
    assert time.monotonic() - t0 < 5
    assert "cannot connect" in message or "no replica was free" in message


def test_the_main_job_takes_replicas_from_repeated_flags_and_a_file(tmp_path, capsys):
    pages = []
    for k in range(6):
        pages.append(str(tmp_path / f"p{k}.png"))
        Image.new("RGB", (200, 100), "white").save(pages[-1])
    with (
        ScriptedServer([Step(ANSWER)], latency_s=0.05, repeat_last=True) as a,
        ScriptedServer([Step(ANSWER)], latency_s=0.05, repeat_last=True) as b,
    ):
        listed = tmp_path / "replicas.txt"
        listed.write_text(f"# the second machine\n{b.url}\n\n{_dead_url()}  # down for maintenance\n")
        vllm = ["--backend", "vllm", "--model", "m", "--no-verify", "--no-cache", "--concurrency", "4"]
        assert main([*pages, "-o", str(tmp_path / "out"), *vllm, "--base-url", a.url, "--base-url", str(listed)]) == 0
    assert a.requests and b.requests and len(a.requests) + len(b.requests) == 6
    assert main([pages[0], "-o", str(tmp_path / "o2"), *vllm, "--base-url", str(tmp_path / "none.txt")]) == 2
    assert "neither a URL" in capsys.readouterr().err


def test_serve_prints_how_to_start_replicas():
    text = serve("Qwen/Qwen3-VL-8B-Instruct", 8000, 32768, dry_run=False, replicas=2)
    assert "CUDA_VISIBLE_DEVICES=1 vllm serve Qwen/Qwen3-VL-8B-Instruct --port 8001" in text
    assert "--base-url http://localhost:8000/v1 --base-url http://localhost:8001/v1" in text
    assert "--data-parallel-size 2" in text
