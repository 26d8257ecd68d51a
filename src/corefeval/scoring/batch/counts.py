"""Count rows of many documents: stack them into cells, let each metric fill its columns."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from ...core.diagnostics import CountingError
from ...matching.alignment import Alignment, align
from ...matching.cells import Cells, Pair, Stacked, build_cells, stacked_cells
from ...metrics.base import Metric


def columns_into(rows: np.ndarray, cells: Cells, metrics: Sequence[Metric], at: np.ndarray | slice) -> None:
    """Put every metric's columns of ``cells`` side by side into ``rows[at]`` (one assignment: a
    fancy-indexed write per column costs more than the columns of a small document)."""
    columns = [c for m in metrics for c in m.columns(cells)]
    rows[at] = np.concatenate(columns).reshape(len(columns), cells.n_docs).T


def width(metrics: Sequence[Metric]) -> int:
    """The length of a count row."""
    return sum(len(m.fields) for m in metrics)


def count_rows(
    pairs: Sequence[Pair], metrics: Sequence[Metric], sides: tuple[Stacked, Stacked] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The count rows (``len(pairs)`` x the metrics' fields) of the documents one pass covers, and
    a mask of the others (a mention id repeats, or mentions are discontinuous), whose rows are
    zeros and must be counted one by one (``sides``: the pairs' documents stacked, if at hand)."""
    return _rows(*build_cells(pairs, sides), len(pairs), metrics)


def count_stacked(
    key: Stacked, response: Stacked, skip: np.ndarray, metrics: Sequence[Metric]
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`count_rows` of documents given stacked (``skip``: documents not to count)."""
    return _rows(*stacked_cells(key, response, skip), skip.size, metrics)


def _rows(cells: Cells, skip: np.ndarray, n: int, metrics: Sequence[Metric]) -> tuple[np.ndarray, np.ndarray]:
    rows = np.zeros((n, width(metrics)))
    if skip.all():
        return rows, skip
    columns_into(rows, cells, metrics, slice(None))
    rows[skip] = 0.0
    return rows, skip


def alignment_rows(
    metrics: Sequence[Metric], alignments: Sequence[Alignment], pairs: Sequence[Pair] | None = None
) -> np.ndarray:
    """The count rows of aligned documents: those without repeated ids as one stack of cells
    (``pairs``: the documents the alignments refer to), the others by each metric's
    :meth:`~corefeval.metrics.base.Metric.repeated_counts`."""
    rows = np.zeros((len(alignments), width(metrics)))
    plain = [i for i, a in enumerate(alignments) if not a.repeats]
    if plain:
        cells = Cells.of_alignments(
            [alignments[i] for i in plain], [pairs[i] for i in plain] if pairs is not None else None
        )
        columns_into(rows, cells, metrics, np.asarray(plain, dtype=np.int64))
    for i, a in enumerate(alignments):
        if a.repeats:
            pair = pairs[i] if pairs is not None else None
            check_chain_pairs(pair[0].name if pair is not None else "", a)
            rows[i] = [c for m in metrics for c in (m.counts(a, pair) if m.reads_mentions else m.repeated_counts(a))]
    return rows


#: The most pairs of a key and a response chain sharing a mention a document whose mentions repeat
#: may have: the metrics' literal definitions (CEAF's cells, B-cubed's shared counts) make one
#: entry per pair, and a mention held by many chains of each side makes every pair of them (100,000
#: chains holding one span on each side: ten billion).
CHAIN_PAIR_LIMIT = 4_000_000


def check_chain_pairs(document: str, alignment: Alignment) -> None:
    """A :class:`~corefeval.core.diagnostics.CountingError` for a document whose chains sharing a
    mention make more pairs than :data:`CHAIN_PAIR_LIMIT` (counted in time linear in the mentions)."""
    key, response = alignment.key_chains(), alignment.response_chains()
    holders = Counter(i for chain in response for i in set(chain))
    pairs = sum(holders.get(i, 0) for chain in key for i in set(chain))
    if pairs > CHAIN_PAIR_LIMIT:
        raise CountingError(
            document,
            f"a mention repeated in many of its {len(key):,} key and {len(response):,} response chains makes "
            f"{pairs:,} pairs of chains sharing a mention, past the limit of {CHAIN_PAIR_LIMIT:,} (the metrics' "
            "definitions compare every such pair)",
        )


def document_counts(metrics: Sequence[Metric], alignment: Alignment, pair: Pair | None = None) -> list[float]:
    """One document's count row: each metric's counts, concatenated."""
    rows = alignment_rows(metrics, [alignment], [pair] if pair is not None else None)
    return [float(x) for x in rows[0]]


def document_rows(pairs: Sequence[Pair], metrics: Sequence[Metric]) -> np.ndarray:
    """Every document's count row: the corpus-wide pass, and the per-document path where it must."""
    rows, skip = count_rows(pairs, metrics)
    alone = np.flatnonzero(skip).tolist()
    if alone:
        rows[alone] = alignment_rows(metrics, [align(*pairs[i]) for i in alone], [pairs[i] for i in alone])
    return rows
