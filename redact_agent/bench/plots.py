"""A run's plots (PNG, matplotlib Agg): leakage by group, the IoU sweep, missed critical items
per page, and per-type F1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from redact_agent.eval.results import Scores
from redact_agent.protocol import PROTOCOL


def plot_run(run_dir: Path, scores: Scores, sweep: list[dict[str, Any]], samples: list[dict[str, Any]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    name = run_dir.name
    groups = {g: v for g, v in scores["groups"].items() if v is not None}
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(list(groups), list(groups.values()), color="#b03a2e")
    ax.set(ylim=(0, 1), ylabel="share of pages leaking", title=f"Leakage by group: {name}")
    _save(fig, run_dir / "leakage_by_group.png")

    fig, ax = plt.subplots(figsize=(6, 3.5))
    taus = [r["tau"] for r in sweep]
    for key in ("f1_loc", "f1_type", "docleak_crit"):
        ax.plot(taus, [r[key] if r[key] is not None else float("nan") for r in sweep], marker="o", label=key)
    ax.axvline(PROTOCOL.tau, color="grey", linestyle=":")
    ax.set(xlabel="IoU threshold tau", ylim=(0, 1), title=f"IoU sweep: {name}")
    ax.legend()
    _save(fig, run_dir / "iou_sweep.png")

    fig, ax = plt.subplots(figsize=(6, 3.5))
    missed = [s["metrics"]["missed_crit"] for s in samples]
    ax.hist(missed, bins=range(0, max(missed, default=0) + 2), align="left", color="#1f618d")
    ax.set(xlabel="critical items missed on a page", ylabel="pages", title=f"Missed critical items: {name}")
    _save(fig, run_dir / "missed_critical.png")

    per_type = {t: c["f1"] for t, c in scores["per_type"].items() if c["f1"] is not None}
    fig, ax = plt.subplots(figsize=(6, 0.3 * len(per_type) + 1.2))
    ax.barh(list(per_type), list(per_type.values()), color="#117a65")
    ax.invert_yaxis()
    ax.set(xlim=(0, 1), xlabel=f"F1 (typed, tau {PROTOCOL.tau})", title=f"Per-type F1: {name}")
    _save(fig, run_dir / "per_type_f1.png")


def _save(fig: Any, path: Path) -> None:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
