"""Errors and warnings about input files, always located as ``PATH:LINE``."""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

#: Characters that would break a printed line or act on a terminal: C0 and C1 controls (ESC, BEL,
#: CR, ...; TAB is kept), DEL, line and paragraph separators, and bidirectional overrides. None of
#: them is printable (``str.isprintable``), so a printable text is left as it is without the pattern.
_UNPRINTABLE = "[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]"


@cache
def _unprintable() -> re.Pattern[str]:
    """:data:`_UNPRINTABLE` compiled, on the first text that needs it (compiling costs every run)."""
    return re.compile(_UNPRINTABLE)


def plural(n: int, word: str) -> str:
    """``1 document``, ``206 documents``: ``n`` and ``word``, with an ``s`` unless ``n`` is 1."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def is_number(text: str, most: int = 18) -> bool:
    """Whether ``text`` is a whole number ``int`` reads at once: ASCII digits only (``str.isdigit``
    also takes ``²`` and other digits ``int`` refuses) and at most ``most`` of them (``int`` refuses
    thousands), so that reading it can be no traceback."""
    return text.isascii() and text.isdigit() and len(text) <= most


def printable(text: str) -> str:
    """``text`` with every control character written as a Python escape (``\\x1b``, ``\\r``), so that
    a name or path read from a file can be printed to a terminal without acting on it."""
    if text.isprintable():
        return text
    return _unprintable().sub(lambda m: repr(m.group())[1:-1], text)


class Diagnostic(NamedTuple):
    """A problem found in an input file; ``line`` is 1-based, 0 when it concerns the whole file."""

    path: str
    line: int
    message: str
    severity: str = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{printable(where)}: {self.severity}: {printable(self.message)}"


class CorefevalWarning(UserWarning):
    """The category of the warnings that corefeval's Python functions give through :mod:`warnings`
    (``warnings.simplefilter("ignore", CorefevalWarning)`` silences them; a result's ``warnings``
    keep every one)."""


class InputError(Exception):
    """Input that cannot be scored meaningfully; the command line prints it on one line, exit 1."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.diagnostic = Diagnostic(path, line, message, "error")
        super().__init__(str(self.diagnostic))


class CountingError(Exception):
    """A document that a metric refuses to count (its exact answer would cost more than the limit
    says); callers that know the document's file turn it into an :class:`InputError` there."""

    def __init__(self, document: str, message: str) -> None:
        self.document = document
        self.message = message
        super().__init__(f"document '{printable(document)}': {message}")

    def located(self, path: str, line: int) -> InputError:
        """The same problem as an error at ``path:line``."""
        return InputError(path, line, f"document '{self.document}': {self.message}")


class UsageError(Exception):
    """A request that does not make sense (unknown metric, bad option); exit status 2. Printed on
    one line, with control characters escaped (the message may quote a name from a file)."""

    def __str__(self) -> str:
        return printable(super().__str__())
