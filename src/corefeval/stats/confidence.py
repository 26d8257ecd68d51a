"""Percentile bootstrap confidence intervals over documents, for every metric and the CoNLL score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.diagnostics import Diagnostic, UsageError
from ..scoring.results import ScoreResult
from .batch_scores import ScoreArrays, score_arrays
from .resampling import bootstrap_draws, resampled_totals, streams
from .sample_size import sample_size_warnings

DEFAULT_SEED = 12345
DEFAULT_RESAMPLES = 1000
DEFAULT_LEVEL = 0.95
FIELDS = ("recall", "precision", "f1")


@dataclass(frozen=True)
class Interval:
    """A corpus score with the bootstrap's percentile interval and mean."""

    estimate: float
    low: float
    high: float
    mean: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_dict(self) -> dict[str, float]:
        return {
            "estimate": self.estimate,
            "low": self.low,
            "high": self.high,
            "half_width": self.half_width,
            "mean": self.mean,
        }


@dataclass(frozen=True)
class ConfidenceIntervals:
    """Intervals of one system: ``intervals[metric][field]`` (``conll`` has only ``f1``)."""

    intervals: dict[str, dict[str, Interval]]
    level: float
    resamples: int
    seed: int
    n_documents: int
    strata: str | None = None
    warnings: list[Diagnostic] = field(default_factory=list)

    def settings(self) -> str:
        """The resampling part of a signature."""
        parts = [f"bootstrap:{self.resamples}", f"level:{self.level:g}", f"seed:{self.seed}"]
        if self.strata:
            parts.append(f"strata:{self.strata}")
        return "|".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": "percentile bootstrap over documents",
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
            "documents": self.n_documents,
            "strata": self.strata,
            "metrics": {m: {f: iv.to_dict() for f, iv in fields.items()} for m, fields in self.intervals.items()},
            "warnings": [str(w) for w in self.warnings],
        }


def check_settings(resamples: int, level: float) -> None:
    if resamples < 1:
        raise UsageError(f"the number of resamples must be positive, not {resamples}")
    if not 0 < level < 1:
        raise UsageError(f"the confidence level must be between 0 and 1 (exclusive), not {level}")


def intervals_from(
    estimates: dict[str, Any], samples: dict[str, ScoreArrays], level: float
) -> dict[str, dict[str, Interval]]:
    """Percentile intervals of resampled scores around the corpus ``estimates`` (Score objects)."""
    alpha = 1 - level
    out: dict[str, dict[str, Interval]] = {}
    for metric, arrays in samples.items():
        fields = ("f1",) if metric == "conll" else FIELDS
        out[metric] = {}
        for name in fields:
            values = arrays.field(name)
            low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2])
            out[metric][name] = Interval(
                float(getattr(estimates[metric], name)), float(low), float(high), float(values.mean())
            )
    return out


def bootstrap_samples(result: ScoreResult, draws: np.ndarray) -> dict[str, ScoreArrays]:
    """Every reported metric's scores on every resample given by ``draws`` (document indices)."""
    totals = resampled_totals(draws, result.counts)
    return score_arrays(result.metric_objects, result.columns, result.settings.metrics, totals)


def confidence_intervals(
    result: ScoreResult,
    resamples: int = DEFAULT_RESAMPLES,
    level: float = DEFAULT_LEVEL,
    seed: int = DEFAULT_SEED,
    strata: Sequence[object] | None = None,
    strata_name: str | None = None,
) -> ConfidenceIntervals:
    """Percentile bootstrap over the documents of ``result`` (optionally within ``strata``)."""
    check_settings(resamples, level)
    n = len(result.document_names)
    rng, _ = streams(seed)
    draws = bootstrap_draws(rng, n, resamples, strata)
    samples = bootstrap_samples(result, draws)
    return ConfidenceIntervals(
        intervals_from(result.corpus, samples, level),
        level,
        resamples,
        seed,
        n,
        strata_name,
        sample_size_warnings(result.key_path, n, strata),
    )
