"""`redact-agent synth OUT --profile redactions`: redacted pages, with each redaction's exact
region as gold, for the audit's detector.

A page of the corpus is drawn, then some of its PII values are redacted in one style per page,
as an office does: filled black or gray boxes, or an outline around the blanked value, half of
them with a code printed inside (Woo grounds "5.1.2e", FOIA "(b)(6)"); or felt-tip marker
strokes along one-line values. Some pages get none, and
some get look-alikes that are no redaction: a shaded header with its text, thick rules, a black
logo with its name in white, checkboxes. Then the page is degraded as the corpus's pages are
(stamps, skew, blur, noise, fax binarisation, JPEG); a skewed region's gold is the polygon its
corners are skewed to. On a fax page a gray box is drawn dark enough to stay (the threshold
would erase a light one), and its kind is then black. The canvas is grey, so no coloured box is
drawn. Gold: `{"page_id", "width", "height", "redactions": [{"bbox", "polygon"?, "kind",
"code"}]}`, the audit-score format.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from redact_agent.boxes import clip_polygon
from redact_agent.images import png_bytes
from redact_agent.schema import default_schema
from redact_agent.synth.canvas import Canvas, font
from redact_agent.synth.degrade import Noise, degrade, skew_matrix
from redact_agent.synth.pages import draw_page, ink_annotations

CODES = ["5.1.2e", "5.1.1c", "5.1.2i", "10.2.e", "11.1", "(b)(6)", "(b)(7)(C)", "(b)(4)"]
STYLES = {"black": 4, "gray": 2, "outline": 2, "marker": 1}  # how often a page takes each style
NONE_SHARE, LOOKALIKES_ONLY_SHARE = 0.15, 0.15
Box = tuple[int, int, int, int]


def _free(canvas: Canvas, box: Box, taken: list[Box]) -> bool:
    """Whether a box lies on the page, on blank paper, away from every box placed already."""
    x0, y0, x1, y1 = box
    if x0 < 0 or y0 < 0 or x1 >= canvas.width or y1 >= canvas.height:
        return False
    blank = bool(np.asarray(canvas.image)[y0:y1, x0:x1].min() == 255)
    return blank and not any(_touch(box, t) for t in taken)


def _touch(a: Box, b: Box, gap: int = 4) -> bool:
    return a[0] - gap < b[2] and b[0] - gap < a[2] and a[1] - gap < b[3] and b[1] - gap < a[3]


def _lookalikes(canvas: Canvas, rng: random.Random) -> list[Box]:
    """Things that are no redaction, each on blank paper: where they are (redactions keep off)."""
    draw = ImageDraw.Draw(canvas.image)
    px, w = canvas.px, canvas.width
    placed: list[Box] = []
    for kind in rng.sample(["header", "rule", "logo", "checkboxes"], rng.randint(1, 4)):
        for _ in range(30):
            x, y = rng.randrange(w // 10, w // 2), rng.randrange(canvas.height // 20, canvas.height * 9 // 10)
            size = {
                "header": (rng.randint(w // 3, w // 2), round(px * 1.8)),
                "rule": (rng.randint(w // 3, w * 3 // 4), rng.randint(4, 10)),
                "logo": (px * rng.randint(6, 10), px * rng.randint(2, 3)),
                "checkboxes": (px * 12, px),
            }[kind]
            box = (x, y, x + size[0], y + size[1])
            if _free(canvas, box, placed):
                break
        else:
            continue
        x0, y0, _, y1 = box
        if kind == "header":
            draw.rectangle(box, fill=rng.randint(190, 225))
            draw.text((x0 + px // 2, y0 + px // 3), "Description   Quantity   Amount", fill=0, font=canvas.font())
        elif kind == "rule":
            draw.rectangle(box, fill=canvas.ink)
        elif kind == "logo":
            draw.rectangle(box, fill=0)
            draw.text((x0 + px // 2, y0 + px // 2), rng.choice(["ACME", "WKRG-TV", "NORTHWIND"]), fill=255,
                      font=font("sans", round((y1 - y0) * 0.5), bold=True))  # fmt: skip
        else:
            for k in range(4):
                cx = x0 + k * 3 * px
                draw.rectangle((cx, y0, cx + px, y1), outline=0, width=max(1, px // 8))
                if rng.random() < 0.5:
                    draw.line((cx, y0, cx + px, y1), fill=0, width=max(1, px // 8))
        placed.append(box)
    return placed


def _code_text(draw: ImageDraw.ImageDraw, box: Box, code: str, fill: int) -> None:
    """The code centred in the box, as large as fits; nothing when it cannot fit."""
    x0, y0, x1, y1 = box
    size = max(6, round((y1 - y0) * 0.6))
    f = font("sans", size)
    left, top, right, bottom = draw.textbbox((0, 0), code, font=f)
    if right - left > 0.9 * (x1 - x0):
        return
    draw.text(((x0 + x1 - right - left) / 2, (y0 + y1 - bottom - top) / 2), code, fill=fill, font=f)


def _redact(canvas: Canvas, rng: random.Random, keep_off: list[Box], fax: bool) -> list[dict[str, Any]]:
    """Redacts some of the page's values in one style; returns each region unskewed."""
    style = rng.choices(list(STYLES), weights=list(STYLES.values()))[0]
    tone = rng.randint(100, 140) if fax else rng.randint(110, 200)  # a fax keeps what is darker than 150
    kind = "black" if style == "black" or (style == "gray" and fax) else style
    coded = rng.random() < 0.5
    share = rng.uniform(0.3, 0.9)
    draw = ImageDraw.Draw(canvas.image)
    items = ink_annotations(canvas.items, canvas.items_map, default_schema())
    regions: list[dict[str, Any]] = []
    taken = list(keep_off)
    for item in items:
        pad = rng.randint(2, max(3, canvas.px // 4))
        x0, y0, x1, y1 = item.bbox
        box = (
            max(0, round(x0) - pad),
            max(0, round(y0) - pad),
            min(canvas.width - 1, round(x1) + pad),
            min(canvas.height - 1, round(y1) + pad),
        )
        if rng.random() > share or any(_touch(box, t) for t in taken) or box[3] - box[1] < canvas.px // 2:
            continue
        if style == "marker":
            if "\n" not in (item.value or ""):  # a felt-tip stroke covers one line
                box = _marker(canvas, box, rng)
                taken.append(box)
                regions.append({"bbox": box, "kind": "marker", "code": None})
            continue
        code = rng.choice(CODES) if coded else None
        if style == "outline":
            draw.rectangle(box, fill=255, outline=canvas.ink, width=max(2, canvas.px // 10))
            if code is None:
                code = rng.choice(CODES)  # an outline around nothing is a blank field: it says why
        else:
            draw.rectangle(box, fill=0 if style == "black" else tone)
        if code is not None:
            _code_text(draw, box, code, 0 if style == "outline" or (style == "gray" and tone > 150) else 255)
        taken.append(box)
        regions.append({"bbox": box, "kind": kind, "code": code})
    return regions


def _marker(canvas: Canvas, box: Box, rng: random.Random) -> Box:
    """A felt-tip stroke along a line of text, as wide as the line, wavering, with round ends;
    returns the box of the ink it laid."""
    x0, y0, x1, y1 = box
    width = y1 - y0
    # drawn on a layer around the box (the stroke wavers past it by a little), then pasted
    ox, oy = max(0, x0 - width), max(0, y0 - width)
    layer = Image.new("L", (min(canvas.width, x1 + width) - ox, min(canvas.height, y1 + width) - oy), 0)
    draw = ImageDraw.Draw(layer)
    start, end = x0 + width // 2, max(x0 + width // 2, x1 - width // 2)  # the round ends reach x0 and x1
    mid = (y0 + y1) / 2
    points = [(x - ox, mid - oy + rng.uniform(-0.08, 0.08) * width) for x in [*range(start, end, max(4, width)), end]]
    draw.line(points, fill=255, width=width, joint="curve")
    for x, y in (points[0], points[-1]):
        draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=255)
    ink = np.asarray(layer) >= 128
    ys, xs = np.nonzero(ink)
    canvas.image.paste(rng.randint(0, 50), (ox, oy), mask=Image.fromarray((ink * 255).astype(np.uint8)))
    return (ox + int(xs.min()), oy + int(ys.min()), ox + int(xs.max()), oy + int(ys.max()))


def _skewed(box: tuple[float, float, float, float], matrix: Any, width: int, height: int) -> dict[str, Any]:
    """A box's region after the page is skewed: its corners' polygon, as much of it as stays on the
    page, and the box around that."""
    x0, y0, x1, y1 = box
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], dtype=float) @ matrix.T
    page = [(0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height))]
    polygon = clip_polygon([(float(x), float(y)) for x, y in corners], page)
    xs, ys = [x for x, _ in polygon], [y for _, y in polygon]
    return {
        "bbox": [max(0.0, min(xs)), max(0.0, min(ys)), min(float(width), max(xs)), min(float(height), max(ys))],
        "polygon": [[round(x, 2), round(y, 2)] for x, y in polygon],
    }


