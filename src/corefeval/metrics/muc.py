"""MUC (Vilain et al. 1995): links needed to join each entity, counted over the other partition."""

from __future__ import annotations

import numpy as np

from ..core.items import Clusters, Item, Split
from ..matching.cells import Cells
from ..matching.item_lookups import Aligned, OnePass
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


def item_counts(
    clusters: Clusters,
    others: Clusters,
    to_other: dict[Item, int],
    aligned: Aligned,
    singletons: bool,
    one_pass: OnePass | None = None,
) -> tuple[float, float]:
    """The Universal Anaphora scorer's MUC of one side, over items (mentions and split antecedents):
    ``(correct links, links)``. An aligned split antecedent in an entity linked to its partner's
    costs one link less its F1; ``singletons``: a singleton counts one link, found when its item is
    a singleton on the other side; ``one_pass``: entities without a split antecedent counted from
    it."""

    tp, p = 0.0, 0.0
    for i, c in enumerate(clusters):
        if len(c) == 1 and singletons:
            p += 1
            if c[0] in to_other and len(others[to_other[c[0]]]) == 1:
                tp += 1
            continue
        p += len(c) - 1
        if one_pass is not None and i not in one_pass.mixed:
            tp += one_pass.found.found[i] - one_pass.found.spread[i]
            continue
        tp += len(c)
        linked = set()
        split = None
        for m in c:
            if isinstance(m, Split):
                split = m
            elif m in to_other:
                linked.add(to_other[m])
            else:
                tp -= 1
        if split is not None:
            if split in aligned and to_other[aligned[split][0]] in linked:
                tp -= 1 - aligned[split][1]
            else:
                tp -= 1
        tp -= len(linked)
    return tp, p
