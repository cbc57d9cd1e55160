"""A found value is marked wherever else it is printed: in another case, with other edge
punctuation, and, for a person, the surname printed alone."""

from redact_agent.linking import link
from redact_agent.local.engine import find_spans
from redact_agent.local.repeats import _printed_as
from redact_agent.local.spans import PageText, Span, reading, value_of
from redact_agent.pages import Prediction
from redact_agent.policy import load_policy
from redact_agent.tools.ocr import Word
from tests.local.rows import rows

Line = tuple[str, tuple[float, float, float, float]]


def _spans(*lines: Line) -> tuple[list[Word], list[Span]]:
    """The words of `lines` laid out as rows, and the spans found on them under policy `all`."""
    words = rows(*lines)
    return words, find_spans(PageText.of(words), load_policy("all"))


def _found(*lines: Line) -> set[tuple[str, str, str]]:
    words, spans = _spans(*lines)
    return {(s.type, " ".join(words[i].text for i in s.words), s.source) for s in spans}


def test_a_name_printed_again_in_capitals_is_marked():
    found = _found(("Attn: Gary Huang", (40, 40, 300, 64)), ("GARY HUANG", (40, 400, 300, 424)))
    assert ("PERSON_NAME", "GARY HUANG", "repeat") in found


def test_a_surname_printed_alone_after_the_full_name_is_that_person():
    found = _found(("Attn: Gary Huang", (40, 40, 300, 64)), ("Please call Huang, today", (40, 400, 400, 424)))
    assert ("PERSON_NAME", "Huang,", "repeat") in found


def test_a_surname_the_ocr_glued_to_the_word_before_it_is_marked_alone():
    # Entities seed 308: "Maria Collins", then "team status Collins" read "statusCollins".
    words, spans = _spans(("Attn: Maria Collins", (40, 40, 300, 64)), ("team statusCollins", (40, 400, 400, 424)))
    assert {(value_of(s, words), s.source) for s in spans} >= {("Collins", "repeat")}
    _, spans = _spans(("Attn: Maria Collins", (40, 40, 300, 64)), ("team statuscollins", (40, 400, 400, 424)))
    assert len(spans) == 1  # lowercase, glued: no name
    # Entities seed 369: "Mr. Mccall" under a stamp read "Mr.Mccall", the title glued by its dot.
    words, spans = _spans(
        ("Attn: Michael W. Mccall", (40, 40, 400, 64)), ("balance Mr.Mccall rate", (40, 400, 400, 424))
    )
    assert ("Mccall", "repeat") in {(value_of(s, words), s.source) for s in spans}


def test_a_surname_read_cut_short_is_found_whole_where_it_is_printed_alone():
    # Entities seed 942: a stamp over "Julie Gardner" left "Gardn"; "Gardner" was printed alone below.
    words, spans = _spans(("Attn: Julie Gardn", (40, 40, 300, 64)), ("total request Gardner", (40, 400, 400, 424)))
    assert ("Gardner", "repeat") in {(value_of(s, words), s.source) for s in spans}
    # a surname read whole ("Gard") is no other one that opens with it; nor is one more letters longer
    for name, later in (("Julie Gard", "Gardner"), ("Julie Thomps", "Thompsonian")):
        words, spans = _spans((f"Attn: {name}", (40, 40, 300, 64)), (f"total request {later}", (40, 400, 400, 424)))
        assert all(value_of(s, words) != later for s in spans)


def test_a_name_the_ocr_read_as_two_lines_a_word_gap_apart_is_found_across_them():
    # Entities seed 717: "... approval JONES, SETH any order" read as "... JoNES," and "SETH any
    # order", two lines on one row 8 px apart; a column further off is another value's.
    for gap, found in ((8, True), (60, False)):
        words, spans = _spans(
            ("Prepared by: Seth Jones", (40, 40, 400, 64)),
            ("your approval JoNES,", (40, 400, 300, 424)),
            ("SETH any order", (300 - 4 + gap, 401, 500, 423)),
        )
        assert (("JoNES,\nSETH", "repeat") in {(value_of(s, words), s.source) for s in spans}) is found


