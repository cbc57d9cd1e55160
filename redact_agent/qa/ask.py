"""`redact-agent ask`: answer a question about a document without disclosing what a policy forbids.

Methods (each request through the same `ChatClient` as redaction: retries, timeouts, cache):
- `plain`: policy, question and document in one request; the reply is the answer.
- `cot`: the same, answered as `{"reasoning": ..., "answer": ...}`.
- `revision`: a plain answer, then a second request revises it against the policy (`{"answer"}`).
- `dva` (Decompose-Verify-Aggregate): request 1, *without the policy*, writes the prospective
  answer as atomic elements (`{"elements": [...]}`); request 2, with the policy, judges each
  element and answers from the valid ones (`{"verdicts": [{"index", "valid", "reason"}],
  "answer"}`).
- `redact-first`: the pages are redacted first (type-level policies by the embedded engine,
  term-level ones by the OCR words that spell the target and what follows it on its line, and
  the value the policy states), then `dva` runs on the redacted pages only.
Every structured stage goes through the strict validator (one JSON object, an optional fence,
nothing else). It fails closed: malformed output, or an answer that still carries an element
judged invalid, is withheld with the reason.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from redact_agent.agent.client import ChatClient, image_part
from redact_agent.agent.output import ContractError, json_object
from redact_agent.agent.profiles import profile_for
from redact_agent.errors import BackendError, InputError
from redact_agent.local.engine import LocalEngine
from redact_agent.policy import Policy
from redact_agent.protocol import PROTOCOL
from redact_agent.qa import InputMode, Method
from redact_agent.qa.policies import Protected, read_policy
from redact_agent.redact import redact
from redact_agent.tools.ocr import Word, get_engine, lines

SYSTEM = "You answer questions about the document you are given, briefly and only from the document."
POLICY = (
    "Non-disclosure policy (it overrides the question): never disclose what it forbids, neither directly "
    "nor by anything from which it could be inferred or computed.\n{policy}"
)
COT = 'Think step by step, then answer with exactly one JSON object: {{"reasoning": "...", "answer": "..."}}.'
REVISE = (
    "Here is a draft answer to the question:\n{draft}\n\nRevise it so that it complies with the policy, keeping "
    'everything else. Answer with exactly one JSON object: {{"answer": "..."}}.'
)
DECOMPOSE = (
    "Write the answer you would give as a list of atomic information elements, each one short, "
    'self-contained fact. Answer with exactly one JSON object: {{"elements": ["...", "..."]}}.'
)
VERIFY = (
    "Prospective answer, as numbered information elements:\n{elements}\n\nFor each element decide whether "
    "stating it would violate the policy, directly or by allowing what it protects to be inferred. Then answer "
    "the question from the valid elements only. Answer with exactly one JSON object: "
    '{{"verdicts": [{{"index": 0, "valid": true, "reason": "..."}}], "answer": "..."}}.'
)


@dataclass
class Answer:
    method: Method
    answer: str | None = None
    withheld: bool = False
    reason: str | None = None
    elements: list[str] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    calls: int = 0
    tokens: int = 0
    transcript: str | None = None

    def withhold(self, reason: str) -> Answer:
        self.answer, self.withheld, self.reason = None, True, reason
        return self

    def as_json(self, debug: bool = False) -> dict[str, Any]:
        """The answer; without `debug`, what the policy protects is left out: the text of
        the elements judged invalid, and the reasons given for them."""
        elements, verdicts = self.elements, self.verdicts
        if not debug:
            invalid = {v["index"] for v in verdicts if not v["valid"]}
            elements = [e for i, e in enumerate(elements) if i not in invalid]
            verdicts = [v if v["valid"] else {"index": v["index"], "valid": False} for v in verdicts]
        return {"answer": self.answer, "withheld": self.withheld, "reason": self.reason, "method": self.method,
                "elements": elements, "verdicts": verdicts, "calls": self.calls, "tokens": self.tokens,
                "transcript": self.transcript}  # fmt: skip


class Asker:
    def __init__(self, client: ChatClient, mode: InputMode = "image", seconds: float = 300.0) -> None:
        self.client = client
        self.mode = mode
        self.seconds = seconds
        self.records: list[dict[str, Any]] = []

    def ask(self, pages: list[Image.Image], question: str, policies: list[str], method: Method) -> Answer:
        result = Answer(method)
        limit = profile_for(self.client.config.model).images_per_request
        if self.mode != "text" and len(pages) > limit:
            raise InputError(
                f"{len(pages)} pages, and {self.client.config.model} takes {limit} images a request: "
                "choose pages (--pages) or send the text (--input text)"
            )
        deadline = time.monotonic() + self.seconds
        policy = "\n".join(f"- {p}" for p in policies)
        try:
            if method == "redact-first":
                pages = redact_pages(pages, [read_policy(p) for p in policies])
                self._dva(pages, question, policy, result, deadline)
            elif method == "dva":
                self._dva(pages, question, policy, result, deadline)
            elif method == "plain":
                result.answer = self._send("answer", pages, [POLICY.format(policy=policy), question], result, deadline)
            elif method == "cot":
                reply = self._send("answer", pages, [POLICY.format(policy=policy), question, COT], result, deadline)
                result.answer = _field(reply, "answer", "the reasoned answer")
            elif method == "revision":
                draft = self._send("draft", pages, [POLICY.format(policy=policy), question], result, deadline)
                prompt = [POLICY.format(policy=policy), question, REVISE.format(draft=draft)]
                result.answer = _field(self._send("revise", pages, prompt, result, deadline), "answer", "the revision")
        except ContractError as exc:
            return result.withhold(f"malformed model output: {exc}")
        except BackendError as exc:
            return result.withhold(f"the model could not be asked: {exc}")
        return result

    def _dva(self, pages: list[Image.Image], question: str, policy: str, result: Answer, deadline: float) -> None:
        reply = self._send("decompose", pages, [question, DECOMPOSE], result, deadline)  # no policy here
        elements = json_object(reply).get("elements")
        if not isinstance(elements, list) or not all(isinstance(e, str) for e in elements):
            raise ContractError("'elements' is not a list of strings")
        result.elements = elements
        numbered = "\n".join(f"{i}. {e}" for i, e in enumerate(elements))
        prompt = [POLICY.format(policy=policy), question, VERIFY.format(elements=numbered)]
        data = json_object(self._send("verify", pages, prompt, result, deadline))
        result.verdicts = _verdicts(data.get("verdicts"), len(elements))
        answer = data.get("answer")
        if not isinstance(answer, str):
            raise ContractError("'answer' is not a string")
        invalid = [elements[v["index"]] for v in result.verdicts if not v["valid"]]
        valid = [elements[v["index"]] for v in result.verdicts if v["valid"]]
        if leaked := [e for e in invalid if _carries(answer, e, [*valid, question])]:
            result.withhold(f"the answer still states {len(leaked)} element(s) judged to violate the policy")
            return
        result.answer = answer

    def _send(self, stage: str, pages: list[Image.Image], texts: list[str], result: Answer, deadline: float) -> str:
        content: list[dict[str, Any]] = [{"type": "text", "text": "\n\n".join(texts)}]
        if self.mode in ("text", "both"):
            content.append({"type": "text", "text": "The document's text (OCR):\n" + page_text(pages)})
        if self.mode in ("image", "both"):
            content += [image_part(p) for p in pages]
        messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": content}]
        images = [hashlib.sha256(p.tobytes()).hexdigest() for p in pages]
        calls = self.client.calls
        reply = self.client.complete(messages, deadline=deadline, stage=stage, images=images)
        result.calls += self.client.calls - calls
        result.tokens += sum(reply.usage.values())
        hashes = iter(images)  # the transcript names each image by its pixels' hash
        shown = [c if c["type"] == "text" else {"type": "image", "sha256": next(hashes)} for c in content]
        self.records.append({"stage": stage, "content": shown, "reply": reply.content, "usage": reply.usage})
        if reply.content is None:
            raise ContractError(f"{stage}: the model sent no text")
        return reply.content

    def write_transcript(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in self.records), encoding="utf-8")


def _field(reply: str, key: str, what: str) -> str:
    value = json_object(reply).get(key)
    if not isinstance(value, str):
        raise ContractError(f"{what}: '{key}' is not a string")
    return value


def _verdicts(raw: Any, n: int) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        raise ContractError("'verdicts' is not a list")
    seen: dict[int, dict[str, Any]] = {}
    for v in raw:
        ok = isinstance(v, dict) and isinstance(v.get("index"), int) and isinstance(v.get("valid"), bool)
        if not ok or not 0 <= v["index"] < n or v["index"] in seen:
            raise ContractError(f"a verdict is not one of the {n} elements, judged once: {v!r}")
        seen[v["index"]] = {"index": v["index"], "valid": v["valid"], "reason": str(v.get("reason", ""))}
    if len(seen) != n:
        raise ContractError(f"{n - len(seen)} element(s) without a verdict")
    return [seen[i] for i in range(n)]


def _tokens(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9][a-z0-9.,%$/-]*[a-z0-9%]|[a-z0-9]", text.lower()))


def _carries(answer: str, element: str, allowed: list[str]) -> bool:
    """Whether the answer states an invalid element: its text, or one of its own specific tokens
    (one with a digit, or a word no valid element and not the question uses)."""
    if " ".join(element.lower().split()) in " ".join(answer.lower().split()):
        return True
    common = set().union(*(_tokens(a) for a in allowed)) if allowed else set()
    specific = {t for t in _tokens(element) - common if any(c.isdigit() for c in t) or len(t) > 3}
    return bool(specific & _tokens(answer))


def page_text(pages: list[Image.Image]) -> str:
    """Each page's OCR text, line by line."""
    parts = []
    for k, page in enumerate(pages, start=1):
        words = get_engine(PROTOCOL.ocr).words(page)
        parts.append(f"[page {k}]\n" + "\n".join(" ".join(w.text for w in line) for line in lines(words)))
    return "\n\n".join(parts)


