"""The synthetic corpus's profiles by name, apart from the renderer, so that the command line
lists them without loading it."""

BALANCED = "balanced"  # each page type a share: the default, and the OCR detection model's calibration pages
LEAKAGEBENCH = "leakagebench"  # LeakageBench's page-type mix (its Table 7)
REDACTIONS = "redactions"  # redacted pages, on the leakagebench mix
ENTITIES = "entities"  # the leakagebench mix, naming people, phones and codes again in other forms
DOCUMENTS = "documents"  # the leakagebench mix in documents whose pages name each other's values
NAMES = (BALANCED, LEAKAGEBENCH, REDACTIONS, ENTITIES, DOCUMENTS)
