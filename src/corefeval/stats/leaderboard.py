"""A leaderboard: many datasets (key and response pairs) scored under several variants, with the
macro average over datasets, the micro average over documents and, optionally, bootstrap intervals.

Each dataset's files are read once for all variants (:func:`corefeval.scoring.variants.score_variants`).
A cell is one metric's F1 of one dataset under one variant; the macro average is the mean of a
column's dataset cells; the micro average is the score of the summed counts of every document of
every dataset (the score of the datasets' documents taken as one corpus).

Intervals are percentile bootstrap intervals over documents: each dataset's documents are
resampled on their own; the macro average's interval comes from averaging, resample by resample,
the datasets' resampled scores (each dataset resampled independently); the micro average's from
resampling all documents together. The same draws serve every variant.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core.diagnostics import Diagnostic, UsageError
from ..core.options import Options
from ..scoring.presets import Variant
from ..scoring.results import ScoreResult, merge
from .batch_scores import score_arrays
from .confidence import Interval, check_settings
from .resampling import bootstrap_draws, resampled_totals

#: The names of the two average rows.
MACRO, MICRO = "macro avg", "micro avg"


@dataclass(frozen=True)
class Dataset:
    """A named pair of files to score: the key and a system's response."""

    name: str
    key: str
    response: str


@dataclass(frozen=True)
class Bootstrap:
    """How intervals were computed: resamples, coverage and seed."""

    resamples: int
    level: float
    seed: int

    def settings(self) -> str:
        return f"bootstrap:{self.resamples}|level:{self.level:g}|seed:{self.seed}"


@dataclass
class Leaderboard:
    """``results[i][j]``: dataset ``i`` under variant ``j``; ``intervals[row][j]`` when bootstrapped
    (rows: the datasets' names, then :data:`MACRO` and :data:`MICRO`)."""

    datasets: list[str]
    variants: tuple[Variant, ...]
    metric: str
    results: list[list[ScoreResult]]
    preset: str | None = None
    bootstrap: Bootstrap | None = None
    intervals: dict[str, list[Interval]] | None = None
    warnings: list[Diagnostic] = field(default_factory=list)

    @property
    def rows(self) -> list[str]:
        """Row names: each dataset, then the macro and micro averages."""
        return [*self.datasets, MACRO, MICRO]

    def cell(self, dataset: int, variant: int) -> float:
        """The metric's F1 of one dataset under one variant."""
        return float(self.results[dataset][variant].corpus[self.metric].f1)

    def macro(self, variant: int) -> float:
        """The mean over datasets of a variant's cells."""
        return float(np.mean([self.cell(i, variant) for i in range(len(self.datasets))]))

    def micro(self, variant: int) -> float:
        """A variant's score of every document of every dataset counted together."""
        pooled = merge([r[variant] for r in self.results])
        return float(pooled.corpus[self.metric].f1)

    def value(self, row: int, variant: int) -> float:
        """The number in row ``row`` (datasets, then macro, then micro) and column ``variant``."""
        if row < len(self.datasets):
            return self.cell(row, variant)
        return self.macro(variant) if row == len(self.datasets) else self.micro(variant)

    def documents(self, dataset: int) -> int:
        return len(self.results[dataset][0].document_names)

    @property
    def signature(self) -> str:
        """Everything that can change a number: version, variants, metric, BLANC variant, the
        datasets and their key digests, and the bootstrap's settings."""
        from .._version import version

        settings = self.results[0][0].settings
        digest = hashlib.sha256()
        for name, row in zip(self.datasets, self.results, strict=True):
            digest.update(name.encode() + b"\0" + b"".join(row[0].document_digests))
        k, r = settings.key_format, settings.response_format
        parts = [f"corefeval:{version()}"]
        if self.preset:
            parts.append(f"preset:{self.preset}")
        parts += [
            "variants:" + ",".join(_described(v) for v in self.variants),
            f"metric:{self.metric}",
            f"blanc:{settings.blanc}",
            f"repeats:{settings.repeats}",
        ]
        if settings.heads != "first" or "corefud" in (k, r):  # heads of CorefUD mentions without a head field
            parts.append(f"heads:{settings.heads}")
        parts += [
            f"datasets:{len(self.datasets)}",
            f"docs:{sum(self.documents(i) for i in range(len(self.datasets)))}",
            f"key:{digest.hexdigest()[:8]}",
            f"fmt:{k if k == r else f'{k}+{r}'}",
        ]
        if self.bootstrap is not None:
            parts.append(self.bootstrap.settings())
        return "|".join(parts)


