"""MUC (Vilain et al. 1995): links needed to join each entity, counted over the other partition."""

from __future__ import annotations

from ..alignment import Alignment
from .base import Metric


class MUC(Metric):
    name = "muc"
    title = "MUC"

    def table_counts(self, alignment: Alignment) -> tuple[float, ...]:
        t = alignment.contingency
        correct = float(t.counts.sum() - t.counts.size)
        key_links = float((t.key_sizes[t.key_sizes > 0] - 1).sum())
        response_links = float((t.response_sizes[t.response_sizes > 0] - 1).sum())
        return correct, key_links, correct, response_links

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """A response mention counts when a later mention of its chain has the same key chain (a
        mention's key chain: the last one holding it). Counted per (response chain, key chain) group,
        in linear time: a group of g mentions has g - 1 that are followed by another."""
        chain_of = {i: k for k, chain in enumerate(key) for i in chain}
        correct = 0
        for chain in response:
            found = [chain_of[i] for i in chain if i in chain_of]
            correct += len(found) - len(set(found))
        key_links = sum(len(c) - 1 for c in key if c)
        response_links = sum(len(c) - 1 for c in response if c)
        return float(correct), float(key_links), float(correct), float(response_links)
