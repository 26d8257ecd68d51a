"""MUC (Vilain et al. 1995): links needed to join each entity, counted over the other partition."""

from __future__ import annotations

import numpy as np

from ..matching.cells import Cells
from .base import Metric, last_chain_overlaps


class MUC(Metric):
    name = "muc"
    title = "MUC"

    def columns(self, cells: Cells) -> list[np.ndarray]:
        c = cells
        correct = c.per_doc(c.doc, c.counts.astype(float)) - c.per_doc(c.doc)
        key_links = c.key_mentions - c.per_doc(c.key_doc)
        response_links = c.response_mentions - c.per_doc(c.response_doc)
        return [correct, key_links, correct, response_links]

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

    def last_chain_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Each side's correct links counted over its own chains: a chain's found mentions less the
        other side's chains (the last holding each id) they fall in."""

        def correct(chains: list[list[int]], other: list[list[int]]) -> float:
            return float(sum(sum(c.values()) - len(c) for c in last_chain_overlaps(chains, other)))

        key_links = sum(len(c) - 1 for c in key if c)
        response_links = sum(len(c) - 1 for c in response if c)
        return correct(key, response), float(key_links), correct(response, key), float(response_links)
