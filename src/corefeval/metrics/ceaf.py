"""CEAF (Luo 2005): the best one-to-one entity alignment, mention-based (CEAFm) or entity-based (CEAFe)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..core.assignment import Grid, blocks, cell_matching, max_matching, two_by_two_totals
from ..core.items import Clusters
from ..matching.cells import Cells, segment_sums
from ..matching.cells.components import Components
from ..matching.item_lookups import Aligned, Lookups
from .base import Metric

#: From this many cells, one document's components are found vectorised, as a stack's are (the
#: per-component loop of :attr:`Cells.blocks` costs more there; measured in benchmarks/bench_dask.py).
_VECTORISED_FROM = 1000


def best_alignment(c: Cells, weights: np.ndarray) -> np.ndarray:
    """Per document, the best one-to-one alignment weight, added as
    :func:`corefeval.core.assignment.max_matching` adds it: cells alone in their row and column, then
    one-row or one-column components (their best cell), then the other components, solved
    together by ``c.solve``."""
    if c.n_docs == 1 and c.counts.size < _VECTORISED_FROM:  # the per-document solver, without stacking
        return np.array([max_matching(c.blocks, weights, c.solve)])
    parts = c.components
    total = segment_sums(weights[parts.simple], c.doc[parts.simple], c.n_docs)
    if not parts.cells.size:
        return total
    by_position = np.maximum.reduceat(weights[parts.cells], np.sort(parts.first))
    best = by_position[np.searchsorted(np.sort(parts.first), parts.first)]
    total = total + c.per_doc(parts.doc[parts.lone], best[parts.lone])
    solved = np.flatnonzero(~parts.lone)
    values, sure = _two_by_two_values(parts, weights, solved)
    grids: list[Grid] = []
    for k in solved[~sure].tolist():
        a, b = int(parts.first[k]), int(parts.ends[k])
        shape = (int(parts.n_rows[k]), int(parts.n_cols[k]))
        grids.append((shape, parts.grid_rows[a:b], parts.grid_cols[a:b], weights[parts.cells[a:b]]))
    values[~sure] = c.solve(grids)
    for k, value in zip(solved.tolist(), values.tolist()):
        total[parts.doc[k]] += value
    return total


def _two_by_two_values(parts: Components, weights: np.ndarray, solved: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The totals of the components of ``solved`` that are 2 x 2 grids, found at once where the
    better assignment is sure (:func:`~corefeval.core.assignment.two_by_two_totals`), and which."""
    values, sure = np.zeros(solved.size), np.zeros(solved.size, dtype=bool)
    square = np.flatnonzero((parts.n_rows[solved] == 2) & (parts.n_cols[solved] == 2))
    if square.size:
        first, ends = parts.first[solved[square]], parts.ends[solved[square]]
        grid = np.repeat(np.arange(square.size), ends - first)
        at = np.arange(grid.size) - np.repeat(np.cumsum(ends - first) - (ends - first), ends - first) + first[grid]
        tables = np.zeros((square.size, 2, 2))
        tables[grid, parts.grid_rows[at], parts.grid_cols[at]] = weights[parts.cells[at]]
        values[square], sure[square] = two_by_two_totals(tables)
    return values, sure


class CEAF(Metric):
    """What CEAFm and CEAFe share: the best alignment of a similarity, over two denominators."""

    bounded = False
    key_side_only = True

    def similarity(self, overlap: np.ndarray, key_size: np.ndarray, response_size: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def denominators(self, key_sizes: np.ndarray, response_sizes: np.ndarray) -> tuple[float, float]:
        raise NotImplementedError

    def weights(self, c: Cells) -> np.ndarray:
        """Each cell's similarity."""
        return self.similarity(c.counts.astype(float), c.key_sizes[c.rows], c.response_sizes[c.cols])

    def denominator_columns(self, c: Cells) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def columns(self, cells: Cells) -> list[np.ndarray]:
        best = best_alignment(cells, self.weights(cells))
        rd, pd = self.denominator_columns(cells)
        return [best, rd, best, pd]

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


class CEAFm(CEAF):
    name = "ceafm"
    title = "CEAFm"

    def similarity(self, overlap: np.ndarray, key_size: np.ndarray, response_size: np.ndarray) -> np.ndarray:
        return overlap

    def denominators(self, key_sizes: np.ndarray, response_sizes: np.ndarray) -> tuple[float, float]:
        return float(key_sizes.sum()), float(response_sizes.sum())

    def denominator_columns(self, c: Cells) -> tuple[np.ndarray, np.ndarray]:
        return c.key_mentions, c.response_mentions


class CEAFe(CEAF):
    name = "ceafe"
    title = "CEAFe"
    fractional_fields = frozenset({"recall_num", "precision_num"})

    def similarity(self, overlap: np.ndarray, key_size: np.ndarray, response_size: np.ndarray) -> np.ndarray:
        return 2.0 * overlap / (key_size + response_size)

    def denominators(self, key_sizes: np.ndarray, response_sizes: np.ndarray) -> tuple[float, float]:
        return float(np.count_nonzero(key_sizes)), float(np.count_nonzero(response_sizes))

    def denominator_columns(self, c: Cells) -> tuple[np.ndarray, np.ndarray]:
        return c.per_doc(c.key_doc), c.per_doc(c.response_doc)


def item_counts(
    response: Clusters,
    key: Clusters,
    aligned: Aligned,
    entity: bool,
    lookups: Lookups | None = None,
    one_pass: bool = False,
) -> tuple[float, float, float, float]:
    """The Universal Anaphora scorer's CEAFe (``entity``) or CEAFm of a document over items:
    ``(precision_num, precision_den, recall_num, recall_den)``, from the overlap cells of entities
    (an aligned split antecedent weighing its F1 in its partner's entity) and their best one-to-one
    matching."""

    cells = (lookups or Lookups(key, response)).overlaps(aligned, one_pass)
    if entity:
        weights = {(i, j): 2 * o / float(len(key[i]) + len(response[j])) for (i, j), o in cells.items()}
    else:
        weights = cells
    similarity = cell_matching(weights)
    if entity:
        return similarity, len(response), similarity, len(key)
    return similarity, sum(len(c) for c in response), similarity, sum(len(c) for c in key)
