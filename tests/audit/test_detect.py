"""The redaction detector on drawn pages: filled boxes of each kind with and without a code,
our own redacted output, and the look-alikes that are no redaction."""

import json
import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from redact_agent.audit import codes, detect
from redact_agent.audit.job import run
from redact_agent.audit.regions import Region
from redact_agent.redact import redact
from redact_agent.synth.canvas import font
from redact_agent.tools.ocr import Word, get_engine

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _page() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    page = Image.new("RGB", (1700, 2200), "white")
    draw = ImageDraw.Draw(page)
    font = ImageFont.load_default(size=28)
    for row in range(20):
        draw.text((100, 120 + row * 50), "Dit is een regel tekst met wat woorden erin.", fill="black", font=font)
    draw.line((100, 1200, 1600, 1200), fill="black", width=4)  # a table rule
    return page, draw


def _boxes(page: Image.Image) -> list[tuple[float, float, float, float]]:
    return [r.bbox for r in detect.find(page, get_engine())]


def test_filled_boxes_of_each_kind_are_found_with_their_kind():
    page, draw = _page()
    drawn = {"black": ((300, 165, 700, 205), (0, 0, 0)), "gray": ((300, 315, 700, 355), (170, 170, 170)),
             "color": ((300, 465, 700, 505), (240, 160, 40))}  # fmt: skip
    for box, fill in drawn.values():
        draw.rectangle(box, fill=fill)
    found = sorted(detect.find(page, get_engine()), key=lambda r: r.bbox[1])
    assert [r.kind for r in found] == ["black", "gray", "color"]
    for r, (box, _) in zip(found, drawn.values(), strict=True):  # the text the boxes touch stays out
        assert all(abs(a - b) <= 3 for a, b in zip(r.bbox, (box[0], box[1], box[2] + 1, box[3] + 1), strict=True))


def test_a_ground_printed_on_a_box_is_read_and_a_shaded_field_is_no_redaction():
    page, draw = _page()
    font = ImageFont.load_default(size=30)
    draw.rectangle((300, 1300, 600, 1345), fill=(192, 192, 192))
    draw.text((400, 1305), "5.1.2e", fill="white", font=font)
    draw.rectangle((300, 1500, 1100, 1545), fill=(200, 200, 200))  # a shaded header showing its words
    draw.text((310, 1505), "Omschrijving van de kosten", fill="black", font=font)
    found = detect.find(page, get_engine())
    assert [(r.kind, r.code) for r in found] == [("gray", "5.1.2e")]


def test_our_own_redactions_are_all_found(tmp_path):
    page, _ = _page()
    boxes = [(300, 170, 520, 200), (100, 420, 400, 450), (800, 870, 1200, 900)]
    out = redact(page, boxes)
    found = _boxes(out)
    assert len(found) == 3
    for box, hit in zip(sorted(boxes), sorted(found), strict=True):
        assert hit[0] <= box[0] and hit[1] <= box[1] and hit[2] >= box[2] and hit[3] >= box[3]


def test_the_audit_command_writes_each_page_and_a_summary(tmp_path):
    page, draw = _page()
    draw.rectangle((300, 165, 700, 205), fill="black")
    page.save(tmp_path / "page.png")
    (tmp_path / "broken.png").write_bytes(b"not a png")
    status = run([str(tmp_path / "page.png"), str(tmp_path / "broken.png")], tmp_path / "out", tmp_path / "s.json")
    assert status == 2  # the broken file is named and the other page is audited
    assert (tmp_path / "out" / "page.audit.json").is_file() and (tmp_path / "out" / "page.audit.png").is_file()
    summary = json.loads((tmp_path / "s.json").read_text())
    assert (summary["pages"], summary["regions"], len(summary["errors"])) == (1, 1, 1)
    assert "broken.png" in summary["errors"][0] and (tmp_path / "out" / "audit.md").is_file()


def test_the_pieces_a_logo_bar_s_letters_cut_out_are_no_redactions():
    page, draw = _page()
    draw.rectangle((300, 1400, 1000, 1470), fill=(200, 30, 40))  # a station logo's bar
    for k, letter in enumerate("WKRG-TV"):
        draw.text((320 + k * 95, 1398), letter, fill="white", font=ImageFont.load_default(size=72))
    assert detect.find(page, get_engine()) == []


def test_a_low_gray_box_is_not_cut_apart_by_the_white_ground_printed_on_it():
    page, draw = _page()
    draw.rectangle((300, 1300, 560, 1333), fill=(192, 192, 192))  # barely taller than its text
    draw.text((330, 1301), "5.1.2e", fill="white", font=ImageFont.load_default(size=30))
    found = detect.find(page, get_engine())
    assert [(r.bbox, r.kind, r.code) for r in found] == [((300.0, 1300.0, 561.0, 1334.0), "gray", "5.1.2e")]


def test_an_outline_with_its_ground_inside_is_a_redaction_and_a_blank_field_or_a_table_is_not():
    page, draw = _page()
    font = ImageFont.load_default(size=30)
    draw.rectangle((300, 1300, 800, 1350), outline="black", width=2)  # blanked text, its ground inside
    draw.text((306, 1308), "5.1.2.e", fill="black", font=font)
    draw.rectangle((300, 1500, 800, 1550), outline="black", width=2)  # an empty form field
    for col in range(4):  # a table: one grid line around many cells
        for row in range(3):
            draw.rectangle(
                (300 + col * 200, 1700 + row * 60, 500 + col * 200, 1760 + row * 60), outline="black", width=2
            )
    draw.text((306, 1708), "5.1.2.e", fill="black", font=font)
    found = detect.find(page, get_engine())
    assert [(r.kind, r.code) for r in found] == [("outline", "5.1.2.e")]
    assert all(abs(a - b) <= 3 for a, b in zip(found[0].bbox, (300, 1300, 801, 1351), strict=True))


def test_our_boxes_painted_over_each_other_are_found_as_one():
    page, _ = _page()
    out = redact(page, [(300, 170, 700, 200), (600, 180, 700, 230)])  # a line's box and one over the next line
    found = _boxes(out)
    assert len(found) == 1
    assert found[0][0] <= 300 and found[0][1] <= 170 and found[0][2] >= 700 and found[0][3] >= 230


