"""Buckets of a count (tokens, sentences, mentions): half-open ranges between increasing edges."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.diagnostics import UsageError


def bucket_labels(edges: Sequence[int], least: int = 0) -> list[str]:
    """Names of the buckets ``[least, e0)``, ``[e0, e1)``, ..., ``[e_last, inf)``: ``0-127``,
    ``2`` (a bucket of one value), ``>=2048``."""
    bounds = [least, *edges]
    out = [str(a) if b - a == 1 else f"{a}-{b - 1}" for a, b in zip(bounds, bounds[1:])]
    return out + [f">={bounds[-1]}"]


def check_edges(edges: Sequence[int], least: int = 0) -> None:
    if not edges or list(edges) != sorted(set(edges)) or edges[0] <= least:
        raise UsageError(f"bucket edges must be increasing numbers above the least value, not {list(edges)}")


def bucket_of(values: Sequence[int] | np.ndarray, edges: Sequence[int], least: int = 0) -> list[str]:
    """The bucket name of each value (values below ``least`` fall in the first bucket)."""
    check_edges(edges, least)
    labels = bucket_labels(edges, least)
    at = np.searchsorted(np.asarray(edges), np.asarray(values, dtype=np.int64), side="right")
    return [labels[i] for i in at.tolist()]
