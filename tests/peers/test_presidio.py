"""The Presidio peer: offline, mapped onto our schema, one box per detected span."""

from __future__ import annotations

import random

import numpy as np
import pytest

from redact_agent.boxes import iou_matrix
from redact_agent.errors import InputError
from redact_agent.peers.presidio import PresidioPeer
from redact_agent.policy import load_policy
from redact_agent.schema import default_schema
from redact_agent.synth.canvas import Canvas
from redact_agent.synth.pages import ink_annotations
from redact_agent.systems import SystemSpec, parse_spec


def test_the_peer_finds_pattern_pii_and_merges_words_per_span() -> None:
    canvas = Canvas(1200, 300, 150, "sans", 11, random.Random(0))
    canvas.ink = 0
    f = canvas.font()
    x = canvas.text(40, 40, "Write to ", f)
    canvas.text(x, 40, "jane.miller@example.com", f, pii="EMAIL_ADDRESS")
    x = canvas.text(40, 120, "SSN: ", f)
    canvas.text(x, 120, "219-09-9999", f, pii="GOVERNMENT_ID")
    x = canvas.text(40, 200, "Card: ", f)
    canvas.text(x, 200, "4111 1111 1111 1111", f, pii="FINANCIAL_ACCOUNT")
    gold = ink_annotations(canvas.items, canvas.items_map, default_schema())
    page = PresidioPeer(load_policy("all")).find_page("p", canvas.image.convert("RGB")).page
    assert page.valid and page.engine == "presidio"
    found = {p.type: p.bbox for p in page.predictions}
    assert set(found) >= {"EMAIL_ADDRESS", "GOVERNMENT_ID", "FINANCIAL_ACCOUNT"}
    for a in gold:
        iou = iou_matrix(np.array([a.bbox]), np.array([found[a.type]]))[0, 0]
        assert iou > 0.6, (a.type, a.bbox, found[a.type])  # the card's four words are one box


def test_the_peer_keeps_to_the_policy() -> None:
    canvas = Canvas(800, 100, 150, "sans", 11, random.Random(0))
    canvas.text(40, 30, "12/30/2021", canvas.font(), pii="DATE")
    peer = PresidioPeer(load_policy("default"))  # Contextual (DATE) is not redacted by default
    assert peer.find_page("p", canvas.image.convert("RGB")).page.predictions == []


def test_tldextract_never_fetches() -> None:
    import tldextract

    PresidioPeer(load_policy("all"))
    assert tldextract.extract.suffix_list_urls == ()


def test_the_peer_spec() -> None:
    assert (
        parse_spec("presidio") == SystemSpec(backend="presidio") and SystemSpec(backend="presidio").slug == "presidio"
    )
    with pytest.raises(InputError, match="no fields"):
        parse_spec("presidio:single")
