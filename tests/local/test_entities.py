"""Entity cues without labels: names inside running text, organisations, street lines."""

import pytest

from redact_agent.local.engine import recognise
from redact_agent.local.spans import PageText, value_of
from tests.local.rows import found, rows


def test_a_name_inside_running_text():
    words = rows(("thank you, Gary Huang, for the report of Clarence B. Smith", (100, 100, 900, 124)))
    names = {value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "PERSON_NAME"}
    assert names == {"Gary Huang", "Clarence B. Smith"}  # the comma after "Huang" is not the name
    # a programme's word after it, in lower case, is running text (synthetic documents 307)
    words = rows(("pending project Tommy Stanley report attached", (100, 100, 900, 124)))
    assert ("PERSON_NAME", "Tommy Stanley") in found(words)
    assert not any(t == "PERSON_NAME" for t, _ in found(rows(("airing Jimmy Kimmel Live", (100, 100, 900, 124)))))


def test_rare_first_names_in_titles_are_not_names():
    # "Man" and "Sunday" are census first names, but far down the list: programme titles.
    words = rows(("airing Last Man Standing and Sunday Morning Live", (100, 100, 900, 124)))
    assert not any(t == "PERSON_NAME" for t, _ in found(words))


def test_running_text_with_an_organisation_cue_is_not_an_organisation():
    words = rows(("updated consulting travel approval support report team reply", (100, 100, 900, 124)))
    assert not any(t == "ORGANIZATION" for t, _ in found(words))
    named = rows(("Screen Strategies Media", (100, 100, 400, 124)))
    assert ("ORGANIZATION", "Screen Strategies Media") in found(named)


def test_street_line_after_a_label_above_a_city_line():
    words = rows(
        ("Ship to: 145 Andrew Pines", (100, 100, 500, 124)),
        ("Hillborough, CO 52943", (260, 130, 560, 154)),
    )
    assert ("POSTAL_ADDRESS", "145 Andrew Pines Hillborough, CO 52943") in found(words)


def test_a_street_line_with_any_usps_suffix_and_an_apartment():
    words = rows(
        ("599 Alyssa Keys Apt. 200", (100, 100, 420, 124)),
        ("East Marie, AL 93671", (100, 128, 380, 152)),
    )
    assert ("POSTAL_ADDRESS", "599 Alyssa Keys Apt. 200 East Marie, AL 93671") in found(words)


def test_a_po_box_read_with_a_zero_and_a_page_count_that_is_no_street():
    assert ("POSTAL_ADDRESS", "P.0. Box 4127") in found(rows(("P.0. Box 4127", (100, 100, 300, 124))))
    assert ("POSTAL_ADDRESS", "P.O. Box. 127") in found(rows(("P.O. Box. 127", (100, 100, 300, 124))))  # a fax's dot
    assert not any(t == "POSTAL_ADDRESS" for t, _ in found(rows(("1 of 1 ST-0216270", (100, 100, 400, 124)))))
    # Synthetic seed 151: the code's 8 read as an S; "ST-" opens a code, it ends no street.
    assert not any(t == "POSTAL_ADDRESS" for t, _ in found(rows(("Page 1 of 1 ST-S1488", (100, 100, 400, 124)))))


def test_names_that_are_form_words_or_programmes_are_not_names():
    # "IN VOICE": a title's one word in pieces (synthetic entities seed 308); "Prepared by: RECEIVED",
    # a stamp over the field's value (seed 837)
    for line in ("Accounts Payable", "Bill Plan", "Mike & Molly", "Ellen DeGeneres Show", "IN VOICE",
                 "Prepared by: RECEIVED"):  # fmt: skip
        assert not any(t == "PERSON_NAME" for t, _ in found(rows((line, (100, 100, 400, 124))))), line


def test_a_common_first_name_and_a_surname_the_census_lacks_alone_on_a_line():
    for line in ("JOHN ZWIRBLIS", "Linda Petronko"):
        assert ("PERSON_NAME", line) in found(rows((line, (100, 100, 400, 124)))), line
    for line in ("Charlotte WMYT", "Grand Total", "Bill Payment"):  # a city and call letters; form words
        assert not any(t == "PERSON_NAME" for t, _ in found(rows((line, (100, 100, 400, 124))))), line


def test_a_centred_address_block_and_a_district_city_line():
    words = rows(
        ("1090 Vermont Avenue NW", (200, 100, 500, 124)),
        ("Suite 300", (290, 128, 410, 152)),
        ("Washington, D.C. 20005", (210, 156, 490, 180)),
    )
    assert ("POSTAL_ADDRESS", "1090 Vermont Avenue NW Suite 300 Washington, D.C. 20005") in found(words)


