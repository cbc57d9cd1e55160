import json

import pytest

from redact_agent.errors import SchemaError
from redact_agent.schema import default_schema, load_schema


def test_default_schema_matches_the_spec_table():
    s = default_schema()
    assert len(s.types) == 22
    assert s.groups == ("Direct", "Linkage", "Contextual", "Other")
    assert s.critical_groups == {"Direct", "Linkage"}
    counts = {g: sum(t.group == g for t in s.types) for g in s.groups}
    assert counts == {"Direct": 4, "Linkage": 10, "Contextual": 6, "Other": 2}
    assert s.is_critical("PERSON_NAME") and s.is_critical("VEHICLE_ID")
    assert not s.is_critical("DATE") and not s.is_critical("SIGNATURE")
    assert s.type_names[0] == "PERSON_NAME" and s.index("INSTITUTION_CODE") == 21


def test_unknown_type_is_an_error():
    s = default_schema()
    assert "SSN" not in s
    with pytest.raises(SchemaError, match="unknown PII type 'SSN'"):
        s.group_of("SSN")
    with pytest.raises(SchemaError):
        s.index("SSN")


def test_user_schema_yaml_and_json(tmp_path):
    data = {
        "name": "tiny",
        "groups": ["Direct", "Other"],
        "critical_groups": ["Direct"],
        "types": {"NAME": {"group": "Direct", "covers": "a name"}, "CODE": {"group": "Other", "covers": "a code"}},
    }
    (tmp_path / "s.json").write_text(json.dumps(data))
    (tmp_path / "s.yaml").write_text(
        "name: tiny\ngroups: [Direct, Other]\ncritical_groups: [Direct]\n"
        "types:\n  NAME: {group: Direct, covers: a name}\n  CODE: {group: Other, covers: a code}\n"
    )
    for f in ("s.json", "s.yaml"):
        s = load_schema(tmp_path / f)
        assert s.type_names == ("NAME", "CODE") and s.is_critical("NAME") and not s.is_critical("CODE")


@pytest.mark.parametrize(
    "text, message",
    [
        ("name: x\ngroups: [Direct]\ncritical_groups: [Direct]\ntypes: {A: {group: Other, covers: a}}\n", "not listed"),
        ("name: x\ngroups: [Direct]\ncritical_groups: [Other]\ntypes: {A: {group: Direct, covers: a}}\n", "subset"),
        ("name: x\ngroups: [Direct]\ncritical_groups: []\ntypes: {A: {group: Secret, covers: a}}\n", "Direct"),
        ("name: x\ngroups: [Direct]\ncritical_groups: []\ntypes: {}\n", "at least one type"),
        ("name: x\ngroups: [Direct]\ncritical_groups: []\ntypes: {A: {group: Direct, covers: a, x: 1}}\n", "Extra"),
        ("name: [unclosed\n", "cannot parse"),
    ],
)
def test_malformed_schema_files(tmp_path, text, message):
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    with pytest.raises(SchemaError, match=message):
        load_schema(f)


def test_missing_schema_file(tmp_path):
    with pytest.raises(SchemaError, match="cannot read"):
        load_schema(tmp_path / "nope.yaml")
