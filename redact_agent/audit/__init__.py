"""Auditing redacted documents: where they were redacted, and whether each redaction holds."""
