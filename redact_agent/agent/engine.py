"""The VLM backend as a page finder for the main job: single-pass redaction of each page.

It keeps the run's record per page (prompt name and sha256, the image size sent, the
transcript) beside the prediction page, so the job can write transcripts next to outputs.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from redact_agent.agent.client import ChatClient
from redact_agent.agent.single import run_single
from redact_agent.pages import PredictionPage
from redact_agent.prompts import DEFAULT_PROMPT


class VlmFinder:
    def __init__(self, client: ChatClient, prompt: str = DEFAULT_PROMPT):
        self.client = client
        self.prompt = prompt

    @property
    def name(self) -> str:
        return f"vlm:single:{self.client.config.model}"

    def find_page(self, page_id: str, image: Image.Image) -> tuple[PredictionPage, list[dict[str, Any]]]:
        run = run_single(page_id, image, self.client, self.prompt)
        record = {"prompt": run.prompt_name, "prompt_sha256": run.prompt_sha256, "sent_size": list(run.sent_size)}
        return run.page, [record, *run.transcript]
