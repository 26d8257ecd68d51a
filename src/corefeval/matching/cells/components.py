"""The CEAF decomposition of many documents' cells: which cells are alone in their row and column,
and the connected components of the others, in the order the per-document solver adds them."""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np

from ...core.assignment import component_labels

IntArray = np.ndarray


class CellTable(Protocol):
    """What the decomposition reads of :class:`~corefeval.matching.cells.table.Cells` (which builds it)."""

    @property
    def rows(self) -> IntArray: ...
    @property
    def cols(self) -> IntArray: ...
    @property
    def doc(self) -> IntArray: ...
    @property
    def key_sizes(self) -> IntArray: ...
    @property
    def response_sizes(self) -> IntArray: ...
    @property
    def n_docs(self) -> int: ...


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


class Components(NamedTuple):
    """The CEAF decomposition of all documents' cells (as :func:`corefeval.core.assignment.blocks`):
    cells alone in their row and column, and the other cells' components in the order each
    document's own :func:`~corefeval.core.assignment.max_matching` adds them."""

    simple: np.ndarray
    cells: IntArray  # the other cells, component by component
    grid_rows: IntArray  # each of those cells' row and column within its component's dense grid
    grid_cols: IntArray
    first: IntArray  # each component's first position in ``cells``, in adding order
    ends: IntArray
    doc: IntArray
    lone: np.ndarray  # one row or one column: its best cell is its best matching
    n_rows: IntArray  # each component's grid shape, in adding order
    n_cols: IntArray


def components(c: CellTable) -> Components:
    simple = (np.bincount(c.rows)[c.rows] == 1) & (np.bincount(c.cols)[c.cols] == 1)
    rest = np.flatnonzero(~simple)
    labels = _smallest_row(c.rows[rest], c.cols[rest], c.key_sizes.size)
    order = np.lexsort((labels, c.doc[rest]))
    cells, labels = rest[order], labels[order]
    starts = np.r_[True, labels[1:] != labels[:-1]] if cells.size else np.zeros(0, dtype=bool)
    first = np.flatnonzero(starts)
    comp = np.cumsum(starts) - 1
    rows, cols = c.rows[cells], c.cols[cells]
    # Within a component, cells are in table order, so rows ascend: a row's grid index counts the
    # rows seen before it; a column's is its rank among the component's distinct columns.
    new_row = np.r_[True, (rows[1:] != rows[:-1]) | (comp[1:] != comp[:-1])] if cells.size else starts
    row_rank = np.cumsum(new_row) - 1
    grid_rows = row_rank - row_rank[first][comp] if cells.size else row_rank
    n_rows = np.bincount(comp, weights=new_row, minlength=first.size).astype(np.int64)
    width = max(c.response_sizes.size, 1)
    codes = comp * width + cols
    by_col = np.argsort(codes, kind="stable")  # (np.unique would import numpy.ma, 40 ms)
    in_order = codes[by_col]
    new_col = np.r_[True, in_order[1:] != in_order[:-1]] if cells.size else starts
    col_rank = np.cumsum(new_col) - 1
    grid_cols = np.empty(cells.size, dtype=np.int64)
    grid_cols[by_col] = col_rank - col_rank[np.searchsorted(in_order, in_order // width * width)]
    n_cols = np.bincount(in_order[new_col] // width, minlength=first.size)
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
    return Components(
        simple,
        cells,
        grid_rows,
        grid_cols,
        first[adding],
        ends[adding],
        doc[adding],
        lone[adding],
        n_rows[adding],
        n_cols[adding],
    )
