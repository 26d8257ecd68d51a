"""Progress bars on standard error for long work: scoring, resampling, error analysis, studies.

A bar is drawn (by tqdm, imported only then) when three things hold: progress was asked for
(:func:`shown`; the command line asks unless ``--quiet``, library calls do not), standard error is a
terminal, and the work is still running after :data:`DELAY` seconds. Otherwise :func:`progress`
returns its iterable untouched and nothing is written.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")

#: Seconds of work before a bar appears, so that quick runs print nothing.
DELAY = 1.0

_asked: ContextVar[bool] = ContextVar("corefeval_progress", default=False)


@contextmanager
def shown(on: bool = True) -> Iterator[None]:
    """Within this block, long loops of corefeval show a bar on standard error (if it is a terminal).

    >>> with shown():                                        # doctest: +SKIP
    ...     corefeval.score("key.conll", "response.conll")
    """
    token = _asked.set(on)
    try:
        yield
    finally:
        _asked.reset(token)


def progress(items: Iterable[T], what: str, total: int | None = None, unit: str = "it") -> Iterable[T]:
    """``items``, with a bar named ``what`` counting ``unit``s when one should be shown."""
    if not _asked.get() or not _is_terminal(sys.stderr):
        return items
    from tqdm import tqdm

    return tqdm(items, desc=what, total=total, unit=unit, delay=DELAY, leave=False, file=sys.stderr)


def _is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False