def test_a_surname_of_two_letters_is_marked_alone_inside_a_sentence_as_printed_in_the_name():
    # Held-out entities seed 511: "Katherine Le", then "... find our position Le meeting"; and
    # entities seed 648: "Jason Yu", then "Yu" on a line of its own. Not where it opens a sentence
    # or a line with more on it, nor printed in another case.
    words, spans = _spans(
        ("Attn: Katherine Le", (40, 40, 300, 64)),
        ("our position Le meeting", (40, 400, 400, 424)),
        ("done. Le Monde and LE", (40, 500, 400, 524)),
        ("Le", (40, 600, 100, 624)),
        ("asked Ms. Le today", (40, 700, 400, 724)),  # after a title, its dot no sentence's end
        ("Le Grand hotel", (40, 800, 400, 824)),
    )
    assert [words[i].text for i in (5, 8, 11, 12, 15, 17)] == ["Le", "Le", "LE", "Le", "Le", "Le"]
    assert [(s.type, s.words) for s in spans if s.source == "repeat"] == [("PERSON_NAME", (5,)), ("PERSON_NAME", (12,))]
    assert ("PERSON_NAME", (15,)) in {(s.type, s.words) for s in spans}  # a title's recogniser has it


def test_a_surname_that_is_a_form_word_or_lowercase_is_not_marked_alone():
    found = _found(
        ("Attn: Mary Price", (40, 40, 300, 64)),
        ("Unit Price", (40, 400, 300, 424)),
        ("Attn: Gary Huang", (40, 500, 300, 524)),
        ("huang", (40, 600, 300, 624)),
    )
    assert not any(text in ("Price", "huang") for _, text, _ in found)


def test_a_surname_that_is_a_form_word_is_marked_alone_after_a_title_or_in_running_text():
    # Synthetic documents seed 89: "Justin Weeks", then "... returned we Mr. Weeks".
    words, spans = _spans(
        ("Attn: Mary Price", (40, 40, 300, 64)), ("call Mr. Price or Unit Price", (40, 400, 500, 424))
    )
    alone = [s.words for s in spans if s.type == "PERSON_NAME" and len(s.words) == 1]
    assert [words[i].text for i in (5, 8)] == ["Price", "Price"] and alone == [(5,)]  # "Mr. Price", not "Unit Price"
    # Entities seed 472: "Joshua Price", then "... within licence Price" ending a line of running text.
    words, spans = _spans(("Attn: Joshua Price", (40, 40, 300, 64)), ("within licence Price", (40, 400, 500, 424)))
    assert [(s.type, words[s.words[0]].text) for s in spans if s.source == "repeat"] == [("PERSON_NAME", "Price")]


def test_a_surname_printed_after_a_rare_first_name_is_marked_with_it():
    # Synthetic documents seed 457: "Mr. Duran" on one page, "terms Kaitlin Duran processed" on
    # another; "Hunter" is no common first name, and a surname too, so the line holds no name of its own.
    found = _found(("seen by Mr. Duran", (40, 40, 300, 64)), ("terms Hunter Duran processed", (40, 400, 500, 424)))
    assert ("PERSON_NAME", "Hunter Duran", "repeat") in found


def test_a_surname_misread_after_a_title_is_that_person():
    # Synthetic entities seed 433: "Dr. Jimenez" read "Dr. imenez", the J lost.
    found = _found(
        ("Attn: Maria Jimenez", (40, 40, 300, 64)),
        ("seen by Dr. imenez today", (40, 400, 400, 424)),
        ("imenez and Jimenes", (40, 500, 300, 524)),  # no title before them
    )
    alone = {text for t, text, _ in found if t == "PERSON_NAME" and " " not in text}
    assert alone == {"imenez"}


def test_a_surname_read_with_a_look_alike_letter_is_that_person():
    # Synthetic entities seed 942: "Shawn Clark", then "amount Clark" read "amount Ciark".
    found = _found(
        ("Attn: Shawn Clark", (40, 40, 300, 64)),
        ("amount Ciark today", (40, 400, 400, 424)),
        ("ciark and Clerk", (40, 500, 300, 524)),  # lowercase; a letter no look-alike
    )
    alone = {text for t, text, _ in found if t == "PERSON_NAME" and " " not in text}
    assert alone == {"Ciark"}


def test_a_surname_read_with_an_n_for_its_r_is_that_person_with_the_initial_before_it():
    # Synthetic entities seed 524: "Matthew Fletcher", then "office M. Fletcher" read "M. Fletchen".
    words, spans = _spans(
        ("Attn: Matthew Fletcher", (40, 40, 300, 64)),
        ("item office M. Fletchen approval", (40, 400, 500, 424)),
        ("Fletchen and fletchen", (40, 500, 300, 524)),  # no initial before; lowercase
    )
    found = {value_of(s, words) for s in spans if s.type == "PERSON_NAME"}
    assert found == {"Matthew Fletcher", "M. Fletchen", "Fletchen"}


