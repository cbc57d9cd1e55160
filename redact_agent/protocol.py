"""The run protocol: every constant that decides what a run's outputs and figures mean, in one
object, recorded (with its version) in every bench `run.json`.

The LeakageBench scoring rule (tau, the sweeps, the matching rule), the OCR engine that reads
pages for PII (the embedded engine, the model's `ocr` tool and the kernel's `ocr()` alike) and
the one that verifies a redacted page, and the margin painted around each box. Everything else
asks this object; changing a value is a new protocol version.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal, get_args

Mode = Literal["single", "tools"]  # one pass, or tool-assisted (zoomed re-reads, repeats; a VLM's tools)
MODES: tuple[Mode, ...] = get_args(Mode)
OcrName = Literal["rapidocr", "tesseract"]
OCR_ENGINES: tuple[OcrName, ...] = get_args(OcrName)


@dataclass(frozen=True)
class RunProtocol:
    version: str = "1"
    tau: float = 0.75  # IoU a prediction needs to match a gold item
    score_sweep: tuple[float, ...] = (0.50, 0.75, 0.95)  # `redact-agent score --sweep`
    plot_sweep: tuple[float, ...] = tuple(round(0.5 + 0.05 * i, 2) for i in range(10))  # bench: 0.50 ... 0.95
    matching: str = (
        "greedy one-to-one: pairs by descending IoU, ties by gold then prediction index; IoU >= tau within 1e-12"
    )
    ocr: OcrName = "rapidocr"  # reads pages for PII
    verify_ocr: OcrName = "tesseract"  # reads the redacted page again: a second reader, other blind spots
    margin: float = 2.0  # pixels painted around each box

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


PROTOCOL = RunProtocol()
