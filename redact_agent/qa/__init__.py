"""Policy-preserving document QA: `redact-agent ask` (see `ask.py`), its methods and inputs."""

from typing import Literal

Method = Literal["plain", "cot", "revision", "dva", "redact-first"]
InputMode = Literal["image", "text", "both"]
METHODS: tuple[Method, ...] = ("plain", "cot", "revision", "dva", "redact-first")
INPUTS: tuple[InputMode, ...] = ("image", "text", "both")