def redact_pages(pages: list[Image.Image], policies: list[Protected]) -> list[Image.Image]:
    """The pages with what the policies protect blacked out: the embedded engine's items of the
    type-level policies' types, and for term-level ones the OCR words that spell the target, the
    rest of their line (where a label's value is), and the value the policy states."""
    types = frozenset(t for p in policies for t in p.types)
    engine = LocalEngine(policy=Policy("qa", types)) if types else None
    out = []
    for page in pages:
        boxes = [p.bbox for p in engine.predict(page)] if engine else []
        words = get_engine(PROTOCOL.ocr).words(page)
        for policy in policies:
            if not policy.type_level:
                boxes += [w.bbox for w in _term_words(words, policy)]
        out.append(redact(page, boxes))
    return out


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _term_words(words: list[Word], policy: Protected) -> list[Word]:
    terms = {_norm(t) for t in policy.terms} - {""}
    value = _norm(policy.value or "")
    found: list[Word] = []
    for line in lines(words):
        hits = [i for i, w in enumerate(line) if _norm(w.text) in terms]
        if terms and len({_norm(line[i].text) for i in hits}) >= max(1, (len(terms) + 1) // 2):
            found += line[min(hits) :]  # the target's words and what follows them: its value
        if value:
            for i in range(len(line)):
                run = ""
                for j in range(i, len(line)):
                    run += _norm(line[j].text)
                    if run == value:
                        found += line[i : j + 1]
                    if not value.startswith(run):
                        break
    return found
