"""CEAFm and CEAFe: the worked example of Pradhan et al. 2014, with the paper's numbers."""

from __future__ import annotations

import pytest

from corefeval import metrics

# Pradhan et al. 2014 (papers/002), section 4: key {a b c} {d e f g}, response {a b} {c d} {f g h i}.
KEY_002 = [["a", "b", "c"], ["d", "e", "f", "g"]]
RESPONSE_002 = [["a", "b"], ["c", "d"], ["f", "g", "h", "i"]]


def test_pradhan_2014_ceafm() -> None:
    s = metrics.ceafm(KEY_002, RESPONSE_002)
    assert s.recall == pytest.approx(4 / 7) and s.precision == pytest.approx(0.5)
    assert round(s.f1, 2) == 0.53


def test_pradhan_2014_ceafe() -> None:
    s = metrics.ceafe(KEY_002, RESPONSE_002)
    phi = 4 / 5 + 4 / 8
    assert s.recall == pytest.approx(phi / 2) and s.precision == pytest.approx(phi / 3)
    assert round(s.recall, 2) == 0.65 and round(s.precision, 2) == 0.43 and round(s.f1, 2) == 0.52
