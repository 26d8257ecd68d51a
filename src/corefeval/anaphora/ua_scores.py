"""The measures of the Universal Anaphora scorer 2.0, per document as additive counts.

Identity (and discourse deixis, scored the same way on its own layer) uses the UA scorer's
split-antecedent-aware MUC, B-cubed, CEAFe, CEAFm, LEA and BLANC: a plural entity whose elements
are other entities (``ElementOf``) gains one extra member, the set of its element entities, which
is aligned with the response's such sets (one-to-one, best F1 of the metric on the sets' members)
and counts as correct by that F1, recall or precision. Non-referring markables are scored by
identification; bridging by anaphor recognition and by anchor at markable and at entity level.

The UA scorer's results depend on details that are reproduced here on purpose, because its numbers
are the reference for these measures (see ``docs/anaphora.md``):

* mentions are looked up by exact span (a hash of the span), except where the scorer compares them
  one by one (CEAF's overlaps, non-referring identification, bridging anchors): there a response
  markable within a key markable and covering its minimum span is equal to it when ``min_spans``;
* the members of an entity are iterated in the order of a Python set of its markables when split
  antecedents are kept, which decides LEA's and BLANC's split-antecedent weights;
* BLANC is the mean of its coreference and non-coreference parts over the parts with a non-zero
  denominator in the whole corpus.
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, NamedTuple

import numpy as np

from ..assignment import linear_sum_assignment, solve_dense
from ..diagnostics import CountingError
from . import plain_counts
from .model import PSEUDO, Markable, UADocument

#: The identity metrics, by the UA scorer's names, in its reporting order.
IDENTITY_METRICS = ("lea", "muc", "bcub", "ceafe", "ceafm", "blancc", "blancn")


class Mention:
    """A markable as the UA scorer compares it: equal to another by span, or (key side, with
    ``min_spans``) to any markable within it that covers its minimum span; hashed by span."""

    __slots__ = ("start", "end", "min_span", "_hash")

    def __init__(self, start: int, end: int, min_span: tuple[int, int] | None = None) -> None:
        self.start, self.end, self.min_span = start, end, min_span
        self._hash = hash(frozenset((start, end)))

    def __eq__(self, other: object) -> bool:
        if type(other) is not Mention:
            return False if isinstance(other, Split) else NotImplemented
        if self.min_span is None and other.min_span is None:
            return self.start == other.start and self.end == other.end
        if self.min_span:
            return self.start <= other.start <= self.min_span[0] and self.min_span[1] <= other.end <= self.end
        if other.min_span:
            return other.start <= self.start <= other.min_span[0] and other.min_span[1] <= self.end <= other.end
        return self.start == other.start and self.end == other.end

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"({self.start},{self.end})"


class Split:
    """The extra member of a plural entity: the set of its element entities (each a tuple of
    mentions); equal to another by that set."""

    __slots__ = ("members", "_hash")

    def __init__(self, members: set[tuple[Mention, ...]]) -> None:
        self.members = members
        self._hash = hash(frozenset(members))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Split):
            return self.members == other.members
        if isinstance(other, Mention):
            return False
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash


Item = Any  # a Mention or a Split
Clusters = list[list[Item]]


@dataclass(frozen=True)
class Options:
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


def side(doc: UADocument, options: Options, key: bool, shared: dict[tuple[int, int], Mention] | None = None) -> Side:
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
        cluster: list[Item] = list(mentions)
        if elements.get(entity) and options.keep_split_antecedents:
            cluster.append(Split(_split_members(entity, entities, elements, budget, doc.name)))
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
        return [list(set(c)) for c in clusters]  # the sets as update() fills them, item by item
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


def _assignments(clusters: Clusters) -> dict[Item, int]:
    return {m: i for i, c in enumerate(clusters) for m in c}


class OnePass(NamedTuple):
    """One side's entities as :mod:`.plain_counts` counts them, for the entities without a split
    antecedent (those in ``mixed`` have one and are counted item by item)."""

    found: plain_counts.Found
    mixed: frozenset[int]


class Lookups:
    """What every metric of one document looks up, computed once: the entity of each item on
    either side, the split antecedents, the CEAF overlaps of entities when no split antecedent is
    aligned, and each side's one-pass counts."""

    __slots__ = ("to_key", "to_response", "_cells", "key", "response", "_splits", "_one_pass")

    def __init__(self, key: Clusters, response: Clusters) -> None:
        self.key, self.response = key, response
        self.to_key, self.to_response = _assignments(key), _assignments(response)
        self._cells: dict[tuple[int, int], float] | None = None
        self._splits: tuple[list[Split], list[Split]] | None = None
        self._one_pass: tuple[OnePass, OnePass] | None = None

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
            self._splits = _splits(self.key), _splits(self.response)
        return self._splits

    def one_pass(self) -> tuple[OnePass, OnePass]:
        """The key's and the response's :class:`OnePass`, with which the metrics count the entities
        without split antecedents in one pass (the same numbers as item by item, up to the order
        of float sums after a weighted entity)."""
        if self._one_pass is None:
            key_splits, response_splits = self.splits()
            self._one_pass = (
                OnePass(
                    plain_counts.Found.of(self.key, self.to_response),
                    frozenset(self.to_key[s] for s in key_splits),
                ),
                OnePass(
                    plain_counts.Found.of(self.response, self.to_key),
                    frozenset(self.to_response[s] for s in response_splits),
                ),
            )
        return self._one_pass


