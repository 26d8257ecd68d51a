"""A leaderboard as text, Markdown, LaTeX, CSV or JSON: rows are datasets and the two averages,
columns the variants; numbers are F1 percentages, with intervals when the board has them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..core.numbers import percent
from ..core.registry import TITLES
from .csv_out import Cell, csv_text
from .grid import render as render_grid

if TYPE_CHECKING:
    from ..stats.confidence import Interval
    from ..stats.leaderboard import Leaderboard

SCHEMA = "corefeval.leaderboard/1"
FORMATS = ("text", "markdown", "latex", "csv", "json")


def _cell(board: Leaderboard, row: int, column: int) -> str:
    text = percent(board.value(row, column))
    if board.intervals is None:
        return text
    iv = board.intervals[board.rows[row]][column]
    return f"{text} [{percent(iv.low)}, {percent(iv.high)}]"


def caption(board: Leaderboard) -> str:
    """What the numbers are: the metric's F1, and the intervals' coverage."""
    what = f"{TITLES.get(board.metric, board.metric)} F1 (%)"
    if board.bootstrap is not None:
        what += f", {board.bootstrap.level:.0%} bootstrap intervals"
    return what


def table(board: Leaderboard, fmt: str) -> str:
    """``fmt``: text, markdown or latex; the signature follows the table."""
    header = ["dataset", *(v.name for v in board.variants)]
    rows = [[name, *(_cell(board, i, j) for j in range(len(board.variants)))] for i, name in enumerate(board.rows)]
    body = render_grid(fmt, header, rows, caption(board))
    note = "% " if fmt == "latex" else ""
    return body + ("\n" if fmt == "markdown" else "") + f"{note}signature: {board.signature}\n"


def csv(board: Leaderboard) -> str:
    """One line per row; a column per variant (and its interval's bounds when bootstrapped)."""
    header = ["dataset", "documents"]
    for v in board.variants:
        header += [v.name] + ([f"{v.name} low", f"{v.name} high"] if board.intervals is not None else [])
    rows: list[list[Cell]] = []
    n = len(board.datasets)
    for i, name in enumerate(board.rows):
        docs = board.documents(i) if i < n else sum(board.documents(k) for k in range(n))
        row: list[Cell] = [name, docs]
        for j in range(len(board.variants)):
            row.append(100 * board.value(i, j))
            if board.intervals is not None:
                iv = board.intervals[name][j]
                row += [100 * iv.low, 100 * iv.high]
        rows.append(row)
    return csv_text(header, rows, board.signature)


def _interval(iv: Interval) -> dict[str, float]:
    return {"low": iv.low, "high": iv.high, "mean": iv.mean}


def to_dict(board: Leaderboard) -> dict[str, Any]:
    """The ``corefeval.leaderboard/1`` JSON shape (fractions, not percentages)."""
    n = len(board.datasets)
    rows = []
    for i, name in enumerate(board.rows):
        scores: dict[str, Any] = {}
        for j, v in enumerate(board.variants):
            scores[v.name] = {"f1": board.value(i, j)}
            if board.intervals is not None:
                scores[v.name].update(_interval(board.intervals[name][j]))
        kind = "dataset" if i < n else ("macro" if i == n else "micro")
        docs = board.documents(i) if i < n else sum(board.documents(k) for k in range(n))
        rows.append({"name": name, "kind": kind, "documents": docs, "scores": scores})
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "signature": board.signature,
        "metric": board.metric,
        "preset": board.preset,
        "variants": [
            {"name": v.name, "match": v.match, "singletons": v.singletons, "zeros": v.zeros} for v in board.variants
        ],
        "rows": rows,
    }
    if board.bootstrap is not None:
        out["bootstrap"] = {
            "method": "percentile bootstrap over documents",
            "resamples": board.bootstrap.resamples,
            "level": board.bootstrap.level,
            "seed": board.bootstrap.seed,
        }
    return out


def render(board: Leaderboard, fmt: str) -> str:
    """The board in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "csv":
        return csv(board)
    if fmt == "json":
        return json.dumps(to_dict(board), indent=1) + "\n"
    return table(board, fmt)
