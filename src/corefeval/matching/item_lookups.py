"""The items of Universal Anaphora entities (mentions and split antecedents) matched across the
key and the response: each item's entity on the other side, the CEAF overlap cells of entities,
and the one-pass counts with which the identity metrics count entities without a split
antecedent (:class:`Found`). The metrics' split-antecedent forms (``item_counts`` in each metric's
module) read these.

Without split antecedents no item weighs anything but 1, and each identity metric depends on an
entity's mentions only through how many of them the other side has in each of its entities: the
one-pass counts give the numbers of the item-by-item definitions operation for operation.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from operator import mul
from typing import NamedTuple

from ..core.items import Clusters, Item, Mention, Split

#: An aligned split antecedent: its partner on the other side and the F1 it weighs.
Aligned = dict[Item, tuple[Item, float]]


def assignments(clusters: Clusters) -> dict[Item, int]:
    """The entity of each item (the last holding it)."""
    return {m: i for i, c in enumerate(clusters) for m in c}


class Found:
    """Per entity of one side: its size, how many of its items each entity of the other side
    holds (in order of first item), and what the metrics read of those counts: their sum, how
    many entities hold some, the pairs of items in one entity, and the sum of their squares."""

    __slots__ = ("sizes", "where", "found", "spread", "links", "squares")

    def __init__(self, sizes: list[int], where: list[dict[int, int]]) -> None:
        self.sizes, self.where = sizes, where
        counts = [w.values() for w in where]
        self.found = [sum(c) for c in counts]
        self.spread = [len(w) for w in where]
        self.squares = [sum(map(mul, c, c)) for c in counts]
        # the pairs of items in one entity: (sum of n * n - sum of n) / 2, exact in integers
        self.links = [(q - f) // 2 for q, f in zip(self.squares, self.found)]

    @classmethod
    def of(cls, clusters: Sequence[Sequence[Hashable]], to_other: dict[Hashable, int]) -> Found:
        if not to_other:  # nothing found (a split antecedent's members against none)
            return cls([len(c) for c in clusters], [{} for _ in clusters])
        where = []
        find = to_other.get
        for c in clusters:
            counts: dict[int, int] = {}  # a Counter, without its cost on entities of a few mentions
            for m in c:
                j = find(m)
                if j is not None:
                    counts[j] = counts.get(j, 0) + 1
            where.append(counts)
        return cls([len(c) for c in clusters], where)


def pair_count(n: int) -> int:
    """How many pairs ``n`` items make."""
    return n * (n - 1) // 2


class OnePass(NamedTuple):
    """One side's entities as :class:`Found` counts them, for the entities without a split
    antecedent (those in ``mixed`` have one and are counted item by item)."""

    found: Found
    mixed: frozenset[int]


class Lookups:
    """What every metric of one document looks up, computed once: the entity of each item on
    either side, the split antecedents, the CEAF overlaps of entities when no split antecedent is
    aligned, and each side's one-pass counts."""

    __slots__ = ("_to_key", "_to_response", "_cells", "key", "response", "_splits", "_one_pass")

    def __init__(self, key: Clusters, response: Clusters) -> None:
        self.key, self.response = key, response
        self._to_key: dict[Item, int] | None = None
        self._to_response: dict[Item, int] | None = None
        self._cells: dict[tuple[int, int], float] | None = None
        self._splits: tuple[list[Split], list[Split]] | None = None
        self._one_pass: tuple[OnePass, OnePass] | None = None

    @property
    def to_key(self) -> dict[Item, int]:
        """The key entity of each item (the last holding it), made when first asked for."""
        if self._to_key is None:
            self._to_key = assignments(self.key)
        return self._to_key

    @property
    def to_response(self) -> dict[Item, int]:
        """The response entity of each item (the last holding it), made when first asked for."""
        if self._to_response is None:
            self._to_response = assignments(self.response)
        return self._to_response

    def overlaps(self, aligned: Aligned, one_pass: bool = False) -> dict[tuple[int, int], float]:
        """:func:`overlaps` of the two sides (kept when ``aligned`` is empty; ``one_pass``: those
        of the mentions, kept, plus the weights of the aligned split antecedents, which gives the
        same cells up to the order of float sums, without minimum spans)."""
        if aligned and not one_pass:
            return overlaps(self.key, self.response, aligned)
        if self._cells is None:
            found = self._found_overlaps()
            self._cells = overlaps(self.key, self.response, {}) if found is None else found
        if not aligned:
            return self._cells
        cells = dict(self._cells)
        for split in self.splits()[0]:
            if split in aligned:
                partner, weight = aligned[split]
                if partner in self.to_response:
                    at = (self.to_key[split], self.to_response[partner])
                    cells[at] = cells.get(at, 0.0) + weight
        return cells

    def _found_overlaps(self) -> dict[tuple[int, int], float] | None:
        """:func:`overlaps` of the mentions read from the key's one-pass counts, when these are made
        and give the same cells in the same order: without minimum spans, and with every response
        item held once in one response entity (a key mention is then in the one response entity
        ``to_response`` gives, and each key entity's counts are in order of first mention, as
        :func:`overlaps` adds its cells); ``None`` otherwise."""
        if self._one_pass is None or len(self.to_response) != sum(map(len, self.response)):
            return None
        if any(type(m) is Mention and m.min_span for c in self.key for m in c):
            return None
        found, mixed = self._one_pass[0]
        to_response = self.to_response
        cells: dict[tuple[int, int], float] = {}
        for i, where in enumerate(found.where):
            if i in mixed:  # its split antecedent left out (an aligned one is added by the caller)
                where = {}
                for m in self.key[i]:
                    j = to_response.get(m) if type(m) is Mention else None
                    if j is not None:
                        where[j] = where.get(j, 0) + 1
            for j, n in where.items():
                cells[i, j] = float(n)
        return cells

    def splits(self) -> tuple[list[Split], list[Split]]:
        """The split antecedents of the key and of the response, in entity order."""
        if self._splits is None:
            self._splits = split_items(self.key), split_items(self.response)
        return self._splits

    def one_pass(self) -> tuple[OnePass, OnePass]:
        """The key's and the response's :class:`OnePass`, with which the metrics count the entities
        without split antecedents in one pass (the same numbers as item by item, up to the order
        of float sums after a weighted entity)."""
        if self._one_pass is None:
            key_splits, response_splits = self.splits()
            self._one_pass = (
                OnePass(
                    Found.of(self.key, self.to_response if self.key else {}),
                    frozenset(self.to_key[s] for s in key_splits),
                ),
                OnePass(
                    Found.of(self.response, self.to_key if self.response else {}),
                    frozenset(self.to_response[s] for s in response_splits),
                ),
            )
        return self._one_pass


