"""Review before release: a local web page to check, fix and apply redactions."""
