"""Holm's step-down correction for testing several systems against one baseline."""

from __future__ import annotations

from collections.abc import Sequence


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the input order (monotone, capped at 1).

    The i-th smallest p-value (0-based) is multiplied by (m - i), and each adjusted value is at
    least the one before it in that order.
    """
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out
