"""Redaction policies: which types are redacted, plus deny and allow terms.

`default` redacts the Direct, Linkage and Other groups; `all` adds Contextual. A YAML file
refines either:

    base: default            # or: all
    types_on: [DATE_OF_BIRTH]
    types_off: [SIGNATURE]
    groups_on: [Contextual]
    deny:                    # always redacted where printed, with the type to record
      Project Falcon: ORGANIZATION
    allow: [Acme Broadcasting]   # never redacted, whatever recognised them
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from redact_agent.errors import InputError, describe
from redact_agent.schema import Group, Schema, default_schema

_BASES: dict[str, tuple[Group, ...]] = {
    "default": ("Direct", "Linkage", "Other"),
    "all": ("Direct", "Linkage", "Contextual", "Other"),
}


class _PolicyFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base: str = Field("default", pattern="^(default|all)$")
    groups_on: list[Group] = []
    groups_off: list[Group] = []
    types_on: list[str] = []
    types_off: list[str] = []
    deny: dict[str, str] = {}
    allow: list[str] = []
    codes: dict[str, str] = {}  # what `--label code` writes in a box of each type ("(b)(6)")


@dataclass(frozen=True)
class Policy:
    name: str
    types: frozenset[str]
    deny: tuple[tuple[str, str], ...] = ()  # (term, type)
    allow: tuple[str, ...] = ()
    codes: tuple[tuple[str, str], ...] = ()  # (type, the code a labelled box of it says)

    def as_json(self) -> dict[str, object]:
        """What decides the redaction, for run records."""
        out: dict[str, object] = {"name": self.name, "types": sorted(self.types), "deny": list(self.deny)}
        return out | {"allow": list(self.allow)} | ({"codes": dict(self.codes)} if self.codes else {})

    def redacts(self, type_name: str) -> bool:
        return type_name in self.types

    def allows(self, value: str) -> bool:
        folded = " ".join(value.split()).casefold()
        return any(" ".join(a.split()).casefold() == folded for a in self.allow)


def _from_groups(name: str, groups: tuple[Group, ...], schema: Schema) -> Policy:
    return Policy(name, frozenset(t.name for t in schema.types if t.group in groups))


def load_policy(spec: str, schema: Schema | None = None) -> Policy:
    """`default`, `all`, or a YAML policy file."""
    schema = schema or default_schema()
    if spec in _BASES:
        return _from_groups(spec, _BASES[spec], schema)
    path = Path(spec)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        parsed = _PolicyFile.model_validate(data)
    except OSError as exc:
        raise InputError(f"policy {spec!r}: not 'default', 'all' or a readable file ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: cannot parse policy: {exc}") from None
    except ValidationError as exc:
        raise InputError(f"{path}: not a valid policy: {describe(exc)}") from None
    for t in [*parsed.types_on, *parsed.types_off, *parsed.deny.values(), *parsed.codes]:
        schema.get(t)  # unknown types are errors
    groups = (set(_BASES[parsed.base]) | set(parsed.groups_on)) - set(parsed.groups_off)
    types = {t.name for t in schema.types if t.group in groups} | set(parsed.types_on)
    types -= set(parsed.types_off)
    return Policy(
        path.stem, frozenset(types), tuple(parsed.deny.items()), tuple(parsed.allow), tuple(parsed.codes.items())
    )
