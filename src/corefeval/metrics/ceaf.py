"""CEAF (Luo 2005): the best one-to-one entity alignment, mention-based (CEAFm) or entity-based (CEAFe)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..alignment import Alignment
from ..assignment import blocks, max_matching
from .base import Metric


class _CEAF(Metric):
    bounded = False

    def similarity(self, overlap: np.ndarray, key_size: np.ndarray, response_size: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def denominators(self, key_sizes: np.ndarray, response_sizes: np.ndarray) -> tuple[float, float]:
        raise NotImplementedError

    def table_counts(self, alignment: Alignment) -> tuple[float, ...]:
        t = alignment.contingency
        phi = self.similarity(t.counts.astype(float), t.key_sizes[t.rows], t.response_sizes[t.cols])
        best = max_matching(t.blocks, phi)
        rd, pd = self.denominators(t.key_sizes, t.response_sizes)
        return best, rd, best, pd

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        key = [c for c in key if c]
        response = [c for c in response if c]
        key_sizes = np.array([len(c) for c in key], dtype=float)
        response_sizes = np.array([len(c) for c in response], dtype=float)
        # The overlap of key chain K and response chain R is the number of K's mentions whose id is
        # in R: only chain pairs that share an id have one, so the cells are sparse.
        chains_of: dict[int, set[int]] = {}
        for r, chain in enumerate(response):
            for i in chain:
                chains_of.setdefault(i, set()).add(r)
        overlap: dict[tuple[int, int], int] = {}
        for k, chain in enumerate(key):
            for i, n in Counter(chain).items():
                for r in chains_of.get(i, ()):
                    overlap[k, r] = overlap.get((k, r), 0) + n
        best = 0.0
        if overlap:
            cells = sorted(overlap)
            rows = np.array([k for k, _ in cells], dtype=np.int64)
            cols = np.array([r for _, r in cells], dtype=np.int64)
            counts = np.array([overlap[c] for c in cells], dtype=float)
            phi = self.similarity(counts, key_sizes[rows], response_sizes[cols])
            best = max_matching(blocks(rows, cols, len(key)), phi)
        rd, pd = self.denominators(key_sizes, response_sizes)
        return best, rd, best, pd


class CEAFm(_CEAF):
    name = "ceafm"
    title = "CEAFm"

    def similarity(self, overlap: np.ndarray, key_size: np.ndarray, response_size: np.ndarray) -> np.ndarray:
        return overlap

    def denominators(self, key_sizes: np.ndarray, response_sizes: np.ndarray) -> tuple[float, float]:
        return float(key_sizes.sum()), float(response_sizes.sum())


class CEAFe(_CEAF):
    name = "ceafe"
    title = "CEAFe"
    fractional_fields = frozenset({"recall_num", "precision_num"})

    def similarity(self, overlap: np.ndarray, key_size: np.ndarray, response_size: np.ndarray) -> np.ndarray:
        return 2.0 * overlap / (key_size + response_size)

    def denominators(self, key_sizes: np.ndarray, response_sizes: np.ndarray) -> tuple[float, float]:
        return float(np.count_nonzero(key_sizes)), float(np.count_nonzero(response_sizes))
