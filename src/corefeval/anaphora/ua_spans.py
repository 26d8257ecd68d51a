"""The sides of Universal Anaphora documents as the vectorised pass reads them: each side's entities
as :class:`~.ua_sides.Spans`, made without an object per markable, except the entities joined to a
split antecedent, which stay items (:func:`~.ua_sides.side`'s clusters) for the literal definitions.

Every identity count of a document is a sum over its entities of what each adds, and what an
entity adds depends only on the entities of the other side holding its items; CEAF's best matching
pairs entities only within such a group, and split antecedents are aligned among themselves. So
the entities joined, through the spans they share with the other side (and so on, on both sides),
to an entity with a split antecedent are counted by the literal definitions, the others in the
vectorised pass, and the two added (BLANC's non-coreference links between the two, which are not
such a sum, are counted with the first given the second's sizes: see
:func:`corefeval.metrics.ua_identity.identity_rows`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..core.items import Mention
from .model import PSEUDO, Markables, UADocument
from .ua_sides import Pair, Side, Spans, UASettings, side


class _Layer:
    """A side's markables as columns: starts and ends (arrays), entities, ids; and the plural
    entities (those with elements, split antecedents kept)."""

    __slots__ = ("starts", "ends", "names", "ids", "plurals")

    def __init__(
        self, starts: np.ndarray, ends: np.ndarray, names: list[str], ids: list[str], plurals: set[str]
    ) -> None:
        self.starts, self.ends, self.names, self.ids, self.plurals = starts, ends, names, ids, plurals


class _Entities:
    """A side's entities as spans; each entity name's code (-1: non-referring) and the code of
    each entity of the spans (by its number); the first markable of each non-referring entity."""

    __slots__ = ("spans", "codes", "numbered", "non_referring")

    def __init__(self, spans: Spans, codes: dict[str, int], numbered: np.ndarray, non_referring: list[int]) -> None:
        self.spans, self.codes, self.numbered, self.non_referring = spans, codes, numbered, non_referring

    def names(self, entities: list[int]) -> set[str]:
        """The names of ``entities`` (numbers of the spans' entities)."""
        ordered = list(self.codes)
        return {ordered[c] for c in self.numbered[entities].tolist()}

    def numbers(self, names: set[str]) -> list[int]:
        """The numbers of the entities of ``names`` that the spans hold."""
        at = np.full(len(self.codes), -1, dtype=np.int64)
        at[self.numbered] = np.arange(self.numbered.size)
        return [n for n in (int(at[self.codes[name]]) for name in names if self.codes.get(name, -1) >= 0) if n >= 0]


def spans_pairs(keys: Iterable[UADocument], responses: Iterable[UADocument], options: UASettings) -> list[Pair]:
    """:func:`~.ua_sides.pairs`, each document's sides with :class:`Spans` where
    :func:`spans_pair` makes them."""
    by_name = {d.name: d for d in responses}
    key_by_name = {d.name: d for d in keys}
    out = []
    for name, doc in key_by_name.items():
        if name in by_name:
            out.append(spans_pair(name, doc, by_name[name], options))
    return out


def spans_pair(name: str, key: UADocument, response: UADocument, options: UASettings) -> Pair:
    """A document's sides, their entities as :class:`Spans` but those joined to a split antecedent
    (as ``clusters``); both sides made by :func:`~.ua_sides.side` when mentions are matched by
    minimum span or a span is repeated on a side."""
    shared: dict[tuple[int, int], Mention] = {}
    if options.min_spans:
        return Pair(name, side(key, options, True, shared), side(response, options, False, shared))
    layers = (_layer(key, options), _layer(response, options))
    key_entities, response_entities = (_entity_spans(layer, options.keep_singletons) for layer in layers)
    if key_entities is None or response_entities is None:
        return Pair(name, side(key, options, True, shared), side(response, options, False, shared))
    joined = _joined(key_entities, response_entities, layers[0].plurals, layers[1].plurals)
    sides = []
    for doc, layer, found, these, is_key in zip(
        (key, response), layers, (key_entities, response_entities), joined, (True, False)
    ):
        clusters = side(doc, options, is_key, shared, only=found.names(these)).clusters if these else []
        non_referring, bridging = _ends(doc, layer, found.non_referring, options, shared)
        sides.append(Side(clusters, non_referring, bridging, _without(found.spans, these)))
    return Pair(name, sides[0], sides[1])


def _layer(doc: UADocument, options: UASettings) -> _Layer:
    """The columns of the side's layer (of its markables when not read column-wise)."""
    markables = doc.identity if options.layer == "identity" else doc.deixis
    plurals: set[str] = set()
    if isinstance(markables, Markables):
        if options.keep_split_antecedents:
            plurals = {p for fields in markables.more.values() for p in fields["element_of"]}
        return _Layer(markables.starts, markables.ends, markables.entities, markables.ids, plurals)
    if options.keep_split_antecedents:
        plurals = {p for m in markables for p in m.element_of}
    n = len(markables)
    return _Layer(
        np.fromiter((m.start for m in markables), dtype=np.int64, count=n),
        np.fromiter((m.end for m in markables), dtype=np.int64, count=n),
        [m.entity for m in markables],
        [m.markable_id for m in markables],
        plurals,
    )


def _entity_spans(layer: _Layer, singletons: bool) -> _Entities | None:
    """The referring markables' spans by entity, numbered in order of first markable (without
    ``singletons``, entities of one markable left out, but a plural entity, whose split
    antecedent is a second item); None if a span is repeated."""
    names = layer.names
    unique = list(dict.fromkeys(names))
    codes = dict(zip(unique, range(len(unique))))
    entity = np.fromiter(map(codes.__getitem__, names), dtype=np.int64, count=len(names))
    pseudo = _ending(unique, PSEUDO)
    non_referring = []  # each non-referring entity's first markable, in order of entities
    if pseudo:  # codes first appear in order: where the running maximum grows
        new = np.ones(entity.size, dtype=bool)
        new[1:] = entity[1:] > np.maximum.accumulate(entity)[:-1]
        non_referring = np.flatnonzero(new)[pseudo].tolist()
        for i in pseudo:
            codes[unique[i]] = -1
        referring = np.ones(len(unique), dtype=bool)
        referring[pseudo] = False
        entity = np.where(referring[entity], entity, -1)
    keep = entity >= 0
    if not singletons and keep.any():
        sizes = np.bincount(entity[keep], minlength=len(codes))
        sizes[[codes[p] for p in layer.plurals if codes.get(p, -1) >= 0]] += 1
        keep &= sizes[entity] > 1
    starts, ends, entity = layer.starts[keep], layer.ends[keep], entity[keep]
    if starts.size > 1:
        span = np.sort(starts * (int(ends.max()) + 1) + ends)
        if (span[1:] == span[:-1]).any():
            return None
    present = np.bincount(entity, minlength=len(codes)) > 0
    spans = Spans(starts, ends, (np.cumsum(present) - 1)[entity])
    return _Entities(spans, codes, np.flatnonzero(present), non_referring)


def _ending(names: list[str], suffix: str) -> list[int]:
    """The positions of the names ending in ``suffix``, found in one string of them all."""
    joined = "\t".join(names) + "\t"
    found: list[int] = []
    at, counted, before = joined.find(suffix + "\t"), 0, 0  # names before ``counted``: ``before``
    while at >= 0:
        before += joined.count("\t", counted, at)
        counted = at
        found.append(before)
        at = joined.find(suffix + "\t", at + 1)
    return found


def _joined(
    key: _Entities, response: _Entities, key_plurals: set[str], response_plurals: set[str]
) -> tuple[list[int], list[int]]:
    """The key and response entities (numbers, in order) joined to one with a split antecedent
    through the spans they share with the other side, and so on: a search from those entities
    over the pairs of entities sharing a span, in time linear in the pairs."""
    seeds = (key.numbers(key_plurals), response.numbers(response_plurals))
    if not seeds[0] and not seeds[1]:
        return [], []
    k, r = key.spans, response.spans
    width = int(max(k.ends.max(initial=0), r.ends.max(initial=0))) + 1
    _, at_key, at_response = np.intersect1d(
        k.starts * width + k.ends, r.starts * width + r.ends, assume_unique=True, return_indices=True
    )
    edges = (k.entities[at_key], r.entities[at_response])
    # each side's entities' neighbours on the other side, as offsets into one list
    neighbours = [
        _adjacent(edges[side], edges[1 - side], n) for side, n in enumerate((key.numbered.size, response.numbered.size))
    ]
    reached = [set(seeds[0]), set(seeds[1])]
    todo = [(0, e) for e in seeds[0]] + [(1, e) for e in seeds[1]]
    while todo:
        side, entity = todo.pop()
        starts, ends, others = neighbours[side]
        for other in others[starts[entity] : ends[entity]]:
            if other not in reached[1 - side]:
                reached[1 - side].add(other)
                todo.append((1 - side, other))
    return sorted(reached[0]), sorted(reached[1])


def _adjacent(these: np.ndarray, those: np.ndarray, n: int) -> tuple[list[int], list[int], list[int]]:
    """For ``n`` entities, where each one's neighbours start and end in the list returned third
    (the pairs ``(these[i], those[i])``)."""
    order = np.argsort(these, kind="stable")
    bounds = np.searchsorted(these[order], np.arange(n + 1))
    return bounds[:-1].tolist(), bounds[1:].tolist(), those[order].tolist()


def _without(spans: Spans, entities: list[int]) -> Spans:
    """``spans`` without the mentions of ``entities``, the others numbered anew in order."""
    if not entities:
        return spans
    out = np.zeros(int(spans.entities.max(initial=-1)) + 1, dtype=bool)
    out[entities] = True
    keep = ~out[spans.entities]
    number = np.cumsum(~out) - 1
    return Spans(spans.starts[keep], spans.ends[keep], number[spans.entities[keep]])


def _ends(
    doc: UADocument, layer: _Layer, first: list[int], options: UASettings, shared: dict[tuple[int, int], Mention]
) -> tuple[list[Mention], dict[Mention, Mention]]:
    """A side's non-referring markables (those of ``first``, when kept) and its bridging pairs
    (anaphor -> anchor, identity layer), as :func:`~.ua_sides.side` makes them."""
    starts, ends = layer.starts.tolist(), layer.ends.tolist()
    non_referring = []
    if options.keep_non_referring:
        non_referring = [_shared(shared, starts[i], ends[i]) for i in first]
    bridging: dict[Mention, Mention] = {}
    if options.layer == "identity" and doc.bridging:
        at = dict(zip(layer.ids, range(len(layer.ids))))
        for b in doc.bridging:
            i, j = at.get(b.anaphor), at.get(b.mention_anchor)
            if i is not None and j is not None:
                bridging[_shared(shared, starts[i], ends[i])] = _shared(shared, starts[j], ends[j])
    return non_referring, bridging


def _shared(shared: dict[tuple[int, int], Mention], start: int, end: int) -> Mention:
    """The mention of a span, one object for both sides of a document."""
    known = shared.get((start, end))
    if known is None:
        known = shared[start, end] = Mention(start, end)
    return known
