"""Score a Universal Anaphora corpus with the UA scorer's numbers: the identity metrics of the
documents without split antecedents in one vectorised pass over all of them, the others item by item.

Without split antecedents every item weighs 1 and is a mention equal to another by its span, so
the UA scorer's MUC, B-cubed, CEAFe, CEAFm, LEA and BLANC of a document are corefeval's metrics
over the contingency cells of its entities (BLANC as its ``ua`` variant). The documents that do
not fit that (split antecedents on either side, minimum-span matching, a span in two entities of
one side) are counted by the literal definitions of :mod:`corefeval.anaphora.ua_scores`, as are
non-referring markables and bridging. Every count is additive, so the corpus is the sum of both
(equal to :func:`corefeval.anaphora.ua_scores.evaluate` up to the order of float sums).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .anaphora.model import UADocument
from .anaphora.ua_metrics import IDENTITY_METRICS
from .anaphora.ua_scores import UAScores, corpus_scores, document_counts
from .anaphora.ua_sides import Clusters, Options, Pair, has_splits, pairs
from .cells import Stacked, stacked_cells
from .metrics import BLANC, LEA, MUC, BCubed, CEAFe, CEAFm

#: The metrics of the vectorised pass, and where each UA identity metric's counts are in its row
#: (as ``recall_num, recall_den, precision_num, precision_den``).
_METRICS = (MUC(), BCubed(), CEAFe(), CEAFm(), LEA(), BLANC("ua"))
_COLUMNS = {"muc": 0, "bcub": 4, "ceafe": 8, "ceafm": 12, "lea": 16, "blancc": 20, "blancn": 24}


def _stacked(sides: list[Clusters]) -> Stacked:
    """The entities of one side of many documents, stacked (entities numbered per document)."""
    starts: list[int] = []
    ends: list[int] = []
    entities: list[int] = []
    lengths: list[int] = []
    for clusters in sides:
        before = len(starts)
        for e, cluster in enumerate(clusters):
            for m in cluster:
                starts.append(m.start)
                ends.append(m.end)
                entities.append(e)
        lengths.append(len(starts) - before)
    return Stacked(*(np.array(column, dtype=np.int64) for column in (starts, ends, entities, lengths)))


def vector_counts(plain: list[Pair]) -> tuple[np.ndarray, np.ndarray]:
    """The identity counts of documents without split antecedents, one row per document in
    :data:`_COLUMNS`' layout, and a mask of those the pass does not cover (a span in two entities
    of one side), whose rows are zeros."""
    key = _stacked([p.key.clusters for p in plain])
    response = _stacked([p.response.clusters for p in plain])
    cells, alone = stacked_cells(key, response, np.zeros(len(plain), dtype=bool))
    rows = np.stack([column for metric in _METRICS for column in metric.columns(cells)], axis=1)
    rows[alone] = 0.0
    return rows, alone


def evaluate(
    keys: Iterable[UADocument],
    responses: Iterable[UADocument],
    options: Options | None = None,
    only_split_antecedents: bool = False,
) -> UAScores:
    """:func:`corefeval.anaphora.ua_scores.evaluate`, with the documents that allow it counted in one pass."""
    options = options or Options()
    paired = pairs(keys, responses, options)
    plain = (
        []
        if options.min_spans
        else [p for p in paired if not (has_splits(p.key.clusters) or has_splits(p.response.clusters))]
    )
    total: dict[str, np.ndarray] = {}
    counted: set[int] = set()
    if plain:
        rows, alone = vector_counts(plain)
        summed = rows[~alone].sum(axis=0)
        for name, at in _COLUMNS.items():
            total[name], total[f"{name}-split"] = summed[at : at + 4], np.zeros(4)
        counted = {id(p) for p, skipped in zip(plain, alone.tolist()) if not skipped}
    for pair in paired:
        counts = document_counts(pair, metrics=() if id(pair) in counted else IDENTITY_METRICS)
        for name, c in counts.items():
            total[name] = total[name] + c if name in total else c
    return corpus_scores(total, only_split_antecedents)
