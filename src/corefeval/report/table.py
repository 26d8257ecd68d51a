"""Human-readable and CSV tables of scores."""

from __future__ import annotations

import csv
import io
from typing import Any

from ..registry import TITLES
from ..results import ConllScore, ScoreResult
from .numbers import count, percent


def _rows(scores: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name, s in scores.items():
        if isinstance(s, ConllScore):
            rows.append([TITLES[name], "", "", percent(s.f1), "", ""])
            continue
        if name == "blanc":
            for part, sub in (("coref links", s.coref), ("non-coref links", s.noncoref)):
                rows.append(
                    [
                        f"  {part}",
                        percent(sub.recall),
                        percent(sub.precision),
                        percent(sub.f1),
                        f"{count(sub.recall_num)} / {count(sub.recall_den)}",
                        f"{count(sub.precision_num)} / {count(sub.precision_den)}",
                    ]
                )
            rows.insert(len(rows) - 2, [TITLES[name], percent(s.recall), percent(s.precision), percent(s.f1), "", ""])
            continue
        rows.append(
            [
                TITLES[name],
                percent(s.recall),
                percent(s.precision),
                percent(s.f1),
                f"{count(s.recall_num)} / {count(s.recall_den)}",
                f"{count(s.precision_num)} / {count(s.precision_den)}",
            ]
        )
    return rows


def _format(rows: list[list[str]]) -> str:
    head = ["metric", "recall", "precision", "F1", "recall counts", "precision counts"]
    table = [head, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    lines = []
    for r in table:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def text(result: ScoreResult, per_doc: bool = False) -> str:
    """Tables of R, P, F1 (percent, rounded to 2 decimals) and the raw counts."""
    out = []
    if per_doc:
        for d in result.documents:
            out += [f"document {d.name}", _format(_rows(d.scores)), ""]
        out.append(f"corpus ({len(result.document_names)} documents)")
    out.append(_format(_rows(result.corpus)))
    out.append(f"\nsignature: {result.signature}")
    return "\n".join(out) + "\n"


def csv_table(result: ScoreResult, per_doc: bool = False) -> str:
    """One row per (document or corpus, metric) with fractions and counts at full precision."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        [
            "document",
            "metric",
            "recall",
            "precision",
            "f1",
            "recall_num",
            "recall_den",
            "precision_num",
            "precision_den",
        ]
    )
    units = [(d.name, d.scores) for d in result.documents] if per_doc else []
    units.append(("#corpus", result.corpus))
    for name, scores in units:
        for metric, s in scores.items():
            if isinstance(s, ConllScore):
                w.writerow([name, metric, "", "", repr(s.f1), "", "", "", ""])
                continue
            subs = [(metric, s)]
            if metric == "blanc":
                subs += [("blanc.coref", s.coref), ("blanc.noncoref", s.noncoref)]
            for label, x in subs:
                w.writerow(
                    [
                        name,
                        label,
                        repr(x.recall),
                        repr(x.precision),
                        repr(x.f1),
                        repr(x.recall_num),
                        repr(x.recall_den),
                        repr(x.precision_num),
                        repr(x.precision_den),
                    ]
                )
    return buf.getvalue()
