"""CEAF's best alignment of every document: trivial components vectorised, the others solved one by one."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..assignment import component_labels, grid_weight
from .cells import Cells, IntArray
from .sums import segment_sums


def _smallest_row(rows: IntArray, cols: IntArray, n_rows: int) -> IntArray:
    """Each cell's connected component, named by its smallest row (nodes: rows and ``n_rows + col``):
    every node takes the smallest label of its cells' nodes, with pointer jumping, until stable."""
    label = np.arange(n_rows + int(cols.max(initial=-1)) + 1, dtype=np.int64)
    col_nodes = n_rows + cols
    while True:
        cell = np.minimum(label[rows], label[col_nodes])
        new = label.copy()
        np.minimum.at(new, rows, cell)
        np.minimum.at(new, col_nodes, cell)
        new = new[new]
        if np.array_equal(new, label):
            return label[rows]
        label = new


@dataclass(frozen=True)
class Components:
    """The CEAF decomposition of all documents' cells (as :func:`corefeval.assignment.blocks`):
    cells alone in their row and column, and the other cells' components in the order each
    document's own :func:`~corefeval.assignment.max_matching` adds them."""

    simple: np.ndarray
    cells: IntArray  # the other cells, component by component
    first: IntArray  # each component's first position in ``cells``, in adding order
    ends: IntArray
    doc: IntArray
    lone: np.ndarray  # one row or one column: its best cell is its best matching


def components(c: Cells) -> Components:
    simple = (np.bincount(c.rows)[c.rows] == 1) & (np.bincount(c.cols)[c.cols] == 1)
    rest = np.flatnonzero(~simple)
    labels = _smallest_row(c.rows[rest], c.cols[rest], c.key_sizes.size)
    order = np.lexsort((labels, c.doc[rest]))
    cells, labels = rest[order], labels[order]
    starts = np.r_[True, labels[1:] != labels[:-1]] if cells.size else np.zeros(0, dtype=bool)
    first = np.flatnonzero(starts)
    comp = np.cumsum(starts) - 1
    rows, cols = c.rows[cells], c.cols[cells]
    new_row = np.r_[True, (rows[1:] != rows[:-1]) | (comp[1:] != comp[:-1])] if cells.size else starts
    n_rows = np.bincount(comp, weights=new_row, minlength=first.size)
    width = max(c.response_sizes.size, 1)
    pairs = np.sort(comp * width + cols)  # (plain np.unique would import numpy.ma, 40 ms)
    distinct = pairs[np.r_[True, pairs[1:] != pairs[:-1]]] if pairs.size else pairs
    n_cols = np.bincount(distinct // width, minlength=first.size)
    lone = (n_rows == 1) | (n_cols == 1)
    doc = c.doc[cells[first]] if cells.size else np.zeros(0, dtype=np.int64)
    # Where a document has three one-row/column components or two others, their adding order
    # changes the float: there, order them by the per-document union-find's labels.
    exact = (np.bincount(doc, weights=lone, minlength=c.n_docs) >= 3) | (
        np.bincount(doc, weights=~lone, minlength=c.n_docs) >= 2
    )
    key = labels[first]
    if exact.any():
        in_exact = np.sort(cells[exact[c.doc[cells]]])  # those documents' cells, in table order
        roots = component_labels(c.rows[in_exact], c.cols[in_exact], c.key_sizes.size)
        root_of_cell = np.zeros(c.rows.size, dtype=np.int64)
        root_of_cell[in_exact] = roots
        key = np.where(exact[doc], root_of_cell[cells[first]], key)
    adding = np.lexsort((key, doc))
    ends = np.r_[first[1:], cells.size].astype(np.int64)
    return Components(simple, cells, first[adding], ends[adding], doc[adding], lone[adding])


def _ceaf_best(c: Cells, weights: np.ndarray) -> np.ndarray:
    """Per document, the best one-to-one alignment weight, added as
    :func:`corefeval.assignment.max_matching` adds it: cells alone in their row and column, then
    one-row or one-column components (their best cell), then the other components solved."""
    parts = c.components
    total = segment_sums(weights[parts.simple], c.doc[parts.simple], c.n_docs)
    if not parts.cells.size:
        return total
    by_position = np.maximum.reduceat(weights[parts.cells], np.sort(parts.first))
    best = by_position[np.searchsorted(np.sort(parts.first), parts.first)]
    total = total + c.per_doc(parts.doc[parts.lone], best[parts.lone])
    for k in np.flatnonzero(~parts.lone).tolist():
        idx = parts.cells[parts.first[k] : parts.ends[k]]
        r_u, r_inv = np.unique(c.rows[idx], return_inverse=True)
        c_u, c_inv = np.unique(c.cols[idx], return_inverse=True)
        total[parts.doc[k]] += grid_weight((r_u.size, c_u.size), r_inv.reshape(-1), c_inv.reshape(-1), weights[idx])
    return total


def ceafm_columns(c: Cells) -> list[np.ndarray]:
    best = _ceaf_best(c, c.counts.astype(float))
    return [best, c.key_mentions, best, c.response_mentions]


def ceafe_columns(c: Cells) -> list[np.ndarray]:
    phi = 2.0 * c.counts.astype(float) / (c.key_sizes[c.rows] + c.response_sizes[c.cols])
    best = _ceaf_best(c, phi)
    return [best, c.per_doc(c.key_doc), best, c.per_doc(c.response_doc)]
