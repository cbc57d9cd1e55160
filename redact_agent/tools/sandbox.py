"""`run_python`'s kernel: an IPython kernel inside the confinement of `confine.py`, one per page.

The kernel speaks over ZeroMQ IPC sockets in its scratch folder (TCP would sit in the
sandbox's own network namespace) and is interrupted by message, since signals do not cross
the namespaces. Each call has a wall-clock limit (interrupt, then restart) and caps on output
and images; a kernel that dies is restarted with its page. `KernelPool` keeps warm kernels so
a page never waits for a start, and never hands a used kernel to another page.
"""

from __future__ import annotations

import base64
import contextlib
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

from redact_agent.errors import RedactAgentError
from redact_agent.protocol import PROTOCOL
from redact_agent.tools.confine import (
    Limits,
    SandboxUnavailable,
    clean_env,
    confinement_problem,
    own,
    process_limit,
    rlimits,
    sandbox_command,
)

__all__ = ["ExecResult", "Kernel", "KernelPool", "Limits", "SandboxFailed", "SandboxPython", "SandboxUnavailable"]

_LAUNCHER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="redact-agent-sandbox")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
INTERRUPT_WAIT = 3.0  # seconds a kernel has to answer an interrupt


class SandboxFailed(RedactAgentError):
    """The sandboxed kernel could not start or died for a reason outside the user's code."""


@dataclass
class ExecResult:
    stdout: str = ""
    stderr: str = ""
    error: str | None = None
    images: list[bytes] = field(default_factory=list)  # PNG
    truncated: bool = False
    dropped_chars: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "stdout": self.stdout,
            "stderr": self.stderr,
            "error": self.error,
            "images": len(self.images),
            "truncated": self.truncated,
        }


