"""The `redact-agent` command line: one subcommand per capability, parsed here and run by
`commands`.

Errors the package raises on purpose (`RedactAgentError`) print one clear line and exit 2;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence

from redact_agent import __version__, commands
from redact_agent.agent.budgets import Budgets
from redact_agent.audit.score import MATCHES
from redact_agent.console import warn
from redact_agent.errors import RedactAgentError
from redact_agent.protocol import MODES, OCR_ENGINES, PROTOCOL
from redact_agent.qa import INPUTS, METHODS
from redact_agent.redact import LABEL_MODES
from redact_agent.synth import profiles
from redact_agent.systems import BACKENDS, REFINES, UNIONS


def _number(text: str, ok: Callable[[float], bool], want: str, kind: type[float] = float) -> float:
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {'a whole number' if kind is int else 'a number'}: {text!r}") from None
    if not math.isfinite(value) or not ok(value):
        raise argparse.ArgumentTypeError(f"must be {want}, got {text}")
    return value


def _margin(text: str) -> float:
    return _number(text, lambda v: v >= 0, "0 or more pixels (a negative margin leaves edges readable)")


def _seconds(text: str) -> float:
    return _number(text, lambda v: v > 0, "a positive number of seconds")


def _at_least_one(text: str) -> int:
    return int(_number(text, lambda v: v >= 1, "at least 1", int))


def _tau(text: str) -> float:
    try:
        tau = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 < tau <= 1.0:
        raise argparse.ArgumentTypeError(f"tau must be in (0, 1], got {tau}")
    return tau


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="redact-agent", description="Find, remove and measure PII on page images.")
    parser.add_argument("--version", action="version", version=f"redact-agent {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    redact = sub.add_parser("redact", help="redact page images and PDFs (the default command)")
    redact.add_argument("inputs", nargs="+", metavar="INPUT", help="PNG/JPEG/TIFF images, PDFs, or directories of them")
    redact.add_argument(
        "--no-recursive", action="store_true", help="a directory's own files only, not its sub-directories'"
    )
    redact.add_argument(
        "--resume", action="store_true", help="skip pages an earlier run of the same settings finished (manifest.jsonl)"
    )
    redact.add_argument("-o", "--out", default="redacted", help="output directory (default: ./redacted)")
    redact.add_argument("--backend", choices=BACKENDS, default="local", help="local: the embedded offline engine")
    redact.add_argument("--model", help="model name for openai/vllm (e.g. gpt-5.5, Qwen/Qwen3-VL-8B-Instruct)")
    redact.add_argument(
        "--base-url",
        action="append",
        metavar="URL|FILE",
        help="OpenAI-compatible endpoint (e.g. http://localhost:8000/v1); repeated, or a file of one per line: "
        "replicas of one model, each request to the least busy one that is up",
    )
    redact.add_argument(
        "--per-replica",
        type=_at_least_one,
        metavar="N",
        help="VLM: requests in flight on one server at most (default 8)",
    )
    redact.add_argument("--prompt", help="VLM: prompt version or a folder of prompt files (default v1)")
    redact.add_argument(
        "--cache", metavar="DIR", help="response cache folder (default: user cache, REDACT_AGENT_CACHE)"
    )
    redact.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")
    redact.add_argument(
        "--retries-on-invalid", type=int, metavar="N", help="VLM: ask again after invalid output (default 0)"
    )
    redact.add_argument(
        "--request-timeout", type=_seconds, default=Budgets.request_seconds, metavar="S",
        help=f"VLM: seconds to wait for one answer (default {Budgets.request_seconds:g})",
    )  # fmt: skip
    redact.add_argument(
        "--page-timeout", type=_seconds, default=Budgets.seconds, metavar="S",
        help=f"VLM: wall seconds for a page, retries and tools included (default {Budgets.seconds:g})",
    )  # fmt: skip
    redact.add_argument("--refine", choices=REFINES, help="VLM: snap each box to the OCR words it covers")
    redact.add_argument("--union", choices=UNIONS, help="VLM: add the embedded engine's predictions for recall")
    redact.add_argument(
        "--mode", choices=MODES, default="single", help="tools: zoomed re-reads of weak lines; a VLM's tools"
    )
    redact.add_argument("--policy", default="default", help="default | all | a YAML policy file")
    redact.add_argument(
        "--ocr", choices=OCR_ENGINES, default=PROTOCOL.ocr, help=f"OCR for finding PII (default {PROTOCOL.ocr})"
    )
    redact.add_argument(
        "--verify-ocr", choices=OCR_ENGINES, default=PROTOCOL.verify_ocr,
        help=f"OCR reading the redacted page (default {PROTOCOL.verify_ocr})",
    )  # fmt: skip
    redact.add_argument("--no-verify", action="store_true", help="skip reading the redacted page again")
    redact.add_argument(
        "--redact-residual", action="store_true", help="also black out what the verifier still finds (a second turn)"
    )
    redact.add_argument(
        "--fail-on-residual", action="store_true", help="exit 1 when the verifier still reads PII on a redacted page"
    )
    redact.add_argument(
        "--label",
        choices=LABEL_MODES,
        default="none",
        help="what each black box says in white: its type (PERSON), its entity (PERSON 2, the same on every page "
        "of a document), or the policy's code for its type (codes: in a policy file); never any part of the value "
        "(default none)",
    )
    redact.add_argument(
        "--document",
        action="store_true",
        help="each folder's files (in name order) are one document: an entity keeps its id, and its label, "
        "across them, as across a PDF's pages",
    )
    redact.add_argument(
        "--values", choices=["keep", "omit"], default="keep",
        help="omit: the page JSON holds boxes and types but not the redacted text (keep: for review and scoring)",
    )  # fmt: skip
    redact.add_argument(
        "--margin",
        type=_margin,
        default=PROTOCOL.margin,
        help=f"pixels added around each box (default {PROTOCOL.margin:g})",
    )
    redact.add_argument(
        "--workers",
        type=_at_least_one,
        help="processes (with --ray: actors), each with its own models "
        "(default: one per core for the embedded engine, else 1; with --ray one per CPU of the cluster)",
    )
    redact.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run as a Ray Data pipeline: on a Ray started here (no ADDRESS), or a cluster's ('auto', host:port)",
    )
    redact.add_argument(
        "--concurrency",
        type=_at_least_one,
        default=1,
        help="files at once in threads of one process (default 1; a VLM's requests overlap)",
    )
    redact.set_defaults(func=commands.redact)

    score = sub.add_parser("score", help="score prediction pages against gold (LeakageBench protocol)")
    score.add_argument("gold_dir", metavar="GOLD_DIR", help="directory of <page_id>.json gold pages")
    score.add_argument("pred_dir", metavar="PRED_DIR", help="directory of <page_id>.json prediction pages")
    score.add_argument("--tau", type=_tau, action="append", help=f"IoU threshold (repeatable; default {PROTOCOL.tau})")
    score.add_argument(
        "--sweep", action="store_true", help=f"also score at taus {', '.join(map(str, PROTOCOL.score_sweep))}"
    )
    score.add_argument(
        "--match", choices=["iou", "pq"], default="iou", help="pq: also report panoptic-quality matching"
    )
    score.add_argument(
        "--supported", metavar="TYPES|FILE", help="types a system supports: coverage and leakage on them"
    )
    score.add_argument(
        "--predictions", choices=["final", "raw"], default="final", help="raw: a VLM's boxes before --refine/--union"
    )
    score.add_argument(
        "--clusters", action="store_true", help="also score entity clusters (BCubed, ELM) on the gold items"
    )
    score.add_argument(
        "--document", action="store_true", help="with --clusters: within documents (a PDF's <stem>-pN pages)"
    )
    score.add_argument("--schema", metavar="FILE", help="a PII schema file (default: the shipped v1 schema)")
    score.add_argument("--json", metavar="FILE", help="write the results as JSON (a list when several taus)")
    score.set_defaults(func=commands.score)

    audit = sub.add_parser("audit", help="find the redactions on pages (images, PDFs, directories)")
    audit.add_argument("inputs", nargs="+", metavar="INPUT", help="PNG/JPEG/TIFF images, PDFs, or directories of them")
    audit.add_argument("-o", "--out", default="audit", help="output directory (default: ./audit)")
    audit.add_argument("--json", metavar="FILE", help="also write the document summary as JSON")
    audit.add_argument(
        "--show-text", action="store_true", help="write the text a finding lets through (default: its length only)"
    )
    audit.set_defaults(func=commands.audit)

    audit_score = sub.add_parser("audit-score", help="score audits against gold redaction regions")
    audit_score.add_argument("gold_dir", metavar="GOLD_DIR", help="directory of <page_id>.json gold redaction pages")
    audit_score.add_argument("audit_dir", metavar="AUDIT_DIR", help="directory of <page_id>.audit.json audits")
    audit_score.add_argument(
        "--match", choices=MATCHES, default="iou", help="iou: IoU > 0.5; pq-weak: more than half of each region"
    )
    audit_score.add_argument("--json", metavar="FILE", help="write the results as JSON")
    audit_score.set_defaults(func=commands.audit_score)

    rev = sub.add_parser("review", help="check, fix and apply a run's redactions in a local web page")
    rev.add_argument("out", metavar="OUT", help="the output folder of a run")
    rev.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    rev.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    rev.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")
    rev.set_defaults(func=commands.review)

    ask = sub.add_parser("ask", help="answer a question about a document without disclosing what a policy forbids")
    ask.add_argument("doc", nargs="+", metavar="DOC", help="a PDF or page images")
    ask.add_argument("--question", required=True)
    ask.add_argument("--policy", action="append", required=True, help="what not to disclose (repeated, or a file)")
    ask.add_argument("--backend", choices=("openai", "vllm"), default="openai")
    ask.add_argument("--model", required=True)
    ask.add_argument("--base-url", action="append", metavar="URL|FILE", help="as for the main job (replicas too)")
    ask.add_argument("--input", choices=INPUTS, default="image", help="pages as images, OCR text, or both")
    ask.add_argument("--method", choices=METHODS, default="dva")
    ask.add_argument("--pages", help="which pages, 1-based: 3-7, or 1,4")
    ask.add_argument("--json", action="store_true", help="the answer with its elements, verdicts, calls and tokens")
    ask.add_argument("--debug", action="store_true", help="with --json, also the elements judged invalid")
    ask.add_argument("--transcript", metavar="FILE", help="write every request and reply there")
    ask.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole question (default 300)")
    ask.add_argument("--cache", metavar="DIR", help="response cache folder")
    ask.add_argument("--no-cache", action="store_true")
    ask.set_defaults(func=commands.ask)

    sqa = sub.add_parser("synth-qa", help="QA questions with protected values over synthetic pages")
    sqa.add_argument("out", metavar="OUT", help="folder for the pages and qa.json")
    sqa.add_argument("--pages", type=_at_least_one, default=10)
    sqa.add_argument("--seed", type=int, default=0)
    sqa.set_defaults(func=commands.synth_qa)

    bqa = sub.add_parser("bench-qa", help="ask QA questions through systems; leakage and faithfulness")
    bqa.add_argument("data", metavar="DATA", help="a JSON list of questions (e.g. synth-qa's qa.json)")
    bqa.add_argument("--system", action="append", required=True, metavar="SPEC",
                     help="BACKEND:MODEL:METHOD[:input=image|text|both] (repeatable)")  # fmt: skip
    bqa.add_argument("--judge", metavar="MODEL", help="a model judges leakage and faithfulness (else a string check)")
    bqa.add_argument("--base-url", action="append", metavar="URL|FILE", help="the servers, as for the main job")
    bqa.add_argument("-o", "--out", default="runs-qa", help="runs folder (default ./runs-qa)")
    bqa.add_argument("--cache", metavar="DIR", help="response cache folder")
    bqa.add_argument("--no-cache", action="store_true")
    bqa.set_defaults(func=commands.bench_qa)

    srv = sub.add_parser("serve", help="run `vllm serve` with the settings a model's profile needs")
    srv.add_argument("--model", required=True, help="e.g. Qwen/Qwen3-VL-8B-Instruct")
    srv.add_argument("--port", type=int, default=8000)
    srv.add_argument("--max-model-len", type=int, default=32768)
    srv.add_argument("--dry-run", action="store_true", help="print the command instead of running it")
    srv.add_argument(
        "--replicas", type=_at_least_one, default=1, metavar="N", help="print how to serve N replicas (one per GPU)"
    )
    srv.set_defaults(func=commands.serve)

    synth = sub.add_parser("synth", help="render synthetic business pages with exact, exhaustive gold")
    synth.add_argument("out", metavar="OUT", help="output directory (<page_id>.png + <page_id>.json)")
    synth.add_argument("--pages", type=int, default=100, help="pages to render (default 100)")
    synth.add_argument("--seed", type=int, default=0, help="the same seed gives the same bytes (default 0)")
    synth.add_argument(
        "--profile",
        choices=profiles.NAMES,
        default=profiles.BALANCED,
        help="page-type mix, redacted pages with their redactions as gold, the leakagebench mix naming "
        "people, phones and codes again in other forms (entities), or in 3-page documents whose pages "
        "name each other's (documents) (default balanced)",
    )
    synth.add_argument("--workers", type=int, help="processes (default: one per CPU)")
    synth.set_defaults(func=commands.synth)

    data = sub.add_parser("data", help="look at a gold page set")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="ACTION")
    stats = data_sub.add_parser("stats", help="counts, items per page and where items sit, with plots")
    stats.add_argument("data_dir", metavar="DIR", help="directory of <page_id>.json gold pages")
    stats.add_argument("-o", "--out", default="data-stats", help="where the plots go (default ./data-stats)")
    stats.add_argument("--json", metavar="FILE", help="also write the counts as JSON")
    stats.add_argument("--schema", metavar="FILE", help="a PII schema file (default: the shipped v1 schema)")
    stats.set_defaults(func=commands.data_stats)

    bench = sub.add_parser("bench", help="run systems on a gold page set into resumable run folders")
    bench.add_argument("data_dir", metavar="DATA_DIR", help="directory of gold pages and their images")
    bench.add_argument(
        "--system", action="append", metavar="SPEC",
        help="local:single, local:tools, openai:MODEL:MODE[:prompt=P], vllm:MODEL:MODE:base_url=URL (repeatable)",
    )  # fmt: skip
    bench.add_argument("--experiment", metavar="FILE", help="YAML grid: fixed fields, and vary: lists crossed")
    bench.add_argument("-o", "--out", default="runs", help="runs directory (default ./runs)")
    bench.set_defaults(func=commands.bench)

    cmp = sub.add_parser("bench-compare", help="`bench compare RUN_A RUN_B`: paired bootstrap of two runs")
    cmp.add_argument("run_a", metavar="RUN_A", help="a run folder (the baseline)")
    cmp.add_argument("run_b", metavar="RUN_B", help="a run folder (the change)")
    cmp.add_argument("--replicates", type=int, default=2000, help="bootstrap replicates (default 2000)")
    cmp.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    cmp.add_argument("--json", metavar="FILE", help="also write the comparison as JSON")
    cmp.add_argument("--overlays", metavar="DIR", help="draw each flipped page under both runs into DIR")
    cmp.set_defaults(func=commands.bench_compare)

    sandbox = sub.add_parser("sandbox", help="the confined Python kernel behind run_python")
    sandbox_sub = sandbox.add_subparsers(dest="sandbox_command", required=True, metavar="ACTION")
    run = sandbox_sub.add_parser("exec", help="run code on a page in the sandbox; print one JSON object")
    run.add_argument("image", metavar="IMAGE", help="the page image preloaded as `page`")
    run.add_argument("--code", required=True, help="Python to run")
    run.add_argument("--timeout", type=float, default=30.0, help="wall-clock seconds for the code (default 30)")
    run.set_defaults(func=commands.sandbox_exec)
    return parser


def _command_names(parser: argparse.ArgumentParser) -> set[str]:
    return {
        name for action in parser._actions if isinstance(action, argparse._SubParsersAction) for name in action.choices
    }


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if argv[:2] == ["bench", "compare"]:
        argv[:2] = ["bench-compare"]
    if argv and argv[0] not in _command_names(parser) and argv[0] not in ("-h", "--help", "--version"):
        argv.insert(0, "redact")  # `redact-agent page.png -o out` is `redact-agent redact page.png -o out`
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except RedactAgentError as exc:
        warn(f"redact-agent: error: {exc}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