def overlap(c1: list[Item], c2: list[Item], aligned: Aligned) -> float:
    """The items of ``c1`` in ``c2``, an aligned split antecedent weighing its F1."""
    total = 0.0
    for m in c1:
        if isinstance(m, Split):
            if m in aligned and aligned[m][0] in c2:
                total += aligned[m][1]
        elif m in c2:
            total += 1
    return total


def overlap_cells(key: Clusters, response: Clusters) -> int:
    """How many cells :func:`overlaps` makes at most, counted in time linear in the items: per key
    item, the response entities holding an equal span or split antecedent (with minimum spans,
    every pair of entities is compared)."""
    if any(type(m) is Mention and m.min_span for c in key for m in c):
        return len(key) * len(response)
    holders = Counter((m.start, m.end) if type(m) is Mention else m for c in response for m in c)
    return sum(holders.get((m.start, m.end) if type(m) is Mention else m, 0) for c in key for m in c)


def overlaps(key: Clusters, response: Clusters, aligned: Aligned) -> dict[tuple[int, int], float]:
    """The non-zero :func:`overlap` of every key and response entity, each summed in the same
    order. Without minimum spans, equal mentions have equal spans and equal split antecedents sit
    in one response entity, so an index by span finds the cells in time linear in the mentions;
    with minimum spans (equality is then not by span) every pair of entities is compared."""
    cells: dict[tuple[int, int], float] = defaultdict(float)
    if any(type(m) is Mention and m.min_span for c in key for m in c):
        for i, k in enumerate(key):
            for j, r in enumerate(response):
                o = overlap(k, r, aligned)
                if o:
                    cells[i, j] = o
        return cells
    by_span: dict[tuple[int, int], set[int]] = defaultdict(set)
    by_split: dict[Split, set[int]] = defaultdict(set)
    for j, c in enumerate(response):
        for m in c:
            if type(m) is Mention:
                by_span[m.start, m.end].add(j)
            else:
                by_split[m].add(j)
    for i, c in enumerate(key):
        for m in c:
            if type(m) is Mention:
                for j in by_span.get((m.start, m.end), ()):
                    cells[i, j] += 1
            elif m in aligned:
                split, weight = aligned[m]
                for j in by_split.get(split, ()):
                    cells[i, j] += weight
    return cells


def weighted(cluster: list[Item], aligned: Aligned) -> bool:
    """Whether a split antecedent of the entity is aligned (its links then weigh its F1)."""
    return bool(aligned) and any(type(m) is Split and m in aligned for m in cluster)


def same_pairs(ids: Iterable[int]) -> int:
    """How many pairs of the items share an entity (each item given by its entity)."""
    return sum(n * (n - 1) // 2 for n in Counter(ids).values())


def split_items(clusters: Clusters) -> list[Split]:
    """The split antecedents of a side, in entity order."""
    return [m for c in clusters for m in c if isinstance(m, Split)]
