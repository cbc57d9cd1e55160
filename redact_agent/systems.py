"""Systems: one spec names a whole finder, and builds it. The main job, the bench and the
command line all take their systems (and their choices) from here.

    local:MODE[:ocr=rapidocr]                         the embedded engine
    openai:MODEL:MODE[:prompt=P][:refine=ocr-snap][:union=local][:retries=N][:ocr=O]
    vllm:MODEL:MODE[:...]:base_url=http://HOST:PORT/v1      (base_url always last; replicas: URL,URL,...)
    presidio                                          the Presidio peer (extra `peers`)

MODE is `single` or `tools`. A spec is data (`SystemSpec`, a pydantic model that forbids unknown
fields and checks its fields against each other); the text form and an experiment grid's rows
are both validated as that data, so a typo never runs a different system than the one named.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args

from PIL import Image
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from redact_agent.errors import InputError, describe
from redact_agent.pages import Finding
from redact_agent.protocol import PROTOCOL, Mode, OcrName

if TYPE_CHECKING:
    from redact_agent.agent.budgets import Budgets
    from redact_agent.agent.client import ChatClient
    from redact_agent.policy import Policy

Backend = Literal["local", "openai", "vllm", "presidio"]
Refine = Literal["ocr-snap"]
Union = Literal["local"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)
REFINES: tuple[Refine, ...] = get_args(Refine)
UNIONS: tuple[Union, ...] = get_args(Union)
_VLM_ONLY = ("model", "prompt", "refine", "union", "base_url", "retries")


class Finder(Protocol):
    """What finds PII on a page: the embedded engine, a VLM backend or a peer system."""

    @property
    def name(self) -> str: ...

    def find_page(self, page_id: str, image: Image.Image) -> Finding: ...

    def close(self) -> None: ...


class SystemSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    backend: Backend
    mode: Mode = "single"
    model: str | None = None
    prompt: str = "v1"
    ocr: OcrName = PROTOCOL.ocr
    refine: Refine | None = None
    union: Union | None = None
    base_url: tuple[str, ...] | None = None  # the model's servers: one, or several replicas
    retries: int = Field(0, ge=0)  # VLM: ask again after invalid output

    @field_validator("base_url", mode="before")
    @classmethod
    def _urls(cls, value: Any) -> Any:
        """One URL, several separated by commas, or a list of them."""
        if isinstance(value, str):
            return tuple(u.strip() for u in value.split(",") if u.strip())
        return value

    @model_validator(mode="after")
    def _fields_fit_the_backend(self) -> SystemSpec:
        given = self.model_fields_set
        if self.backend == "presidio" and given - {"backend"}:
            raise ValueError("the Presidio peer takes no fields: presidio")
        if self.backend == "local" and given & set(_VLM_ONLY):
            raise ValueError(
                f"the local backend takes only mode and ocr, not {', '.join(sorted(given & set(_VLM_ONLY)))}"
            )
        if self.backend in ("openai", "vllm") and not self.model:
            raise ValueError(f"backend {self.backend} needs a model (--model, or {self.backend}:MODEL:MODE)")
        return self

    @property
    def slug(self) -> str:
        """A folder-safe name: `local-tools`, `openai-gpt-5.5-tools-prompt-v2`."""
        if self.backend == "presidio":
            return "presidio"
        parts = [self.backend, *([self.model] if self.model else []), self.mode]
        if self.ocr != PROTOCOL.ocr:
            parts.append(f"ocr-{self.ocr}")
        if self.backend != "local":
            parts += [f"prompt-{Path(self.prompt).name}"] if self.prompt != "v1" else []
            parts += [f"refine-{self.refine}"] if self.refine else []
            parts += [f"union-{self.union}"] if self.union else []
            parts += [f"retries-{self.retries}"] if self.retries else []
        return re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(parts))

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)

    def finder(
        self,
        policy: Policy,
        cache_dir: Path | None = None,
        use_cache: bool = True,
        budgets: Budgets | None = None,
        per_replica: int | None = None,
    ) -> Finder:
        """The system's finder; `budgets` bound a VLM's pages (default: `Budgets()`), and
        `per_replica` its requests in flight on each server (default: `ModelConfig`'s)."""
        from redact_agent.local.engine import LocalEngine

        if self.backend == "local":
            return LocalEngine(mode=self.mode, policy=policy, ocr=self.ocr)
        if self.backend == "presidio":
            from redact_agent.peers.presidio import PresidioPeer

            return PresidioPeer(policy)
        return self._vlm(policy, cache_dir, use_cache, budgets, per_replica)

    def chat_client(self, cache_dir: Path | None, use_cache: bool, per_replica: int | None = None) -> ChatClient:
        """The client of a VLM backend's servers (its replicas), with the response cache."""
        from redact_agent.agent.cache import ResponseCache
        from redact_agent.agent.client import ChatClient, ModelConfig

        if self.backend not in ("openai", "vllm") or self.model is None:
            raise InputError("a model is asked through a VLM backend: --backend openai|vllm --model M")
        if self.backend == "vllm" and not self.base_url:
            raise InputError("backend vllm needs a base URL (--base-url, or base_url= in a spec): http://HOST:PORT/v1")
        if self.backend == "openai" and not self.base_url and not os.environ.get("OPENAI_API_KEY"):
            raise InputError("backend openai needs OPENAI_API_KEY in the environment (or a base URL)")
        cache = ResponseCache(cache_dir) if use_cache else None
        config = ModelConfig(model=self.model, base_urls=self.base_url or ())
        return ChatClient(replace(config, per_replica=per_replica) if per_replica else config, cache)

    def _vlm(
        self, policy: Policy, cache_dir: Path | None, use_cache: bool, budgets: Budgets | None, per_replica: int | None
    ) -> Finder:
        from redact_agent.agent.engine import VlmFinder
        from redact_agent.local.engine import LocalEngine

        client = self.chat_client(cache_dir, use_cache, per_replica)
        return VlmFinder(
            client,
            self.prompt,
            self.mode,
            budgets=budgets,
            ocr=self.ocr,
            refine=self.refine is not None,
            union_with=LocalEngine(mode="single", policy=policy, ocr=self.ocr) if self.union else None,
            retries_on_invalid=self.retries,
        )


def spec_from(values: dict[str, Any], where: str) -> SystemSpec:
    """Validate one system given as data; `where` names it in the error."""
    try:
        return SystemSpec.model_validate(values)
    except ValidationError as exc:
        raise InputError(f"{where}: {describe(exc)}") from None


def load_experiment(path: Path) -> list[SystemSpec]:
    """A grid of systems from YAML: `fixed` fields shared by all, `vary` fields whose lists are
    crossed (every combination is one system), e.g.

        fixed: {backend: openai, model: gpt-5.5}
        vary: {mode: [single, tools], prompt: [v1, v2]}
    """
    import itertools

    import yaml

    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"{path}: cannot read the experiment: {exc}") from None
    if not isinstance(doc, dict) or set(doc) - {"fixed", "vary"}:
        raise InputError(f"{path}: an experiment has only 'fixed' (a mapping) and 'vary' (lists per field)")
    fixed, vary = doc.get("fixed") or {}, doc.get("vary") or {}
    if not isinstance(fixed, dict) or not isinstance(vary, dict):
        raise InputError(f"{path}: an experiment has only 'fixed' (a mapping) and 'vary' (lists per field)")
    if any(not isinstance(v, list) or not v for v in vary.values()):
        raise InputError(f"{path}: each 'vary' field needs a non-empty list")
    combos = itertools.product(*vary.values())
    return [
        spec_from({**fixed, **dict(zip(vary, c, strict=True))}, f"{path}: system {i + 1}") for i, c in enumerate(combos)
    ]


