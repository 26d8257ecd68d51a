"""One static, self-contained HTML report of systems against a key (formatting only).

Scores with intervals, paired tests against the first system, each breakdown as bars with interval
whiskers and as a heat map of F1 by group and system, the error counts with links to each system's
error view, and the signature. Charts are drawn by matplotlib as inline SVG: a well-kept library
that draws without a display or a network, and SVG keeps the page one file that opens from disk.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np

from ..breakdowns import Breakdown
from ..metrics.base import ConllScore
from ..registry import TITLES
from ..results import ScoreResult
from ..stats.confidence import ConfidenceIntervals
from .numbers import percent

_CSS = """
body{font-family:system-ui,sans-serif;margin:1.2em;color:#222;background:#fff;max-width:1100px}
h1{font-size:1.5em}h2{font-size:1.2em;border-top:2px solid #ccc;padding-top:.5em;margin-top:1.5em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right}
th:first-child,td:first-child{text-align:left}.sig{font-family:monospace;font-size:.85em;word-break:break-all}
.charts{display:flex;flex-wrap:wrap;gap:1em}.chart svg{max-width:520px;height:auto}
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


def _f1(b: Breakdown, label: str, metric: str) -> tuple[float, float, float]:
    """F1 of a group and its interval (the F1 itself twice when there are no intervals)."""
    if label not in b.labels:
        return float("nan"), float("nan"), float("nan")
    i = b.labels.index(label)
    score = b.results[i].corpus[metric]
    f1 = score.f1 if isinstance(score, ConllScore) else score.f1
    if b.intervals is None:
        return f1, f1, f1
    found = b.intervals[i].intervals
    if found is None:  # too small for an interval: no whisker
        return f1, f1, f1
    iv = found.intervals[metric]["f1"]
    return f1, iv.low, iv.high


#: SVG settings: text stays text (not one path per glyph: a smaller page, drawn faster), and no
#: date nor random identifiers, so that the same report is the same file.
SVG_SETTINGS: dict[Any, Any] = {"svg.fonttype": "none", "svg.hashsalt": "corefeval"}


def _svg(figure: Any) -> str:
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(SVG_SETTINGS):
        figure.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _figure(size: tuple[float, float]) -> tuple[Any, Any]:
    """A figure and its axes, made without pyplot (no global state, no backend to load)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        from ..diagnostics import UsageError

        raise UsageError("the report draws its charts with matplotlib (pip install 'corefeval[analysis]')") from None
    figure = Figure(figsize=size)
    return figure, figure.add_subplot()


def charts(kind: str, per_system: Sequence[Breakdown], names: Sequence[str]) -> tuple[str, str]:
    """The bar chart (F1 with interval whiskers, a bar per system in each group) and the heat map
    (F1 by group and system) of one breakdown, as SVG."""
    metric = headline(per_system[0])
    labels = list(dict.fromkeys(label for b in per_system for label in b.labels))
    values = np.array([[_f1(b, g, metric) for g in labels] for b in per_system]) * 100  # systems x groups x 3
    x = np.arange(len(labels))
    width = 0.8 / len(per_system)
    fig, ax = _figure((max(4.0, 0.9 * len(labels) * len(per_system) ** 0.5 + 2), 3.2))
    for s, name in enumerate(names):
        f1, low, high = values[s, :, 0], values[s, :, 1], values[s, :, 2]
        ax.bar(
            x + (s - (len(names) - 1) / 2) * width,
            f1,
            width,
            label=name,
            yerr=np.vstack([f1 - low, high - f1]),
            capsize=3,
        )
    ax.set_xticks(x, labels, rotation=30 if len(labels) > 6 else 0)
    ax.set_ylabel(f"{_title(metric)} F1")
    ax.set_title(f"by {kind}")
    ax.set_ylim(0, 100)
    ax.legend(fontsize="small")
    bars = _svg(fig)
    fig, ax = _figure((max(3.5, 0.7 * len(labels) + 2), 0.5 * len(names) + 1.5))
    shown = values[:, :, 0][~np.isnan(values[:, :, 0])]
    least, most = (float(shown.min()), float(shown.max())) if shown.size else (0.0, 100.0)
    image = ax.imshow(values[:, :, 0], cmap="viridis", vmin=least - 1, vmax=most + 1, aspect="auto")
    fig.colorbar(image, ax=ax, shrink=0.8)
    ax.set_xticks(x, labels, rotation=30 if len(labels) > 6 else 0)
    ax.set_yticks(np.arange(len(names)), list(names))
    for s in range(len(names)):
        for g in range(len(labels)):
            v = values[s, g, 0]
            ax.text(
                g,
                s,
                "" if np.isnan(v) else f"{v:.1f}",
                ha="center",
                va="center",
                color="white" if v < 60 else "black",
                fontsize=8,
            )
    ax.set_title(f"{_title(metric)} F1 by {kind}")
    heat = _svg(fig)
    return bars, heat


def page(
    systems: Sequence[System],
    tests: Sequence[Tests],
    breakdowns: dict[str, list[Breakdown]],
    signature: str,
    title: str = "corefeval report",
) -> str:
    """The whole page as one string (no external resources)."""
    names = [s.name for s in systems]
    sections = []
    for kind, per_system in breakdowns.items():
        bars, heat = charts(kind, per_system, names)
        sizes = ", ".join(f"{g} ({n})" for g, n in zip(per_system[0].labels, per_system[0].sizes))
        sections.append(
            f"<h3>By {escape(kind)}</h3><p>{escape(per_system[0].unit)} per group: {escape(sizes)}</p>"
            f'<div class="charts"><div class="chart bars">{bars}</div><div class="chart heat">{heat}</div></div>'
        )
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
