"""Tightening a word box to its ink drops the ruled lines that cross the box."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from redact_agent.local.engine import _clear, _ink_box
from redact_agent.local.ink import _less_edges, marked, tighten, tighten_chars
from redact_agent.local.spans import Span
from redact_agent.tools.ocr import Word

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _cell(rule_rows: int) -> np.ndarray:
    page = np.full((60, 120), 255, np.uint8)
    page[10 : 10 + rule_rows, :] = 0  # a table rule across the cell, `rule_rows` thick
    page[20:36, 30:40] = 0  # two glyphs
    page[22:36, 46:56] = 0
    return page


@pytest.mark.parametrize("thickness", [1, 3, 5])
def test_rule_across_the_box_is_not_ink(thickness):
    # A line-height OCR box reaching up over the rule, as RapidOCR's do.
    assert tighten(_cell(thickness), (24, 8, 62, 40)) == (30.0, 20.0, 56.0, 36.0)


def test_the_corner_of_a_cells_borders_the_box_reaches_is_not_ink():
    # vrdu2's "Agency Ref" cell: the OCR box takes in the cell's left border and its bottom
    # border, one "L" across the whole crop whose centre falls inside the box
    page = _cell(0)
    page[4:42, 22] = 0  # the left border, on past the box
    page[40:42, 22:100] = 0  # the bottom border
    assert tighten(page, (24, 6, 62, 40)) == (30.0, 20.0, 56.0, 36.0)


def test_a_wide_glyph_stays():
    page = np.full((60, 120), 255, np.uint8)
    page[20:36, 30:56] = 0  # one dark mark as wide as the word, and tall
    assert tighten(page, (26, 16, 60, 40)) == (30.0, 20.0, 56.0, 36.0)


def test_a_descender_of_the_line_above_is_not_ink():
    # A line-height box whose top reaches into the line above: the descender of a 'y' there is
    # cut by the crop's top edge and does not belong to this word.
    page = np.full((60, 120), 255, np.uint8)
    page[0:9, 34:37] = 0  # the descender, continuing above the box
    page[20:36, 30:40] = 0
    page[22:36, 46:56] = 0
    assert tighten(page, (24, 6, 62, 40)) == (30.0, 20.0, 56.0, 36.0)


@pytest.mark.parametrize("piece", [(5, 8), (44, 47)])
def test_ink_of_the_lines_around_ending_inside_the_margin_is_not_ink(piece):
    # Tight lines: the foot of a digit on the line above (or the tip of an ascender on the line
    # below) lies in the 2 px the crop adds around the box, one pixel short of its edge.
    page = np.full((60, 120), 255, np.uint8)
    page[piece[0] : piece[1], 34:37] = 0
    page[20:36, 30:40] = 0
    page[22:36, 46:56] = 0
    assert tighten(page, (24, 6, 62, 46)) == (30.0, 20.0, 56.0, 36.0)


def test_a_glyph_the_box_cuts_stays():
    # A tall glyph that the OCR box clips at the top is still this word's ink.
    page = np.full((60, 120), 255, np.uint8)
    page[14:36, 30:40] = 0
    assert tighten(page, (26, 18, 44, 40)) == (30.0, 16.0, 40.0, 36.0)


def _bracketed() -> np.ndarray:
    # "(151)": five glyph columns, the '(' and ')' taller than the digits.
    page = np.full((60, 200), 255, np.uint8)
    page[16:40, 20:23] = 0  # (
    for x in (30, 40, 50):  # 1 5 1
        page[20:36, x : x + 6] = 0
    page[16:40, 62:65] = 0  # )
    return page


def test_a_cut_word_keeps_each_of_its_characters_whole():
    # The OCR box clips the '(' (it starts at x 21): the digits are still picked glyph by glyph.
    assert tighten_chars(_bracketed(), (21, 12, 66, 44), 5, 1, 4) == (30.0, 20.0, 56.0, 36.0)


def test_glyphs_that_do_not_stand_apart_give_no_answer():
    page = _bracketed()
    page[28:30, 23:30] = 0  # the '(' touches the first digit: four columns for five characters
    assert tighten_chars(page, (18, 12, 66, 44), 5, 1, 4) is None


def test_the_tops_of_the_next_lines_letters_in_a_tall_box_are_not_the_words_ink():
    page = np.full((80, 200), 255, dtype=np.uint8)
    page[10:30, 20:180] = 0  # the word's glyphs, one block of ink
    page[36:40, 30:50] = 0  # the tops of the next line's letters, below a gap
    page[5:8, 60:64] = 0  # an i's dot, above its own gap
    assert tighten(page, (15, 3, 185, 41)) == (20.0, 5.0, 180.0, 30.0)


def test_a_glyph_the_ocr_box_clips_by_a_pixel_stays_and_the_foot_of_the_line_above_does_not():
    page = np.full((60, 120), 255, np.uint8)
    page[20:36, 29:31] = 0  # a '(' whose centre is half a pixel left of the OCR box
    page[20:36, 34:44] = 0
    page[22:36, 48:58] = 0
    page[11:16, 40:56] = 0  # the foot of the line above: wider than a dot, over the word
    assert tighten(page, (30.5, 10, 60, 40)) == (29.0, 20.0, 58.0, 36.0)


def _stamped_word() -> np.ndarray:
    # Five glyphs 16 px tall (the first a capital with a descender, 22 px: a 'J'), and a stamp's
    # ring 2 px wide that touches the fourth glyph and runs on above and below the box.
    page = np.full((80, 200), 255, np.uint8)
    page[20:42, 30:38] = 0
    for x in (44, 58, 72, 86):
        page[26:42, x : x + 10] = 0
    yy, xx = np.mgrid[0:80, 0:200]
    ring = np.abs(np.hypot(yy - 34, xx - 22) - 50) < 1.2
    page[ring] = 0
    return page


def test_a_stamp_ring_across_a_word_is_cut_to_the_glyph_rows():
    page = _stamped_word()
    x0, y0, x1, y1 = tighten(page, (26, 14, 100, 48))
    # The ring runs on to the crop's edges (14 - 2 and 48 + 2): it is cut to the glyphs' rows.
    assert (x0, y0, x1, y1) == (30.0, 20.0, 96.0, 42.0)


def test_a_frames_line_through_a_glyph_is_cut_where_it_runs_on_out_of_the_crop():
    # Synthetic documents seed 211: a stamp's frame, its line in a tone near the print's, runs down
    # through the code's last glyph and on past the box; the glyph's own descender stays.
    page = np.full((80, 200), 255, np.uint8)
    for x in (30, 44, 58, 72):
        page[28:42, x : x + 10] = 0
        page[30:40, x + 2 : x + 8] = 255  # an '0', in strokes 2 px wide
    page[42:45, 72:74] = 0  # the last glyph's descender, 3 px
    page[:, 81:83] = 0  # the frame's line, through the last glyph's right stroke
    assert tighten(page, (26, 20, 86, 50)) == (30.0, 28.0, 83.0, 45.0)


def test_a_tall_capital_is_not_taken_for_a_stamp():
    # A 'J' with its descender is taller than the word's lowercase glyphs, but it stays inside the box.
    page = _stamped_word()
    page[np.isin(page, [0])] = 255
    page[20:42, 30:38] = 0
    for x in (44, 58, 72, 86):
        page[26:36, x : x + 10] = 0
    assert tighten(page, (26, 14, 100, 48)) == (30.0, 20.0, 96.0, 42.0)


def test_a_logo_on_a_solid_ground_keeps_its_ground():
    page = np.full((80, 200), 255, np.uint8)
    page[10:70, 20:180] = 40  # the logo's dark ground, taller than its letters
    for x in (40, 70, 100, 130):
        page[30:50, x : x + 12] = 0
    assert tighten(page, (18, 10, 182, 70)) == (20.0, 10.0, 180.0, 70.0)


def _stroked_word(at: int, tone: int) -> np.ndarray:
    # Four glyphs 14 px tall, and a stamp letter's diagonal stroke in the ink `tone` that runs
    # through the glyph at `at` and on out of the word's crop (26, 20, 106, 48).
    page = np.full((80, 200), 255, np.uint8)
    yy, xx = np.mgrid[0:80, 0:200]
    page[np.abs((xx - at) - 0.4 * (yy - 18)) < 3] = tone
    for x in (30, 50, 70, 86):
        page[28:42, x : x + 10] = 0
    return page


def test_a_gray_stamp_stroke_across_a_word_is_not_its_ink():
    # Through the last glyph's box: lighter than the print, it is the stamp's, and the box ends at the glyphs.
    assert tighten(_stroked_word(96, 130), (26, 20, 106, 48)) == (30.0, 28.0, 96.0, 42.0)
    darker = _stroked_word(96, 110)  # darker than halfway to the paper: print, cut to the glyphs' rows
    assert tighten(darker, (26, 20, 106, 48)) == (30.0, 28.0, 108.0, 42.0)


def test_a_gray_stamp_stroke_touching_a_glyph_is_cut_from_it_not_dropped_with_it():
    # Through the first glyph, touching it: one component with the glyph under Otsu's threshold.
    # The stroke goes, but for the pixel of it that touches the glyph; the glyph stays.
    x0, y0, x1, y1 = tighten(_stroked_word(34, 130), (26, 20, 106, 48))
    assert (x0, x1) == (30.0, 96.0) and 27.0 <= y0 <= 28.0 and 42.0 <= y1 <= 43.0


def test_a_speck_well_above_a_word_without_ascenders_is_no_dot():
    page = np.full((60, 120), 255, np.uint8)
    for x in (30, 44, 58):
        page[30:38, x : x + 8] = 0  # x-height glyphs, 8 px
    page[27:29, 47:49] = 0  # an 'i's dot, a pixel above its stem
    assert tighten(page, (26, 18, 70, 42)) == (30.0, 27.0, 66.0, 38.0)
    page[20:22, 60:62] = 0  # a speck of scan noise 8 px above: no dot
    assert tighten(page, (26, 18, 70, 42)) == (30.0, 27.0, 66.0, 38.0)


def test_a_speck_over_a_word_with_no_dotted_or_accented_letter_is_no_mark():
    # Entities seed 511: a speck 3 x 5 px left of a gray stamp's letter, 7 px over "604-6626"
    # (glyphs 27 px tall), was taken for a dot, and the phone's box grew 12 px high (IoU 0.71).
    page = np.full((80, 200), 255, np.uint8)
    for x in range(30, 170, 20):
        page[30:57, x : x + 14] = 0
    page[18:23, 100:103] = 0
    assert tighten(page, (26, 14, 174, 62), marks=False) == (30.0, 30.0, 164.0, 57.0)
    assert tighten(page, (26, 14, 174, 62))[1] == 18.0  # where the word has an 'i' or an accent, a dot
    assert not marked("604-6626") and marked("Smith") and marked("José")


def test_a_pixel_of_noise_just_above_a_word_is_no_dot():
    # Synthetic documents seed 211: a pixel of a ring's band, as dark as Otsu's threshold, 9 px
    # over a code kept its box that much higher. A dot as near, 2 px by 2, stays.
    page = np.full((60, 120), 255, np.uint8)
    for x in (30, 44, 58):
        page[28:42, x : x + 8] = 0
    page[24, 50] = 0
    assert tighten(page, (26, 18, 70, 46)) == (30.0, 28.0, 66.0, 42.0)
    page[24:26, 50:52] = 0
    assert tighten(page, (26, 18, 70, 46)) == (30.0, 24.0, 66.0, 42.0)


def test_the_foot_of_the_line_above_over_a_skewed_lines_low_end_is_no_dot():
    # Synthetic documents seed 89: on a skewed page the code's line climbs to the right; a piece of
    # the e-mail above it, over the code's first glyph, lay near the line's highest glyph but 12 px
    # over the glyph under it (IoU 0.68).
    page = np.full((80, 240), 255, np.uint8)
    for k, x in enumerate(range(30, 200, 20)):
        page[40 - k : 60 - k, x : x + 12] = 0  # nine glyphs 20 px tall, each a pixel higher
    page[26:30, 34:38] = 0  # the foot of the line above, 10 px over the first glyph
    assert tighten(page, (26, 24, 206, 64)) == (30.0, 32.0, 202.0, 60.0)
    page[28:31, 154:157] = 0  # an 'i's dot 3 px over the seventh glyph stays
    assert tighten(page, (26, 24, 206, 64)) == (30.0, 28.0, 202.0, 60.0)


def test_a_rings_band_below_a_code_is_not_its_ink():
    # A coffee ring's band (gray, darkening the page) crosses the code's last glyphs and hangs
    # below them out of the crop: shorter than a quarter of the crop, but running out of it, so
    # no dot or thin stroke of the print (a synthetic page's "CL-196121"; its ink ends at y 59).
    page = np.asarray(Image.open(FIXTURES / "ring-below-code.png").convert("L"))
    x0, y0, x1, y1 = tighten(page, (25, 26, 180, 64))
    assert (x0, y0, x1) == (26.0, 34.0, 174.0) and y1 <= 60.0


def test_a_gray_stamp_letters_foot_ending_on_the_boxs_edge_is_not_its_ink():
    # Synthetic documents seed 313: a gray stamp letter's stem stands under a code's '0', touching
    # it, and ends where the OCR box ends (the detector took in the stamp's foot): inside the crop's
    # margin, not out of it, yet the stamp's; the box came out 17 px low (IoU 0.62). The code's ink
    # ends at y 58 (and its last glyph's fringe where the stamp's gray meets it, a pixel, is lost
    # with the stamp: x 170 or 171).
    page = np.asarray(Image.open(FIXTURES / "stamp-foot-under-code.png").convert("L"))
    x0, y0, x1, y1 = tighten(page, (19, 13, 172, 75))
    assert y0 == 25.0 and 170.0 <= x1 <= 171.0 and x0 <= 17.0 and y1 <= 59.0


def test_a_frames_corner_under_a_capital_is_cut_where_the_box_ends_close_under_it():
    # Synthetic documents seed 151: a stamp frame's corner, as dark as the print, meets an 'M' and
    # runs down out of a box that ends 19 px under the glyphs (the comp. is 1.58 glyphs tall).
    page = np.full((100, 200), 255, np.uint8)
    for x in (30, 50, 70, 90, 110, 130):
        page[20:53, x : x + 12] = 0
        page[20:51, x + 2 : x + 10] = 255  # strokes 2 px wide
    page[50:53, 30:42] = 0  # the frame's top, along the first glyph's foot
    page[50:, 30:33] = 0  # and its side, on down past the box
    assert tighten(page, (26, 6, 146, 70)) == (30.0, 20.0, 142.0, 53.0)


def test_a_noisy_gray_stamps_pixels_as_dark_as_print_do_not_keep_its_stroke():
    # Synthetic documents seed 313: "1966-05-29" under a gray "APPROVED" on a noisy scan; the
    # stamp letter's stroke that touches the last '9' has lone pixels as dark as the print, and
    # it stayed, its box 9 px high (the date's ink is y 30 to 48).
    page = np.asarray(Image.open(FIXTURES / "noisy-stamp-over-date.png").convert("L"))
    x0, y0, x1, y1 = tighten(page, (19, 20, 139, 56))
    assert (x0, x1) == (21.0, 140.0) and 29.0 <= y0 <= 30.0 and y1 <= 52.0


def test_a_frames_corner_over_a_capital_is_cut_where_the_box_ends_close_over_it():
    # Synthetic documents seed 223: a stamp frame's corner meets the 'P' of "PO-87001" and runs up
    # out of a box that starts 12 px over the glyphs (the component is 1.4 glyphs tall); the
    # code's ink is y 39 to 69.
    page = np.asarray(Image.open(FIXTURES / "frame-corner-over-code.png").convert("L"))
    assert tighten(page, (26, 29, 226, 82))[1:] == (39.0, 221.0, 69.0)


def test_the_light_parts_of_thin_strokes_of_print_stay():
    # Synthetic documents seed 313, light print: the OCR box clips the 'O' of "ORD-1562944", and
    # the crop holds its pale edge with a dark pixel or two, on the crop's edge, which are no noise;
    # the slashes of "09/06/2021", a pixel wide, are pale in their lower halves down to the box's
    # edge, which makes them no stamp's stroke (5 px were lost below, IoU 0.74).
    code = np.asarray(Image.open(FIXTURES / "clipped-glyph-code.png").convert("L"))
    assert tighten(code, (27, 8, 161, 41)) == (25.0, 18.0, 158.0, 34.0)  # less the rows of fringe
    date = np.asarray(Image.open(FIXTURES / "thin-slashes-date.png").convert("L"))
    assert tighten(date, (14, 9, 110, 34)) == (14.0, 15.0, 107.0, 34.0)
    # And "Anderson-Martin": the 'A's pale left leg, which the box clips, has a few pixels as dark
    # as print, alone or in pairs; it is a thin stroke, so they keep it.
    name = np.asarray(Image.open(FIXTURES / "light-diagonal-leg.png").convert("L"))
    assert tighten(name, (17, 11, 196, 45)) == (15.0, 18.0, 192.0, 36.0)  # less a row of fringe


def test_a_solid_stamp_letters_leg_joined_to_a_glyph_is_cut_to_the_glyph_rows():
    # Synthetic documents seed 241: the leg of a black "Y" of "COPY" runs down out of the box of
    # "M4657062" and touches its "M"; the code's ink is y 39 to 57 (its box was 12 px high, IoU 0.58;
    # the leg's gray rim on the glyph, a pixel, stays).
    page = np.asarray(Image.open(FIXTURES / "stamp-leg-over-code.png").convert("L"))
    y0, y1 = tighten(page, (37, 29, 156, 68))[1::2]
    assert 38.0 <= y0 <= 39.0 and y1 == 57.0
    # vrdu: a call sign printed on a logo's black ground, which fills the word's crop both ways; it
    # is the word's ink, not a stamp crossing it.
    logo = np.asarray(Image.open(FIXTURES / "logo-ground-call-sign.png").convert("L"))
    assert tighten(logo, (17, 16, 226, 147)) == (15.0, 14.0, 228.0, 149.0)


def test_a_frames_line_that_joins_all_but_two_glyphs_is_cut_to_their_rows():
    # Synthetic entities seed 67: a "PAID" frame's top edge, as dark as the print, runs through the
    # digits of "REF-2018-74235" and its corner goes down out of the crop: one piece of all but
    # "RE", 36 px tall, which two glyphs of 23 now measure (the code's ink ends at y 51).
    page = np.asarray(Image.open(FIXTURES / "frame-corner-under-code.png").convert("L"))
    x0, y0, _, y1 = tighten(page, (25, 19, 298, 61))
    assert (x0, y0) == (27.0, 28.0) and y1 <= 53.0


def test_a_ring_that_joins_all_but_one_glyph_is_cut_to_its_rows():
    # Synthetic entities seed 308: a gray ring, as dark as the small print, runs through "rown" of
    # "Brown", print 9 px high, and out of the crop: one piece with the whole crop's height but
    # for the "B" (the name's ink is y 19 to 28; the box was 21 px high, IoU 0.42).
    page = np.asarray(Image.open(FIXTURES / "ring-through-small-name.png").convert("L"))
    y0, y1 = tighten(page, (10, 13, 42, 33))[1::2]
    assert 17.0 <= y0 <= 19.0 and 28.0 <= y1 <= 29.0


def test_specks_of_a_dotted_ring_above_and_below_a_word_are_not_its_ink():
    # Synthetic documents seed 241: a noisy scan's dotted ring, specks as dark as the print, runs
    # over and under "ANDRADE," (its ink y 32 to 95): chained into one band with its glyphs, they
    # kept its box 16 px high and 9 px low (IoU 0.71).
    page = np.asarray(Image.open(FIXTURES / "speckled-ring-over-name.png").convert("L"))
    y0, y1 = tighten(page, (21, 16, 316, 104))[1::2]
    assert 28.0 <= y0 <= 33.0 and 92.0 <= y1 <= 96.0


def test_a_logos_stripe_alone_does_not_measure_the_ground_it_lies_on():
    # vrdu: "MasterCard" printed in white over the card's two discs, which run out of its crop; the
    # one piece inside it is a stripe 6 px high, no glyph: cut to its rows, the box lost the discs
    # the gold takes in (y 8 to 46; IoU 0.78 -> 0.22).
    page = np.asarray(Image.open(FIXTURES / "card-logo-name.png").convert("L"))
    y0, y1 = tighten(page, (14, 12, 68, 40))[1::2]
    assert y0 <= 11.0 and y1 >= 41.0


def test_light_specks_of_a_noisy_stamps_ring_under_a_code_are_not_its_ink():
    # Synthetic entities seed 461: a gray ring's band on a noisy scan hangs under "CLM-2019-48299";
    # specks of it, lighter than the print, chained from the glyphs down and kept the box 9 px low
    # (the code's ink ends at y 44).
    page = np.asarray(Image.open(FIXTURES / "ring-specks-under-code.png").convert("L"))
    _, y0, _, y1 = tighten(page, (24, 18, 256, 53))
    assert y0 == 24.0 and y1 <= 46.0


def test_a_frames_edge_struck_through_a_phone_on_a_fax_is_not_its_ink():
    # Synthetic documents seed 898: an "APPROVED" frame's edge runs through "834.315.2542" and
    # joins its digits to the stamp letters' feet over them; the glyphs' strokes across the edge
    # stay, so each digit is whole (the phone's ink spans y 29 to 50).
    page = np.asarray(Image.open(FIXTURES / "frame-line-through-phone.png").convert("L"))
    assert tighten(page, (22, 20, 220, 60))[1::2] == (29.0, 50.0)


def test_light_print_broken_into_specks_under_a_black_rule_stays():
    # vrdu2's "1/10/20": gray print that Otsu breaks into pieces of a few pixels, lighter than
    # halfway to the black rule over it; the pieces beside its dark '1's are its glyphs.
    page = np.full((40, 80), 255, np.uint8)
    page[4, :] = 0  # the rule, on past the box
    page[14:23, 20:22] = 60  # a '1', dark
    for x in range(30, 60, 3):  # a "0" and a "2" in light pieces, to x 59
        page[14:23:3, x : x + 2] = 170
    assert tighten(page, (18, 8, 64, 28)) == (20.0, 14.0, 59.0, 23.0)


def test_a_skewed_underline_stepping_down_under_a_word_is_not_its_ink():
    # Synthetic entities seed 942: an underline under "482.597.5948" steps down a row at a time;
    # its middle rows run across the crop, no glyph crosses them, and it goes whole.
    page = np.full((40, 120), 255, np.uint8)
    for x in (20, 34, 48, 62, 76):
        page[10:20, x : x + 8] = 0
    page[20:22, 60:110] = 0  # the underline's steps, 2 px each, the first under the glyphs' feet
    page[22:24, 16:96] = 0
    page[24:26, 10:40] = 0
    assert tighten(page, (18, 6, 100, 25)) == (20.0, 10.0, 84.0, 20.0)


def test_a_descenders_tip_that_faint_print_broke_off_stays():
    # Synthetic documents 457: the tip of "Tyler"'s y, a row under the rest of the word, was taken
    # for the next line's letters and left the box 3 px short (IoU 0.69).
    page = np.full((60, 120), 255, np.uint8)
    for x in (30, 44, 58):
        page[28:38, x : x + 8] = 0  # glyphs, 10 px
    page[39:41, 46:48] = 0  # the y's tip, a blank row under its glyph
    assert tighten(page, (26, 22, 70, 46)) == (30.0, 28.0, 66.0, 41.0)
    page[39:41, 46:48] = 255
    page[41:43, 46:48] = 0  # as small but 3 px under the glyph: the next line's, or noise
    assert tighten(page, (26, 22, 70, 46)) == (30.0, 28.0, 66.0, 38.0)


def test_a_gray_stamp_stroke_ending_inside_the_box_past_the_prints_rows_is_not_its_ink():
    # Synthetic documents 313: a gray "Y"'s arm ends on the '9' of "EST-977748" inside an OCR box
    # that took in the whole stamp letter, neither out of the crop nor on the box's edge; it kept
    # the box 15 px high (IoU 0.64). The code's ink (half opaque or more, as the gold is drawn) is
    # (19, 47, 241, 76): a row of the stamp's tone 151 over and under it is no fringe of print.
    page = np.asarray(Image.open(FIXTURES / "stamp-arm-over-code.png").convert("L"))
    assert tighten(page, (20, 20, 243, 93)) == (19.0, 47.0, 241.0, 76.0)
    # Documents 410: a gray "N"'s leg under the "5" of "CL-90599" ends 4 px under the code's ink
    # (y 22 to 40) and kept its box 5 px low (IoU 0.68). Its columns are 21 to 123: those beside
    # them, of tone 153 and 157 on the stamp's gray of 154, hold no print.
    page = np.asarray(Image.open(FIXTURES / "stamp-leg-under-code.png").convert("L"))
    x0, _, x1, y1 = tighten(page, (20, 20, 124, 46))
    assert (x0, x1) == (21.0, 123.0) and y1 <= 41.0


def _within_a_pixel(box: tuple[float, float, float, float], ink: tuple[int, int, int, int]) -> bool:
    return all(abs(a - b) <= 1 for a, b in zip(box, ink, strict=True))


def test_a_gray_stamp_as_dark_as_prints_halfway_is_not_its_ink():
    # Synthetic entities seed 865: "RECEIVED" in a gray of tone 137 lies over "ST-398667", whose
    # crop's halfway to the paper is 143, so the stamp's thick strokes were print; the box took in
    # the stamp letters' ink under the code, 41 px tall for the code's 19 (IoU 0.44). The code's ink
    # is (24, 31, 140, 50).
    page = np.asarray(Image.open(FIXTURES / "stamp-as-dark-as-halfway.png").convert("L"))
    assert _within_a_pixel(tighten(page, (20, 20, 143, 65)), (24, 31, 140, 50))


def test_a_dark_gray_stamp_a_little_lighter_than_prints_halfway_is_not_its_ink():
    # Entities seed 648: "320-613-6926" over "CONFIDENTIAL" in a gray of tone 111, print's darkest
    # 20: lighter than print by 0.39 of the way to the paper, which fell short of the 0.4 the rule
    # asked, so the stamp letters' tops stayed in the box (IoU 0.70). The phone's ink is (17, 31,
    # 307, 70).
    page = np.asarray(Image.open(FIXTURES / "dark-gray-stamp-under-phone.png").convert("L"))
    assert _within_a_pixel(tighten(page, (20, 20, 306, 84)), (17, 31, 307, 70))


def test_bold_print_is_no_stamp_over_itself():
    # Thick strokes as dark as the thin ones are the print's own (a bold word): print's halfway stays.
    page = np.full((60, 120), 255, np.uint8)
    page[20:40, 10:20] = 30  # a thick stem
    page[20:23, 20:60] = 30  # a thin bar
    page[20:40, 60:66] = 30
    assert tighten(page, (8, 18, 68, 42)) == (10.0, 20.0, 66.0, 40.0)


def test_the_fringe_of_small_print_is_not_its_ink():
    # Synthetic entities seed 67: "PO-0676199" 8 px tall; Otsu's threshold took in a row of pale
    # antialiasing above and below it (IoU 0.79 with the gold, whose ink is (20, 15, 82, 23)).
    page = np.asarray(Image.open(FIXTURES / "small-code-fringe.png").convert("L"))
    assert tighten(page, (17, 12, 85, 26)) == (20.0, 15.0, 82.0, 23.0)


def test_light_print_over_a_rule_is_no_stamp_over_itself():
    # Synthetic documents seed 457: "daniel76@powers-williams.info" in light print, a 4 px rule
    # under it at the crop's edge; measured from that edge, the rule and the print's own blurred
    # strokes were a stamp's, and the whole print went with them (the box kept whole, IoU 0.61).
    # The e-mail's ink is (20, 26, 205, 39), its descenders joined to the rule from y 36.
    page = np.asarray(Image.open(FIXTURES / "light-email-over-rule.png").convert("L"))
    x0, y0, x1, y1 = tighten(page, (20, 20, 207, 41))
    assert abs(x0 - 20) <= 1 and y0 == 26.0 and abs(x1 - 205) <= 1 and 36.0 <= y1 <= 39.0


def test_faint_prints_light_strokes_past_a_fringe_stay():
    # Synthetic documents seed 89: "#49938" in faint, noisy print; the '#''s legs are light below
    # the digits' feet, more than a fringe's pixel, and all its own (taken as fringe, the box lost
    # 3 px below, IoU 0.91 -> 0.72). The code's ink is (19, 27, 68, 42).
    page = np.asarray(Image.open(FIXTURES / "faint-hash-code.png").convert("L"))
    x0, y0, x1, y1 = tighten(page, (22, 20, 71, 47))
    assert abs(x0 - 19) <= 1 and y0 == 27.0 and abs(x1 - 68) <= 1 and y1 >= 40.0


def test_blurred_prints_blobs_are_no_stamp_over_it():
    # Entities seed 837: "285-695-6113" blurred into blobs 8 px wide, lighter inside than the
    # crop's darkest pixel; too few such pixels for a stamp's strokes, they stay print (taken for a
    # stamp, most of the print went with it: IoU 0.93 -> 0.54). The phone's ink is (19, 28, 119, 45).
    page = np.asarray(Image.open(FIXTURES / "blurred-phone.png").convert("L"))
    assert _within_a_pixel(tighten(page, (20, 20, 123, 54)), (19, 28, 119, 45))


def test_a_stamp_running_out_of_a_short_words_crop_is_not_its_ink():
    # Entities seed 323: "Amy" under the bottom of a gray "CONFIDENTIAL"'s letters, which run out
    # of the word's crop: fewer of their pixels lie in it than blurred print's blobs would need
    # to be taken for a stamp's strokes, and little of the print lies inside them, yet they are a
    # stamp's, cut by the crop's edge; read as print, the box took in the letters' feet (IoU 0.63
    # with the gold). The word's ink is (17, 30, 66, 53); a gray rule lies under it.
    page = np.asarray(Image.open(FIXTURES / "stamp-over-short-name.png").convert("L"))
    assert _within_a_pixel(tighten(page, (20, 20, 74, 58)), (17, 30, 66, 53))


def test_blurred_prints_blobs_that_reach_a_tight_crops_edge_are_no_stamp_running_out_of_it():
    # Entities seed 837: "285.695.6113" blurred, in an OCR box as tight as its ink, so the crop's
    # edge cuts its blobs; with 48 px inside them they are too few for a stamp's strokes running on
    # out of the crop (taken for one, the print went with it: IoU 0.93 -> 0.47). Its ink is (19,
    # 28, 106, 43).
    page = np.asarray(Image.open(FIXTURES / "blurred-phone-tight-box.png").convert("L"))
    assert _within_a_pixel(tighten(page, (20, 20, 105, 49)), (19, 28, 106, 43))


def test_a_logos_gray_letters_with_a_speck_of_black_are_no_stamp():
    # vrdu: the "THE CW62" logo, gray letters 12 px thick and a few black pixels; taken for a gray
    # stamp over print, all of it went and the box shrank to a speck (IoU 0.91 -> 0). Its ink is
    # (28, 40, 228, 141).
    page = np.asarray(Image.open(FIXTURES / "two-tone-logo.png").convert("L"))
    assert _within_a_pixel(tighten(page, (20, 20, 226, 159)), (28, 40, 228, 141))


def test_gray_letters_beside_black_print_are_no_stamp_over_it():
    # A logo's thick gray letters with black print between them that they do not cross (vrdu2's
    # gray "FOX" over its town in black, which the first version of the stamp rule dropped): a
    # stamp is printed over the print it hides, so this is the word's own ink, gray and black alike.
    page = np.full((100, 200), 255, np.uint8)
    page[10:70, 20:40] = 125  # thick gray strokes
    page[10:22, 40:110] = 125
    page[10:70, 110:130] = 125
    for x in range(50, 100, 10):  # black glyphs, 2 px strokes, under the bar and between the stems
        page[40:54, x : x + 2] = 30
        page[40:42, x : x + 6] = 30
    assert tighten(page, (18, 8, 132, 72)) == (20.0, 10.0, 130.0, 70.0)
    # in a box as tight as the letters, whose crop's edge cuts them, they are the word's too: thick
    # strokes running out of a crop are a stamp's only in a short word's (vrdu2's "FOX", 0.77 -> 0.69)
    assert tighten(page, (22, 12, 128, 68)) == (20.0, 10.0, 130.0, 70.0)


def test_a_stamps_letters_reaching_only_a_codes_foot_are_no_print():
    # Entities seed 44: the tops of a gray "PAID"'s letters, with a noisy scan's darker specks in
    # them, reach the foot of "ORD-063294" and no higher: a fifth of its print lies in their
    # strokes, too little to read them as a stamp's, and its box came out 14 px low (IoU 0.69).
    page = np.asarray(Image.open(FIXTURES / "stamp-letters-under-code-foot.png").convert("L"))
    assert tighten(page, (21, 13, 270, 74)) == pytest.approx((19, 24, 267, 57), abs=1)


def test_a_gray_stamp_letters_foot_lying_on_a_code_is_not_its_ink():
    # Entities seed 472: the foot of a gray "P", 4 px tall, lies on the "C" of "CT-600735", too
    # thin for a stamp's stroke and ending inside the crop; it kept the box 4 px high (with a
    # frame's line under the '0', IoU 0.71). The code's ink starts at y 28.
    page = np.asarray(Image.open(FIXTURES / "stamp-foot-over-code.png").convert("L"))
    assert tighten(page, (20, 17, 152, 57))[1] >= 27.0


def test_a_frames_edge_the_glyphs_stand_on_is_cut_from_them():
    # Synthetic documents 898: a stamp frame's top edge, as dark as print, runs along the feet of
    # "ORD-97984" and no glyph's stroke goes on below it; its side runs on down out of the crop
    # from it, and the box took that in, 8 px low (IoU 0.61). The code's ink ends at y 35.
    page = np.asarray(Image.open(FIXTURES / "frame-edge-under-code.png").convert("L"))
    assert tighten(page, (29, 16, 131, 41))[1:4:2] == (21.0, 35.0)


def test_a_frames_bottom_only_its_side_stands_on_goes_with_that_side():
    # Synthetic documents 457: a gray stamp frame's side runs down through "346.078.6545" to the
    # frame's bottom under it; cut from the bottom, the side stayed under the phone, 13 px (IoU
    # 0.92 -> 0.64). The phone's ink ends at y 50.
    page = np.asarray(Image.open(FIXTURES / "frame-corner-by-phone.png").convert("L"))
    assert tighten(page, (18, 14, 261, 67))[3] <= 52.0


def test_the_steps_of_a_skewed_underline_are_no_strokes_standing_on_it():
    # Entities seed 942: an underline under "482.597.5948" steps up a row halfway; each step
    # stands on the other, and cut as strokes on a line, one stayed under the phone (IoU 1.00 ->
    # 0.68). The phone's ink is (18, 19, 83, 30).
    page = np.asarray(Image.open(FIXTURES / "skewed-underline-under-phone.png").convert("L"))
    assert tighten(page, (19, 13, 86, 34)) == (18.0, 19.0, 83.0, 30.0)


def test_a_word_boxed_over_the_next_words_first_glyph_ends_at_its_own_ink():
    # Documents seed 162: "Hall unit", the OCR's box of "Hall" over the "u" (IoU 0.73 with the gold).
    page = np.full((60, 120), 255, np.uint8)
    page[20:36, 30:40] = 0  # "Hall", two glyphs
    page[20:36, 46:57] = 0
    page[24:36, 63:71] = 0  # the next word's first glyph
    words = [Word("Hall", (28, 15, 66, 40), 1.0, 0, 0), Word("unit", (62, 15, 90, 40), 1.0, 0, 0)]
    assert _ink_box(page, words, Span("PERSON_NAME", (0,), 0.9, "x"), 0) == (30, 20, 57, 36)
    assert _ink_box(page, words, Span("PERSON_NAME", (1,), 0.9, "x"), 1)[0] == 63
    # the next word's box overlaps, but its print starts past where `tighten` looks: as boxed
    # (documents seed 89: cutting a skewed "#49938" 1 px short took 2 px of its foot's fringe off)
    words = [Word("Hall", (28, 15, 60, 40), 1.0, 0, 0), Word("unit", (59, 15, 90, 40), 1.0, 0, 0)]
    assert _clear(page, words, 0, words[0].bbox) == words[0].bbox
    words = [Word("Hall", (28, 15, 66, 40), 1.0, 0, 0), Word("unit", (56, 15, 90, 40), 1.0, 0, 0)]  # no gap: as boxed
    assert _ink_box(page, words, Span("PERSON_NAME", (0,), 0.9, "x"), 0)[2] > 57


def test_a_gray_stamp_across_a_short_crop_top_to_bottom_is_not_its_ink():
    # Held-out entities seed 426: the digits "814" of a phone under a gray "RECEIVED" of tone 113,
    # as dark as print's halfway (138), whose strokes run through the crop top to bottom, too short
    # to hold their insides: the box took in the stamp letters' feet and the comma of the line
    # above (IoU 0.48 with the phone's gold). One tone is most of the crop's ink, as a stamp's
    # strokes are. The digits' ink is (19, 22, 45, 33).
    page = np.asarray(Image.open(FIXTURES / "short-crop-under-gray-stamp.png").convert("L"))
    assert _within_a_pixel(tighten(page, (21, 15, 49, 38)), (19, 22, 45, 33))


def test_under_a_stamp_its_tone_round_the_glyphs_is_no_print_but_a_glyphs_edge_on_the_paper_is():
    # Synthetic documents seed 162: "10/06/24" half on a ring's gray; measured from the ring's tone,
    # the antialiased tops of its slashes on the paper beside it were taken for its fringe.
    page = np.full((60, 120), 255, np.uint8)
    page[10:50, 10:60] = 151  # a stamp's stroke under the left half of the print
    page[20:40, 20:100] = 20  # the print
    page[19, 60:100] = 130  # its top row's antialiasing on the paper, half opaque and more
    assert _less_edges(page, (20, 19, 100, 41), (18, 17, 102, 43), ground=151.0) == (20.0, 19.0, 100.0, 40.0)
