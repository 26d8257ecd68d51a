"""A comparison of systems with a baseline: one row per system, one column per metric (F1).

Under each system, rows give the difference from the baseline and the p-values of both tests
(Holm-adjusted when the comparison was corrected).
"""

from __future__ import annotations

from ..core.numbers import percent
from ..core.registry import TITLES
from ..stats.compare import Comparison, SystemComparison
from .csv_out import Cell, csv_text
from .grid import documents, plural, render


def pvalue(p: float) -> str:
    return f"{p:.4f}"


def signed(x: float) -> str:
    return ("+" if x >= 0 else "-") + percent(abs(x))


def describe(c: Comparison) -> str:
    strata = f", stratified by {c.strata}" if c.strata else ""
    holm = "; p-values Holm-adjusted across systems" if c.correction == "holm" else ""
    n = len(c.systems[0].result.document_names)
    return (
        f"F1 ± half-width of the {100 * c.level:g}% bootstrap interval; {documents(n)}, "
        f"{plural(c.resamples, 'paired bootstrap resample')}{strata}, {plural(c.rounds, 'randomisation round')}, "
        f"seed {c.seed}{holm}"
    )


def _system_rows(c: Comparison, s: SystemComparison) -> list[list[str]]:
    label = f"{s.name} (baseline)" if s.is_baseline else s.name
    out = [
        [label]
        + [
            f"{percent(s.result.corpus[m].f1)} ± {percent(s.confidence.intervals[m]['f1'].half_width)}"
            for m in c.metrics
        ]
    ]
    if s.tests is None:
        return out
    tests = s.adjusted if s.adjusted is not None else s.tests
    suffix = " (Holm)" if s.adjusted is not None else ""
    out.append(["  Δ vs baseline"] + [signed(s.tests.difference[m].estimate) for m in c.metrics])
    out.append([f"  p paired bootstrap{suffix}"] + [pvalue(tests.paired_bootstrap[m]) for m in c.metrics])
    out.append([f"  p approx. randomisation{suffix}"] + [pvalue(tests.approximate_randomization[m]) for m in c.metrics])
    return out


def table(c: Comparison, fmt: str) -> str:
    """The comparison in ``fmt``: text, markdown or latex."""
    header = ["system"] + [TITLES[m] for m in c.metrics]
    rows = [row for s in c.systems for row in _system_rows(c, s)]
    text = render(fmt, header, rows, describe(c))
    return text + (
        f"\nsignature: {c.signature}\n"
        if fmt == "text"
        else f"\n% signature: {c.signature}\n"
        if fmt == "latex"
        else f"\nsignature: `{c.signature}`\n"
    )


CSV_HEADER = [
    "system",
    "baseline",
    "metric",
    "recall",
    "precision",
    "f1",
    "f1_low",
    "f1_high",
    "difference",
    "difference_low",
    "difference_high",
    "p_paired_bootstrap",
    "p_approximate_randomization",
    "p_paired_bootstrap_holm",
    "p_approximate_randomization_holm",
    "paired_bootstrap_wins",
]


def csv_table(c: Comparison) -> str:
    """One row per (system, metric), fractions at full precision; test columns empty for the
    baseline; the comparison's signature on a first ``# signature:`` line."""
    rows: list[list[Cell]] = []
    for s in c.systems:
        for m in c.metrics:
            score = s.result.corpus[m]
            iv = s.confidence.intervals[m]["f1"]
            rp: list[Cell] = [None, None] if m == "conll" else [score.recall, score.precision]
            tests: list[Cell] = [None] * 8
            if s.tests is not None:
                d = s.tests.difference[m]
                adj = s.adjusted
                tests = [
                    d.estimate,
                    d.low,
                    d.high,
                    s.tests.paired_bootstrap[m],
                    s.tests.approximate_randomization[m],
                    adj.paired_bootstrap[m] if adj else None,
                    adj.approximate_randomization[m] if adj else None,
                    s.tests.wins[m],
                ]
            rows.append([s.name, s.is_baseline, m, *rp, score.f1, iv.low, iv.high, *tests])
    return csv_text(CSV_HEADER, rows, c.signature)