class Kernel:
    """One confined IPython kernel with a page preloaded; restartable, single-threaded use."""

    def __init__(self, limits: Limits | None = None):
        problem = confinement_problem()
        if problem:
            raise SandboxUnavailable(f"run_python is disabled: {problem}")
        self.limits = limits or Limits()
        self._page: tuple[bytes, str, str] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._client: BlockingKernelClient | None = None
        self._scratch: str | None = None
        self.start()

    def start(self) -> None:
        self._scratch = tempfile.mkdtemp(prefix="redact-agent-sbx-")
        own(self._scratch)
        conn = os.path.join(self._scratch, "kernel.json")
        write_connection_file(conn, transport="ipc", ip=os.path.join(self._scratch, "ipc"))
        os.chmod(conn, 0o644)
        argv = [sys.executable, "-m", "ipykernel_launcher", "-f", conn, "--HistoryManager.enabled=False"]
        processes = process_limit(self.limits)
        # Spawned from one long-lived thread: bwrap's --die-with-parent follows the thread
        # that forked it, so a kernel started from a short-lived worker thread would be
        # killed when that thread ends.
        self._proc = _LAUNCHER.submit(
            subprocess.Popen,
            sandbox_command(self._scratch, argv),
            env=clean_env(self._scratch),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=lambda: rlimits(self.limits, processes),
            start_new_session=True,
        ).result()
        client = BlockingKernelClient(connection_file=conn)
        client.load_connection_file()
        client.start_channels()
        self._client = client
        try:
            client.wait_for_ready(timeout=self.limits.start_seconds)
        except RuntimeError as exc:
            self.shutdown()
            raise SandboxFailed(f"the sandboxed kernel did not start: {exc}") from None
        # the kernel sends no more of a call's output than the host needs to see a flood
        sends = self.limits.output_chars + self.limits.flood_chars + 1
        cap = f"import redact_agent.tools.kernel_env as _env\n_env.cap_output({sends})\ndel _env\n"
        self._run_boot(cap, "cap its output")
        if self._page is not None:
            self._boot(*self._page)

    def load_page(self, png: bytes, space: str = "grid999", ocr: str = PROTOCOL.ocr) -> None:
        """Preload a page (`page`, `W`, `H` and the helpers, `ocr()` reading with engine `ocr`);
        kept across restarts."""
        self._page = (png, space, ocr)
        self._boot(png, space, ocr)

    def _boot(self, png: bytes, space: str, ocr: str) -> None:
        assert self._scratch is not None
        path = os.path.join(self._scratch, "page.png")
        Path(path).write_bytes(png)
        os.chmod(path, 0o644)
        boot = (
            "import redact_agent.tools.kernel_env as _env\n"
            f"_env.load({path!r}, {space!r}, {ocr!r})\n"
            "from redact_agent.tools.kernel_env import *\n"
            "del _env\n"
        )
        self._run_boot(boot, "load the page")

    def _run_boot(self, code: str, what: str) -> None:
        """Run our own set-up code in the kernel; a failure shuts it down and raises."""
        result = self.execute(code)
        if result.error:
            self.shutdown()
            raise SandboxFailed(f"the sandboxed kernel could not {what}: {result.error}")

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def shutdown(self) -> None:
        if self._client is not None:
            self._client.stop_channels()
            self._client = None
        if self._proc is not None:
            if self._proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self._proc.pid, signal.SIGKILL)
            self._proc.wait()
            self._proc = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def restart(self) -> None:
        self.shutdown()
        self.start()

    def _interrupt(self) -> None:
        """Interrupt the running call, and wait for the kernel to say it sent itself the signal:
        it does so on its control thread, and a signal sent after the call ended by itself
        would land on the next call (killing it before its code ran: idle, with no error)."""
        assert self._client is not None
        request = self._client.session.msg("interrupt_request", {})
        self._client.control_channel.send(request)
        _awaited(self._client.control_channel.get_msg, lambda reply: _answers(reply, request["header"]["msg_id"]))

    def execute(self, code: str) -> ExecResult:
        """Run `code`; user errors come back in the result, a broken kernel is restarted."""
        if not self.alive() or self._client is None:
            self.restart()
        assert self._client is not None
        lim = self.limits
        result = ExecResult()
        # stop_on_error=False: after a call that raised (an interrupt's KeyboardInterrupt too) the
        # kernel would abort the requests that reach it before it stops aborting, answering them
        # idle with no output and no error: a call that silently did not run
        msg_id = self._client.execute(code, store_history=False, allow_stdin=False, stop_on_error=False)
        deadline = time.monotonic() + lim.call_seconds
        flood = False
        while True:
            remaining = deadline - time.monotonic()
            if (remaining <= 0 or flood) and self._finished(msg_id, result):
                return result  # it ended on its own: an interrupt now would hit the next call
            if remaining <= 0 or flood:
                why = "its output went past the cap" if flood else f"it ran past the {lim.call_seconds:g} s limit"
                result.error = f"execution stopped: {why}"
                if not self._wait_idle_after_interrupt(msg_id):
                    self.restart()
                    result.error += "; the kernel was restarted (state lost)"
                return result
            try:
                msg = self._client.get_iopub_msg(timeout=min(remaining, 0.5))
            except queue.Empty:
                if not self.alive():
                    self.restart()
                    result.error = "the kernel died (memory, process or CPU limit?) and was restarted (state lost)"
                    return result
                continue
            if not _answers(msg, msg_id):
                continue
            if self._take(msg, result):
                return result
            flood = result.dropped_chars > lim.flood_chars

    def _take(self, msg: dict[str, Any], result: ExecResult) -> bool:
        """Fold one iopub message into `result`; True when execution is over."""
        kind, content = msg["msg_type"], msg["content"]
        if kind == "status" and content.get("execution_state") == "idle":
            return True
        if kind == "stream":
            self._append(result, content.get("name", "stdout"), content.get("text", ""))
        elif kind in ("display_data", "execute_result"):
            data = content.get("data", {})
            if "image/png" in data:
                if len(result.images) < self.limits.images:
                    result.images.append(base64.b64decode(data["image/png"]))
                else:
                    result.truncated = True
            elif "text/plain" in data:
                self._append(result, "stdout", data["text/plain"] + "\n")
        elif kind == "error":
            trace = _ANSI.sub("", "\n".join(content.get("traceback", [])))
            result.error = f"{content.get('ename')}: {content.get('evalue')}\n{trace}"[-self.limits.output_chars :]
        return False

    def _append(self, result: ExecResult, stream: str, text: str) -> None:
        name = "stderr" if stream == "stderr" else "stdout"
        have = getattr(result, name)
        room = self.limits.output_chars - len(have)
        if len(text) > room:
            result.truncated = True
            result.dropped_chars += len(text) - max(room, 0)
            text = text[: max(room, 0)]
        setattr(result, name, have + text)

    def _finished(self, msg_id: str, result: ExecResult) -> bool:
        """Fold the messages already waiting into `result`; True when they say the call is over
        (a flood that ended by itself, its idle status queued behind its output)."""
        assert self._client is not None
        end = time.monotonic() + 0.5  # a flood that goes on never leaves the queue empty
        while time.monotonic() < end:
            try:
                msg = self._client.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                return False
            if _answers(msg, msg_id) and self._take(msg, result):
                return True
        return False

    def _wait_idle_after_interrupt(self, msg_id: str) -> bool:
        assert self._client is not None
        self._interrupt()
        return _awaited(
            self._client.get_iopub_msg,
            lambda msg: (
                _answers(msg, msg_id)
                and msg["msg_type"] == "status"
                and msg["content"].get("execution_state") == "idle"
            ),
        )


