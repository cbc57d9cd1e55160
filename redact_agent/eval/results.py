"""The scorer's results as typed records: every key a report, a run record or a plot reads is
declared here once, so that a misspelt key is a type error rather than a silent KeyError, and
the JSON written by `score --json` and `bench` keeps exactly these shapes."""

from __future__ import annotations

from typing import NotRequired, TypedDict


class CoreMetrics(TypedDict):
    """The paper's headline metrics (see `metrics.py` for their definitions)."""

    pages: int
    valid: float | None
    f1_loc: float | None
    f1_type: float | None
    docleak_all: float | None
    docleak_crit: float | None
    docleak_all_agnostic: float | None
    docleak_crit_agnostic: float | None
    groups: dict[str, float | None]


class TypeCounts(TypedDict):
    gold: int
    pred: int
    tp: int


class TypeFigures(TypeCounts):
    precision: float | None
    recall: float | None
    f1: float | None


class Severity(TypedDict):
    mean_missed: float | None
    median_missed: float | None
    p90_missed: float | None
    mean_proportion: float | None


class ValueAccuracy(TypedDict):
    pairs: int
    exact: float | None
    cer: float | None


class Supported(TypedDict):
    types: list[str]
    coverage_items: float | None
    coverage_critical: float | None
    f1_loc: float | None
    f1_type: float | None
    docleak_all: float | None
    docleak_crit: float | None


class Scores(CoreMetrics):
    """Everything scored at one tau."""

    tau: float
    severity: Severity
    exhaustive_pages: int
    non_exhaustive_pages: int
    missing_predictions: int
    unreadable_predictions: int
    docleak_crit_cover: float | None
    over_redaction: float | None
    failures: dict[str, int]
    value_accuracy: ValueAccuracy
    per_type: dict[str, TypeFigures]
    per_source: dict[str, CoreMetrics]
    supported: NotRequired[Supported]
    pq: NotRequired[CoreMetrics]
    clusters: NotRequired[dict[str, object]]  # eval.clusters.score_clusters
