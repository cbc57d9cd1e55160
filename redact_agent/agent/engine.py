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
from typing import Any, Literal

import numpy as np
from PIL import Image

from redact_agent.agent.budgets import Budgets
from redact_agent.agent.client import ChatClient
from redact_agent.agent.loop import run_tools
from redact_agent.agent.profiles import profile_for
from redact_agent.agent.refine import snap_to_ocr, union
from redact_agent.agent.single import PageRun, run_single
from redact_agent.errors import BackendError
from redact_agent.images import png_bytes
from redact_agent.local.engine import LocalEngine
from redact_agent.local.ink import grey
from redact_agent.pages import Finding, PredictionPage
from redact_agent.prompts import DEFAULT_PROMPT
from redact_agent.tools.confine import confinement_problem
from redact_agent.tools.ocr import OcrEngine
from redact_agent.tools.sandbox import KernelPool, SandboxPython


class VlmFinder:
    def __init__(
        self,
        client: ChatClient,
        prompt: str = DEFAULT_PROMPT,
        mode: Literal["single", "tools"] = "single",
        budgets: Budgets | None = None,
        refine_with: OcrEngine | None = None,
        union_with: LocalEngine | None = None,
        retries_on_invalid: int = 0,
    ):
        self.client, self.prompt, self.mode, self.budgets = client, prompt, mode, budgets or Budgets()
        self.refine_with, self.union_with = refine_with, union_with
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
                run = self._attempt(page_id, image, attempt, deadline)
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

    def _attempt(self, page_id: str, image: Image.Image, attempt: int, deadline: float) -> PageRun:
        if self.mode == "single":
            return run_single(
                page_id, image, self.client, self.prompt, attempt=attempt, budgets=self.budgets, deadline=deadline
            )
        profile = profile_for(self.client.config.model)
        sent_png = png_bytes(profile.prepare(image))
        python = SandboxPython(self._pool, sent_png, profile.coordinates) if self._pool else None
        try:
            return run_tools(
                page_id,
                image,
                self.client,
                self.prompt,
                profile,
                budgets=self.budgets,
                python=python,
                attempt=attempt,
                deadline=deadline,
            )
        finally:
            if python is not None:
                python.close()

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
