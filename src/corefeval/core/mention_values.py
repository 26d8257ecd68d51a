"""Mentions given in memory, as a training loop or a JSON file gives them: a list (JSON has no
tuples, so ``json.load`` gives the span ``(3, 5)`` as ``[3, 5]``) is the tuple of its items."""

from __future__ import annotations

from typing import Any


def as_hashable(mention: Any) -> Any:
    """``mention``, with every list in it (itself, or an item, at any depth) made a tuple."""
    if type(mention) is list:
        return tuple(as_hashable(item) for item in mention)
    return mention


def lists_as_tuples(mentions: list[Any]) -> list[Any]:
    """``mentions`` with each :func:`as_hashable` (the list itself when no mention is a list)."""
    if not any(type(m) is list for m in mentions):
        return mentions
    return [as_hashable(m) for m in mentions]
