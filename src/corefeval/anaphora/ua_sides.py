"""One side of a Universal Anaphora document as the UA scorer 2.0 holds it: its entities as lists
of items (mentions, and the split antecedent of a plural entity), its non-referring markables and
its bridging pairs; and the pairs of key and response documents it scores."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.diagnostics import CountingError
from ..core.items import Clusters, Item, Mention, Split
from .model import PSEUDO, Markable, Markables, UADocument


@dataclass(frozen=True)
class UASettings:
    """What is scored: the UA scorer's switches."""

    keep_singletons: bool = True
    keep_split_antecedents: bool = True
    keep_non_referring: bool = False
    min_spans: bool = False
    layer: str = "identity"


class Spans:
    """One side's entities as spans: each mention's start, end and entity (numbered from 0 in order
    of first mention), no span repeated. (A plain class: a named tuple's class costs start-up.)"""

    __slots__ = ("starts", "ends", "entities")

    def __init__(self, starts: np.ndarray, ends: np.ndarray, entities: np.ndarray) -> None:
        self.starts, self.ends, self.entities = starts, ends, entities


@dataclass
class Side:
    """One side of a document as the scorer holds it; read for the vectorised pass, its entities are
    ``clusters`` (those joined to a split antecedent) and ``spans`` (the others): see
    :mod:`corefeval.anaphora.ua_spans`."""

    clusters: Clusters
    non_referring: list[Mention]
    bridging: dict[Mention, Mention]
    spans: Spans | None = None

    def entity_of(self) -> dict[tuple[int, int], int]:
        """The entity of each mention's span (the last holding it; those of ``spans`` first)."""
        out: dict[tuple[int, int], int] = {}
        after = 0
        if self.spans is not None:
            spans = zip(self.spans.starts.tolist(), self.spans.ends.tolist())
            out = dict(zip(spans, self.spans.entities.tolist()))
            after = int(self.spans.entities.max(initial=-1)) + 1
        for i, c in enumerate(self.clusters, after):
            out.update(((m.start, m.end), i) for m in c if type(m) is Mention)
        return out


class _Rows:
    """A layer's markables as columns: starts, ends, ids, entities; and the minimum span and
    ``ElementOf`` of those with either, by index."""

    __slots__ = ("starts", "ends", "ids", "entities", "more")

    def __init__(
        self,
        starts: list[int],
        ends: list[int],
        ids: list[str],
        entities: list[str],
        more: dict[int, tuple[tuple[int, int] | None, tuple[str, ...]]],
    ) -> None:
        self.starts, self.ends, self.ids, self.entities, self.more = starts, ends, ids, entities, more


def _rows(markables: Sequence[Markable]) -> _Rows:
    """The columns of ``markables`` (read from those they are kept as, when read column-wise)."""
    if isinstance(markables, Markables):
        more = {i: (f["min_span"], f["element_of"]) for i, f in markables.more.items()}
        return _Rows(markables.starts.tolist(), markables.ends.tolist(), markables.ids, markables.entities, more)
    return _Rows(
        [m.start for m in markables],
        [m.end for m in markables],
        [m.markable_id for m in markables],
        [m.entity for m in markables],
        {i: (m.min_span, m.element_of) for i, m in enumerate(markables) if m.min_span or m.element_of},
    )


def _entities(
    rows: _Rows, use_min: bool, shared: dict[tuple[int, int], Mention] | None = None
) -> tuple[dict[str, list[Mention]], dict[str, Mention]]:
    """Mentions by entity, in order of first markable, and by markable id (``shared``: mentions
    without minimum span by span, one object for the equal mentions of both sides, which
    dictionaries then find without calling ``__eq__``)."""
    clusters: dict[str, list[Mention]] = {}
    by_id: dict[str, Mention] = {}
    if use_min or shared is None:
        for i, (start, end, mid, name) in enumerate(zip(rows.starts, rows.ends, rows.ids, rows.entities)):
            more = rows.more.get(i) if use_min else None
            mention = Mention(start, end, more[0] if more else None)
            by_id[mid] = mention
            clusters.setdefault(name, []).append(mention)
        return clusters, by_id
    for start, end, mid, name in zip(rows.starts, rows.ends, rows.ids, rows.entities):
        known = shared.get((start, end))
        if known is None:
            known = shared[start, end] = Mention(start, end)
        by_id[mid] = known
        entity = clusters.get(name)
        if entity is None:
            clusters[name] = [known]
        else:
            entity.append(known)
    return clusters, by_id


def side(
    doc: UADocument,
    options: UASettings,
    key: bool,
    shared: dict[tuple[int, int], Mention] | None = None,
    only: set[str] | None = None,
) -> Side:
    """The clusters, non-referring markables and bridging pairs of one side of a document
    (``shared``: the mentions without minimum span made so far, see :func:`_entities`; ``only``:
    the entities to make, by name, whose split antecedents' elements are then the only other
    markables read: the non-referring markables and bridging are then left out)."""
    rows = _rows(doc.identity if options.layer == "identity" else doc.deixis)
    elements: dict[str, list[str]] = {}
    for i, (_, element_of) in rows.more.items():  # in file order
        for plural in element_of:
            elements.setdefault(plural, []).append(rows.entities[i])
    entities, by_id = _entities(_needed(rows, only, elements), options.min_spans and key, shared)
    clusters: Clusters = []
    non_referring: list[Mention] = []
    budget = [SPLIT_MEMBER_LIMIT]
    for entity, mentions in entities.items():
        if only is not None and entity not in only:
            continue  # an element of a split antecedent only
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
    if options.layer == "identity" and only is None:
        for b in doc.bridging:
            if b.anaphor in by_id and b.mention_anchor in by_id:
                bridging[by_id[b.anaphor]] = by_id[b.mention_anchor]
    return Side(clusters, non_referring, bridging)


def _needed(rows: _Rows, only: set[str] | None, elements: dict[str, list[str]]) -> _Rows:
    """The rows of the entities of ``only`` and of every entity their split antecedents hold,
    plurals of plurals expanded (all rows when ``only`` is None)."""
    if only is None:
        return rows
    wanted = set(only)
    queue = [e for e in only if e in elements]
    while queue:
        for element in elements[queue.pop()]:
            if element not in wanted:
                wanted.add(element)
                if element in elements:
                    queue.append(element)
    at = [i for i, name in enumerate(rows.entities) if name in wanted]
    more = {i: rows.more[j] for i, j in enumerate(at) if j in rows.more}
    starts, ends, ids, names = ([column[j] for j in at] for column in (rows.starts, rows.ends, rows.ids, rows.entities))
    return _Rows(starts, ends, ids, names, more)  # type: ignore[arg-type]


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
