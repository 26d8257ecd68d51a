"""One side of a Universal Anaphora document as the UA scorer 2.0 holds it: its entities as lists
of items (mentions, and the split antecedent of a plural entity), its non-referring markables and
its bridging pairs; and the pairs of key and response documents it scores."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.diagnostics import CountingError
from ..core.items import Clusters, Item, Mention, Split
from .model import PSEUDO, Markable, UADocument


@dataclass(frozen=True)
class UASettings:
    """What is scored: the UA scorer's switches."""

    keep_singletons: bool = True
    keep_split_antecedents: bool = True
    keep_non_referring: bool = False
    min_spans: bool = False
    layer: str = "identity"


@dataclass
class Side:
    """One side of a document as the scorer holds it."""

    clusters: Clusters
    non_referring: list[Mention]
    bridging: dict[Mention, Mention]


def _entities(
    markables: Sequence[Markable], use_min: bool, shared: dict[tuple[int, int], Mention] | None = None
) -> tuple[dict[str, list[Mention]], dict[str, Mention]]:
    """Mentions by entity, in order of first markable, and by markable id (``shared``: mentions
    without minimum span by span, one object for the equal mentions of both sides, which
    dictionaries then find without calling ``__eq__``)."""
    clusters: dict[str, list[Mention]] = {}
    by_id: dict[str, Mention] = {}
    if use_min or shared is None:
        for m in markables:
            mention = Mention(m.start, m.end, m.min_span if use_min else None)
            by_id[m.markable_id] = mention
            clusters.setdefault(m.entity, []).append(mention)
        return clusters, by_id
    for m in markables:
        span = (m.start, m.end)
        known = shared.get(span)
        if known is None:
            known = shared[span] = Mention(m.start, m.end)
        by_id[m.markable_id] = known
        entity = clusters.get(m.entity)
        if entity is None:
            clusters[m.entity] = [known]
        else:
            entity.append(known)
    return clusters, by_id


def side(doc: UADocument, options: UASettings, key: bool, shared: dict[tuple[int, int], Mention] | None = None) -> Side:
    """The clusters, non-referring markables and bridging pairs of one side of a document
    (``shared``: the mentions without minimum span made so far, see :func:`_entities`)."""
    markables = doc.identity if options.layer == "identity" else doc.deixis
    entities, by_id = _entities(markables, options.min_spans and key, shared)
    elements: dict[str, list[str]] = {}
    for m in markables:
        if m.element_of:
            for plural in m.element_of:
                elements.setdefault(plural, []).append(m.entity)
    clusters: Clusters = []
    non_referring: list[Mention] = []
    budget = [SPLIT_MEMBER_LIMIT]
    for entity, mentions in entities.items():
        cluster: list[Item] = mentions  # copied when a split antecedent joins (others read the mentions)
        if elements.get(entity) and options.keep_split_antecedents:
            cluster = [*mentions, Split(_split_members(entity, entities, elements, budget, doc.name))]
        if entity.endswith(PSEUDO):  # non-referring (every markable of an entity is, or none)
            if options.keep_non_referring:
                non_referring.append(cluster[0])
            continue
        if not options.keep_singletons and len(cluster) == 1:
            continue
        clusters.append(cluster)
    if options.keep_split_antecedents:
        clusters = _merge_equal_splits(clusters)
    bridging: dict[Mention, Mention] = {}
    if options.layer == "identity":
        for b in doc.bridging:
            if b.anaphor in by_id and b.mention_anchor in by_id:
                bridging[by_id[b.anaphor]] = by_id[b.mention_anchor]
    return Side(clusters, non_referring, bridging)


#: The most element mentions the split antecedents of one side of a document may hold in all
#: (each plural entity's elements, plurals of plurals expanded, are held and scored as a whole).
SPLIT_MEMBER_LIMIT = 2_000_000


def _split_members(
    plural: str, entities: dict[str, list[Mention]], elements: dict[str, list[str]], budget: list[int], document: str
) -> set[tuple[Mention, ...]]:
    """The singular entities a plural entity is made of, plurals of plurals expanded (``budget``:
    the entities and element mentions the document's side may still visit, see
    :data:`SPLIT_MEMBER_LIMIT`)."""
    out: set[tuple[Mention, ...]] = set()
    queue = deque(elements[plural])
    seen: set[str] = set()
    while queue:
        entity = queue.popleft()
        if entity in seen:
            continue
        seen.add(entity)
        budget[0] -= 1 + len(entities.get(entity, ()))
        if budget[0] < 0:
            raise CountingError(
                document,
                f"its split antecedents hold more than {SPLIT_MEMBER_LIMIT:,} element mentions and entities "
                "in all (each plural entity's elements, plurals of plurals expanded, are scored as a whole)",
            )
        if elements.get(entity):
            queue.extend(elements[entity])
        elif entity in entities:
            out.add(tuple(entities[entity]))
    return out


def _merge_equal_splits(clusters: Clusters) -> Clusters:
    """Entities with equal split antecedents become one; every entity becomes the list of a set."""
    if not any(type(c[-1]) is Split for c in clusters):  # a split antecedent is an entity's last item
        # the sets as update() fills them, item by item (an entity of one item is its own)
        return [list(set(c)) if len(c) > 1 else c for c in clusters]
    merged: list[set[Item]] = []
    first: dict[Split, int] = {}  # the first merged entity holding an equal split antecedent
    for cluster in clusters:
        split = cluster[-1]  # an entity's one split antecedent, if any
        existing = first.get(split) if type(split) is Split else None
        if existing is None:
            existing = len(merged)
            merged.append(set())
        merged[existing].update(cluster)
        if type(split) is Split:
            first.setdefault(split, existing)
    return [list(c) for c in merged]


@dataclass(frozen=True)
class Pair:
    """A document's key and response sides."""

    name: str
    key: Side
    response: Side


def pairs(keys: Iterable[UADocument], responses: Iterable[UADocument], options: UASettings) -> list[Pair]:
    """The documents of the key, in key order, that the response has (the others are skipped, as
    the UA scorer does)."""
    by_name = {d.name: d for d in responses}
    key_by_name = {d.name: d for d in keys}
    out = []
    for name, doc in key_by_name.items():
        if name in by_name:
            shared: dict[tuple[int, int], Mention] = {}
            out.append(Pair(name, side(doc, options, True, shared), side(by_name[name], options, False, shared)))
    return out


def has_splits(clusters: Clusters) -> bool:
    """Whether an entity of ``clusters`` has split antecedents (a :class:`Split` member)."""
    return any(type(m) is Split for c in clusters for m in c)