# -- the metrics on (clusters, other clusters, lookups); each returns numerators and denominators --

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
            where = one_pass.found.where[i]
            tp += sum(where.values()) - len(where)
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
            num += sum(float(v) * float(v) for v in one_pass.found.where[i].values()) / len(c)
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


#: Dense CEAF components up to this many cells are solved without importing scipy.
_NATIVE_CELLS = 2500


def _max_matching(weights: dict[tuple[int, int], float]) -> float:
    """Maximum total weight of a one-to-one matching of the cells ``(row, column)``: per connected
    component of the cells, the largest cell when it has one row or one column, else the dense
    optimum (:func:`corefeval.assignment.solve_dense`, in plain Python up to ``_NATIVE_CELLS``
    cells: CEAF needs the total only); linear in the cells but for those dense components."""
    if len({i for i, _ in weights}) == len(weights) == len({j for _, j in weights}):
        return sum(weights.values(), 0.0)  # every cell alone in its row and column (the usual case)
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = x = parent[parent[x]]
        return x

    in_row, in_column = Counter(i for i, _ in weights), Counter(j for _, j in weights)
    for i, j in weights:
        if in_row[i] > 1 or in_column[j] > 1:  # a cell alone in its row and column is a component
            a, b = root(i), root(-1 - j)
            if a != b:
                parent[a] = b
    groups: dict[object, list[tuple[int, int]]] = {}  # in order of their first cell
    for cell in weights:
        alone = in_row[cell[0]] == 1 and in_column[cell[1]] == 1
        groups.setdefault(cell if alone else root(cell[0]), []).append(cell)
    total = 0.0
    for cells in groups.values():
        if len(cells) == 1:
            total += weights[cells[0]]
            continue
        rows = sorted({i for i, _ in cells})
        cols = sorted({j for _, j in cells})
        if len(rows) == 1 or len(cols) == 1:
            total += max(weights[c] for c in cells)
            continue
        if len(rows) == 2 or len(cols) == 2:
            total += _two_lines(weights, rows, cols)
            continue
        dense = np.zeros((len(rows), len(cols)))
        row_at = {r: n for n, r in enumerate(rows)}
        col_at = {c: n for n, c in enumerate(cols)}
        for i, j in cells:
            dense[row_at[i], col_at[j]] = weights[i, j]
        total += solve_dense(dense, native_cells=_NATIVE_CELLS)
    return total


