"""CSV as every command writes it: the csv module, numbers as numbers, text that no spreadsheet runs.

Text cells are quoted and numbers are not (``QUOTE_NONNUMERIC``), so a reader can tell them apart
and a ``#`` inside a name never starts a comment; a missing number is an empty cell. Control
characters in a text cell (a name read from a file) are written as Python escapes (``\x1b``, ``\r``,
``\n``), as the terminal output writes them, so that a CSV printed on a terminal cannot act on it
and every row is one line (JSON gives the names exactly). A text cell that begins with ``=``,
``+``, ``-``, ``@`` or TAB would be run as a formula by a spreadsheet, so it gets a leading ``'``.
The signature, when there is one, is a first ``# signature: ...`` line, which
``pandas.read_csv(path, comment="#")`` skips.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from ..core.diagnostics import printable

Cell = str | int | float | None

_FORMULA_START = ("=", "+", "-", "@", "\t")


def safe_text(text: str) -> str:
    """``text`` as a cell that a terminal prints without acting on it and a spreadsheet shows as
    text rather than evaluates."""
    text = printable(text)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _cell(value: Cell) -> Cell:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return safe_text(value)
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Cell]], signature: str | None = None) -> str:
    """The rows under ``header``, after a ``# signature:`` line when ``signature`` is given."""
    import csv

    buf = io.StringIO()
    if signature is not None:
        buf.write(f"# signature: {signature}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    for row in rows:
        quoted.writerow([_cell(c) for c in row])
    return buf.getvalue()
