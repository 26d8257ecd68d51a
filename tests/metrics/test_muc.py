"""MUC: the worked examples of Pradhan et al. 2014 and Vilain et al. 1995, with the papers' numbers."""

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
