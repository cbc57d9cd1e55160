"""`redact-agent audit`: the redactions of every page of images, PDFs and directories, and the
ones that do not hold.

Per page, `OUT/<page_id>.audit.json` (the regions, with kind, printed code and score; the
findings, which a PDF's own content gives (`audit.pdf`); the share of the page's text area the
regions cover) and `OUT/<page_id>.audit.png` (the page with each region outlined and its code
written beside it, each finding in red); for the run, `OUT/audit.md` and, with `--json`, the same
summary as JSON. One line per page. The exit status is 1 when a page has a finding, and 2 when
a file could not be read (it is named, and the others go on).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw
from tqdm import tqdm

from redact_agent.audit import detect
from redact_agent.audit.pdf import Finding, PdfLayer
from redact_agent.audit.regions import Region
from redact_agent.audit.shapes import PAPER
from redact_agent.console import emit, warn
from redact_agent.errors import InputError
from redact_agent.images import png_bytes
from redact_agent.inputs import collect
from redact_agent.protocol import PROTOCOL
from redact_agent.redact import write_atomic
from redact_agent.tables import markdown, number
from redact_agent.tools.ocr import get_engine

OUTLINE = (230, 0, 120)
FINDING = (255, 0, 0)


def _text_area(page: Image.Image) -> float:
    """The area of the box around everything printed on the page (its paper margins left out)."""
    ink = np.asarray(page.convert("L")) < PAPER
    ys, xs = np.nonzero(ink)
    return float((xs.max() - xs.min() + 1) * (ys.max() - ys.min() + 1)) if len(xs) else 0.0


def audit_json(page_id: str, page: Image.Image, regions: list[Region], findings: list[Finding]) -> dict[str, Any]:
    area = _text_area(page)
    covered = sum(r.area for r in regions)
    return {
        "page_id": page_id,
        "width": page.width,
        "height": page.height,
        "redactions": [_region_json(r) for r in regions],
        "findings": [f.as_json() for f in findings],
        "redacted_area": round(covered / area, 4) if area else 0.0,
    }


def _region_json(r: Region) -> dict[str, Any]:
    turned = {"polygon": [[round(x, 1), round(y, 1)] for x, y in r.polygon]} if r.polygon else {}
    return {"bbox": list(r.bbox), **turned, "kind": r.kind, "code": r.code, "score": r.score}


def overlay(page: Image.Image, regions: list[Region], findings: list[Finding]) -> Image.Image:
    out = page.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    width = max(2, round(page.height / 700))
    for r in regions:
        if r.polygon:
            draw.polygon(r.polygon, outline=OUTLINE, width=width)
        else:
            draw.rectangle(r.bbox, outline=OUTLINE, width=width)
        draw.text((r.bbox[0], max(0, r.bbox[1] - 12)), r.code or r.kind or "", fill=OUTLINE)
    for f in findings:
        draw.rectangle(f.bbox, outline=FINDING, width=2 * width)
        draw.text((f.bbox[0], f.bbox[3] + 2), f"{f.kind}: {f.chars} chars", fill=FINDING)
    return out


def _summary(audits: list[dict[str, Any]], errors: list[str]) -> dict[str, Any]:
    codes = Counter(r["code"] for a in audits for r in a["redactions"] if r["code"])
    kinds = Counter(r["kind"] for a in audits for r in a["redactions"])
    shares = [a["redacted_area"] for a in audits]
    return {
        "pages": len(audits),
        "regions": sum(len(a["redactions"]) for a in audits),
        "pages_with_redactions": sum(bool(a["redactions"]) for a in audits),
        "redacted_area_mean": round(sum(shares) / len(shares), 4) if shares else None,
        "kinds": dict(kinds.most_common()),
        "codes": dict(codes.most_common()),
        "findings": dict(Counter(f["kind"] for a in audits for f in a["findings"]).most_common()),
        "pages_with_findings": [a["page_id"] for a in audits if a["findings"]],
        "errors": errors,
    }


def _markdown(summary: dict[str, Any], audits: list[dict[str, Any]]) -> str:
    lines = [
        "# Audit",
        "",
        f"{summary['pages']} pages, {summary['regions']} redactions on {summary['pages_with_redactions']} of them; "
        f"mean share of the text area redacted {number(summary['redacted_area_mean'])}.",
        "",
    ]
    lines += markdown(["page", "redactions", "share redacted", "codes"], [
        [a["page_id"], str(len(a["redactions"])), number(a["redacted_area"]),
         ", ".join(sorted({r["code"] for r in a["redactions"] if r["code"]})) or "-"]
        for a in audits
    ])  # fmt: skip
    findings = [(a["page_id"], f) for a in audits for f in a["findings"]]
    if findings:
        lines += [
            "",
            "## Findings: redactions that do not hold",
            "",
            *markdown(["page", "finding", "characters", "box", "text"], [
                [page_id, f["kind"], str(f["chars"]), ", ".join(str(round(v)) for v in f["bbox"]),
                 f["text"] if f["text"] is not None else "(hidden; --show-text)"]
                for page_id, f in findings
            ]),
        ]  # fmt: skip
    if summary["codes"]:
        lines += [
            "",
            "## Codes",
            "",
            *markdown(["code", "regions"], [[c, str(n)] for c, n in summary["codes"].items()]),
        ]
    if summary["errors"]:
        lines += ["", "## Not read", "", *(f"- {e}" for e in summary["errors"])]
    return "\n".join(lines) + "\n"


def run(inputs: list[str], out: Path, json_path: Path | None, show_text: bool = False) -> int:
    found = collect(inputs)
    errors = list(found.errors)
    for note in found.skip_notes():
        warn(f"skipped {note}")
    ocr = get_engine(PROTOCOL.ocr)
    audits = []
    with tqdm(total=len(found.documents), unit="file", disable=None) as bar:
        for doc in found.documents:
            layer = PdfLayer(doc.path) if doc.is_pdf else None
            try:
                for index, page in enumerate(doc.pages()):
                    regions = detect.find(page.image, ocr)
                    findings = layer.findings(index, page.image.size, regions, show_text) if layer else []
                    audit = audit_json(page.page_id, page.image, regions, findings)
                    folder, name = out / doc.subdir, page.page_id
                    write_atomic(folder / f"{name}.audit.json", (json.dumps(audit, indent=2) + "\n").encode())
                    write_atomic(folder / f"{name}.audit.png", png_bytes(overlay(page.image, regions, findings)))
                    audits.append(audit)
                    emit(_line(audit))
            except InputError as exc:
                errors.append(str(exc))
                warn(f"error: {exc}")
            finally:
                if layer is not None:
                    layer.close()
            bar.update()
    summary = _summary(audits, errors)
    write_atomic(out / "audit.md", _markdown(summary, audits).encode())
    if json_path is not None:
        write_atomic(json_path, (json.dumps(summary, indent=2) + "\n").encode())
    held = f"redactions that do not hold on {len(summary['pages_with_findings'])}"
    emit(f"{summary['pages']} pages, {summary['regions']} redactions, {held}: {out / 'audit.md'}")
    return 2 if errors else 1 if summary["pages_with_findings"] else 0


def _line(audit: dict[str, Any]) -> str:
    codes = Counter(r["code"] for r in audit["redactions"] if r["code"])
    hidden = sum(f["chars"] for f in audit["findings"])
    return (
        f"{audit['page_id']}: {len(audit['redactions'])} redactions, {audit['redacted_area']:.1%} of the text area"
        + (f", codes {dict(codes)}" if codes else "")
        + (f"; {len(audit['findings'])} findings, {hidden} characters readable under them" if audit["findings"] else "")
    )
