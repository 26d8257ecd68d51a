"""The trust coefficient of the 2022 study (its Algorithm 1) and the outlier-removal table (Table 1).

For every subset of at least two annotators, alpha is computed on one item set (undefined alpha
counts as 1). Subsets are sorted by alpha (stable: ties keep enumeration order), given a dense rank
starting at 1, and each annotator scores the sum of rank x alpha over the subsets containing it.
Trust is that score divided by the largest score; an annotator with trust <= 0.5 is an outlier.
The cost is 2**n alphas: beyond ``max_exact`` annotators a seeded random sample of subsets is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from .agreement import alpha_from_counts, category_counts

OUTLIER_THRESHOLD = 0.5


@dataclass(frozen=True)
class Trust:
    """Trust coefficients of one (scale, item set) and how they were obtained."""

    annotators: tuple[str, ...]
    coefficients: tuple[float, ...]
    n_subsets: int
    sampled: bool

    @property
    def outliers(self) -> tuple[str, ...]:
        pairs = zip(self.annotators, self.coefficients, strict=True)
        return tuple(a for a, c in pairs if c <= OUTLIER_THRESHOLD)

    def as_dict(self) -> dict[str, float]:
        return dict(zip(self.annotators, self.coefficients, strict=True))


def _subsets(n: int, max_exact: int, n_samples: int, seed: int) -> tuple[list[tuple[int, ...]], bool]:
    if n <= max_exact:
        return [c for size in range(2, n + 1) for c in combinations(range(n), size)], False
    n_samples = min(n_samples, 2**n - n - 1)
    rng = np.random.default_rng(seed)
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    while len(out) < n_samples:
        size = int(rng.integers(2, n + 1))
        subset = tuple(sorted(rng.choice(n, size, replace=False).tolist()))
        if subset not in seen:
            seen.add(subset)
            out.append(subset)
    out.sort(key=lambda s: (len(s), s))
    return out, True


def trust_coefficients(
    coded: np.ndarray,
    annotators: tuple[str, ...],
    level: str = "nominal",
    undefined: float = 1.0,
    max_exact: int = 16,
    n_samples: int = 20000,
    seed: int = 0,
) -> Trust:
    """Trust coefficient of each annotator (rows of ``coded``, restricted to the wanted items)."""
    n = len(annotators)
    if n < 2:
        return Trust(annotators, tuple(1.0 for _ in annotators), 0, False)
    values, onehot = category_counts(coded)
    subsets, sampled = _subsets(n, max_exact, n_samples, seed)
    alphas = []
    for subset in subsets:
        a = alpha_from_counts(onehot[list(subset)].sum(axis=0), values, level)
        alphas.append(undefined if a is None else a)
    coefficients = trust_from_alphas(n, subsets, alphas)
    return Trust(annotators, tuple(float(c) for c in coefficients), len(subsets), sampled)


def trust_from_alphas(n: int, subsets: list[tuple[int, ...]], alphas: list[float]) -> np.ndarray:
    """Algorithm 1 given each subset's alpha: dense rank (from 1) x alpha, summed, divided by the max."""
    order = sorted(range(len(subsets)), key=lambda k: alphas[k])
    score = np.zeros(n)
    rank = 1
    previous = None
    for k in order:
        if previous is not None and alphas[k] > previous:
            rank += 1
        previous = alphas[k]
        for member in subsets[k]:
            score[member] += rank * alphas[k]
    top = score.max()
    return score / top if top > 0 else np.full(n, np.nan)
