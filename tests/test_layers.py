"""The house's layers, read from the code: every import (lazy ones inside functions too) goes to
the same layer or a lower one, and the package's import graph has no cycle."""

import ast
from pathlib import Path

import redact_agent

ROOT = Path(redact_agent.__file__).parent
# Bottom to top; a module's layer is that of its longest listed prefix.
LAYERS = [
    ["redact_agent", "errors", "schema", "boxes", "coords", "protocol", "pages", "images", "policy", "redact",
     "console", "tables", "prompts", "inputs", "manifest", "schemas", "linking", "machine"],
    ["eval", "synth"],
    ["tools"],
    ["local", "peers"],
    ["agent"],
    ["systems"],
    ["job", "run", "ray_run", "bench", "audit", "review", "qa"],
    ["cli", "commands", "__main__"],
]  # fmt: skip


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int:
    rest = module.split(".")[1:] or ["redact_agent"]
    for depth in range(len(rest), 0, -1):
        prefix = ".".join(rest[:depth])
        for level, names in enumerate(LAYERS):
            if prefix in names:
                return level
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        here = _module(path)
        found = graph.setdefault(here, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            found.update(n for n in names if n == "redact_agent" or n.startswith("redact_agent."))
    return graph


def test_every_import_looks_down_or_sideways():
    wrong = [
        f"{m} (layer {_layer(m)}) imports {t} (layer {_layer(t)})"
        for m, targets in _imports().items()
        for t in targets
        if _layer(t) > _layer(m)
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    imports = _imports()
    graph = {m: {t for t in ts if t in imports} for m, ts in imports.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if t == "redact_agent" or t == m:
                continue  # the package itself holds only the version
            assert state.get(t) != 1, "cycle: " + " -> ".join([*path, m, t])
            if t not in state:
                visit(t, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
