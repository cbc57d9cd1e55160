"""OCR words laid out as rows of text, for recogniser tests that need no image."""

from redact_agent.local.engine import recognise
from redact_agent.local.spans import PageText
from redact_agent.tools.ocr import Word


def rows(*lines: tuple[str, tuple[float, float, float, float]]) -> list[Word]:
    """Each (text, line box) becomes one OCR line, its words spread evenly across the box."""
    out = []
    for line, (text, (x0, y0, x1, y1)) in enumerate(lines):
        step = (x1 - x0) / len(text.split())
        for k, part in enumerate(text.split()):
            out.append(Word(part, (x0 + k * step, y0, x0 + (k + 1) * step - 4, y1), 0.99, line, line))
    return out


def found(words: list[Word]) -> set[tuple[str, str]]:
    """(type, words' text) of every span the recognisers propose."""
    return {(s.type, " ".join(words[i].text for i in s.words)) for s in recognise(PageText.of(words))}