def test_a_street_line_after_a_label_without_colon():
    words = rows(
        ("Ship to 90130 York Grove Apt. 507", (100, 100, 500, 124)), ("Bakermouth, MA 48043", (196, 128, 460, 152))
    )
    assert ("POSTAL_ADDRESS", "90130 York Grove Apt. 507 Bakermouth, MA 48043") in found(words)


def test_a_house_number_glued_to_its_street_over_a_suite_and_a_city_line():
    words = rows(
        ("Ship to: 39218Heather Meadow", (100, 100, 500, 124)),
        ("Unit 4", (230, 128, 330, 152)),
        ("Mcgeeport, SC 02455", (230, 156, 460, 180)),
    )
    assert ("POSTAL_ADDRESS", "39218Heather Meadow Unit 4 Mcgeeport, SC 02455") in found(words)


def test_a_name_wrapped_over_two_lines_of_a_cell():
    words = rows(("JOHN", (100, 100, 170, 124)), ("ZWIRBLIS", (100, 128, 230, 152)))
    assert ("PERSON_NAME", "JOHN ZWIRBLIS") in found(words)
    apart = rows(("JOHN", (100, 100, 170, 124)), ("Total", (100, 128, 180, 152)))
    assert not any(t == "PERSON_NAME" for t, _ in found(apart))


