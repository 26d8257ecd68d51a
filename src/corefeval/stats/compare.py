"""Compare systems with a baseline on one key: scores, intervals and paired significance tests.

>>> import corefeval
>>> c = corefeval.stats.compare("key.conll", "baseline.conll", ["system.conll"])   # doctest: +SKIP
>>> c.systems[1].tests.approximate_randomization["conll"]                  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.diagnostics import Diagnostic, UsageError
from ..core.model import Corpus
from ..core.options import Options
from ..core.warning_summary import warn
from ..scoring.results import ScoreResult
from .batch_scores import ScoreArrays
from .confidence import (
    DEFAULT_LEVEL,
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    ConfidenceIntervals,
    bootstrap_samples,
    check_settings,
    intervals_from,
)
from .holm import holm as holm_adjust
from .paired import PairedTests, approximate_randomization, observed_differences, paired_bootstrap
from .resampling import bootstrap_draws, streams, swap_masks
from .sample_size import sample_size_warnings
from .strata import choose_strata, pool_files

SCHEMA = "corefeval.compare/1"
DEFAULT_ROUNDS = 10000

Source = str | Corpus
Files = Source | Sequence[Source]


@dataclass
class SystemComparison:
    """One system: its scores, its intervals and (except for the baseline) its tests."""

    name: str
    result: ScoreResult
    confidence: ConfidenceIntervals
    tests: PairedTests | None = None
    adjusted: PairedTests | None = None

    @property
    def is_baseline(self) -> bool:
        return self.tests is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "response": self.result.response_path,
            "baseline": self.is_baseline,
            "scores": {k: v.to_dict() for k, v in self.result.corpus.items()},
            "confidence": {
                m: {"low": iv["f1"].low, "high": iv["f1"].high, "half_width": iv["f1"].half_width}
                for m, iv in self.confidence.intervals.items()
            },
            "paired_bootstrap": self.tests.paired_bootstrap if self.tests else None,
            "approximate_randomization": self.tests.approximate_randomization if self.tests else None,
            "paired_bootstrap_wins": self.tests.wins if self.tests else None,
            "difference": ({m: iv.to_dict() for m, iv in self.tests.difference.items()} if self.tests else None),
        }
        if self.adjusted is not None:
            out["paired_bootstrap_holm"] = self.adjusted.paired_bootstrap
            out["approximate_randomization_holm"] = self.adjusted.approximate_randomization
        return out


@dataclass
class Comparison:
    """Systems against a baseline (first in ``systems``), with everything needed to reproduce it."""

    systems: list[SystemComparison]
    resamples: int
    rounds: int
    seed: int
    level: float
    strata: str | None
    correction: str
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def metrics(self) -> tuple[str, ...]:
        return self.systems[0].result.settings.metrics

    @property
    def signature(self) -> str:
        parts = [
            self.systems[0].result.signature,
            f"systems:{len(self.systems)}",
            f"bootstrap:{self.resamples}",
            f"rounds:{self.rounds}",
            f"level:{self.level:g}",
            f"seed:{self.seed}",
        ]
        if self.strata:
            parts.append(f"strata:{self.strata}")
        if self.correction != "none":
            parts.append(f"correction:{self.correction}")
        return "|".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The ``corefeval.compare/1`` JSON shape (each system's ``scores`` as in ``corefeval.score/1``)."""
        return {
            "schema": SCHEMA,
            "signature": self.signature,
            "key": self.systems[0].result.key_path,
            "documents": len(self.systems[0].result.document_names),
            "settings": {
                "resamples": self.resamples,
                "rounds": self.rounds,
                "seed": self.seed,
                "level": self.level,
                "strata": self.strata,
                "correction": self.correction,
            },
            "systems": [s.to_dict() for s in self.systems],
            "warnings": [str(w) for w in self.warnings],
        }


def _as_list(files: Files) -> list[Source]:
    return [files] if isinstance(files, (str, Corpus)) else list(files)


def _score_files(keys: list[Source], responses: list[Source], options: Options) -> list[ScoreResult]:
    from ..scoring.pipeline import score_with

    if len(responses) != len(keys):
        raise UsageError(f"{len(keys)} key files but {len(responses)} response files")
    return [score_with(k, r, options) for k, r in zip(keys, responses, strict=True)]