def test_a_black_box_on_a_shaded_ground_or_touching_a_logos_gray_is_found():
    page, draw = _page()
    draw.rectangle((100, 1300, 1600, 1420), fill=(215, 215, 215))  # a shaded field showing its text
    draw.text((800, 1340), "Terms and conditions", fill="black", font=ImageFont.load_default(size=30))
    draw.rectangle((300, 1340, 700, 1375), fill="black")
    draw.ellipse((900, 1600, 1100, 1800), fill=(200, 200, 200))  # a gray logo
    draw.rectangle((1050, 1680, 1400, 1720), fill="black")
    found = [(r.bbox, r.kind) for r in detect.find(page, get_engine())]
    assert ((300.0, 1340.0, 701.0, 1376.0), "black") in found and ((1050.0, 1680.0, 1401.0, 1721.0), "black") in found


def test_a_box_on_a_skewed_scan_is_found_turned_with_its_code():
    page, draw = _page()
    draw.rectangle((300, 1300, 800, 1340), fill="black")
    draw.text((480, 1304), "(b)(6)", fill="white", font=ImageFont.load_default(size=30))  # nearly as tall as the box
    turned = page.rotate(2.5, resample=Image.BILINEAR, fillcolor="white")
    [found] = [r for r in detect.find(turned, get_engine()) if r.bbox[1] > 1200]
    assert found.polygon is not None and found.code == "(b)(6)"
    # the gold is the drawn box's corners, turned with the page about its centre
    cx, cy, a = 850, 1100, math.radians(2.5)
    corners = [(300, 1300), (801, 1300), (801, 1341), (300, 1341)]
    gold = [(cx + (x - cx) * math.cos(a) + (y - cy) * math.sin(a), cy - (x - cx) * math.sin(a) + (y - cy) * math.cos(a))
            for x, y in corners]  # fmt: skip
    truth = Region(found.bbox, tuple(gold))
    assert truth.overlap(found) / (truth.area + found.area - truth.overlap(found)) > 0.9


def test_a_box_marked_out_of_scope_is_a_redaction_and_a_header_bar_is_not():
    page, draw = _page()
    font = ImageFont.load_default(size=28)
    draw.rectangle((150, 1300, 1400, 1340), fill="black")
    draw.text((160, 1305), "behoort niet tot Wob verzoek", fill="white", font=font)
    draw.rectangle((150, 1500, 1400, 1540), fill="black")
    draw.text((160, 1505), "Description of the services", fill="white", font=font)
    assert [(r.bbox[1], r.code) for r in detect.find(page, get_engine())] == [(1300.0, "behoort niet tot Wob verzoek")]


def test_a_felt_tip_stroke_is_a_marker_and_a_drawn_box_is_black():
    page, draw = _page()
    draw.line([(330, 1320), (500, 1324), (680, 1318)], fill=(20, 20, 20), width=40, joint="curve")
    for x, y in ((330, 1320), (680, 1318)):
        draw.ellipse((x - 20, y - 20, x + 20, y + 20), fill=(20, 20, 20))
    draw.rectangle((300, 1500, 700, 1540), fill="black")
    assert [r.kind for r in detect.find(page, get_engine())] == ["marker", "black"]


def test_a_round_ended_blot_under_twice_as_wide_as_tall_is_no_marker_stroke():
    page, draw = _page()
    draw.rounded_rectangle((300, 1300, 360, 1336), radius=14, fill=(20, 20, 20))  # a bold glyph pair's size
    draw.rounded_rectangle((300, 1500, 420, 1536), radius=14, fill=(20, 20, 20))  # a stroke over a short word
    assert [(r.kind, r.bbox[1]) for r in detect.find(page, get_engine())] == [("marker", 1500.0)]


def test_a_ground_s_number_on_a_black_box_is_its_code_and_a_number_in_a_gray_cell_is_not():
    page, draw = _page()
    font = ImageFont.load_default(size=30)
    draw.rectangle((300, 1300, 500, 1340), fill="black")
    draw.text((390, 1303), "3", fill="white", font=font)
    draw.rectangle((300, 1500, 500, 1540), fill=(200, 200, 200))
    draw.text((390, 1503), "3", fill="black", font=font)
    assert [(r.bbox[1], r.kind, r.code) for r in detect.find(page, get_engine())] == [(1300.0, "black", "3")]


def test_outlined_boxes_that_an_underline_joins_or_that_touch_on_the_next_line_are_each_found():
    page, draw = _page()
    font = ImageFont.load_default(size=30)
    boxes = [(300, 1300, 560, 1345), (800, 1300, 1060, 1345), (1000, 1352, 1300, 1397)]  # the third under the second
    for x0, y0, x1, y1 in boxes:
        draw.rectangle((x0, y0, x1, y1), outline="black", width=2)
        draw.text((x0 + 10, y0 + 7), "5.1.2.e", fill="black", font=font)
    draw.text((570, 1305), "@wur.nl>;", fill="black", font=font)
    draw.line((560, 1342, 800, 1342), fill="black", width=2)  # a mail address's underline joins the first two
    found = detect.find(page, get_engine())
    assert [(r.kind, r.code) for r in found] == [("outline", "5.1.2.e")] * 3
    for r, (x0, y0, x1, y1) in zip(found, boxes, strict=True):
        assert all(abs(a - b) <= 3 for a, b in zip(r.bbox, (x0, y0, x1 + 1, y1 + 1), strict=True))


class _Reads:
    """An OCR engine that reads every crop as one text, as a small blurred code is misread."""

    name = "fixed"

    def __init__(self, text: str) -> None:
        self.text = text

    def words(self, image: Image.Image) -> list[Word]:
        return [Word(self.text, (0.0, 0.0, float(image.width), float(image.height)), 0.5, 0, 0)]

    def clear_cache(self) -> None:
        pass


def test_a_misread_code_on_a_fill_leaves_it_a_redaction_and_a_word_showing_does_not():
    page, draw = _page()
    draw.rectangle((300, 1300, 560, 1333), fill=(192, 192, 192))
    draw.text((330, 1301), "5.1.2e", fill="white", font=ImageFont.load_default(size=30))
    assert [r.code for r in detect.find(page, _Reads("51 2e"))] == ["51 2e"]
    assert [r.code for r in detect.find(page, _Reads("bH4)"))] == ["bH4)"]
    assert [r.code for r in detect.find(page, _Reads("(bN7HC)"))] == ["(bN7HC)"]  # a FOIA code's opening
    assert [r.code for r in detect.find(page, _Reads("(bK(7HC)"))] == ["(bK(7HC)"]
    assert detect.find(page, _Reads("p rem iu m")) == []
    assert detect.find(page, _Reads("M 50182")) == []  # a value showing through a shaded field


