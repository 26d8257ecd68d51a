"""Error counts per item: one row per item, one column per error type.

The study's file (``errors.csv``: semicolon-separated, French header) is recognised and its columns
renamed to the English type names; any other table keeps its own header, the first column being
the item id. Empty cells stay missing here (the validator reports them); models fill them with 0.
"""

from __future__ import annotations

import pandas as pd

from ...core.diagnostics import InputError
from .csv_rows import read_rows

#: The study's six error types, in its column order.
STUDY_TYPES = ("border", "type", "noise", "silence", "irrelevant", "absence")
_STUDY_HEADER_START = "Erreurs de fronti"


def read_error_counts(path: str) -> pd.DataFrame:
    """Read an error-count table (comma, semicolon or tab separated) indexed by item id."""
    rows = [(line, row) for line, row in enumerate(read_rows(path), 1) if any(cell.strip() for cell in row)]
    if not rows:
        raise InputError(path, 1, "the file is empty")
    header = rows[0][1]
    if len(header) < 2:
        raise InputError(path, rows[0][0], "expected an item id column and at least one error-type column")
    if len(header) == 7 and header[1].startswith(_STUDY_HEADER_START):
        header = ["id", *STUDY_TYPES]
    columns = [c.strip() for c in header[1:]]
    repeated = sorted({c for c in columns if columns.count(c) > 1})
    if repeated:
        raise InputError(path, rows[0][0], f"column '{repeated[0]}' appears more than once")
    ids: list[str] = []
    values: list[list[float]] = []
    for line, row in rows[1:]:
        if len(row) != len(header):
            raise InputError(path, line, f"expected {len(header)} columns, found {len(row)}")
        ids.append(row[0].strip())
        values.append([_count(cell, column, path, line) for cell, column in zip(row[1:], columns, strict=True)])
    out = pd.DataFrame(values, index=pd.Index(ids, name="id", dtype=object), columns=columns, dtype=float)
    if out.index.has_duplicates:
        dup = out.index[out.index.duplicated()][0]
        raise InputError(path, 0, f"item '{dup}' appears more than once")
    return out


def _count(cell: str, column: str, path: str, line: int) -> float:
    """One count: blank is missing (NaN); anything else must be a non-negative number."""
    cell = cell.strip()
    if not cell:
        return float("nan")
    try:
        number = float(cell)
    except ValueError:
        raise InputError(path, line, f"count '{cell}' in column '{column}' is not a number") from None
    if number < 0:
        raise InputError(path, line, f"count '{cell}' in column '{column}' is negative")
    return number
