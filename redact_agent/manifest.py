"""The batch manifest: one JSON line per page of a run, appended as each page ends.

`OUT/manifest.jsonl` says, for every page, where it came from, whether it succeeded, how long
it took, what was found, and under which configuration (a hash of everything that changes the
outputs, the package version included). A run killed at any moment leaves at most a torn last
line, which is dropped on reading; `--resume` then skips each page whose line says it
succeeded under the same configuration and whose outputs are present, so a rerun redoes only
what was not finished and never mixes two configurations. `OUT/summary.md` is written at the
end of every run.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from redact_agent.console import warn
from redact_agent.redact import write_atomic

MANIFEST = "manifest.jsonl"
SUMMARY = "summary.md"


def config_hash(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Entry:
    page: str  # the page's outputs, relative to the output folder, without suffix: "sub/doc-p3"
    source: str
    status: str  # "ok" or "failed"
    seconds: float
    items: int
    groups: dict[str, int]  # items by schema group
    residual: int | None  # None: not verified
    config: str
    version: str
    error: str | None = None
    process: int | None = None  # the pid of the process that did the page
    peak_mb: float | None = None  # that process's peak resident memory so far, in MiB


class Manifest:
    """The manifest of one output folder; `record` may be called from several threads, and from
    several processes (each gets a copy: a line is one appending write, which the system keeps
    whole)."""

    def __init__(self, out_dir: Path, resume: bool):
        self.out_dir = out_dir
        self.path = out_dir / MANIFEST
        self._lock = threading.Lock()
        self._broken = False  # said once: the pages go on, a resume redoes them
        self.earlier: dict[str, Entry] = {}
        if resume:
            self.earlier = self.entries()
            self._rewrite(self.earlier)
        else:
            self.path.unlink(missing_ok=True)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, _lock=threading.Lock())

    def entries(self) -> dict[str, Entry]:
        """The last line of each page in the file as it is now (a torn line is left out)."""
        return read_entries(self.out_dir)

    def _rewrite(self, entries: dict[str, Entry]) -> None:
        """Keep the last line of each page only, and no torn line for later appends to follow."""
        lines = "".join(json.dumps(asdict(e)) + "\n" for e in entries.values())
        write_atomic(self.path, lines.encode())

    def finished(self, page: str, config: str) -> Entry | None:
        """The earlier entry of a page that succeeded under `config`, if there is one."""
        entry = self.earlier.get(page)
        return entry if entry is not None and entry.status == "ok" and entry.config == config else None

    def record(self, entry: Entry) -> None:
        line = json.dumps(asdict(entry)) + "\n"
        with self._lock:
            try:
                self.out_dir.mkdir(parents=True, exist_ok=True)  # a failure may be the first thing recorded
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(line)
                    fh.flush()
                    os.fsync(fh.fileno())
            except OSError as exc:
                if not self._broken:
                    why = exc.strerror or exc
                    warn(f"redact-agent: error: cannot write {self.path}: {why} (a resume redoes its pages)")
                self._broken = True


def read_entries(out_dir: Path) -> dict[str, Entry]:
    """The last line of each page in a folder's manifest, read only (a torn line is left out)."""
    path = out_dir / MANIFEST
    if not path.exists():
        return {}
    entries: dict[str, Entry] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = Entry(**json.loads(line))
        except (json.JSONDecodeError, TypeError):
            continue  # a line torn by a kill
        entries[entry.page] = entry
    return entries


def peak_memory(entries: list[Entry]) -> dict[int, float]:
    """Each process's peak resident memory in MiB, from the pages it did."""
    peaks: dict[int, float] = {}
    for e in entries:
        if e.process is not None and e.peak_mb is not None:
            peaks[e.process] = max(peaks.get(e.process, 0.0), e.peak_mb)
    return peaks


def write_summary(out_dir: Path, entries: list[Entry], config: dict[str, Any], wall: float) -> None:
    """`wall`: the run's seconds, start-up included."""
    ok = [e for e in entries if e.status == "ok"]
    failed = [e for e in entries if e.status != "ok"]
    residual = [e for e in ok if e.residual]
    seconds = sum(e.seconds for e in entries)
    peaks = peak_memory(entries)
    lines = [
        "# Redaction run",
        "",
        f"- pages: {len(entries)}; redacted: {len(ok)}; failed: {len(failed)}; with residual findings: {len(residual)}",
        f"- items redacted: {sum(e.items for e in ok)}; seconds of page work: {seconds:.1f}; wall seconds: {wall:.1f}",
        f"- configuration {config_hash(config)}: `{json.dumps(config, sort_keys=True)}`",
    ]
    if peaks:
        low, high = min(peaks.values()), max(peaks.values())
        lines.insert(4, f"- processes: {len(peaks)}; peak memory per process: {low:.0f} to {high:.0f} MiB")
    if failed:
        lines += ["", "## Failed pages", ""] + [f"- {e.page} ({e.source}): {e.error}" for e in failed]
    if residual:
        lines += ["", "## Pages the verifier still reads PII on", ""]
        lines += [f"- {e.page}: {e.residual} items" for e in residual]
    write_atomic(out_dir / SUMMARY, ("\n".join(lines) + "\n").encode())
