"""Writing output files: never over an input, and never half-written.

Every command that writes a file checks its outputs with :func:`check_outputs` (or
:func:`check_output_folder`) before it reads anything, then writes each file with
:func:`atomic_open` or :func:`write_output`: the text goes to a temporary file in the target's
folder, which is renamed over the target only once it is complete, so a failure (a full disk, an
interrupted run) leaves the old file as it was. A replaced file keeps its permission bits; a
symbolic link is followed (the file it names is replaced, the link stays); ``-`` is standard
output, and a target that is not a regular file (a pipe, ``/dev/null``) is written directly.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from .diagnostics import UsageError

STDOUT = "-"


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: the same real path, or the same inode (a hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def _refuse_input(path: str, inputs: Iterable[str | None]) -> None:
    for source in inputs:
        if source and source != STDOUT and _same_file(path, source):
            raise UsageError(f"the output {path} is the input {source}; refusing to write over it, choose another file")


def _special(path: str) -> bool:
    """An existing target that is not a regular file (a pipe, a device): written in place."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _check_writable(path: str) -> None:
    """Fail now, before any reading, if ``path`` clearly cannot be written."""
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise UsageError(f"cannot write {path}: it is a folder")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise UsageError(f"cannot write {path}: the file is read-only")
    if _special(target):
        return
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise UsageError(f"cannot write {path}: the folder {os.path.dirname(path) or '.'} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write {path}: the folder {os.path.dirname(path) or '.'} is not writable")


def check_output(path: str, inputs: Iterable[str | None]) -> str:
    """``path``, unless it names one of ``inputs`` (by any spelling, link or hard link) or cannot be written."""
    if path != STDOUT:
        _refuse_input(path, inputs)
        _check_writable(path)
    return path


def check_outputs(outputs: Sequence[str | None], inputs: Iterable[str | None]) -> None:
    """Check every output as :func:`check_output` does, and that no two of them are one file."""
    given = [o for o in outputs if o and o != STDOUT]
    inputs = list(inputs)
    for n, path in enumerate(given):
        check_output(path, inputs)
        for earlier in given[:n]:
            if _same_file(path, earlier):
                raise UsageError(f"the outputs {earlier} and {path} are the same file; choose two files")


def check_output_folder(
    folder: str, files: Iterable[str], folders: Iterable[str], inputs: Iterable[str | None]
) -> None:
    """A folder that will receive ``files`` and ``folders`` of files must hold none of ``inputs``.

    An input is refused when its real path is one of those files or lies under one of those
    folders, or when it is the same file as one already there (a hard link to it); and the folder
    must be one that can be created or written.
    """
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"cannot write into {folder}: it is a file, not a folder")
    sources = [s for s in inputs if s and s != STDOUT]
    entries = [(os.path.join(folder, name), False) for name in files]
    entries += [(os.path.join(folder, name), True) for name in folders]
    for entry, is_folder in entries:
        if os.path.exists(entry) and os.path.isdir(entry) != is_folder:
            kind = "a folder" if is_folder else "a file"
            raise UsageError(f"cannot write {entry}: it must be {kind}")
        present = [os.path.join(entry, name) for name in _listing(entry)] if is_folder else [entry]
        present = [p for p in present if os.path.isfile(p)]
        real = os.path.realpath(entry)
        for source in sources:
            source_real = os.path.realpath(source)
            inside = source_real == real or source_real.startswith(real + os.sep)
            if inside or any(_same_file(p, source) for p in present):
                raise UsageError(f"writing {entry} would overwrite the input {source}; choose another folder")
    _check_creatable(folder)


def _listing(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []
    except OSError as err:
        raise UsageError(f"cannot read the folder {folder}: {err.strerror or err}") from None


def _check_creatable(folder: str) -> None:
    """The folder exists and is writable, or its nearest existing parent is a writable folder."""
    probe = os.path.abspath(folder)
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        raise UsageError(f"cannot create {folder}: {probe} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write into {folder}: {probe} is not writable")


def make_folder(folder: str) -> None:
    """Create ``folder`` and its missing parents; a failure is one line."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as err:
        raise UsageError(f"cannot create the folder {folder}: {err.strerror or err}") from None


def _default_mode() -> int:
    """Permission bits of a new file under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def atomic_open(path: str, binary: bool = False) -> Iterator[IO[Any]]:
    """A file handle whose contents replace ``path`` only when the block ends without an error.

    Any failure is one :class:`UsageError` line (``cannot write PATH: reason``); the temporary
    file is removed and ``path`` is left as it was.
    """
    import tempfile

    if path == STDOUT:
        yield sys.stdout.buffer if binary else sys.stdout
        return
    target = os.path.realpath(path)
    mode = "wb" if binary else "w"
    encoding = None if binary else "utf-8"
    try:
        if _special(target):
            with open(target, mode, encoding=encoding) as fh:
                yield fh
            return
        try:
            keep = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            keep = _default_mode()
        fd, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=os.path.dirname(target)
        )
        try:
            with open(fd, mode, encoding=encoding) as fh:
                os.fchmod(fh.fileno(), keep)
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


def write_output(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (``-``: standard output), atomically; a failure is one line."""
    with atomic_open(path) as fh:
        fh.write(text)


class _Guarded:
    """A stream whose failed writes (a full disk, a device that takes nothing) are one
    :class:`UsageError` line instead of an ``OSError`` traceback; a closed pipe stays a
    ``BrokenPipeError`` (the reader stopped, which is no error)."""

    def __init__(self, stream: Any, name: str) -> None:
        self._stream = stream
        self._name = name

    def _guard(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self._stream, method)(*args)
        except BrokenPipeError:
            raise
        except OSError as err:
            drop_stdout()
            raise UsageError(f"cannot write {self._name}: {err.strerror or err}") from None

    def write(self, data: Any) -> Any:
        return self._guard("write", data)

    def writelines(self, lines: Iterable[Any]) -> Any:
        return self._guard("writelines", lines)

    def flush(self) -> Any:
        return self._guard("flush")

    @property
    def buffer(self) -> _Guarded:
        return _Guarded(self._stream.buffer, self._name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Standard output, inside the block, as :class:`_Guarded` makes it."""
    real = sys.stdout
    sys.stdout = _Guarded(real, "standard output")  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout = real


def drop_stdout() -> None:
    """Point the process's standard output at ``/dev/null``: what is left in its buffer cannot be
    written, and Python would report that failure again at exit."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else -1
    except (OSError, ValueError):
        return
    if fd < 0:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
