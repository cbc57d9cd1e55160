"""One chat-completions call through the `openai` SDK: retried on transport failures,
cached by request, timed and counted.

Retries (tenacity, exponential backoff with jitter, bounded) cover 429, 5xx, timeouts and
connection errors only; a model's answer, however wrong, is never retried here. Works with
OpenAI and with any OpenAI-compatible server (vLLM serving Qwen-VL or InternVL).
"""

from __future__ import annotations

import base64
import io
import os
import time
from dataclasses import dataclass, field
from typing import Any

import openai
from PIL import Image
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from redact_agent.agent.cache import ResponseCache, request_key

TRANSIENT = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)


@dataclass(frozen=True)
class ModelConfig:
    model: str
    base_url: str | None = None  # None: OpenAI itself
    api_key: str | None = None  # None: OPENAI_API_KEY, or "EMPTY" for a local server
    temperature: float = 0.0
    max_tokens: int = 4096
    timeout_s: float = 120.0
    attempts: int = 5  # transport attempts per request
    backoff_max_s: float = 30.0

    def parameters(self) -> dict[str, Any]:
        """What changes the answer, for the cache key and the run record."""
        return {"model": self.model, "temperature": self.temperature, "max_tokens": self.max_tokens}


@dataclass
class Reply:
    content: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cached: bool = False


def image_part(image: Image.Image) -> dict[str, Any]:
    """An image as a chat-completions content part (a PNG data URL)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    url = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()
    return {"type": "image_url", "image_url": {"url": url}}


class ChatClient:
    def __init__(self, config: ModelConfig, cache: ResponseCache | None = None):
        self.config = config
        self.cache = cache
        key = config.api_key or os.environ.get("OPENAI_API_KEY") or ("EMPTY" if config.base_url else None)
        self._client = openai.OpenAI(base_url=config.base_url, api_key=key, max_retries=0, timeout=config.timeout_s)
        self.calls = 0  # requests that reached the server

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, **key: Any) -> Reply:
        """Send `messages` (cached under `key`, e.g. prompt and image hashes, plus the messages)."""
        cache_key = request_key(params=self.config.parameters(), tools=tools, messages=messages, **key)
        if self.cache is not None and (hit := self.cache.get(cache_key)) is not None:
            return Reply(hit["content"], hit["tool_calls"], hit["usage"], 0.0, cached=True)
        t0 = time.perf_counter()
        response = self._send(messages, tools)
        choice = response.choices[0].message
        reply = Reply(
            choice.content,
            [tc.model_dump() for tc in (choice.tool_calls or [])],
            response.usage.model_dump(include={"prompt_tokens", "completion_tokens"}) if response.usage else {},
            time.perf_counter() - t0,
        )
        if self.cache is not None:
            self.cache.put(cache_key, {"content": reply.content, "tool_calls": reply.tool_calls, "usage": reply.usage})
        return reply

    def _send(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> Any:
        cfg = self.config

        @retry(
            retry=retry_if_exception_type(TRANSIENT),
            wait=wait_random_exponential(multiplier=0.5, max=cfg.backoff_max_s),
            stop=stop_after_attempt(cfg.attempts),
            reraise=True,
        )
        def send() -> Any:
            self.calls += 1
            extra: dict[str, Any] = {"tools": tools} if tools else {}
            return self._client.chat.completions.create(
                model=cfg.model,
                messages=messages,  # type: ignore[arg-type]  # plain dicts of the chat format
                temperature=cfg.temperature,
                max_tokens=cfg.max_tokens,
                **extra,
            )

        return send()
