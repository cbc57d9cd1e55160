"""The model-response cache: one JSON file per request key, so reruns make no model call.

The key is the sha256 of (model, parameters, prompt sha256, image sha256, and the messages
of a tool loop so far), so any change to what was asked is a miss. The cache lives in the
user cache directory (`$XDG_CACHE_HOME/redact-agent`, default `~/.cache/redact-agent`);
`REDACT_AGENT_CACHE` or an explicit folder moves it. Writes are atomic.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from redact_agent.redact import write_atomic


def default_dir() -> Path:
    if os.environ.get("REDACT_AGENT_CACHE"):
        return Path(os.environ["REDACT_AGENT_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "redact-agent"


def request_key(**parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class ResponseCache:
    def __init__(self, folder: Path | None = None):
        self.folder = folder or default_dir()

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data: dict[str, Any] = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None
        return data

    def put(self, key: str, response: dict[str, Any]) -> None:
        write_atomic(self._path(key), json.dumps(response).encode())
