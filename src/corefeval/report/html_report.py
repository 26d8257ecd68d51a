"""One static, self-contained HTML report of systems against a key (formatting only).

Scores with intervals, paired tests against the first system, each breakdown as a table of F1 by
group and system and (two groups or more, matplotlib installed) as bars with interval whiskers and a
heat map (:mod:`corefeval.report.charts`), the error counts with links to each system's error view,
and the signature.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import numpy as np

from ..core.numbers import percent
from ..core.registry import TITLES
from ..scoring.results import ScoreResult
from ..stats.confidence import ConfidenceIntervals
from ..studies.breakdowns import Breakdown
from ..studies.breakdowns.entities import UNTYPED
from ..studies.breakdowns.groups import MIN_HOLDING

_CSS = """
body{font-family:system-ui,sans-serif;margin:1.2em;color:#222;background:#fff;max-width:1100px}
h1{font-size:1.5em}h2{font-size:1.2em;border-top:2px solid #ccc;padding-top:.5em;margin-top:1.5em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right}
th:first-child,td:first-child{text-align:left}.sig{font-family:monospace;font-size:.85em;word-break:break-all}
.charts{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.chart svg{max-width:100%;height:auto}
caption{text-align:left;font-weight:bold}
"""
#: The metric a chart shows for each kind of group.
HEADLINE = {"anaphors": "anaphors", "entities": "lea"}


@dataclass(frozen=True)
class System:
    """One response in the report: its name, result, intervals, error counts and error view."""

    name: str
    result: ScoreResult
    intervals: ConfidenceIntervals
    errors: dict[str, int] | None = None
    error_view: str | None = None


@dataclass(frozen=True)
class Tests:
    """Paired tests of one system against the first: the F1 difference and p-values per metric."""

    name: str
    difference: dict[str, float]
    paired_bootstrap: dict[str, float]
    approximate_randomization: dict[str, float]


def _title(metric: str) -> str:
    return TITLES.get(metric, metric.capitalize())


def _scores_table(systems: Sequence[System]) -> str:
    metrics = list(systems[0].result.corpus)
    head = "<tr><th>system</th>" + "".join(f"<th>{escape(_title(m))} F1</th>" for m in metrics) + "</tr>"
    rows = []
    for s in systems:
        cells = []
        for m in metrics:
            iv = s.intervals.intervals[m]["f1"]
            cells.append(
                f"<td>{percent(s.result.corpus[m].f1)} <small>[{percent(iv.low)}, {percent(iv.high)}]</small></td>"
            )
        rows.append(f"<tr><td>{escape(s.name)}</td>{''.join(cells)}</tr>")
    level = f"{100 * systems[0].intervals.level:g}%"
    return f'<table id="scores"><caption>F1 with {level} bootstrap intervals</caption>{head}{"".join(rows)}</table>'


def _tests_table(tests: Sequence[Tests], baseline: str) -> str:
    if not tests:
        return "<p>One system: no paired test.</p>"
    metrics = list(tests[0].difference)
    head = "<tr><th>system</th><th>test</th>" + "".join(f"<th>{escape(_title(m))}</th>" for m in metrics) + "</tr>"
    rows = []
    for t in tests:
        for label, values, fmt in (
            (f"&Delta; F1 vs {escape(baseline)}", t.difference, lambda x: f"{100 * x:+.2f}"),
            ("p paired bootstrap", t.paired_bootstrap, lambda x: f"{x:.4f}"),
            ("p approx. randomisation", t.approximate_randomization, lambda x: f"{x:.4f}"),
        ):
            cells = "".join(f"<td>{fmt(values[m])}</td>" for m in metrics)
            rows.append(f"<tr><td>{escape(t.name)}</td><td>{label}</td>{cells}</tr>")
    return f'<table id="tests">{head}{"".join(rows)}</table>'


def _errors_table(systems: Sequence[System]) -> str:
    shown = [s for s in systems if s.errors is not None]
    if not shown:
        return "<p>No error analysis in this report.</p>"
    types = list(shown[0].errors or {})
    head = "<tr><th>system</th>" + "".join(f"<th>{t}</th>" for t in types) + "<th>error view</th></tr>"
    rows = []
    for s in shown:
        counts = s.errors or {}
        link = f'<a href="{escape(s.error_view)}">open</a>' if s.error_view else ""
        cells = "".join(
            f'<td><a href="{escape(s.error_view)}">{counts[t]}</a></td>' if s.error_view else f"<td>{counts[t]}</td>"
            for t in types
        )
        rows.append(f"<tr><td>{escape(s.name)}</td>{cells}<td>{link}</td></tr>")
    return f'<table id="errors">{head}{"".join(rows)}</table>'


def headline(b: Breakdown) -> str:
    """The metric charted for a breakdown: CoNLL (else the first metric) for documents."""
    if b.unit in HEADLINE:
        return HEADLINE[b.unit]
    reported = list(b.results[0].corpus) if b.results else []
    return "conll" if "conll" in reported else reported[0]


def charted(per_system: Sequence[Breakdown]) -> tuple[str, str]:
    """The metric and the field a breakdown is shown by: the F1 of :func:`headline`, but the recall
    by entity type when no response has entity types (all their entities are then ``(untyped)``,
    and every type's precision is 0)."""
    metric = headline(per_system[0])
    untyped = per_system[0].kind == "entity-type" and all(
        r.corpus[metric].precision_den == 0 for b in per_system for g, r in zip(b.labels, b.results) if g != UNTYPED
    )
    return metric, "recall" if untyped else "f1"


def _value(b: Breakdown, label: str, metric: str, field: str) -> tuple[float, float, float]:
    """A group's score and its interval (NaN for a group too small for one; the score itself twice
    when there are no intervals)."""
    if label not in b.labels:
        return float("nan"), float("nan"), float("nan")
    i = b.labels.index(label)
    value = float(getattr(b.results[i].corpus[metric], field))
    if b.intervals is None:
        return value, value, value
    found = b.intervals[i].intervals
    if found is None:
        return value, float("nan"), float("nan")
    iv = found.intervals[metric][field]
    return value, iv.low, iv.high


def _values(per_system: Sequence[Breakdown], labels: Sequence[str], metric: str, field: str) -> np.ndarray:
    """systems x groups x (score, low, high), in percent."""
    return np.array([[_value(b, g, metric, field) for g in labels] for b in per_system]) * 100


def _group_table(per_system: Sequence[Breakdown], names: Sequence[str], labels: Sequence[str], what: str) -> str:
    """A group per row, a system per column: the score and its interval, or why there is none."""
    values = _values(per_system, labels, *charted(per_system))
    unit = per_system[0].unit
    sizes = dict(zip(per_system[0].labels, per_system[0].sizes))
    head = f"<tr><th>group</th><th>{escape(unit)}</th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"
    rows = []
    for g, label in enumerate(labels):
        cells = []
        for s in range(len(names)):
            value, low, high = values[s, g]
            if np.isnan(value):
                cells.append("<td></td>")
                continue
            extra = "too small" if np.isnan(low) else f"[{low:.2f}, {high:.2f}]"
            cells.append(f"<td>{value:.2f} <small>{extra}</small></td>")
        rows.append(f"<tr><td>{escape(label)}</td><td>{sizes.get(label, '')}</td>{''.join(cells)}</tr>")
    return f'<table class="groups"><caption>{escape(what)} by group</caption>{head}{"".join(rows)}</table>'


def _section(kind: str, per_system: Sequence[Breakdown], names: Sequence[str], drawn: bool) -> str:
    """One breakdown: its table, and its two charts when there are two groups or more to compare
    and matplotlib draws them (``drawn``)."""
    from .charts import bar_chart, heat_map

    metric, field = charted(per_system)
    what = f"{_title(metric)} {'F1' if field == 'f1' else field}"
    labels = _labels(per_system)
    out = f"<h3>By {escape(kind)}</h3>" + _group_table(per_system, names, labels, what)
    if field == "recall":
        out += "<p>No response has entity types, so that only recall is meaningful per type.</p>"
    if any(b.intervals and any(i.intervals is None for i in b.intervals) for b in per_system):
        out += f"<p>too small: in fewer than {MIN_HOLDING} documents, a group has no interval (and no whisker).</p>"
    if len(labels) < 2:
        return out + "<p>One group: no chart.</p>"
    if not drawn:
        return out
    values = _values(per_system, labels, metric, field)
    bars = bar_chart(f"by {kind}", what, labels, names, values)
    heat = heat_map(f"{what} by {kind}", labels, names, values[:, :, 0])
    return out + f'<div class="charts"><div class="chart bars">{bars}</div><div class="chart heat">{heat}</div></div>'


def _labels(per_system: Sequence[Breakdown]) -> list[str]:
    """Every group of a breakdown, over all systems, in order."""
    return list(dict.fromkeys(label for b in per_system for label in b.labels))


def wants_charts(breakdowns: dict[str, list[Breakdown]]) -> bool:
    """Whether some breakdown has two groups or more to chart."""
    return any(len(_labels(per_system)) > 1 for per_system in breakdowns.values())


#: Said on the page in place of the charts when matplotlib is missing.
NO_CHARTS = (
    "The charts are drawn with matplotlib, which is not installed: "
    "<code>pip install 'corefeval[analysis]'</code> and run the report again to get them."
)


def page(
    systems: Sequence[System],
    tests: Sequence[Tests],
    breakdowns: dict[str, list[Breakdown]],
    signature: str,
    title: str = "corefeval report",
    drawn: bool = True,
) -> str:
    """The whole page as one string (no external resources); ``drawn``: whether matplotlib draws
    the charts (without it, the page says how to get them)."""
    names = [s.name for s in systems]
    sections = [_section(kind, per_system, names, drawn) for kind, per_system in breakdowns.items()]
    if wants_charts(breakdowns) and not drawn:
        sections.insert(0, f'<p class="no-charts">{NO_CHARTS}</p>')
    key = systems[0].result.key_path
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_CSS}</style></head><body><h1>{escape(title)}</h1>"
        f"<p>key <code>{escape(key)}</code>; {len(systems[0].result.document_names)} documents; "
        f"systems: {', '.join(escape(n) for n in names)}.</p>"
        f"<h2>Scores</h2>{_scores_table(systems)}"
        f"<h2>Paired tests</h2>{_tests_table(tests, names[0])}"
        f"<h2>Breakdowns</h2>{''.join(sections) or '<p>No breakdown.</p>'}"
        f"<h2>Errors</h2>{_errors_table(systems)}"
        f'<h2>Signature</h2><p class="sig">{escape(signature)}</p></body></html>\n'
    )
