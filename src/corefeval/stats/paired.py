"""Paired significance tests of a system against a baseline on the same documents.

* Paired bootstrap (Koehn 2004): both systems are scored on the same resamples of documents. The
  p-value is two-sided and centred (the resampled differences shifted to mean 0 stand for the null
  hypothesis): p = (c + 1) / (n + 1), c = how many resampled differences lie at least as far from
  their mean as the observed difference lies from 0. ``wins`` is Koehn's own statistic, the share
  of resamples in which the system scores higher than the baseline.
* Approximate randomisation: each round swaps every document's counts between the two systems
  with probability 1/2; c = how many rounds give a difference at least as large (in absolute
  value) as the observed one; p = (c + 1) / (n + 1).

Differences within ``TIE`` of the observed one count as at least as large, so that rounds that
reproduce the observed difference up to rounding are not missed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.progress import progress
from ..scoring.results import ScoreResult
from .batch_scores import ScoreArrays, score_arrays
from .confidence import Interval
from .resampling import blocks, n_blocks

TIE = 1e-10


@dataclass(frozen=True)
class PairedTests:
    """p-values of one system against the baseline, per metric (F1; the CoNLL score)."""

    paired_bootstrap: dict[str, float]
    approximate_randomization: dict[str, float]
    wins: dict[str, float]
    difference: dict[str, Interval]


def observed_differences(baseline: ScoreResult, system: ScoreResult) -> dict[str, float]:
    """Corpus F1 of the system minus that of the baseline, per metric."""
    return {m: system.corpus[m].f1 - baseline.corpus[m].f1 for m in system.settings.metrics}


def p_value(extreme: int, total: int) -> float:
    return (extreme + 1) / (total + 1)


def paired_bootstrap(
    baseline: dict[str, ScoreArrays], system: dict[str, ScoreArrays], observed: dict[str, float], level: float
) -> tuple[dict[str, float], dict[str, float], dict[str, Interval]]:
    """p-values, win shares and percentile intervals of the F1 difference, from both systems'
    scores on the same bootstrap resamples."""
    pvalues: dict[str, float] = {}
    wins: dict[str, float] = {}
    intervals: dict[str, Interval] = {}
    alpha = 1 - level
    for metric, delta in observed.items():
        diffs = system[metric].f1 - baseline[metric].f1
        extreme = int(np.count_nonzero(np.abs(diffs - diffs.mean()) >= abs(delta) - TIE))
        pvalues[metric] = p_value(extreme, diffs.size)
        wins[metric] = float(np.count_nonzero(diffs > 0)) / diffs.size
        low, high = np.quantile(diffs, [alpha / 2, 1 - alpha / 2])
        intervals[metric] = Interval(delta, float(low), float(high), float(diffs.mean()))
    return pvalues, wins, intervals


def approximate_randomization(
    baseline: ScoreResult, system: ScoreResult, masks: np.ndarray, observed: dict[str, float]
) -> dict[str, float]:
    """p-values from rounds of per-document swaps (``masks``: rounds x documents, True = swap)."""
    diff = system.counts - baseline.counts
    base_total, system_total = baseline.counts.sum(axis=0), system.counts.sum(axis=0)
    extreme = dict.fromkeys(observed, 0)
    layout = (system.metric_objects, system.columns, system.settings.metrics)
    for b in progress(blocks(masks.shape[0]), "randomisation", n_blocks(masks.shape[0]), "block"):
        moved = masks[b].astype(float) @ diff
        base_scores = score_arrays(*layout, base_total + moved)
        system_scores = score_arrays(*layout, system_total - moved)
        for metric, delta in observed.items():
            d = system_scores[metric].f1 - base_scores[metric].f1
            extreme[metric] += int(np.count_nonzero(np.abs(d) >= abs(delta) - TIE))
    return {m: p_value(c, masks.shape[0]) for m, c in extreme.items()}
