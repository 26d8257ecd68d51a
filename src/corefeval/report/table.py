"""Human-readable and CSV tables of scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.diagnostics import printable
from ..core.numbers import count, percent
from ..core.registry import TITLES
from ..scoring.results import ConllScore, ScoreResult
from .grid import documents, text_table

if TYPE_CHECKING:
    from .csv_out import Cell

HEADER = ["metric", "recall", "precision", "F1", "recall counts", "precision counts"]


def _rows(scores: dict[str, Any]) -> list[list[str]]:
    rows = []
    for name, s in scores.items():
        if isinstance(s, ConllScore):
            rows.append([TITLES[name], "", "", percent(s.f1), "", ""])
            continue
        parts = s.parts()
        if parts:
            for _, part, sub in parts:
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
            row = [TITLES[name], percent(s.recall), percent(s.precision), percent(s.f1), "", ""]
            rows.insert(len(rows) - len(parts), row)
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


def text(result: ScoreResult, per_doc: bool = False) -> str:
    """Tables of R, P, F1 (percent, rounded to 2 decimals) and the raw counts."""
    out = []
    if per_doc:
        for d in result.documents:
            out += [f"document {printable(d.name)}", text_table(HEADER, _rows(d.scores))]
        out.append(f"corpus ({documents(len(result.document_names))})")
    out.append(text_table(HEADER, _rows(result.corpus)))
    out.append(f"signature: {result.signature}")
    return "\n".join(out) + "\n"


def csv_rows(result: ScoreResult, per_doc: bool = False) -> list[list[Cell]]:
    """The rows of :data:`~corefeval.scoring.results.COLUMNS`, per document (when asked) then for the
    corpus (scope ``corpus``, no document), fractions and counts at full precision; BLANC is followed
    by its ``blanc.coref`` and ``blanc.noncoref`` parts, and CoNLL has only an F1."""
    units: list[tuple[str, str | None, dict[str, Any]]] = (
        [("document", d.name, d.scores) for d in result.documents] if per_doc else []
    )
    units.append(("corpus", None, result.corpus))
    rows: list[list[Cell]] = []
    for scope, name, scores in units:
        for metric, s in scores.items():
            if isinstance(s, ConllScore):
                rows.append([scope, name, metric, None, None, s.f1, None, None, None, None])
                continue
            subs = [(metric, s), *((f"{metric}.{key}", part) for key, _, part in s.parts())]
            for label, x in subs:
                rows.append(
                    [
                        scope,
                        name,
                        label,
                        x.recall,
                        x.precision,
                        x.f1,
                        x.recall_num,
                        x.recall_den,
                        x.precision_num,
                        x.precision_den,
                    ]
                )
    return rows


def csv_table(result: ScoreResult, per_doc: bool = False) -> str:
    """The score as CSV: a ``# signature:`` line, then :func:`csv_rows` under their header."""
    from ..scoring.results import COLUMNS
    from .csv_out import csv_text

    return csv_text(COLUMNS, csv_rows(result, per_doc), result.signature)
