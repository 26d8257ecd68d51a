"""Breakdowns as text, JSON and CSV: one block (or set of rows) per grouping."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.numbers import percent
from ..core.registry import TITLES as METRIC_TITLES
from ..scoring.crossdoc import LinkCounts
from ..scoring.results import ScoreResult
from ..studies.breakdowns import Breakdown
from ..studies.breakdowns.groups import MIN_HOLDING
from .csv_out import csv_text

CSV_COLUMNS = (
    "grouping",
    "group",
    "unit",
    "size",
    "metric",
    "recall",
    "precision",
    "f1",
    "f1_low",
    "f1_high",
    "resamples_holding",
    "documents_holding",
    "recall_num",
    "recall_den",
    "precision_num",
    "precision_den",
)
TITLES = {**METRIC_TITLES, "anaphors": "Anaphors"}


def text(breakdowns: Sequence[Breakdown]) -> str:
    """One aligned table per breakdown: group, size, metric, R, P, F1 and (with intervals) the F1
    interval and how many resamples held the group, with a line saying what these are."""
    blocks = []
    for b in breakdowns:
        shown = b.intervals is not None
        head = ["group", b.unit, "metric", "R", "P", "F1"] + (["F1 interval", "resamples"] if shown else [])
        rows = [head]
        for rec in b.records():
            r, p = rec.get("recall"), rec.get("precision")
            row = [
                str(rec["group"]),
                str(rec[b.unit]),
                TITLES.get(rec["metric"], rec["metric"]),
                "" if r is None else percent(r),
                "" if p is None else percent(p),
                percent(rec["f1"]),
            ]
            if shown:
                row += [_interval(rec), str(rec["resamples_holding"])]
            rows.append(row)
        widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
        lines = [f"By {b.kind}:"]
        for row in rows:
            cells = [c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
            lines.append("  " + "  ".join(cells).rstrip())
        if b.intervals:
            lines.append(_interval_note(b))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _interval(rec: dict[str, Any]) -> str:
    if rec["f1_low"] is None:
        n = rec["documents_holding"]
        return f"too small: {n} document{'' if n == 1 else 's'}"
    return f"[{percent(rec['f1_low'])}, {percent(rec['f1_high'])}]"


def _interval_note(b: Breakdown) -> str:
    drawn = b.intervals[0].drawn if b.intervals else 0
    return (
        f"  (intervals from the resamples, of {drawn}, holding the group; too small: in under {MIN_HOLDING} documents)"
    )


def to_dict(result: ScoreResult, breakdowns: Sequence[Breakdown]) -> dict[str, Any]:
    """The score and every breakdown in one JSON object."""
    return {"score": result.to_dict(), "breakdowns": [b.to_dict() for b in breakdowns]}


def json_text(result: ScoreResult, breakdowns: Sequence[Breakdown]) -> str:
    return json.dumps(to_dict(result, breakdowns), indent=1) + "\n"


def csv_table(result: ScoreResult, breakdowns: Sequence[Breakdown]) -> str:
    """Every group's records under one header (:data:`CSV_COLUMNS`), after the signature."""
    rows = []
    for b in breakdowns:
        for rec in b.records():
            rows.append(
                [
                    rec["grouping"],
                    rec["group"],
                    b.unit,
                    rec[b.unit],
                    rec["metric"],
                    rec.get("recall"),
                    rec.get("precision"),
                    rec["f1"],
                    rec.get("f1_low"),
                    rec.get("f1_high"),
                    rec.get("resamples_holding"),
                    rec.get("documents_holding"),
                    rec.get("recall_num"),
                    rec.get("recall_den"),
                    rec.get("precision_num"),
                    rec.get("precision_den"),
                ]
            )
    return csv_text(CSV_COLUMNS, rows, result.signature)


def links_text(links: Mapping[str, LinkCounts]) -> str:
    """The response's links by type: key, response and common links, recall, precision and F1."""
    rows = [["link type", "key", "response", "both", "R", "P", "F1"]]
    for kind, c in links.items():
        s = c.score
        rows.append(
            [kind, str(c.key), str(c.response), str(c.common), percent(s.recall), percent(s.precision), percent(s.f1)]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["Links by type:"]
    for row in rows:
        lines.append(
            "  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        )
    return "\n".join(lines) + "\n"
