"""Words read off their ink along a line are moved onto it, in order, or left as read."""

from pathlib import Path

import numpy as np
from PIL import Image

from redact_agent.local.snap import _apart, snapped
from redact_agent.tools.ocr import Word

FIXTURES = Path(__file__).parent.parent / "fixtures"
BODY = (100, 112)  # the glyphs' bodies' rows


def _letters(ink: np.ndarray, x: int, n: int, rows: tuple[int, int] = BODY) -> tuple[int, int]:
    """`n` letters 8 px wide, 3 px apart, from column x, with ascenders above the body on the
    first; their columns."""
    for k in range(n):
        ink[rows[0] : rows[1], x + 11 * k : x + 11 * k + 8] = 1
    ink[rows[0] - 5 : rows[0], x : x + 2] = 1
    return x, x + 11 * n - 3


def _on(words: list[Word], spans: list[tuple[int, int]]) -> bool:
    """Whether each word's columns take in its span of ink and no column of another's."""
    return all(
        w.bbox[0] <= a
        and w.bbox[2] >= b
        and all(w.bbox[2] <= c or w.bbox[0] >= d for c, d in spans if (c, d) != (a, b))
        for w, (a, b) in zip(words, spans, strict=True)
    )


def _word(text: str, x0: float, x1: float, line: int = 0, rows: tuple[int, int] = (92, 120)) -> Word:
    return Word(text, (x0, rows[0], x1, rows[1]), 0.9, line, 0)


def test_words_drifted_along_their_line_are_moved_onto_their_ink():
    # Entities seed 323: a line read on a crop whose detected box was three times the glyphs'
    # height placed "ST-6058779" 33 px left of its ink (IoU 0.69).
    ink = np.zeros((200, 800), np.uint8)
    spans = [_letters(ink, x, n) for x, n in ((40, 6), (130, 10), (260, 10), (390, 6))]
    read = [_word(t, a - 8 - 3 * i, b - 8 - 3 * i) for i, (t, (a, b)) in enumerate(zip("abcd", spans, strict=True))]
    assert not _on(read, spans)
    moved = snapped(read, ink)
    assert _on(moved, spans)
    assert [w.bbox[1::2] for w in moved] == [w.bbox[1::2] for w in read]  # rows as read


def test_a_box_that_cuts_off_a_words_first_letter_takes_it_in():
    # Entities seed 717: "Pace" read from just right of its "P"'s stem, which the ink's tightening
    # then dropped as a neighbour's (IoU 0.75).
    ink = np.zeros((200, 400), np.uint8)
    dr, pace = _letters(ink, 40, 3), _letters(ink, 90, 4)
    read = [_word("Dr.", *dr), _word("Pace", pace[0] + 6, pace[1] + 6)]
    assert _on(snapped(read, ink), [dr, pace]) and not _on(read, [dr, pace])


def test_a_tail_under_the_bodies_that_the_box_read_took_in_stays_in():
    # Entities seed 433: the hook of "Julía"'s "J" ends left of its stem, under the bodies' rows;
    # the box read took it in, and the word moved onto its body's ink must not lose it.
    ink = np.zeros((200, 400), np.uint8)
    span = _letters(ink, 100, 5)
    ink[112:116, 94:100] = 1  # the hook
    (moved,) = snapped([_word("Julia", 93, span[1] - 6)], ink)
    assert moved.bbox[0] <= 94 and moved.bbox[2] >= span[1]


def test_a_word_whose_ink_runs_into_its_neighbours_or_lies_far_off_stays_as_read():
    ink = np.zeros((200, 800), np.uint8)
    first, second = _letters(ink, 40, 5), _letters(ink, 95, 5)  # 3 px apart: one piece of ink
    read = [_word("joined", first[0] + 4, first[1] + 4), _word("words", second[0] + 4, second[1] + 4)]
    assert snapped(read, ink) == read
    far = _letters(ink, 400, 4)
    alone = [_word("far", far[0] + 25, far[1] + 25)]  # drifted by more than half its width
    assert snapped(alone, ink) == alone


def test_a_sloping_lines_words_are_each_moved_on_their_own_rows():
    # A scan turned by a degree and a half: the line's first word's body lies 24 px under its
    # last's; in rows common to both, each word's ink would be its ascender or descender's.
    ink = np.zeros((300, 900), np.uint8)
    spans, read = [], []
    for i, x in enumerate((40, 300, 560)):
        rows = (150 - 12 * i, 162 - 12 * i)
        spans.append(_letters(ink, x, 8, rows))
        read.append(_word(f"w{i}", spans[-1][0] + 10, spans[-1][1] + 10, rows=(rows[0] - 8, rows[1] + 8)))
    assert _on(snapped(read, ink), spans) and not _on(read, spans)


