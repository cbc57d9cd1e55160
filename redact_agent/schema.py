"""The PII schema: types, their risk groups and the critical set, loaded from data.

The default schema (`schemas/pii_v1.yaml`, the table of ../shared/spec/schema.md) ships in
the package; a user may load another YAML or JSON file of the same shape. Unknown types are
errors everywhere: `Schema.group_of` raises rather than guessing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from redact_agent.errors import SchemaError

Group = Literal["Direct", "Linkage", "Contextual", "Other"]
DEFAULT_SCHEMA = "pii_v1.yaml"


class _TypeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    group: Group
    covers: str


class _SchemaFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    groups: list[Group]
    critical_groups: list[Group]
    types: dict[str, _TypeSpec]

    @model_validator(mode="after")
    def _consistent(self) -> _SchemaFile:
        if not self.types:
            raise ValueError("a schema needs at least one type")
        unknown = {s.group for s in self.types.values()} - set(self.groups)
        if unknown:
            raise ValueError(f"types use groups not listed in 'groups': {sorted(unknown)}")
        if not set(self.critical_groups) <= set(self.groups):
            raise ValueError("critical_groups must be a subset of groups")
        return self


@dataclass(frozen=True)
class PIIType:
    name: str
    group: Group
    covers: str


@dataclass(frozen=True)
class Schema:
    """A loaded PII schema. Types keep the file's order (the prompt table uses it)."""

    name: str
    groups: tuple[Group, ...]
    critical_groups: frozenset[Group]
    types: tuple[PIIType, ...]
    _by_name: dict[str, PIIType] = field(init=False, repr=False, compare=False)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {t.name: t for t in self.types})
        object.__setattr__(self, "_index", {t.name: i for i, t in enumerate(self.types)})

    @property
    def type_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.types)

    def index(self, type_name: str) -> int:
        """Position of a type in the schema (for array-based scoring)."""
        if type_name not in self._index:
            self.get(type_name)  # raises the unknown-type error
        return self._index[type_name]

    def __contains__(self, type_name: object) -> bool:
        return type_name in self._by_name

    def get(self, type_name: str) -> PIIType:
        try:
            return self._by_name[type_name]
        except KeyError:
            raise SchemaError(
                f"unknown PII type {type_name!r} (schema {self.name} has: {', '.join(self.type_names)})"
            ) from None

    def group_of(self, type_name: str) -> Group:
        return self.get(type_name).group

    def is_critical(self, type_name: str) -> bool:
        return self.group_of(type_name) in self.critical_groups

    @classmethod
    def from_mapping(cls, data: object, origin: str) -> Schema:
        try:
            parsed = _SchemaFile.model_validate(data)
        except ValidationError as exc:
            raise SchemaError(f"{origin}: not a valid schema file:\n{exc}") from None
        return cls(
            name=parsed.name,
            groups=tuple(parsed.groups),
            critical_groups=frozenset(parsed.critical_groups),
            types=tuple(PIIType(n, s.group, s.covers) for n, s in parsed.types.items()),
        )


def load_schema(path: str | Path) -> Schema:
    """Load a schema from a YAML or JSON file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SchemaError(f"cannot read schema file {path}: {exc.strerror}") from None
    try:
        data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        raise SchemaError(f"{path}: cannot parse: {exc}") from None
    return Schema.from_mapping(data, str(path))


@cache
def default_schema() -> Schema:
    """The shipped PII schema v1."""
    text = resources.files("redact_agent.schemas").joinpath(DEFAULT_SCHEMA).read_text("utf-8")
    return Schema.from_mapping(yaml.safe_load(text), DEFAULT_SCHEMA)
