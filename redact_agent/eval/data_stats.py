"""`redact-agent data stats DIR`: what a gold page set holds.

Counts by type, group, source and page type; items per page (critical too) with a histogram
and its CDF; and where items sit on the page, as density maps of all and of critical items in
normalised page coordinates (like LeakageBench's Figures 1 and 2). Plots are PNGs written with
matplotlib's Agg backend.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from redact_agent.pages import GoldPage, gold_paths, load_gold_page
from redact_agent.schema import Schema

GRID = 40  # cells a side in the density maps


@dataclass
class DataStats:
    pages: int = 0
    by_type: Counter[str] = field(default_factory=Counter)
    by_group: Counter[str] = field(default_factory=Counter)
    by_source: Counter[str] = field(default_factory=Counter)
    by_page_type: Counter[str] = field(default_factory=Counter)
    items_per_page: list[int] = field(default_factory=list)
    critical_per_page: list[int] = field(default_factory=list)
    density_all: np.ndarray = field(default_factory=lambda: np.zeros((GRID, GRID)))
    density_critical: np.ndarray = field(default_factory=lambda: np.zeros((GRID, GRID)))

    def summary(self) -> dict[str, Any]:
        items, crit = np.array(self.items_per_page), np.array(self.critical_per_page)
        return {
            "pages": self.pages,
            "items": int(items.sum()),
            "items_per_page": {"mean": float(items.mean()), "median": float(np.median(items)), "max": int(items.max())},
            "critical_per_page": {"mean": float(crit.mean()), "median": float(np.median(crit))},
            "by_group": dict(self.by_group.most_common()),
            "by_type": dict(self.by_type.most_common()),
            "by_source": dict(self.by_source.most_common()),
            "by_page_type": dict(self.by_page_type.most_common()),
        }


def page_type(page: GoldPage) -> str:
    """The kind of document: synthetic pages say it in their source (`synth-invoice`)."""
    return page.source.removeprefix("synth-")


def collect(data_dir: Path, schema: Schema) -> DataStats:
    stats = DataStats()
    for path in gold_paths(data_dir):
        page = load_gold_page(path, schema)
        stats.pages += 1
        stats.by_source[page.source] += 1
        stats.by_page_type[page_type(page)] += 1
        stats.items_per_page.append(len(page.annotations))
        stats.critical_per_page.append(sum(schema.is_critical(a.type) for a in page.annotations))
        for a in page.annotations:
            stats.by_type[a.type] += 1
            stats.by_group[a.group] += 1
            cx = (a.bbox[0] + a.bbox[2]) / 2 / page.width
            cy = (a.bbox[1] + a.bbox[3]) / 2 / page.height
            cell = min(GRID - 1, int(cy * GRID)), min(GRID - 1, int(cx * GRID))
            stats.density_all[cell] += 1
            if schema.is_critical(a.type):
                stats.density_critical[cell] += 1
    return stats


def plot(stats: DataStats, out: Path) -> list[Path]:
    """Writes items_per_page.png and density.png into `out`; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    fig, (hist, cdf) = plt.subplots(1, 2, figsize=(10, 4))
    for values, name in ((stats.items_per_page, "all items"), (stats.critical_per_page, "critical items")):
        v = np.sort(np.array(values))
        hist.hist(v, bins=range(0, int(v.max()) + 2), alpha=0.6, label=name)
        cdf.plot(v, np.arange(1, len(v) + 1) / len(v), label=name)
    hist.set(xlabel="items per page", ylabel="pages", title="Items per page")
    cdf.set(xlabel="items per page", ylabel="fraction of pages", title="CDF", ylim=(0, 1))
    hist.legend()
    cdf.legend()
    fig.tight_layout()
    per_page = out / "items_per_page.png"
    fig.savefig(per_page, dpi=100)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(9, 5.5))
    for ax, grid, name in ((axes[0], stats.density_all, "all items"), (axes[1], stats.density_critical, "critical")):
        image = ax.imshow(grid / max(1, stats.pages), cmap="viridis", extent=(0, 1, 1, 0))
        ax.set(title=f"Where {name} are (per page)", xlabel="x / width", ylabel="y / height")
        fig.colorbar(image, ax=ax, shrink=0.8)
    fig.tight_layout()
    density = out / "density.png"
    fig.savefig(density, dpi=100)
    plt.close(fig)
    return [per_page, density]


def render(stats: DataStats) -> str:
    s = stats.summary()
    ipp, cpp = s["items_per_page"], s["critical_per_page"]
    lines = [
        f"{s['pages']} pages, {s['items']} items: {ipp['mean']:.1f} a page (median {ipp['median']:.0f}, "
        f"max {ipp['max']}), {cpp['mean']:.1f} critical (median {cpp['median']:.0f})",
    ]
    for key in ("by_page_type", "by_source", "by_group", "by_type"):
        lines.append(f"{key.removeprefix('by_').replace('_', ' ')}:")
        lines += [f"  {k:<20} {v:>7}" for k, v in s[key].items()]
    return "\n".join(lines)
