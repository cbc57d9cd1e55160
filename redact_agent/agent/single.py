"""Single-pass VLM redaction of one page: one request, one answer, strictly validated.

The page is prepared by the model's profile (resized for Qwen2.5-VL), sent with the full
schema prompt, and the answer goes through the strict validator: malformed output empties the
page and records why. The transcript keeps what was sent and received (the image by hash and
size), so a run can be audited and re-scored without the model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from redact_agent.agent.budgets import Budgets
from redact_agent.agent.client import ChatClient, image_part
from redact_agent.agent.output import validate_output
from redact_agent.agent.profiles import ModelProfile, profile_for
from redact_agent.pages import PredictionPage
from redact_agent.prompts import DEFAULT_PROMPT, render
from redact_agent.schema import Schema, default_schema
from redact_agent.tools.ocr import image_key


@dataclass
class PageRun:
    page: PredictionPage
    prompt_name: str
    prompt_sha256: str
    sent_size: tuple[int, int]
    transcript: list[dict[str, Any]] = field(default_factory=list)
    images: dict[str, bytes] = field(default_factory=dict)  # tool-result images the transcript names


def run_single(
    page_id: str,
    image: Image.Image,
    client: ChatClient,
    prompt: str = DEFAULT_PROMPT,
    profile: ModelProfile | None = None,
    schema: Schema | None = None,
    attempt: int = 0,
    budgets: Budgets | None = None,
    deadline: float | None = None,
) -> PageRun:
    """`attempt` > 0 is a retry after invalid output: a distinct cache key, so it asks again.
    `deadline` (`time.monotonic()`) ends the page; by default `budgets.seconds` from now."""
    schema = schema or default_schema()
    budgets = budgets or Budgets()
    deadline = deadline if deadline is not None else time.monotonic() + budgets.seconds
    profile = profile or profile_for(client.config.model)
    sent = profile.prepare(image)
    p = render(
        prompt, "single", schema=schema, coordinates=profile.describe_coordinates, width=sent.width, height=sent.height
    )
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": p.system},
        {"role": "user", "content": [{"type": "text", "text": p.user}, image_part(sent)]},
    ]
    image_sha = image_key(sent)
    retry_key: dict[str, Any] = {"attempt": attempt} if attempt else {}
    reply = client.complete(
        messages,
        deadline=deadline,
        request_seconds=budgets.request_seconds,
        prompt=p.sha256,
        image=image_sha,
        **retry_key,
    )
    result = validate_output(
        reply.content or "",
        page_id=page_id,
        width=image.width,
        height=image.height,
        space=profile.space(sent),
        schema=schema,
    )
    transcript: list[dict[str, Any]] = [
        {"role": "system", "prompt": p.name, "sha256": p.sha256},
        {"role": "user", "text": p.user, "image": {"sha256": image_sha, "size": list(sent.size)}},
        {
            "role": "assistant",
            "content": reply.content,
            "usage": reply.usage,
            "seconds": reply.seconds,
            "cached": reply.cached,
        },
        {"validation": {"valid": result.valid, "reason": result.reason}},
    ]
    return PageRun(result, p.name, p.sha256, sent.size, transcript)
