"""Errors and warnings about input files, always located as ``PATH:LINE``."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Characters that would break a diagnostic's one line (line and paragraph separators, controls).
_BREAKS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def _escaped(text: str) -> str:
    return _BREAKS.sub(lambda m: repr(m.group())[1:-1], text)


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in an input file; ``line`` is 1-based, 0 when it concerns the whole file."""

    path: str
    line: int
    message: str
    severity: str = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.severity}: {_escaped(self.message)}"


class InputError(Exception):
    """Input that cannot be scored meaningfully; the command line prints it on one line, exit 1."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.diagnostic = Diagnostic(path, line, message, "error")
        super().__init__(str(self.diagnostic))


class UsageError(Exception):
    """A request that does not make sense (unknown metric, bad option); exit status 2."""
