"""Segment geometry: the neighbour lookups answer what their definitions say, on a form's rows."""

from redact_agent.local.layout import above, below, left_of, right_of, segments
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
