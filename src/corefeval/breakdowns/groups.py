"""A breakdown: the groups of one grouping, each a scoring result of its own count rows.

Every group keeps one additive count row per document, so its score is the usual micro average of
its summed counts, its interval the usual bootstrap over documents, and the groups of a partition
add up, count for count, to the whole.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..metrics.base import ConllScore, Metric
from ..results import ScoreResult
from ..stats.batch_scores import score_arrays
from ..stats.confidence import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    ConfidenceIntervals,
    check_settings,
    intervals_from,
)
from ..stats.resampling import bootstrap_draws, resampled_totals, streams

SCHEMA = "corefeval.breakdown/1"
#: What each kind of grouping counts in a group.
UNITS = {"documents": "documents", "anaphors": "anaphors", "entities": "key entities"}


@dataclass
class GroupResult(ScoreResult):
    """The result of a mention or entity group, which reports the metrics it was counted for
    (``reported``: the anaphor-level score, or LEA and mention detection), not the run's."""

    reported: tuple[str, ...] = ()

    def scores_from(self, totals: np.ndarray) -> dict[str, Any]:
        computed = self.counted_scores(totals)
        return {name: computed[name] for name in self.reported}


def group_intervals(
    result: ScoreResult, resamples: int = DEFAULT_RESAMPLES, level: float = DEFAULT_LEVEL, seed: int = DEFAULT_SEED
) -> ConfidenceIntervals:
    """Percentile bootstrap intervals over the documents of one group's result."""
    check_settings(resamples, level)
    n = len(result.document_names)
    draws = bootstrap_draws(streams(seed)[0], n, resamples, None)
    totals = resampled_totals(draws, result.counts)
    reported = result.reported if isinstance(result, GroupResult) else result.settings.metrics
    samples = score_arrays(result.metric_objects, result.columns, reported, totals)
    return ConfidenceIntervals(intervals_from(result.corpus, samples, level), level, resamples, seed, n)


@dataclass(frozen=True)
class Breakdown:
    """The groups of one grouping (``kind``, e.g. ``genre`` or ``mention-type``), in order.

    ``unit`` says what a group holds (``documents``, ``anaphors`` or ``entities``) and ``sizes`` how
    many of them; ``intervals`` (optional) are each group's bootstrap intervals: document groups
    resample their own documents, mention and entity groups all documents of the corpus.
    """

    kind: str
    unit: str
    labels: tuple[str, ...]
    results: tuple[ScoreResult, ...]
    sizes: tuple[int, ...]
    intervals: tuple[ConfidenceIntervals, ...] | None = None

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
        """One record per group and metric: scores, counts and (with intervals) the F1 interval."""
        out = []
        for i, (label, result, size) in enumerate(zip(self.labels, self.results, self.sizes)):
            for metric, s in result.corpus.items():
                rec: dict[str, Any] = {"grouping": self.kind, "group": label, self.unit: size, "metric": metric}
                if isinstance(s, ConllScore):
                    rec.update(recall=None, precision=None, f1=s.f1)
                else:
                    rec.update(s.to_dict())
                if self.intervals is not None:
                    iv = self.intervals[i].intervals[metric]["f1"]
                    rec.update(f1_low=iv.low, f1_high=iv.high)
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
                group["intervals"] = self.intervals[i].to_dict()["metrics"]
            out["groups"].append(group)
        if self.results:
            out["signature"] = self.results[0].signature
        return out

    def to_frame(self) -> Any:
        """The records as a pandas DataFrame."""
        try:
            import pandas as pd
        except ImportError:
            from ..diagnostics import UsageError

            raise UsageError("to_frame needs pandas (pip install 'corefeval[analysis]')") from None
        return pd.DataFrame(self.records())


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
