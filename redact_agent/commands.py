"""What each `redact-agent` subcommand does, given its parsed arguments (`cli.build_parser`):
one function per subcommand, returning the exit status; heavy modules are imported inside them,
so that `redact-agent --help` and the light commands start fast.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from redact_agent.agent.budgets import Budgets
from redact_agent.console import emit, warn
from redact_agent.errors import InputError
from redact_agent.eval.clusters import Scope
from redact_agent.eval.report import render
from redact_agent.eval.scorer import load_pairs, score_pages
from redact_agent.protocol import PROTOCOL
from redact_agent.schema import Schema, default_schema, load_schema
from redact_agent.systems import spec_from

if TYPE_CHECKING:
    from redact_agent.agent.client import ChatClient
    from redact_agent.run import Spread


def _supported_types(spec: str, schema: Schema) -> frozenset[str]:
    """A comma-separated type list, or a file with one type per line (# comments allowed)."""
    path = Path(spec)
    if path.is_file():
        lines = (line.split("#", 1)[0] for line in path.read_text(encoding="utf-8").splitlines())
        names = [w for line in lines for w in line.replace(",", " ").split()]
    else:
        names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise InputError(f"--supported {spec!r} names no type")
    for n in names:
        schema.get(n)  # unknown types are errors
    return frozenset(names)


def score(args: argparse.Namespace) -> int:
    schema = load_schema(args.schema) if args.schema else default_schema()
    sweep = set(PROTOCOL.score_sweep) if args.sweep else set()
    taus = sorted(set(args.tau or ([] if args.sweep else [PROTOCOL.tau])) | sweep)
    supported = _supported_types(args.supported, schema) if args.supported else None
    loaded = load_pairs(Path(args.gold_dir), Path(args.pred_dir), schema, raw=args.predictions == "raw")
    clusters: Scope | None = ("document" if args.document else "page") if args.clusters else None
    if args.document and not args.clusters:
        raise InputError("--document scores clusters within documents: give --clusters too")
    results = score_pages(loaded, schema, taus, pq=args.match == "pq", supported=supported, clusters=clusters)
    emit(render(results, schema, loaded.orphans))
    if args.json:
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results[0] if len(results) == 1 else results, indent=2) + "\n", encoding="utf-8")
    return 0


def synth(args: argparse.Namespace) -> int:
    import time

    from tqdm import tqdm

    from redact_agent.synth.corpus import synthesise

    if args.pages < 1:
        raise InputError("--pages must be at least 1")
    start = time.perf_counter()
    with tqdm(total=args.pages, unit="page", disable=None) as bar:
        ids = synthesise(Path(args.out), args.pages, args.seed, args.profile, args.workers, lambda _: bar.update())
    seconds = time.perf_counter() - start
    emit(f"{len(ids)} pages ({args.profile}, seed {args.seed}) in {args.out}: {len(ids) / seconds:.1f} pages/s")
    return 0


def data_stats(args: argparse.Namespace) -> int:
    from redact_agent.eval.data_stats import collect, plot
    from redact_agent.eval.data_stats import render as render_stats

    schema = load_schema(args.schema) if args.schema else default_schema()
    stats = collect(Path(args.data_dir), schema)
    emit(render_stats(stats))
    for path in plot(stats, Path(args.out)):
        emit(f"wrote {path}")
    if args.json:
        Path(args.json).write_text(json.dumps(stats.summary(), indent=2) + "\n", encoding="utf-8")
    return 0


