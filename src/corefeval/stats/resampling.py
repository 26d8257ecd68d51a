"""Random draws over documents: bootstrap resamples and approximate-randomisation swaps.

Every draw is a matrix with one row per resample (or round) and one column per document, so that
summing counts for all resamples is one matrix product. Bootstrap and randomisation use separate
child streams of one seed, so changing the number of rounds does not change the bootstrap.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..core.progress import progress

#: Rows per block when multiplying draws by counts (bounds memory on large corpora).
BLOCK = 2000


def streams(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """Independent generators for the bootstrap and for approximate randomisation."""
    boot, swap = np.random.SeedSequence(seed).spawn(2)
    return np.random.default_rng(boot), np.random.default_rng(swap)


def strata_members(strata: Sequence[object] | None, n_docs: int) -> list[np.ndarray]:
    """Document indices of each stratum, in first-seen order (one stratum when ``strata`` is None)."""
    if strata is None:
        return [np.arange(n_docs)]
    if len(strata) != n_docs:
        raise ValueError(f"{len(strata)} stratum labels for {n_docs} documents")
    groups: dict[object, list[int]] = {}
    for i, label in enumerate(strata):
        groups.setdefault(label, []).append(i)
    return [np.asarray(g, dtype=np.int64) for g in groups.values()]


def bootstrap_draws(
    rng: np.random.Generator, n_docs: int, resamples: int, strata: Sequence[object] | None = None
) -> np.ndarray:
    """Document indices drawn with replacement: shape (resamples, n_docs).

    With strata, each stratum is resampled within itself and keeps its size.
    """
    parts = [
        members[rng.integers(0, members.size, size=(resamples, members.size))]
        for members in strata_members(strata, n_docs)
        if members.size
    ]
    if not parts:
        return np.zeros((resamples, 0), dtype=np.int64)
    return np.concatenate(parts, axis=1)


def holding(draws: np.ndarray, members: np.ndarray) -> np.ndarray:
    """Which resamples draw at least one of the documents ``members`` (indices): shape (resamples,)."""
    return np.asarray(np.isin(draws, members).reshape(draws.shape).any(axis=1), dtype=bool)


def draw_weights(draws: np.ndarray, n_docs: int) -> np.ndarray:
    """How often each document occurs in each resample: shape (resamples, n_docs)."""
    rows = draws.shape[0]
    flat = draws + n_docs * np.arange(rows, dtype=np.int64)[:, None]
    return np.bincount(flat.ravel(), minlength=rows * n_docs).reshape(rows, n_docs).astype(float)


def swap_masks(rng: np.random.Generator, n_docs: int, rounds: int) -> np.ndarray:
    """For each round, which documents swap their two systems' counts (probability 1/2 each)."""
    return rng.random((rounds, n_docs)) < 0.5


def blocks(n: int, size: int = BLOCK) -> Iterator[slice]:
    """Consecutive slices of at most ``size`` rows covering ``range(n)``."""
    for start in range(0, n, size):
        yield slice(start, min(n, start + size))


def n_blocks(n: int, size: int = BLOCK) -> int:
    """How many slices :func:`blocks` gives."""
    return -(-n // size)


def resampled_totals(draws: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Summed counts of every bootstrap resample: shape (resamples, columns)."""
    n_docs = counts.shape[0]
    out = np.empty((draws.shape[0], counts.shape[1]))
    for b in progress(blocks(draws.shape[0]), "bootstrap", n_blocks(draws.shape[0]), "block"):
        out[b] = draw_weights(draws[b], n_docs) @ counts
    return out
