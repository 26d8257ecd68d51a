"""CEAF's best alignment of one large document, found by the vectorised decomposition, is the
per-document solver's to the last bit, whatever solver the cells carry."""

from __future__ import annotations

import numpy as np
import pytest

from corefeval.core.assignment import Grid, blocks, max_matching, solve_grids
from corefeval.matching.alignment import Contingency
from corefeval.matching.cells import Cells
from corefeval.metrics.ceaf import CEAFe, CEAFm, best_alignment


def _table(seed: int, n: int) -> Contingency:
    """A sparse key x response table of ``n`` entities a side: cells near the diagonal, so that
    the overlap graph has many components of every kind (single cells, one row or one column, grids)."""
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, size=2 * n)
    cols = np.clip(rows + rng.integers(-2, 3, size=rows.size), 0, n - 1)
    codes = np.unique(rows * n + cols)
    rows, cols = codes // n, codes % n
    counts = rng.integers(1, 6, size=codes.size)
    key_sizes = np.bincount(rows, weights=counts, minlength=n).astype(np.int64) + rng.integers(0, 3, size=n)
    response_sizes = np.bincount(cols, weights=counts, minlength=n).astype(np.int64) + rng.integers(0, 3, size=n)
    return Contingency(rows, cols, counts, key_sizes, response_sizes)


def _in_reverse(grids: list[Grid]) -> list[float]:
    """A solver that solves the components last first (as workers may), giving them back in order."""
    return solve_grids(grids[::-1])[::-1]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("metric", [CEAFm(), CEAFe()], ids=["ceafm", "ceafe"])
def test_one_large_document_equals_the_per_document_solver(seed: int, metric: CEAFm | CEAFe) -> None:
    t = _table(seed, 3000)
    one = np.array([1])
    for solve in (solve_grids, _in_reverse):
        cells = Cells.of_tables([t], one, one, one, solve=solve)
        weights = metric.weights(cells)
        expected = max_matching(blocks(t.rows, t.cols, t.key_sizes.size), weights)
        assert best_alignment(cells, weights)[0] == expected
