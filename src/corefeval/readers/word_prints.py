"""Fingerprints of words: a 64-bit number per word, so two files' words are compared cheaply.

A reader keeps each document's word fingerprints (eight bytes a word, made column-wise from the
file's bytes) instead of its words (a Python string a word, several times the reading time); the
check that key and response have the same words compares fingerprints, and only a difference is
looked up in the files' text (see :mod:`corefeval.matching.word_check`).

A word's fingerprint mixes its UTF-8 bytes eight at a time (each piece read as one little-endian
integer, so the cost is one step per eight bytes for all words at once) with its length; an empty
word is ``_`` (a writer's placeholder for a missing word). Two different words share a fingerprint
with a chance of about 2**-64.
"""

from __future__ import annotations

import numpy as np

_MIX = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplying by it loses nothing modulo 2**64
_STEP = np.uint64(0xC2B2AE3D27D4EB4F)
_SHIFT = np.uint64(29)
#: ``LOW_BYTES[k]`` keeps the first ``k`` bytes (0 to 8) of a little-endian piece of eight.
LOW_BYTES = np.asarray([(1 << (8 * k)) - 1 for k in range(8)] + [2**64 - 1], dtype=np.uint64)


def eight_bytes(data: bytes) -> np.ndarray:
    """``data``'s eight bytes from each offset as a little-endian integer (offsets 0 to
    ``len(data)``; past the end, zeros): one view, no copy of eight bytes per offset."""
    padded = np.frombuffer(data + bytes(8), dtype=np.uint8)
    return np.ndarray(shape=(len(data) + 1,), dtype="<u8", buffer=padded, strides=(1,))


def fingerprints(data: bytes, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The fingerprint of each word ``data[start[i]:end[i]]``, in time linear in the words' bytes
    (a constant number of numpy passes over their eight-byte pieces, however long a word is)."""
    eights = eight_bytes(data)
    start = np.asarray(start, dtype=np.int64)
    lengths = np.maximum(np.asarray(end, dtype=np.int64) - start, 0)
    sums = _mixed(eights[start] & LOW_BYTES[np.minimum(lengths, 8)])  # a word of one piece: its only term
    long = np.flatnonzero(lengths > 8)
    if long.size:
        sums[long] = _sums(eights, start[long], lengths[long])
    out = _mixed(sums ^ (lengths.astype(np.uint64) * _STEP))
    out[lengths == 0] = PLACEHOLDER
    return out


def _sums(eights: np.ndarray, start: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Each word's pieces of eight bytes mixed with their place and added up."""
    pieces = (lengths + 7) // 8
    word_of = np.repeat(np.arange(start.size), pieces)
    firsts = np.cumsum(pieces) - pieces
    index = np.arange(word_of.size) - firsts[word_of]
    left = lengths[word_of] - 8 * index
    value = eights[start[word_of] + 8 * index] & LOW_BYTES[np.minimum(left, 8)]
    mixed = _mixed(value ^ (index.astype(np.uint64) * _STEP))
    sums = np.zeros(start.size, dtype=np.uint64)
    some = np.flatnonzero(pieces)
    if some.size:
        sums[some] = np.add.reduceat(mixed, firsts[some], dtype=np.uint64)
    return sums


def _mixed(x: np.ndarray) -> np.ndarray:
    x = x * _MIX
    return (x ^ (x >> _SHIFT)) * _MIX


def of_words(words: list[str]) -> np.ndarray:
    """The fingerprints of words given as text, as :func:`fingerprints` makes them from bytes
    (words without a line break are encoded at once, their ends found column-wise)."""
    joined = "\n".join(words).encode("utf-8")
    if words and joined.count(b"\n") == len(words) - 1:  # no word holds a line break
        breaks = np.flatnonzero(np.frombuffer(joined, dtype=np.uint8) == ord("\n"))
        return fingerprints(joined, np.concatenate(([0], breaks + 1)), np.append(breaks, len(joined)))
    encoded = [w.encode("utf-8") for w in words]
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    start = np.cumsum(lengths) - lengths
    return fingerprints(b"".join(encoded), start, start + lengths)


PLACEHOLDER = np.uint64(0)
PLACEHOLDER = of_words(["_"])[0]  # the fingerprint of ``_``, which an empty word also gets
#: Words that stand for no word: a file written without its words has them everywhere.
PLACEHOLDERS = np.asarray([PLACEHOLDER, of_words(["-"])[0]], dtype=np.uint64)


def formless(prints: np.ndarray | None) -> bool:
    """Whether a document carries no words to compare: none kept, or placeholders only."""
    return prints is None or bool(np.isin(prints, PLACEHOLDERS).all())
