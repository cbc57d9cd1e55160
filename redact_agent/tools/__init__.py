"""Tools the agent can call: crop, zoom, OCR and the sandboxed Python kernel."""
