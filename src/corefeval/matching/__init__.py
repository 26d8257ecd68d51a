"""Matching: key and response mentions paired (exact, head, partial, minimum spans), selected and
filtered, entities assigned, and the contingency cells every metric reads (:mod:`.cells`)."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """The names of the former module ``corefeval.matching``, now :mod:`.head_and_partial`."""
    from .._moved import forwarded

    return forwarded(__name__, "head_and_partial", name)
