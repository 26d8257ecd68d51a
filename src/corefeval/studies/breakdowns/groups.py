"""A breakdown: the groups of one grouping, each a scoring result of its own count rows.

Every group keeps one additive count row per document, so its score is the usual micro average of
its summed counts, its interval the usual bootstrap over documents, and the groups of a partition
add up, count for count, to the whole. A resample that draws no document holding a group (its
count rows all zero there) says nothing about that group and does not count for it; a group that
fewer than :data:`MIN_HOLDING` documents hold gets no interval, since every resample holding it
scores it the same.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...metrics.base import ConllScore, Metric
from ...scoring.results import ScoreResult
from ...stats.batch_scores import score_arrays
from ...stats.confidence import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    ConfidenceIntervals,
    check_settings,
    intervals_from,
)
from ...stats.resampling import bootstrap_draws, holding, resampled_totals, streams

SCHEMA = "corefeval.breakdown/1"
#: What each kind of grouping counts in a group.
UNITS = {"documents": "documents", "anaphors": "anaphors", "entities": "key entities"}
#: The fewest documents holding a group for an interval: the score of a group in one document is
#: a ratio of that document's counts, the same in every resample that draws it (any number of times).
MIN_HOLDING = 2


@dataclass
class GroupResult(ScoreResult):
    """The result of a mention or entity group, which reports the metrics it was counted for
    (``reported``: the anaphor-level score, or LEA and mention detection), not the run's."""

    reported: tuple[str, ...] = ()

    def scores_from(self, totals: np.ndarray) -> dict[str, Any]:
        computed = self.counted_scores(totals)
        return {name: computed[name] for name in self.reported}


@dataclass(frozen=True)
class GroupIntervals:
    """One group's intervals, from the ``held`` resamples (of ``drawn``) that draw a document holding
    the group; ``documents``: how many documents hold it. ``intervals`` is ``None`` for a group
    too small for one (held by fewer than :data:`MIN_HOLDING` documents)."""

    intervals: ConfidenceIntervals | None
    held: int
    drawn: int
    documents: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "intervals": None if self.intervals is None else self.intervals.to_dict()["metrics"],
            "resamples_holding": self.held,
            "documents_holding": self.documents,
        }


def group_intervals(
    result: ScoreResult, resamples: int = DEFAULT_RESAMPLES, level: float = DEFAULT_LEVEL, seed: int = DEFAULT_SEED
) -> GroupIntervals:
    """Percentile bootstrap intervals over the documents of one group's result, from the resamples
    that hold the group (see the module docstring)."""
    check_settings(resamples, level)
    n = len(result.document_names)
    draws = bootstrap_draws(streams(seed)[0], n, resamples, None)
    members = np.flatnonzero(result.counts.any(axis=1))
    held = holding(draws, members)
    n_held = int(held.sum())
    if members.size < MIN_HOLDING or not n_held:
        return GroupIntervals(None, n_held, resamples, int(members.size))
    totals = resampled_totals(draws[held], result.counts)
    reported = result.reported if isinstance(result, GroupResult) else result.settings.metrics
    samples = score_arrays(result.metric_objects, result.columns, reported, totals)
    found = ConfidenceIntervals(intervals_from(result.corpus, samples, level), level, n_held, seed, n)
    return GroupIntervals(found, n_held, resamples, int(members.size))


@dataclass(frozen=True)
class Breakdown:
    """The groups of one grouping (``kind``, e.g. ``genre`` or ``mention-type``), in order.

    ``unit`` says what a group holds (``documents``, ``anaphors`` or ``entities``) and ``sizes`` how
    many of them; ``intervals`` (optional) are each group's bootstrap intervals: document groups
    resample their own documents, mention and entity groups all documents of the corpus (and count
    only the resamples that hold the group).
    """

    kind: str
    unit: str
    labels: tuple[str, ...]
    results: tuple[ScoreResult, ...]
    sizes: tuple[int, ...]
    intervals: tuple[GroupIntervals, ...] | None = None

    def __getitem__(self, label: str) -> ScoreResult:
        return self.results[self.labels.index(label)]

    def totals(self) -> np.ndarray:
        """Each group's summed count row (groups x count columns)."""
        return np.stack([r.counts.sum(axis=0) for r in self.results]) if self.results else np.zeros((0, 0))

    def with_intervals(
        self, resamples: int = DEFAULT_RESAMPLES, level: float = DEFAULT_LEVEL, seed: int = DEFAULT_SEED
    ) -> Breakdown:
        """This breakdown with every group's percentile bootstrap intervals."""
        found = tuple(group_intervals(r, resamples, level, seed) for r in self.results)
        return replace(self, intervals=found)

    def records(self) -> list[dict[str, Any]]:
        """One record per group and metric: scores, counts and (with intervals) the F1 interval
        (``None`` for a group too small for one) and how many resamples and documents hold it."""
        out = []
        for i, (label, result, size) in enumerate(zip(self.labels, self.results, self.sizes)):
            for metric, s in result.corpus.items():
                rec: dict[str, Any] = {"grouping": self.kind, "group": label, self.unit: size, "metric": metric}
                if isinstance(s, ConllScore):
                    rec.update(recall=None, precision=None, f1=s.f1)
                else:
                    rec.update(s.to_dict())
                if self.intervals is not None:
                    rec.update(_interval_fields(self.intervals[i], metric))
                out.append(rec)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The ``corefeval.breakdown/1`` JSON shape."""
        out: dict[str, Any] = {"schema": SCHEMA, "grouping": self.kind, "unit": self.unit, "groups": []}
        for i, (label, result, size) in enumerate(zip(self.labels, self.results, self.sizes)):
            group: dict[str, Any] = {
                "group": label,
                self.unit: size,
                "scores": {k: v.to_dict() for k, v in result.corpus.items()},
            }
            if self.intervals is not None:
                group.update(self.intervals[i].to_dict())
            out["groups"].append(group)
        if self.results:
            out["signature"] = self.results[0].signature
        return out

    def to_frame(self) -> Any:
        """The records as a pandas DataFrame."""
        try:
            import pandas as pd
        except ImportError:
            from ...core.diagnostics import UsageError

            raise UsageError("to_frame needs pandas (pip install 'corefeval[analysis]')") from None
        return pd.DataFrame(self.records())


def _interval_fields(found: GroupIntervals, metric: str) -> dict[str, Any]:
    low = high = None
    if found.intervals is not None:
        iv = found.intervals.intervals[metric]["f1"]
        low, high = iv.low, iv.high
    return {"f1_low": low, "f1_high": high, "resamples_holding": found.held, "documents_holding": found.documents}


def group_results(
    base: ScoreResult, metrics: tuple[Metric, ...], counts: np.ndarray, reported: tuple[str, ...]
) -> tuple[ScoreResult, ...]:
    """One result per group from ``counts`` (groups x documents x count columns of ``metrics``),
    with the documents and settings of ``base`` and ``reported`` as its metrics."""
    return tuple(
        GroupResult(
            key_path=base.key_path,
            response_path=base.response_path,
            document_names=base.document_names,
            metric_objects=metrics,
            counts=counts[g],
            settings=base.settings,
            document_digests=base.document_digests,
            reported=reported,
        )
        for g in range(counts.shape[0])
    )
