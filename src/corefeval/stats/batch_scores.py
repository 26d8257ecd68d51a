"""Scores of many count rows at once, for resampling.

A resample is a row of summed counts; a thousand resamples are a matrix. Each metric's
``score_arrays`` turns such a matrix into recall, precision and F1 arrays; a single row's score is
the same computation, so a resample's score equals what re-scoring it would give.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics import CONLL_PARTS
from ..metrics.base import Metric, conll_mean


@dataclass(frozen=True)
class ScoreArrays:
    """Recall, precision and F1 of many count rows (one value per row)."""

    recall: np.ndarray
    precision: np.ndarray
    f1: np.ndarray

    def field(self, name: str) -> np.ndarray:
        return {"recall": self.recall, "precision": self.precision, "f1": self.f1}[name]


def metric_arrays(metric: Metric, counts: np.ndarray) -> ScoreArrays:
    """One metric's scores for every row of its own count columns."""
    return ScoreArrays(*metric.score_arrays(counts))


def score_arrays(
    metric_objects: Sequence[Metric], columns: dict[str, slice], reported: Sequence[str], totals: np.ndarray
) -> dict[str, ScoreArrays]:
    """Scores of the ``reported`` metrics (``conll`` included) for every row of ``totals``.

    ``metric_objects`` and ``columns`` describe the count layout, as in a ``ScoreResult``.
    """
    totals = np.atleast_2d(np.asarray(totals, dtype=float))
    computed = {m.name: metric_arrays(m, totals[:, columns[m.name]]) for m in metric_objects}
    out = {name: computed[name] for name in reported if name in computed}
    if "conll" in reported:
        mean = conll_mean([computed[m].f1 for m in CONLL_PARTS])
        out["conll"] = ScoreArrays(mean, mean, mean)
    return out
