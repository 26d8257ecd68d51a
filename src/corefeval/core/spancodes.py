"""One exact 64-bit integer per mention span: equal codes for equal (document, start, end), in their order.

Span matching sorts and compares one integer per mention. ``start * width + end`` (with a
per-document base) is the cheap code, but only while every product and sum stays below 2**62;
token offsets of a few billion would wrap around int64 and make different spans equal. Where the
arithmetic code does not fit, each mention is coded by the dense rank of its (document, start, end)
triple instead: exact for any int64 offset (negative ones too), and still in the triples' order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

IntArray = np.ndarray

#: Arithmetic codes must stay below this (a margin under 2**63 for the float check of their size).
MAX_CODE = 2**62

#: One side of many documents: its starts, its ends, and how many consecutive rows each document has.
Side = tuple[IntArray, IntArray, IntArray]


def span_codes(sides: Sequence[Side]) -> list[IntArray]:
    """A code per row of every side, shared across sides: two rows (of one side or of two) have
    equal codes exactly when their document, start and end are equal, and codes are ordered as
    (document, start, end) are. Every side must have the same number of documents."""
    n_docs = sides[0][2].size
    highest = np.full(n_docs, -1, dtype=np.int64)
    lowest = 0
    for starts, ends, lengths in sides:
        if starts.size:
            lowest = min(lowest, int(starts.min()), int(ends.min()))
            highest = np.maximum(highest, _segment_max(np.maximum(starts, ends), lengths))
    width_f = highest.astype(float) + 1.0
    if lowest >= 0 and float(np.square(width_f).sum()) < MAX_CODE:
        width = highest + 1  # every width is below 2**31 here: no product below can wrap
        span = width * width
        base = np.cumsum(span) - span
        if n_docs == 1:  # one document (the per-document path): no base, one width
            return [starts * width[0] + ends for starts, ends, _ in sides]
        out = []
        for starts, ends, lengths in sides:
            doc = np.repeat(np.arange(n_docs), lengths)
            out.append(base[doc] + starts * width[doc] + ends)
        return out
    return _ranks(sides, n_docs)


def _segment_max(values: IntArray, lengths: IntArray) -> IntArray:
    """The largest value of each run of ``lengths`` consecutive rows (-1 for an empty run)."""
    out = np.full(lengths.size, -1, dtype=np.int64)
    full = lengths > 0
    if full.any():
        out[full] = np.maximum.reduceat(values, (np.cumsum(lengths) - lengths)[full])
    return out


def _ranks(sides: Sequence[Side], n_docs: int) -> list[IntArray]:
    """Codes as dense ranks of the (document, start, end) triples of all sides together."""
    doc = np.concatenate([np.repeat(np.arange(n_docs), lengths) for _, _, lengths in sides])
    starts = np.concatenate([s for s, _, _ in sides]).astype(np.int64, copy=False)
    ends = np.concatenate([e for _, e, _ in sides]).astype(np.int64, copy=False)
    order = np.lexsort((ends, starts, doc))
    d, s, e = doc[order], starts[order], ends[order]
    new = np.ones(order.size, dtype=bool)
    new[1:] = (d[1:] != d[:-1]) | (s[1:] != s[:-1]) | (e[1:] != e[:-1])
    codes = np.empty(order.size, dtype=np.int64)
    codes[order] = np.cumsum(new) - 1
    cuts = np.cumsum([s.size for s, _, _ in sides])[:-1]
    return np.split(codes, cuts)
