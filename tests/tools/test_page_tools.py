import json
from pathlib import Path

import pytest
from PIL import Image

from redact_agent.coords import GRID_1000
from redact_agent.tools.page_tools import TOOLS, PageContext, call_tool
from redact_agent.tools.sandbox import KernelPool, Limits, SandboxPython, confinement_problem

FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.fixture
def ctx():
    return PageContext(
        Image.open(FIXTURES / "order-block.png").convert("RGB"), ocr_engine="tesseract"
    )  # tight word boxes


def test_every_tool_has_an_openai_schema_from_its_arguments():
    for name, tool in TOOLS.items():
        schema = tool.openai_schema()
        assert schema["type"] == "function" and schema["function"]["name"] == name
        params = schema["function"]["parameters"]
        assert params["type"] == "object" and params["additionalProperties"] is False
        assert schema["function"]["description"]
    assert TOOLS["zoom"].openai_schema()["function"]["parameters"]["required"] == ["box_2d"]


def test_crop_returns_the_region_and_how_to_map_back(ctx):
    result = call_tool(ctx, "crop", '{"box_2d": [0, 0, 499, 499]}')
    assert not result.error and len(result.images) == 1
    info = json.loads(result.text)
    assert info["offset_px"] == [0, 0] and info["image_size_px"] == list(result.images[0].size)
    # 499 / 999 of 400 px is 199.8 px: the crop takes whole pixels (200), i.e. grid 500.
    assert info["region_box_2d"] == [0, 0, 500, 500]


def test_zoom_magnifies(ctx):
    result = call_tool(ctx, "zoom", {"box_2d": [100, 100, 300, 400], "scale": 3})
    info = json.loads(result.text)
    assert info["scale"] == pytest.approx(3, rel=0.02) and result.images[0].size[0] > 200


def test_ocr_words_in_page_grid_coordinates(ctx):
    whole = json.loads(call_tool(ctx, "ocr", "{}").text)["words"]
    texts = [w["text"] for w in whole]
    assert "14086" in texts and "Carr" in texts
    number = next(w for w in whole if w["text"] == "14086")
    # Ink of "14086" spans x 59..104, y 13..25 of the 400 x 100 crop.
    assert number["box_2d"] == pytest.approx([147, 130, 260, 250], abs=12)
    part = json.loads(call_tool(ctx, "ocr", {"box_2d": [100, 0, 300, 400]}).text)["words"]
    assert [w["text"] for w in part] == ["14086"]
    assert part[0]["box_2d"] == pytest.approx(number["box_2d"], abs=6)


def test_coordinate_space_of_the_context_applies():
    ctx = PageContext(Image.new("RGB", (1000, 1000), "white"), space=GRID_1000)
    assert not call_tool(ctx, "crop", {"box_2d": [0, 0, 1000, 1000]}).error
    assert call_tool(PageContext(ctx.page), "crop", {"box_2d": [0, 0, 1000, 1000]}).error


@pytest.mark.parametrize(
    "name, arguments, message",
    [
        ("crop", '{"box_2d": [0, 0, 1000, 10]}', "outside 0..999"),
        ("crop", '{"box_2d": [10, 0, 5, 10]}', "x0 < x1"),
        ("crop", '{"box_2d": [0, 0, 10.5, 10]}', "valid integer"),
        ("crop", '{"box": [0, 0, 10, 10]}', "Field required"),
        ("crop", '{"box_2d": [0, 0, 10, 10], "colour": "red"}', "Extra inputs"),
        ("zoom", '{"box_2d": [0, 0, 10, 10], "scale": 9}', "less than or equal to 4"),
        ("crop", "{not json", "not JSON"),
        ("shred", "{}", "unknown tool 'shred'"),
        ("run_python", '{"code": "print(1)"}', "not available"),
    ],
)
def test_bad_calls_become_model_visible_errors(ctx, name, arguments, message):
    result = call_tool(ctx, name, arguments)
    assert result.error and message in result.text and result.text.startswith("error: ")


@pytest.mark.slow
@pytest.mark.skipif(confinement_problem() is not None, reason="no confinement here")
def test_run_python_tool_through_the_sandbox(ctx):
    from redact_agent.images import png_bytes

    pool = KernelPool(warm=0, limits=Limits(call_seconds=10))
    runner = SandboxPython(pool, png_bytes(ctx.page))
    ctx.python = runner
    try:
        result = call_tool(ctx, "run_python", {"code": "print(W, H)\ndisplay(zoom([0, 0, 500, 500], 2))"})
        assert not result.error and json.loads(result.text)["stdout"] == "400 100\n" and len(result.images) == 1
        failed = call_tool(ctx, "run_python", {"code": "undefined_name"})
        assert failed.error and "NameError" in json.loads(failed.text)["error"]
    finally:
        runner.close()
        pool.close()
