"""Error counts per item: one row per item, one column per error type.

The study's file (``errors.csv``: semicolon-separated, French header) is recognised and its columns
renamed to the English type names; any other table keeps its own header, the first column being
the item id. Empty cells stay missing here (the validator reports them); models fill them with 0.
"""

from __future__ import annotations

import pandas as pd

from ..diagnostics import InputError

#: The study's six error types, in its column order.
STUDY_TYPES = ("border", "type", "noise", "silence", "irrelevant", "absence")
_STUDY_HEADER_START = "Erreurs de fronti"


def read_error_counts(path: str) -> pd.DataFrame:
    """Read an error-count table (comma, semicolon or tab separated) indexed by item id."""
    try:
        table = pd.read_csv(path, sep=None, engine="python", dtype=str, keep_default_na=False)
    except (OSError, ValueError, pd.errors.ParserError) as err:
        raise InputError(path, 0, f"cannot read the error table: {err}") from None
    if table.shape[1] < 2:
        raise InputError(path, 1, "expected an item id column and at least one error-type column")
    if table.shape[1] == 7 and str(table.columns[1]).startswith(_STUDY_HEADER_START):
        table.columns = ["id", *STUDY_TYPES]
    else:
        table = table.rename(columns={table.columns[0]: "id"})
    table["id"] = table["id"].str.strip()
    out = pd.DataFrame(index=pd.Index(table["id"], name="id"))
    for column in table.columns[1:]:
        values = []
        for line, cell in enumerate(table[column], 2):
            cell = cell.strip()
            if not cell:
                values.append(float("nan"))
                continue
            try:
                number = float(cell)
            except ValueError:
                raise InputError(path, line, f"count '{cell}' in column '{column}' is not a number") from None
            if number < 0:
                raise InputError(path, line, f"count '{cell}' in column '{column}' is negative")
            values.append(number)
        out[str(column)] = values
    if out.index.has_duplicates:
        dup = out.index[out.index.duplicated()][0]
        raise InputError(path, 0, f"item '{dup}' appears more than once")
    return out
