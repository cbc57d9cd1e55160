"""A run of the main job over many inputs, and how its documents are spread over the machine.

`run` collects the inputs, settles which input owns each output name, hands the documents to a
`Spread`, and writes the summary. A document (a file, or with `--document` a folder's files)
is the unit of work everywhere: its pages go in order through one finder, so that its entities
keep their ids from page to page. The spreads:
- `Threads(n)`: n documents at a time in threads of this process (a VLM's requests overlap);
- `Processes(n)`: n worker processes, each building its own finder and verifier from their
  pickled settings (its models load once) and using its share of the cores;
- `redact_agent.ray_run.RayPipeline`: actors of a Ray Data pipeline, on one machine or many.
The outputs do not depend on the spread or its size.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tqdm import tqdm

from redact_agent.console import emit, warn
from redact_agent.errors import RedactAgentError
from redact_agent.inputs import Document, collect
from redact_agent.job import Batch, Job, PageOutcome, documents
from redact_agent.machine import cores, die_with_parent
from redact_agent.manifest import Entry, write_summary
from redact_agent.redact import remove_stale_temporaries
from redact_agent.tools.ocr import limit_threads

WORKER_DIED = "a worker process died (killed, or out of memory?); --resume redoes its pages"


class Spread(Protocol):
    def run(self, job: Job, groups: list[list[Document]], batch: Batch) -> list[PageOutcome]:
        """Every group's outcomes; each group's pages in order through one finder."""
        ...


def run(job: Job, inputs: list[str], spread: Spread | None = None, recursive: bool = True, resume: bool = False) -> int:
    """Process everything (default: one document at a time, in this process); print one line
    per page; 0 when every page succeeded (and, with `fail_on_residual`, the verifier read
    nothing on any of them), else 1. With `resume`, pages an earlier run of the same
    configuration finished are not done again."""
    t0 = time.perf_counter()
    found = collect(inputs, recursive)
    for note in found.skip_notes():
        warn(f"redact-agent: skipped {note}")
    for e in found.errors:
        warn(f"redact-agent: error: {e}")
    remove_stale_temporaries(job.out_dir)
    batch = Batch(job, found.documents, resume)
    groups: dict[Path, list[Document]] = {}  # the files that share a linker, in order
    for doc in found.documents:
        groups.setdefault(doc.path.parent if job.document else doc.path, []).append(doc)
    outcomes = (spread or Threads()).run(job, list(groups.values()), batch)
    try:
        write_summary(job.out_dir, batch.entries, job.config, time.perf_counter() - t0)
    except RedactAgentError as exc:
        warn(f"redact-agent: error: {exc}")
    failed = [o for o in outcomes if not o.ok]
    residual = sum(1 for o in outcomes if o.ok and o.residual)
    if len(outcomes) > 1 or failed or found.errors or residual:
        line = f"{len(outcomes) - len(failed)} of {len(outcomes)} pages redacted into {job.out_dir}"
        earlier = sum(1 for o in outcomes if o.earlier)
        line += f" ({earlier} by an earlier run)" if earlier else ""
        if job.verifier is not None:
            line += f"; {residual} with residual findings"
        warn(line)
    fails = bool(failed or found.errors or not outcomes or (job.fail_on_residual and residual))
    return 1 if fails else 0


def report(outcomes: list[PageOutcome]) -> None:
    """One line per page: stdout when it succeeded, stderr when it failed."""
    for outcome in outcomes:
        if outcome.ok:
            emit(outcome.summary())
        else:
            warn(f"redact-agent: error: {outcome.summary()}")


def progress(groups: list[list[Document]]) -> tqdm[Any]:
    """A bar over the files, on a terminal and for more than one file."""
    files = sum(len(g) for g in groups)
    return tqdm(total=files, unit="file", disable=None if files > 1 else True, file=sys.stderr)


def failed(group: list[Document], why: str, batch: Batch) -> list[PageOutcome]:
    """A group whose worker was lost: each file fails with `why`, recorded in the manifest."""
    outcomes = [PageOutcome(doc.path.stem, doc.path, why) for doc in group]
    for doc, outcome in zip(group, outcomes, strict=True):
        batch.record(doc.subdir / doc.path.stem, outcome)
    return outcomes


@dataclass(frozen=True)
class Threads:
    n: int = 1

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"threads must be at least 1, not {self.n}")

    def run(self, job: Job, groups: list[list[Document]], batch: Batch) -> list[PageOutcome]:
        outcomes: list[PageOutcome] = []
        with progress(groups) as bar, ThreadPoolExecutor(max_workers=self.n) as pool:
            futures = {pool.submit(documents, job, group, batch): len(group) for group in groups}
            try:
                for future in as_completed(futures):
                    done = future.result()
                    outcomes += done
                    report(done)
                    bar.update(futures[future])
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise
        return outcomes


@dataclass(frozen=True)
class Processes:
    n: int

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"processes must be at least 1, not {self.n}")

    def run(self, job: Job, groups: list[list[Document]], batch: Batch) -> list[PageOutcome]:
        workers = min(self.n, len(groups))
        if workers <= 1:  # no process to start: this one has the cores
            return Threads().run(job, groups, batch)
        threads = max(1, cores() // workers)
        context = multiprocessing.get_context("spawn")  # the parent's model threads do not survive a fork
        setup = (pickle.dumps(job), batch, threads, os.getpid())
        outcomes: list[PageOutcome] = []
        with progress(groups) as bar, ProcessPoolExecutor(workers, context, _start_worker, setup) as pool:
            futures = {pool.submit(_worker_documents, group): group for group in groups}
            try:
                for future in as_completed(futures):
                    group = futures[future]
                    try:
                        done, entries = future.result()
                        batch.entries += entries
                    except BrokenProcessPool:
                        done = failed(group, WORKER_DIED, batch)
                    outcomes += done
                    report(done)
                    bar.update(len(group))
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise
        return outcomes


_worker: tuple[Job, Batch] | None = None  # a worker process's own job and batch


def start_engines(job: bytes, threads: int) -> Job:
    """A worker's own job from its pickled settings, its models on `threads` cores."""
    limit_threads(threads)  # before the job's engines load their models, as it is unpickled
    loaded: Job = pickle.loads(job)
    return loaded


def _start_worker(job: bytes, batch: Batch, threads: int, parent: int) -> None:
    global _worker
    die_with_parent(parent)  # a killed run leaves no worker writing into the folder
    _worker = (start_engines(job, threads), batch)


def in_worker(job: Job, group: list[Document], batch: Batch) -> tuple[list[PageOutcome], list[Entry]]:
    """A group's outcomes and its manifest entries, in a worker (a process or an actor) whose
    batch is its own copy: the entries go back to the run, which writes the summary."""
    batch.entries = []
    return documents(job, group, batch), batch.entries


def _worker_documents(group: list[Document]) -> tuple[list[PageOutcome], list[Entry]]:
    assert _worker is not None, "the worker was not started"
    job, batch = _worker
    return in_worker(job, group, batch)
