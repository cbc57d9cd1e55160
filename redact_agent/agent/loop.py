"""The page loop: one VLM page, single-pass or tool-assisted, strictly validated.

Single-pass is the loop with no tools and one turn. In tools mode each turn sends the
conversation with the tools (`crop`, `zoom`, `ocr`, and `run_python` where a sandbox runner is
given) plus `submit_redactions`, whose arguments are exactly the entities schema; the page ends
when the model calls `submit_redactions` or answers with a plain message. Either way the answer
goes through the strict validator. How tools reach the model is the profile's tool protocol
(native calls, or the prompt-level protocol); every `box_2d` the model reads (prompt, tool
schemas, submit schema) is described by the profile's coordinate space. The image is prepared
once, here. Budgets bound every page (turns, tool calls, tokens, wall time): exhausting one
ends the page as invalid with the reason. The transcript keeps what was sent and received (the
image by hash and size), so a run can be audited and re-scored without the model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from redact_agent.agent.budgets import Budgets
from redact_agent.agent.client import ChatClient, image_part
from redact_agent.agent.output import ModelOutput, validate_output
from redact_agent.agent.profiles import ModelProfile, profile_for
from redact_agent.coords import CoordSpace, describe_boxes
from redact_agent.images import png_bytes
from redact_agent.pages import PredictionPage
from redact_agent.prompts import DEFAULT_PROMPT, Prompt, render
from redact_agent.protocol import PROTOCOL, Mode
from redact_agent.schema import Schema, default_schema
from redact_agent.tools.ocr import image_key
from redact_agent.tools.page_tools import TOOLS, PageContext, call_tool
from redact_agent.tools.sandbox import KernelPool, SandboxPython


@dataclass
class PageRun:
    page: PredictionPage
    prompt_name: str
    prompt_sha256: str
    sent_size: tuple[int, int]
    transcript: list[dict[str, Any]] = field(default_factory=list)
    images: dict[str, bytes] = field(default_factory=dict)  # tool-result images the transcript names


def submit_tool(describe: str) -> dict[str, Any]:
    """The `submit_redactions` tool: its arguments are exactly the model output schema."""
    return {
        "type": "function",
        "function": {
            "name": "submit_redactions",
            "description": "Submit every PII entity of the page; this ends the page.",
            "parameters": describe_boxes(ModelOutput.model_json_schema(), describe),
        },
    }


def run_page(
    page_id: str,
    image: Image.Image,
    client: ChatClient,
    mode: Mode = "single",
    prompt: str = DEFAULT_PROMPT,
    profile: ModelProfile | None = None,
    schema: Schema | None = None,
    budgets: Budgets | None = None,
    sandbox: KernelPool | None = None,
    ocr: str = PROTOCOL.ocr,
    attempt: int = 0,
    deadline: float | None = None,
) -> PageRun:
    """`attempt` > 0 is a retry after invalid output: a distinct cache key, so it asks again.
    `deadline` (`time.monotonic()`) ends the page; by default `budgets.seconds` from now.
    `sandbox` offers `run_python` (a fresh kernel for this page, with the image as sent);
    `ocr` names the engine behind the `ocr` tool and the kernel's `ocr()`."""
    profile = profile or profile_for(client.config.model)
    schema = schema or default_schema()
    budgets = budgets or Budgets()
    sent = profile.prepare(image)  # the one place the page becomes what the model sees
    space = profile.space(sent)
    python = None
    if mode == "tools" and sandbox is not None:
        python = SandboxPython(sandbox, png_bytes(sent), profile.coordinates.name, ocr)
    tools: list[dict[str, Any]] = []
    if mode == "tools":
        offered = [t for t in TOOLS.values() if t.name != "run_python" or python is not None]
        tools = [t.openai_schema(space.describe) for t in offered] + [submit_tool(space.describe)]
    values = {"schema": schema, "coordinates": space.describe, "width": sent.width, "height": sent.height}
    p = render(prompt, mode, **values, tool_protocol=profile.tool_protocol.prompt_tools(tools))
    loop = _Loop(page_id, image, sent, space, p, client, profile, schema, budgets)
    try:
        return loop.run(tools, PageContext(sent, space=space, ocr_engine=ocr, python=python), attempt,
                        deadline or time.monotonic() + budgets.seconds)  # fmt: skip
    finally:
        if python is not None:
            python.close()