def test_a_heavy_logos_letter_stem_and_an_unevenly_shaded_piece_are_no_redactions():
    page, draw = _page()
    draw.rectangle((300, 1300, 318, 1338), fill="black")  # the "I" of a bold logo: narrower than tall
    draw.rectangle((900, 1300, 1171, 1345), fill=(150, 150, 150))  # a piece of a logo shaded in two
    draw.rectangle((1172, 1300, 1299, 1345), fill=(195, 195, 195))  # grays: no box is painted so unevenly
    assert _boxes(page) == []
    draw.rectangle((300, 1500, 700, 1545), fill=(150, 150, 150))  # an even gray box is one
    assert len(_boxes(page)) == 1


def test_boxes_painted_one_under_another_on_a_blurred_scan_are_each_found():
    # three boxes on successive lines with a 3 px hairline of paper, which the blur greys
    page, draw = _page()
    for top in (1300, 1343, 1386):
        draw.rectangle((300, top, 300 + (400 if top != 1343 else 330), top + 39), fill="black")
    blurred = page.rotate(1.2, resample=Image.BILINEAR, fillcolor="white").filter(ImageFilter.GaussianBlur(1))
    found = [r for r in detect.find(blurred, get_engine()) if r.bbox[1] > 1250]
    assert len(found) == 3 and all(r.kind == "black" for r in found)
    assert all(r.bbox[3] - r.bbox[1] < 55 for r in found)


def test_a_glyph_hole_as_tall_as_the_box_is_filled_a_bracket_s_too():
    # "(b)(4)" in large white print: its brackets leave tall thin holes with paper above and below the box
    page, draw = _page()
    draw.rectangle((300, 1300, 460, 1332), fill="black")
    draw.text((335, 1302), "(b)(4)", fill="white", font=ImageFont.load_default(size=26))
    [found] = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert found.bbox[0] <= 301 and found.bbox[2] >= 459 and found.code == "(b)(4)"


