"""Where a reader's bytes come from: files, standard input, pipes, FIFOs and devices, gzip or not.

Every reader takes its bytes from :func:`input_blocks` (or :func:`read_input`, which joins them), so
every format reads the same inputs the same way:

* ``-`` is standard input. It can be read once; a whole read (of any format but CoNLL-2012, which
  is read block by block) is kept, so that a jsonlines file scored on its own can be read as key
  and as response.
* gzip data is recognised by its first two bytes (``1f 8b``), whatever the file's name, and is
  decompressed as a stream, a block at a time.
* A FIFO is opened once a process writes to it; with no writer after :func:`fifo_timeout` seconds
  (``COREFEVAL_FIFO_TIMEOUT``, default 30) it is an error, not a wait forever. An anonymous pipe,
  as ``<(cat file)`` gives, already has its writer.
* Inputs held in memory (:func:`held_inputs`, the doors that take texts rather than files) are
  read by their names as files are, a second read included (a key's parse column, its words).
* What a reader holds is bounded: a line longer than :func:`max_line_bytes` bytes
  (``COREFEVAL_MAX_LINE_BYTES``, default 256 MiB) is an error, and so is a NUL byte, which no text
  file has; ``/dev/zero``, ``/dev/urandom`` or a binary file are refused at once.

Every failure is a located :class:`~corefeval.core.diagnostics.InputError`.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Generator, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import BinaryIO

from ..core.diagnostics import InputError, UsageError, is_number

STDIN = "-"
#: Bytes read (or decompressed) at a time; a block of lines is cut after its last newline.
BLOCK_SIZE = 4 << 20
GZIP_MAGIC = b"\x1f\x8b"
MAX_LINE_VARIABLE = "COREFEVAL_MAX_LINE_BYTES"
FIFO_TIMEOUT_VARIABLE = "COREFEVAL_FIFO_TIMEOUT"
DEFAULT_MAX_LINE = 256 << 20
DEFAULT_FIFO_TIMEOUT = 30.0

_stdin_kept: bytes | None = None  # standard input, when it was read whole
_stdin_read = False  # whether standard input was read (block by block, so not kept)
_held: ContextVar[Mapping[str, bytes] | None] = ContextVar("corefeval_held_inputs", default=None)


def max_line_bytes() -> int:
    """The longest line a reader holds, in bytes (``COREFEVAL_MAX_LINE_BYTES``, default 256 MiB)."""
    value = os.environ.get(MAX_LINE_VARIABLE, "")
    if not value:
        return DEFAULT_MAX_LINE
    if not is_number(value) or int(value) < 1:
        raise UsageError(f"{MAX_LINE_VARIABLE} must be a positive number of bytes, not '{value[:40]}'")
    return int(value)


def fifo_timeout() -> float:
    """Seconds to wait for a FIFO's writer (``COREFEVAL_FIFO_TIMEOUT``, default 30)."""
    value = os.environ.get(FIFO_TIMEOUT_VARIABLE, "")
    if not value:
        return DEFAULT_FIFO_TIMEOUT
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < 1e9:
        raise UsageError(f"{FIFO_TIMEOUT_VARIABLE} must be a positive number of seconds, not '{value[:40]}'")
    return seconds


def check_one_stdin(paths: Iterable[str | None]) -> None:
    """A usage error unless at most one of a command's inputs is ``-`` (standard input is one stream)."""
    if sum(path == STDIN for path in paths) > 1:
        raise UsageError("only one input can be '-' (standard input); give the others as files")


def read_input(path: str, block_size: int = BLOCK_SIZE) -> bytes:
    """The whole input at ``path`` (see :func:`input_blocks`); one of nothing but white space is an error."""
    return whole(path, input_blocks(path, block_size))


def whole(path: str, blocks: Iterable[tuple[bytes, bool]]) -> bytes:
    """The bytes of ``blocks`` (of the input at ``path``) joined; standard input read whole is kept
    for a later read. An input of nothing but white space is an error."""
    global _stdin_kept
    data = b"".join(block for block, _ in blocks)
    if path == STDIN:
        _stdin_kept = data
    if not data or data.isspace():
        raise InputError(path, 1, "the file is empty")
    return data


def read_binary(path: str, block_size: int = BLOCK_SIZE) -> bytes:
    """The whole input at ``path`` as bytes that need not be text (a spaCy DocBin), opened as every
    input is (``-``, FIFOs, gzip)."""
    with _opened(path) as fh:
        return b"".join(_decompressed(path, _chunks(path, fh, block_size), block_size))


def input_blocks(path: str, block_size: int = BLOCK_SIZE) -> Generator[tuple[bytes, bool], None, None]:
    """The input's bytes (decompressed if gzip) as blocks of whole lines, each ending with a newline,
    then what follows the last newline (marked final, possibly empty).

    A NUL byte or a line longer than :func:`max_line_bytes` is a located :class:`InputError`, found
    before more than that line is held.
    """
    limit = max_line_bytes()
    size = min(block_size, limit)
    line = 1  # the line the pending bytes belong to
    pending: list[bytes | memoryview] = []
    held = 0  # bytes pending (after the last newline)
    with _opened(path) as fh:
        for chunk in _decompressed(path, _chunks(path, fh, size), size):
            nul = chunk.find(b"\0")
            if nul >= 0:
                newline = chunk.rfind(b"\n", 0, nul)
                column = nul - newline if newline >= 0 else held + nul + 1
                raise InputError(
                    path,
                    line + chunk.count(b"\n", 0, nul),
                    f"NUL byte at column {column}: a text file has none (is this a binary file?)",
                )
            first = chunk.find(b"\n")
            if held + (len(chunk) if first < 0 else first) > limit:
                raise InputError(
                    path,
                    line,
                    f"line longer than {limit} bytes, the most a line may hold (set {MAX_LINE_VARIABLE} to raise it)",
                )
            if first < 0:
                pending.append(chunk)
                held += len(chunk)
                continue
            last = chunk.rfind(b"\n")
            pending.append(memoryview(chunk)[: last + 1])  # joined below: one copy of the block, not two
            yield b"".join(pending), False
            line += chunk.count(b"\n")
            pending = [chunk[last + 1 :]]
            held = len(chunk) - last - 1
        yield b"".join(pending), True


