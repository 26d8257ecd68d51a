"""Score a Universal Anaphora corpus with the UA scorer's numbers, document by document: the identity
metrics of the documents without split antecedents in one vectorised pass over all of them, the
others item by item (:func:`corefeval.metrics.ua_identity.identity_rows`); non-referring markables
and bridging by their definitions in :mod:`corefeval.metrics.ua.scores`. Every count is additive,
so the corpus is the sum of its documents (equal to :func:`corefeval.metrics.ua.scores.literal_scores`
up to the order of float sums).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..anaphora.model import UADocument
from ..anaphora.ua_sides import UASettings
from ..anaphora.ua_spans import spans_pairs
from ..metrics.base import ConllScore, conll_mean
from ..metrics.ua.identity import IDENTITY_METRICS
from ..metrics.ua.scores import BRIDGING_FORMS, UAScores, corpus_scores, document_counts
from ..metrics.ua_identity import COLUMNS, identity_rows
from ..readers.collector import collector_paused
from .results import ScoreResult


@dataclass(frozen=True, eq=False)
class DocumentCounts:
    """The additive counts of every scored document (key order): per measure of
    :func:`~corefeval.metrics.ua.scores.document_counts`, an array with a row per document."""

    names: list[str]
    counts: dict[str, np.ndarray]

    def total(self) -> dict[str, np.ndarray]:
        """The corpus's counts (none for an empty corpus)."""
        return {name: rows.sum(axis=0) for name, rows in self.counts.items()} if self.names else {}


def document_rows(
    keys: Iterable[UADocument], responses: Iterable[UADocument], options: UASettings | None = None
) -> DocumentCounts:
    """The counts of each document the key and the response share (see :class:`DocumentCounts`)."""
    options = options or UASettings()
    with collector_paused():  # many small acyclic objects (see corefeval.readers.collector)
        paired = spans_pairs(keys, responses, options)
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


def corpus_scores_of(
    keys: Iterable[UADocument],
    responses: Iterable[UADocument],
    options: UASettings | None = None,
    only_split_antecedents: bool = False,
) -> UAScores:
    """:func:`corefeval.metrics.ua.scores.literal_scores`, with the documents that allow it counted in one pass."""
    return corpus_scores(document_rows(keys, responses, options).total(), only_split_antecedents)


#: The metric (as ``score`` names it) of each measure of ``corefeval anaphora``.
METRIC_NAMES = {
    "lea": "ua-lea",
    "muc": "ua-muc",
    "bcub": "ua-bcub",
    "ceafe": "ua-ceafe",
    "ceafm": "ua-ceafm",
    "blanc": "ua-blanc",
    "non-referring": "non-referring",
    "bridging-ar": "bridging-ar",
    "bridging-fbm": "bridging-fbm",
    "bridging-fbe": "bridging-fbe",
}
_CONLL_PARTS = ("ua-muc", "ua-bcub", "ua-ceafe")


@dataclass(eq=False)
class UAScoreResult(ScoreResult):
    """A :class:`~corefeval.scoring.results.ScoreResult` of the UA measures, for the reporters of ``score``
    (JSON, CSV): its signature is the one ``corefeval anaphora`` prints, and ``conll`` is the mean
    F1 of the UA scorer's MUC, B-cubed and CEAFe."""

    ua_signature: str = ""

    @property
    def signature(self) -> str:
        """The signature ``corefeval anaphora`` prints (its setting, not ``score``'s options)."""
        return self.ua_signature

    def scores_from(self, totals: np.ndarray) -> dict[str, Any]:
        """The measures' scores from one row of counts, and ``conll`` when its three parts are there."""
        computed: dict[str, Any] = self.counted_scores(totals)
        out = {name: computed[name] for name in self.settings.metrics if name in computed}
        if all(m in computed for m in _CONLL_PARTS):
            out["conll"] = ConllScore(conll_mean([computed[m].f1 for m in _CONLL_PARTS]))
        return out


def _metric_rows(counts: DocumentCounts, name: str) -> np.ndarray:
    """A metric's fields (see :mod:`corefeval.metrics.ua_identity` and
    :mod:`corefeval.metrics.anaphora_layers`), a row per document."""
    n = len(counts.names)
    if name == "ua-blanc":
        return np.hstack([counts.counts["blancc"], counts.counts["blancn"], np.zeros((n, 1))])
    if name.startswith("ua-"):
        return counts.counts[name[3:]]
    if name == "non-referring":
        return counts.counts[name]
    tp, fn, fp = counts.counts["bridging"].reshape(n, 3, 3)[:, BRIDGING_FORMS.index(name), :].T
    return np.stack([tp, tp + fn, tp, tp + fp], axis=1)


def score_result(
    counts: DocumentCounts, measures: Sequence[str], options: UASettings, paths: tuple[str, str], signature: str
) -> UAScoreResult:
    """``counts`` as a result of the reporters of ``score``: the metrics of ``measures`` (the
    names of ``corefeval anaphora``, :data:`METRIC_NAMES`) in the setting ``options``."""
    from ..core.options import Options as RunOptions
    from ..metrics import build

    names = [METRIC_NAMES[m] for m in measures]
    metrics = tuple(build(name, ua=options) for name in names)
    n = len(counts.names)
    rows = [_metric_rows(counts, m.name) if n else np.zeros((0, len(m.fields))) for m in metrics]
    return UAScoreResult(
        key_path=paths[0],
        response_path=paths[1],
        document_names=counts.names,
        metric_objects=metrics,
        counts=np.hstack(rows) if rows else np.zeros((n, 0)),
        settings=RunOptions(metrics=tuple(names)),
        document_digests=[],
        ua_signature=signature,
    )


def __getattr__(name: str) -> object:
    """``evaluate``, this function's name until 0.3: a deprecated alias of :func:`corpus_scores_of`."""
    if name == "evaluate":
        import warnings

        warnings.warn("corefeval.scoring.ua_corpus.evaluate is now corpus_scores_of", DeprecationWarning, stacklevel=2)
        return corpus_scores_of
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
