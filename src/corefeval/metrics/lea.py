"""LEA (Moosavi & Strube 2016): link-based entity-aware, each entity weighted by its size.

recall = sum_K |K| * resolution(K) / sum_K |K|, resolution(K) = the share of K's links also in one
response entity; a singleton entity counts as one self-link, resolved only if its mention is a
singleton entity on the other side too. Precision swaps key and response. This is what the
``LEA-scorer`` branch of the reference scorer computes, including its rule for a mention that is in
several entities of the other side (a key span repeated in two key entities): the branch indexes
each mention by one entity only, the last one in entity order that holds it, so a link is resolved
when both mentions' last entities are the same one.
"""

from __future__ import annotations

import numpy as np

from ..core.items import Clusters, Item, Split
from ..matching.alignment import Alignment
from ..matching.cells import Cells, IntArray, segment_sums
from ..matching.item_lookups import Aligned, OnePass, same_pairs, weighted
from .base import Metric


def _side(sizes: np.ndarray, index: np.ndarray, counts: np.ndarray, other_sizes: np.ndarray) -> float:
    """sum over entities of |E| * resolution(E), with the table seen from ``index``'s side."""
    n = counts.astype(float)
    links_found = np.bincount(index, weights=n * (n - 1) / 2, minlength=sizes.size)
    s = sizes.astype(float)
    total = float((s[s > 1] * links_found[s > 1] / (s[s > 1] * (s[s > 1] - 1) / 2)).sum())
    singles = (sizes[index] == 1) & (other_sizes == 1) & (counts == 1)
    return total + float(singles.sum())


def _stacked_side(c: Cells, sizes: IntArray, entity_doc: IntArray, index: IntArray) -> np.ndarray:
    """:func:`_side` of every document of ``c`` at once (``index``: each cell's entity on this side)."""
    n = c.counts.astype(float)
    links_found = np.bincount(index, weights=n * (n - 1) / 2, minlength=sizes.size)
    s = sizes.astype(float)
    big = s > 1
    total = segment_sums(s[big] * links_found[big] / (s[big] * (s[big] - 1) / 2), entity_doc[big], c.n_docs)
    singles = (c.key_sizes[c.rows] == 1) & (c.response_sizes[c.cols] == 1) & (c.counts == 1)
    return total + c.per_doc(c.doc, singles.astype(float))


def _one_sided(
    entity: np.ndarray, ids: np.ndarray, other_entity: np.ndarray, other_ids: np.ndarray, n_other: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The overlap table seen from one side when ids may repeat: each mention occurrence of this side
    is counted in the cell of its entity and its id's last entity on the other side (the one the
    reference indexes it by); occurrences whose id the other side lacks are left out."""
    size = int(max(ids.max(initial=-1), other_ids.max(initial=-1))) + 1
    last = np.full(size, -1, dtype=np.int64)
    np.maximum.at(last, other_ids, other_entity)
    other = last[ids]
    found = other >= 0
    width = max(n_other, 1)
    cells, counts = np.unique(entity[found] * width + other[found], return_counts=True)
    return cells // width, cells % width, counts


class LEA(Metric):
    name = "lea"
    title = "LEA"
    fractional_fields = frozenset({"recall_num", "precision_num"})

    def columns(self, cells: Cells) -> list[np.ndarray]:
        c = cells
        recall = _stacked_side(c, c.key_sizes, c.key_doc, c.rows)
        precision = _stacked_side(c, c.response_sizes, c.response_doc, c.cols)
        return [recall, c.key_mentions, precision, c.response_mentions]

    def chain_counts(self, alignment: Alignment) -> tuple[float, ...]:
        """Where ids repeat, one overlap table per side (the reference indexes a mention by its id's
        last entity on the other side) instead of the shared one."""
        a = alignment
        key_sizes = np.bincount(a.key_entity, minlength=a.n_key_entities)
        response_sizes = np.bincount(a.response_entity, minlength=a.n_response_entities)
        k, r, n = _one_sided(a.key_entity, a.key_id, a.response_entity, a.response_id, a.n_response_entities)
        recall_num = _side(key_sizes, k, n, response_sizes[r])
        r, k, n = _one_sided(a.response_entity, a.response_id, a.key_entity, a.key_id, a.n_key_entities)
        precision_num = _side(response_sizes, r, n, key_sizes[k])
        return recall_num, float(key_sizes.sum()), precision_num, float(response_sizes.sum())

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        def side(chains: list[list[int]], other: list[list[int]]) -> float:
            home: dict[int, int] = {}
            for k, chain in enumerate(other):
                for i in chain:
                    home[i] = k  # a mention in several chains is indexed by the last one
            total = 0.0
            for chain in chains:
                if len(chain) == 1:
                    at = home.get(chain[0])
                    total += 1.0 if at is not None and len(other[at]) == 1 else 0.0
                    continue
                found = sum(
                    1
                    for a in range(len(chain))
                    for b in range(a + 1, len(chain))
                    if chain[a] in home and home.get(chain[a]) == home.get(chain[b])
                )
                total += len(chain) * found / (len(chain) * (len(chain) - 1) / 2)
            return total

        return (
            side(key, response),
            float(sum(len(c) for c in key)),
            side(response, key),
            float(sum(len(c) for c in response)),
        )


def item_counts(
    clusters: Clusters, others: Clusters, to_other: dict[Item, int], aligned: Aligned, one_pass: OnePass | None = None
) -> tuple[float, float]:
    """The Universal Anaphora scorer's LEA of one side, over items: ``(sum over entities of size
    times the share of its links found, items)``; a link with an aligned split antecedent weighs its
    F1, carried on to the later links of its first item as the UA scorer does."""

    num, den = 0.0, 0.0
    for i, c in enumerate(clusters):
        if len(c) == 1:
            links = 1.0
            common = 1.0 if c[0] in to_other and len(others[to_other[c[0]]]) == 1 else 0.0
        elif one_pass is not None and i not in one_pass.mixed:
            links = len(c) * (len(c) - 1) / 2.0
            common = float(one_pass.found.links[i])
        elif not weighted(c, aligned):
            # every link weighs 1: the common links counted by entity, in time linear in the entity
            links = len(c) * (len(c) - 1) / 2.0
            common = float(same_pairs(to_other[m] for m in c if m in to_other))
        else:
            common, links = 0.0, len(c) * (len(c) - 1) / 2.0
            for i, m in enumerate(c):
                weight = 1.0
                if isinstance(m, Split) and m in aligned:
                    m, weight = aligned[m]
                if m not in to_other:
                    continue
                for m2 in c[i + 1 :]:
                    if isinstance(m2, Split) and m2 in aligned:
                        m2, weight2 = aligned[m2]
                        weight *= weight2  # carried on to the later links of m, as the UA scorer does
                    if m2 in to_other and to_other[m] == to_other[m2]:
                        common += weight
        num += len(c) * common / links
        den += len(c)
    return num, den
