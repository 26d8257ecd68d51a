"""Score a Universal Anaphora corpus with the UA scorer's numbers, document by document: the identity
metrics of the documents without split antecedents in one vectorised pass over all of them, the
others item by item (:func:`corefeval.metrics.ua_identity.identity_rows`); non-referring markables
and bridging by their definitions in :mod:`corefeval.anaphora.ua_scores`. Every count is additive,
so the corpus is the sum of its documents (equal to :func:`corefeval.anaphora.ua_scores.evaluate`
up to the order of float sums).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .anaphora.model import UADocument
from .anaphora.ua_metrics import IDENTITY_METRICS
from .anaphora.ua_scores import UAScores, corpus_scores, document_counts
from .anaphora.ua_sides import Options, pairs
from .metrics.ua_identity import COLUMNS, identity_rows


@dataclass(frozen=True)
class DocumentCounts:
    """The additive counts of every scored document (key order): per measure of
    :func:`~corefeval.anaphora.ua_scores.document_counts`, an array with a row per document."""

    names: list[str]
    counts: dict[str, np.ndarray]

    def total(self) -> dict[str, np.ndarray]:
        """The corpus's counts (none for an empty corpus)."""
        return {name: rows.sum(axis=0) for name, rows in self.counts.items()} if self.names else {}


def document_rows(
    keys: Iterable[UADocument], responses: Iterable[UADocument], options: Options | None = None
) -> DocumentCounts:
    """The counts of each document the key and the response share (see :class:`DocumentCounts`)."""
    options = options or Options()
    paired = pairs(keys, responses, options)
    rows, counted = identity_rows(paired, options.min_spans)
    per_document = []
    for i, pair in enumerate(paired):
        counts = counted.get(i)
        if counts is None:
            counts = document_counts(pair, metrics=())
            for name in IDENTITY_METRICS:
                at = COLUMNS[name]
                counts[name], counts[f"{name}-split"] = rows[i, at : at + 4], np.zeros(4)
        per_document.append(counts)
    names = list(per_document[0]) if per_document else []
    return DocumentCounts([p.name for p in paired], {n: np.array([c[n] for c in per_document]) for n in names})


def evaluate(
    keys: Iterable[UADocument],
    responses: Iterable[UADocument],
    options: Options | None = None,
    only_split_antecedents: bool = False,
) -> UAScores:
    """:func:`corefeval.anaphora.ua_scores.evaluate`, with the documents that allow it counted in one pass."""
    return corpus_scores(document_rows(keys, responses, options).total(), only_split_antecedents)
