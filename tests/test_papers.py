"""The worked examples of the papers the project is built from, with the papers' own numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from corefeval import metrics

# Pradhan et al. 2014 (papers/002), section 4: key {a b c} {d e f g}, response {a b} {c d} {f g h i}.
KEY_002 = [["a", "b", "c"], ["d", "e", "f", "g"]]
RESPONSE_002 = [["a", "b"], ["c", "d"], ["f", "g", "h", "i"]]


def test_pradhan_2014_muc() -> None:
    s = metrics.muc(KEY_002, RESPONSE_002)
    assert (s.recall_num, s.recall_den, s.precision_num, s.precision_den) == (2, 5, 2, 5)
    assert round(s.f1, 2) == 0.40


def test_pradhan_2014_bcubed() -> None:
    s = metrics.bcub(KEY_002, RESPONSE_002)
    assert s.recall == pytest.approx(float(Fraction(35, 12) / 7))
    assert s.precision == pytest.approx(0.5)
    assert round(s.recall, 2) == 0.42
    # The paper's "F1 is 0.46" is the harmonic mean of its rounded R (0.42) and P (0.50); exactly it is 0.4545.
    assert s.f1 == pytest.approx(2 * (35 / 84) * 0.5 / (35 / 84 + 0.5))
    assert round(2 * 0.42 * 0.50 / (0.42 + 0.50), 2) == 0.46


def test_pradhan_2014_ceafm() -> None:
    s = metrics.ceafm(KEY_002, RESPONSE_002)
    assert s.recall == pytest.approx(4 / 7) and s.precision == pytest.approx(0.5)
    assert round(s.f1, 2) == 0.53


def test_pradhan_2014_ceafe() -> None:
    s = metrics.ceafe(KEY_002, RESPONSE_002)
    phi = 4 / 5 + 4 / 8
    assert s.recall == pytest.approx(phi / 2) and s.precision == pytest.approx(phi / 3)
    assert round(s.recall, 2) == 0.65 and round(s.precision, 2) == 0.43 and round(s.f1, 2) == 0.52


def test_pradhan_2014_blanc() -> None:
    s = metrics.blanc(KEY_002, RESPONSE_002)
    assert (s.coref.recall_num, s.coref.recall_den, s.coref.precision_den) == (2, 9, 8)
    assert (s.noncoref.recall_num, s.noncoref.recall_den, s.noncoref.precision_den) == (8, 12, 20)
    # The paper's "F_c = 0.23" and "BLANC = 0.36" are truncated, as the reference scorer prints them.
    assert s.coref.f1 == pytest.approx(2 * (2 / 9) * (2 / 8) / (2 / 9 + 2 / 8))
    assert int(s.coref.f1 * 100) / 100 == 0.23 and s.noncoref.f1 == pytest.approx(0.5)
    assert s.f1 == pytest.approx((s.coref.f1 + 0.5) / 2) and int(s.f1 * 100) / 100 == 0.36


# Luo et al. 2014 (papers/000), section 4.2: four BLANC examples, with the paper's boundary cases.
@pytest.mark.parametrize(
    ("key", "response", "expected"),
    [
        ([["a", "b", "c"], ["d"]], [["b", "c"], ["d", "e"]], Fraction(17, 35)),  # example 1
        ([["a"]], [["b"]], Fraction(0)),  # example 2, boundary case 1: I(M_k = M_r) = 0
        ([["a"], ["b"], ["c"]], [["a"], ["b"], ["d"]], Fraction(1, 3)),  # example 3, boundary case 2
        ([["a", "b", "c"]], [["b", "c"]], Fraction(1, 2)),  # example 4, boundary case 3
    ],
)
def test_luo_2014_blanc_examples(key: list, response: list, expected: Fraction) -> None:
    assert metrics.blanc(key, response, variant="paper").f1 == pytest.approx(float(expected))


def test_luo_2014_example_1_components() -> None:
    s = metrics.blanc([["a", "b", "c"], ["d"]], [["b", "c"], ["d", "e"]], variant="paper")
    assert s.coref.recall == pytest.approx(1 / 3) and s.coref.precision == pytest.approx(1 / 2)
    assert s.noncoref.recall == pytest.approx(2 / 3) and s.noncoref.precision == pytest.approx(2 / 4)
    assert s.coref.f1 == pytest.approx(2 / 5) and s.noncoref.f1 == pytest.approx(4 / 7)


def test_luo_2014_boundary_case_1_identical_mentions_score_1() -> None:
    assert metrics.blanc([["a"]], [["a"]], variant="paper").f1 == 1.0


@pytest.mark.parametrize(
    ("key", "response", "reference", "paper"),
    [
        # Only the response has coreference links: the reference decides on the key's links (none), so
        # BLANC is the non-coreference F1 alone (0.8); the paper averages it with F_c = 0.
        ([["a"], ["b"], ["c"]], [["a", "b"], ["c"]], 0.8, 0.4),
        # No link at all on either side, same mentions: the reference gives 0, the paper I(M_k = M_r) = 1.
        ([["a"]], [["a"]], 0.0, 1.0),
        # Example 4 (no non-coreference links anywhere): both give F_c.
        ([["a", "b", "c"]], [["b", "c"]], 0.5, 0.5),
    ],
)
def test_blanc_variants_differ_only_at_boundaries(key: list, response: list, reference: float, paper: float) -> None:
    assert metrics.blanc(key, response).f1 == pytest.approx(reference)
    assert metrics.blanc(key, response, variant="paper").f1 == pytest.approx(paper)


# Vilain et al. 1995 (papers/004): MUC by partitions.
@pytest.mark.parametrize(
    ("key", "response", "recall", "precision"),
    [
        ([list("ABCD")], [["A", "B"], ["C", "D"]], Fraction(2, 3), Fraction(1)),  # <A-B C-D>
        ([list("ABCD")], [["A", "B"]], Fraction(1, 3), Fraction(1)),  # p(S) = {A B} {C} {D}
        ([["B", "C"]], [["A", "B", "C"]], Fraction(1), Fraction(1, 2)),  # p'(S') = {B C} {A}
        # The two-key-set example: two of five required links recalled, two of four response links right.
        ([list("ABC"), list("DEFG")], [["A", "B"], ["C", "D"], ["F", "G", "H"]], Fraction(2, 5), Fraction(2, 4)),
    ],
)
def test_vilain_1995_muc_examples(key: list, response: list, recall: Fraction, precision: Fraction) -> None:
    s = metrics.muc(key, response)
    assert s.recall == pytest.approx(float(recall)) and s.precision == pytest.approx(float(precision))