def test_an_outline_with_small_print_inside_is_read_enlarged():
    # a 1100 px tall page: a 15 px outline whose ground is in 8 px print, which the OCR reads
    # only enlarged
    page = Image.new("RGB", (850, 1100), "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((458, 460, 536, 476), outline="black", width=2)
    draw.text((478, 463), "(b)(6)", fill="black", font=ImageFont.load_default(size=10))
    found = detect.find(page, get_engine())
    assert [(r.kind, r.code) for r in found] == [("outline", "(b)(6)")]


def test_gray_boxes_on_touching_lines_of_a_skewed_scan_or_side_by_side_are_each_found():
    # on a page turned by a degree, boxes painted on successive lines with a 3 px hairline touch
    # the band above or below each other; two boxes of one line stand 6 px apart
    page, draw = _page()
    for top, right in ((1300, 700), (1343, 630), (1386, 760)):
        draw.rectangle((300, top, right, top + 39), fill=(170, 170, 170))
    draw.rectangle((300, 1600, 560, 1640), fill=(170, 170, 170))
    draw.rectangle((567, 1600, 800, 1640), fill=(170, 170, 170))
    turned = page.rotate(1.0, resample=Image.BILINEAR, fillcolor="white")
    found = [r for r in detect.find(turned, get_engine()) if r.bbox[1] > 1250]
    assert len(found) == 5 and all(r.kind == "gray" for r in found)


def test_an_outline_whose_code_the_ocr_reads_with_braces_has_the_code():
    page, draw = _page()
    draw.rectangle((300, 1300, 500, 1330), outline="black", width=2)
    draw.text((320, 1303), "(b)(7)(C)", fill="black", font=ImageFont.load_default(size=20))
    found = [r for r in detect.find(page, _Reads("(b)(7}(C}")) if r.bbox[1] > 1250]
    assert [(r.kind, r.code) for r in found] == [("outline", "(b)(7)(C)")]


def test_an_outline_as_low_as_a_line_of_small_print_is_found():
    # a 150 DPI page (1650 px tall): a 16 px outline, 12 px inside
    page = Image.new("RGB", (1275, 1650), "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((636, 269, 712, 284), outline="black", width=2)
    found = detect.find(page, _Reads("(b)(7)(C)"))
    assert [(r.kind, r.code) for r in found] == [("outline", "(b)(7)(C)")]


def test_gray_boxes_that_touch_and_make_one_box_are_taken_apart_by_their_codes():
    # 0010-page0 of the Woo pages: the "To:" and "From:" lines' boxes, painted as wide as each
    # other with no paper between them, each with its ground
    page, draw = _page()
    font = ImageFont.load_default(size=24)
    for top in (1300, 1334):
        draw.rectangle((300, top, 660, top + 33), fill=(192, 192, 192))
        draw.text((440, top + 3), "5.1.2e", fill="white", font=font)
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [(r.kind, r.code) for r in found] == [("gray", "5.1.2e"), ("gray", "5.1.2e")]
    assert found[0].bbox[3] <= found[1].bbox[1] + 1 and found[1].bbox[3] >= 1366


def test_a_gray_box_that_a_stamps_letters_touch_is_taken_out_by_its_tone():
    # a stamp's darker gray letter touching a box makes one component with it, no box in shape
    page, draw = _page()
    draw.rectangle((300, 1300, 620, 1340), fill=(192, 192, 192))
    draw.rectangle((560, 1335, 640, 1460), fill=(110, 110, 110))  # the stamp's letter
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250 and r.kind == "gray"]
    assert len(found) == 1
    assert all(abs(a - b) <= 3 for a, b in zip(found[0].bbox, (300, 1300, 621, 1341), strict=True))


def test_a_gray_box_that_a_stamps_ring_in_its_own_tone_crosses_is_found_and_a_painted_paragraph_is_not_cut():
    page, draw = _page()
    draw.rectangle((300, 1300, 700, 1350), fill=(150, 150, 150))
    draw.ellipse((420, 1230, 620, 1430), outline=(150, 150, 150), width=12)  # the ring, in the box's gray
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [r.kind for r in found] == ["gray"]
    assert all(abs(a - b) <= 3 for a, b in zip(found[0].bbox, (300, 1300, 701, 1351), strict=True))
    # lines of a paragraph painted over as one, ragged, joined by a thin margin: no box a line each
    page, draw = _page()
    for top, right in ((1300, 900), (1350, 800), (1400, 1000)):
        draw.rectangle((300, top, right, top + 40), fill=(170, 170, 170))
    draw.rectangle((300, 1300, 312, 1520), fill=(170, 170, 170))
    assert [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250] == []


def _coded_gray_boxes(draw: ImageDraw.ImageDraw, boxes: list[tuple[int, int, int, int]], inset: int) -> None:
    """Gray boxes, "5.1.2e" printed in white on each, `inset` pixels in from its left."""
    font = ImageFont.load_default(size=24)
    for left, top, right, bottom in boxes:
        draw.rectangle((left, top, right, bottom), fill=(192, 192, 192))
        draw.text((left + inset, top + 3), "5.1.2e", fill="white", font=font)


def test_gray_boxes_that_touch_side_by_side_are_taken_apart_by_their_codes():
    # two boxes of one line with no paper between them: each share is judged without its
    # neighbour counting as the shaded bar it would be a piece of; the cut lies midway between
    # the codes, which stand a little off the boxes' middles here
    page, draw = _page()
    _coded_gray_boxes(draw, [(300, 1300, 520, 1333), (521, 1300, 760, 1333)], inset=70)
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [(r.kind, r.code) for r in found] == [("gray", "5.1.2e"), ("gray", "5.1.2e")]
    assert abs(found[0].bbox[2] - 521) <= 10 and found[1].bbox[2] >= 760


def test_a_box_turned_less_than_a_skew_worth_drawing_is_black_not_a_marker():
    # a box on a scan turned 0.45 degrees: it fills its upright rectangle at under 0.96, as a
    # marker stroke would, and the turned one to the corners
    page, _ = _page()
    box = Image.new("L", (900, 60), 0)
    turned = box.rotate(0.45, resample=Image.NEAREST, expand=True, fillcolor=255)
    page.paste(turned, (400, 1300))
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [r.kind for r in found] == ["black"]


def test_an_outline_a_stamps_ring_touches_is_no_table_cell():
    # the ring's arc enters the box: the piece it cuts off shares the box's bottom edge, not its row
    page, draw = _page()
    draw.rectangle((300, 1300, 880, 1360), outline="black", width=3)
    draw.text((420, 1312), "10.2.e", fill="black", font=ImageFont.load_default(size=30))
    draw.ellipse((700, 1320, 1000, 1620), outline=(130, 130, 130), width=12)
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [(r.kind, r.code) for r in found] == [("outline", "10.2.e")]


def test_an_outline_whose_foia_code_the_ocr_misreads_is_a_redaction_and_a_boxed_number_is_not():
    page, draw = _page()
    draw.rectangle((300, 1300, 500, 1340), outline="black", width=2)
    assert [r.code for r in detect.find(page, _Reads("(bH6)"))] == ["(bH6)"]
    assert [r.code for r in detect.find(page, _Reads("(H(7)(C)"))] == ["(H(7)(C)"]  # its 'b' misread
    assert [r.code for r in detect.find(page, _Reads("C.1.1C"))] == ["C.1.1C"]  # a Woo ground, its '5' misread
    assert [r.code for r in detect.find(page, _Reads("5..2i"))] == ["5..2i"]  # a digit a stamp's ring hides
    assert [r.code for r in detect.find(page, _Reads("5.1.1cl"))] == ["5.1.1cl"]  # a stamp's frame beside it
    for dotless in ("51 1c", "10 2 e", "111"):  # small blurred print's dots lost
        assert [r.code for r in detect.find(page, _Reads(dotless))] == [dotless]
    assert detect.find(page, _Reads("2021")) == []
    assert detect.find(page, _Reads("A.B")) == []
    assert detect.find(page, _Reads("no..")) == []
    assert detect.find(page, _Reads("12 3")) == []
    assert detect.find(page, _Reads("(a) 12")) == []


def test_a_small_black_box_whose_code_the_blur_spreads_is_found():
    # a noisy blurred scan: the light print's blurred edge is no part of the box's tone
    page = Image.new("L", (850, 1100), 250)
    draw = ImageDraw.Draw(page)
    draw.rectangle((300, 500, 392, 522), fill=0)
    draw.text((316, 503), "(b)(6)", fill=255, font=ImageFont.load_default(size=14))
    noise = np.random.default_rng(0).normal(0, 35, (1100, 850))
    scan = np.clip(np.asarray(page.filter(ImageFilter.GaussianBlur(0.7))) + noise, 0, 255).astype(np.uint8)
    assert [r.kind for r in detect.find(Image.fromarray(scan).convert("RGB"), get_engine())] == ["black"]


def test_a_black_box_a_stamps_ring_bites_into_is_black():
    # the ring's gray arc cuts into the box's lower edge: the black alone is ragged as a marker
    # stroke, but black and gray together paint the box to its corners
    page, draw = _page()
    draw.rectangle((300, 1300, 800, 1370), fill="black")
    draw.ellipse((380, 1340, 620, 1580), outline=(190, 190, 190), width=30)
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250 and r.kind == "black"]
    assert len(found) == 1 and found[0].bbox[0] <= 301 and found[0].bbox[2] >= 799


def test_gray_boxes_of_several_widths_that_touch_with_two_on_a_line_are_taken_apart():
    # 0012-page0 of the Woo pages: the "To:" line's two boxes over the "From:" line's one, each
    # its own width; a paragraph's lines painted over as one, a ground on each, are not taken
    # apart by their codes
    page, draw = _page()
    _coded_gray_boxes(draw, [(300, 1300, 520, 1333), (521, 1300, 700, 1333), (300, 1334, 580, 1367)], inset=50)
    found = [r for r in detect.find(page, get_engine()) if 1250 < r.bbox[1] < 1450]
    assert [(r.kind, r.code) for r in found] == [("gray", "5.1.2e")] * 3
    _coded_gray_boxes(
        draw, [(300, top, right, top + 33) for top, right in ((1500, 1200), (1534, 900), (1568, 1100))], inset=10
    )
    paragraph = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1450]
    assert len(paragraph) < 3  # not taken apart line by line by its codes


def test_a_marking_that_its_box_cuts_short_is_a_code_and_a_word_of_it_is_not():
    assert codes.is_code("bbehoort noiet") and codes.is_code("behoort noiet tot")
    assert not codes.is_code("behoort") and not codes.is_code("niet tot")


def test_a_tables_shaded_cells_between_its_rules_are_no_redaction_and_a_box_on_an_underline_is():
    page, draw = _page()
    for y in (1300, 1340, 1420):  # a schedule's rows: its rules run on past the shaded block
        draw.line((200, y, 1500, y), fill="black", width=1)
    draw.rectangle((600, 1300, 1100, 1420), fill=(192, 192, 192))
    assert not [r for r in detect.find(page, get_engine()) if 1250 < r.bbox[1] < 1450]
    draw.rectangle((300, 1600, 700, 1660), fill=(120, 120, 120))  # a box painted over two lines
    draw.rectangle((360, 1664, 620, 1690), fill=(120, 120, 120))  # and one under it, on an underline
    draw.line((300, 1691, 1200, 1691), fill="black", width=2)
    assert len([r for r in detect.find(page, get_engine()) if r.bbox[1] > 1550]) == 2


