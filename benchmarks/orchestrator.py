"""Orchestrator overhead and throughput of the VLM path against the scripted server.

The scripted OpenAI-compatible server answers every request after a fixed artificial latency
(default 0.5 s) with a small valid answer. For concurrency 1, 4 and 16 this prints pages/s
and, at concurrency 1, the orchestrator's overhead per page (wall time per page minus the
server's latency): image encoding, the `openai` client, validation and the job's writes, with
the verification OCR excluded (`--verify` adds it back). A test double: no model result.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageDraw

from redact_agent.agent.client import ChatClient, ModelConfig
from redact_agent.agent.engine import VlmFinder
from redact_agent.agent.scripted import ScriptedServer, Step
from redact_agent.job import Job
from redact_agent.local.engine import LocalEngine
from redact_agent.run import Threads, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=32)
    parser.add_argument("--latency", type=float, default=0.5)
    parser.add_argument("--verify", action="store_true", help="include the Tesseract verification pass")
    args = parser.parse_args()
    answer = json.dumps({"entities": [{"type": "DATE", "box_2d": [100, 100, 300, 130]}]})
    with tempfile.TemporaryDirectory() as tmp:
        inputs = []
        for i in range(args.pages):
            img = Image.new("RGB", (1275, 1650), "white")
            ImageDraw.Draw(img).text((100, 100 + i), f"page {i}", fill="black")
            inputs.append(str(Path(tmp, f"p{i:03d}.png")))
            img.save(inputs[-1])
        verifier = LocalEngine(ocr="tesseract") if args.verify else None
        verify = "on" if args.verify else "off"
        print(f"{args.pages} pages of 1275x1650, server latency {args.latency} s, verification {verify}")
        for concurrency in (1, 4, 16):
            with ScriptedServer([Step(answer)], latency_s=args.latency, repeat_last=True) as server:
                client = ChatClient(ModelConfig(model="scripted", base_urls=(server.url,)))
                job = Job(VlmFinder(client), verifier, Path(tmp, f"out{concurrency}"), 2.0)
                t0 = time.perf_counter()
                code = run(job, inputs, Threads(concurrency))
                wall = time.perf_counter() - t0
            assert code == 0
            line = f"concurrency {concurrency:>2}: {args.pages / wall:6.2f} pages/s"
            if concurrency == 1:
                line += f", overhead {wall / args.pages - args.latency:6.3f} s/page beyond the latency"
            print(line, flush=True)


if __name__ == "__main__":
    main()
