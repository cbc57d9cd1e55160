"""The main job as a Ray Data pipeline (the `ray` extra), on one machine or a cluster.

A dataset of documents, one row per document (a file; with `--document` a folder's files),
each row only its paths: the actor that takes it opens the file and renders its pages one at
a time, in order, so that a PDF is never rendered up front and a document's entities keep
their ids from page to page. `map_batches` runs a pool of actors, each holding the job's finder
and verifier, built once from their pickled settings (models load once per actor, on its share
of the node's cores). Every write is atomic (a temporary file, then a rename) and the same
whoever makes it; each page's line in `OUT/manifest.jsonl` is its record of success or failure.
An actor that dies is restarted and its document given again (at most `RETRIES` times): the
pages it had finished are in the manifest and are neither done nor recorded again. A run that
is stopped is finished by running it again with `--resume`.

On a cluster (`--ray auto`, or a head's address) every node needs redact-agent installed in
its Python and the inputs and the output folder at the same paths (a shared file system).
"""

from __future__ import annotations

import logging
import pickle
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from redact_agent.inputs import Document
from redact_agent.job import Batch, Job, PageOutcome
from redact_agent.run import failed, in_worker, progress, report, start_engines

RETRIES = 3  # a document whose actor dies more often than this fails (a resume tries it again)


@dataclass(frozen=True)
class RayPipeline:
    address: str | None = None  # None: a Ray started here for this run; "auto" or an address: a cluster's
    actors: int | None = None  # None: one per CPU the cluster has

    def run(self, job: Job, groups: list[list[Document]], batch: Batch) -> list[PageOutcome]:
        import ray

        if not groups:
            return []
        if not ray.is_initialized():
            ray.init(address=self.address, include_dashboard=False, logging_level=logging.ERROR)
        context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # ours counts the files
        context.print_on_execution_start = False
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        actors = min(self.actors or cpus, len(groups))
        share = max(1, cpus // actors)
        rows = [{"index": i, "group": pickle.dumps(group)} for i, group in enumerate(groups)]
        with warnings.catch_warnings():  # Ray Data's way to bound the retries, which it calls deprecated
            warnings.simplefilter("ignore", DeprecationWarning)
            results = ray.data.from_items(rows, override_num_blocks=len(rows)).map_batches(
                _Redactor,
                batch_size=1,
                compute=ray.data.ActorPoolStrategy(size=actors),
                num_cpus=share,
                fn_constructor_args=(pickle.dumps(job), batch, share),
                max_restarts=-1,
                max_task_retries=RETRIES,
            )
        outcomes: list[PageOutcome] = []
        left = dict(enumerate(groups))
        with progress(groups) as bar:
            try:
                for row in results.iter_rows():
                    done, entries = pickle.loads(row["result"])
                    batch.entries += entries
                    outcomes += done
                    report(done)
                    bar.update(len(left.pop(int(row["index"]))))
            except ray.exceptions.RayError as exc:
                why = f"the Ray pipeline stopped ({type(exc).__name__}); --resume redoes its pages"
                lost = [outcome for group in left.values() for outcome in failed(group, why, batch)]
                outcomes += lost
                report(lost)
        return outcomes


class _Redactor:
    """One actor: the job built once, then the documents of each batch in order."""

    def __init__(self, job: bytes, batch: Batch, threads: int) -> None:
        self.job = start_engines(job, threads)
        self.batch = batch
        # A restarted actor is given its predecessor's document again: the pages recorded since
        # the run began are not done again.
        batch.manifest.earlier |= batch.manifest.entries()

    def __call__(self, rows: dict[str, Any]) -> dict[str, Any]:
        indices, results = [], []
        for index, group in zip(rows["index"], rows["group"], strict=True):
            indices.append(int(index))
            results.append(pickle.dumps(in_worker(self.job, pickle.loads(group), self.batch)))
        return {"index": np.array(indices), "result": np.array(results, dtype=object)}
