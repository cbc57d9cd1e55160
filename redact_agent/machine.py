"""What this machine gives a run: the cores the process may use (its CPU affinity, which a
container or `taskset` narrows, not the host's count), a process's peak memory, and worker
processes that end with their parent."""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys

_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def cores() -> int:
    return len(os.sched_getaffinity(0))


def peak_mb() -> float:
    """This process's peak resident memory so far, in MiB (Linux counts ru_maxrss in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def die_with_parent(parent: int) -> None:
    """End this process when its parent `parent` ends, however it ends (`kill -9` included): on
    Linux the kernel sends SIGKILL (prctl PR_SET_PDEATHSIG); elsewhere nothing is arranged."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent ended before the request took effect
        os._exit(1)
