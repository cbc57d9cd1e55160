"""Lines the OCR's text detector passed over are found by their uncovered ink and read on a crop."""

from pathlib import Path

import numpy as np
from PIL import Image

from redact_agent.local.unread import inks_of, missed_lines, read
from redact_agent.tools.ocr import RapidOcrEngine, Word

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _word(x0: float, y0: float, x1: float, y1: float) -> Word:
    return Word("word", (x0, y0, x1, y1), 0.9, 0, 0)


def _glyphs(page: np.ndarray, x: int, y: int, n: int, size: int = 14, step: int = 18) -> None:
    """`n` glyph-like rings of `size` px in a row from (x, y)."""
    for k in range(n):
        page[y : y + size, x + k * step : x + k * step + size - 4] = 0
        page[y + 3 : y + size - 3, x + k * step + 3 : x + k * step + size - 7] = 255


def test_an_unread_row_of_glyphs_is_a_missed_line_and_a_read_one_is_not():
    page = np.full((400, 600), 255, np.uint8)
    _glyphs(page, 40, 40, 6)  # read: a word covers it
    _glyphs(page, 40, 200, 6)  # missed
    words = [_word(38, 34, 150, 58), _word(300, 34, 400, 58)]  # words 24 px high
    (box,) = missed_lines(page, words, inks_of(page, words))
    assert box[0] <= 40 and box[1] <= 200 and box[2] >= 40 + 5 * 18 + 10 and box[3] >= 214
    assert box[1] > 58  # not the read line above


def test_a_line_under_a_dotted_ring_is_a_line_of_its_glyphs_rows():
    # Synthetic documents seed 241: "pending ST-51095" under a black dotted ring, whose glyph-sized
    # dots above and below the line joined its row, two word heights tall: no line, and not read.
    page = np.full((400, 600), 255, np.uint8)
    _glyphs(page, 40, 200, 6)  # the line: y 200 to 214
    for x, y0, y1, foot in ((52, 186, 200, 199), (88, 214, 228, 214)):  # the ring's dots, just above and below it
        page[y0:y1, x : x + 2] = 0
        page[foot, x : x + 4] = 0
    words = [_word(300, 34, 400, 58), _word(300, 80, 400, 104)]  # 24 px high
    (box,) = missed_lines(page, words, inks_of(page, words))
    assert (box[1], box[3]) == (200 - 12, 214 + 12)


def test_a_line_found_in_both_inks_is_its_shorter_band():
    # Held-out entities seed 97: a gray "CONFIDENTIAL" over two lines joins glyphs of one to the
    # other's in Otsu's ink, whose band took in both; its crop read the line the OCR had read
    # already, not "CASE-2024-77512" on the other. In the print's ink the line is its own glyphs.
    page = np.full((400, 600), 255, np.uint8)
    page[300:390, 400:590] = 170  # a large gray stamp's body: Otsu's threshold takes its tone in
    words = []
    for k in range(3):  # read lines of black print, 22 px high words
        _glyphs(page, 30, 20 + 30 * k, 14)
        words.append(_word(28, 16 + 30 * k, 290, 38 + 30 * k))
    _glyphs(page, 40, 200, 6)  # the line the detector missed: y 200 to 214
    for k in range(6):  # the stamp's gray strokes in the gaps between its glyphs, reaching above them
        x = 40 + 18 * k + 12
        page[190:206, x : x + 2] = 170
        page[204:206, x : x + 5] = 170
    (box,) = missed_lines(page, words, inks_of(page, words))
    assert (box[1], box[3]) == (200 - 11, 214 + 11)


def test_a_stamps_tall_letters_a_column_and_a_few_marks_are_no_line():
    page = np.full((600, 600), 255, np.uint8)
    for k in range(5):  # a stamp's letters, three word heights tall
        page[300:372, 40 + 80 * k : 100 + 80 * k] = 0
        page[310:362, 50 + 80 * k : 90 + 80 * k] = 255
    for k in range(6):  # sideways text: glyphs down a column
        _glyphs(page, 540, 20 + 40 * k, 1)
    _glyphs(page, 40, 500, 3)  # three marks: too few for a line
    words = [_word(300, 20, 400, 44)]
    assert missed_lines(page, words, inks_of(page, words)) == []


def _page_with(strip: str, top: int) -> Image.Image:
    """A blank page of a synthetic page's size (1700 x 2200) with a strip of one pasted at `top`."""
    page = np.full((2200, 1700), 255, np.uint8)
    pasted = np.asarray(Image.open(FIXTURES / strip).convert("L"))
    page[top : top + pasted.shape[0]] = pasted
    return Image.fromarray(page).convert("RGB")


