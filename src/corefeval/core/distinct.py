"""The distinct values of an integer array, as ``numpy.unique`` gives them, for the many small arrays
of per-document work: ``numpy.unique`` costs tens of microseconds a call in checks and dispatch
(and imports ``numpy.ma``, 20 ms, on first use), more than sorting a document's mentions."""

from __future__ import annotations

import numpy as np


def distinct(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted distinct values of the 1-d ``values``, the index of each one's first occurrence,
    and each value's place among them: ``numpy.unique(values, return_index=True,
    return_inverse=True)``."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.empty(ordered.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    inverse = np.empty(ordered.size, dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], order[new], inverse


def distinct_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of the 1-d ``values`` and how often each occurs:
    ``numpy.unique(values, return_counts=True)``."""
    ordered = np.sort(values)
    new = np.empty(ordered.size, dtype=bool)
    new[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    return ordered[starts], np.diff(np.append(starts, ordered.size))
