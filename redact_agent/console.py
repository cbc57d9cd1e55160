"""Lines for the person at the terminal, which must never cost the work.

`redact-agent DIR | head` closes standard output after a few lines; the pages are the point,
not the lines about them, so a closed pipe quietly sends the rest of stdout to /dev/null and
the batch goes on. Lines go through tqdm so that they print above a running progress bar.
"""

from __future__ import annotations

import os
import sys

from tqdm import tqdm


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that later writes and the final flush do not fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (a captured stream): nothing to redirect
        pass


def emit(text: str) -> None:
    """Print `text` on stdout; a reader that went away is not an error."""
    try:
        tqdm.write(text, file=sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()


def warn(text: str) -> None:
    """Print `text` on stderr (errors and notes), above any progress bar."""
    tqdm.write(text, file=sys.stderr)
