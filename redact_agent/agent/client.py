"""One chat-completions call through the `openai` SDK: retried on transport failures,
cached by request, timed and counted.

Retries (tenacity, exponential backoff with jitter, bounded) cover 429, 5xx, timeouts and
connection errors only, and only while the page's deadline lasts; a model's answer, however
wrong, is never retried here. A request that still fails is a `BackendError` (that page fails,
the batch goes on); a server that refuses the key, the access or the model name is
`BackendUnavailable`, since every later page would fail the same way. Works with OpenAI and
with any OpenAI-compatible server (vLLM serving Qwen-VL or InternVL).
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
from tenacity import retry, retry_if_exception_type, stop_after_attempt, stop_before_delay, wait_random_exponential

from redact_agent.agent.budgets import Budgets
from redact_agent.agent.cache import ResponseCache, request_key
from redact_agent.agent.replicas import Replicas
from redact_agent.errors import BackendError, BackendUnavailable

TRANSIENT = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError, openai.APIConnectionError)
FATAL = (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError)


@dataclass(frozen=True)
class ModelConfig:
    model: str
    base_urls: tuple[str, ...] = ()  # the servers of the model (replicas); none: OpenAI itself
    api_key: str | None = None  # None: OPENAI_API_KEY, or "EMPTY" for a local server
    temperature: float = 0.0
    max_tokens: int = 4096
    attempts: int = 5  # transport attempts per request
    backoff_max_s: float = 30.0
    per_replica: int = 8  # requests in flight on one server at most

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
        key = config.api_key or os.environ.get("OPENAI_API_KEY") or ("EMPTY" if config.base_urls else None)
        self.replicas = Replicas.of(
            config.base_urls, lambda url: openai.OpenAI(base_url=url, api_key=key, max_retries=0), config.per_replica
        )
        self.calls = 0  # requests that reached the server

    @property
    def server(self) -> str:
        return ", ".join(self.config.base_urls) or "the OpenAI API"

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        deadline: float,
        request_seconds: float = Budgets.request_seconds,
        **key: Any,
    ) -> Reply:
        """Send `messages` (cached under `key`, e.g. prompt and image hashes, plus the messages).
        Each attempt waits at most `request_seconds`, and none starts after `deadline`
        (`time.monotonic()`)."""
        cache_key = request_key(params=self.config.parameters(), tools=tools, messages=messages, **key)
        if self.cache is not None and (hit := self.cache.get(cache_key)) is not None:
            return Reply(hit["content"], hit["tool_calls"], hit["usage"], 0.0, cached=True)
        t0 = time.perf_counter()
        try:
            response = self._send(messages, tools, deadline, request_seconds)
        except FATAL as exc:
            raise BackendUnavailable(f"{self.server} refused the request: {_reason(exc)}") from None
        except openai.OpenAIError as exc:
            raise BackendError(f"{self.server}: {_reason(exc)} (after {self.calls} requests)") from None
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

    def _send(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, deadline: float, request_s: float
    ) -> Any:
        cfg = self.config
        failed: list[openai.OpenAIError] = []  # the attempts' transient errors, the last one said at the deadline

        @retry(
            retry=retry_if_exception_type(TRANSIENT),
            wait=wait_random_exponential(multiplier=0.5, max=cfg.backoff_max_s),
            stop=stop_after_attempt(cfg.attempts) | stop_before_delay(max(0.0, deadline - time.monotonic())),
            reraise=True,
        )
        def send() -> Any:
            left = deadline - time.monotonic()
            if left <= 0:
                last = f"; the last: {_reason(failed[-1])}" if failed else ""
                raise BackendError(
                    f"{self.server}: the page's wall-time limit was reached ({self.calls} requests{last})"
                )
            extra: dict[str, Any] = {"tools": tools} if tools else {}
            with self.replicas.take(deadline, TRANSIENT) as replica:
                self.calls += 1
                try:
                    return replica.client.chat.completions.create(
                        model=cfg.model,
                        messages=messages,  # plain dicts of the chat format
                        temperature=cfg.temperature,
                        max_tokens=cfg.max_tokens,
                        timeout=min(request_s, max(0.001, deadline - time.monotonic())),
                        **extra,
                    )
                except TRANSIENT as exc:
                    failed.append(exc)
                    raise

        return send()


def _reason(exc: openai.OpenAIError) -> str:
    """One line for a failed request: the status and the server's message, or what went wrong."""
    if isinstance(exc, openai.APIStatusError):
        return exc.message  # "Error code: 401 - ..." with the server's own message
    if isinstance(exc, openai.APITimeoutError):
        return "no answer within the request timeout"
    if isinstance(exc, openai.APIConnectionError):
        return f"cannot connect ({exc.__cause__ or exc})"
    return str(exc)
