"""How tools reach a model and its calls come back: native tool calls, or the prompt-level
protocol for models whose chat template has none (InternVL). The model profile chooses one;
the page loop asks it the same few things either way and holds no branch of its own.

- `request_tools`: what goes in the request's `tools` field (nothing for the prompt protocol);
- `prompt_tools`: the tools described in the prompt (nothing for native calls);
- `calls`: the tool calls in a reply (for the prompt protocol, a message that is exactly
  `{"tool": NAME, "arguments": {...}}`);
- `assistant`: the reply as the assistant message that goes back into the conversation;
- `results`: the messages that carry one tool's result (its images included) to the model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from redact_agent.agent.client import Reply

Message = dict[str, Any]


class ToolProtocol(Protocol):
    def request_tools(self, tools: list[Message]) -> list[Message] | None: ...

    def prompt_tools(self, tools: list[Message]) -> list[Message]: ...

    def calls(self, reply: Reply, turn: int) -> list[Message]: ...

    def assistant(self, reply: Reply) -> Message: ...

    def results(self, call: Message, text: str, images: list[Message]) -> list[Message]: ...


@dataclass(frozen=True)
class NativeTools:
    """Chat-completions tool calls. A tool message carries text only unless the model takes
    images there (`tool_result_images`); otherwise the images follow in a user message."""

    tool_result_images: bool = False

    def request_tools(self, tools: list[Message]) -> list[Message] | None:
        return tools or None

    def prompt_tools(self, tools: list[Message]) -> list[Message]:
        return []

    def calls(self, reply: Reply, turn: int) -> list[Message]:
        return reply.tool_calls

    def assistant(self, reply: Reply) -> Message:
        return {"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls}

    def results(self, call: Message, text: str, images: list[Message]) -> list[Message]:
        if images and self.tool_result_images:
            return [{"role": "tool", "tool_call_id": call["id"], "content": [{"type": "text", "text": text}, *images]}]
        out: list[Message] = [{"role": "tool", "tool_call_id": call["id"], "content": text}]
        if images:
            intro = f"The image(s) returned by {call['function']['name']} (call {call['id']}):"
            out.append({"role": "user", "content": [{"type": "text", "text": intro}, *images]})
        return out


@dataclass(frozen=True)
class PromptTools:
    """Tools described in the prompt and called by message; results come back as user messages."""

    def request_tools(self, tools: list[Message]) -> list[Message] | None:
        return None

    def prompt_tools(self, tools: list[Message]) -> list[Message]:
        return [t["function"] for t in tools]

    def calls(self, reply: Reply, turn: int) -> list[Message]:
        try:
            data = json.loads((reply.content or "").strip())
        except json.JSONDecodeError:
            return []
        if not isinstance(data, dict) or set(data) != {"tool", "arguments"} or not isinstance(data["tool"], str):
            return []
        arguments = json.dumps(data["arguments"])
        return [{"id": f"msg_{turn}", "type": "function", "function": {"name": data["tool"], "arguments": arguments}}]

    def assistant(self, reply: Reply) -> Message:
        return {"role": "assistant", "content": reply.content}

    def results(self, call: Message, text: str, images: list[Message]) -> list[Message]:
        reply = f"Result of {call['function']['name']}: {text}"
        return [{"role": "user", "content": [{"type": "text", "text": reply}, *images]}]
