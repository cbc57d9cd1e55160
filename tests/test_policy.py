from pathlib import Path

import pytest
from PIL import Image

from redact_agent.errors import InputError, SchemaError
from redact_agent.local.engine import LocalEngine
from redact_agent.policy import load_policy

PAGE = Path(__file__).parent / "fixtures" / "form-block.png"


def test_default_and_all():
    default, every = load_policy("default"), load_policy("all")
    assert default.redacts("PERSON_NAME") and default.redacts("CUSTOMER_ID") and default.redacts("SIGNATURE")
    assert not default.redacts("DATE") and not default.redacts("ORGANIZATION")
    assert every.redacts("DATE") and len(every.types) == 22 and len(default.types) == 16


def test_policy_file(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text(
        "base: default\ntypes_on: [DATE]\ntypes_off: [SIGNATURE]\n"
        "deny:\n  Flight Dates: ORGANIZATION\nallow: [david  cisco]\n"
    )
    policy = load_policy(str(f))
    assert policy.redacts("DATE") and not policy.redacts("SIGNATURE") and policy.allows("David Cisco")
    preds = LocalEngine(policy=policy, ocr="tesseract").predict(Image.open(PAGE).convert("RGB"))
    values = {(p.type, p.value) for p in preds}
    assert ("ORGANIZATION", "Flight Dates") in values  # denied term redacted with its type
    assert not any(v == "David Cisco" for _, v in values)  # allowed term stays visible
    assert ("DATE", "03/03/20") in values and ("CONTRACT_NUMBER", "14086") in values


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("types_on: [SSN]\n", SchemaError, "unknown PII type 'SSN'"),
        ("deny: {Falcon: CODENAME}\n", SchemaError, "unknown PII type 'CODENAME'"),
        ("colour: red\n", InputError, "Extra inputs"),
        ("base: strict\n", InputError, "base"),
        ("groups_on: [Secret]\n", InputError, "groups_on"),
        ("deny: [unclosed\n", InputError, "cannot parse"),
    ],
)
def test_bad_policy_files(tmp_path, text, error, message):
    f = tmp_path / "p.yaml"
    f.write_text(text)
    with pytest.raises(error, match=message):
        load_policy(str(f))


def test_unknown_policy_name():
    with pytest.raises(InputError, match="not 'default', 'all' or a readable file"):
        load_policy("strict")
