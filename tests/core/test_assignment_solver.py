"""scipy's assignment solver as :mod:`corefeval.core.assignment` loads it: the same answers, ties
included, without importing ``scipy.optimize``; the package when the compiled module is not found."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment as packaged

from corefeval.core import assignment


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("maximize", [False, True])
def test_loaded_solver_gives_scipys_pairs(seed: int, maximize: bool) -> None:
    rng = np.random.default_rng(seed)
    table = rng.choice([0.0, 0.25, 0.5, 1.0], size=(7 + seed, 9))  # few values: many ties
    got = assignment.linear_sum_assignment(table, maximize=maximize)
    expected = packaged(table, maximize=maximize)
    assert [a.tolist() for a in got] == [a.tolist() for a in expected]


def test_loading_the_solver_does_not_import_scipy_optimize() -> None:
    code = (
        "import sys, numpy as np; from corefeval.core.assignment import linear_sum_assignment as f;"
        "print(f(np.eye(3), maximize=True)[1].tolist(), 'scipy.optimize' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["[0,", "1,", "2]", "False"]


def test_solver_falls_back_to_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    assignment._scipy_solver.cache_clear()
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    try:
        assert assignment._scipy_solver() is packaged
    finally:
        assignment._scipy_solver.cache_clear()


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.tuples(st.integers(0, 19), st.integers(0, 19)),
        st.sampled_from([1.0, 2.0, 0.5, 2 / 3, 0.4]) | st.floats(0.01, 3.0),
        min_size=1,
        max_size=120,
    )
)
def test_listed_matching_is_the_matching_of_the_blocks_to_the_bit(weights: dict[tuple[int, int], float]) -> None:
    """The plain-Python decomposition of a few cells gives :func:`max_matching` of :func:`blocks`
    (the components in the same order, each added as there): the same float."""
    n = len(weights)
    rows = np.fromiter((i for i, _ in weights), dtype=np.int64, count=n)
    cols = np.fromiter((j for _, j in weights), dtype=np.int64, count=n)
    values = np.fromiter(weights.values(), dtype=float, count=n)
    expected = assignment.max_matching(assignment.blocks(rows, cols, int(rows.max()) + 1), values)
    assert assignment._listed_matching(weights) == expected
    # the same cells again with other weights (the plan of the last cells is kept)
    others = {cell: w / 3 + 0.125 for cell, w in weights.items()}
    values = np.fromiter(others.values(), dtype=float, count=n)
    expected = assignment.max_matching(assignment.blocks(rows, cols, int(rows.max()) + 1), values)
    assert assignment._listed_matching(others) == expected


_WEIGHT = st.sampled_from([0.0, 1.0, 2.0, 0.5, 1 / 3, 2 / 3, 0.4]) | st.floats(0.0, 3.0)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(_WEIGHT, min_size=2, max_size=2), min_size=2, max_size=2))
def test_a_two_by_two_table_gets_the_potentials_methods_float(weights: list[list[float]]) -> None:
    """A 2 x 2 table's best assignment, taken directly when the other is not within the margin,
    is the potentials method's, its total to the last bit (ties and near ties go to the method)."""
    got = assignment._hungarian_max(weights)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(assignment, "_two_by_two", lambda weights: None)
        assert got == assignment._hungarian_max(weights)
