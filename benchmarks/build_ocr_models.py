"""Build the RapidOCR models that the embedded engine ships, and check them against the wheel's.

Source: the PP-OCRv6 small detection and recognition models inside the installed `rapidocr`
wheel. Nothing is trained:
- Detection: static int8 quantisation (QDQ, opset 13: int8 weights per channel, uint8
  activations), with MinMax ranges calibrated on the tensors RapidOCR itself makes from
  synthetic pages (`redact_agent.synth`, seed 7; dev pages are never used). The stem and the
  head that draws the text-probability map stay float, since box edges come from that map.
- Recognition: the output layer keeps the Latin script, general punctuation, currency and
  letterlike symbols (the characters an English or Western European page uses), plus CTC's
  blank and the space: 591 of 18,710 classes, so the layer costs a fraction, and a line is never
  read as a CJK character. It stays float: int8 recognition, tried with MinMax, percentile
  and entropy ranges, changed about 0.5% of the characters on the dev pages and leaked more.

The check reads held-out synthetic pages (seed 8) with the wheel's models and with the built
ones and prints line agreement and seconds per page side by side. Writes into
redact_agent/tools/models/ the two models and `manifest.json` (source and output sha256,
versions, calibration). Run: python benchmarks/build_ocr_models.py [--pages 24] [--check 8]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime
import rapidocr
from onnx import numpy_helper, version_converter
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process
from PIL import Image
from rapidfuzz.distance import Levenshtein
from rapidocr.inference_engine.onnxruntime.main import OrtInferSession

from redact_agent.synth.corpus import pages_sha256, synthesise
from redact_agent.synth.profiles import BALANCED
from redact_agent.tools.ocr import MODELS_DIR, RAPID_PARAMS, RapidOcrEngine

SOURCE = Path(rapidocr.__file__).parent / "models"
SOURCES = {"det": SOURCE / "PP-OCRv6_det_small.onnx", "rec": SOURCE / "PP-OCRv6_rec_small.onnx"}
OUTPUTS = {"det": MODELS_DIR / "ppocrv6_det_small.int8.onnx", "rec": MODELS_DIR / "ppocrv6_rec_small.latin.onnx"}
CALIBRATION_SEED, CHECK_SEED = 7, 8
DET_FLOAT_NODES = ["Conv.0", "Conv.82", "ConvTranspose.0", "ConvTranspose.2"]  # the stem and the map head


def kept_character(c: str) -> bool:
    """Latin (to Latin Extended-B), general punctuation, currency and letterlike symbols."""
    o = ord(c)
    return o < 0x250 or 0x2000 <= o < 0x2070 or 0x20A0 <= o < 0x20D0 or 0x2100 <= o < 0x2150


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pages(seed: int, n: int, tmp: Path) -> tuple[list[np.ndarray], str]:
    """The synthetic pages, and their sha256 (`synth.corpus.pages_sha256`)."""
    out = tmp / f"synth-{seed}"
    ids = synthesise(out, n, seed, profile=BALANCED)
    return [np.asarray(Image.open(out / f"{i}.png").convert("RGB")) for i in ids], pages_sha256(out, ids)


def capture(images: list[np.ndarray]) -> list[np.ndarray]:
    """The exact tensors RapidOCR feeds its detection model (from the wheel's models)."""
    engine = rapidocr.RapidOCR(
        params={**RAPID_PARAMS, "Det.model_path": str(SOURCES["det"]), "Rec.model_path": str(SOURCES["rec"])}
    )
    seen: list[tuple[OrtInferSession, np.ndarray]] = []
    original = OrtInferSession.__call__

    def recording(self: OrtInferSession, x: np.ndarray) -> Any:
        seen.append((self, x.copy()))
        return original(self, x)

    OrtInferSession.__call__ = recording  # type: ignore[method-assign]
    try:
        for image in images:
            engine(image, return_word_box=True)
    finally:
        OrtInferSession.__call__ = original  # type: ignore[method-assign]
    return [x for s, x in seen if s is engine.text_det.session]


def prune_output_layer(model: onnx.ModelProto) -> int:
    """Keep CTC's blank (index 0), the kept characters and the trailing space; returns the class count."""
    meta = {p.key: p for p in model.metadata_props}
    characters = meta["character"].value.splitlines()
    keep = [0] + [i + 1 for i, c in enumerate(characters) if kept_character(c)] + [len(characters) + 1]
    softmax = next(n for n in model.graph.node if n.op_type == "Softmax" and n.output[0] == model.graph.output[0].name)
    add = next(n for n in model.graph.node if softmax.input[0] in n.output)
    add = next(n for n in model.graph.node if n.output[0] == add.input[0]) if add.op_type == "Identity" else add
    matmul = next(n for n in model.graph.node if n.output[0] == add.input[0])
    inits = {i.name: i for i in model.graph.initializer}
    for name in (matmul.input[1], add.input[1]):
        array = numpy_helper.to_array(inits[name])
        inits[name].CopyFrom(numpy_helper.from_array(np.ascontiguousarray(array[..., keep]), name))
    model.graph.output[0].type.tensor_type.shape.dim[2].dim_value = len(keep)
    stale = {*matmul.output, *add.output, *softmax.input}
    kept_info = [v for v in model.graph.value_info if v.name not in stale]
    del model.graph.value_info[:]
    model.graph.value_info.extend(kept_info)
    meta["character"].value = "\n".join(characters[i - 1] for i in keep[1:-1])
    return len(keep)


class Feed(CalibrationDataReader):
    """Calibration inputs, one range at a time (`CalibStridedMinMax`: every tensor of a page's
    network is kept per run, so ranges are merged run by run instead of holding all runs)."""

    def __init__(self, tensors: list[np.ndarray]) -> None:
        self._tensors = tensors
        self._it: Iterator[np.ndarray] = iter(())

    def __len__(self) -> int:
        return len(self._tensors)

    def set_range(self, start_index: int, end_index: int) -> None:
        self._it = iter(self._tensors[start_index:end_index])

    def get_next(self) -> dict[str, np.ndarray] | None:
        x = next(self._it, None)
        return None if x is None else {"x": x}


def build_det(tensors: list[np.ndarray], tmp: Path) -> dict[str, Any]:
    model = version_converter.convert_version(onnx.load(SOURCES["det"]), 13)
    missing = set(DET_FLOAT_NODES) - {n.name for n in model.graph.node}
    if missing:
        raise SystemExit(f"the detection model has changed: no nodes {sorted(missing)}")
    onnx.save(model, tmp / "det13.onnx")
    quant_pre_process(str(tmp / "det13.onnx"), str(tmp / "det-pre.onnx"), skip_symbolic_shape=True)
    quantize_static(
        str(tmp / "det-pre.onnx"),
        str(OUTPUTS["det"]),
        Feed(tensors),
        quant_format=QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        nodes_to_exclude=DET_FLOAT_NODES,
        extra_options={"CalibStridedMinMax": 1},
    )
    return {"calibration_tensors": len(tensors), "float_nodes": DET_FLOAT_NODES}


def build_rec() -> dict[str, Any]:
    model = onnx.load(SOURCES["rec"])
    classes = prune_output_layer(model)
    onnx.save(model, OUTPUTS["rec"])
    return {"classes": classes}


def check(images: list[np.ndarray]) -> None:
    """The wheel's models against the built ones on held-out pages: line agreement and seconds per page."""
    float_engine = rapidocr.RapidOCR(
        params={**RAPID_PARAMS, "Det.model_path": str(SOURCES["det"]), "Rec.model_path": str(SOURCES["rec"])}
    )
    built_engine = RapidOcrEngine()._engine
    runs: dict[str, tuple[list[Any], float]] = {}
    for name, engine in (("wheel", float_engine), ("built", built_engine)):
        engine(images[0], return_word_box=True)  # load before timing
        t = time.perf_counter()
        results = [engine(image, return_word_box=True) for image in images]
        runs[name] = (results, (time.perf_counter() - t) / len(images))
    lines = same = 0
    distance = chars = 0
    for a, b in zip(runs["wheel"][0], runs["built"][0], strict=True):
        text_a, text_b = "\n".join(a.txts or ()), "\n".join(b.txts or ())
        lines += len(a.txts or ())
        same += len(set(a.txts or ()) & set(b.txts or ()))
        distance += Levenshtein.distance(text_a, text_b)
        chars += len(text_a)
    print(f"{len(images)} held-out synthetic pages (seed {CHECK_SEED})")
    print(f"  wheel models: {runs['wheel'][1]:.2f} s/page   built models: {runs['built'][1]:.2f} s/page")
    print(f"  lines read identically: {same}/{lines}; character edit rate {distance / max(chars, 1):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=24, help="synthetic pages to calibrate on")
    parser.add_argument("--check", type=int, default=8, help="held-out synthetic pages to compare on")
    args = parser.parse_args()
    MODELS_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        images, digest = pages(CALIBRATION_SEED, args.pages, tmp)
        tensors = capture(images)
        print(f"quantising detection on {len(tensors)} tensors")
        det = build_det(tensors, tmp)
        rec = build_rec()
        manifest = {
            "rapidocr": metadata.version("rapidocr"),
            "onnxruntime": onnxruntime.__version__,
            "onnx": onnx.__version__,
            "calibration": {
                "pages": args.pages,
                "seed": CALIBRATION_SEED,
                "profile": BALANCED,
                "method": "minmax",
                "pages_sha256": digest,
            },
        }
        for task, info in (("det", det), ("rec", rec)):
            manifest[task] = {
                "source": SOURCES[task].name,
                "source_sha256": sha256(SOURCES[task]),
                "file": OUTPUTS[task].name,
                "sha256": sha256(OUTPUTS[task]),
                **info,
            }
        (MODELS_DIR / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
        check(pages(CHECK_SEED, args.check, tmp)[0])


if __name__ == "__main__":
    main()