def _two_lines(weights: dict[tuple[int, int], float], rows: list[int], cols: list[int]) -> float:
    """The maximum matching of a component of two rows (or two columns) and at least two of the
    other: the best sum of a cell of the first line and one of the second in another place (a
    place without a cell weighs 0), found in time linear in the places."""
    if len(rows) == 2:
        first = [weights.get((rows[0], j), 0.0) for j in cols]
        second = [weights.get((rows[1], j), 0.0) for j in cols]
    else:
        first = [weights.get((i, cols[0]), 0.0) for i in rows]
        second = [weights.get((i, cols[1]), 0.0) for i in rows]
    top = max(range(len(second)), key=second.__getitem__)
    runner_up = max(v for at, v in enumerate(second) if at != top)
    return max(v + (runner_up if at == top else second[top]) for at, v in enumerate(first))


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
    similarity = _max_matching(weights)
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
            common = float(sum(n * (n - 1) // 2 for n in one_pass.found.where[i].values()))
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
    num = 0.0
    weighted = any(_weighted(c, aligned) for c in key)
    if not weighted:  # every link weighs 1: counted by response entity, in time linear in the items
        num = float(sum(_same_pairs(to_response[m] for m in c if m in to_response) for c in key))
    for k, c in enumerate(key if weighted else ()):
        if one_pass is not None and k not in one_pass.mixed:  # links weighing 1, counted at once
            num += float(sum(n * (n - 1) // 2 for n in one_pass.found.where[k].values()))
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


def _blancn(response: Clusters, key: Clusters, to_response: dict[Item, int], aligned: Aligned) -> tuple[float, ...]:
    """The non-coreference links of the key found in the response: pairs of items in two key
    entities, both found, in two response entities, each weighing the product of the items'
    weights (an aligned split antecedent stands for its response partner and weighs its F1).
    Counted, in time linear in the items, as the pairs of found items less those in one key or
    one response entity plus those in both (counted twice), for the items weighing 1; then the
    pairs with each weighted item."""
    unit: list[tuple[int, int]] = []
    weighted: list[tuple[int, int, float]] = []
    for k, c in enumerate(key):
        for m in c:
            weight = 1.0
            if type(m) is Split and m in aligned:
                m, weight = aligned[m]
                if m in to_response:
                    weighted.append((k, to_response[m], weight))
            elif m in to_response:
                unit.append((k, to_response[m]))
    by_key, by_response, by_both = Counter(k for k, _ in unit), Counter(r for _, r in unit), Counter(unit)
    n = len(unit)
    pairs_ = n * (n - 1) // 2 - _same_pairs(k for k, _ in unit) - _same_pairs(r for _, r in unit)
    num = float(pairs_ + sum(x * (x - 1) // 2 for x in by_both.values()))
    for a, (k, r, w) in enumerate(weighted):
        num += w * (n - by_key[k] - by_response[r] + by_both[k, r])
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
    to_key, to_response = lookups.to_key, lookups.to_response
    k1, r1 = lookups.one_pass() if one_pass else (None, None)
    if name in ("ceafe", "ceafm"):
        pn, pd, rn, rd = _ceaf(response, key, f_al, name == "ceafe", lookups, one_pass)
    elif name == "blancc":
        pn, pd, rn, rd = _blancc(response, key, to_response, f_al, k1)
    elif name == "blancn":
        pn, pd, rn, rd = _blancn(response, key, to_response, f_al)
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


def _f1(pn: float, pd: float, rn: float, rd: float) -> float:
    p = 0.0 if pd == 0 else pn / pd
    r = 0.0 if rd == 0 else rn / rd
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def _splits(clusters: Clusters) -> list[Split]:
    return [m for c in clusters for m in c if isinstance(m, Split)]


#: Tables up to this many rows and columns (the smaller side, the larger) are solved by trying
#: every assignment; larger ones, and ties, go to scipy's solver, whose pairs the UA scorer uses.
_TRIED = (3, 6)
_MARGIN = 1e-9  # a best total ahead of every other by more than this is the one scipy finds


def best_assignment(f: list[list[float]] | np.ndarray, placeholder: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns (in row order) of the one-to-one assignment of maximum total F1 that
    scipy's ``linear_sum_assignment`` gives. Without calling it when the answer is
    unique (any exact solver then finds it), when one side is the placeholder of a side without
    split antecedents (every numerator is 0 there, so the pair chosen changes no number), and in
    the two cases of ties whose answer scipy's solver fixes (tested against it): one row or one
    column, where it takes the first maximum, and a table of equal values, where it pairs row
    ``i`` with column ``i``."""
    table_ = np.asarray(f, dtype=float)
    n, m = table_.shape
    if n == 1 and m == 1 or placeholder:
        return np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    if n == 1 or m == 1:
        first = np.array([int(np.argmax(table_.reshape(-1)))], dtype=np.int64)
        return (np.zeros(1, dtype=np.int64), first) if n == 1 else (first, np.zeros(1, dtype=np.int64))
    if (table_ == table_[0, 0]).all():
        return np.arange(min(n, m), dtype=np.int64), np.arange(min(n, m), dtype=np.int64)
    if min(n, m) <= _TRIED[0] and max(n, m) <= _TRIED[1]:
        transposed = n > m
        table = (table_.T if transposed else table_).tolist()
        best: tuple[float, tuple[int, ...]] = (-1.0, ())
        second = -1.0
        for chosen in permutations(range(len(table[0])), len(table)):
            total = sum(row[j] for row, j in zip(table, chosen))
            if total > best[0]:
                best, second = (total, chosen), best[0]
            elif total > second:
                second = total
        if best[0] - second > _MARGIN:
            pairs_ = sorted((j, i) for i, j in enumerate(best[1])) if transposed else list(enumerate(best[1]))
            return np.array([i for i, _ in pairs_], dtype=np.int64), np.array([j for _, j in pairs_], dtype=np.int64)
    rows, cols = linear_sum_assignment(-table_)
    return rows, cols


_SCORED = 6  # split-antecedent tables up to this many cells are scored in plain Python, pair by pair


#: Counts of a key and a response clustering, by measure: ``(precision_num, precision_den,
#: recall_num, recall_den)`` each.
Counting = Callable[[Clusters, Clusters], dict[str, tuple[float, float, float, float]]]


def _sharing_tables(
    key_sets: list[Clusters], response_sets: list[Clusters], count: Counting, names: Sequence[str]
) -> dict[str, np.ndarray]:
    """``count`` of every key and response split antecedent, per measure of ``names`` an array
    ``keys x responses x 4``, for entities without minimum spans. A pair without a common mention
    has numerators 0 and each side's denominators (which depend on that side only), so only the
    pairs sharing a span are counted one by one."""
    by_span: dict[tuple[int, int], set[int]] = defaultdict(set)
    for j, clusters in enumerate(response_sets):
        for c in clusters:
            for m in c:
                by_span[m.start, m.end].add(j)
    tables = {name: np.zeros((len(key_sets), len(response_sets), 4)) for name in names}
    alone_response = [count([], r) for r in response_sets]
    alone_key = [count(k, []) for k in key_sets]
    for name, table in tables.items():
        table[:, :, 1] = [counts[name][1] for counts in alone_response]
        table[:, :, 3] = np.array([counts[name][3] for counts in alone_key])[:, None]
    for i, k in enumerate(key_sets):
        for j in sorted({j for c in k for m in c for j in by_span.get((m.start, m.end), ())}):
            counts = count(k, response_sets[j])
            for name, table in tables.items():
                table[i, j] = counts[name]
    return tables


def _split_table(name: str, key_sets: list[Clusters], response_sets: list[Clusters]) -> np.ndarray:
    """:func:`metric_counts` of every key and response split antecedent, an array
    ``keys x responses x 4`` (with minimum spans, where common is not of one span, every pair is
    scored; without, those sharing a span, see :func:`_sharing_tables`)."""
    if any(m.min_span for clusters in key_sets for c in clusters for m in c):
        return np.array(
            [[metric_counts(name, k, r, split_alignment=True) for r in response_sets] for k in key_sets], dtype=float
        ).reshape(len(key_sets), len(response_sets), 4)
    return _sharing_tables(
        key_sets, response_sets, lambda k, r: {name: metric_counts(name, k, r, split_alignment=True)}, (name,)
    )[name]


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den``, 0 where either is 0 (the scorer's recall and precision of a pair)."""
    return np.divide(num, den, out=np.zeros_like(num), where=(num != 0) & (den != 0))


def _split_sets(splits: list[Split]) -> list[Clusters]:
    """Each split antecedent's members as a clustering (one empty clustering when there are none:
    the placeholder the alignment pairs with the other side's)."""
    return [[list(t) for t in s.members] for s in splits] or [[]]


#: The counts of every pair of split antecedents (key x response x 4): nested lists when small
#: (up to ``_SCORED`` pairs, where numpy costs more than it saves), else an array.
Table = Any


def split_tables(lookups: Lookups) -> dict[str, Table] | None:
    """:func:`_split_table` of every identity metric at once, for entities without minimum spans
    (``None`` when neither side has split antecedents): the members of split antecedents are
    entities of mentions weighing 1, so each pair sharing a span is counted once for all the
    metrics by :func:`_plain_counts`, which gives the counts of :func:`metric_counts` to the last
    bit."""
    key_splits, response_splits = lookups.splits()
    if not key_splits and not response_splits:
        return None
    key_sets, response_sets = _split_sets(key_splits), _split_sets(response_splits)
    if len(key_sets) * len(response_sets) <= _SCORED:  # small: every pair
        every = [[_pair_counts(k, r) for r in response_sets] for k in key_sets]
        return {name: [[c[name] for c in row] for row in every] for name in IDENTITY_METRICS}
    return _sharing_tables(key_sets, response_sets, _pair_counts, IDENTITY_METRICS)


def align_splits(
    name: str, key: Clusters, response: Clusters, table: Table | None = None, lookups: Lookups | None = None
) -> tuple[tuple[float, float, float, float], Aligned, Aligned, Aligned]:
    """The one-to-one alignment of split antecedents by ``name``'s F1 on their members: the
    split-antecedent counts, and the aligned pairs with their recall, precision and F1
    (``table``: the counts of every pair of split antecedents, when :func:`split_tables` made them;
    ``lookups``: the document's, which know its split antecedents)."""
    key_splits, response_splits = lookups.splits() if lookups is not None else (_splits(key), _splits(response))
    if not key_splits and not response_splits:
        return (0.0, 0.0, 0.0, 0.0), {}, {}, {}
    if table is None:
        key_sets, response_sets = _split_sets(key_splits), _split_sets(response_splits)
        if len(key_sets) * len(response_sets) <= _SCORED:
            table = [[metric_counts(name, k, r, split_alignment=True) for r in response_sets] for k in key_sets]
        else:
            table = _split_table(name, key_sets, response_sets)
    precision: Any
    recall: Any
    f: Any
    placeholder = not key_splits or not response_splits
    if isinstance(table, list):  # small: in plain Python, whose sums of under 8 terms are numpy's
        precision = [[0.0 if c[0] == 0 else c[0] / c[1] if c[1] else 0.0 for c in row] for row in table]
        recall = [[0.0 if c[2] == 0 else c[2] / c[3] if c[3] else 0.0 for c in row] for row in table]
        f = [[_f1(*c) for c in row] for row in table]
        rows, cols = (x.tolist() for x in best_assignment(f, placeholder))
        counts = (
            float(sum(table[i][j][0] for i, j in zip(rows, cols))),
            float(sum(c[1] for c in table[0])),
            float(sum(table[i][j][2] for i, j in zip(rows, cols))),
            float(sum(row[0][3] for row in table)),
        )
    else:
        precision, recall = _ratio(table[:, :, 0], table[:, :, 1]), _ratio(table[:, :, 2], table[:, :, 3])
        both = precision + recall  # F1 as _f1 computes it, cell by cell
        f = np.divide(2 * precision * recall, both, out=np.zeros_like(both), where=both != 0)
        at_rows, at_cols = best_assignment(f, placeholder)
        counts = (
            float(table[at_rows, at_cols, 0].sum()),
            float(table[0, :, 1].sum()),
            float(table[at_rows, at_cols, 2].sum()),
            float(table[:, 0, 3].sum()),
        )
        rows, cols = at_rows.tolist(), at_cols.tolist()
    r_al: Aligned = {}
    p_al: Aligned = {}
    f_al: Aligned = {}
    for i, j in zip(rows, cols):
        if i >= len(key_splits) or j >= len(response_splits):
            continue  # the placeholder of a side without split antecedents
        if recall[i][j] > 0:
            r_al[key_splits[i]] = (response_splits[j], float(recall[i][j]))
        if precision[i][j] > 0:
            p_al[response_splits[j]] = (key_splits[i], float(precision[i][j]))
        if f[i][j] > 0:
            f_al[key_splits[i]] = (response_splits[j], float(f[i][j]))
    return counts, r_al, p_al, f_al


def identity_counts(
    name: str,
    key: Clusters,
    response: Clusters,
    lookups: Lookups | None = None,
    table: Table | None = None,
    one_pass: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """One document's counts of an identity metric and of its split-antecedent alignment, each
    ``(recall_num, recall_den, precision_num, precision_den)`` (``lookups``: shared by the
    metrics of the document; ``table``: the split antecedents' counts, see :func:`align_splits`;
    ``one_pass``: see :func:`metric_counts`, for entities without minimum spans)."""
    split, r_al, p_al, f_al = align_splits(name, key, response, table, lookups)
    pn, pd, rn, rd = metric_counts(name, key, response, r_al, p_al, f_al, lookups=lookups, one_pass=one_pass)
    return np.array([rn, rd, pn, pd]), np.array([split[2], split[3], split[0], split[1]])


def non_referring_counts(key: Side, response: Side) -> np.ndarray:
    """Non-referring identification ``(tp, tp + fn, tp, tp + fp)``: a key markable is found when
    a response non-referring markable equals it; a response markable is wrong when no key one
    equals it (with minimum spans, two response markables may both equal one key markable)."""
    tp = sum(1 for m in key.non_referring if m in response.non_referring)
    fp = sum(1 for m in response.non_referring if m not in key.non_referring)
    return np.array([tp, len(key.non_referring), tp, tp + fp], dtype=float)


def bridging_counts(key: Side, response: Side) -> np.ndarray:
    """Bridging counts ``(tp, fn, fp)`` of anaphor recognition, then of full bridging at markable
    level, then at entity level (the anchor in the key anchor's entity)."""
    to_key = _assignments(key.clusters)
    tp = np.zeros(3)
    fn = np.zeros(3)
    fp = np.zeros(3)
    for ana, k_ant in key.bridging.items():
        if ana not in response.bridging:
            fn += 1
            continue
        tp[0] += 1
        r_ant = response.bridging[ana]
        if k_ant == r_ant:
            tp[1:] += 1
            continue
        fn[1] += 1
        if r_ant in to_key and k_ant in to_key and to_key[k_ant] == to_key[r_ant]:
            tp[2] += 1
        else:
            fn[2] += 1
    for ana, r_ant in response.bridging.items():
        if ana not in key.bridging:
            fp += 1
            continue
        k_ant = key.bridging[ana]
        if r_ant != k_ant:
            fp[1] += 1
            if r_ant not in to_key or k_ant not in to_key or to_key[r_ant] != to_key[k_ant]:
                fp[2] += 1
    return np.stack([tp, fn, fp], axis=1).reshape(-1)


@dataclass(frozen=True)
class Pair:
    """A document's key and response sides."""

    name: str
    key: Side
    response: Side


def pairs(keys: Iterable[UADocument], responses: Iterable[UADocument], options: Options) -> list[Pair]:
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


def prf(rn: float, rd: float, pn: float, pd: float) -> tuple[float, float, float]:
    """Recall, precision and F1 (0 for a zero numerator, as the UA scorer has it, or a zero
    denominator, where it fails)."""
    r = 0.0 if rn == 0 or rd == 0 else rn / rd
    p = 0.0 if pn == 0 or pd == 0 else pn / pd
    return r, p, _f1(pn, pd, rn, rd)


def blanc(c: np.ndarray, n: np.ndarray) -> tuple[float, float, float]:
    """The UA scorer's BLANC: the mean of the coreference and non-coreference recall, precision and
    F1 over those of the two parts whose summed denominators are not both 0 (0 when neither)."""
    parts = [prf(*x) for x in (c, n) if not (x[1] == 0 and x[3] == 0)]
    if not parts:
        return 0.0, 0.0, 0.0
    r, p, f = (sum(v) / len(parts) for v in zip(*parts))
    return r, p, f


def has_splits(clusters: Clusters) -> bool:
    """Whether an entity of ``clusters`` has split antecedents (a :class:`Split` member)."""
    return any(type(m) is Split for c in clusters for m in c)


def _plain_counts(lookups: Lookups, split_alignment: bool = False) -> dict[str, tuple[float, float, float, float]]:
    """``(precision_num, precision_den, recall_num, recall_den)`` of every identity metric of
    entities without split antecedents: those :mod:`.plain_counts` counts in one pass, and CEAF
    (``split_alignment``: MUC as the alignment of split antecedents counts it, singletons too)."""
    key, response = lookups.key, lookups.response
    return _found_counts(
        plain_counts.Found.of(key, lookups.to_response),
        plain_counts.Found.of(response, lookups.to_key),
        _ceaf(response, key, {}, True, lookups),
        _ceaf(response, key, {}, False, lookups),
        split_alignment,
    )


def _found_counts(
    k: plain_counts.Found,
    r: plain_counts.Found,
    ceafe: tuple[float, float, float, float],
    ceafm: tuple[float, float, float, float],
    split_alignment: bool,
) -> dict[str, tuple[float, float, float, float]]:
    """:func:`_plain_counts` from the two sides' :class:`~.plain_counts.Found` and the CEAF counts."""
    with_singletons = (k, r) if split_alignment else (None, None)
    return {
        "lea": (*plain_counts.lea(r, k), *plain_counts.lea(k, r)),
        "muc": (*plain_counts.muc(r, with_singletons[0]), *plain_counts.muc(k, with_singletons[1])),
        "bcub": (*plain_counts.bcub(r), *plain_counts.bcub(k)),
        "ceafe": ceafe,
        "ceafm": ceafm,
        "blancc": plain_counts.blancc(k, r),
        "blancn": plain_counts.blancn(k, r),
    }


def _pair_counts(key: Clusters, response: Clusters) -> dict[str, tuple[float, float, float, float]]:
    """:func:`_plain_counts` of two split antecedents' members as the alignment counts them; when
    one side is empty (a side alone, or the placeholder of a side without split antecedents)
    straight from the other side's entity sizes, every numerator being 0."""
    if key and response:
        return _plain_counts(Lookups(key, response), split_alignment=True)
    k = plain_counts.Found([len(c) for c in key], [{} for _ in key])
    r = plain_counts.Found([len(c) for c in response], [{} for _ in response])
    ceafe = (0.0, len(response), 0.0, len(key))
    ceafm = (0.0, sum(len(c) for c in response), 0.0, sum(len(c) for c in key))
    return _found_counts(k, r, ceafe, ceafm, split_alignment=True)


#: The split-antecedent tables of all seven measures are made at once up to this many pairs of
#: split antecedents (else one measure's table at a time, to hold one in memory).
_JOINT_CELLS = 250_000
#: The most pairs of key and response split antecedents one document's alignment may score: each
#: measure's table holds them all (as the UA scorer's), and without minimum spans an array of 4
#: floats per pair; with minimum spans every pair is scored one by one.
SPLIT_TABLE_LIMIT = 4_000_000
SPLIT_TABLE_LIMIT_MIN_SPANS = 40_000


def _table_cells(lookups: Lookups) -> int:
    key_splits, response_splits = lookups.splits()
    return max(len(key_splits), 1) * max(len(response_splits), 1)


def check_split_table(document: str, lookups: Lookups, by_span: bool) -> None:
    """A :class:`~corefeval.diagnostics.CountingError` for a document whose split-antecedent
    alignment would score more pairs than the limit (time and memory quadratic in them;
    ``by_span``: no minimum spans)."""
    limit = SPLIT_TABLE_LIMIT if by_span else SPLIT_TABLE_LIMIT_MIN_SPANS
    if _table_cells(lookups) > limit:
        key_splits, response_splits = lookups.splits()
        raise CountingError(
            document,
            f"aligning its {len(key_splits)} key and {len(response_splits)} response split antecedents "
            f"would score {_table_cells(lookups):,} pairs per measure, past the limit of {limit:,} "
            f"({'' if by_span else 'with minimum spans, '}the UA scorer's alignment scores every pair)",
        )


def document_counts(pair: Pair, metrics: Sequence[str] = IDENTITY_METRICS) -> dict[str, np.ndarray]:
    """A document's additive counts: per identity metric (recall_num, recall_den, precision_num,
    precision_den) and ``NAME-split`` for its split-antecedent alignment; ``non-referring``;
    ``bridging`` (tp, fn, fp for recognition, markable level, entity level)."""
    out: dict[str, np.ndarray] = {}
    key, response = pair.key.clusters, pair.response.clusters
    if metrics:
        lookups = Lookups(key, response)
        splits = any(lookups.splits())
        plain = {} if splits else _plain_counts(lookups)
        by_span = splits and not any(type(m) is Mention and m.min_span for c in key for m in c)
        if splits:
            check_split_table(pair.name, lookups, by_span)
        joint = by_span and _table_cells(lookups) <= _JOINT_CELLS
        tables = split_tables(lookups) if joint else None
        for name in metrics:
            if name in plain:
                pn, pd, rn, rd = plain[name]
                out[name], out[f"{name}-split"] = np.array([rn, rd, pn, pd]), np.zeros(4)
            else:
                table = tables[name] if tables is not None else None
                out[name], out[f"{name}-split"] = identity_counts(name, key, response, lookups, table, by_span)
    out["non-referring"] = non_referring_counts(pair.key, pair.response)
    out["bridging"] = bridging_counts(pair.key, pair.response)
    return out


#: The forms of bridging, in the UA scorer's order: anaphor recognition, markable level, entity level.
BRIDGING_FORMS = ("bridging-ar", "bridging-fbm", "bridging-fbe")


def bridging_prf_counts(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Bridging ``(tp, fn, fp)`` triples as (recall_num, recall_den, precision_num, precision_den)."""
    out = {}
    for form, (tp, fn, fp) in zip(BRIDGING_FORMS, counts.reshape(3, 3)):
        out[form] = np.array([tp, tp + fn, tp, tp + fp])
    return out


@dataclass(frozen=True)
class UAScores:
    """Corpus scores as the UA scorer prints them: recall, precision, F1 per measure."""

    scores: dict[str, tuple[float, float, float]]
    counts: dict[str, np.ndarray]

    @property
    def conll(self) -> float:
        """The mean F1 of MUC, B-cubed and CEAFe."""
        return sum(self.scores[m][2] for m in ("muc", "bcub", "ceafe")) / 3


def evaluate(
    keys: Iterable[UADocument],
    responses: Iterable[UADocument],
    options: Options = Options(),
    only_split_antecedents: bool = False,
) -> UAScores:
    """Score a corpus: the counts of its documents summed, then ratios (the UA scorer's numbers)."""
    total: dict[str, np.ndarray] = {}
    for pair in pairs(keys, responses, options):
        for name, c in document_counts(pair).items():
            total[name] = total[name] + c if name in total else c
    return corpus_scores(total, only_split_antecedents)


def corpus_scores(total: dict[str, np.ndarray], only_split_antecedents: bool = False) -> UAScores:
    """The corpus scores of summed document counts (:func:`document_counts`' names; none: an
    empty corpus)."""
    if not total:
        total = {name: np.zeros(4) for name in IDENTITY_METRICS}
        total.update({f"{n}-split": np.zeros(4) for n in IDENTITY_METRICS})
        total["non-referring"], total["bridging"] = np.zeros(4), np.zeros(9)
    total = dict(total)
    total.update(bridging_prf_counts(total.pop("bridging")))
    scores: dict[str, tuple[float, float, float]] = {}
    for name in ("lea", "muc", "bcub", "ceafe", "ceafm"):
        scores[name] = prf(*total[f"{name}-split" if only_split_antecedents else name])
    if only_split_antecedents:
        parts = [prf(*total[f"{n}-split"]) for n in ("blancc", "blancn") if total[n][1] or total[n][3]]
        scores["blanc"] = tuple(sum(v) / len(parts) for v in zip(*parts)) if parts else (0.0, 0.0, 0.0)  # type: ignore[assignment]
    else:
        scores["blanc"] = blanc(total["blancc"], total["blancn"])
    for name in ("non-referring", *BRIDGING_FORMS):
        scores[name] = prf(*total[name])
    return UAScores(scores, total)