def test_the_line_under_that_a_box_reaches_into_is_not_its_body():
    # Entities seed 323: a line read on a crop, its boxes three times the glyphs' height, reaching
    # into the line under it ("drder team status"), whose letters outnumbered its own.
    ink = np.zeros((200, 600), np.uint8)
    spans = [_letters(ink, x, 3) for x in (40, 130)]
    for k in range(40):  # the line under: more letters, cut by the boxes' bottom
        ink[116:128, 20 + 7 * k : 24 + 7 * k] = 1
    read = [_word(t, a + 6, b + 6, rows=(92, 120)) for t, (a, b) in zip("ab", spans, strict=True)]
    assert _on(snapped(read, ink), spans) and not _on(read, spans)


def test_a_letter_standing_apart_goes_with_its_own_word_not_the_next():
    # Entities seed 41: in a monospaced font the "l" of "approval" stood 7 px from its "a", and
    # "Gonzalez", read wide and 24 px left, took it in (IoU 0.76).
    ink = np.zeros((200, 400), np.uint8)
    first = _letters(ink, 40, 6)
    ink[BODY[0] : BODY[1], first[1] + 7 : first[1] + 10] = 1  # the "l", apart
    first = (first[0], first[1] + 10)
    second = _letters(ink, first[1] + 16, 8)
    read = [_word("approval", first[0] - 10, first[1] - 10), _word("Gonzalez", second[0] - 14, second[1] + 6)]
    assert _on(snapped(read, ink), [first, second])


def test_a_speck_beside_a_word_is_left_out_of_it():
    # Entities seed 39: a speck 33 px before "INV-99818", read 4 px left of its ink, was taken in.
    ink = np.zeros((200, 400), np.uint8)
    ink[104:108, 60:63] = 1
    span = _letters(ink, 96, 8)
    (moved,) = snapped([_word("INV-99818", span[0] - 4, span[1] - 4)], ink)
    assert moved.bbox[0] > 63 and moved.bbox[2] >= span[1]


def test_a_lines_first_word_takes_no_ink_a_word_gap_before_it():
    # Entities seed 433: on a skewed page the end of the line above ("443") reached into the rows
    # of "vasquezjulie@martinez.info", 27 px before it; the word took it in (IoU 0.73).
    ink = np.zeros((200, 800), np.uint8)
    ink[BODY[0] : BODY[1], 60:77] = 1
    span = _letters(ink, 104, 30)
    (moved,) = snapped([_word("vasquezjulie@martinez.info", span[0] + 1, span[1] + 4)], ink)
    assert moved.bbox[0] > 77 and moved.bbox[2] >= span[1]


def test_a_word_that_moves_over_a_neighbour_left_as_read_stays_as_read():
    # Entities seed 865: "training+18370540773schedule", read glued, moved 58 px on over the start
    # of the next word, which stayed as read; the phone cut from it by characters went with it.
    glued, after = _word("training+18370540773schedule", 129, 598), _word("thisinformation", 606, 814)
    moved = {id(glued): _word("training+18370540773schedule", 129, 656)}
    assert _apart([glued, after], moved, 20) == {}
    moved = {id(glued): _word("training+18370540773schedule", 129, 612)}  # 6 px: a letter taken back
    assert _apart([glued, after], moved, 20) == moved


def test_a_long_word_takes_in_no_ink_past_its_end_its_width_allows():
    # Entities seed 97: "https://poole-clements.com", 406 px, took in a mark 18 px after it, 57 px
    # more: a share of its width a short word's is not (IoU 0.71).
    ink = np.zeros((200, 800), np.uint8)
    span = _letters(ink, 60, 30)
    ink[BODY[0] : BODY[1], span[1] + 14 : span[1] + 39] = 1
    (moved,) = snapped([_word("https://poole-clements.com", *span)], ink)
    assert moved.bbox[2] < span[1] + 14