def test_a_surname_inside_an_organisation_stays_with_it():
    found = _found(("Attn: Gary Huang", (40, 40, 300, 64)), ("Huang Media Group LLC", (40, 400, 400, 424)))
    assert not any(t == "PERSON_NAME" and text == "Huang" for t, text, _ in found)


def test_a_name_printed_again_in_another_form_is_marked():
    found = _found(
        ("Attn: Fran Brown", (40, 40, 300, 64)),
        ("Questions to BROWN, FRAN or F. Brown today", (40, 400, 700, 424)),
    )
    assert {("PERSON_NAME", "BROWN, FRAN", "repeat"), ("PERSON_NAME", "F. Brown", "repeat")} <= found


def test_a_name_read_with_a_mark_for_a_letter_is_found_again_in_its_other_forms():
    # Synthetic documents seed 223: "Larry Evans" read "Larry Evan$" by its label; "L. Evans" elsewhere.
    found = _found(("Name: Larry Evan$", (40, 40, 300, 64)), ("credit L. Evans item", (40, 400, 400, 424)))
    assert ("PERSON_NAME", "L. Evans", "repeat") in found


def test_a_name_whose_comma_was_read_as_a_dot_is_found_again_by_its_initial():
    # Synthetic documents seed 211: "Mack, Scott" read "Mack. Scott"; "S. Mack" on another page.
    found = _found(("Attn: Mack. Scott", (40, 40, 300, 64)), ("per S. Mack today", (40, 400, 400, 424)))
    assert ("PERSON_NAME", "S. Mack", "repeat") in found


def test_a_name_a_parser_reads_surname_first_is_found_again_by_its_initial_and_surname():
    # Synthetic entities seed 942: probablepeople reads "Martin Thomas" as Thomas Martin (Thomas
    # the commoner given name); "M. Thomas" and "Thomas" alone were not searched for.
    found = _found(
        ("Attn: Martin Thomas", (40, 40, 300, 64)),
        ("order M. Thomas this", (40, 400, 400, 424)),
        ("see Thomas today", (40, 500, 400, 524)),
    )
    assert {("PERSON_NAME", "M. Thomas", "repeat"), ("PERSON_NAME", "Thomas", "repeat")} <= found


def _printed(type_: str, value: str, *texts: str) -> list[str]:
    """What `_printed_as` finds of a value among words printed in one line."""
    words = rows((" ".join(texts), (40, 40, 40 + 20 * len(" ".join(texts)), 64)))
    found = _printed_as(PageText.of(words), type_, value)
    return [" ".join(words[i].text for i in run)[left : -right or None] for run, left, right in found]


def test_a_name_whose_letters_the_ocr_read_as_digits_is_found_again():
    # Held-out entities seed 655: "Brooke P. Brooks", then "BROOKS, BROOKE" in a monospace font,
    # its O's read as zeros.
    found = _printed("PERSON_NAME", "Brooke P. Brooks", "shipped", "BR00KS,", "BR00KE", "following")
    assert found == ["BR00KS, BR00KE"]
    assert _printed("PERSON_NAME", "Brooke Brooks", "qty", "10", "Brooke", "Brooks") == ["Brooke Brooks"]


def test_a_phone_is_found_again_in_another_format_and_with_a_digit_lost():
    assert _printed("PHONE_NUMBER", "(943) 218-5379 ext. 12", "call", "943-218-5379", "today") == ["943-218-5379"]
    assert "+1 943 218 5379" in _printed("PHONE_NUMBER", "(943) 218-5379", "tel", "+1", "943", "218", "5379")
    assert _printed("PHONE_NUMBER", "(943) 218-5379", "tel", "(943:", "218-5379") == ["(943: 218-5379"]
    assert _printed("PHONE_NUMBER", "514.922.8401", "tel", "514.922.840") == ["514.922.840"]
    assert _printed("PHONE_NUMBER", "312-555-0199", "fax", "312-555-0198") == []  # another number
    # Synthetic seed 89: a damaged "2" read as marks, with the word after glued on.
    found = _printed("PHONE_NUMBER", "+1 698 724 1732", "find", "+1", "698", "7.'4", "1732·eview")
    assert "+1 698 7.'4 1732" in found
    assert _printed("PHONE_NUMBER", "+1 698 724 1732", "call", "698-724-1732.") == ["698-724-1732"]
    assert _printed("PHONE_NUMBER", "+1 698 724 1732", "+1", "698", "7.'5", "1732") == []  # a digit: another