def test_a_line_a_stamp_hid_from_the_detector_is_read_on_its_own_crop():
    # Synthetic documents seed 223: "PAID" over "... pending 933.658.1321"; at the page's size
    # (1700 x 2200, the detector's 1536 px limit) the detector finds no line there.
    image = _page_with("stamp-over-line.png", 1600)
    ocr = RapidOcrEngine()
    assert "933.658.1321" not in [w.text for w in ocr.words(image)]
    found = [w for w in read(image, ocr).words if w.text == "933.658.1321"]
    assert len(found) == 1 and 1600 < found[0].bbox[1] < found[0].bbox[3] < 1720


def test_a_stamp_read_as_a_word_hides_no_line_and_a_gray_one_joins_no_glyphs():
    # Synthetic entities seed 59: "RECEIVED", gray, read as one word three lines tall over a code.
    page = np.full((400, 600), 255, np.uint8)
    _glyphs(page, 40, 200, 6)
    page[204:208, 30:160] = 150  # the stamp's stroke through the glyphs, lighter than the print
    words = [_word(300, 34, 400, 58), _word(300, 80, 400, 104), _word(20, 150, 500, 260)]  # the last: the stamp
    (box,) = missed_lines(page, words, inks_of(page, words))
    assert box[1] <= 200 and box[3] >= 214


class _ScriptedOcr:
    """Words for the page as given, and for any crop of it the words `crop` says, in its pixels."""

    name = "scripted"

    def __init__(self, page_size: tuple[int, int], page: list[Word], crop: list[Word]) -> None:
        self.page_size, self.page, self.crop = page_size, page, crop

    def words(self, image: Image.Image) -> list[Word]:
        return self.page if image.size == self.page_size else self.crop

    def clear_cache(self) -> None:
        pass


def test_large_print_read_again_on_its_crop_is_not_added_twice():
    # vrdu: a name printed twice the page's word height ("Lydia Dowl") is no stamp's, but its
    # glyphs are uncovered ink; read again on the crop, it is the same word, not a second one: the
    # word read again takes its place.
    page = np.full((400, 600), 255, np.uint8)
    _glyphs(page, 40, 200, 6, size=20, step=24)
    words = [_word(300, 34, 400, 58), _word(300, 80, 400, 104), Word("Lydia", (36, 190, 176, 240), 0.99, 2, 2)]
    (box,) = missed_lines(page, words, inks_of(page, words))
    x0, y0 = int(box[0]), int(box[1])
    again = Word("Lydia", (36 - x0, 191 - y0, 175 - x0, 239 - y0), 0.99, 0, 0)
    image = Image.fromarray(page).convert("RGB")
    assert read(image, _ScriptedOcr(image.size, words, [again])).words == [
        *words[:2],
        Word("Lydia", (36, 191, 176, 239), 0.99, 3, 0),  # on to its ink's end (`snap`)
    ]
    elsewhere = Word("Lydia", (36 - x0, 150 - y0, 175 - x0, 185 - y0), 0.99, 0, 0)  # not the same place: new
    assert len(read(image, _ScriptedOcr(image.size, words, [elsewhere])).words) == 4


def test_a_code_under_a_gray_stamp_is_read_in_prints_ink_in_place_of_the_joined_word():
    # Synthetic documents seed 151: a gray "APPROVED" over "Invoice No. R-9346755"; the detector
    # joins the line with the stamp into words three lines tall ("R-934PPROVED"), and the line read
    # again as printed still reads the stamp into the code ("R-934675PPR").
    image = _page_with("gray-stamp-over-code.png", 300)
    ocr = RapidOcrEngine()
    assert "R-9346755" not in [w.text for w in ocr.words(image)]
    texts = [w.text for w in read(image, ocr).words]
    assert texts.count("R-9346755") == 1
    assert not [t for t in texts if t.startswith("R-934") and t != "R-9346755"]  # the joined word gives way


def test_a_missed_line_is_read_on_its_crop_without_the_lines_read_beside_it():
    # Synthetic entities seed 472: a skewed line beside "COPY" that the detector passed over; its crop
    # holds the line below it too, and the detector read that one alone there, not the missed one.
    page = np.full((1650, 1275), 255, np.uint8)
    page[850:1150] = np.asarray(Image.open(FIXTURES / "skewed-line-beside-stamp.png").convert("L"))
    image = Image.fromarray(page).convert("RGB")
    ocr = RapidOcrEngine()
    assert "R-1848299" not in [w.text for w in ocr.words(image)]
    found = [w for w in read(image, ocr).words if w.text == "R-1848299"]
    assert len(found) == 1 and 1000 < found[0].bbox[1] < found[0].bbox[3] < 1060


