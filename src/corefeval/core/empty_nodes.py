"""Positions of words and empty nodes (CorefUD zeros) in a document: one integer per node, words
from 0 and empty nodes from :data:`EMPTY` up, so that sorting positions sorts nodes in text order
within a sentence's words. A model concept, shared by readers, writers, matching and metrics."""

from __future__ import annotations

#: Positions at or above this are empty nodes (zeros).
EMPTY = 1 << 40
EMPTY_SLOTS = 64
MAX_WORDS = 1 << 20
#: The head of a mention whose file gives neither a ``head`` field nor a syntactic tree for its words.
NO_HEAD = -1
#: The parent of a word whose HEAD is ``_`` (no tree); lower than any position, so outside every mention.
NO_PARENT = -2


def is_empty(position: int) -> bool:
    return position >= EMPTY


def empty_position(sentence: int, word: int, k: int) -> int:
    """Position of empty node ``word.k`` of the document's ``sentence``-th sentence (0-based)."""
    return EMPTY + (sentence << 26) + (word << 6) + k - 1


def empty_id(position: int) -> tuple[int, int, int]:
    """Inverse of :func:`empty_position`: ``(sentence, word, k)``."""
    rest = position - EMPTY
    return rest >> 26, (rest >> 6) & ((1 << 20) - 1), (rest & 63) + 1


__all__ = ["EMPTY", "EMPTY_SLOTS", "MAX_WORDS", "NO_HEAD", "NO_PARENT", "empty_id", "empty_position", "is_empty"]
