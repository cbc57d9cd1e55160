"""Scan and fax look by seeded parameters, with the gold kept exact.

Stamps and blotches go over the text, in an ink that darkens what it lies on (a scan shows black
print and black boxes under a stamp black; `synth.corpus` says where they are painted over it
instead); the page is skewed (up to 3 degrees) together with its item map, so each item's box is
re-measured from its rotated ink; then blur, sensor noise, fax-style binarisation and JPEG
artefacts. Ink boxes are taken before blur and noise, which only soften the glyphs they were
measured on; but an item that a fax threshold after blur has left as specks is no longer visible
(the annotation guidelines annotate every visible instance), and leaves the item map.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from redact_agent.synth.canvas import Canvas, font

PAPER = 200  # a finished page's tone at least this light reads as paper
VISIBLE = 0.2  # an item is visible while this share of its drawn ink is still darker than paper
STAMPS = ["PAID", "RECEIVED", "COPY", "APPROVED", "FILED", "CONFIDENTIAL"]


@dataclass(frozen=True)
class Noise:
    skew: float  # degrees
    blur: float  # Gaussian radius in px, 0 for none
    noise: float  # sigma of additive noise in grey levels
    jpeg: int | None  # quality of a JPEG round trip, None for none
    fax: bool  # binarise
    stamps: int
    blotches: int

    @classmethod
    def draw(cls, rng: random.Random) -> Noise:
        return cls(
            skew=rng.uniform(-3, 3) if rng.random() < 0.4 else 0.0,
            blur=rng.uniform(0.3, 1.2) if rng.random() < 0.35 else 0.0,
            noise=rng.uniform(2, 14) if rng.random() < 0.4 else 0.0,
            jpeg=rng.randint(30, 85) if rng.random() < 0.3 else None,
            fax=rng.random() < 0.12,
            stamps=rng.choice([0, 0, 0, 1, 2]),
            blotches=rng.choice([0, 0, 1, 3]),
        )

    def describe(self) -> str:
        return (
            f"skew {self.skew:.2f}; blur {self.blur:.2f}; noise {self.noise:.1f}; jpeg {self.jpeg or 'none'}; "
            f"fax {'yes' if self.fax else 'no'}; stamps {self.stamps}; blotches {self.blotches}"
        )


def skew_matrix(width: int, height: int, skew: float) -> NDArray[np.float64]:
    """The affine map that skews a page by `skew` degrees about its centre."""
    return np.asarray(cv2.getRotationMatrix2D((width / 2, height / 2), skew, 1.0))


def degrade(
    canvas: Canvas, noise: Noise, rng: random.Random, *, darken: bool
) -> tuple[Image.Image, NDArray[np.uint16]]:
    """The finished page image and its item map (both skewed alike). `darken`: stamps and
    blotches darken what they lie on, as ink and a stain do; else they are painted over it, as
    on the pages the OCR detection model is calibrated on (`synth.corpus`)."""
    image = canvas.image
    _marks(image, canvas, noise, rng, darken)
    items = canvas.items_map
    if noise.skew:
        h, w = items.shape
        m = skew_matrix(w, h, noise.skew)
        page = cv2.warpAffine(np.asarray(image), m, (w, h), flags=cv2.INTER_LINEAR, borderValue=255)
        items = np.asarray(cv2.warpAffine(items, m, (w, h), flags=cv2.INTER_NEAREST, borderValue=0), np.uint16)
        image = Image.fromarray(page)
    if noise.blur:
        image = image.filter(ImageFilter.GaussianBlur(noise.blur))
    if noise.noise:
        grain = np.random.default_rng(rng.getrandbits(64)).normal(0, noise.noise, (image.height, image.width))
        image = Image.fromarray(np.clip(np.asarray(image, dtype=np.float32) + grain, 0, 255).astype(np.uint8))
    if noise.fax:
        image = image.point(lambda v: 255 if v >= 150 else 0)
    if noise.jpeg:
        buf = io.BytesIO()
        image.save(buf, "JPEG", quality=noise.jpeg)
        image = Image.open(io.BytesIO(buf.getvalue())).convert("L")
    return image, _visible(image, items)


def _visible(image: Image.Image, items: NDArray[np.uint16]) -> NDArray[np.uint16]:
    """The item map less the items whose drawn ink the page no longer shows: fewer than VISIBLE
    of their pixels darker than PAPER (on the pages of a fax of a blurred small print, where
    whole lines are left as specks)."""
    inked = items.ravel() > 0
    labels = items.ravel()[inked]
    drawn = np.bincount(labels)
    shown = np.bincount(labels[np.asarray(image).ravel()[inked] < PAPER], minlength=drawn.size)  # a grey page
    gone = np.flatnonzero(shown < VISIBLE * drawn)
    gone = gone[gone > 0]
    return np.where(np.isin(items, gone), 0, items).astype(np.uint16) if gone.size else items


def _marks(image: Image.Image, canvas: Canvas, noise: Noise, rng: random.Random, darken: bool) -> None:
    """Rubber stamps (words only, in a light ink) and coffee-ring blotches over the page, drawn
    on it or, to darken it, on a layer of their own multiplied into it."""
    layer = Image.new("L", image.size, 255) if darken and (noise.stamps or noise.blotches) else image
    draw = ImageDraw.Draw(layer)
    w, h = image.size
    for _ in range(noise.stamps):
        f = font("sans", canvas.px * 3, bold=True)
        text = rng.choice(STAMPS)
        x, y = rng.randrange(w // 2), rng.randrange(h // 8, h - h // 8)
        draw.text((x, y), text, font=f, fill=rng.randint(110, 170))
        left, top, right, bottom = draw.textbbox((x, y), text, font=f)
        pad = canvas.px // 3
        draw.rectangle((left - pad, top - pad, right + pad, bottom + pad), outline=rng.randint(110, 170), width=3)
    for _ in range(noise.blotches):
        r = rng.randint(canvas.px, canvas.px * 5)
        x, y = rng.randrange(w), rng.randrange(h)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=rng.randint(150, 200), width=max(2, r // 6))
    if layer is not image:
        image.paste(ImageChops.multiply(image, layer))
