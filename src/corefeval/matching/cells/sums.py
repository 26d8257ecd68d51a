"""Sums per segment of a concatenated array, added in the order ``ndarray.sum`` adds them, or one
value after another (the order of a plain loop, which the reference scorer's sums follow)."""

from __future__ import annotations

import numpy as np

IntArray = np.ndarray

_UNROLL = 8  # numpy's pairwise summation: 8 partial sums per block ...
_BLOCK = 128  # ... of at most 128 elements; longer runs are halved (at a multiple of 8)


def segment_sums(values: np.ndarray, segments: IntArray, n: int) -> np.ndarray:
    """``values[segments == s].sum()`` for every ``s < n``, bit for bit, in one pass.

    ``segments`` must be sorted. ``ndarray.sum`` adds pairwise (runs under 8 elements in order;
    up to 128 elements in 8 interleaved partial sums; longer runs as the sum of two halves), so a
    plain per-segment ``bincount`` would differ from it in the last bit; this repeats its order.
    """
    if n == 1:  # one document (a stack of one): numpy's own sum, without the per-block passes
        return np.array([np.asarray(values, dtype=float).sum()])
    lengths = np.bincount(segments, minlength=n)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    return _pairwise(np.asarray(values, dtype=float), starts, lengths)


def _pairwise(x: np.ndarray, starts: IntArray, lengths: IntArray) -> np.ndarray:
    out = np.zeros(lengths.size)
    long = lengths > _BLOCK
    out[~long] = _blocks(x, starts[~long], lengths[~long])
    if long.any():
        s, n = starts[long], lengths[long]
        half = n // 2
        half -= half % _UNROLL
        out[long] = _pairwise(x, s, half) + _pairwise(x, s + half, n - half)
    return out


def _ranges(starts: IntArray, lengths: IntArray) -> tuple[IntArray, IntArray]:
    """For runs ``[start, start + length)``: each element's run number and offset in its run."""
    run = np.repeat(np.arange(starts.size), lengths)
    first = np.cumsum(lengths) - lengths
    return run, np.arange(run.size) - first[run]


def _blocks(x: np.ndarray, starts: IntArray, lengths: IntArray) -> np.ndarray:
    """Sums of runs of at most 128 elements, in numpy's order."""
    out = np.zeros(lengths.size)
    short = lengths < _UNROLL
    if short.any():
        run, offset = _ranges(starts[short], lengths[short])
        out[short] = np.bincount(run, weights=x[starts[short][run] + offset], minlength=int(short.sum()))
    if not short.all():
        s, n = starts[~short], lengths[~short]
        main = n - n % _UNROLL
        run, offset = _ranges(s, main)
        bins = run * _UNROLL + offset % _UNROLL
        r = np.bincount(bins, weights=x[s[run] + offset], minlength=s.size * _UNROLL).reshape(s.size, _UNROLL)
        total = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + ((r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7]))
        # The remainder of each run is added one element at a time: runs with the longest
        # remainders first, so that the runs still adding are always a prefix.
        by_tail = np.argsort(main - n, kind="stable")
        total, tail = total[by_tail], (s + main)[by_tail]
        still = np.bincount(n - main, minlength=_UNROLL)[::-1].cumsum()[::-1]  # runs with tail > j
        for j in range(_UNROLL - 1):
            k = int(still[j + 1])
            if k == 0:
                break
            total[:k] += x[tail[:k] + j]
        out[np.flatnonzero(~short)[by_tail]] = total
    return out


def sequential_sums(values: np.ndarray, segments: IntArray, n: int) -> np.ndarray:
    """Each segment's values added one after another from the left (``((0 + v0) + v1) + ...``), for
    every ``s < n``, bit for bit: the order of a plain loop. ``segments`` must be sorted; ``values``
    may have columns, each summed on its own (shape ``(n,)`` or ``(n, columns)``).

    The work is ``min(segments, longest segment)`` numpy steps: one ``np.add.accumulate`` (which
    adds in order) per segment, or, when segments outnumber positions, one step per position adding
    it to every segment still running (segments longest first, so that those are a prefix).
    """
    x = np.asarray(values, dtype=float)
    lengths = np.bincount(segments, minlength=n)
    starts = np.cumsum(lengths) - lengths
    out = np.zeros((n, *x.shape[1:]))
    longest = int(lengths.max()) if n else 0
    if n <= longest:
        for s, (a, m) in enumerate(zip(starts.tolist(), lengths.tolist())):
            if m:
                out[s] = np.add.accumulate(x[a : a + m], axis=0)[-1]
        return out
    order = np.argsort(-lengths, kind="stable")
    first, size = starts[order], lengths[order]
    total = np.zeros_like(out)
    for j, k in enumerate(np.searchsorted(-size, -np.arange(longest), side="left").tolist()):
        total[:k] += x[first[:k] + j]
    out[order] = total
    return out
