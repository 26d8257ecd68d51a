"""Scores with bootstrap confidence intervals, as text, Markdown, LaTeX, CSV and JSON."""

from __future__ import annotations

import csv
import io
from typing import Any

from ..registry import TITLES
from ..results import ScoreResult
from ..stats.confidence import ConfidenceIntervals, Interval
from .grid import documents, render
from .numbers import percent

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
        f"{100 * ci.level:g}% confidence intervals: percentile bootstrap, {ci.resamples} resamples of "
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


def plain_rows(result: ScoreResult) -> list[list[str]]:
    return [
        [
            TITLES[m],
            "" if m == "conll" else percent(s.recall),
            "" if m == "conll" else percent(s.precision),
            percent(s.f1),
        ]
        for m, s in result.corpus.items()
    ]


def table(result: ScoreResult, ci: ConfidenceIntervals | None, fmt: str) -> str:
    """Corpus scores (percent), with their intervals when ``ci`` is given; ``fmt``: text, markdown, latex."""
    if ci is None:
        text = render(fmt, HEADER[:4], plain_rows(result))
        signature = result.signature
    else:
        text = render(fmt, HEADER, rows(ci), describe(ci))
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


def csv_with_intervals(score_csv: str, ci: ConfidenceIntervals) -> str:
    """The score CSV with interval columns appended (filled on the corpus rows)."""
    fields = ("f1", "recall", "precision")
    extra = [f"{f}_{end}" for f in fields for end in ("low", "high")]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    reader = csv.reader(io.StringIO(score_csv))
    w.writerow(next(reader) + extra + ["level", "resamples", "seed"])
    for row in reader:
        found = ci.intervals.get(row[1]) if row[0] == "#corpus" else None
        cells = [""] * (len(extra) + 3)
        if found is not None:
            cells = [repr(getattr(found[f], end)) if f in found else "" for f in fields for end in ("low", "high")]
            cells += [repr(ci.level), str(ci.resamples), str(ci.seed)]
        w.writerow(row + cells)
    return buf.getvalue()
