"""Gold pages and prediction pages: the interchange formats of ../shared/spec/formats.md.

Both are pydantic models with `extra="forbid"`. The gold page also declares the optional
provenance fields the shared dev set carries (formats.md allows extending, never renaming).
The page is the unit of validation: its validator checks every item's type against a schema
passed as validation context (`{"schema": Schema}`, default v1) and every box against the page
size (gold: its own; predictions: `{"width": W, "height": H}` when known), in one vectorised
pass, since the scorer reads thousands of pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, model_validator

from redact_agent.boxes import Box, box_problem
from redact_agent.errors import InputError, describe
from redact_agent.schema import Group, Schema, default_schema


def _schema(info: ValidationInfo) -> Schema:
    context = info.context or {}
    schema = context.get("schema")
    return schema if isinstance(schema, Schema) else default_schema()


def check_type_known(type_name: str, info: ValidationInfo) -> str:
    schema = _schema(info)
    if type_name not in schema:
        raise ValueError(f"unknown PII type {type_name!r} (not in schema {schema.name})")
    return type_name


def _items_problem(
    types: Sequence[str], boxes: Sequence[Box], schema: Schema, width: float | None, height: float | None
) -> str | None:
    """The first problem among a page's items (unknown type, invalid box), or None."""
    for i, t in enumerate(types):
        if t not in schema:
            return f"item {i}: unknown PII type {t!r} (not in schema {schema.name})"
    if not boxes:
        return None
    b = np.asarray(boxes, dtype=np.float64)
    ok = np.isfinite(b).all(axis=1) & (b[:, 0] < b[:, 2]) & (b[:, 1] < b[:, 3]) & (b[:, :2] >= 0).all(axis=1)
    if width is not None:
        ok &= b[:, 2] <= width
    if height is not None:
        ok &= b[:, 3] <= height
    if ok.all():
        return None
    i = int(np.flatnonzero(~ok)[0])
    return f"item {i}: {box_problem(boxes[i], width, height)}"


class GoldAnnotation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    type: str
    group: Group
    bbox: Box
    value: str | None = None
    entity: str | None = None  # mentions of one real-world thing share it ("PERSON_NAME#2"); an extension
    # Provenance of items carried over from older labels (dev set).
    vrdu_field: str | None = None
    label_value: str | None = None


class GoldPage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    page_id: str = Field(min_length=1)
    image: str
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    source: str
    annotations: list[GoldAnnotation]
    exhaustive: bool = True
    # Optional provenance (see ../shared/data/dev/vrdu/README.md).
    split: str | None = None
    annotation: str | None = None
    box_method: str | None = None
    render: str | None = None
    pdf_page: int | None = None
    vrdu_filename: str | None = None
    labels_from: str | None = None
    field_report: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _items_valid(self, info: ValidationInfo) -> GoldPage:
        schema = _schema(info)
        anns = self.annotations
        problem = _items_problem([a.type for a in anns], [a.bbox for a in anns], schema, self.width, self.height)
        if problem:
            raise ValueError(problem)
        seen: set[str] = set()
        for a in anns:
            if a.id in seen:
                raise ValueError(f"duplicate annotation id {a.id!r}")
            seen.add(a.id)
            if a.group != schema.group_of(a.type):
                raise ValueError(f"{a.id}: type {a.type} belongs to group {schema.group_of(a.type)}, not {a.group}")
        return self


class Prediction(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    type: str
    bbox: Box
    value: str | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    reason: str | None = None  # why it was predicted (an extension: the embedded engine's recogniser and cue)
    entity: str | None = None  # mentions of one real-world thing share it ("PERSON_NAME#2"); an extension


class PredictionPage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    page_id: str = Field(min_length=1)
    valid: bool
    predictions: list[Prediction]
    reason: str | None = None  # why the raw output was invalid; None when valid
    # Extensions written by the main job (formats.md allows extending):
    engine: str | None = None  # the system that produced the predictions
    residual: list[Prediction] | None = None  # PII still found when the redacted image was read again
    raw_predictions: list[Prediction] | None = None  # a model's own boxes, when `predictions` were refined

    @model_validator(mode="after")
    def _items_valid(self, info: ValidationInfo) -> PredictionPage:
        if not self.valid and self.predictions:
            raise ValueError("an invalid prediction page must have an empty prediction list")
        context = info.context or {}
        preds = self.predictions
        problem = _items_problem(
            [p.type for p in preds], [p.bbox for p in preds], _schema(info), context.get("width"), context.get("height")
        )
        if problem:
            raise ValueError(problem)
        return self

    @classmethod
    def invalid(cls, page_id: str, reason: str) -> PredictionPage:
        return cls(page_id=page_id, valid=False, predictions=[], reason=reason)


@dataclass
class Finding:
    """What a finder returns for one page: the prediction page, the transcript of how it was
    obtained (empty for the offline engine) and the images the transcript names (PNG bytes)."""

    page: PredictionPage
    transcript: list[dict[str, Any]] = field(default_factory=list)
    images: dict[str, bytes] = field(default_factory=dict)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def gold_paths(gold_dir: Path) -> list[Path]:
    """The gold page files of a folder, sorted; an `InputError` when there are none."""
    if not gold_dir.is_dir():
        raise InputError(f"gold directory {gold_dir} does not exist")
    paths = sorted(gold_dir.glob("*.json"))
    if not paths:
        raise InputError(f"no gold pages (*.json) in {gold_dir}")
    return paths


def load_gold_page(path: Path, schema: Schema | None = None) -> GoldPage:
    """Read and validate one gold page; raise `InputError` naming the file and the first problem."""
    try:
        return GoldPage.model_validate_json(_read(path), context={"schema": schema or default_schema()})
    except ValidationError as exc:
        raise InputError(f"{path}: not a valid gold page: {describe(exc)}") from None


def load_prediction_page(
    path: Path, schema: Schema | None = None, width: int | None = None, height: int | None = None
) -> PredictionPage:
    """Read and validate one prediction page; boxes must lie on the `width` x `height` page when given."""
    context = {"schema": schema or default_schema(), "width": width, "height": height}
    try:
        return PredictionPage.model_validate_json(_read(path), context=context)
    except ValidationError as exc:
        raise InputError(f"{path}: not a valid prediction page: {describe(exc)}") from None
