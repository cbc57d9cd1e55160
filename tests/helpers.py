"""Builders for small gold and prediction pages used across the tests, a fast finder, and
slow pages for runs a test kills."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

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
        box = (1.0, 1.0, min(40.0, image.width - 1.0), min(20.0, image.height - 1.0))
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=[Prediction(type="DATE", bbox=box)]))

    def close(self) -> None:
        pass


def slow_pages(folder: Path, form: Path, n: int, rows: int = 6) -> None:
    """`n` pages p00.png... in `folder`, each `rows` copies of the `form` image marked with the
    page's number: pages that differ (the OCR caches what it has read by its pixels) and take
    long enough (about 0.35 s each here) that a run is still going when a test kills it."""
    folder.mkdir()
    with Image.open(form) as opened:
        piece = opened.convert("RGB")
    for k in range(n):
        image = Image.new("RGB", (piece.width, piece.height * rows), "white")
        for r in range(rows):
            image.paste(piece, (0, r * piece.height))
            ImageDraw.Draw(image).text((5, r * piece.height + 5), f"page {k} part {r}", fill="black")
        image.save(folder / f"p{k:02d}.png")