def parse_spec(text: str) -> SystemSpec:
    """A system from its text form (see the module docstring)."""
    main, has_url, base_url = text.partition(":base_url=")  # a URL holds ':' itself: it comes last
    fields = main.split(":")
    positional = [f for f in fields if "=" not in f]
    options = [f for f in fields if "=" in f]
    where = f"system {text!r}"
    if fields[: len(positional)] != positional:
        raise InputError(f"{where}: key=value options go after the positional fields")
    backend = positional[0] if positional else ""
    if backend not in BACKENDS:
        raise InputError(f"{where}: backend must be one of {', '.join(BACKENDS)}")
    values: dict[str, Any] = {"backend": backend}
    if backend != "presidio":
        want = 2 if backend == "local" else 3
        if len(positional) != want:
            shape = "local:MODE" if backend == "local" else f"{backend}:MODEL:MODE"
            raise InputError(f"{where}: expected {shape}[:key=value...]")
        values["mode"] = positional[-1]
        if backend != "local":
            values["model"] = positional[1]
    elif len(positional) != 1:
        raise InputError(f"{where}: the Presidio peer takes no fields: presidio")
    for option in options:
        key, _, value = option.partition("=")
        if key not in SystemSpec.model_fields or key in ("backend", "mode", "model", "base_url") or not value:
            raise InputError(f"{where}: unknown option {option!r}")
        values[key] = value
    if has_url:
        if not base_url:
            raise InputError(f"{where}: base_url= needs a URL")
        values["base_url"] = base_url
    return spec_from(values, where)
