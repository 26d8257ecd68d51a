"""Formatting of analysis tables as text, CSV, JSON, LaTeX and Markdown (formatting only)."""

from __future__ import annotations

import json
import math

import pandas as pd

from .csv_out import safe_text

FORMATS = ("text", "csv", "json", "latex", "markdown")


def _cell(value: object, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _cells(table: pd.DataFrame, digits: int, index: bool) -> tuple[list[str], list[list[str]]]:
    header = ([table.index.name or ""] if index else []) + [str(c) for c in table.columns]
    rows = [
        ([str(i)] if index else []) + [_cell(v, digits) for v in row]
        for i, row in zip(table.index, table.itertuples(index=False), strict=True)
    ]
    return header, rows


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return cell == ""
    return True


def text(table: pd.DataFrame, digits: int = 3, index: bool = True) -> str:
    """Aligned plain text: numeric columns right-aligned, the others left-aligned."""
    header, rows = _cells(table, digits, index)
    widths = [max(len(r[k]) for r in [header, *rows]) for k in range(len(header))]
    right = [k > 0 and all(_is_number(r[k]) for r in rows) for k in range(len(header))]
    lines = [
        "  ".join(c.rjust(w) if right[k] else c.ljust(w) for k, (c, w) in enumerate(zip(r, widths, strict=True)))
        for r in [header, *rows]
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def markdown(table: pd.DataFrame, digits: int = 3, index: bool = True) -> str:
    header, rows = _cells(table, digits, index)
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def csv(table: pd.DataFrame, index: bool = True) -> str:
    """CSV with full precision (no rounding); text cells that a spreadsheet would evaluate (``=``,
    ``+``, ``-``, ``@``) are neutralised as in every other CSV corefeval writes."""
    return str(_safe(table).to_csv(index=index, float_format="%.17g"))


def _safe(table: pd.DataFrame) -> pd.DataFrame:
    def text(value: object) -> object:
        return safe_text(value) if isinstance(value, str) else value

    out = table.copy()
    for column in out.columns:
        if not pd.api.types.is_numeric_dtype(out[column]):
            out[column] = out[column].map(text)
    out.index = out.index.map(text)
    out.columns = out.columns.map(text)
    return out


def to_json(table: pd.DataFrame, index: bool = True) -> str:
    """A list of records; missing values are null."""
    frame = table.reset_index() if index else table
    records = [
        {str(k): (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()}
        for r in frame.to_dict(orient="records")
    ]
    return json.dumps(records, indent=1, ensure_ascii=False, default=float) + "\n"


def latex(table: pd.DataFrame, digits: int = 3, index: bool = True, caption: str = "") -> str:
    """A booktabs tabular (in a table environment when a caption is given)."""
    header, rows = _cells(table, digits, index)

    def esc(s: str) -> str:
        for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("_", r"\_"), ("#", r"\#")):
            s = s.replace(a, b)
        return s

    spec = "l" + "r" * (len(header) - 1)
    body = [r"\begin{tabular}{" + spec + "}", r"\toprule", " & ".join(map(esc, header)) + r" \\", r"\midrule"]
    body += [" & ".join(map(esc, r)) + r" \\" for r in rows]
    body += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        body = [r"\begin{table}", r"\centering", *body, r"\caption{" + esc(caption) + "}", r"\end{table}"]
    return "\n".join(body) + "\n"


def render(table: pd.DataFrame, fmt: str, digits: int = 3, index: bool = True, caption: str = "") -> str:
    if fmt == "text":
        return text(table, digits, index)
    if fmt == "csv":
        return csv(table, index)
    if fmt == "json":
        return to_json(table, index)
    if fmt == "latex":
        return latex(table, digits, index, caption)
    if fmt == "markdown":
        return markdown(table, digits, index)
    raise ValueError(f"unknown table format '{fmt}'")
