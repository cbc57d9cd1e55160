"""Model profiles: what differs between vision-language models, as data rather than branches.

A profile says which coordinate space the model answers in, how the image must be resized
before sending (Qwen2.5-VL answers absolute pixels on the image it received, resized by
qwen-vl-utils' `smart_resize` rule, reimplemented here so the core needs no torch), whether
tool results may carry images (chat-completions tool messages carry text only: images then go
in a following user message), whether native tool calling is available, and what `vllm serve`
needs for it (the tool-call parser, the processor's pixel limits).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from PIL import Image

from redact_agent.agent.protocols import NativeTools, PromptTools, ToolProtocol
from redact_agent.coords import GEMINI_1000, GRID_999, GRID_1000, SENT_PIXELS, Coordinates, CoordSpace

QWEN_FACTOR = 28
QWEN_MIN_PIXELS = 4 * 28 * 28
QWEN_MAX_PIXELS = 16384 * 28 * 28


def smart_resize(
    height: int,
    width: int,
    factor: int = QWEN_FACTOR,
    min_pixels: int = QWEN_MIN_PIXELS,
    max_pixels: int = QWEN_MAX_PIXELS,
) -> tuple[int, int]:
    """Qwen2.5-VL's resize rule: sides multiples of `factor`, pixel count within bounds,
    aspect ratio kept as closely as possible. Returns (height, width)."""
    if max(height, width) / min(height, width) > 200:
        raise ValueError(f"aspect ratio of {width}x{height} is over 200")
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


@dataclass(frozen=True)
class ModelProfile:
    name: str
    coordinates: Coordinates = GRID_999
    tool_result_images: bool = False  # may a tool message carry an image?
    images_per_request: int = 8
    native_tools: bool = True  # else the prompt-level tool protocol
    vllm_tool_parser: str | None = "hermes"  # vLLM's --tool-call-parser, where tools are native
    vllm_pixels: tuple[int, int] | None = None  # the processor's (min_pixels, max_pixels)

    def __post_init__(self) -> None:
        if not self.native_tools and self.vllm_tool_parser is not None:
            raise ValueError(f"profile {self.name}: a tool-call parser needs native tool calls")

    def prepare(self, page: Image.Image) -> Image.Image:
        """The image to send: resized by the model's rule where its coordinates depend on it."""
        if not self.coordinates.resizes:
            return page
        h, w = smart_resize(page.height, page.width)
        return page if (w, h) == page.size else page.resize((w, h), Image.Resampling.BICUBIC)

    def space(self, sent: Image.Image) -> CoordSpace:
        return self.coordinates.on(sent.width, sent.height)

    @property
    def tool_protocol(self) -> ToolProtocol:
        return NativeTools(self.tool_result_images) if self.native_tools else PromptTools()


_QWEN_PIXELS = (QWEN_MIN_PIXELS, QWEN_MAX_PIXELS)
PROFILES: list[tuple[re.Pattern[str], ModelProfile]] = [
    (
        re.compile(r"qwen2\.5-vl", re.I),
        ModelProfile("qwen2.5-vl", SENT_PIXELS, images_per_request=4, vllm_pixels=_QWEN_PIXELS),
    ),
    (
        re.compile(r"qwen3-vl", re.I),
        ModelProfile("qwen3-vl", GRID_1000, images_per_request=4, vllm_pixels=_QWEN_PIXELS),
    ),
    # InternVL's chat template has no tool calling: tools go through the prompt-level protocol.
    (
        re.compile(r"internvl", re.I),
        ModelProfile("internvl", GRID_1000, images_per_request=4, native_tools=False, vllm_tool_parser=None),
    ),
    (re.compile(r"gemini", re.I), ModelProfile("gemini", GEMINI_1000)),
]


def profile_for(model: str) -> ModelProfile:
    """The profile of a model name (first matching pattern), else the 0-999 default."""
    for pattern, profile in PROFILES:
        if pattern.search(model):
            return profile
    return ModelProfile("default")
