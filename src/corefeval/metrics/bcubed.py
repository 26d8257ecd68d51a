"""B-cubed (Bagga & Baldwin 1998): per-mention overlap of the mention's key and response entities."""

from __future__ import annotations

from collections import Counter, defaultdict

import numpy as np

from ..core.items import Clusters, Item, Split
from ..matching.cells import Cells, segment_sums, sequential_sums
from ..matching.item_lookups import Aligned, OnePass
from .base import Metric, last_chain_overlaps


class BCubed(Metric):
    name = "bcub"
    title = "B-cubed"
    fractional_fields = frozenset({"recall_num", "precision_num"})

    def columns(self, cells: Cells) -> list[np.ndarray]:
        """Each response mention found in the key adds c / |K| and c / |R| (c: the mentions its key
        and response entities share), added mention by mention in the reference scorer's order, so
        that the numerators are its own to the last bit; cells known only by their counts add
        c * c / |K| cell by cell."""
        c = cells
        if c.response_cells is None:
            sq = c.counts.astype(float) ** 2
            recall = segment_sums(sq / c.key_sizes[c.rows], c.doc, c.n_docs)
            precision = segment_sums(sq / c.response_sizes[c.cols], c.doc, c.n_docs)
        else:
            cell = c.response_cells
            shared = c.counts[cell].astype(float)
            terms = np.column_stack([shared / c.key_sizes[c.rows[cell]], shared / c.response_sizes[c.cols[cell]]])
            recall, precision = sequential_sums(terms, c.doc[cell], c.n_docs).T
        return [recall, c.key_mentions, precision, c.response_mentions]

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Each response mention adds c / |R| and c / |K|, in mention order, where K is the last key
        chain holding it and c counts R's mentions that are in K. c depends only on (R, K): it is
        counted once per pair from the ids both chains share, so the whole is linear in the mentions."""
        chain_of = {i: k for k, chain in enumerate(key) for i in chain}
        shared = _shared(key, response)
        recall_num = precision_num = 0.0
        for r, chain in enumerate(response):
            for i in chain:
                k = chain_of.get(i)
                if k is None:
                    continue
                c = shared.get((r, k), 0)
                precision_num += c / len(chain)
                recall_num += c / len(key[k])
        return (recall_num, float(sum(len(c) for c in key)), precision_num, float(sum(len(c) for c in response)))

    def last_chain_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Each chain adds the sum of squares of its overlaps with the other side's chains (a mention
        in the last chain holding its id), over its size."""

        def side(chains: list[list[int]], other: list[list[int]]) -> float:
            overlaps = last_chain_overlaps(chains, other)
            return sum(sum(n * n for n in c.values()) / len(chain) for chain, c in zip(chains, overlaps) if chain)

        n_key, n_response = float(sum(len(c) for c in key)), float(sum(len(c) for c in response))
        return side(key, response), n_key, side(response, key), n_response


def _shared(key: list[list[int]], response: list[list[int]]) -> dict[tuple[int, int], int]:
    """For every (response chain, key chain) pair that shares an id: how many of the response
    chain's mentions have an id of the key chain."""
    in_response: dict[int, Counter[int]] = {}
    for r, chain in enumerate(response):
        for i in chain:
            in_response.setdefault(i, Counter())[r] += 1
    out: dict[tuple[int, int], int] = {}
    for k, chain in enumerate(key):
        for i in set(chain):
            for r, n in in_response.get(i, {}).items():
                out[r, k] = out.get((r, k), 0) + n
    return out


def item_counts(
    clusters: Clusters, to_other: dict[Item, int], aligned: Aligned, one_pass: OnePass | None = None
) -> tuple[float, float]:
    """The Universal Anaphora scorer's B-cubed of one side, over items: ``(sum over entities of the
    squared items found per entity of the other side over the entity's size, items)``; an aligned
    split antecedent counts its F1 in its partner's entity."""

    num, den = 0.0, 0.0
    for i, c in enumerate(clusters):
        if one_pass is not None and i not in one_pass.mixed:
            num += one_pass.found.squares[i] / len(c)
            den += len(c)
            continue
        counts: dict[int, float] = defaultdict(float)
        for m in c:
            if isinstance(m, Split):
                if m in aligned:
                    counts[to_other[aligned[m][0]]] += aligned[m][1]
            elif m in to_other:
                counts[to_other[m]] += 1
        num += sum(v * v for v in counts.values()) / len(c)
        den += len(c)
    return num, den
