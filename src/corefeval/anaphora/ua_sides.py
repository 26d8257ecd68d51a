"""One side of a Universal Anaphora document as the UA scorer 2.0 holds it: its entities as lists
of items (mentions, and the split antecedent of a plural entity), its non-referring markables and
its bridging pairs; and the pairs of key and response documents it scores."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

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


class Spans(NamedTuple):
    """One side's entities as spans, for a side without split antecedents: each mention's start,
    end and entity (numbered from 0 in order of first mention), no span repeated."""

    starts: np.ndarray
    ends: np.ndarray
    entities: np.ndarray


@dataclass
class Side:
    """One side of a document as the scorer holds it (its entities as :class:`Spans` instead of
    ``clusters``, then empty, when read for the vectorised pass: see :func:`spans_side`)."""

    clusters: Clusters
    non_referring: list[Mention]
    bridging: dict[Mention, Mention]
    spans: Spans | None = None

    def entity_of(self) -> dict[tuple[int, int], int]:
        """The entity of each mention's span (the last holding it)."""
        if self.spans is not None:
            spans = zip(self.spans.starts.tolist(), self.spans.ends.tolist())
            return dict(zip(spans, self.spans.entities.tolist()))
        return {(m.start, m.end): i for i, c in enumerate(self.clusters) for m in c if type(m) is Mention}


class _Rows(NamedTuple):
    """A layer's markables as columns: starts, ends, ids, entities; and the minimum span and
    ``ElementOf`` of those with either, by index."""

    starts: list[int]
    ends: list[int]
    ids: list[str]
    entities: list[str]
    more: dict[int, tuple[tuple[int, int] | None, tuple[str, ...]]]


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


def side(doc: UADocument, options: UASettings, key: bool, shared: dict[tuple[int, int], Mention] | None = None) -> Side:
    """The clusters, non-referring markables and bridging pairs of one side of a document
    (``shared``: the mentions without minimum span made so far, see :func:`_entities`)."""
    rows = _rows(doc.identity if options.layer == "identity" else doc.deixis)
    entities, by_id = _entities(rows, options.min_spans and key, shared)
    elements: dict[str, list[str]] = {}
    for i, (_, element_of) in rows.more.items():  # in file order
        for plural in element_of:
            elements.setdefault(plural, []).append(rows.entities[i])
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


def spans_side(doc: UADocument, options: UASettings, shared: dict[tuple[int, int], Mention]) -> Side | None:
    """:func:`side` with the entities as :class:`Spans`, made without a :class:`Mention` per
    markable (those of non-referring markables and bridging are made); None if a markable is an
    element of a plural entity (split antecedents kept), a span is repeated on the side, or
    mentions are matched by minimum span: the side is then made by :func:`side`."""
    markables = doc.identity if options.layer == "identity" else doc.deixis
    if options.min_spans:
        return None
    if isinstance(markables, Markables):
        if options.keep_split_antecedents and markables.has_elements():
            return None
        starts, ends, names = markables.starts, markables.ends, markables.entities
    else:
        if options.keep_split_antecedents and any(m.element_of for m in markables):
            return None
        n = len(markables)
        starts = np.fromiter((m.start for m in markables), dtype=np.int64, count=n)
        ends = np.fromiter((m.end for m in markables), dtype=np.int64, count=n)
        names = [m.entity for m in markables]
    spans = _entity_spans(starts, ends, names, options.keep_singletons)
    if spans is None:
        return None
    non_referring = []
    if options.keep_non_referring:  # each non-referring entity's first markable
        first = [names.index(name) for name in dict.fromkeys(names) if name.endswith(PSEUDO)]
        non_referring = [_shared(shared, int(starts[i]), int(ends[i])) for i in first]
    bridging: dict[Mention, Mention] = {}
    if options.layer == "identity" and doc.bridging:
        ids = markables.ids if isinstance(markables, Markables) else [m.markable_id for m in markables]
        at = dict(zip(ids, range(len(ids))))
        first, last = starts.tolist(), ends.tolist()
        for b in doc.bridging:
            i, j = at.get(b.anaphor), at.get(b.mention_anchor)
            if i is not None and j is not None:
                bridging[_shared(shared, first[i], last[i])] = _shared(shared, first[j], last[j])
    return Side([], non_referring, bridging, spans)


def _entity_spans(starts: np.ndarray, ends: np.ndarray, names: list[str], singletons: bool) -> Spans | None:
    """The referring markables' spans by entity (entities of one markable left out unless
    ``singletons``), numbered in order of first markable; None if a span is repeated."""
    codes = dict.fromkeys(names)
    for i, name in enumerate(codes):
        codes[name] = -1 if name.endswith(PSEUDO) else i
    entity = np.fromiter(map(codes.__getitem__, names), dtype=np.int64, count=len(names))
    keep = entity >= 0
    if not singletons and keep.any():
        keep &= np.bincount(entity[keep], minlength=len(codes))[entity] > 1
    starts, ends, entity = starts[keep], ends[keep], entity[keep]
    if starts.size > 1:
        span = np.sort(starts * (int(ends.max()) + 1) + ends)
        if (span[1:] == span[:-1]).any():
            return None
    present = np.bincount(entity, minlength=len(codes)) > 0
    return Spans(starts, ends, (np.cumsum(present) - 1)[entity])


def _shared(shared: dict[tuple[int, int], Mention], start: int, end: int) -> Mention:
    """The mention of a span, one object for both sides of a document."""
    known = shared.get((start, end))
    if known is None:
        known = shared[start, end] = Mention(start, end)
    return known


@dataclass(frozen=True)
class Pair:
    """A document's key and response sides."""

    name: str
    key: Side
    response: Side


def pairs(
    keys: Iterable[UADocument], responses: Iterable[UADocument], options: UASettings, spans: bool = False
) -> list[Pair]:
    """The documents of the key, in key order, that the response has (the others are skipped, as
    the UA scorer does); ``spans``: both sides as :func:`spans_side` makes them where it can."""
    by_name = {d.name: d for d in responses}
    key_by_name = {d.name: d for d in keys}
    out = []
    for name, doc in key_by_name.items():
        if name in by_name:
            shared: dict[tuple[int, int], Mention] = {}
            if spans:
                key, response = spans_side(doc, options, shared), spans_side(by_name[name], options, shared)
                if key is not None and response is not None:
                    out.append(Pair(name, key, response))
                    continue
            out.append(Pair(name, side(doc, options, True, shared), side(by_name[name], options, False, shared)))
    return out


def has_splits(clusters: Clusters) -> bool:
    """Whether an entity of ``clusters`` has split antecedents (a :class:`Split` member)."""
    return any(type(m) is Split for c in clusters for m in c)
