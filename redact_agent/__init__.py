"""redact-agent: find, remove and measure PII on document page images."""

__version__ = "0.1.0"
