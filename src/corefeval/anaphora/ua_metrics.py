"""The UA scorer's split-antecedent-aware identity metrics of one document (MUC, B-cubed, CEAFe,
CEAFm, LEA, BLANC), each as numerators and denominators given the alignment of split antecedents:
each metric's item-by-item definition, whose entities without a split antecedent are counted in
one pass over their mentions when the caller asks (:class:`Found`), and whose documents and
clusterings without split antecedents are counted that way throughout
(:func:`plain_identity_counts`).

Without split antecedents no item weighs anything but 1, and each of these metrics depends on an
entity's mentions only through how many of them the other side has in each of its entities: the
one-pass counts give the numbers of the item-by-item definitions operation for operation (the
integer parts are exact in floats, and every float operation is the same and made in the same
order; tested to the last bit).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from operator import mul
from typing import NamedTuple

from ..core.assignment import cell_matching
from .ua_sides import Clusters, Item, Mention, Split

#: The identity metrics, by the UA scorer's names, in its reporting order.
IDENTITY_METRICS = ("lea", "muc", "bcub", "ceafe", "ceafm", "blancc", "blancn")


def assignments(clusters: Clusters) -> dict[Item, int]:
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


def _pairs(n: int) -> int:
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
        """:func:`_overlaps` of the two sides (kept when ``aligned`` is empty; ``one_pass``: those
        of the mentions, kept, plus the weights of the aligned split antecedents, which gives the
        same cells up to the order of float sums, without minimum spans)."""
        if aligned and not one_pass:
            return _overlaps(self.key, self.response, aligned)
        if self._cells is None:
            self._cells = _overlaps(self.key, self.response, {})
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


Aligned = dict[Item, tuple[Item, float]]


def _muc(
    clusters: Clusters,
    others: Clusters,
    to_other: dict[Item, int],
    aligned: Aligned,
    singletons: bool,
    one_pass: OnePass | None = None,
) -> tuple[float, float]:
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


def _bcub(
    clusters: Clusters, to_other: dict[Item, int], aligned: Aligned, one_pass: OnePass | None = None
) -> tuple[float, float]:
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


def _overlap(c1: list[Item], c2: list[Item], aligned: Aligned) -> float:
    total = 0.0
    for m in c1:
        if isinstance(m, Split):
            if m in aligned and aligned[m][0] in c2:
                total += aligned[m][1]
        elif m in c2:
            total += 1
    return total


def _overlaps(key: Clusters, response: Clusters, aligned: Aligned) -> dict[tuple[int, int], float]:
    """The non-zero :func:`_overlap` of every key and response entity, each summed in the same
    order. Without minimum spans, equal mentions have equal spans and equal split antecedents sit
    in one response entity, so an index by span finds the cells in time linear in the mentions;
    with minimum spans (equality is then not by span) every pair of entities is compared."""
    cells: dict[tuple[int, int], float] = defaultdict(float)
    if any(type(m) is Mention and m.min_span for c in key for m in c):
        for i, k in enumerate(key):
            for j, r in enumerate(response):
                o = _overlap(k, r, aligned)
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


#: The CEAF similarity of a document: the best one-to-one matching of its cells (the name the
#: tests know; :func:`corefeval.core.assignment.cell_matching`).
_max_matching = cell_matching


def _ceaf(
    response: Clusters,
    key: Clusters,
    aligned: Aligned,
    entity: bool,
    lookups: Lookups | None = None,
    one_pass: bool = False,
) -> tuple[float, float, float, float]:
    cells = (lookups or Lookups(key, response)).overlaps(aligned, one_pass)
    if entity:
        weights = {(i, j): 2 * o / float(len(key[i]) + len(response[j])) for (i, j), o in cells.items()}
    else:
        weights = cells
    similarity = cell_matching(weights)
    if entity:
        return similarity, len(response), similarity, len(key)
    return similarity, sum(len(c) for c in response), similarity, sum(len(c) for c in key)


def _weighted(cluster: list[Item], aligned: Aligned) -> bool:
    """Whether a split antecedent of the entity is aligned (its links then weigh its F1)."""
    return bool(aligned) and any(type(m) is Split and m in aligned for m in cluster)


def _same_pairs(ids: Iterable[int]) -> int:
    """How many pairs of the items share an entity (each item given by its entity)."""
    return sum(n * (n - 1) // 2 for n in Counter(ids).values())


def _lea(
    clusters: Clusters, others: Clusters, to_other: dict[Item, int], aligned: Aligned, one_pass: OnePass | None = None
) -> tuple[float, float]:
    num, den = 0.0, 0.0
    for i, c in enumerate(clusters):
        if len(c) == 1:
            links = 1.0
            common = 1.0 if c[0] in to_other and len(others[to_other[c[0]]]) == 1 else 0.0
        elif one_pass is not None and i not in one_pass.mixed:
            links = len(c) * (len(c) - 1) / 2.0
            common = float(one_pass.found.links[i])
        elif not _weighted(c, aligned):
            # every link weighs 1: the common links counted by entity, in time linear in the entity
            links = len(c) * (len(c) - 1) / 2.0
            common = float(_same_pairs(to_other[m] for m in c if m in to_other))
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


def _blancc(
    response: Clusters, key: Clusters, to_response: dict[Item, int], aligned: Aligned, one_pass: OnePass | None = None
) -> tuple[float, ...]:
    weighted = any(_weighted(c, aligned) for c in key)
    # every link weighing 1: counted by response entity, in time linear in the items
    num = 0.0 if weighted else float(sum(_found_links(key, to_response, one_pass)))
    for k, c in enumerate(key if weighted else ()):
        if one_pass is not None and k not in one_pass.mixed:  # links weighing 1, counted at once
            num += float(one_pass.found.links[k])
            continue
        for i, m in enumerate(c):
            weight = 1.0
            if isinstance(m, Split) and m in aligned:
                m, weight = aligned[m]
            if m in to_response:
                for m2 in c[i + 1 :]:
                    if m2 in to_response and to_response[m] == to_response[m2]:
                        num += weight
    rd = sum(len(c) * (len(c) - 1) / 2 for c in key)
    pd = sum(len(c) * (len(c) - 1) / 2 for c in response)
    return num, pd, num, rd


def _found_links(key: Clusters, to_response: dict[Item, int], one_pass: OnePass | None) -> Iterable[int]:
    """Per key entity, its pairs of items in one response entity (from ``one_pass`` where it
    counts the entity)."""
    for k, c in enumerate(key):
        if one_pass is not None and k not in one_pass.mixed:
            yield one_pass.found.links[k]
        else:
            yield _same_pairs(to_response[m] for m in c if m in to_response)


def _blancn(
    response: Clusters, key: Clusters, to_response: dict[Item, int], aligned: Aligned, one_pass: OnePass | None = None
) -> tuple[float, ...]:
    """The non-coreference links of the key found in the response: pairs of items in two key
    entities, both found, in two response entities, each weighing the product of the items'
    weights (an aligned split antecedent stands for its response partner and weighs its F1).
    Counted, in time linear in the items, as the pairs of found items less those in one key or
    one response entity plus those in both, for the items weighing 1 (per key entity, how many
    each response entity holds: from ``one_pass`` where it counts the entity); then the pairs with
    each weighted item."""
    where: list[dict[int, int]] = []  # per key entity, its items weighing 1 in each response entity
    weighted: list[tuple[int, int, float]] = []
    for k, c in enumerate(key):
        if one_pass is not None and k not in one_pass.mixed:
            where.append(one_pass.found.where[k])
            continue
        counts: dict[int, int] = {}
        for m in c:
            if type(m) is Split and m in aligned:
                partner, weight = aligned[m]
                if partner in to_response:
                    weighted.append((k, to_response[partner], weight))
            elif m in to_response:
                counts[to_response[m]] = counts.get(to_response[m], 0) + 1
        where.append(counts)
    by_key = [sum(counts.values()) for counts in where]
    by_response: dict[int, int] = {}
    for counts in where:
        for r, x in counts.items():
            by_response[r] = by_response.get(r, 0) + x
    n = sum(by_key)
    in_both = sum(_pairs(x) for counts in where for x in counts.values())
    num = float(_pairs(n) - sum(map(_pairs, by_key)) - sum(map(_pairs, by_response.values())) + in_both)
    for a, (k, r, w) in enumerate(weighted):
        num += w * (n - by_key[k] - by_response.get(r, 0) + where[k].get(r, 0))
        num += sum(w * w2 for k2, r2, w2 in weighted[a + 1 :] if k2 != k and r2 != r)
    nk, nr = sum(len(c) for c in key), sum(len(c) for c in response)
    rd = nk * (nk - 1) / 2 - sum(len(c) * (len(c) - 1) / 2 for c in key)
    pd = nr * (nr - 1) / 2 - sum(len(c) * (len(c) - 1) / 2 for c in response)
    return num, pd, num, rd


def metric_counts(
    name: str,
    key: Clusters,
    response: Clusters,
    key_aligned_r: Aligned | None = None,
    response_aligned_p: Aligned | None = None,
    key_aligned_f: Aligned | None = None,
    split_alignment: bool = False,
    lookups: Lookups | None = None,
    one_pass: bool = False,
) -> tuple[float, float, float, float]:
    """``(precision_num, precision_den, recall_num, recall_den)`` of one identity metric (the UA
    scorer's order), given the alignment of split antecedents by recall, precision and F1
    (``lookups``: those of ``key`` and ``response``, when the caller shares them; ``one_pass``:
    the entities without split antecedents counted from :meth:`Lookups.one_pass`)."""
    r_al, p_al, f_al = key_aligned_r or {}, response_aligned_p or {}, key_aligned_f or {}
    lookups = lookups or Lookups(key, response)
    # each side's lookups are read only for the other side's items (none: not made)
    to_key = lookups.to_key if response else {}
    to_response = lookups.to_response if key else {}
    k1, r1 = lookups.one_pass() if one_pass else (None, None)
    if name in ("ceafe", "ceafm"):
        pn, pd, rn, rd = _ceaf(response, key, f_al, name == "ceafe", lookups, one_pass)
    elif name == "blancc":
        pn, pd, rn, rd = _blancc(response, key, to_response, f_al, k1)
    elif name == "blancn":
        pn, pd, rn, rd = _blancn(response, key, to_response, f_al, k1)
    elif name == "lea":
        pn, pd = _lea(response, key, to_key, p_al, r1)
        rn, rd = _lea(key, response, to_response, r_al, k1)
    elif name == "muc":
        pn, pd = _muc(response, key, to_key, p_al, split_alignment, r1)
        rn, rd = _muc(key, response, to_response, r_al, split_alignment, k1)
    elif name == "bcub":
        pn, pd = _bcub(response, to_key, p_al, r1)
        rn, rd = _bcub(key, to_response, r_al, k1)
    else:
        raise ValueError(f"unknown UA identity metric '{name}'")
    return float(pn), float(pd), float(rn), float(rd)


def f1(pn: float, pd: float, rn: float, rd: float) -> float:
    p = 0.0 if pd == 0 else pn / pd
    r = 0.0 if rd == 0 else rn / rd
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def split_items(clusters: Clusters) -> list[Split]:
    return [m for c in clusters for m in c if isinstance(m, Split)]


def plain_identity_counts(
    lookups: Lookups, split_alignment: bool = False
) -> dict[str, tuple[float, float, float, float]]:
    """``(precision_num, precision_den, recall_num, recall_den)`` of every identity metric of
    entities without split antecedents, counted in one pass (``split_alignment``: MUC as the
    alignment of split antecedents counts it, singletons too)."""
    key, response = lookups.key, lookups.response
    return {
        name: metric_counts(name, key, response, split_alignment=split_alignment, lookups=lookups, one_pass=True)
        for name in IDENTITY_METRICS
    }


def split_member_counts(key: Clusters, response: Clusters) -> dict[str, tuple[float, float, float, float]]:
    """:func:`plain_identity_counts` of two split antecedents' members as the alignment counts them."""
    return plain_identity_counts(Lookups(key, response), split_alignment=True)
