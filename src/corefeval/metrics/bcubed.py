"""B-cubed (Bagga & Baldwin 1998): per-mention overlap of the mention's key and response entities."""

from __future__ import annotations

from ..alignment import Alignment
from .base import Metric


class BCubed(Metric):
    name = "bcub"
    title = "B-cubed"
    fractional_fields = frozenset({"recall_num", "precision_num"})

    def table_counts(self, alignment: Alignment) -> tuple[float, ...]:
        t = alignment.contingency
        sq = t.counts.astype(float) ** 2
        recall_num = float((sq / t.key_sizes[t.rows]).sum())
        precision_num = float((sq / t.response_sizes[t.cols]).sum())
        return recall_num, float(t.key_sizes.sum()), precision_num, float(t.response_sizes.sum())

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        chain_of = {i: chain for chain in key for i in chain}
        recall_num = precision_num = 0.0
        for chain in response:
            for i in chain:
                k = chain_of.get(i)
                if k is None:
                    continue
                members = set(k)
                c = sum(1 for j in chain if j in members)
                precision_num += c / len(chain)
                recall_num += c / len(k)
        return (recall_num, float(sum(len(c) for c in key)), precision_num, float(sum(len(c) for c in response)))
