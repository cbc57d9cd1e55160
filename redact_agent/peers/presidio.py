"""Presidio's image redactor as a peer system (the paper's generic OCR baseline), mapped onto
our schema. Optional extra `peers`: `pip install 'redact-agent[peers]'`.

Offline by construction:
- the NLP engine is `spacy.blank("en")` (Presidio's default spaCy model is not on PyPI), so
  Presidio's pattern recognisers run and its NER-based ones (PERSON, LOCATION, ORGANIZATION)
  find nothing;
- OCR is our Tesseract engine behind Presidio's `OCR` interface (Presidio's own needs the
  `tesseract` binary);
- tldextract uses the suffix list in its wheel instead of fetching one.
Presidio returns one box per OCR word; the words of one detected span are merged into one box.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from redact_agent.boxes import union_box
from redact_agent.errors import RedactAgentError
from redact_agent.pages import Finding, Prediction, PredictionPage
from redact_agent.policy import Policy
from redact_agent.tools.ocr import get_engine

# Presidio entity -> our type; entities with no counterpart are dropped.
ENTITIES = {
    "PERSON": "PERSON_NAME",
    "EMAIL_ADDRESS": "EMAIL_ADDRESS",
    "PHONE_NUMBER": "PHONE_NUMBER",
    "US_SSN": "GOVERNMENT_ID",
    "US_ITIN": "GOVERNMENT_ID",
    "US_PASSPORT": "GOVERNMENT_ID",
    "US_DRIVER_LICENSE": "GOVERNMENT_ID",
    "CREDIT_CARD": "FINANCIAL_ACCOUNT",
    "IBAN_CODE": "FINANCIAL_ACCOUNT",
    "US_BANK_NUMBER": "FINANCIAL_ACCOUNT",
    "CRYPTO": "FINANCIAL_ACCOUNT",
    "IP_ADDRESS": "ONLINE_ID",
    "URL": "ONLINE_ID",
    "DATE_TIME": "DATE",
    "LOCATION": "LOCATION",
    "ORGANIZATION": "ORGANIZATION",
    "MEDICAL_LICENSE": "BUSINESS_ID",
}


class PresidioUnavailable(RedactAgentError):
    """The `peers` extra is not installed."""


class PresidioPeer:
    def __init__(self, policy: Policy) -> None:
        try:
            import spacy
            import tldextract
            from presidio_analyzer import AnalyzerEngine
            from presidio_analyzer.nlp_engine import SpacyNlpEngine
            from presidio_image_redactor import ImageAnalyzerEngine
            from presidio_image_redactor.ocr import OCR
        except ImportError:
            raise PresidioUnavailable(
                "the Presidio peer needs the 'peers' extra: pip install 'redact-agent[peers]'"
            ) from None
        # the suffix list in tldextract's wheel, never a fetch
        tldextract.extract = tldextract.TLDExtract(suffix_list_urls=())  # type: ignore[assignment]
        self.policy = policy

        class BlankEnglish(SpacyNlpEngine):
            def load(self) -> None:
                self.nlp = {"en": spacy.blank("en")}  # type: ignore[assignment]

        class OurTesseract(OCR):
            def perform_ocr(self, image: object, **kwargs: Any) -> dict[str, list[Any]]:
                assert isinstance(image, Image.Image)
                words = get_engine("tesseract").words(image)
                return {
                    "text": [w.text for w in words],
                    "left": [w.bbox[0] for w in words],
                    "top": [w.bbox[1] for w in words],
                    "width": [w.bbox[2] - w.bbox[0] for w in words],
                    "height": [w.bbox[3] - w.bbox[1] for w in words],
                    "conf": [100 * w.confidence for w in words],
                }

        nlp = BlankEnglish(models=[{"lang_code": "en", "model_name": "blank"}])
        nlp.load()
        analyzer = AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])
        self._engine = ImageAnalyzerEngine(analyzer_engine=analyzer, ocr=OurTesseract())

    @property
    def name(self) -> str:
        return "presidio"

    def find_page(self, page_id: str, image: Image.Image) -> Finding:
        spans: dict[tuple[str, int, int], list[tuple[float, float, float, float]]] = {}
        for r in self._engine.analyze(image.convert("RGB")):
            box = (float(r.left), float(r.top), float(r.left + r.width), float(r.top + r.height))
            spans.setdefault((r.entity_type, r.start, r.end), []).append(box)
        predictions = []
        for (entity, _, _), boxes in sorted(spans.items(), key=lambda kv: kv[0][1]):
            ours = ENTITIES.get(entity)
            if ours and self.policy.redacts(ours):
                predictions.append(Prediction(type=ours, bbox=union_box(boxes)))
        return Finding(PredictionPage(page_id=page_id, valid=True, predictions=predictions, engine=self.name))

    def close(self) -> None:
        """Nothing to release."""
