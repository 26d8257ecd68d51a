"""Input as UTF-8 text: a byte that is not UTF-8 is one located error naming its line and column."""

from __future__ import annotations

from ..core.diagnostics import InputError


def decode(path: str, data: bytes) -> str:
    """``data`` as UTF-8 text; a byte that is not UTF-8 is a located :class:`InputError`."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise not_utf8(path, data, err.start) from None


def check_utf8(path: str, data: bytes, first_line: int = 1) -> None:
    """Check that ``data``, which begins the line numbered ``first_line``, is UTF-8."""
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise not_utf8(path, data, err.start, first_line) from None


def not_utf8(path: str, data: bytes, at: int, first_line: int = 1) -> InputError:
    """The error for byte ``at`` of ``data`` (which begins line ``first_line``), which is not UTF-8."""
    line = first_line + data.count(b"\n", 0, at)
    col = at - (data.rfind(b"\n", 0, at) + 1) + 1
    return InputError(path, line, f"byte 0x{data[at]:02x} at column {col} is not UTF-8 (the file must be UTF-8)")