def test_a_city_line_the_ocr_misread_joins_its_street_line_and_alone_is_no_city_line():
    words = rows(
        ("799 Garcia Drives Apt. 671", (155, 137, 308, 158)), ("New Aliciatown, M1 66029", (155, 155, 300, 176))
    )
    blocks = {value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"}
    assert "799 Garcia Drives Apt. 671\nNew Aliciatown, M1 66029" in blocks
    assert not any(t == "LOCATION" for t, _ in found(rows(("New Aliciatown, M1 66029", (155, 155, 300, 176)))))


@pytest.mark.parametrize(
    "city",
    # as the OCR read them under their street lines on synthetic documents 241, 898, 419, 307, 457
    ["Martinport, OK54573", "Nat ali eburgh, VT 851 44", "South Isaiah. MII 66864", "Eaat Stephanie. 65193",
     "North ElizabethbergDE 90+19", "New Valerie, AK08856", "South Thomas, A R 28387",
     "Blackchester. DC' 56623",  # and 410, a speck after the state read as a quote
     "Riceside, PW 68746D", "0lsonland, NJ 11710",  # a mark after the ZIP (882), the city's O a zero (109)
     "Brownland. NE: 75375"],  # a colon after the state (entities 876)
)  # fmt: skip
def test_a_city_line_misread_more_ways_joins_its_street_line(city):
    words = rows(("0679 Phillip Landing Suite 635", (155, 137, 308, 158)), (city, (155, 155, 300, 176)))
    blocks = {value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"}
    assert f"0679 Phillip Landing Suite 635\n{city}" in blocks


@pytest.mark.parametrize("line", ["Invoice 10234", "Phone: 12345", "Page 2 of 3", "November 22, 2027"])
def test_a_number_line_under_a_street_line_is_no_city_line(line):
    words = rows(("0679 Phillip Landing Suite 635", (155, 137, 308, 158)), (line, (155, 155, 300, 176)))
    blocks = {value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"}
    assert blocks == {"0679 Phillip Landing Suite 635"}


def test_a_title_under_a_city_line_is_no_unit_line_of_the_block():
    # Held-out entities seed 275: "Building surveyor" (a role's value) in the label column under
    # "Address: 3161 Antonio Port Apt. 851" / "Rodneychester, SC 35476": "Building" is a unit's word,
    # but without its number no unit line, and the block ends at the city line.
    words = rows(
        ("Address: 3161 Antonio Port Apt. 851", (139, 370, 674, 418)),
        ("Rodneychester, SC 35476", (278, 422, 645, 465)),
        ("Building surveyor", (139, 519, 398, 566)),
    )
    blocks = [value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"]
    assert blocks == ["3161 Antonio Port Apt. 851\nRodneychester, SC 35476"]


def test_a_street_line_read_on_one_line_with_the_next_field_ends_at_its_label():
    # Entities seed 461: "5988 Hannah Mission Apt. 618" and, to its right, "VIN: 22UX729", one line.
    words = rows(
        ("5988 Hannah Mission Apt. 618 VIN: 22UX729", (218, 242, 801, 266)),
        ("Jeffreyview, MS 85644", (218, 271, 520, 295)),
    )
    blocks = [value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"]
    assert blocks == ["5988 Hannah Mission Apt. 618\nJeffreyview, MS 85644"]
    # Entities seed 789: "Ship to: 7954 Elizabeth Meadow Apt. 166", then "Plate: ..." on the line.
    words = rows(
        ("Ship to: 7954 Elizabeth Meadow Apt. 166 Plate: TSV3HA5B6UD0T6941", (118, 372, 750, 413)),
        ("New Teresa, CT 43341", (259, 418, 638, 456)),
    )
    blocks = [value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"]
    assert blocks == ["7954 Elizabeth Meadow Apt. 166\nNew Teresa, CT 43341"]


@pytest.mark.parametrize("box", ["P.0. Bo× 2814", "P.O. Bom 3018", "P.O. Bcx 2043"])  # entities 433, 67; documents 803
def test_a_po_box_whose_box_the_ocr_misread_is_a_street_line(box):
    words = rows((box, (81, 82, 181, 104)), ("Lake Jonathanbury, CT 36353", (80, 98, 293, 128)))
    blocks = [value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"]
    assert blocks == [f"{box}\nLake Jonathanbury, CT 36353"]


def test_a_po_box_with_its_number_glued_on():
    # Synthetic entities 942: "P.O. Box7846", which usaddress reads as no box.
    words = rows(("P.O. Box7846", (100, 100, 300, 124)), ("New Nicolemouth, MA 67686", (104, 130, 500, 154)))
    blocks = [value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"]
    assert blocks == ["P.O. Box7846\nNew Nicolemouth, MA 67686"]


def test_a_street_line_glued_to_its_label_leaves_the_label_out():
    # Synthetic documents 89 and 151: "Ship to:1024 Johnson Hill" was no street line at all.
    words = rows(("Ship to:1024 Johnson Hill", (100, 100, 500, 124)), ("Denisestad, RI 08448", (196, 128, 460, 152)))
    blocks = [s for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"]
    assert [value_of(s, words) for s in blocks] == ["1024 Johnson Hill\nDenisestad, RI 08448"]
    # Documents seed 901: "Address:7092" read as one word, its city line under "7092", not under the label.
    words = rows(
        ("Address:7092 Scott Valleys", (153, 799, 680, 843)), ("Hutchinsonborough, ND 39577", (342, 846, 917, 895))
    )
    blocks = [s for s in recognise(PageText.of(words)) if s.type == "POSTAL_ADDRESS"]
    assert [value_of(s, words) for s in blocks] == ["7092 Scott Valleys\nHutchinsonborough, ND 39577"]


def test_a_name_probablepeople_calls_a_company_without_any_company_word_is_a_name():
    from redact_agent.local.names import is_person_name

    assert is_person_name("Lynn Parker")  # probablepeople: {"CorporationName": "Lynn Parker"}
    assert not is_person_name("Dallas Cowboys")  # a team: a company word makes it one


def test_a_street_line_spelt_out_or_on_a_grid_over_its_city_line():
    spelt = rows(("One Penn Plaza", (100, 100, 300, 124)), ("New York, NY 10119", (100, 130, 340, 154)))
    assert ("POSTAL_ADDRESS", "One Penn Plaza New York, NY 10119") in found(spelt)
    grid = rows(
        ("N56 W13605 Silver Spring Dr", (100, 100, 460, 124)), ("Menomonee Falls, WI 53051", (100, 130, 420, 154))
    )
    assert ("POSTAL_ADDRESS", "N56 W13605 Silver Spring Dr Menomonee Falls, WI 53051") in found(grid)
    # spelt out without a city line under it, it is running text
    assert not any(t == "POSTAL_ADDRESS" for t, _ in found(rows(("One Penn Plaza", (100, 100, 300, 124)))))


def test_a_suite_line_over_its_street_line_and_a_city_line_without_zip_or_with_the_state_spelt_out():
    suite = rows(
        ("Suite 300", (100, 100, 220, 124)),
        ("1200 Wilson Blvd", (100, 130, 320, 154)),
        ("Arlington, VA 22209", (100, 160, 340, 184)),
    )
    assert ("POSTAL_ADDRESS", "Suite 300 1200 Wilson Blvd Arlington, VA 22209") in found(suite)
    no_zip = rows(("123 Main Street", (100, 100, 300, 124)), ("New York, NY", (100, 130, 260, 154)))
    assert ("POSTAL_ADDRESS", "123 Main Street New York, NY") in found(no_zip)
    spelt = rows(("1700 N. Moore St.", (100, 100, 300, 124)), ("Arlington, Virginia 22209", (100, 130, 400, 154)))
    assert ("POSTAL_ADDRESS", "1700 N. Moore St. Arlington, Virginia 22209") in found(spelt)


def test_a_double_barrelled_surname_of_two_census_surnames():
    from redact_agent.local.names import is_person_name

    assert is_person_name("Jacqueline Fitzgerald-Montgomery")
    assert not is_person_name("Jacqueline Fitzgerald-Qwzx")


def test_a_street_line_over_its_city_line_beside_a_logo_whose_box_reaches_under_it():
    words = rows(
        ("3725 Malden Ave", (251, 136, 415, 161)),
        ("W J Z", (33, 161, 257, 223)),
        ("Baltimore, MD 21211", (251, 162, 458, 187)),
    )
    assert ("POSTAL_ADDRESS", "3725 Malden Ave Baltimore, MD 21211") in found(words)


def test_a_suites_number_on_a_line_of_its_own_and_a_zip_under_its_city_line_are_of_the_block():
    suite = rows(
        ("222 Ontario St. Suite", (613, 125, 770, 148)),
        ("600", (613, 150, 643, 170)),
        ("Chicago, IL 60654", (614, 172, 748, 195)),
    )
    assert ("POSTAL_ADDRESS", "222 Ontario St. Suite 600 Chicago, IL 60654") in found(suite)
    zip_ = rows(
        ("PO BOX 26067", (100, 100, 260, 124)),
        ("ALEXANDRIA, VA", (100, 128, 290, 152)),
        ("22313", (100, 156, 170, 180)),
    )
    assert ("POSTAL_ADDRESS", "PO BOX 26067 ALEXANDRIA, VA 22313") in found(zip_)
    # a number under a street line that ends no suite is no part of it
    counted = rows(("1030 James St", (100, 100, 260, 124)), ("600", (100, 128, 140, 152)))
    assert ("POSTAL_ADDRESS", "1030 James St") in found(counted)


def test_a_census_surname_after_a_title_is_the_person_without_the_title():
    # Synthetic entities seed 433: "Mr Phillips", the full name misread elsewhere on the page.
    words = rows(("approved by Mr Phillips, and Dr. Jimenez agreed with mr. jones", (100, 100, 1000, 124)))
    names = {value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "PERSON_NAME"}
    assert names == {"Phillips", "Jimenez"}  # "jones" is no name in lowercase


def test_a_rare_first_name_after_a_common_surname_and_its_comma():
    # Synthetic documents 151, 898 and 410: "Rogers, Tracie" and "Anderson, Brianna" in running text
    # went unfound (neither first name among the 500 commonest), and so did every repeat of them.
    words = rows(("the status Rogers, Tracie any for ANDERSON, BRIANNA kindly", (100, 100, 1000, 124)))
    names = {value_of(s, words) for s in recognise(PageText.of(words)) if s.type == "PERSON_NAME"}
    assert names == {"Rogers, Tracie", "ANDERSON, BRIANNA"}
    # without the comma the order is not given, nor is a place with a state named like a person, nor
    # a firm named by surnames, the second no first name or a commoner surname (documents 419, 223)
    for line in ("the status Rogers Tracie near Madison, Virginia today", "and King, Matthews and White",
                 "with Brown, Hunter and Washington", "at Wright, Ali and Le today"):  # fmt: skip
        assert not any(t == "PERSON_NAME" for t, _ in found(rows((line, (100, 100, 1000, 124))))), line


def test_a_name_after_any_label_its_colon_ends():
    # Synthetic documents 307: "Employee" is no form word, and its value went unfound.
    words = rows(("Employee: Wood, Brady", (100, 100, 400, 124)))
    assert ("PERSON_NAME", "Wood, Brady") in found(words)
    # up to the next label: a title's "Role:" after it made the name the whole rest, and the title's
    # value, found by its own label, outscored it (held-out entities 865, "Edward" left readable)
    words = rows(("Employee: Bishop, Edward Role: Statistician", (100, 100, 900, 124)))
    assert ("PERSON_NAME", "Bishop, Edward") in found(words)


def test_a_name_the_ocr_read_in_pieces_is_joined_and_words_are_not():
    from redact_agent.local.names import unsplit

    joined = [text for text, _ in unsplit(["Jessica", "Gon", "zal", "es", "thanks"])]
    assert joined == ["Jessica", "Gonzales", "thanks"]
    # a common name as its first piece is joined only in a name's field: "Will is" is two words
    assert [text for text, _ in unsplit(["Will", "is", "here"])] == ["Will", "is", "here"]
    assert [text for text, _ in unsplit(["Robert", "Sher", "man"], field=True)] == ["Robert", "Sherman"]