def test_a_surname_the_ocr_read_in_two_pieces_is_found_alone_and_in_the_name():
    # Entities seed 388: "Nancy Thomas" read "Nancy Thom as", then "Thomas" under a stamp's edge
    # read "Thom as" in running text.
    words, spans = _spans(
        ("Prepared by: Nancy Thom as", (40, 40, 400, 64)), ("goods Thom as expenses", (40, 400, 400, 424))
    )
    repeated = {(value_of(s, words), s.reason) for s in spans if s.source == "repeat"}
    assert repeated == {("Thom as", "the surname of 'Nancy Thomas'")}
    words, spans = _spans(
        ("Prepared by: Nancy Thom as", (40, 40, 400, 64)), ("goods Thom As expenses", (40, 400, 400, 424))
    )
    assert not [s for s in spans if s.source == "repeat"]


def test_a_phone_printed_again_keeps_its_extension_in_its_span():
    # Entities seed 498: "+1 783 281 7309 ext. 439" read "73(9 ex1. 439", a digit and the "t" misread.
    words, spans = _spans(
        ("Tel: (783) 281-7309", (40, 40, 300, 64)), ("+1 783 281 73(9 ex1. 439, today", (40, 400, 500, 424))
    )
    found = {value_of(s, words) for s in spans if s.source == "repeat"}
    assert found == {"+1 783 281 73(9 ex1. 439"}
    words, spans = _spans(("Tel: (783) 281-7309", (40, 40, 300, 64)), ("+1 783 281 73(9 exit 439", (40, 400, 500, 424)))
    assert {value_of(s, words) for s in spans if s.source == "repeat"} == {"+1 783 281 73(9"}


def test_a_name_is_found_again_as_the_ocr_glued_or_split_its_words():
    # Synthetic seed 7: "Jennifer Q. Jackson" signed at the foot as "JenniferQ. Jackson".
    assert _printed("PERSON_NAME", "Jennifer Q. Jackson", "Regards", "JenniferQ.", "Jackson") == ["JenniferQ. Jackson"]
    assert _printed("PERSON_NAME", "Jennifer Jackson", "Jen", "nifer", "Jackson") == ["Jen nifer Jackson"]
    assert _printed("PERSON_NAME", "Jennifer Jackson", "Jennifer", "Jacks") == []
    assert _printed("PERSON_NAME", "Al Li", "AlLi") == []  # too few letters to find alone
    # Synthetic seed 89: "Melanie B. Long" printed again as "LONG, MELANIE", read as three words.
    assert _printed("PERSON_NAME", "Melanie B. Long", "annual", "LONG,", "MEL", "ANIE") == ["LONG, MEL ANIE"]
    assert _printed("PERSON_NAME", "Sharon Hamilton", "Ms.", "Hamilton") == []  # no "S. Hamilton" by letters
    # Synthetic documents seed 131: "following WILKERSON, DANIELLE" read as one word.
    glued = _printed("PERSON_NAME", "Danielle Wilkerson", "see", "followingWILKERSON,DANIELLE")
    assert glued == ["WILKERSON,DANIELLE"]
    assert _printed("PERSON_NAME", "Danielle Wilkerson", "followingWILKERSON,", "DANIELLE.") == ["WILKERSON, DANIELLE"]
    assert _printed("PERSON_NAME", "Danielle Wilkerson", "followingWILKERSON,DANIELS") == []
    # Held-out entities seed 865: "Jenny Weaver", then "office J. Weaver" read as one word; glued
    # on, the initial's capital opens the tail, and "F. Last" is found by its letters too.
    assert _printed("PERSON_NAME", "Jenny Weaver", "order", "officeJ.Weaver", "confirm") == ["J.Weaver"]
    assert _printed("PERSON_NAME", "Jenny Weaver", "officeJ.Weavers") == []
    # Synthetic documents seed 419: a quantity before "Buchanan, Rose" adds no letter to the name.
    assert _printed("PERSON_NAME", "Rose Buchanan", "qty", "1", "Buchanan,", "Rose") == ["Buchanan, Rose"]


