"""Each metric's per-document counts from the cells of many documents, and the rows they make."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..alignment import align
from ..metrics.base import Metric
from .ceaf import ceafe_columns, ceafm_columns
from .cells import Cells, IntArray, Pair, Stacked, build_cells, stacked_cells
from .sums import segment_sums


def _pairs(n: np.ndarray) -> np.ndarray:
    return n * (n - 1) / 2


def _mentions(c: Cells) -> list[np.ndarray]:
    return [c.matched, c.key_mentions, c.matched, c.response_mentions]


def _muc(c: Cells) -> list[np.ndarray]:
    correct = c.per_doc(c.doc, c.counts.astype(float)) - c.per_doc(c.doc)
    key_links = c.key_mentions - c.per_doc(c.key_doc)
    response_links = c.response_mentions - c.per_doc(c.response_doc)
    return [correct, key_links, correct, response_links]


def _bcubed(c: Cells) -> list[np.ndarray]:
    sq = c.counts.astype(float) ** 2
    recall = segment_sums(sq / c.key_sizes[c.rows], c.doc, c.n_docs)
    precision = segment_sums(sq / c.response_sizes[c.cols], c.doc, c.n_docs)
    return [recall, c.key_mentions, precision, c.response_mentions]


def _blanc(c: Cells) -> list[np.ndarray]:
    n = c.counts.astype(float)
    key_links = c.per_doc(c.key_doc, _pairs(c.key_sizes.astype(float)))
    response_links = c.per_doc(c.response_doc, _pairs(c.response_sizes.astype(float)))
    both_links = c.per_doc(c.doc, _pairs(n))
    key_non = _pairs(c.key_mentions.astype(float)) - key_links
    response_non = _pairs(c.response_mentions.astype(float)) - response_links
    row_sums = np.bincount(c.rows, weights=n, minlength=c.key_sizes.size)
    col_sums = np.bincount(c.cols, weights=n, minlength=c.response_sizes.size)
    both_non = (
        _pairs(c.per_doc(c.doc, n))
        - c.per_doc(c.key_doc, _pairs(row_sums))
        - c.per_doc(c.response_doc, _pairs(col_sums))
        + both_links
    )
    unshared = c.key_mentions + c.response_mentions - 2 * c.matched
    return [both_links, key_links, both_links, response_links, both_non, key_non, both_non, response_non, unshared]


def _lea_side(c: Cells, sizes: IntArray, entity_doc: IntArray, index: IntArray) -> np.ndarray:
    """sum over one side's entities of |E| * resolution(E), per document (as metrics.lea._side)."""
    n = c.counts.astype(float)
    links_found = np.bincount(index, weights=n * (n - 1) / 2, minlength=sizes.size)
    s = sizes.astype(float)
    big = s > 1
    total = segment_sums(s[big] * links_found[big] / (s[big] * (s[big] - 1) / 2), entity_doc[big], c.n_docs)
    singles = (c.key_sizes[c.rows] == 1) & (c.response_sizes[c.cols] == 1) & (c.counts == 1)
    return total + c.per_doc(c.doc, singles.astype(float))


def _lea(c: Cells) -> list[np.ndarray]:
    recall = _lea_side(c, c.key_sizes, c.key_doc, c.rows)
    precision = _lea_side(c, c.response_sizes, c.response_doc, c.cols)
    return [recall, c.key_mentions, precision, c.response_mentions]


_COLUMNS = {
    "mentions": _mentions,
    "muc": _muc,
    "bcub": _bcubed,
    "ceafm": ceafm_columns,
    "ceafe": ceafe_columns,
    "blanc": _blanc,
    "lea": _lea,
}


def count_rows(pairs: Sequence[Pair], metrics: Sequence[Metric]) -> tuple[np.ndarray, np.ndarray]:
    """The count rows (``len(pairs)`` x the metrics' fields) of the documents this pass covers, and
    a mask of the others, whose rows are zeros and must be counted one by one."""
    return _rows(*build_cells(pairs), len(pairs), metrics)


def count_stacked(
    key: Stacked, response: Stacked, skip: np.ndarray, metrics: Sequence[Metric]
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`count_rows` of documents given stacked (``skip``: documents not to count)."""
    return _rows(*stacked_cells(key, response, skip), skip.size, metrics)


def _rows(cells: Cells, skip: np.ndarray, n: int, metrics: Sequence[Metric]) -> tuple[np.ndarray, np.ndarray]:
    width = sum(len(m.fields) for m in metrics)
    if skip.all():
        return np.zeros((n, width)), skip
    rows = np.zeros((n, width))
    j = 0
    for m in metrics:
        for column in _COLUMNS[m.name](cells):
            rows[:, j] = column
            j += 1
    rows[skip] = 0.0
    return rows, skip


def document_rows(pairs: Sequence[Pair], metrics: Sequence[Metric]) -> np.ndarray:
    """Every document's count row: the corpus-wide pass, and the per-document path where it must."""
    from ..scoring import document_counts

    rows, skip = count_rows(pairs, metrics)
    for i in np.flatnonzero(skip).tolist():
        rows[i] = document_counts(metrics, align(*pairs[i]))
    return rows
