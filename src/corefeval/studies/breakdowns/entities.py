"""Entity groups: LEA and mention detection by entity size and by entity type.

LEA is a sum over entities: a key entity K adds ``|K| * resolution(K)`` to the recall numerator and
``|K|`` to its denominator, a response entity does the same for precision. Mention detection also
splits over entities: a key entity adds the number of its mentions the response has to the recall
numerator and its size to the denominator (and a response entity to precision). A key entity counts
in its own group (its size bucket, or its CorefUD ``etype``), a response entity in its own group,
found in the response (a response without entity types puts its entities in ``(untyped)``); so the
groups of a grouping add up to the LEA and mention counts of the whole. A mention that is in two
entities of the other side is looked up in the last of them, as LEA does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ...core.model import Corpus, Document
from ...matching.alignment import Alignment
from ...metrics.lea import LEA
from ...metrics.mentions import Mentions
from ...scoring.results import ScoreResult
from .buckets import bucket_labels, bucket_of
from .groups import Breakdown, group_results
from .pairs import AlignedPair

#: Entity size bucket edges (in mentions).
SIZE_EDGES = (2, 3, 5, 9, 17)  # 1, 2, 3-4, 5-8, 9-16, >=17
UNTYPED = "(untyped)"
#: A function giving the group of every entity of a document (of side ``key`` or ``response``),
#: from the entities' sizes.
EntityGroups = Callable[[Document, np.ndarray, str], list[str]]


def entity_sides(a: Alignment) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per key entity: size, LEA numerator, mentions found; then the same per response entity."""
    key = _side(a.key_entity, a.key_id, a.response_entity, a.response_id, a.n_key_entities, a.n_response_entities)
    response = _side(a.response_entity, a.response_id, a.key_entity, a.key_id, a.n_response_entities, a.n_key_entities)
    return key + response


def _side(
    entity: np.ndarray, ids: np.ndarray, other_entity: np.ndarray, other_ids: np.ndarray, n: int, n_other: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sizes = np.bincount(entity, minlength=n)
    other_sizes = np.bincount(other_entity, minlength=n_other)
    last = np.full(int(max(ids.max(initial=-1), other_ids.max(initial=-1))) + 1, -1, dtype=np.int64)
    np.maximum.at(last, other_ids, other_entity)
    other = last[ids]
    found = other >= 0
    width = max(n_other, 1)
    cells, counts = np.unique(entity[found] * width + other[found], return_counts=True)
    mine, theirs = cells // width, cells % width
    c = counts.astype(float)
    links = np.bincount(mine, weights=c * (c - 1) / 2, minlength=n)
    s = sizes.astype(float)
    lea = np.zeros(n)
    big = s > 1
    lea[big] = s[big] * links[big] / (s[big] * (s[big] - 1) / 2)
    alone = (sizes[mine] == 1) & (other_sizes[theirs] == 1) & (counts == 1)
    lea[mine[alone]] = 1.0
    return sizes, lea, np.bincount(entity[found], minlength=n).astype(float)


def entity_counts(
    pairs: Sequence[AlignedPair], groups: EntityGroups, labels: list[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Counts (groups x documents x 8: LEA's four columns, then mention detection's) and the number
    of key entities of every group; groups met that are not in ``labels`` are appended to it."""
    index = {g: i for i, g in enumerate(labels)}
    found: list[list[tuple[np.ndarray, np.ndarray]]] = []
    for p in pairs:
        ks, klea, kfound, rs, rlea, rfound = entity_sides(p.alignment)
        kg = np.array([index.setdefault(g, len(index)) for g in groups(p.key, ks, "key")], dtype=np.int64)
        rg = np.array([index.setdefault(g, len(index)) for g in groups(p.response, rs, "response")], dtype=np.int64)
        found.append([(kg, np.stack([klea, ks, kfound])), (rg, np.stack([rlea, rs, rfound]))])
    labels[:] = list(index)
    out = np.zeros((len(index), len(pairs), 8))
    entities = np.zeros(len(index), dtype=np.int64)
    for d, ((kg, key), (rg, response)) in enumerate(found):
        for j, column in ((0, 0), (1, 1), (4, 2), (5, 1)):
            out[:, d, j] = np.bincount(kg, weights=key[column], minlength=len(index))
        for j, column in ((2, 0), (3, 1), (6, 2), (7, 1)):
            out[:, d, j] = np.bincount(rg, weights=response[column], minlength=len(index))
        entities += np.bincount(kg[key[1] > 0], minlength=len(index))
    return out, entities


def entity_breakdown(
    base: ScoreResult, pairs: Sequence[AlignedPair], kind: str, groups: EntityGroups, order: Sequence[str]
) -> Breakdown:
    """LEA and mention detection of every entity group (``order`` first, then groups as met)."""
    labels = list(order)
    counts, entities = entity_counts(pairs, groups, labels)
    present = counts.sum(axis=(1, 2)) > 0
    keep = [i for i in range(len(labels)) if present[i]]
    results = group_results(base, (LEA(), Mentions()), counts[keep], ("lea", "mentions"))
    sizes = tuple(int(entities[i]) for i in keep)
    return Breakdown(kind, "entities", tuple(labels[i] for i in keep), results, sizes)


def size_breakdown(base: ScoreResult, pairs: Sequence[AlignedPair], edges: Sequence[int] = SIZE_EDGES) -> Breakdown:
    """Entities by their number of mentions."""

    def groups(_doc: Document, sizes: np.ndarray, _side: str) -> list[str]:
        return bucket_of(sizes, edges, 1)

    return entity_breakdown(base, pairs, "entity-size", groups, bucket_labels(edges, 1))


def type_breakdown(base: ScoreResult, pairs: Sequence[AlignedPair], key: Corpus, response: Corpus) -> Breakdown:
    """Entities by their CorefUD entity type (``etype``)."""
    types = {"key": getattr(key, "entity_types", {}), "response": getattr(response, "entity_types", {})}

    def groups(doc: Document, sizes: np.ndarray, side: str) -> list[str]:
        known = types[side].get(doc.name, {})
        labels = list(doc.labels) + [""] * max(0, sizes.size - len(doc.labels))
        return [known.get(labels[e], UNTYPED) for e in range(sizes.size)]

    return entity_breakdown(base, pairs, "entity-type", groups, ())
