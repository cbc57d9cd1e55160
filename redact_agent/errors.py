"""The project's error hierarchy.

Every error the package raises on purpose derives from `RedactAgentError`, so a batch can
catch one class, record the message against the page and carry on with the next page.
"""

from pydantic import ValidationError


class RedactAgentError(Exception):
    """Base class of every deliberate error in redact-agent."""


class SchemaError(RedactAgentError):
    """A schema file is malformed, or a type is not in the schema."""


class InputError(RedactAgentError):
    """An input file (page, gold, prediction, config) cannot be read or is malformed."""


def describe(exc: ValidationError) -> str:
    """The first problem of a pydantic error as one line: `where: what`."""
    err = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in err["loc"])
    what = str(err["msg"]).removeprefix("Value error, ")  # a validator's own sentence
    return f"{where}: {what}" if where else what


class OutputError(RedactAgentError):
    """An output cannot be written (a read-only folder, a full disk)."""


class BackendError(RedactAgentError):
    """A model server did not answer one page's request (after the retries that were due)."""


class BackendUnavailable(RedactAgentError):
    """A model server refuses every request (a bad key, no access, no such model): stop the batch."""