def test_a_code_is_found_as_ocr_misread_it_and_glued_to_a_label():
    assert _printed("CONTRACT_NUMBER", "ORD-4352595", "see", "0RD-4352595.") == ["0RD-4352595"]
    assert _printed("INVOICE_NUMBER", "ST-3584773", "Statement.ST-3584773") == ["ST-3584773"]
    assert _printed("CONTRACT_NUMBER", "CT-1774085", "total", "CT-1774085claim") == ["CT-1774085"]  # a space lost
    assert _printed("CASE_NUMBER", "TKT-2015-95165", "TKT-2015-95165we") == ["TKT-2015-95165"]  # seed 151
    assert _printed("CONTRACT_NUMBER", "CT-1774085", "CT-1774085CLAIM") == []  # no lowercase word after it
    # Held-out entities seed 795: a date's month glued on, the space lost.
    assert _printed("CUSTOMER_ID", "C123663", "days", "C123663September08,") == ["C123663"]
    assert _printed("CONTRACT_NUMBER", "P0-41569", "PO-41569order") == ["PO-41569"]  # found with its O misread
    assert _printed("CONTRACT_NUMBER", "ORD-4352595", "ORD-4352596") == []
    assert _printed("CUSTOMER_ID", "A-12", "A-12") == []  # too short to find alone
    # Synthetic entities seed 461: a code read as three words, split inside its digits.
    assert _printed("CASE_NUMBER", "REF-2024-20560", "find", "REF-202", "4205", "60", "the") == ["REF-202 4205 60"]
    # Synthetic documents seed 241: "Member # M4657062"; the "#" read as a word is no part of its box.
    assert _printed("CUSTOMER_ID", "M4657062", "Member", "#", "M4657062") == ["M4657062"]
    # Synthetic documents seed 131: "Invoice # #46420", the code's own "#" glued to it; the label's is no part.
    assert _printed("INVOICE_NUMBER", "#46420", "Invoice", "#", "#46420") == ["#46420"]


def test_a_repeat_that_reads_a_value_further_takes_the_place_of_its_start():
    # Synthetic entities seed 461: "REF-202 4205 60", its start a code by its prefix alone, which
    # outscored the repeat of "REF-2024-20560" printed whole above it.
    found = _found(
        ("see REF-2024-20560 above", (40, 40, 440, 64)), ("find REF-202 4205 60 the file", (40, 400, 640, 424))
    )
    assert {text for t, text, _ in found if t == "CASE_NUMBER"} == {"REF-2024-20560", "REF-202 4205 60"}
    # Held-out entities seed 795: "#3403", the value of 'Invoice No.' read in two, printed whole
    # further down, where only its shape finds it: the repeat takes the label's type.
    found = _found(("Invoice No. #3403 519", (40, 40, 440, 64)), ("Page 1 of 1 #3403519", (40, 400, 440, 424)))
    assert ("INVOICE_NUMBER", "#3403 519", "repeat") in found


def test_a_long_code_or_name_is_found_one_character_misread_but_not_another_number():
    assert _printed("CONTRACT_NUMBER", "EST-80002", "ref", "Es1-80002") == ["Es1-80002"]
    assert _printed("CONTRACT_NUMBER", "EST-306378", "ref", "EST-30637s") == ["EST-30637s"]
    assert _printed("CONTRACT_NUMBER", "EST-306378", "ref", "EST-30637") == ["EST-30637"]  # one lost
    assert _printed("CONTRACT_NUMBER", "EST-80002", "ref", "EST-80003") == []  # a digit: another code
    assert _printed("CONTRACT_NUMBER", "EST-8002", "ref", "Es1-8002") == []  # too short to risk
    assert _printed("CONTRACT_NUMBER", "EST-80002", "ref", "EXS-80002") == []  # two misread
    assert _printed("PERSON_NAME", "Alexis R. Lopez", "Alexis", "R.", "L", "pez") == ["Alexis R. L pez"]
    assert _printed("PERSON_NAME", "Amy Campbell", "Amy", "Camnpbell") == ["Amy Camnpbell"]
    assert _printed("CONTRACT_NUMBER", "EST-306378", "EST-306378", "1") == ["EST-306378"]  # not "... 1"
    assert _printed("PERSON_NAME", "Amy Campbell", "Amy", "Campbell", "a") == ["Amy Campbell"]


