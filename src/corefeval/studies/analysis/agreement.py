"""Krippendorff's alpha (nominal, ordinal, interval) from a raters x items matrix, with bootstrap CIs.

Alpha is computed from the coincidence matrix: items with fewer than two ratings are not pairable
and are ignored; missing ratings are NaN. Alpha is undefined (``None``) when there are no pairable
values or only one distinct value among them (0/0); callers decide what that means.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

LEVELS = ("nominal", "ordinal", "interval")


def category_counts(coded: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values, counts): the distinct codes and a raters x items x values one-hot tensor."""
    present = ~np.isnan(coded)
    values = np.unique(coded[present])
    onehot = np.zeros(coded.shape + (values.size,))
    if values.size:
        idx = np.searchsorted(values, np.where(present, coded, values[0]))
        a, i = np.nonzero(present)
        onehot[a, i, idx[a, i]] = 1.0
    return values, onehot


def distance_matrix(values: np.ndarray, marginals: np.ndarray, level: str) -> np.ndarray:
    """Squared distances between codes; the ordinal one uses the observed value frequencies."""
    if level == "nominal":
        return 1.0 - np.eye(values.size)
    if level == "interval":
        return (values[:, None] - values[None, :]) ** 2
    if level == "ordinal":
        cum = np.concatenate([[0.0], np.cumsum(marginals)])
        lo = np.minimum.outer(np.arange(values.size), np.arange(values.size))
        hi = np.maximum.outer(np.arange(values.size), np.arange(values.size))
        between = cum[hi + 1] - cum[lo]
        return (between - (marginals[:, None] + marginals[None, :]) / 2) ** 2
    raise ValueError(f"unknown level '{level}' (choose from {', '.join(LEVELS)})")


def alpha_from_counts(counts: np.ndarray, values: np.ndarray, level: str = "nominal") -> float | None:
    """Alpha from an items x values count table (how many raters gave each value to each item)."""
    m = counts.sum(axis=1)
    pairable = m >= 2
    c = counts[pairable]
    if not c.size:
        return None
    w = c / (m[pairable] - 1)[:, None]
    coincidence = w.T @ c - np.diag(w.sum(axis=0))
    marginals = coincidence.sum(axis=1)
    n = marginals.sum()
    delta = distance_matrix(values, marginals, level)
    expected = marginals @ delta @ marginals
    if n <= 1 or expected <= 0:
        return None
    observed = float(np.sum(coincidence * delta))
    return float(1.0 - (n - 1) * observed / expected)


def alpha(coded: np.ndarray, level: str = "nominal") -> float | None:
    """Krippendorff's alpha of a raters x items matrix of codes (NaN = missing); None if undefined."""
    values, onehot = category_counts(coded)
    return alpha_from_counts(onehot.sum(axis=0), values, level)


@dataclass(frozen=True)
class AlphaEstimate:
    value: float | None
    low: float | None
    high: float | None
    level: str
    n_items: int


def bootstrap_alpha(
    coded: np.ndarray, level: str = "nominal", n_resamples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> AlphaEstimate:
    """Alpha with a percentile bootstrap interval over items (resampled with replacement)."""
    values, onehot = category_counts(coded)
    counts = onehot.sum(axis=0)
    point = alpha_from_counts(counts, values, level)
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(n_resamples):
        sample = counts[rng.integers(0, counts.shape[0], counts.shape[0])]
        a = alpha_from_counts(sample, values, level)
        if a is not None:
            draws.append(a)
    if point is None or not draws:
        return AlphaEstimate(point, None, None, level, counts.shape[0])
    tail = (1 - confidence) / 2
    low, high = np.quantile(draws, [tail, 1 - tail])
    return AlphaEstimate(point, float(low), float(high), level, counts.shape[0])


def good_items(raw: np.ndarray, max_distinct: int = 3) -> np.ndarray:
    """Mask of items with at most ``max_distinct`` distinct non-missing answers over all raters."""
    out = np.zeros(raw.shape[1], dtype=bool)
    for i in range(raw.shape[1]):
        column = raw[:, i]
        out[i] = np.unique(column[~np.isnan(column)]).size <= max_distinct
    return out
