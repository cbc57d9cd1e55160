"""The VLM backend as a page finder for the main job, single-pass or tool-assisted.

It keeps the run's record per page (prompt name and sha256, the image size sent, the
transcript) beside the prediction page, so the job can write transcripts next to outputs.
In tools mode each page gets its own sandboxed kernel for `run_python` (from a warm pool)
when confinement works here; otherwise the model is not offered `run_python` at all.
A request that fails after its retries makes the page invalid with the reason (the batch goes
on); `BackendUnavailable` (a refused key or model) is left to stop the batch.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from PIL import Image

from redact_agent.agent.budgets import Budgets
from redact_agent.agent.client import ChatClient
from redact_agent.agent.loop import run_page
from redact_agent.agent.refine import snap_to_ocr, union
from redact_agent.errors import BackendError
from redact_agent.local.engine import LocalEngine
from redact_agent.local.ink import grey
from redact_agent.pages import Finding, PredictionPage
from redact_agent.prompts import DEFAULT_PROMPT
from redact_agent.protocol import PROTOCOL, Mode
from redact_agent.tools.confine import confinement_problem
from redact_agent.tools.ocr import get_engine
from redact_agent.tools.sandbox import KernelPool


class VlmFinder:
    def __init__(
        self,
        client: ChatClient,
        prompt: str = DEFAULT_PROMPT,
        mode: Mode = "single",
        budgets: Budgets | None = None,
        ocr: str = PROTOCOL.ocr,
        refine: bool = False,
        union_with: LocalEngine | None = None,
        retries_on_invalid: int = 0,
    ):
        """`ocr` is the engine behind the model's `ocr` tool, the kernel's `ocr()` and `refine`."""
        self.client, self.prompt, self.mode, self.budgets = client, prompt, mode, budgets or Budgets()
        self.ocr, self.union_with = ocr, union_with
        self.refine_with = get_engine(ocr) if refine else None
        self.retries_on_invalid = retries_on_invalid  # off by default: the protocol scores invalid as empty
        self._pool = KernelPool(warm=1) if mode == "tools" and confinement_problem() is None else None

    @property
    def name(self) -> str:
        extras = ("+ocr-snap" if self.refine_with else "") + ("+local" if self.union_with else "")
        return f"vlm:{self.mode}:{self.client.config.model}{extras}"

    def find_page(self, page_id: str, image: Image.Image) -> Finding:
        transcript: list[dict[str, Any]] = []
        images: dict[str, bytes] = {}
        deadline = time.monotonic() + self.budgets.seconds  # one wall-time limit for all attempts
        for attempt in range(1 + self.retries_on_invalid):
            try:
                run = run_page(
                    page_id,
                    image,
                    self.client,
                    self.mode,
                    self.prompt,
                    budgets=self.budgets,
                    sandbox=self._pool,
                    ocr=self.ocr,
                    attempt=attempt,
                    deadline=deadline,
                )
            except BackendError as exc:
                transcript.append({"attempt": attempt, "error": str(exc)})
                return Finding(PredictionPage.invalid(page_id, str(exc)), transcript, images)
            record: dict[str, Any] = {"model": self.client.config.parameters(), "mode": self.mode}
            record |= {"prompt": run.prompt_name, "prompt_sha256": run.prompt_sha256}
            record |= {
                "sent_size": list(run.sent_size),
                "attempt": attempt,
                "retries_on_invalid": self.retries_on_invalid,
            }
            transcript += [record, *run.transcript]
            images |= {f"a{attempt}-{name}": png for name, png in run.images.items()}
            if run.page.valid:
                break
        return Finding(self._post(run.page, image), transcript, images)

    def _post(self, page: PredictionPage, image: Image.Image) -> PredictionPage:
        """Refinement and union on a valid page; the model's own boxes stay in raw_predictions."""
        if not page.valid or (self.refine_with is None and self.union_with is None):
            return page
        final = page.predictions
        if self.refine_with is not None:
            final = snap_to_ocr(final, self.refine_with.words(image), grey(np.asarray(image)))
        if self.union_with is not None:
            final = union(final, self.union_with.predict(image))
        return page.model_copy(update={"predictions": final, "raw_predictions": page.predictions})

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