def _answers(msg: dict[str, Any], msg_id: str) -> bool:
    """Whether a kernel message answers the request `msg_id`."""
    return bool(msg["parent_header"].get("msg_id") == msg_id)


def _awaited(get: Callable[..., dict[str, Any]], wanted: Callable[[dict[str, Any]], bool]) -> bool:
    """Whether a message `wanted` comes on a kernel channel (`get`, polled) within `INTERRUPT_WAIT`."""
    end = time.monotonic() + INTERRUPT_WAIT
    while time.monotonic() < end:
        try:
            msg = get(timeout=0.2)
        except queue.Empty:
            continue
        if wanted(msg):
            return True
    return False


class KernelPool:
    """Warm, never-used kernels handed out one per page, so a page never waits for a start
    and never sees another page's state. A used kernel is shut down, not recycled."""

    def __init__(self, warm: int = 1, limits: Limits | None = None):
        self.limits = limits or Limits()
        self._ready: queue.Queue[Kernel | BaseException] = queue.Queue()
        self._lock = threading.Lock()
        self._pending = 0  # started or starting, not yet handed out
        self._closed = False
        with self._lock:
            for _ in range(warm):
                self._spawn()

    def _spawn(self) -> None:
        def start() -> None:
            try:
                self._ready.put(Kernel(self.limits))
            except BaseException as exc:  # handed to the caller of acquire()
                self._ready.put(exc)

        self._pending += 1
        threading.Thread(target=start, daemon=True).start()

    def acquire(self, page_png: bytes, space: str = "grid999", ocr: str = PROTOCOL.ocr) -> Kernel:
        """A fresh kernel with the page loaded; a replacement starts in the background."""
        with self._lock:
            if self._closed:
                raise SandboxFailed("the kernel pool is closed")
            self._spawn()
            self._pending -= 1
        got = self._ready.get(timeout=self.limits.start_seconds * 2)
        if isinstance(got, BaseException):
            raise got
        got.load_page(page_png, space, ocr)
        return got

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pending, self._pending = self._pending, 0
        for _ in range(pending):
            got = self._ready.get(timeout=self.limits.start_seconds * 2)
            if isinstance(got, Kernel):
                got.shutdown()


class SandboxPython:
    """`run_python` for one page: takes a kernel on first use, shuts it down on `close()`."""

    def __init__(self, pool: KernelPool, page_png: bytes, space: str = "grid999", ocr: str = PROTOCOL.ocr):
        self._pool, self._png, self._space, self._ocr = pool, page_png, space, ocr
        self._kernel: Kernel | None = None

    def execute(self, code: str) -> ExecResult:
        if self._kernel is None:
            self._kernel = self._pool.acquire(self._png, self._space, self._ocr)
        return self._kernel.execute(code)

    def close(self) -> None:
        if self._kernel is not None:
            self._kernel.shutdown()
            self._kernel = None