def render_redaction_page(seed: int, index: int, page_type: str, *, darken: bool) -> tuple[dict[str, Any], bytes]:
    rng = random.Random(f"{seed}:{index}:redactions")
    page_id = f"synth-redactions-s{seed}-{index:05d}"
    canvas, _ = draw_page(rng, page_type)
    noise = Noise.draw(rng)
    roll = rng.random()
    redacted = roll >= NONE_SHARE + LOOKALIKES_ONLY_SHARE
    keep_off = _lookalikes(canvas, rng) if roll >= NONE_SHARE and (not redacted or rng.random() < 0.5) else []
    drawn = _redact(canvas, rng, keep_off, noise.fax) if redacted else []
    image, _ = degrade(canvas, noise, rng, darken=darken)
    matrix = skew_matrix(canvas.width, canvas.height, noise.skew) if noise.skew else None
    regions = []
    for r in drawn:
        x0, y0, x1, y1 = r.pop("bbox")
        box = (float(x0), float(y0), float(x1 + 1), float(y1 + 1))  # the last pixel drawn is inside
        where = _skewed(box, matrix, canvas.width, canvas.height) if matrix is not None else {"bbox": list(box)}
        regions.append({**where, **r})
    gold = {"page_id": page_id, "image": f"{page_id}.png", "width": canvas.width, "height": canvas.height,
            "redactions": regions}  # fmt: skip
    return gold, png_bytes(image, compress_level=3)
