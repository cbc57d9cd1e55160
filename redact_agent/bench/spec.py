"""System specs: one string names a whole system, and builds its finder.

    local:MODE[:ocr=rapidocr]                         the embedded engine
    openai:MODEL:MODE[:prompt=P][:refine=ocr-snap][:union=local]
    vllm:MODEL:MODE[:...]:base_url=http://HOST:PORT/v1      (base_url always last)
    presidio                                          the Presidio peer (extra `peers`)

MODE is `single` or `tools`. Options are `key=value` after the positional fields; unknown keys
or values are errors, so a typo never runs a different system than the one named.
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from redact_agent.errors import InputError

if TYPE_CHECKING:
    from redact_agent.agent.budgets import Budgets
    from redact_agent.job import Finder
    from redact_agent.policy import Policy

BACKENDS = ("local", "openai", "vllm", "presidio")
OPTIONS = {"ocr", "prompt", "refine", "union", "retries", "base_url"}


@dataclass(frozen=True)
class SystemSpec:
    backend: Literal["local", "openai", "vllm", "presidio"]
    mode: Literal["single", "tools"] = "single"
    model: str | None = None
    prompt: str = "v1"
    ocr: Literal["rapidocr", "tesseract"] = "rapidocr"
    refine: Literal["ocr-snap"] | None = None
    union: Literal["local"] | None = None
    base_url: str | None = None
    retries: int = 0  # VLM: ask again after invalid output

    @property
    def slug(self) -> str:
        """A folder-safe name: `local-tools`, `openai-gpt-5.5-tools-prompt-v2`."""
        if self.backend == "presidio":
            return "presidio"
        parts = [self.backend, *([self.model] if self.model else []), self.mode]
        if self.backend == "local" and self.ocr != "rapidocr":
            parts.append(f"ocr-{self.ocr}")
        if self.backend != "local":
            parts += [f"prompt-{Path(self.prompt).name}"] if self.prompt != "v1" else []
            parts += [f"refine-{self.refine}"] if self.refine else []
            parts += [f"union-{self.union}"] if self.union else []
            parts += [f"retries-{self.retries}"] if self.retries else []
        return re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(parts))

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    def finder(
        self, policy: Policy, cache_dir: Path | None = None, use_cache: bool = True, budgets: Budgets | None = None
    ) -> Finder:
        """The system's finder; `budgets` bound a VLM's pages (default: `Budgets()`)."""
        from redact_agent.local.engine import LocalEngine

        if self.backend == "local":
            return LocalEngine(mode=self.mode, policy=policy, ocr=self.ocr)
        if self.backend == "presidio":
            from redact_agent.peers.presidio import PresidioPeer

            return PresidioPeer(policy)
        return self._vlm(policy, cache_dir, use_cache, budgets)

    def _vlm(self, policy: Policy, cache_dir: Path | None, use_cache: bool, budgets: Budgets | None) -> Finder:
        from redact_agent.agent.cache import ResponseCache
        from redact_agent.agent.client import ChatClient, ModelConfig
        from redact_agent.agent.engine import VlmFinder
        from redact_agent.local.engine import LocalEngine
        from redact_agent.tools.ocr import get_engine

        if not self.model:
            raise InputError(f"backend {self.backend} needs a model (--model, or {self.backend}:MODEL:MODE)")
        if self.backend == "vllm" and not self.base_url:
            raise InputError("backend vllm needs a base URL (--base-url, or base_url= in a spec): http://HOST:PORT/v1")
        if self.backend == "openai" and not self.base_url and not os.environ.get("OPENAI_API_KEY"):
            raise InputError("backend openai needs OPENAI_API_KEY in the environment (or a base URL)")
        cache = ResponseCache(cache_dir) if use_cache else None
        client = ChatClient(ModelConfig(model=self.model, base_url=self.base_url), cache)
        return VlmFinder(
            client,
            self.prompt,
            self.mode,
            budgets=budgets,
            refine_with=get_engine(self.ocr) if self.refine else None,
            union_with=LocalEngine(mode="single", policy=policy, ocr=self.ocr) if self.union else None,
            retries_on_invalid=self.retries,
        )


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
    fixed, vary = doc.get("fixed") or {}, doc.get("vary") or {}
    if not isinstance(fixed, dict) or not isinstance(vary, dict) or set(doc) - {"fixed", "vary"}:
        raise InputError(f"{path}: an experiment has only 'fixed' (a mapping) and 'vary' (lists per field)")
    fields = set(SystemSpec.__dataclass_fields__)
    unknown = (set(fixed) | set(vary)) - fields
    if unknown:
        raise InputError(f"{path}: unknown fields {', '.join(sorted(unknown))} (have: {', '.join(sorted(fields))})")
    if any(not isinstance(v, list) or not v for v in vary.values()):
        raise InputError(f"{path}: each 'vary' field needs a non-empty list")
    specs = []
    for combo in itertools.product(*vary.values()):
        values = {**fixed, **dict(zip(vary, combo, strict=True))}
        text = ":".join(
            [str(values.get("backend", "")), *([str(values["model"])] if "model" in values else []),
             str(values.get("mode", ""))]
            + [f"{k}={v}" for k, v in values.items() if k not in ("backend", "model", "mode", "base_url")]
            + ([f"base_url={values['base_url']}"] if "base_url" in values else [])
        )  # fmt: skip
        specs.append(parse_spec(text))  # the same checks as a spec on the command line
    return specs


def parse_spec(text: str) -> SystemSpec:
    main, has_url, base_url = text.partition(":base_url=")  # a URL holds ':' itself: it comes last
    fields = main.split(":")
    positional = [f for f in fields if "=" not in f]
    options = [f for f in fields if "=" in f]
    if fields[: len(positional)] != positional:
        raise InputError(f"system {text!r}: key=value options go after the positional fields")
    backend = positional[0] if positional else ""
    if backend not in BACKENDS:
        raise InputError(f"system {text!r}: backend must be one of {', '.join(BACKENDS)}")
    if backend == "presidio":
        if fields != ["presidio"] or has_url:
            raise InputError(f"system {text!r}: the Presidio peer takes no fields: presidio")
        return SystemSpec(backend="presidio")
    want = 2 if backend == "local" else 3
    if len(positional) != want:
        shape = "local:MODE" if backend == "local" else f"{backend}:MODEL:MODE"
        raise InputError(f"system {text!r}: expected {shape}[:key=value...]")
    mode = positional[-1]
    if mode not in ("single", "tools"):
        raise InputError(f"system {text!r}: mode must be single or tools, not {mode!r}")
    values: dict[str, str] = {}
    for option in options:
        key, _, value = option.partition("=")
        if key not in OPTIONS - {"base_url"} or not value:
            raise InputError(f"system {text!r}: unknown option {option!r} (have: {', '.join(sorted(OPTIONS))})")
        values[key] = value
    checks = {"ocr": ("rapidocr", "tesseract"), "refine": ("ocr-snap",), "union": ("local",)}
    for key, allowed in checks.items():
        if key in values and values[key] not in allowed:
            raise InputError(f"system {text!r}: {key} must be one of {', '.join(allowed)}")
    if "retries" in values and not values["retries"].isdigit():
        raise InputError(f"system {text!r}: retries must be a whole number")
    if backend == "local" and set(values) - {"ocr"}:
        raise InputError(f"system {text!r}: the local backend takes only ocr=")
    if has_url:
        if backend == "local" or not base_url:
            raise InputError(f"system {text!r}: base_url= needs a URL, and only for openai or vllm")
        values["base_url"] = base_url
    return SystemSpec(
        backend=backend,  # type: ignore[arg-type]
        mode=mode,  # type: ignore[arg-type]
        model=positional[1] if backend != "local" else None,
        retries=int(values.pop("retries", "0")),
        **values,  # type: ignore[arg-type]
    )