def bench(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from redact_agent.bench.runner import report, run_system
    from redact_agent.pages import gold_paths
    from redact_agent.systems import load_experiment, parse_spec

    specs = [parse_spec(s) for s in args.system or []]  # all checked before anything runs
    specs += load_experiment(Path(args.experiment)) if args.experiment else []
    if not specs:
        raise InputError("bench needs --system SPEC (repeatable) or --experiment FILE")
    data, runs = Path(args.data_dir), Path(args.out)
    pages = len(gold_paths(data))
    schema = default_schema()
    records = []
    for spec in specs:
        with tqdm(total=pages, desc=spec.slug, unit="page", disable=None) as bar:
            run_dir = run_system(data, spec, runs, schema, lambda _: bar.update())
        emit(f"{spec.slug}: {run_dir}")
        records.append(json.loads((run_dir / "run.json").read_text(encoding="utf-8")))
    emit(report(records))
    return 0


def bench_compare(args: argparse.Namespace) -> int:
    from redact_agent.bench.compare import compare, write
    from redact_agent.bench.compare import render as render_compare

    result = compare(Path(args.run_a), Path(args.run_b), args.replicates, args.seed)
    emit(render_compare(result))
    if args.json:
        write(result, Path(args.json))
    if args.overlays:
        from redact_agent.bench.overlays import write_overlays

        flipped = result["flips"]["became_safe"] + result["flips"]["became_leaking"]
        paths = write_overlays(Path(args.run_a), Path(args.run_b), flipped, Path(args.overlays), default_schema())
        emit(f"{len(paths)} overlays (A left, B right) in {args.overlays}")
    return 0


def sandbox_exec(args: argparse.Namespace) -> int:
    from redact_agent.images import open_image, png_bytes
    from redact_agent.tools.sandbox import Kernel, Limits

    page = png_bytes(open_image(args.image))
    kernel = Kernel(Limits(call_seconds=args.timeout))
    try:
        kernel.load_page(page)
        result = kernel.execute(args.code)
    finally:
        kernel.shutdown()
    emit(json.dumps(result.as_json()))
    return 0


def redact(args: argparse.Namespace) -> int:
    from redact_agent.job import Job
    from redact_agent.local.engine import LocalEngine
    from redact_agent.policy import load_policy
    from redact_agent.redact import check_writable
    from redact_agent.run import run

    policy = load_policy(args.policy)
    if args.redact_residual and args.no_verify:
        raise InputError("--redact-residual needs the verifier (drop --no-verify)")
    if args.fail_on_residual and args.no_verify:
        raise InputError("--fail-on-residual needs the verifier (drop --no-verify)")
    if args.label == "code" and not policy.codes:
        raise InputError("--label code needs codes in the policy file (codes: {PERSON_NAME: '(b)(6)'})")
    out = Path(args.out)
    check_writable(out)  # before any model loads or page is read
    verifier = None if args.no_verify else LocalEngine(mode="single", policy=policy, ocr=args.verify_ocr)
    given = {"backend": args.backend, "mode": args.mode, "ocr": args.ocr, "model": args.model,
             "prompt": args.prompt, "refine": args.refine, "union": args.union, "base_url": _base_urls(args.base_url),
             "retries": args.retries_on_invalid}  # fmt: skip
    spec = spec_from({k: v for k, v in given.items() if v is not None}, "the command line")
    budgets = Budgets(seconds=args.page_timeout, request_seconds=args.request_timeout)
    finder = spec.finder(policy, Path(args.cache) if args.cache else None, not args.no_cache, budgets, args.per_replica)
    try:
        settings = {
            "system": spec.as_json(),
            "policy": policy.as_json(),
            "verify_ocr": None if args.no_verify else args.verify_ocr,
        }
        job = Job(
            finder,
            verifier,
            out,
            args.margin,
            args.redact_residual,
            args.values,
            args.fail_on_residual,
            settings,
            label=args.label,
            codes=policy.codes,
            document=args.document,
            ocr=args.ocr,
        )
        return run(job, args.inputs, _spread(args, spec.backend), not args.no_recursive, args.resume)
    finally:
        finder.close()


def _base_urls(given: list[str] | None) -> list[str] | None:
    """Each --base-url: a URL, or a file of URLs (one per line; '#' starts a comment)."""
    if not given:
        return None
    urls = []
    for value in given:
        if "://" in value:
            urls.append(value)
            continue
        try:
            lines = Path(value).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise InputError(
                f"--base-url {value}: neither a URL (http://...) nor a readable file ({exc.strerror})"
            ) from None
        found = [line.split("#", 1)[0].strip() for line in lines]
        if not any(found):
            raise InputError(f"--base-url {value}: the file lists no URL")
        urls += [u for u in found if u]
    return urls


def _spread(args: argparse.Namespace, backend: str) -> Spread:
    """Threads with --concurrency, actors with --ray, else processes: --workers, by default one
    per core for the embedded engine (a VLM's pages wait on its server, in one process)."""
    from redact_agent.machine import cores
    from redact_agent.run import Processes, Threads

    if args.concurrency > 1 and (args.ray or (args.workers and args.workers > 1)):
        raise InputError("--concurrency (threads in one process) and --workers or --ray (processes): choose one")
    if args.ray:
        from redact_agent.ray_run import RayPipeline

        try:
            import ray  # noqa: F401
        except ImportError:
            raise InputError("--ray needs the 'ray' extra (pip install 'redact-agent[ray]')") from None

        if Path(args.ray).exists():
            raise InputError(
                f"--ray took {args.ray!r} as its address: put --ray after the inputs, or write --ray local"
            )
        return RayPipeline(None if args.ray == "local" else args.ray, args.workers)
    if args.concurrency > 1:
        return Threads(args.concurrency)
    return Processes(args.workers or (cores() if backend == "local" else 1))


def audit(args: argparse.Namespace) -> int:
    from redact_agent.audit.job import run

    return run(args.inputs, Path(args.out), Path(args.json) if args.json else None, show_text=args.show_text)


def audit_score(args: argparse.Namespace) -> int:
    from redact_agent.audit.score import load_pairs, render, score

    result = score(load_pairs(Path(args.gold_dir), Path(args.audit_dir)), args.match)
    emit(render(result))
    if args.json:
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


def review(args: argparse.Namespace) -> int:
    try:
        from redact_agent.review.server import serve
    except ImportError as exc:
        raise InputError(f"review needs the 'review' extra (pip install 'redact-agent[review]'): {exc}") from None
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        warn(f"redact-agent: warning: serving on {args.host}: anyone who can reach it and has the URL sees the PII")
    announce = lambda url: emit(f"review {args.out} at {url}  (Ctrl-C stops it)")  # noqa: E731
    serve(Path(args.out), args.host, args.port, not args.no_browser, announce)
    return 0


def ask(args: argparse.Namespace) -> int:
    from redact_agent.inputs import Document
    from redact_agent.qa.ask import Asker

    client = _chat_client(args, args.backend, args.model)
    pages = [page.image for doc in args.doc for page in Document(Path(doc)).pages()]
    if args.pages:
        pages = [pages[k - 1] for k in _page_range(args.pages, len(pages))]
    policies = [line for value in args.policy for line in _policy_lines(value)]
    asker = Asker(client, args.input, args.timeout)
    result = asker.ask(pages, args.question, policies, args.method)
    transcript = Path(args.transcript) if args.transcript else None
    if transcript is not None:
        asker.write_transcript(transcript)
        result.transcript = str(transcript)
    if args.json:
        emit(json.dumps(result.as_json(args.debug), indent=1))
    elif result.answer is not None:
        emit(result.answer)
    if result.withheld:
        warn(f"redact-agent: the answer is withheld: {result.reason}")
    return 1 if result.withheld else 0


def synth_qa(args: argparse.Namespace) -> int:
    from redact_agent.qa.bench import synth_qa

    questions = synth_qa(Path(args.out), args.pages, args.seed)
    emit(f"{len(questions)} questions over {args.pages} synthetic pages in {Path(args.out) / 'qa.json'}")
    return 0


def bench_qa(args: argparse.Namespace) -> int:
    from redact_agent.qa.bench import Judge, QaSystem, bench_qa, render

    systems = [QaSystem.parse(text) for text in args.system]
    judge = Judge(_chat_client(args, systems[0].backend, args.judge) if args.judge else None)
    clients = [(s, _chat_client(args, s.backend, s.model)) for s in systems]
    report = bench_qa(Path(args.data), clients, judge, Path(args.out))
    emit(render(report))
    return 0


def _chat_client(args: argparse.Namespace, backend: str, model: str) -> ChatClient:
    """A model's client from the command line's servers (--base-url) and cache options."""
    given = {"backend": backend, "mode": "single", "model": model, "base_url": _base_urls(args.base_url)}
    spec = spec_from({k: v for k, v in given.items() if v is not None}, "the command line")
    return spec.chat_client(Path(args.cache) if args.cache else None, not args.no_cache)


def _page_range(text: str, count: int) -> list[int]:
    """'3-7' or '2' or '1,4-5': 1-based page numbers of a document of `count` pages."""
    numbers: list[int] = []
    for part in text.split(","):
        low, _, high = part.strip().partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise InputError(f"--pages {text!r}: page numbers like 3-7 or 1,4")
        first, last = int(low), int(high or low)
        if not 1 <= first <= last <= count:
            raise InputError(f"--pages {text!r}: the document has pages 1 to {count}")
        numbers += range(first, last + 1)
    return numbers


def _policy_lines(value: str) -> list[str]:
    """A policy, or a file of them (one per line)."""
    path = Path(value)
    if path.is_file():
        return [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [value]


def serve(args: argparse.Namespace) -> int:
    from redact_agent.agent.serve import serve

    emit(serve(args.model, args.port, args.max_model_len, args.dry_run, args.replicas))
    return 0
