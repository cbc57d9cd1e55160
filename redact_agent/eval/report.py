"""Plain-text rendering of scorer results: the paper's Table 3 columns, then the breakdowns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeAlias

from redact_agent.eval.results import Scores
from redact_agent.protocol import PROTOCOL
from redact_agent.schema import Schema
from redact_agent.tables import aligned, number


def _f(v: float | int | None, digits: int = 3) -> str:
    return number(v, digits, missing="n/a")


_Main: TypeAlias = Literal["f1_loc", "f1_type", "docleak_all", "docleak_crit", "valid"]
_MAIN: tuple[_Main, ...] = ("f1_loc", "f1_type", "docleak_all", "docleak_crit", "valid")
_MAIN_HEADER = ("F1loc", "F1type", "DocLeak_all", "DocLeak_crit", "Valid")


def render(results: Sequence[Scores], schema: Schema, orphans: Sequence[str] = ()) -> str:
    first = results[0]
    primary = next((r for r in results if abs(r["tau"] - PROTOCOL.tau) < 1e-9), first)
    lines = [
        f"{first['pages']} pages ({first['exhaustive_pages']} exhaustive, {first['non_exhaustive_pages']} "
        f"not: those count for leakage and recall only); {first['missing_predictions']} without a prediction file, "
        f"{first['unreadable_predictions']} with an unreadable one"
    ]
    if orphans:
        lines.append(f"{len(orphans)} prediction files have no gold page and were ignored: {', '.join(orphans[:5])}")
    rows = [[f"tau={_f(r['tau'], 2)}", *(_f(r[k]) for k in _MAIN)] for r in results]
    if "pq" in first:
        rows.append(["pq-match", *(_f(first["pq"][k]) for k in _MAIN)])
    lines += ["", *aligned(["", *_MAIN_HEADER], rows), ""]
    r = primary
    lines.append(f"At tau={_f(r['tau'], 2)}:")
    lines.append(
        f"  type-agnostic: DocLeak_all {_f(r['docleak_all_agnostic'])}, DocLeak_crit {_f(r['docleak_crit_agnostic'])}; "
        f"area cover: DocLeak_crit_cover {_f(r['docleak_crit_cover'])}; over-redaction {_f(r['over_redaction'])}"
    )
    lines.append("  leakage by group: " + ", ".join(f"{g} {_f(v)}" for g, v in r["groups"].items()))
    s = r["severity"]
    lines.append(
        f"  severity (critical): missed per leaking page mean {_f(s['mean_missed'], 2)}, median "
        f"{_f(s['median_missed'], 1)}, p90 {_f(s['p90_missed'], 1)}; mean proportion missed {_f(s['mean_proportion'])}"
    )
    lines.append("  leaked critical items by cause: " + ", ".join(f"{k} {v}" for k, v in r["failures"].items()))
    va = r["value_accuracy"]
    lines.append(f"  values on matched pairs: {va['pairs']} pairs, exact {_f(va['exact'])}, CER {_f(va['cer'])}")
    if "supported" in r:
        sp = r["supported"]
        lines.append(
            f"  supported types ({len(sp['types'])}): coverage {_f(sp['coverage_items'])} of items, "
            f"{_f(sp['coverage_critical'])} of critical; on them DocLeak_all {_f(sp['docleak_all'])}, "
            f"DocLeak_crit {_f(sp['docleak_crit'])}, F1type {_f(sp['f1_type'])}"
        )
    type_rows = [
        [
            t,
            schema.group_of(t),
            str(c["gold"]),
            str(c["pred"]),
            str(c["tp"]),
            _f(c["precision"]),
            _f(c["recall"]),
            _f(c["f1"]),
        ]
        for t, c in r["per_type"].items()
    ]
    lines += ["", *aligned(["type", "group", "gold", "pred", "tp", "P", "R", "F1"], type_rows)]
    if "clusters" in r:
        lines += ["", *_clusters(r["clusters"])]
    if len(r["per_source"]) > 1:
        src_rows = [[s, str(m["pages"]), *(_f(m[k]) for k in _MAIN)] for s, m in r["per_source"].items()]
        lines += ["", *aligned(["source", "pages", *_MAIN_HEADER], src_rows)]
    return "\n".join(lines)


def _clusters(block: Any) -> list[str]:
    """The clustering block: the system's entities and the two trivial baselines side by side."""
    rows = []
    for name, views in [("system", block), *block["baselines"].items()]:
        e2e, matched = views["end_to_end"], views["matched"]
        rows.append([
            name,
            *(_f(e2e[m][k]) for m in ("bcubed", "elm") for k in ("p", "r", "f1")),
            _f(matched["bcubed"]["f1"]),
            _f(matched["elm"]["f1"]),
        ])  # fmt: skip
    head = ["entities", "B3 P", "B3 R", "B3 F1", "ELM P", "ELM R", "ELM F1", "matched B3 F1", "matched ELM F1"]
    title = f"Entity clusters per {block['scope']} (gold entities {block['gold_entities']}; end to end, then matched):"
    repeats = block["critical_repeats"]
    found = f"critical items printed more than once: {repeats['repeated']}, missed where another mention was found: "
    found += f"{repeats['left']} ({repeats['left_uncovered']} of them not even covered)"
    return [title, *aligned(head, rows), found]
