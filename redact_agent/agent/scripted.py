"""A scripted OpenAI-compatible chat-completions server on loopback: a test double.

It answers each POST /v1/chat/completions with the next scripted step (a message, or an
HTTP error status), optionally after a fixed latency, and records every request body. It
drives the real `openai` client in the tests and the orchestrator benchmark; nothing it
returns is ever a model result. It ships with the package, as test models do.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Step:
    content: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    status: int = 200


@dataclass
class ScriptedServer:
    script: list[Step]
    latency_s: float = 0.0
    repeat_last: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)
    max_in_flight: int = 0  # the most requests served at once

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._in_flight = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server._lock:
                    server.requests.append(body)
                    server._in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server._in_flight)
                    step = (
                        server.script.pop(0) if len(server.script) > 1 or not server.repeat_last else server.script[0]
                    )
                if server.latency_s:
                    time.sleep(server.latency_s)
                with server._lock:
                    server._in_flight -= 1
                if step.status != 200:
                    payload = {"error": {"message": f"scripted {step.status}", "type": "scripted"}}
                    return self._send(step.status, payload)
                message: dict[str, Any] = {"role": "assistant", "content": step.content}
                if step.tool_calls:
                    message["tool_calls"] = step.tool_calls
                self._send(
                    200,
                    {
                        "id": f"cmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