def test_a_value_the_ocr_glued_to_the_word_before_is_marked_without_that_word():
    words, spans = _spans(
        ("Attn: James Dominguez", (40, 40, 400, 64)),
        ("Customer ID: CL-947007", (40, 100, 400, 124)),
        ("confirm lodgingDOMINGUEZ, JAMES and orderCL-947007", (40, 400, 1000, 424)),
        ("Case No. CASE-2017-69923", (40, 500, 400, 524)),
        ("replyconsultingCASE-2017-69923payment details", (40, 600, 700, 624)),  # documents seed 241
    )
    got = {(s.type, value_of(s, words)) for s in spans if s.source == "repeat"}
    assert ("PERSON_NAME", "DOMINGUEZ, JAMES") in got
    assert ("CUSTOMER_ID", "CL-947007") in got
    assert ("CASE_NUMBER", "CASE-2017-69923") in got


def test_a_value_the_ocr_glued_a_lowercase_word_to_is_marked_without_that_word():
    # Synthetic documents seed 307: "Walters software" in a monospace font, read "Walterssoftware".
    words, spans = _spans(
        ("Attn: Robert S. Walters", (40, 40, 400, 64)),
        ("delivery reply Walterssoftware and Hallway", (40, 400, 1000, 424)),
        ("Attn: Gary Hall", (40, 500, 400, 524)),
        ("call Gary Hallspending", (40, 600, 400, 624)),
        ("Attn: Amanda Stuart", (40, 700, 400, 724)),
        ("to STUART, AMANDAwe equipment", (40, 800, 600, 824)),  # entities seed 41
        ("call Stuartwe now", (40, 900, 400, 924)),  # too few letters after a value of one word (the surname)
    )
    got = {(words[s.words[-1]].text[: len(words[s.words[-1]].text) - s.cut_right], len(s.words)) for s in spans}
    assert ("Walters", 1) in got
    assert ("AMANDA", 2) in got
    assert ("Stuart", 1) not in got
    assert not any(text.startswith("Hall") and n == 1 for text, n in got)  # too short to split off a word


def test_a_code_a_stamp_hides_part_of_is_marked_over_the_stamp_from_the_part_printed():
    # Synthetic documents seed 211: "CONFIDENTIAL", black, over "M1651912"; the OCR read "M16", no more.
    words, spans = _spans(
        ("Customer ID: M1651912", (40, 40, 400, 64)),
        ("maintenance office M16", (40, 400, 340, 424)),
        ("CONFIDENTIAL", (320, 350, 900, 440)),  # the stamp: a word three lines tall from M16's end on
        ("Please quote M16 only", (40, 600, 400, 624)),  # no stamp after it: some other "M16"
    )
    hidden = [(words[s.words[0]].bbox[1], s.hidden) for s in spans if s.hidden]
    assert hidden == [(400, 5)]
    # Synthetic entities seed 433: "APPROVED" over "C704212"; the OCR read "212" after the stamp.
    words, spans = _spans(
        ("Customer ID: C704212", (40, 40, 400, 64)),
        ("APPROVED", (100, 760, 398, 850)),  # the stamp, ending where "212" starts
        ("212 was paid", (400, 800, 556, 824)),
        ("212 is the room", (400, 900, 595, 924)),  # no stamp before it: some other "212"
    )
    before = [(words[s.words[0]].bbox[1], s.hidden_before, s.hidden) for s in spans if s.hidden_before]
    assert before == [(800, 4, 0)]
    # Entities seed 310: "CONFIDENTIAL" over "591-923-7394"; the OCR read "3-7394". The box covers
    # the six characters hidden as printed ("591-92"), its mark too.
    words, spans = _spans(
        ("Phone: 591.923.7394", (40, 40, 400, 64)),
        ("CONFIDEN", (280, 760, 660, 826)),
        ("maintenance 3-7394 meeting", (360, 800, 806, 824)),
    )
    phones = [(s.type, words[s.words[0]].text, s.hidden_before) for s in spans if s.hidden_before]
    assert phones == [("PHONE_NUMBER", "3-7394", 6)]
    # Entities seed 79: "Dept code: DEPT-178" beside "CONFIDENTIAL"; the label's "Dept" is no part of the code.
    words, spans = _spans(("CONFIDENTIAL", (570, 830, 1184, 904)), ("Dept code: DEPT-178", (627, 892, 862, 922)))
    assert not [s for s in spans if s.hidden or s.hidden_before]


