"""Errors and warnings about input files, always located as ``PATH:LINE``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in an input file; ``line`` is 1-based, 0 when it concerns the whole file."""

    path: str
    line: int
    message: str
    severity: str = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.severity}: {self.message}"


class InputError(Exception):
    """Input that cannot be scored meaningfully; the command line prints it on one line, exit 1."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.diagnostic = Diagnostic(path, line, message, "error")
        super().__init__(str(self.diagnostic))


class UsageError(Exception):
    """A request that does not make sense (unknown metric, bad option); exit status 2."""