@dataclass
class _Loop:
    page_id: str
    image: Image.Image  # the page, whose pixels the answer is converted to
    sent: Image.Image  # the page as the model sees it
    space: CoordSpace
    prompt: Prompt
    client: ChatClient
    profile: ModelProfile
    schema: Schema
    budgets: Budgets
    transcript: list[dict[str, Any]] = field(default_factory=list)
    saved: dict[str, bytes] = field(default_factory=dict)  # tool-result images the transcript names

    def run(self, tools: list[dict[str, Any]], ctx: PageContext, attempt: int, deadline: float) -> PageRun:
        protocol, budgets, p = self.profile.tool_protocol, self.budgets, self.prompt
        image_sha = image_key(self.sent)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": p.system},
            {"role": "user", "content": [{"type": "text", "text": p.user}, image_part(self.sent)]},
        ]
        self.transcript += [
            {"role": "system", "prompt": p.name, "sha256": p.sha256},
            {"role": "user", "text": p.user, "image": {"sha256": image_sha, "size": list(self.sent.size)}},
        ]
        tokens, calls = 0, 0
        for turn in range(budgets.turns if tools else 1):
            if time.monotonic() >= deadline:
                return self._finish(None, f"wall-clock budget of {budgets.seconds:g} s exhausted after {turn} turns")
            retry_key: dict[str, Any] = {"attempt": attempt} if attempt else {}
            reply = self.client.complete(
                messages,
                tools=protocol.request_tools(tools),
                deadline=deadline,
                request_seconds=budgets.request_seconds,
                prompt=p.sha256,
                image=image_sha,
                **retry_key,
            )
            tokens += sum(reply.usage.values())
            self.transcript.append(
                {"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls, "usage": reply.usage}
                | {"seconds": reply.seconds, "cached": reply.cached}
            )
            if tokens > budgets.tokens:
                return self._finish(None, f"token budget of {budgets.tokens} exhausted")
            calls_now = protocol.calls(reply, turn) if tools else []
            if not calls_now:
                return self._finish(reply.content)
            messages.append(protocol.assistant(reply))
            for call in calls_now:
                name, arguments = call["function"]["name"], call["function"]["arguments"]
                if name == "submit_redactions":
                    return self._finish(arguments)
                calls += 1
                if calls > budgets.tool_calls:
                    return self._finish(None, f"tool-call budget of {budgets.tool_calls} exhausted")
                result = call_tool(ctx, name, arguments)
                parts = [image_part(im) for im in result.images[: self.profile.images_per_request]]
                messages += protocol.results(call, result.text, parts)
                self._record(name, arguments, result.text, result.images)
        return self._finish(None, f"turn budget of {budgets.turns} exhausted without an answer")

    def _record(self, name: str, arguments: str, text: str, images: tuple[Image.Image, ...]) -> None:
        record: dict[str, Any] = {"role": "tool", "name": name, "arguments": arguments, "result": text}
        if images:
            record["images"] = []
            for k, im in enumerate(images):
                file = f"{len(self.saved):03d}-{name}-{k}.png"
                self.saved[file] = png_bytes(im)
                record["images"].append({"file": file, "sha256": image_key(im), "size": list(im.size)})
        self.transcript.append(record)

    def _finish(self, text: str | None, why: str | None = None) -> PageRun:
        if why is not None:
            page = PredictionPage.invalid(self.page_id, why)
        else:
            w, h = self.image.size
            page = validate_output(
                text or "", page_id=self.page_id, width=w, height=h, space=self.space, schema=self.schema
            )
        self.transcript.append({"validation": {"valid": page.valid, "reason": page.reason}})
        return PageRun(page, self.prompt.name, self.prompt.sha256, self.sent.size, self.transcript, self.saved)
