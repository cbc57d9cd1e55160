"""Versioned prompt templates, shipped as package data, rendered with Jinja's StrictUndefined.

A shipped prompt version is a set of sibling files `<name>.system.j2`, `<name>.single.j2` and
`<name>.tools.j2`; a user's prompt is a folder holding `system.j2`, `single.j2` and `tools.j2`.
A run records the prompt's name and the sha256 of the exact text it sent, so two runs are
comparable only when both match.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import jinja2

from redact_agent.errors import InputError

DEFAULT_PROMPT = "v1"


@dataclass(frozen=True)
class Prompt:
    name: str
    system: str
    user: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(f"{self.system}\n\x00\n{self.user}".encode()).hexdigest()


def _templates(source: str) -> tuple[jinja2.Environment, str]:
    """A Jinja environment and the file-name prefix for a shipped name or a folder path."""
    path = Path(source)
    folder, prefix = (path, "") if path.is_dir() else (Path(str(resources.files("redact_agent.prompts"))), f"{source}.")
    loader = jinja2.FileSystemLoader(str(folder))
    return jinja2.Environment(loader=loader, undefined=jinja2.StrictUndefined, keep_trailing_newline=True), prefix


def render(source: str, mode: Literal["single", "tools"], **values: Any) -> Prompt:
    """Render prompt `source` (a shipped name like "v1", or a folder) for a mode."""
    env, prefix = _templates(source)
    parts = {}
    for part in ("system", mode):
        file = f"{prefix}{part}.j2"
        try:
            parts[part] = env.get_template(file).render(**values)
        except jinja2.TemplateNotFound:
            raise InputError(f"prompt {source!r} has no {file}") from None
        except jinja2.UndefinedError as exc:
            raise InputError(f"prompt {source!r}: {file} uses an undefined value: {exc.message}") from None
    return Prompt(Path(source).name, parts["system"], parts[mode])
