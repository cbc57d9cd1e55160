"""`redact-agent serve`: the `vllm serve` command that suits a model's profile.

vLLM is an optional extra (`pip install 'redact-agent[vllm]'`) and is never imported here:
the command is built from the profile (images per prompt, its tool-call parser where it has
native tool calls, its processor's pixel limits) and exec'd, or printed with `--dry-run`.
"""

from __future__ import annotations

import json
import os
import shutil

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


def serve(model: str, port: int, max_model_len: int, dry_run: bool) -> str:
    """Print (dry run) or exec the command; returns the command line for printing."""
    cmd = vllm_command(model, port, max_model_len)
    line = " ".join(f"'{c}'" if any(ch in c for ch in ' {}"') else c for c in cmd)
    if dry_run:
        return line
    if shutil.which("vllm") is None:
        raise RedactAgentError(
            "vllm is not installed here (it is an optional extra: pip install 'redact-agent[vllm]', on a GPU machine); "
            f"the command would be:\n  {line}"
        )
    os.execvp(cmd[0], cmd)  # replaces this process; never returns
