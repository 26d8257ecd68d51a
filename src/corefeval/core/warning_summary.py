"""Warnings as a run shows them: each one once, and past a few of one kind, one line with how many
more there are, so that a file with hundreds of the same problem does not bury the rest.

Two warnings are of one kind when their messages differ only in quoted names and in numbers
(``document '…': response mention (…,…) repeats a mention ...``). The command line shows every
warning with ``--verbose``; a result keeps them all in ``result.warnings``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .diagnostics import CorefevalWarning, Diagnostic, printable

#: Warnings of one kind shown before the rest are counted.
FEW = 3

_QUOTED = r"'[^']*'"
_NUMBER = r"(?<![\w.])\d+(?:\.\d+)?(?![\w])"

Kind = tuple[str, str]


def kind(d: Diagnostic) -> Kind:
    """The severity and the message with its quoted names and its numbers left out."""
    return d.severity, re.sub(_NUMBER, "…", re.sub(_QUOTED, "'…'", d.message))


class WarningSummary:
    """Which warnings to show, as they come: a warning seen before is not shown again, and past
    ``few`` of one kind (``None``: no limit) the rest are only counted, for :meth:`summary`."""

    def __init__(self, few: int | None = FEW) -> None:
        self.few = few
        self._seen: set[Diagnostic] = set()
        self._shown: dict[Kind, int] = {}
        self._hidden: dict[Kind, list[Diagnostic]] = {}

    def add(self, warnings: Iterable[Diagnostic]) -> list[Diagnostic]:
        """The warnings of ``warnings`` to show now."""
        out = []
        for d in warnings:
            if d in self._seen:
                continue
            self._seen.add(d)
            k = kind(d)
            if self.few is None or self._shown.get(k, 0) < self.few:
                self._shown[k] = self._shown.get(k, 0) + 1
                out.append(d)
            else:
                self._hidden.setdefault(k, []).append(d)
        return out

    def summary(self, how_to_see: str) -> list[Diagnostic]:
        """One warning per kind with hidden warnings: how many, where, and ``how_to_see`` them."""
        out = []
        for (severity, template), hidden in self._hidden.items():
            paths = {d.path for d in hidden}
            lines = sorted({d.line for d in hidden if d.line})
            where = ""
            if len(paths) == 1 and lines:
                where = f"line {lines[0]}; " if len(lines) == 1 else f"lines {lines[0]} to {lines[-1]}; "
            more = "warning" if len(hidden) == 1 else "warnings"
            message = f"{len(hidden)} more {more} of this kind not shown ({where}{how_to_see}): {template}"
            out.append(Diagnostic(hidden[0].path, 0, message, severity))
        return out


def summarised(warnings: Iterable[Diagnostic], how_to_see: str, few: int | None = FEW) -> list[Diagnostic]:
    """``warnings`` as :class:`WarningSummary` shows them, summary lines last."""
    shown = WarningSummary(few)
    return shown.add(warnings) + shown.summary(how_to_see)


def warn(warnings: Iterable[Diagnostic], stacklevel: int = 2) -> None:
    """Give ``warnings`` through Python's :mod:`warnings`, as :class:`CorefevalWarning`, with past
    a few of one kind one line counting the rest; ``stacklevel`` as :func:`warnings.warn` takes
    it, counted from the caller of this function."""
    import warnings as python_warnings

    for d in summarised(warnings, "the result's warnings hold every one"):
        where = f"{d.path}:{d.line}" if d.line else d.path
        python_warnings.warn(printable(f"{where}: {d.message}"), CorefevalWarning, stacklevel=stacklevel + 1)
