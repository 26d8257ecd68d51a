"""``corefeval.core.distinct`` gives what ``numpy.unique`` gives, on any integer array."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from corefeval.core.distinct import distinct, distinct_counts

arrays = st.lists(st.integers(-(2**62), 2**62) | st.integers(0, 5), max_size=60).map(
    lambda v: np.asarray(v, dtype=np.int64)
)


@given(arrays)
def test_distinct_values_first_places_and_inverse_are_numpys(values: np.ndarray) -> None:
    unique, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    got = distinct(values)
    for mine, numpys in zip(got, (unique, first, inverse.reshape(-1)), strict=True):
        assert mine.dtype == numpys.dtype and mine.tolist() == numpys.tolist()


@given(arrays)
def test_distinct_counts_are_numpys(values: np.ndarray) -> None:
    unique, counts = np.unique(values, return_counts=True)
    got = distinct_counts(values)
    for mine, numpys in zip(got, (unique, counts), strict=True):
        assert mine.dtype == numpys.dtype and mine.tolist() == numpys.tolist()