def test_a_codes_digits_printed_without_its_letters_are_marked_over_them():
    # Synthetic documents seed 898: "C886741" read "886741", its 'C' under the edge of a stamp's
    # frame; the box reaches a character further left, over it.
    words, spans = _spans(
        ("Customer ID: C886741", (40, 40, 400, 64)),
        ("reply 886741 for", (40, 400, 340, 424)),
        ("Customer ID: C88674", (40, 500, 400, 524)),
        ("reply 88674 for", (40, 600, 340, 624)),  # five digits: too few to be that code alone
    )
    lost = [(words[s.words[0]].text, s.hidden_before) for s in spans if s.hidden_before]
    assert lost == [("886741", 1)]


def test_five_digits_of_a_code_are_that_code_where_its_letters_have_room_before_them():
    # Entities seed 275: "CL-58362" read "58362", a gray frame's edge through its "CL-", 47 px
    # after "hours" (an OCR line of its own on the skewed page); the box covers the three
    # characters before it.
    words, spans = _spans(
        ("Customer ID: CL-58362", (40, 40, 400, 64)),
        ("hours", (40, 800, 100, 824)),
        ("58362 terms", (190, 800, 330, 824)),
    )
    lost = [(words[s.words[0]].text, s.hidden_before) for s in spans if s.hidden_before]
    assert lost == [("58362", 3)]


def test_a_name_the_ocr_read_glued_is_searched_for_in_its_other_forms():
    # Held-out entities seed 97: "Attn: AnthonyBrown" (the space lost), then "about BROWN,
    # ANTHONY"; the glued word was searched for as a surname alone. A surname with a capital
    # inside ("MacArthur") is no first name glued to a surname.
    found = _found(("Attn: AnthonyBrown", (40, 40, 300, 64)), ("write about BROWN, ANTHONY", (40, 400, 400, 424)))
    assert ("PERSON_NAME", "BROWN, ANTHONY", "repeat") in found
    found = _found(("Attn: MacArthur", (40, 40, 300, 64)), ("King Arthur", (40, 400, 400, 424)))
    assert not any(text == "Arthur" for _, text, _ in found)


def test_a_quote_the_ocr_read_into_a_name_is_no_part_of_it():
    # Entities seed 44: "G. Walker" read "C. W'alker", the tip of the W standing apart; "Cary
    # Walker" (as read) was found under "Name:", and its initialled form was not, for the quote.
    found = _found(("Name: Cary Walker", (40, 40, 300, 64)), ("signed C. W'alker today", (40, 400, 400, 424)))
    assert ("PERSON_NAME", "C. W'alker", "repeat") in found


def test_a_repeat_the_ocr_misread_stands_for_the_value_it_prints_again_and_shares_its_entity():
    # Synthetic entities seed 275: "CASE-2015-88261" printed again under a gray "PAID" read
    # "CASE-2u15.88261", and seed 524's "Fletcher" read "Fletchen", were entities of their own.
    words, spans = _spans(
        ("Case No. CASE-2015-88261", (40, 40, 400, 64)),
        ("docket CASE-2u15.88261 annual", (40, 400, 500, 424)),
        ("Attn: Shawn Clark", (40, 500, 300, 524)),
        ("amount Ciark today", (40, 600, 400, 624)),
    )
    found = [Prediction(type=s.type, bbox=(0, k, 9, k + 1), value=reading(s, words)) for k, s in enumerate(spans)]
    linked = {(p.type, value_of(s, words), p.value, p.entity) for s, p in zip(spans, link(found), strict=True)}
    assert linked == {
        ("CASE_NUMBER", "CASE-2015-88261", "CASE-2015-88261", "CASE_NUMBER#1"),
        ("CASE_NUMBER", "CASE-2u15.88261", "CASE-2015-88261", "CASE_NUMBER#1"),
        ("PERSON_NAME", "Shawn Clark", "Shawn Clark", "PERSON_NAME#1"),
        ("PERSON_NAME", "Ciark", "Clark", "PERSON_NAME#1"),
    }
    # a repeat read as printed keeps its own text: "GARY HUANG" is no misreading of "Gary Huang"
    words, spans = _spans(("Attn: Gary Huang", (40, 40, 300, 64)), ("GARY HUANG", (40, 400, 300, 424)))
    assert {reading(s, words) for s in spans} == {"Gary Huang", "GARY HUANG"}
