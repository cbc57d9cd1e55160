"""The model output contract and its strict validator.

A model must answer exactly one JSON object `{"entities": [{"type", "value"?, "confidence"?,
"box_2d"}]}`, optionally inside one markdown code fence. Anything else makes the whole page
invalid: an empty prediction list plus a recorded reason, which the scorer counts as a missed
page (the LeakageBench protocol). Nothing is repaired: no prose stripping, no coordinate
clamping, no type guessing, no model-specific parsing. Duplicate keys and NaN are rejected
too, since the standard JSON parser would silently pick one reading.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from redact_agent.coords import GRID_999, BoxField, CoordSpace
from redact_agent.errors import describe
from redact_agent.pages import Prediction, PredictionPage, check_type_known
from redact_agent.schema import Schema, default_schema

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n(.*)\n[ \t]*```", re.DOTALL)


class ModelEntity(BaseModel):
    """One entity as the model answers it; `box_2d` is in the model's coordinate space."""

    model_config = ConfigDict(extra="forbid")
    type: str = Field(description="a PII type of the schema")
    value: str | None = Field(default=None, description="the text as printed")
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    box_2d: BoxField

    _type_known = field_validator("type")(check_type_known)


class ModelOutput(BaseModel):
    """The whole answer for one page (also the arguments of the `submit_redactions` tool)."""

    model_config = ConfigDict(extra="forbid")
    entities: list[ModelEntity]


class ContractError(ValueError):
    """A model's answer is not exactly one JSON object (optionally in one code fence)."""


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise ContractError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _no_constants(name: str) -> None:
    raise ContractError(f"{name} is not JSON")


def _json_body(text: str) -> str:
    body = text.strip()
    if body.startswith("```"):
        m = _FENCE.fullmatch(body)
        if not m or "```" in m.group(1):
            raise ContractError("expected one JSON object in one markdown code fence and nothing else")
        body = m.group(1)
    return body


def json_object(text: str) -> dict[str, Any]:
    """The one JSON object a model answered, strictly: optionally in one markdown code fence,
    nothing else around it, no duplicate keys, no NaN; else `ContractError` with the reason."""
    try:
        data = json.loads(_json_body(text), object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise ContractError(f"not exactly one JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise ContractError(f"top level is a JSON {type(data).__name__}, not an object")
    return data


def validate_output(
    text: str,
    *,
    page_id: str,
    width: int,
    height: int,
    space: CoordSpace = GRID_999,
    schema: Schema | None = None,
) -> PredictionPage:
    """Raw model text -> a prediction page in page pixels: valid, or empty with `reason` set."""
    schema = schema or default_schema()
    try:
        data = json_object(text)
    except ContractError as exc:
        return PredictionPage.invalid(page_id, str(exc))
    try:
        output = ModelOutput.model_validate(data, context={"schema": schema, "space": space})
    except ValidationError as exc:
        return PredictionPage.invalid(page_id, describe(exc))
    predictions = [
        Prediction(
            type=e.type,
            bbox=space.to_pixels(e.box_2d, width, height),
            value=e.value,
            confidence=e.confidence,
        )
        for e in output.entities
    ]
    return PredictionPage(page_id=page_id, valid=True, predictions=predictions)
