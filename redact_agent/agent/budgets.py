"""What one page may spend with a model: the limits and their defaults, in one place.

A page ends as invalid, with the reason, when it runs out of turns, tool calls, tokens or wall
time; each request has its own timeout too (a server that accepts the connection and never
answers costs one request timeout, retried only while the page's wall time lasts).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budgets:
    turns: int = 12
    tool_calls: int = 24
    tokens: int = 400_000
    seconds: float = 300.0  # wall time per page, every request, retry and tool call included
    request_seconds: float = 120.0  # one request's timeout
