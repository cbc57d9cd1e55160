"""Our own redactions of the real dev pages, audited: every group of boxes we painted is found
(boxes that touch are one group), and a region off them is one the page itself shows before it
is redacted (a false region of the detector's, measured on its own as false regions per page).
Skipped where ../shared is absent."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from redact_agent.audit import detect
from redact_agent.protocol import PROTOCOL
from redact_agent.redact import redact
from redact_agent.tools.ocr import get_engine

DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev" / "vrdu"
pytestmark = pytest.mark.skipif(not DEV.is_dir(), reason="../shared/data/dev/vrdu is not here")


def _groups(boxes: list[list[float]], shape: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """The painted groups: each box grown by the redaction margin, touching ones merged."""
    painted = np.zeros(shape, np.uint8)
    m = PROTOCOL.margin
    for x0, y0, x1, y1 in boxes:
        painted[max(0, int(y0 - m)) : int(np.ceil(y1 + m)), max(0, int(x0 - m)) : int(np.ceil(x1 + m))] = 1
    n, _, stats, _ = cv2.connectedComponentsWithStats(painted, connectivity=4)
    return [(x, y, x + w, y + h) for x, y, w, h, _ in stats[1:n]]


def test_every_box_we_painted_on_the_dev_pages_is_found():
    ocr = get_engine()
    missed, off = [], []
    for gold in sorted(DEV.glob("*.json")):
        page = json.loads(gold.read_text())
        boxes = [a["bbox"] for a in page["annotations"]]
        image = Image.open(DEV / page["image"]).convert("RGB")
        groups = _groups(boxes, (image.height, image.width))
        found = detect.find(redact(image, boxes), ocr)
        for g in groups:
            x0, y0, x1, y1 = g
            if not any(
                b[0] <= x0 + 1 and b[1] <= y0 + 1 and b[2] >= x1 - 1 and b[3] >= y1 - 1 for b in (r.bbox for r in found)
            ):
                missed.append((page["page_id"], g))
        before = [r.bbox for r in detect.find(image, ocr)]
        for r in found:
            on = any(r.bbox[0] < g[2] and r.bbox[2] > g[0] and r.bbox[1] < g[3] and r.bbox[3] > g[1] for g in groups)
            if not on and r.bbox not in before:
                off.append((page["page_id"], r.bbox))
    assert missed == [] and off == []
