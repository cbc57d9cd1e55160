"""`redact-agent serve`: the `vllm serve` command that suits a model's profile.

vLLM is an optional extra (`pip install 'redact-agent[vllm]'`) and is never imported here:
the command is built from the profile (images per prompt, its tool-call parser where it has
native tool calls, its processor's pixel limits) and exec'd, or printed with `--dry-run`.
With several replicas it only prints how to start them: one server per GPU on its own port,
which the main job's repeated `--base-url` spreads the requests over, or one server of N
data-parallel ranks (`--data-parallel-size`) that balances them itself.
"""

from __future__ import annotations

import json
import os
import shutil

from redact_agent.agent.client import ModelConfig
from redact_agent.agent.profiles import profile_for
from redact_agent.errors import RedactAgentError


def vllm_command(model: str, port: int = 8000, max_model_len: int = 32768) -> list[str]:
    profile = profile_for(model)
    cmd = ["vllm", "serve", model, "--port", str(port), "--max-model-len", str(max_model_len)]
    cmd += ["--limit-mm-per-prompt", json.dumps({"image": profile.images_per_request})]
    if profile.vllm_tool_parser is not None:
        cmd += ["--enable-auto-tool-choice", "--tool-call-parser", profile.vllm_tool_parser]
    if profile.vllm_pixels is not None:
        low, high = profile.vllm_pixels
        cmd += ["--mm-processor-kwargs", json.dumps({"min_pixels": low, "max_pixels": high})]
    return cmd


def _line(cmd: list[str]) -> str:
    return " ".join(f"'{c}'" if any(ch in c for ch in ' {}"') else c for c in cmd)


def replicas_howto(model: str, port: int, max_model_len: int, replicas: int) -> str:
    """How to serve `model` on `replicas` GPUs of one machine, both ways."""
    lines = [f"# {replicas} replicas of {model}, one per GPU, each its own server (no router needed):"]
    urls = []
    for k in range(replicas):
        lines.append(f"CUDA_VISIBLE_DEVICES={k} {_line(vllm_command(model, port + k, max_model_len))} &")
        urls.append(f"--base-url http://localhost:{port + k}/v1")
    lines += [
        "# then spread the pages over them (each request goes to the least busy replica that is up):",
        f"redact-agent INPUT... --backend vllm --model {model} {' '.join(urls)}"
        f" --concurrency {ModelConfig.per_replica * replicas}",
        f"# or one server whose {replicas} data-parallel ranks balance the requests themselves:",
        f"{_line(vllm_command(model, port, max_model_len))} --data-parallel-size {replicas}",
    ]
    return "\n".join(lines)


def serve(model: str, port: int, max_model_len: int, dry_run: bool, replicas: int = 1) -> str:
    """Print (dry run, or several replicas) or exec the command; returns what to print."""
    if replicas > 1:
        return replicas_howto(model, port, max_model_len, replicas)
    cmd = vllm_command(model, port, max_model_len)
    line = _line(cmd)
    if dry_run:
        return line
    if shutil.which("vllm") is None:
        raise RedactAgentError(
            "vllm is not installed here (it is an optional extra: pip install 'redact-agent[vllm]', on a GPU machine); "
            f"the command would be:\n  {line}"
        )
    os.execvp(cmd[0], cmd)  # replaces this process; never returns
