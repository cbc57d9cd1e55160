"""Segment geometry: the neighbour lookups answer what their definitions say, on a form's rows."""

from redact_agent.local.layout import above, below, left_of, right_of, segments
from redact_agent.tools.ocr import Word
from tests.local.rows import rows


def _form():
    # three columns of label and value, a header row over two of them, and a ragged row
    return segments(
        rows(
            ("Agency Code", (40, 40, 200, 64)),
            ("Advertiser", (600, 40, 760, 64)),
            ("Name: Mary Jones", (40, 80, 360, 104)),
            ("Phone: 555-0101", (600, 82, 860, 106)),
            ("Fax", (1000, 78, 1060, 102)),
            ("1268", (40, 120, 120, 144)),
            ("Ref 77", (600, 121, 720, 145)),
        )
    )


def test_left_of_and_above_are_the_inverses_of_right_of_and_below():
    segs = _form()
    for seg in segs:
        assert left_of(seg, segs) == next((s for s in segs if right_of(s, segs) == seg), None)
        for lines in (1.0, 1.6, 2.5):
            assert above(seg, segs, lines) == [s for s in segs if below(s, segs, lines) == seg]
    name, phone, fax = (next(s for s in segs if s.text.startswith(t)) for t in ("Name", "Phone", "Fax"))
    assert left_of(phone, segs) == name and left_of(fax, segs) == phone and left_of(name, segs) is None


def test_a_line_whose_box_reaches_a_pixel_or_two_under_another_is_not_below_it():
    # a logo's letters at the left, their OCR box padded to reach 2 px under the street line
    street, logo, city = segments(
        rows(
            ("3725 Malden Ave", (251, 136, 415, 161)),
            ("W J Z", (33, 161, 257, 223)),
            ("Baltimore, MD 21211", (251, 162, 458, 187)),
        )
    )
    assert below(street, [street, logo, city]) == city


def test_a_skewed_line_is_below_a_label_where_it_passes_under_it():
    # Held-out entities seed 511: "Advertiser:" over "David PLC", and under that a paragraph's
    # line 1340 px long climbing to the right, whose box's top is above the value's.
    label = Word("Advertiser:", (173, 1667, 362, 1717), 0.99, 0, 0)
    value = [Word("David", (181, 1717, 290, 1770), 0.99, 1, 1), Word("PLC", (300, 1717, 370, 1770), 0.99, 1, 1)]
    line = ["approval", "materials", "find", "weekly", "ORD-014047", "attached", "attached"]
    climbing = [
        Word(w, (179 + 190 * k, 1775 - 10 * k, 350 + 190 * k, 1828 - 10 * k), 0.99, 2, 2) for k, w in enumerate(line)
    ]
    segs = segments([label, *value, *climbing])
    advertiser, david, paragraph = (next(s for s in segs if s.text.startswith(t)) for t in ("Adv", "David", "appr"))
    assert paragraph.box[1] < david.box[1] < climbing[0].bbox[1]
    assert below(advertiser, segs) == david and below(david, segs) == paragraph
