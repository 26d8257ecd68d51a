"""LEA (Moosavi & Strube 2016): link-based entity-aware, each entity weighted by its size.

recall = sum_K |K| * resolution(K) / sum_K |K|, resolution(K) = the share of K's links also in one
response entity; a singleton entity counts as one self-link, resolved only if its mention is a
singleton entity on the other side too. Precision swaps key and response. This is what the
``LEA-scorer`` branch of the reference scorer computes.
"""

from __future__ import annotations

import numpy as np

from ..alignment import Alignment
from .base import Metric


def _side(sizes: np.ndarray, index: np.ndarray, counts: np.ndarray, other_sizes: np.ndarray) -> float:
    """sum over entities of |E| * resolution(E), with the table seen from ``index``'s side."""
    n = counts.astype(float)
    links_found = np.bincount(index, weights=n * (n - 1) / 2, minlength=sizes.size)
    s = sizes.astype(float)
    total = float((s[s > 1] * links_found[s > 1] / (s[s > 1] * (s[s > 1] - 1) / 2)).sum())
    singles = (sizes[index] == 1) & (other_sizes == 1) & (counts == 1)
    return total + float(singles.sum())


class LEA(Metric):
    name = "lea"
    title = "LEA"

    def table_counts(self, alignment: Alignment) -> tuple[float, ...]:
        t = alignment.contingency
        recall_num = _side(t.key_sizes, t.rows, t.counts, t.response_sizes[t.cols])
        precision_num = _side(t.response_sizes, t.cols, t.counts, t.key_sizes[t.rows])
        return recall_num, float(t.key_sizes.sum()), precision_num, float(t.response_sizes.sum())

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        def side(chains: list[list[int]], other: list[list[int]]) -> float:
            where: dict[int, set[int]] = {}
            for k, chain in enumerate(other):
                for i in chain:
                    where.setdefault(i, set()).add(k)
            total = 0.0
            for chain in chains:
                if len(chain) == 1:
                    homes = where.get(chain[0], set())
                    total += 1.0 if any(len(other[k]) == 1 for k in homes) else 0.0
                    continue
                found = sum(
                    1
                    for a in range(len(chain))
                    for b in range(a + 1, len(chain))
                    if where.get(chain[a], set()) & where.get(chain[b], set())
                )
                total += len(chain) * found / (len(chain) * (len(chain) - 1) / 2)
            return total

        return (
            side(key, response),
            float(sum(len(c) for c in key)),
            side(response, key),
            float(sum(len(c) for c in response)),
        )
