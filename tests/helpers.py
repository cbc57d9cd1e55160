"""Builders for small gold and prediction pages used across the tests, and a fast finder."""

from __future__ import annotations

from typing import Any

from redact_agent.pages import Finding, GoldPage, Prediction, PredictionPage
from redact_agent.schema import default_schema


def gold(
    page_id: str,
    items: list[tuple[str, list[float]] | tuple[str, list[float], str]],
    *,
    width: int = 100,
    height: int = 100,
    source: str = "test",
    exhaustive: bool = True,
) -> GoldPage:
    schema = default_schema()
    annotations: list[dict[str, Any]] = []
    for i, item in enumerate(items):
        t, box = item[0], item[1]
        ann: dict[str, Any] = {"id": f"a{i + 1}", "type": t, "group": schema.group_of(t), "bbox": box}
        if len(item) > 2:
            ann["value"] = item[2]
        annotations.append(ann)
    return GoldPage.model_validate(
        {
            "page_id": page_id,
            "image": f"{page_id}.png",
            "width": width,
            "height": height,
            "source": source,
            "exhaustive": exhaustive,
            "annotations": annotations,
        }
    )


def pred(
    page_id: str, items: list[tuple[str, list[float]] | tuple[str, list[float], str]], *, valid: bool = True
) -> PredictionPage:
    predictions = [{"type": it[0], "bbox": it[1], **({"value": it[2]} if len(it) > 2 else {})} for it in items]
    if not valid:
        return PredictionPage.invalid(page_id, "test: invalid output")
    return PredictionPage.model_validate({"page_id": page_id, "valid": True, "predictions": predictions})


class Corner:
    """A fast finder for the main job's plumbing: one box in the top-left corner of every page.
    Defined here, importable by name, so that worker processes and Ray actors can unpickle it."""

    name = "corner"

    def find_page(self, page_id: str, image: Any) -> Finding:
        box = (1.0, 1.0, 40.0, 20.0)
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=[Prediction(type="DATE", bbox=box)]))

    def close(self) -> None:
        pass