def compare(
    key: Files,
    baseline: Files,
    systems: Sequence[Files],
    metrics: Sequence[str] | None = None,
    *,
    options: Options | None = None,
    names: Sequence[str] | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SEED,
    level: float = DEFAULT_LEVEL,
    holm: bool = False,
    strata_pattern: str | None = None,
    strata_by_file: bool = False,
    blanc: str | None = None,
    pad_key_mentions: bool | None = None,
) -> Comparison:
    """Score ``baseline`` and each of ``systems`` against ``key`` and test each system against the baseline.

    ``key``, ``baseline`` and every system are a path or corpus, or a list of them (one per dataset,
    paired by position; pooled into one corpus). ``strata_by_file`` resamples each file's documents
    separately; ``strata_pattern`` groups documents by a regex on their names. Every system is
    scored with ``options`` (:class:`~corefeval.core.options.Options`); ``metrics``, ``blanc`` and
    ``pad_key_mentions`` are a convenience put over them, as in :func:`corefeval.score`.
    """
    check_settings(resamples, level)
    if rounds < 1:
        raise UsageError(f"the number of randomisation rounds must be positive, not {rounds}")
    if not systems:
        raise UsageError("give at least one system to compare with the baseline")
    keys = _as_list(key)
    opts = Options.make(options, metrics, blanc=blanc, pad_key=pad_key_mentions)
    runs = [_score_files(keys, _as_list(s), opts) for s in (baseline, *systems)]
    results = [pool_files(run) for run in runs]
    labels = names if names is not None else [str(r.response_path) for r in results]
    if len(labels) != len(results):
        raise UsageError(f"{len(labels)} names for {len(results)} systems (baseline included)")

    n = len(results[0].document_names)
    strata, strata_name = choose_strata(runs[0], strata_pattern, strata_by_file)

    boot_rng, swap_rng = streams(seed)
    draws = bootstrap_draws(boot_rng, n, resamples, strata)
    masks = swap_masks(swap_rng, n, rounds)
    samples = [bootstrap_samples(r, draws) for r in results]
    out: list[SystemComparison] = []
    for i, (label, result, sample) in enumerate(zip(labels, results, samples, strict=True)):
        intervals = intervals_from(result.corpus, sample, level)
        confidence = ConfidenceIntervals(intervals, level, resamples, seed, n, strata_name)
        tests = _tests(results[0], result, samples[0], sample, masks, level) if i else None
        out.append(SystemComparison(label, result, confidence, tests))
    if holm:
        adjusted = _holm_adjusted([s.tests for s in out[1:] if s.tests is not None])
        for s, a in zip(out[1:], adjusted, strict=True):
            s.adjusted = a
    warnings = [w for r in results for w in r.warnings]
    warnings += sample_size_warnings(results[0].key_path, n, strata)
    warn(warnings)
    return Comparison(out, resamples, rounds, seed, level, strata_name, "holm" if holm else "none", warnings)


def _tests(
    baseline: ScoreResult,
    system: ScoreResult,
    baseline_sample: dict[str, ScoreArrays],
    sample: dict[str, ScoreArrays],
    masks: np.ndarray,
    level: float,
) -> PairedTests:
    """Both tests of one system against the baseline, on shared draws."""
    observed = observed_differences(baseline, system)
    pb, wins, difference = paired_bootstrap(baseline_sample, sample, observed, level)
    if len(baseline.document_names) < 2:  # nothing to resample: no evidence, whatever the centring says
        pb = dict.fromkeys(pb, 1.0)
    return PairedTests(pb, approximate_randomization(baseline, system, masks, observed), wins, difference)


def _holm_adjusted(tests: list[PairedTests]) -> list[PairedTests]:
    """The same tests with each metric's p-values Holm-adjusted across systems."""

    def adjust(attr: str) -> list[dict[str, float]]:
        by_metric = {m: holm_adjust([getattr(t, attr)[m] for t in tests]) for m in getattr(tests[0], attr)}
        return [{m: ps[i] for m, ps in by_metric.items()} for i in range(len(tests))]

    pairs = zip(adjust("paired_bootstrap"), adjust("approximate_randomization"), tests, strict=True)
    return [PairedTests(pb, ar, t.wins, t.difference) for pb, ar, t in pairs]
