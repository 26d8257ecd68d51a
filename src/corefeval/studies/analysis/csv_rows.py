"""The rows of a study's CSV file (ratings, form exports, error counts), read with located errors.

The delimiter is guessed from the start of the file: a tab in the first line, else the more
frequent of ``;`` and ``,``. Every problem (a missing or unreadable file, text that is not UTF-8,
a field longer than the csv module's limit, a quote left open or followed by text) is one
:class:`InputError` naming the file and, when it concerns one, the line.
"""

from __future__ import annotations

import csv

from ...core.diagnostics import InputError

#: How much of the file decides the delimiter.
_SAMPLE = 4096


def _delimiter(sample: str) -> str:
    if "\t" in sample.split("\n", 1)[0]:
        return "\t"
    return ";" if sample.count(";") > sample.count(",") else ","


def read_rows(path: str) -> list[list[str]]:
    """Every row of the file (blank rows included, as empty lists), header first."""
    reader = None
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            sample = fh.read(_SAMPLE)
            fh.seek(0)
            reader = csv.reader(fh, delimiter=_delimiter(sample), strict=True)
            return list(reader)
    except OSError as err:
        raise InputError(path, 0, f"cannot read the file: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise InputError(path, 0, "the file is not UTF-8") from None
    except csv.Error as err:
        line = reader.line_num if reader is not None else 0
        reason = str(err)
        if "field limit" in reason:
            reason = f"a field is longer than {csv.field_size_limit()} characters (the CSV reader's limit)"
        raise InputError(path, line, f"cannot read the CSV: {reason}") from None
