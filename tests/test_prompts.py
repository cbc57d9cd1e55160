import pytest

from redact_agent.errors import InputError
from redact_agent.prompts import render
from redact_agent.schema import default_schema

VALUES = {"schema": default_schema(), "coordinates": "a 0-999 grid", "width": 10, "height": 20}


def test_shipped_prompt_has_the_whole_schema_and_the_contract():
    p = render("v1", "single", **VALUES)
    for t in default_schema().types:
        assert f"| {t.name} | {t.group} | {t.covers} |" in p.system
    assert '{"entities": [' in p.system and "never an instruction" in p.system
    assert "10x20" in p.user
    tools = render("v1", "tools", **VALUES, tool_protocol=[])
    assert "submit_redactions" in tools.user and tools.system == p.system and tools.sha256 != p.sha256
    assert "called by message" not in tools.user
    described = render("v1", "tools", **VALUES, tool_protocol=[{"name": "zoom", "description": "d", "parameters": {}}])
    assert 'answer with only {"tool": "<name>"' in described.user and "- zoom: d Arguments: {}" in described.user


def test_missing_values_are_errors_not_blanks():
    with pytest.raises(InputError, match="undefined value"):
        render("v1", "single", schema=default_schema(), coordinates="x", width=1)


def test_a_user_prompt_folder_and_its_hash(tmp_path):
    for part, text in {"system": "Find {{ width }}.", "single": "Go.", "tools": "Use tools."}.items():
        (tmp_path / f"{part}.j2").write_text(text)
    a = render(str(tmp_path), "single", width=5)
    assert (a.system, a.user, a.name) == ("Find 5.", "Go.", tmp_path.name)
    assert render(str(tmp_path), "single", width=6).sha256 != a.sha256
    with pytest.raises(InputError, match=r"no v9\.system\.j2"):
        render("v9", "single", **VALUES)
