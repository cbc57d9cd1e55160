"""Hand-computed expectations for every scorer metric on a five-page scenario.

Page 1 (exhaustive): PERSON_NAME exact; DATE found but typed ORGANIZATION; CUSTOMER_ID at
IoU 0.95 and cover 95%; one false-positive DATE.  G=3, P=4, agnostic TP=3.
Page 2 (exhaustive): PHONE_NUMBER at IoU 0.5 (covers 50%); PERSON_NAME located but typed
PHONE_NUMBER.  G=2, P=2, agnostic TP=1.
Page 3 (exhaustive): one EMAIL_ADDRESS, prediction invalid.
Page 4 (exhaustive): nothing, nothing predicted.
Page 5 (not exhaustive): DATE exact, plus a PERSON_NAME prediction we cannot judge.
"""

import pytest

from redact_agent.eval.scorer import Loaded, Pair, score_pages
from redact_agent.schema import default_schema
from tests.helpers import gold, pred


def scenario() -> Loaded:
    pairs = [
        Pair(
            gold(
                "p1",
                [
                    ("PERSON_NAME", [0, 0, 10, 10], "John Smith"),
                    ("DATE", [20, 0, 30, 10], "12/01/20"),
                    ("CUSTOMER_ID", [40, 0, 50, 10], "C-123"),
                ],
                source="s1",
            ),
            pred(
                "p1",
                [
                    ("PERSON_NAME", [0, 0, 10, 10], "John  Smith"),
                    ("ORGANIZATION", [20, 0, 30, 10]),
                    ("CUSTOMER_ID", [40, 0, 50, 9.5], "C-128"),
                    ("DATE", [80, 80, 90, 90]),
                ],
            ),
        ),
        Pair(
            gold("p2", [("PHONE_NUMBER", [0, 0, 10, 10]), ("PERSON_NAME", [20, 20, 40, 30], "Ann Lee")], source="s2"),
            pred("p2", [("PHONE_NUMBER", [0, 0, 10, 5]), ("PHONE_NUMBER", [20, 20, 40, 30], "Ann Lee")]),
        ),
        Pair(gold("p3", [("EMAIL_ADDRESS", [0, 0, 10, 10])], source="s2"), pred("p3", [], valid=False)),
        Pair(gold("p4", [], source="s2"), pred("p4", [])),
        Pair(
            gold("p5", [("DATE", [0, 0, 10, 10], "1/1/20")], source="s1", exhaustive=False),
            pred("p5", [("DATE", [0, 0, 10, 10], "1/1/20"), ("PERSON_NAME", [50, 50, 60, 60])]),
        ),
    ]
    return Loaded(pairs=pairs)


@pytest.fixture(scope="module")
def at_075():
    return score_pages(scenario(), default_schema(), [0.75], pq=True, supported=frozenset({"PERSON_NAME", "DATE"}))[0]


def test_headline_metrics(at_075):
    r = at_075
    assert r["pages"] == 5 and r["exhaustive_pages"] == 4 and r["non_exhaustive_pages"] == 1
    assert r["valid"] == pytest.approx(4 / 5)
    assert r["f1_loc"] == pytest.approx((6 / 7 + 2 / 4 + 0) / 3)  # page 4 has G+P = 0, page 5 not exhaustive
    # Types in exhaustive gold: PERSON_NAME 2*1/(2+1), DATE 0, CUSTOMER_ID 1, PHONE_NUMBER 0/(1+2), EMAIL 0.
    assert r["f1_type"] == pytest.approx((2 / 3 + 0 + 1 + 0 + 0) / 5)
    assert r["docleak_all"] == pytest.approx(3 / 4)  # pages 1, 2, 3 leak; page 5 does not
    assert r["docleak_crit"] == pytest.approx(2 / 3)  # pages 2, 3 of 1, 2, 3
    assert r["docleak_all_agnostic"] == pytest.approx(2 / 4)  # page 1's DATE is located
    assert r["docleak_crit_agnostic"] == pytest.approx(2 / 3)


def test_groups_and_severity(at_075):
    assert at_075["groups"] == pytest.approx({"Direct": 2 / 3, "Linkage": 0.0, "Contextual": 1 / 2, "Other": None})
    s = at_075["severity"]
    # Critical misses on leaking pages: page 2 -> 2, page 3 -> 1.
    assert s["mean_missed"] == 1.5 and s["median_missed"] == 1.5
    assert s["p90_missed"] == pytest.approx(1.9)  # linear interpolation between 1 and 2
    assert s["mean_proportion"] == pytest.approx((0 + 1 + 1) / 3)


def test_failure_attribution(at_075):
    assert at_075["failures"] == {"invalid_page": 1, "no_overlap": 0, "low_iou": 1, "mistyped": 1, "conflict": 0}


def test_failure_attribution_no_overlap_and_conflict():
    # Two identical gold names and one prediction: the second gold item loses a same-type candidate.
    loaded = Loaded(
        [
            Pair(
                gold(
                    "c",
                    [
                        ("PERSON_NAME", [0, 0, 10, 10]),
                        ("PERSON_NAME", [0, 0, 10, 10]),
                        ("PHONE_NUMBER", [50, 50, 60, 60]),
                    ],
                ),
                pred("c", [("PERSON_NAME", [0, 0, 10, 10])]),
            )
        ]
    )
    r = score_pages(loaded, default_schema(), [0.75])[0]
    assert r["failures"] == {"invalid_page": 0, "no_overlap": 1, "low_iou": 0, "mistyped": 0, "conflict": 1}