def test_a_line_read_again_is_one_line_of_words_read_again():
    # Synthetic entities seed 41: a phone under a gray stamp, "(931) 274-7421", read in two tall
    # words; read again on a crop, the one read again that lay partly out of its tall word was kept
    # beside the other tall word, on two lines, and the phone was no longer found.
    page = np.full((400, 600), 255, np.uint8)
    _glyphs(page, 40, 200, 10)
    words = [_word(300, 34 + 46 * k, 400, 58 + 46 * k) for k in range(3)] + [_word(440, 34, 540, 58)]
    tall = [Word("(931)", (50, 180, 120, 250), 0.99, 2, 2), Word("274-7421", (128, 180, 220, 250), 0.99, 2, 2)]
    (box,) = missed_lines(page, words + tall, inks_of(page, words + tall))
    x0, y0 = int(box[0]), int(box[1])
    again = [Word("(931)", (20 - x0, 190 - y0, 100 - x0, 250 - y0), 0.99, 0, 0)]  # IoU 0.45 with its tall word
    again.append(Word("274-7421", (128 - x0, 186 - y0, 216 - x0, 250 - y0), 0.99, 0, 0))  # 0.87
    image = Image.fromarray(page).convert("RGB")
    got = read(image, _ScriptedOcr(image.size, words + tall, again)).words
    assert [(w.text, w.line) for w in got[4:]] == [("(931)", 3), ("274-7421", 3)]


def test_words_read_again_go_on_the_line_of_the_print_they_continue():
    # Synthetic entities seed 67: "GRAY,  SCOTT" under a gray ring; the detector read "SCOTT" alone,
    # and "GRAY," read again on a crop was a line of its own: the name "GRAY, SCOTT" was no run.
    page = np.full((400, 600), 255, np.uint8)
    _glyphs(page, 40, 200, 6)
    scott = Word("SCOTT", (170, 196, 260, 218), 0.99, 3, 3)
    skewed = Word("TKT", (530, 187, 590, 207), 0.99, 4, 4)  # a line above, sharing half the rows of "far"
    words = [_word(300, 34 + 46 * k, 400, 58 + 46 * k) for k in range(3)] + [scott, skewed]
    (box,) = missed_lines(page, words, inks_of(page, words))
    x0, y0 = int(box[0]), int(box[1])
    again = [Word("GRAY,", (40 - x0, 197 - y0, 140 - x0, 217 - y0), 0.99, 0, 0)]
    again.append(Word("far", (480 - x0, 197 - y0, 520 - x0, 217 - y0), 0.99, 1, 1))
    image = Image.fromarray(page).convert("RGB")
    got = read(image, _ScriptedOcr(image.size, words, again)).words
    assert [(w.text, w.line) for w in got[5:]] == [("GRAY,", 3), ("far", 6)]


def test_a_code_under_a_stamp_darker_than_prints_halfway_is_read_under_the_stamps_tone():
    # Synthetic documents seed 457: "C91436" in black under a gray "CONFIDENTIAL" of tone 138, on a
    # page whose print's halfway tone is 159: print's ink kept the stamp, and the code was not read.
    image = _page_with("dark-gray-stamp-over-code.png", 1000)
    ocr = RapidOcrEngine()
    assert "C91436" not in [w.text for w in ocr.words(image)]
    assert "C91436" in [w.text for w in read(image, ocr).words]


def test_a_line_under_a_gray_stamp_as_dark_as_prints_halfway_is_read_on_the_prints_core():
    # Synthetic documents seed 901: a signature's "Regards," and "Sara Kennedy" under a gray "FILED"
    # of tone 115, the print's halfway 140: the stamp joins their glyphs in both inks, the detector
    # read neither line, nor the stamp. On the print's core alone the name reads; and the words of
    # the lines above and below, whose boxes are taller than their print, do not make it read already.
    image = _page_with("gray-stamp-over-signature.png", 720)
    ocr = RapidOcrEngine()
    assert not {"Sara", "Kennedy"} & {w.text for w in ocr.words(image)}
    found = {w.text: w.bbox for w in read(image, ocr).words}
    assert 840 < found["Sara"][1] < found["Kennedy"][3] < 930
