"""B-cubed: the worked example of Pradhan et al. 2014, with the paper's numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from corefeval import metrics

# Pradhan et al. 2014 (papers/002), section 4: key {a b c} {d e f g}, response {a b} {c d} {f g h i}.
KEY_002 = [["a", "b", "c"], ["d", "e", "f", "g"]]
RESPONSE_002 = [["a", "b"], ["c", "d"], ["f", "g", "h", "i"]]


def test_pradhan_2014_bcubed() -> None:
    s = metrics.bcub(KEY_002, RESPONSE_002)
    assert s.recall == pytest.approx(float(Fraction(35, 12) / 7))
    assert s.precision == pytest.approx(0.5)
    assert round(s.recall, 2) == 0.42
    # The paper's "F1 is 0.46" is the harmonic mean of its rounded R (0.42) and P (0.50); exactly it is 0.4545.
    assert s.f1 == pytest.approx(2 * (35 / 84) * 0.5 / (35 / 84 + 0.5))
    assert round(2 * 0.42 * 0.50 / (0.42 + 0.50), 2) == 0.46
