"""The tool loop: the model may crop, zoom, OCR and run Python on the page before it answers.

Each turn sends the conversation with the tools' OpenAI schemas plus `submit_redactions`,
whose arguments are exactly the entities schema. The page ends when the model calls
`submit_redactions` or answers with a plain message; either way its answer goes through the
strict validator. Budgets bound every page (turns, tool calls, tokens, wall seconds);
exhausting one ends the page as invalid with the reason. Chat-completions tool messages carry
text only, so a tool's images follow in a user message (model profiles may say otherwise).
For models without native tool calling (profile `native_tools=False`), the tools are described
in the prompt and a message that is exactly `{"tool": ..., "arguments": ...}` is a call.
"""

from __future__ import annotations

import json
import time
from typing import Any

from PIL import Image

from redact_agent.agent.budgets import Budgets
from redact_agent.agent.client import ChatClient, image_part
from redact_agent.agent.output import ModelOutput, validate_output
from redact_agent.agent.profiles import ModelProfile, profile_for
from redact_agent.agent.single import PageRun
from redact_agent.images import png_bytes
from redact_agent.pages import PredictionPage
from redact_agent.prompts import DEFAULT_PROMPT, render
from redact_agent.schema import Schema, default_schema
from redact_agent.tools.ocr import image_key
from redact_agent.tools.page_tools import TOOLS, PageContext, PythonRunner, call_tool

SUBMIT = {
    "type": "function",
    "function": {
        "name": "submit_redactions",
        "description": "Submit every PII entity of the page; this ends the page.",
        "parameters": ModelOutput.model_json_schema(),
    },
}


def run_tools(
    page_id: str,
    image: Image.Image,
    client: ChatClient,
    prompt: str = DEFAULT_PROMPT,
    profile: ModelProfile | None = None,
    schema: Schema | None = None,
    budgets: Budgets | None = None,
    python: PythonRunner | None = None,
    attempt: int = 0,
    deadline: float | None = None,
) -> PageRun:
    """`deadline` (`time.monotonic()`) ends the page; by default `budgets.seconds` from now."""
    schema = schema or default_schema()
    profile = profile or profile_for(client.config.model)
    budgets = budgets or Budgets()
    sent = profile.prepare(image)
    space = profile.space(sent)
    coords = profile.describe_coordinates
    tools = [t.openai_schema() for t in TOOLS.values() if t.name != "run_python" or python is not None] + [SUBMIT]
    # Without native tool calling the tools are described in the prompt and called by message.
    protocol = [] if profile.native_tools else [t["function"] for t in tools]
    p = render(
        prompt, "tools", schema=schema, coordinates=coords, width=sent.width, height=sent.height, tool_protocol=protocol
    )
    image_sha = image_key(sent)
    ctx = PageContext(sent, space=space, python=python)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": p.system},
        {"role": "user", "content": [{"type": "text", "text": p.user}, image_part(sent)]},
    ]
    transcript: list[dict[str, Any]] = [{"role": "system", "prompt": p.name, "sha256": p.sha256}]
    transcript.append({"role": "user", "text": p.user, "image": {"sha256": image_sha, "size": list(sent.size)}})
    deadline = deadline if deadline is not None else time.monotonic() + budgets.seconds
    tokens, calls = 0, 0
    saved: dict[str, bytes] = {}

    def finish(text: str | None, why: str | None = None) -> PageRun:
        if why is not None:
            page = PredictionPage.invalid(page_id, why)
        else:
            page = validate_output(
                text or "", page_id=page_id, width=image.width, height=image.height, space=space, schema=schema
            )
        transcript.append({"validation": {"valid": page.valid, "reason": page.reason}})
        return PageRun(page, p.name, p.sha256, sent.size, transcript, saved)

    for turn in range(budgets.turns):
        if time.monotonic() >= deadline:
            return finish(None, f"wall-clock budget of {budgets.seconds:g} s exhausted after {turn} turns")
        retry_key: dict[str, Any] = {"attempt": attempt} if attempt else {}
        reply = client.complete(
            messages,
            tools=tools if profile.native_tools else None,
            deadline=deadline,
            request_seconds=budgets.request_seconds,
            prompt=p.sha256,
            image=image_sha,
            **retry_key,
        )
        tokens += sum(reply.usage.values())
        transcript.append(
            {"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls, "usage": reply.usage}
            | {"seconds": reply.seconds, "cached": reply.cached}
        )
        if tokens > budgets.tokens:
            return finish(None, f"token budget of {budgets.tokens} exhausted")
        calls_now = reply.tool_calls if profile.native_tools else _message_calls(reply.content, turn)
        if not calls_now:
            return finish(reply.content)
        if profile.native_tools:
            messages.append({"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls})
        else:
            messages.append({"role": "assistant", "content": reply.content})
        for call in calls_now:
            name, arguments = call["function"]["name"], call["function"]["arguments"]
            if name == "submit_redactions":
                return finish(arguments)
            calls += 1
            if calls > budgets.tool_calls:
                return finish(None, f"tool-call budget of {budgets.tool_calls} exhausted")
            result = call_tool(ctx, name, arguments)
            parts = [image_part(im) for im in result.images[: profile.images_per_request]]
            if not profile.native_tools:
                reply_text = f"Result of {name}: {result.text}"
                messages.append({"role": "user", "content": [{"type": "text", "text": reply_text}, *parts]})
            elif parts and profile.tool_result_images:
                content: Any = [{"type": "text", "text": result.text}, *parts]
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
            else:
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.text})
                if parts:
                    text = f"The image(s) returned by {name} (call {call['id']}):"
                    messages.append({"role": "user", "content": [{"type": "text", "text": text}, *parts]})
            record: dict[str, Any] = {"role": "tool", "name": name, "arguments": arguments, "result": result.text}
            if result.images:
                record["images"] = []
                for k, im in enumerate(result.images):
                    file = f"{len(saved):03d}-{name}-{k}.png"
                    saved[file] = png_bytes(im)
                    record["images"].append({"file": file, "sha256": image_key(im), "size": list(im.size)})
            transcript.append(record)
    return finish(None, f"turn budget of {budgets.turns} exhausted without an answer")


def _message_calls(content: str | None, turn: int) -> list[dict[str, Any]]:
    """A prompt-level tool call: the whole message is {"tool": name, "arguments": {...}}."""
    try:
        data = json.loads((content or "").strip())
    except json.JSONDecodeError:
        return []
    if not isinstance(data, dict) or set(data) != {"tool", "arguments"} or not isinstance(data["tool"], str):
        return []
    arguments = json.dumps(data["arguments"])
    return [{"id": f"msg_{turn}", "type": "function", "function": {"name": data["tool"], "arguments": arguments}}]