def _described(v: Variant) -> str:
    """``name=match/singletons/zeros``, or the name alone when it says just that."""
    modes = f"{v.match}/{v.singletons}/{v.zeros}"
    return modes if v.name == modes else f"{v.name}={modes}"


def check_datasets(datasets: Sequence[Dataset]) -> None:
    """Refuse no dataset, or a name given twice."""
    if not datasets:
        raise UsageError("no dataset to score (give --pair, --manifest, or --keys and --responses)")
    seen: set[str] = set()
    for d in datasets:
        if d.name in seen:
            raise UsageError(f"dataset '{d.name}' is named twice")
        seen.add(d.name)


def leaderboard(
    datasets: Sequence[Dataset],
    variants: Sequence[Variant],
    base: Options | None = None,
    metric: str = "conll",
    preset: str | None = None,
    bootstrap: Bootstrap | None = None,
) -> Leaderboard:
    """Score every dataset under every variant (``base`` gives the other options, such as BLANC's
    variant and the input formats); ``bootstrap`` adds intervals to every cell and average."""
    from ..core.registry import resolve
    from ..scoring.variants import score_variants

    check_datasets(datasets)
    if not variants:
        raise UsageError("no variant to score")
    names = resolve((metric,))
    if len(names) != 1:
        raise UsageError(f"choose one metric for the leaderboard, not '{metric}'")
    metric = names[0]
    if bootstrap is not None:
        check_settings(bootstrap.resamples, bootstrap.level)
    base = base if base is not None else Options()
    options = [v.options(Options.make(base, (metric,), preset=preset)) for v in variants]
    results = [score_variants(d.key, d.response, options) for d in datasets]
    warnings: list[Diagnostic] = []
    for row in results:
        for r in row:
            warnings += [w for w in r.warnings if w not in warnings]
    board = Leaderboard([d.name for d in datasets], tuple(variants), metric, results, preset, bootstrap, None, warnings)
    if bootstrap is not None:
        board.intervals = intervals(board, bootstrap)
    return board


def _f1(result: ScoreResult, metric: str, draws: np.ndarray) -> np.ndarray:
    """The metric's F1 on every resample of ``result``'s documents that ``draws`` gives."""
    totals = resampled_totals(draws, result.counts)
    return score_arrays(result.metric_objects, result.columns, (metric,), totals)[metric].f1


def _interval(estimate: float, values: np.ndarray, level: float) -> Interval:
    alpha = 1 - level
    low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2])
    return Interval(estimate, float(low), float(high), float(values.mean()))


def intervals(board: Leaderboard, bootstrap: Bootstrap) -> dict[str, list[Interval]]:
    """Each row's interval in each column (see the module's description of the method)."""
    n = len(board.datasets)
    generators = [np.random.default_rng(s) for s in np.random.SeedSequence(bootstrap.seed).spawn(n + 1)]
    draws = [bootstrap_draws(generators[i], board.documents(i), bootstrap.resamples) for i in range(n)]
    sizes = [board.documents(i) for i in range(n)]
    pooled_draws = bootstrap_draws(generators[n], sum(sizes), bootstrap.resamples)
    out: dict[str, list[Interval]] = {name: [] for name in board.rows}
    for j in range(len(board.variants)):
        per_dataset = [_f1(board.results[i][j], board.metric, draws[i]) for i in range(n)]
        for i, values in enumerate(per_dataset):
            out[board.datasets[i]].append(_interval(board.cell(i, j), values, bootstrap.level))
        out[MACRO].append(_interval(board.macro(j), np.mean(per_dataset, axis=0), bootstrap.level))
        pooled = merge([board.results[i][j] for i in range(n)])
        out[MICRO].append(_interval(board.micro(j), _f1(pooled, board.metric, pooled_draws), bootstrap.level))
    return out
