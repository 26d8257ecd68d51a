"""Progress bars on standard error for long work: scoring, resampling, error analysis, studies.

A bar counts the items of a loop (:func:`progress`), the steps of other work (:func:`counter`) or
the bytes of a file read block by block (:func:`reading`). It is drawn (by tqdm, imported only
then) when three things hold: progress was asked for (:func:`shown`; the command line asks unless
``--quiet``, library calls do not), standard error is a terminal, and the work is still running
after :data:`DELAY` seconds. Otherwise the iterable is returned untouched and nothing is written.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
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


@contextmanager
def counter(what: str, total: int | None = None, unit: str = "it") -> Iterator[Callable[[int], object]]:
    """A function that advances a bar named ``what`` by its argument (a no-op when no bar is shown),
    for work whose steps are not the items of one loop."""
    if not _asked.get() or not _is_terminal(sys.stderr):
        yield _nothing
        return
    from tqdm import tqdm

    with tqdm(desc=what, total=total, unit=unit, delay=DELAY, leave=False, file=sys.stderr) as bar:
        yield bar.update


def reading(path: str, blocks: Iterable[tuple[bytes, bool]]) -> Iterable[tuple[bytes, bool]]:
    """A file's ``blocks`` (bytes, whether final), with a bar of the bytes read when one should be shown."""
    if not _asked.get() or not _is_terminal(sys.stderr):
        return blocks
    return _counted_bytes(path, blocks)


def _counted_bytes(path: str, blocks: Iterable[tuple[bytes, bool]]) -> Iterator[tuple[bytes, bool]]:
    from tqdm import tqdm

    name = "".join(c if c.isprintable() else "?" for c in os.path.basename(path))
    with tqdm(
        desc=f"reading {name}",
        total=_size(path),
        unit="B",
        unit_scale=True,
        unit_divisor=1024,
        delay=DELAY,
        leave=False,
        file=sys.stderr,
    ) as bar:
        for block in blocks:
            yield block
            bar.update(len(block[0]))


def _size(path: str) -> int | None:
    """A regular file's size in bytes (``None`` for a pipe, whose size is not known in advance, and
    for a gzip file, whose blocks are counted after inflating)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return None
        with open(path, "rb") as fh:
            return None if fh.read(2) == b"\x1f\x8b" else info.st_size
    except OSError:
        return None


def _nothing(_: int) -> None:
    return None


def _is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False