def test_a_rule_or_stamp_frame_beside_a_word_is_no_ink_of_it():
    # Entities seed 648: a stamp's frame 3 px before "S." joined its piece of ink; the word took
    # it in and its box, tightened, grew as tall as the frame (IoU 0.93 -> 0.38).
    ink = np.zeros((200, 400), np.uint8)
    span = _letters(ink, 100, 6)
    ink[40:180, 95:97] = 1  # the frame, from far above the line to far below it
    (moved,) = snapped([_word("Shawn", span[0] + 3, span[1] + 3)], ink)
    assert moved.bbox[0] > 97 and moved.bbox[2] >= span[1]


def test_a_logos_tall_letters_inside_its_box_are_its_ink_not_a_rule():
    # vrdu: "CW62", a logo's letters 100 px tall over a small "THE" that set the glyphs' bodies'
    # rows, crossed those rows from a body's height over them to one under them; taken for rules,
    # they were dropped, and the word, read wide of its ink, was left so (IoU 0.90 -> 0.72).
    ink = np.zeros((300, 400), np.uint8)
    ink[100:110, 40:48] = ink[100:110, 51:59] = ink[100:110, 62:70] = 1  # "THE"
    ink[60:150, 80:130] = ink[60:150, 140:190] = 1
    (moved,) = snapped([_word("CW62", 45, 200, rows=(55, 155))], ink)  # the "T" cut
    assert moved.bbox[0] == 40


def test_a_monospaced_words_letters_standing_apart_as_far_as_the_words_stay_its_own():
    # Entities seed 648: in a monospaced font the last "l" of "annual" stood 10 px from its "a"
    # and 9 px from the "M" of "Marshall", whose "l"s stood 11 and 12 px apart; "Marshall", read
    # on its ink, was moved 41 px back onto "lMarsha" (IoU 0.93 -> 0.63).
    ink = np.zeros((200, 600), np.uint8)
    rows = (100, 122)
    for a, b in ((86, 196), (206, 237), (246, 287), (296, 378), (389, 400), (412, 424)):
        ink[rows[0] : rows[1], a:b] = 1
    read = [_word("annual", 86, 227, rows=(88, 134)), _word("Marshall", 246, 430, rows=(88, 134))]
    assert _on(snapped(read, ink), [(86, 237), (246, 424)])


def test_a_line_of_specks_one_row_high_is_left_as_read():
    # Entities seed 648: two specks a row high, 3 rows apart, were read as "H" and "240-18N"; the
    # line's bodies, set on their middle row, were no row high (OpenCV crashed on the empty strip).
    ink = np.zeros((200, 400), np.uint8)
    ink[104, 20:24] = ink[107, 120:126] = 1
    read = [_word("H", 10, 35), _word("240-18N", 104, 279)]
    assert snapped(read, ink) == read


def test_a_word_with_no_glyph_bodies_is_a_neighbour_no_word_moves_over():
    # Documents seed 410: "spots", under a gray stamp's letters, has no glyph bodies of its own
    # and was left out of the line; "CLM-2022-53068", read on its ink, moved 48 px on over it
    # (IoU 0.94 -> 0.63). The ink of the line, as the engine measures it, and the words as read.
    ink = np.asarray(Image.open(FIXTURES / "code-before-word-under-gray-stamp.png")) > 0
    read = [
        _word(text, x0, x1, rows=rows)
        for text, x0, x1, rows in (
            ("summary", 98, 227, (10, 57)),
            ("note", 242, 319, (16, 61)),
            ("regarding", 334, 496, (20, 69)),
            ("unit", 511, 587, (28, 73)),
            ("remit", 602, 699, (32, 78)),
            ("CLM-2022-53068", 714, 968, (37, 89)),
            ("spots", 983, 1070, (49, 93)),
        )
    ]
    assert snapped(read, ink)[5] == read[5]


def test_a_rings_slanting_arc_through_a_words_first_glyph_leaves_the_glyph():
    # Documents seed 457: a gray ring's arc crossed the line through the "2" of "2021-07-11"; taken
    # for a rule with it, the glyph was dropped, and the date was moved onto the ring's other arc
    # after it (IoU 0.78 -> 0.66).
    ink = np.zeros((200, 600), np.uint8)
    span = _letters(ink, 100, 10)
    for y in range(85, 130):  # the arc, from over the box to under it, 9 px across the line
        ink[y, 96 + (y - 85) // 5 : 99 + (y - 85) // 5] = 1
    ink[98:116, span[1] + 8 : span[1] + 18] = 1  # the other arc's noise in the line's rows, after the word
    (moved,) = snapped([_word("2021-07-11", *span)], ink)
    assert moved.bbox[2] < span[1] + 5
