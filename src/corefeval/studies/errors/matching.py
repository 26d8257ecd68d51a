"""Mention and chain alignment for error analysis.

Mentions are paired one-to-one: identical spans first, then the remaining response mentions with
the remaining key mentions they overlap (an optimal assignment maximising the shared tokens, ties
broken by the smallest boundary shift, then by a key mention of a chain the response mention's
chain already shares mentions with); such a pair is a border error. Chains are then paired
one-to-one by an optimal assignment maximising the mentions they share, with a half-point bonus
when both chains start with the same mention (the antecedent decides ties).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...core.assignment import assignment_pairs
from ...core.model import Document, Span


def spans_and_chains(doc: Document) -> tuple[list[Span], list[int]]:
    """Distinct spans in text order with their entity; a repeated span keeps its first entity."""
    order = np.lexsort((np.arange(len(doc.starts)), doc.ends, doc.starts))  # a span's copies in row order
    starts, ends = doc.starts[order], doc.ends[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (starts[1:] != starts[:-1]) | (ends[1:] != ends[:-1])
    spans = list(zip(starts[first].tolist(), ends[first].tolist(), strict=True))
    return spans, doc.entities[order][first].tolist()


def chain_entities(doc: Document) -> set[int]:
    """Entities with two or more distinct spans (a span repeated in another entity counts in its first)."""
    sizes: dict[int, int] = {}
    for k in spans_and_chains(doc)[1]:
        sizes[k] = sizes.get(k, 0) + 1
    return {k for k, n in sizes.items() if n >= 2}


def shared_spans(doc: Document) -> int:
    """How many distinct spans appear in more than one entity (the analysis keeps their first)."""
    order = np.lexsort((doc.entities, doc.ends, doc.starts))
    starts, ends, entities = doc.starts[order], doc.ends[order], doc.entities[order]
    same_span = (starts[1:] == starts[:-1]) & (ends[1:] == ends[:-1])
    span_number = np.cumsum(np.concatenate([[True], ~same_span]))
    return len(np.unique(span_number[1:][same_span & (entities[1:] != entities[:-1])]))


@dataclass
class Pairing:
    """Key and response mentions of one document, paired, with their chains paired.

    ``key_entity``/``response_entity`` index the documents' entities; ``r2k[i]`` is the key mention
    paired with response mention ``i`` (or -1), ``border`` the response mentions paired by overlap.
    ``chain_of[r]`` is the key chain paired with response chain ``r`` (absent when unpaired).
    """

    key_spans: list[Span]
    key_entity: list[int]
    response_spans: list[Span]
    response_entity: list[int]
    r2k: list[int]
    k2r: list[int]
    border: set[int]
    real: set[int]
    chain_of: dict[int, int]
    response_of: dict[int, int]

    @cached_property
    def key_chains(self) -> dict[int, list[int]]:
        """Key entity -> its mentions (indexes into ``key_spans``), in text order."""
        out: dict[int, list[int]] = {}
        for i, k in enumerate(self.key_entity):
            out.setdefault(k, []).append(i)
        return out

    @cached_property
    def response_chains(self) -> dict[int, list[int]]:
        """Response entity -> its mentions (indexes into ``response_spans``), in text order."""
        out: dict[int, list[int]] = {}
        for i, r in enumerate(self.response_entity):
            out.setdefault(r, []).append(i)
        return out

    def key_chain_of(self, i: int) -> int:
        """Key entity of the key mention paired with response mention ``i`` (-1 when spurious)."""
        j = self.r2k[i]
        return self.key_entity[j] if j >= 0 else -1


def align_mentions(
    key: Document, response: Document, border_on: set[int] | None = None, real_spans: set[Span] | None = None
) -> Pairing:
    """Pair mentions (exact, then by overlap with mentions of the key entities in ``border_on``)."""
    key_spans, key_entity = spans_and_chains(key)
    response_spans, response_entity = spans_and_chains(response)
    index = {s: j for j, s in enumerate(key_spans)}
    r2k = [index.get(s, -1) for s in response_spans]
    k2r = [-1] * len(key_spans)
    for i, j in enumerate(r2k):
        if j >= 0:
            k2r[j] = i
    free_r = [i for i, j in enumerate(r2k) if j < 0]
    free_k = [j for j, i in enumerate(k2r) if i < 0 and (border_on is None or key_entity[j] in border_on)]
    border: set[int] = set()
    if free_r and free_k:
        w = _border_weights(
            [response_spans[i] for i in free_r],
            [key_spans[j] for j in free_k],
            _same_chain(response_entity, key_entity, r2k, free_r, free_k),
        )
        for a, b in assignment_pairs(w):
            i, j = free_r[a], free_k[b]
            r2k[i], k2r[j] = j, i
            border.add(i)
    real = {i for i, j in enumerate(r2k) if j < 0 and real_spans and response_spans[i] in real_spans}
    al = Pairing(key_spans, key_entity, response_spans, response_entity, r2k, k2r, border, real, {}, {})
    return al


def _same_chain(
    response_entity: list[int], key_entity: list[int], r2k: list[int], free_r: list[int], free_k: list[int]
) -> np.ndarray:
    """Whether each free key mention's entity already shares a mention with each free response
    mention's chain (free response mentions x free key mentions)."""
    found = np.asarray(r2k)
    paired = np.flatnonzero(found >= 0)
    keys, responses = np.asarray(key_entity, dtype=np.int64), np.asarray(response_entity, dtype=np.int64)
    shared = np.zeros((int(responses.max()) + 1, int(keys.max()) + 1), dtype=bool)
    shared[responses[paired], keys[found[paired]]] = True
    return shared[np.ix_(responses[free_r], keys[free_k])]


def _border_weights(response: list[Span], key: list[Span], same_chain: np.ndarray) -> np.ndarray:
    """Weight of pairing each response span with each key span: 1000 per shared token, minus the
    boundary shift, plus 1, plus 0.5 when the key mention's chain is already paired with the
    response mention's; 0 when they share no token. (All terms are exact in float64.)"""
    rs, ks = np.array(response), np.array(key)
    shared = np.minimum(rs[:, 1:2], ks[:, 1]) - np.maximum(rs[:, 0:1], ks[:, 0]) + 1
    shift = np.abs(rs[:, 0:1] - ks[:, 0]) + np.abs(rs[:, 1:2] - ks[:, 1])
    weights = shared * 1000.0 - shift + 1.0 + 0.5 * same_chain
    return np.where(shared > 0, weights, 0.0)


def align_chains(al: Pairing, key_entities: list[int]) -> None:
    """Pair response chains with the given key chains (maximum shared mentions, antecedent bonus)."""
    rchains = sorted(al.response_chains)
    if not key_entities or not rchains:
        return
    col = {r: c for c, r in enumerate(rchains)}
    row = {k: n for n, k in enumerate(key_entities)}
    w = np.zeros((len(key_entities), len(rchains)))
    for i, j in enumerate(al.r2k):
        if j >= 0 and al.key_entity[j] in row:
            w[row[al.key_entity[j]], col[al.response_entity[i]]] += 1.0
    for k in key_entities:
        first_key = al.key_chains[k][0]
        i = al.k2r[first_key]
        if i >= 0:
            r = al.response_entity[i]
            if al.response_chains[r][0] == i and w[row[k], col[r]] > 0:
                w[row[k], col[r]] += 0.5
    for a, b in assignment_pairs(w):
        k, r = key_entities[a], rchains[b]
        al.chain_of[r] = k
        al.response_of[k] = r