def test_per_type(at_075):
    pt = at_075["per_type"]
    assert set(pt) == {"PERSON_NAME", "DATE", "CUSTOMER_ID", "PHONE_NUMBER", "EMAIL_ADDRESS", "ORGANIZATION"}
    # DATE: recall over all pages (page 5 included) 1/2; precision on exhaustive pages 0/1.
    assert pt["DATE"] == {"gold": 2, "pred": 2, "tp": 1, "precision": 0.0, "recall": 0.5, "f1": 0.0}
    assert pt["PERSON_NAME"]["precision"] == 1.0 and pt["PERSON_NAME"]["recall"] == 0.5
    assert pt["PERSON_NAME"]["f1"] == pytest.approx(2 / 3)
    assert pt["ORGANIZATION"] == {"gold": 0, "pred": 1, "tp": 0, "precision": 0.0, "recall": None, "f1": 0.0}
    assert pt["EMAIL_ADDRESS"]["precision"] is None


def test_per_source(at_075):
    s1, s2 = at_075["per_source"]["s1"], at_075["per_source"]["s2"]
    assert s1["pages"] == 2 and s2["pages"] == 3
    assert s1["f1_loc"] == pytest.approx(6 / 7) and s1["docleak_crit"] == 0.0
    assert s2["f1_loc"] == pytest.approx(0.25) and s2["docleak_crit"] == 1.0 and s2["valid"] == pytest.approx(2 / 3)


def test_values_cover_and_over_redaction(at_075):
    va = at_075["value_accuracy"]
    assert va["pairs"] == 4 and va["exact"] == 0.75 and va["cer"] == pytest.approx(0.2 / 4)
    # Critical items < 90% covered: page 2's phone (50%), page 3's e-mail; page 1's id is 95% covered.
    assert at_075["docleak_crit_cover"] == pytest.approx(2 / 3)
    # Predicted area on exhaustive pages: 100+100+95+100 + 50+200 = 645, of which 100 is off gold.
    assert at_075["over_redaction"] == pytest.approx(100 / 645)


def test_supported_schema(at_075):
    sp = at_075["supported"]
    assert sp["types"] == ["DATE", "PERSON_NAME"]
    assert sp["coverage_items"] == pytest.approx(4 / 7) and sp["coverage_critical"] == pytest.approx(2 / 5)
    # Restricted gold: p1 {NAME ok, DATE mistyped}, p2 {NAME mistyped}, p3 {}, p5 {DATE ok}.
    assert sp["docleak_all"] == pytest.approx(2 / 3) and sp["docleak_crit"] == pytest.approx(1 / 2)


def test_pq_matching_beside_iou(at_075):
    pq = at_075["pq"]
    # Under PQ page 2's phone (inter 50 = half of gold: not more) still fails; same leakage as IoU.
    assert pq["docleak_crit"] == pytest.approx(2 / 3)
    assert pq["f1_loc"] == pytest.approx(at_075["f1_loc"])


def test_sweep_changes_only_threshold_dependent_figures():
    r50, r95, r99 = score_pages(scenario(), default_schema(), [0.5, 0.95, 0.99])
    assert r50["docleak_crit"] == pytest.approx(2 / 3)  # phone matches at 0.5, name still mistyped
    assert r50["failures"]["low_iou"] == 0 and r50["failures"]["mistyped"] == 1
    assert r95["docleak_crit"] == pytest.approx(2 / 3)  # IoU exactly 0.95 still matches
    assert r99["docleak_crit"] == pytest.approx(1.0) and r99["failures"]["low_iou"] == 2
    assert r50["docleak_crit_cover"] == r99["docleak_crit_cover"]


def test_edge_cases_no_gold_no_predictions():
    schema = default_schema()
    nothing = score_pages(Loaded([Pair(gold("e", []), pred("e", []))]), schema)[0]
    assert nothing["f1_loc"] is None and nothing["f1_type"] is None
    assert nothing["docleak_all"] is None and nothing["docleak_crit"] is None and nothing["over_redaction"] is None
    assert nothing["severity"] == {
        "mean_missed": None,
        "median_missed": None,
        "p90_missed": None,
        "mean_proportion": None,
    }
    only_fp = score_pages(Loaded([Pair(gold("e", []), pred("e", [("DATE", [0, 0, 5, 5])]))]), schema)[0]
    assert only_fp["f1_loc"] == 0.0 and only_fp["over_redaction"] == 1.0 and only_fp["docleak_all"] is None
    no_pred = score_pages(Loaded([Pair(gold("e", [("DATE", [0, 0, 5, 5])]), pred("e", []))]), schema)[0]
    assert no_pred["f1_loc"] == 0.0 and no_pred["docleak_all"] == 1.0 and no_pred["docleak_crit"] is None


def test_duplicate_predictions_count_once():
    loaded = Loaded([Pair(gold("d", [("DATE", [0, 0, 10, 10])]), pred("d", [("DATE", [0, 0, 10, 10])] * 2))])
    r = score_pages(loaded, default_schema())[0]
    assert r["f1_loc"] == pytest.approx(2 / 3) and r["docleak_all"] == 0.0
    assert r["per_type"]["DATE"]["precision"] == 0.5
