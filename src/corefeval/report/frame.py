"""Scores as a long table for notebooks: a pandas DataFrame, or HTML without pandas."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..metrics.base import ConllScore
from ..registry import TITLES

if TYPE_CHECKING:
    from ..results import ScoreResult
from .grid import documents
from .numbers import count, percent

COLUMNS = (
    "scope",
    "document",
    "metric",
    "recall",
    "precision",
    "f1",
    "recall_num",
    "recall_den",
    "precision_num",
    "precision_den",
)


def _record(scope: str, document: str | None, metric: str, s: Any) -> dict[str, Any]:
    if isinstance(s, ConllScore):
        nan = float("nan")
        return dict(zip(COLUMNS, (scope, document, metric, nan, nan, s.f1, nan, nan, nan, nan)))
    return dict(
        zip(
            COLUMNS,
            (
                scope,
                document,
                metric,
                s.recall,
                s.precision,
                s.f1,
                s.recall_num,
                s.recall_den,
                s.precision_num,
                s.precision_den,
            ),
        )
    )


def records(result: ScoreResult) -> list[dict[str, Any]]:
    """One record per metric for the corpus (``scope`` ``corpus``, no document), then per document
    and metric. The CoNLL score has only an F1; BLANC's counts are its R and P over 1."""
    out = [_record("corpus", None, name, s) for name, s in result.corpus.items()]
    for d in result.documents:
        out += [_record("document", d.name, name, s) for name, s in d.scores.items()]
    return out


def to_frame(result: ScoreResult) -> Any:
    """The records as a pandas DataFrame (pandas is imported here, only when asked for)."""
    try:
        import pandas as pd
    except ImportError:
        from ..diagnostics import UsageError

        raise UsageError("to_frame needs pandas (pip install 'corefeval[analysis]')") from None
    return pd.DataFrame(records(result), columns=list(COLUMNS))


def to_html(result: ScoreResult) -> str:
    """The corpus scores as an HTML table (percentages, with counts), and the signature."""
    import html

    head = "".join(f"<th>{h}</th>" for h in ("metric", "R", "P", "F1", "recall", "precision"))
    rows = []
    for name, s in result.corpus.items():
        if isinstance(s, ConllScore):
            cells = (TITLES[name], "", "", percent(s.f1), "", "")
        elif s.parts():  # a mean of its parts' F1: its own counts say nothing
            cells = (TITLES[name], percent(s.recall), percent(s.precision), percent(s.f1), "", "")
        else:
            cells = (
                TITLES[name],
                percent(s.recall),
                percent(s.precision),
                percent(s.f1),
                f"{count(s.recall_num)} / {count(s.recall_den)}",
                f"{count(s.precision_num)} / {count(s.precision_den)}",
            )
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    caption = f"{documents(len(result.document_names))}; <code>{html.escape(result.signature)}</code>"
    return f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