@contextmanager
def held_inputs(inputs: Mapping[str, str | bytes]) -> Iterator[None]:
    """While the context lasts, each name of ``inputs`` is an input whose content is its value (text
    or UTF-8 bytes): every reader reads it by that name as it reads a file, as often as it needs."""
    data = {name: text.encode("utf-8") if isinstance(text, str) else text for name, text in inputs.items()}
    token = _held.set({**(_held.get() or {}), **data})
    try:
        yield
    finally:
        _held.reset(token)


@contextmanager
def _opened(path: str) -> Iterator[BinaryIO]:
    """The input at ``path`` opened for reading, unbuffered (standard input for ``-``, an input
    held in memory by its name)."""
    global _stdin_read
    held = (_held.get() or {}).get(path)
    if held is not None:
        from io import BytesIO

        yield BytesIO(held)
        return
    if path == STDIN:
        if _stdin_kept is not None:
            from io import BytesIO

            yield BytesIO(_stdin_kept)
            return
        if _stdin_read:
            raise UsageError("standard input ('-') was read already; it can be only one of the inputs")
        _stdin_read = True
        yield sys.stdin.buffer
        return
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as err:
        raise InputError(path, 0, f"cannot read the file: {_reason(err)}") from None
    if stat.S_ISDIR(mode):
        raise InputError(path, 0, "cannot read the file: it is a directory")
    try:
        fd = _open_fifo(path) if stat.S_ISFIFO(mode) else os.open(path, os.O_RDONLY)
    except OSError as err:
        raise InputError(path, 0, f"cannot read the file: {_reason(err)}") from None
    with open(fd, "rb", buffering=0) as fh:
        yield fh


def _open_fifo(path: str) -> int:
    """A FIFO opened for reading once a process writes to it; an error after :func:`fifo_timeout`
    seconds without one (the open is then released by opening the FIFO for writing)."""
    import threading

    timeout = fifo_timeout()
    opened: list[int] = []
    failed: list[OSError] = []

    def open_blocking() -> None:
        try:
            opened.append(os.open(path, os.O_RDONLY))
        except OSError as err:
            failed.append(err)

    waiter = threading.Thread(target=open_blocking, daemon=True)
    waiter.start()
    waiter.join(timeout)
    if waiter.is_alive():
        with suppress(OSError):
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        waiter.join(1.0)
        for fd in opened:
            os.close(fd)
        raise InputError(
            path,
            0,
            f"no process writes to this FIFO (waited {timeout:g} s; {FIFO_TIMEOUT_VARIABLE} sets the wait)",
        )
    if failed:
        raise failed[0]
    return opened[0]


def _chunks(path: str, fh: BinaryIO, size: int) -> Iterator[bytes]:
    """The raw bytes of ``fh``, ``size`` at most at a time; a failing read is an :class:`InputError`."""
    while True:
        try:
            chunk = fh.read(size)
        except OSError as err:
            raise InputError(path, 0, f"cannot read the file: {_reason(err)}") from None
        if not chunk:
            return
        yield chunk


def _decompressed(path: str, chunks: Iterator[bytes], size: int) -> Iterator[bytes]:
    """``chunks``, decompressed as a stream if they begin with the gzip magic bytes (output ``size``
    bytes at most at a time, whatever the compression ratio)."""
    head = b""
    while len(head) < len(GZIP_MAGIC):  # no loop variable: nothing keeps a block alive after it is given
        known = len(head)
        head += next(chunks, b"")
        if len(head) == known:
            break
    if not head.startswith(GZIP_MAGIC):
        if head:
            yield head
        del head  # not held while the rest is read
        yield from chunks
        return
    yield from _gunzip(path, head, chunks, size)


def _gunzip(path: str, head: bytes, chunks: Iterator[bytes], size: int) -> Iterator[bytes]:
    """The decompressed bytes of gzip data (one member or several, as ``cat a.gz b.gz`` gives)."""
    import zlib

    stream = zlib.decompressobj(wbits=31)
    started = False  # whether the current member has been given any input
    for data in _prepend(head, chunks):
        while True:
            started |= bool(data)
            try:
                out = stream.decompress(data, size)
            except zlib.error as err:
                raise InputError(path, 0, f"not a readable gzip file: {err}") from None
            if out:
                yield out
            if stream.eof:  # another member may follow
                data, stream, started = stream.unused_data, zlib.decompressobj(wbits=31), False
            else:
                data = stream.unconsumed_tail
            if not data and not out:  # the input is used up and nothing is left to give
                break
    if started and not stream.eof:
        raise InputError(path, 0, "the gzip data is truncated (the file ends inside it)")


def _prepend(head: bytes, chunks: Iterator[bytes]) -> Iterator[bytes]:
    yield head
    yield from chunks


def _reason(err: Exception) -> str:
    return (err.strerror if isinstance(err, OSError) else None) or str(err)