def test_a_felt_tip_stroke_a_stamps_gray_letter_touches_is_a_marker():
    # the stroke and the stamp's letter make one tinted component; the black alone is the stroke
    # (seed 5 of `synth --profile redactions`: two such strokes were dropped as a logo's pieces)
    page, draw = _page()
    draw.line([(330, 1320), (500, 1324), (680, 1318)], fill=(20, 20, 20), width=40, joint="curve")
    for x, y in ((330, 1320), (680, 1318)):
        draw.ellipse((x - 20, y - 20, x + 20, y + 20), fill=(20, 20, 20))
    draw.rectangle((560, 1338, 600, 1460), fill=(160, 160, 160))  # a stamp's letter, touching the stroke
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [r.kind for r in found] == ["marker"] and found[0].bbox[0] <= 311 and found[0].bbox[2] >= 699


def _blurred_box(fill: int, print_: int, code: str, w: int, h: int, size: int) -> Image.Image:
    """A small box on a scan blurred so much that its print spreads over much of its ground."""
    page = Image.new("L", (850, 1100), 250)
    draw = ImageDraw.Draw(page)
    draw.rectangle((300, 500, 300 + w, 500 + h), fill=fill)
    draw.text((300 + w // 5, 500 + (h - size) // 2), code, fill=print_, font=ImageFont.load_default(size=size))
    noise = np.random.default_rng(0).normal(0, 8, (1100, 850))
    blurred = np.asarray(page.filter(ImageFilter.GaussianBlur(1.3))) + noise
    return Image.fromarray(np.clip(blurred, 0, 255).astype(np.uint8)).convert("RGB")


def test_a_black_box_its_blurred_code_makes_uneven_is_found_by_its_code():
    page = _blurred_box(0, 255, "(b)(7)(C)", 110, 21, 13)
    assert [r.kind for r in detect.find(page, _Reads("(b)(6)"))] == ["black"]
    assert detect.find(page, _Reads("Total")) == []  # uneven black with a word on it: no box is painted so


def test_an_outline_whose_edge_a_stamp_paints_over_is_found_and_boxes_side_by_side_stay_two():
    page, draw = _page()
    font = ImageFont.load_default(size=30)
    draw.rectangle((300, 1300, 800, 1350), outline="black", width=3)
    draw.text((330, 1308), "10.2.e", fill="black", font=font)
    draw.ellipse((560, 1265, 680, 1385), outline=(200, 200, 200), width=14)  # a stamp's light ring over its edges
    draw.rectangle((300, 1500, 560, 1550), outline="black", width=3)  # two boxes 20 px apart on one line
    draw.rectangle((580, 1500, 840, 1550), outline="black", width=3)
    draw.text((380, 1508), "5.1.2e", fill="black", font=font)
    draw.text((660, 1508), "(b)(6)", fill="black", font=font)
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [(r.kind, r.code) for r in found] == [("outline", "10.2.e"), ("outline", "5.1.2e"), ("outline", "(b)(6)")]


def test_blank_outlines_as_low_as_the_coded_ones_of_their_page_are_redactions():
    page, draw = _page()
    font = ImageFont.load_default(size=30)
    for top, code in ((1300, "5.1.2e"), (1400, "10.2.e")):
        draw.rectangle((300, top, 800, top + 50), outline="black", width=2)
        draw.text((480, top + 8), code, fill="black", font=font)
    draw.rectangle((300, 1500, 420, 1550), outline="black", width=2)  # a short value's: its ground did not fit
    draw.rectangle((300, 1600, 800, 1620), outline="black", width=2)  # too low for one of them
    draw.rectangle((300, 1700, 800, 1750), outline="black", width=2)  # a field with a word in it
    draw.text((320, 1708), "Amsterdam", fill="black", font=font)
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [(r.bbox[1], r.code) for r in found] == [(1300, "5.1.2e"), (1400, "10.2.e"), (1500, None)]


def test_a_small_outline_its_codes_glyphs_cut_apart_is_one_redaction():
    # a 150 DPI fax: the code's bold glyph touches the box's top and bottom, its inside is two holes
    page = Image.new("RGB", (1275, 1650), "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((600, 300, 680, 316), outline="black", width=2)
    draw.rectangle((636, 300, 641, 316), fill="black")
    found = detect.find(page, _Reads("(b)(4)"))
    assert [(r.kind, r.code) for r in found] == [("outline", "(b)(4)")]
    assert all(abs(a - b) <= 3 for a, b in zip(found[0].bbox, (600, 300, 681, 317), strict=True))


def test_a_small_outline_its_codes_glyphs_cut_into_pieces_narrower_than_a_box_is_one_redaction():
    # a 100 DPI fax: the glyphs cut the inside into pieces narrower than a box, and a narrow gap
    # between glyphs and a glyph's counter are holes too
    page = Image.new("RGB", (850, 1100), "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((584, 453, 634, 467), outline="black", width=2)
    draw.rectangle((601, 453, 605, 467), fill="black")  # glyphs touching the top and bottom
    draw.rectangle((613, 453, 617, 467), fill="black")
    draw.rectangle((609, 456, 610, 467), fill="black")  # the gap between them is cut in two
    draw.rectangle((602, 459, 603, 461), fill="white")  # a glyph's counter
    found = detect.find(page, _Reads("(b)(6)"))
    assert [(r.kind, r.code) for r in found] == [("outline", "(b)(6)")]
    assert all(abs(a - b) <= 3 for a, b in zip(found[0].bbox, (584, 453, 635, 468), strict=True))
    # a lower box: pieces whose contour's area falls short of their pixels' (15 x 8 px inside)
    page = Image.new("RGB", (850, 1100), "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((56, 428, 111, 439), outline="black", width=2)
    for x in (73, 78, 83, 88, 92):  # the code's glyphs
        draw.rectangle((x, 428, x + 2, 439), fill="black")
    found = detect.find(page, _Reads("5.1.1c"))
    assert [(r.kind, r.code) for r in found] == [("outline", "5.1.1c")]


def test_a_skewed_small_outline_its_codes_glyphs_cut_apart_is_one_and_a_grainy_fill_is_no_outline():
    # the scan turned the box: its line runs into the rectangle around its pieces, its corners out
    page = Image.new("L", (850, 1100), 255)
    draw = ImageDraw.Draw(page)
    draw.rectangle((380, 294, 466, 309), outline=0, width=2)
    for x in (410, 420, 428):  # the code's glyphs, touching the top and bottom
        draw.rectangle((x, 294, x + 3, 309), fill=0)
    page = page.rotate(1.2, resample=Image.Resampling.BILINEAR, fillcolor=255, center=(423, 301))
    found = detect.find(page.convert("RGB"), _Reads("11.1"))
    assert [(r.kind, r.code) for r in found] == [("outline", "11.1")]
    # a gray fill a shade lighter than a drawn line's threshold, inside a darker rim, its code's
    # glyphs touching its top and bottom: the fill beside them is no outline's inside
    gray = Image.new("L", (850, 1100), 255)
    draw = ImageDraw.Draw(gray)
    draw.rectangle((108, 212, 219, 227), fill=163, outline=150, width=1)
    for x in (150, 160, 170):
        draw.rectangle((x, 212, x + 3, 227), fill=0)
    assert [r.kind for r in detect.find(gray.convert("RGB"), _ReadsWide("10.2.e"))] == ["gray"]


class _ReadsWide(_Reads):
    """Reads its text on a crop as wide as a whole small box enlarged, nothing on a piece of it."""

    def words(self, image: Image.Image) -> list[Word]:
        return super().words(image) if image.width > 250 else []


def test_a_black_box_whose_code_is_nearly_as_high_as_it_is_one_box_and_a_bold_letter_is_none():
    # a 150 DPI fax: thin black above and below the code's glyphs, which touch one another
    page = Image.new("L", (1275, 1650), 255)
    draw = ImageDraw.Draw(page)
    draw.rectangle((635, 359, 729, 382), fill=0)
    draw.rectangle((661, 363, 674, 377), fill=255)  # "(b", its glyphs touching, as one hole
    for x0, x1 in ((677, 680), (683, 686), (689, 696), (699, 702)):
        draw.rectangle((x0, 363, x1, 377), fill=255)
    found = detect.find(page.convert("RGB"), _Reads("(b)(4)"))
    assert [(r.kind, r.code) for r in found] == [("black", "(b)(4)")]
    assert all(abs(a - b) <= 3 for a, b in zip(found[0].bbox, (635, 359, 730, 383), strict=True))
    # a bold capital's counters, its own ink close above and below them, are no code's holes (a
    # crop of a synthetic page at 250 DPI: "Bill" in bold sans)
    bold = Image.new("L", (2125, 2750), 255)
    bold.paste(Image.open(FIXTURES / "bold-word.png"), (195, 1890))
    assert detect.find(bold.convert("RGB"), _Reads("")) == []


def test_gray_boxes_the_blur_of_the_print_under_them_joins_are_found_by_their_tone():
    # a crop of our own synthetic 100 DPI page, noisy and turned a little: the print just below
    # each box joins it in the tinted mask; the box's tone, its code filled in, is the box
    page = Image.new("L", (850, 1100), 255)
    page.paste(Image.open(FIXTURES / "gray-boxes-text-below.png"), (440, 200))
    found = [(r.kind, r.code) for r in detect.find(page.convert("RGB"), get_engine()) if r.bbox[1] < 280]
    assert found == [("gray", "5.1.2e"), ("gray", "5.1.2e")]


def test_words_a_blurred_scan_greys_to_one_tone_are_no_gray_boxes():
    # a crop of our own synthetic 100 DPI page blurred hard: words as even gray blots, which
    # the OCR still reads enlarged ("updated", "of"); a blank gray box reads as nothing
    page = Image.new("L", (850, 1100), 255)
    page.paste(Image.open(FIXTURES / "blurred-words.png"), (80, 215))
    ImageDraw.Draw(page).rectangle((300, 600, 420, 612), fill=150)
    found = detect.find(page.convert("RGB"), get_engine())
    assert [(r.kind, r.bbox[1]) for r in found] == [("gray", 600.0)]


def test_black_boxes_a_stamps_gray_ring_cuts_into_pieces_are_one_box_each():
    # a crop of our own synthetic page: a ring painted over two coded boxes cuts each into pieces
    # side by side, the gap between them the ring's gray (ink, not paper), and its curve turns
    # one piece into a polygon
    page = Image.new("L", (1700, 2200), 255)
    page.paste(Image.open(FIXTURES / "ring-over-black-boxes.png"), (600, 505))
    found = [r.bbox for r in detect.find(page.convert("RGB"), get_engine()) if r.bbox[0] < 700]
    assert found == [(627.0, 521.0, 1029.0, 554.0), (621.0, 634.0, 824.0, 676.0)]


def test_a_black_box_its_codes_glyphs_cut_into_pieces_on_a_fax_is_one_and_two_boxes_stay_two():
    # a 150 DPI fax: the threshold took the thin black between a light code's glyphs, so the box
    # opens into pieces side by side; two boxes with paper between them are two
    page = Image.new("RGB", (1275, 1650), "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((600, 300, 694, 317), fill="black")
    for x in range(640, 655, 3):  # the glyphs' white strokes through the box, from top to bottom
        draw.line((x, 300, x, 317), fill="white")
    draw.rectangle((600, 400, 640, 417), fill="black")
    draw.rectangle((648, 400, 694, 417), fill="black")
    found = detect.find(page, _Reads("(b)(6)"))
    assert [r.kind for r in found] == ["black"] * 3 and found[0].code == "(b)(6)"
    expected = [(600, 300, 695, 318), (600, 400, 641, 418), (648, 400, 695, 418)]
    assert all(
        abs(a - b) <= 2 for r, box in zip(found, expected, strict=True) for a, b in zip(r.bbox, box, strict=True)
    )


def test_a_light_gray_box_its_codes_glyphs_reach_the_ends_of_is_found_by_its_code():
    # a crop of a real Woo page (dev redactions, Gnephoek page 60): a light gray box as wide as
    # the large code printed on it, its upper part lighter, so the opening loses its ends and
    # the box fills its rectangle by less than a box; its code makes it one. An L of light gray
    # with nothing printed on it stays none.
    page = Image.new("L", (2480, 3508), 255)
    page.paste(Image.open(FIXTURES / "light-gray-box-wide-code.png"), (1900, 440))
    ImageDraw.Draw(page).rectangle((300, 1000, 700, 1040), fill=215)
    ImageDraw.Draw(page).rectangle((300, 1040, 420, 1080), fill=215)
    found = [(r.kind, r.code, r.bbox[1]) for r in detect.find(page.convert("RGB"), get_engine())]
    assert found == [("gray", "5.1.2.e", 482.0)]


def test_a_felt_tip_stroke_on_a_noisy_scan_is_a_marker_and_a_bold_headings_letters_are_none():
    # the noise clips the stroke's black at 0, its commonest grey, and spreads the rest up to
    # about 50 (as on synthetic seed 37): it is as even as the black is around its middle. A bold
    # heading's dark gray letters, whose commonest grey is their own, are no boxes.
    page, draw = _page()
    draw.line([(330, 1320), (500, 1324), (680, 1318)], fill=(22, 22, 22), width=40, joint="curve")
    for x, y in ((330, 1320), (680, 1318)):
        draw.ellipse((x - 20, y - 20, x + 20, y + 20), fill=(22, 22, 22))
    noise = np.random.default_rng(0).normal(0, 14, (100, 600, 1))
    pixels = np.asarray(page).astype(float)
    pixels[1270:1370, 250:850] += noise
    page = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    assert [(r.kind, r.bbox[1]) for r in detect.find(page, get_engine())] == [("marker", 1298.0)]
    heading = Image.new("L", (1700, 2200), 255)  # a crop of our own synthetic page (seed 37)
    heading.paste(Image.open(FIXTURES / "bold-heading.png"), (140, 140))
    assert detect.find(heading.convert("RGB"), get_engine()) == []


def test_an_outline_whose_corner_a_stamps_ring_paints_over_is_found_and_a_box_a_ring_goes_round_too():
    # as on synthetic seed 19: the ring hides the box's top right corner and the top of its
    # right side, so its line is open there and only the ring closes it. A black box that a
    # ring goes round (inside the ring's hole) is found, and the ring's round inside is no outline.
    page, draw = _page()
    font = ImageFont.load_default(size=30)
    draw.rectangle((300, 1300, 900, 1380), outline="black", width=3)
    draw.text((520, 1322), "5.1.2e", fill="black", font=font)
    draw.ellipse((860, 1240, 1260, 1640), outline=(190, 190, 190), width=30)
    draw.ellipse((300, 1700, 700, 2100), outline=(190, 190, 190), width=30)
    draw.rectangle((380, 1850, 620, 1910), fill="black")
    draw.text((440, 1863), "(b)(6)", fill="white", font=font)
    found = [(r.kind, r.code) for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert found == [("outline", "5.1.2e"), ("black", "(b)(6)")]


def test_narrow_boxes_painted_one_under_another_on_a_blurred_scan_are_each_found():
    # as on synthetic seed 139: boxes over a short value each, so that the ragged region the blur
    # joins them into is too short for a marker stroke and judged no redaction whole
    page, draw = _page()
    for top in (1300, 1333, 1366):
        draw.rectangle((300, top, 430 if top != 1366 else 400, top + 29), fill="black")
    blurred = page.rotate(1.2, resample=Image.BILINEAR, fillcolor="white").filter(ImageFilter.GaussianBlur(1.5))
    found = [r for r in detect.find(blurred, get_engine()) if r.bbox[1] > 1250]
    assert [r.kind for r in found] == ["black"] * 3 and all(r.bbox[3] - r.bbox[1] < 40 for r in found)


def test_a_thick_rule_is_no_redaction_and_a_box_as_low_over_a_word_is():
    # a 150 DPI page (synthetic seed 139): a rule 11 px thick is as high as a box over a line of
    # small print, and 55 times as long
    page = Image.new("RGB", (1275, 1650), "white")
    draw = ImageDraw.Draw(page)
    draw.rectangle((360, 1317, 966, 1327), fill=(20, 20, 20))
    draw.rectangle((360, 600, 520, 610), fill="black")
    assert _boxes(page) == [(360.0, 600.0, 521.0, 611.0)]


def test_a_black_box_a_stamps_opaque_letters_cross_is_found():
    # as on synthetic seed 139: a stamp's gray letters, painted over the box, cut its black into
    # slivers; the box is what a kernel wider than their strokes leaves of the box and the stamp
    page, draw = _page()
    draw.rectangle((300, 1300, 540, 1334), fill="black")
    draw.text((380, 1300), "RECEIVED", fill=(116, 116, 116), font=font("sans", 84, bold=True))
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [(r.kind, r.bbox[1], r.bbox[3]) for r in found] == [("black", 1300.0, 1335.0)]
    assert 538 <= found[0].bbox[2] <= 548


def test_a_black_box_a_coffee_ring_crosses_is_one_box():
    # as on synthetic seed 139: the ring's light gray, painted across the box, cuts its black in
    # three; the gaps between the pieces are the ring's ink over the box's height, no paper
    page, draw = _page()
    draw.rectangle((300, 1400, 1070, 1459), fill="black")
    draw.ellipse((670, 1250, 920, 1600), outline=(190, 190, 190), width=20)
    assert [r for r in _boxes(page) if r[1] > 1250] == [(300.0, 1400.0, 1071.0, 1460.0)]


def test_a_gray_box_a_coffee_ring_in_a_lighter_tone_bites_into_is_found_with_its_code():
    # as on synthetic seed 139: the ring, larger than the box, gives the component its commonest
    # tone; the box is taken out by its own, the next commonest, and the ring closes its corner
    page, draw = _page()
    draw.ellipse((60, 980, 400, 1335), outline=(197, 197, 197), width=36)
    draw.rectangle((300, 1300, 640, 1359), fill=(128, 128, 128))
    draw.ellipse((60, 980, 400, 1335), outline=(197, 197, 197), width=36)  # painted over the box
    draw.text((420, 1312), "(b)(6)", fill="white", font=ImageFont.load_default(size=34))
    found = [(r.kind, r.code, r.bbox) for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert found == [("gray", "(b)(6)", (300.0, 1300.0, 641.0, 1360.0))]


def test_a_felt_tip_stroke_that_wavers_is_a_marker_though_it_fills_its_rectangle_less_than_a_box():
    # as on synthetic seeds 17 and 107: the stroke fills 0.72 of its rectangle, evenly black
    page, draw = _page()
    points = [(300, 1330), (360, 1323), (420, 1335), (480, 1329)]
    draw.line(points, fill=(15, 15, 15), width=36, joint="curve")
    for x, y in (points[0], points[-1]):
        draw.ellipse((x - 18, y - 18, x + 18, y + 18), fill=(15, 15, 15))
    assert [(r.kind, r.bbox) for r in detect.find(page, get_engine()) if r.bbox[1] > 1250] == [
        ("marker", (282.0, 1307.0, 499.0, 1353.0))
    ]


def test_a_felt_tip_stroke_a_coffee_ring_crosses_is_one_marker():
    # as on synthetic seed 67: the ring's gray, more of the component than the stroke's black,
    # cuts the stroke in three; opened wider than the ring's line, the stroke is one again
    page, draw = _page()
    points = [(1240, 1330), (1400, 1322), (1570, 1334)]
    draw.line(points, fill=(15, 15, 15), width=50, joint="curve")
    for x, y in (points[0], points[-1]):
        draw.ellipse((x - 25, y - 25, x + 25, y + 25), fill=(15, 15, 15))
    draw.ellipse((1300, 1212, 1540, 1348), outline=(185, 185, 185), width=30)
    found = [(r.kind, r.bbox) for r in detect.find(page, get_engine()) if r.bbox[1] > 1205]
    assert found == [("marker", (1217.0, 1299.0, 1594.0, 1359.0))]


def test_a_small_outline_on_a_skewed_fax_its_code_cuts_apart_is_one_box():
    # a crop of our own synthetic page (seed 37, 100 DPI): the box's line steps down 5 px over
    # its width, so its top and its ends lie off the rectangle around its pieces by more than
    # a scan's gap; it is one box with its code, not the piece the code's last glyph leaves
    page = Image.new("L", (850, 1100), 255)
    page.paste(Image.open(FIXTURES / "skewed-small-outline.png"), (340, 208))
    found = [(r.kind, r.code, r.bbox) for r in detect.find(page.convert("RGB"), get_engine())]
    assert found == [("outline", "10.2.e", (356.0, 220.0, 492.0, 239.0))]


def test_gray_boxes_a_coffee_ring_in_their_own_tone_nearly_their_height_crosses_are_each_found():
    # as on synthetic seeds 37 and 83: the ring's stroke, 22 px, is too thick for the opening to
    # take it from boxes 32 px high; it is found as a circle and taken out, the boxes bridged
    page, draw = _page()
    tops = (1300, 1345, 1390, 1435)
    for top in tops:
        draw.rectangle((200, top, 560, top + 31), fill=(152, 152, 152))
    draw.ellipse((180, 1240, 420, 1480), outline=(160, 160, 160), width=22)
    found = [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert [r.kind for r in found] == ["gray"] * 4
    for region, top in zip(found, tops, strict=True):
        box = (200, top, 561, top + 32)
        shared = region.intersection(box)
        assert shared / (region.area + 361 * 32 - shared) > 0.8
    # a ring alone over the print, and a gray stamp's bold round letters, are none
    page, draw = _page()
    draw.ellipse((180, 240, 420, 480), outline=(160, 160, 160), width=22)
    draw.text((600, 1300), "COPY", fill=(152, 152, 152), font=font("sans", 90, bold=True))
    assert detect.find(page, get_engine()) == []


def test_gray_boxes_one_under_another_a_ring_s_bottom_runs_across_stay_two():
    # as on synthetic seed 139: along the ring's bottom the band is bridged up and down, between
    # the box above it and the one below, but not across the paper gap between them
    page, draw = _page()
    draw.rectangle((200, 1300, 520, 1337), fill=(168, 168, 168))
    draw.rectangle((200, 1345, 520, 1377), fill=(168, 168, 168))
    draw.ellipse((230, 1130, 470, 1370), outline=(197, 197, 197), width=22)
    found = [r.bbox for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert found == [(200.0, 1300.0, 521.0, 1338.0), (200.0, 1345.0, 521.0, 1378.0)]


class _ReadsWithWord(_Reads):
    """Reads a word before the code on a crop wider than the box (the word it touches, in it)."""

    def words(self, image: Image.Image) -> list[Word]:
        return super().words(image) if image.width > 245 else [Word("5.1.1c", (0.0, 0.0, 1.0, 1.0), 0.5, 0, 0)]


def test_a_coded_black_box_a_blurred_word_touches_is_found_by_its_black():
    # as on synthetic seeds 43 and 83: the blur greys a word's last letters into a blot that the
    # box's component takes in, read with it as "nt 5.1.1c", no code; its black alone is the box
    page = Image.new("L", (1700, 2200), 255)
    draw = ImageDraw.Draw(page)
    draw.rectangle((370, 1305, 399, 1338), fill=150)  # the blot of the word's letters
    draw.rectangle((400, 1300, 640, 1342), fill=0)
    draw.text((470, 1308), "5.1.1c", fill=255, font=ImageFont.load_default(size=26))
    found = detect.find(page.convert("RGB"), _ReadsWithWord("nt 5.1.1c"))
    assert [(r.kind, r.code, r.bbox) for r in found] == [("black", "5.1.1c", (400.0, 1300.0, 641.0, 1343.0))]
    # a dark bar whose white print is a word: its black ends, beside the print, are no boxes
    page = Image.new("L", (1700, 2200), 255)
    draw = ImageDraw.Draw(page)
    draw.rectangle((400, 1300, 1000, 1342), fill=0)
    draw.text((600, 1302), "Description", fill=255, font=font("sans", 38, bold=True))
    assert detect.find(page.convert("RGB"), get_engine()) == []


def test_outlined_boxes_drawn_touching_one_under_another_are_each_found_and_a_column_of_words_is_not():
    # as on synthetic seed 163: three outlines, each a line, their edges touching; one line
    # drawing with three holes in line, as a table's cells are, but in no two columns
    page, draw = _page()
    small = ImageFont.load_default(size=28)
    boxes = ((200, 1300, 560, 1345), (200, 1343, 650, 1388), (201, 1386, 470, 1428))
    for (x0, y0, x1, y1), code in zip(boxes, ("5.1.1c", "5.1.1c", "11.1"), strict=True):
        draw.rectangle((x0, y0, x1, y1), outline="black", width=3)
        draw.text(((x0 + x1) // 2 - 40, y0 + 8), code, fill="black", font=small)
    found = [(r.kind, r.code) for r in detect.find(page, get_engine()) if r.bbox[1] > 1250]
    assert found == [("outline", "5.1.1c"), ("outline", "5.1.1c"), ("outline", "11.1")]
    page, draw = _page()
    for (x0, y0, x1, y1), word in zip(boxes, ("Name", "Address", "City"), strict=True):
        draw.rectangle((x0, y0, x1, y1), outline="black", width=3)
        draw.text((x0 + 20, y0 + 8), word, fill="black", font=small)
    assert [r for r in detect.find(page, get_engine()) if r.bbox[1] > 1250] == []
