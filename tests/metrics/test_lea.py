"""LEA: Pradhan et al. 2014's example (papers/002) computed by hand from LEA's definition (importance
is an entity's size, resolution the share of its links found on the other side)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from corefeval import metrics

KEY_002 = [["a", "b", "c"], ["d", "e", "f", "g"]]
RESPONSE_002 = [["a", "b"], ["c", "d"], ["f", "g", "h", "i"]]


def test_pradhan_2014_example_by_the_definition() -> None:
    s = metrics.lea(KEY_002, RESPONSE_002)
    # recall: {a b c} has 3 links, a-b found (3 * 1/3); {d e f g} has 6, f-g found (4 * 1/6); over 3 + 4
    recall = (3 * Fraction(1, 3) + 4 * Fraction(1, 6)) / 7
    # precision: {a b} all found (2 * 1), {c d} none, {f g h i} f-g of 6 (4 * 1/6); over 2 + 2 + 4
    precision = (2 * Fraction(1) + 4 * Fraction(1, 6)) / 8
    assert (s.recall_num, s.recall_den) == pytest.approx((float(recall * 7), 7))
    assert (s.precision_num, s.precision_den) == pytest.approx((float(precision * 8), 8))
    assert s.recall == pytest.approx(float(recall)) and s.precision == pytest.approx(float(precision))


def test_a_singleton_counts_as_its_self_link() -> None:
    s = metrics.lea([["a"], ["b", "c"]], [["a"], ["b"], ["c"]])
    assert s.recall == pytest.approx(1 / 3) and s.precision == pytest.approx(1 / 3)
