"""What the JSON readers (e2e-coref jsonlines, model predictions and outputs, language-model JSON)
need: one line parsed as an object or a whole file as one value, and offsets checked to be what
they claim.

JSON has one number type; Python reads ``true``/``false`` as ``bool`` (a subclass of ``int``) and
long digit strings as integers only up to its int-string limit (a ``ValueError`` from inside
``json``). Offsets are therefore checked by exact type and range, and an integer of more digits
than any offset can have is kept as a :class:`HugeInteger` marker, never converted.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.diagnostics import InputError

#: Offsets are stored in int64 arrays; anything at or past this cannot be an offset.
OFFSET_LIMIT = 1 << 63
_MAX_DIGITS = len(str(OFFSET_LIMIT))  # longer digit strings are never converted


class HugeInteger:
    """A JSON integer too long to be an offset, kept as its number of digits (never converted)."""

    __slots__ = ("digits",)

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"<a {self.digits}-digit integer>"


def _integer(digits: str) -> int | HugeInteger:
    return int(digits) if len(digits.lstrip("-")) <= _MAX_DIGITS else HugeInteger(digits)


_DECODER = json.JSONDecoder(parse_int=_integer)


def parse(text: str) -> Any:
    """``json.loads`` with integers too long to be offsets kept as :class:`HugeInteger` markers;
    raises what ``json.loads`` raises for broken or too deeply nested JSON. (One decoder serves
    every call, as ``json.loads`` makes one per call: a file may have a million lines.)"""
    if text.startswith("\ufeff"):  # as json.loads says it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


def load_object(path: str, line: int, text: str) -> dict[str, Any]:
    """One line of a jsonlines file as its JSON object; anything else is the located error."""
    try:
        obj = parse(text)
    except json.JSONDecodeError as err:
        raise InputError(path, line, f"not a JSON object: {err.msg} at column {err.colno}") from None
    except RecursionError:
        raise InputError(path, line, "JSON nested too deeply to be a document") from None
    if not isinstance(obj, dict):
        raise InputError(path, line, "a line must hold one JSON object")
    return obj


def load_file(path: str, text: str) -> Any:
    """A whole file as one JSON value (a leading byte-order mark allowed); broken JSON is the
    located error."""
    try:
        return parse(text.lstrip("\ufeff"))
    except json.JSONDecodeError as err:
        raise InputError(path, err.lineno, f"not JSON: {err.msg}") from None
    except RecursionError:
        raise InputError(path, 1, "JSON nested too deeply") from None


def is_offset(value: object) -> bool:
    """Whether ``value`` is a JSON integer usable as an offset (``true``, ``1.0``, ``"1"`` are not)."""
    return type(value) is int and 0 <= value < OFFSET_LIMIT


def is_span(value: object) -> bool:
    """Whether ``value`` is ``[start, end]``: two offsets with ``start <= end``."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and is_offset(value[0])
        and is_offset(value[1])
        and value[0] <= value[1]
    )


def shown(value: object, width: int = 40) -> str:
    """``value`` as JSON-like text for a message, cut to ``width`` characters."""
    text = _short_repr(value, width)
    return text if len(text) <= width else text[: width - 1] + "…"


def _short_repr(value: object, width: int, depth: int = 0) -> str:
    """The ``repr`` of a (possibly huge or deep) value, built only as far as ``width`` characters."""
    if isinstance(value, list):
        if depth > 3:
            return "[…]"
        parts: list[str] = []
        size = 1
        for item in value:
            if size >= width:
                parts.append("…")
                break
            parts.append(_short_repr(item, width, depth + 1))
            size += len(parts[-1]) + 2
        return "[" + ", ".join(parts) + "]"
    if isinstance(value, dict):
        return "{…}"
    return repr(value)[: width + 1]
