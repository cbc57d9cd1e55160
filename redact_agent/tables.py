"""Figures as text: one number format and the two table shapes every report uses (aligned
columns for the terminal, Markdown for report files)."""

from __future__ import annotations

from collections.abc import Sequence


def number(v: float | None, digits: int = 3, signed: bool = False, missing: str = "-") -> str:
    """A figure: integers as they are, floats to `digits` places, `missing` for None."""
    if v is None:
        return missing
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:+d}" if signed else str(v)
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def aligned(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to width: the first left-aligned, the others right-aligned."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return [fmt.format(*header), *(fmt.format(*r) for r in rows)]


def markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *("| " + " | ".join(r) + " |" for r in rows)]
