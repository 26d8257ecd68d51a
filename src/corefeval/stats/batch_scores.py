"""Scores of many count rows at once: the vectorised twin of ``ScoreResult.scores_from``.

A resample is a row of summed counts; a thousand resamples are a matrix. These functions turn such
a matrix into recall, precision and F1 arrays with the same arithmetic, in the same order, as the
metric objects use on one row, so that a resample's score equals what re-scoring it would give.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..metrics import CONLL_PARTS
from ..metrics.base import Metric
from ..metrics.blanc import BLANC


@dataclass(frozen=True)
class ScoreArrays:
    """Recall, precision and F1 of many count rows (one value per row)."""

    recall: np.ndarray
    precision: np.ndarray
    f1: np.ndarray

    def field(self, name: str) -> np.ndarray:
        return {"recall": self.recall, "precision": self.precision, "f1": self.f1}[name]


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` element-wise, 0 where the denominator is 0."""
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)


def f1(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """The harmonic mean in the metric objects' evaluation order, 0 where both are 0."""
    total = precision + recall
    return np.divide((2 * precision) * recall, total, out=np.zeros(total.shape), where=total != 0)


def standard(counts: np.ndarray) -> ScoreArrays:
    """R = rn / rd, P = pn / pd from the four columns recall_num, recall_den, precision_num, precision_den."""
    r, p = ratio(counts[:, 0], counts[:, 1]), ratio(counts[:, 2], counts[:, 3])
    return ScoreArrays(r, p, f1(r, p))


def blanc_reference(counts: np.ndarray) -> ScoreArrays:
    """BLANC with the reference scorer's boundary cases (decided on the key link counts)."""
    c, n = standard(counts[:, 0:4]), standard(counts[:, 4:8])
    no_c, no_n = counts[:, 1] == 0, counts[:, 5] == 0

    def pick(cv: np.ndarray, nv: np.ndarray) -> np.ndarray:
        out = (cv + nv) / 2
        out = np.where(no_n, cv, out)
        out = np.where(no_c, nv, out)
        return np.where(no_c & no_n, 0.0, out)

    return ScoreArrays(pick(c.recall, n.recall), pick(c.precision, n.precision), pick(c.f1, n.f1))


def blanc_paper(counts: np.ndarray) -> ScoreArrays:
    """BLANC with the paper's boundary cases (key and response links; equal mention sets)."""
    c, n = standard(counts[:, 0:4]), standard(counts[:, 4:8])
    no_c = (counts[:, 1] == 0) & (counts[:, 3] == 0)
    no_n = (counts[:, 5] == 0) & (counts[:, 7] == 0)
    fc = ratio(2 * counts[:, 0], counts[:, 1] + counts[:, 3])
    fn = ratio(2 * counts[:, 4], counts[:, 5] + counts[:, 7])
    same = np.where(counts[:, 8] == 0, 1.0, 0.0)

    def pick(cv: np.ndarray, nv: np.ndarray, both: np.ndarray) -> np.ndarray:
        out = both
        out = np.where(no_n, cv, out)
        out = np.where(no_c, nv, out)
        return np.where(no_c & no_n, same, out)

    return ScoreArrays(pick(c.recall, n.recall, (c.recall + n.recall) / 2),
                       pick(c.precision, n.precision, (c.precision + n.precision) / 2),
                       pick(fc, fn, (fc + fn) / 2))


def metric_arrays(metric: Metric, counts: np.ndarray) -> ScoreArrays:
    """One metric's scores for every row of its own count columns."""
    if isinstance(metric, BLANC):
        return blanc_reference(counts) if metric.variant == "reference" else blanc_paper(counts)
    if type(metric).score is not Metric.score:
        raise NotImplementedError(f"no vectorised score for metric '{metric.name}'")
    return standard(counts)


def score_arrays(metric_objects: Sequence[Metric], columns: dict[str, slice], reported: Sequence[str],
                 totals: np.ndarray) -> dict[str, ScoreArrays]:
    """Scores of the ``reported`` metrics (``conll`` included) for every row of ``totals``.

    ``metric_objects`` and ``columns`` describe the count layout, as in a ``ScoreResult``.
    """
    totals = np.atleast_2d(np.asarray(totals, dtype=float))
    computed = {m.name: metric_arrays(m, totals[:, columns[m.name]]) for m in metric_objects}
    out = {name: computed[name] for name in reported if name in computed}
    if "conll" in reported:
        a, b, c = (computed[m].f1 for m in CONLL_PARTS)
        mean = (a + b + c) / 3
        out["conll"] = ScoreArrays(mean, mean, mean)
    return out
