"""Scores with bootstrap confidence intervals, as text, Markdown, LaTeX, CSV and JSON."""

from __future__ import annotations

from typing import Any

from ..core.numbers import percent
from ..core.registry import TITLES
from ..scoring.results import COLUMNS, ScoreResult
from ..stats.confidence import ConfidenceIntervals, Interval
from .csv_out import Cell, csv_text
from .grid import documents, plural, render
from .table import csv_rows

HEADER = [
    "metric",
    "recall",
    "precision",
    "F1",
    "± (half-width)",
    "F1 interval",
    "recall interval",
    "precision interval",
]


def span(iv: Interval) -> str:
    return f"[{percent(iv.low)}, {percent(iv.high)}]"


def describe(ci: ConfidenceIntervals) -> str:
    strata = f", stratified by {ci.strata}" if ci.strata else ""
    return (
        f"{100 * ci.level:g}% confidence intervals: percentile bootstrap, {plural(ci.resamples, 'resample')} of "
        f"{documents(ci.n_documents)}{strata}, seed {ci.seed}"
    )


def rows(ci: ConfidenceIntervals) -> list[list[str]]:
    out = []
    for metric, fields in ci.intervals.items():
        f = fields["f1"]
        if metric == "conll":
            out.append([TITLES[metric], "", "", percent(f.estimate), percent(f.half_width), span(f), "", ""])
            continue
        r, p = fields["recall"], fields["precision"]
        out.append(
            [
                TITLES[metric],
                percent(r.estimate),
                percent(p.estimate),
                percent(f.estimate),
                percent(f.half_width),
                span(f),
                span(r),
                span(p),
            ]
        )
    return out


def plain_rows(scores: dict[str, Any]) -> list[list[str]]:
    """R, P and F1 (percent) of each metric in ``scores``."""
    return [
        [
            TITLES[m],
            "" if m == "conll" else percent(s.recall),
            "" if m == "conll" else percent(s.precision),
            percent(s.f1),
        ]
        for m, s in scores.items()
    ]


def document_tables(result: ScoreResult, fmt: str) -> str:
    """A table of R, P and F1 for each document, under its name, each followed by a blank line."""
    return "".join(render(fmt, HEADER[:4], plain_rows(d.scores), f"document {d.name}") + "\n" for d in result.documents)


def table(result: ScoreResult, ci: ConfidenceIntervals | None, fmt: str, per_doc: bool = False) -> str:
    """Corpus scores (percent), with their intervals when ``ci`` is given, after a table per
    document when ``per_doc``; ``fmt``: text, markdown, latex."""
    text = document_tables(result, fmt) if per_doc else ""
    if ci is None:
        caption = f"corpus ({documents(len(result.document_names))})" if per_doc else None
        text += render(fmt, HEADER[:4], plain_rows(result.corpus), caption)
        signature = result.signature
    else:
        text += render(fmt, HEADER, rows(ci), describe(ci))
        signature = f"{result.signature}|{ci.settings()}"
    if fmt == "text" and ci is not None:
        return text + f"\nsignature with resampling: {signature}\n"
    return text + (
        f"\nsignature: {signature}\n"
        if fmt == "text"
        else f"\n% signature: {signature}\n"
        if fmt == "latex"
        else f"\nsignature: `{signature}`\n"
    )


def to_dict(result: ScoreResult, ci: ConfidenceIntervals, per_doc: bool) -> dict[str, Any]:
    """``corefeval.score/1`` with one more key, ``confidence`` (its own signature included)."""
    out = result.to_dict(per_doc=per_doc)
    out["confidence"] = {**ci.to_dict(), "signature": f"{result.signature}|{ci.settings()}"}
    return out


def csv_with_intervals(result: ScoreResult, ci: ConfidenceIntervals, per_doc: bool = False) -> str:
    """The score CSV with interval columns appended (filled on the corpus rows), under the
    signature with resampling."""
    fields = ("f1", "recall", "precision")
    extra = [f"{f}_{end}" for f in fields for end in ("low", "high")]
    rows: list[list[Cell]] = []
    for row in csv_rows(result, per_doc):
        found = ci.intervals.get(str(row[2])) if row[0] == "corpus" else None
        cells: list[Cell] = [None] * (len(extra) + 3)
        if found is not None:
            cells = [getattr(found[f], end) if f in found else None for f in fields for end in ("low", "high")]
            cells += [ci.level, ci.resamples, ci.seed]
        rows.append(row + cells)
    return csv_text([*COLUMNS, *extra, "level", "resamples", "seed"], rows, f"{result.signature}|{ci.settings()}")
