"""The UA scorer's split-antecedent-aware identity metrics of one document (MUC, B-cubed, CEAFe,
CEAFm, LEA, BLANC), each as numerators and denominators given the alignment of split antecedents:
the literal item-by-item definitions, and the one-pass counts of entities without a split
antecedent (:mod:`.plain_counts`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from ..core.assignment import solve_dense
from . import plain_counts
from .ua_sides import Clusters, Item, Mention, Split

#: The identity metrics, by the UA scorer's names, in its reporting order.
IDENTITY_METRICS = ("lea", "muc", "bcub", "ceafe", "ceafm", "blancc", "blancn")


def assignments(clusters: Clusters) -> dict[Item, int]:
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
        self.to_key, self.to_response = assignments(key), assignments(response)
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
                    plain_counts.Found.of(self.key, self.to_response),
                    frozenset(self.to_key[s] for s in key_splits),
                ),
                OnePass(
                    plain_counts.Found.of(self.response, self.to_key),
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
    optimum (:func:`corefeval.core.assignment.solve_dense`, in plain Python up to ``_NATIVE_CELLS``
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
    """:func:`plain_identity_counts` from the two sides' :class:`~.plain_counts.Found` and the CEAF counts."""
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


def split_member_counts(key: Clusters, response: Clusters) -> dict[str, tuple[float, float, float, float]]:
    """:func:`plain_identity_counts` of two split antecedents' members as the alignment counts them; when
    one side is empty (a side alone, or the placeholder of a side without split antecedents)
    straight from the other side's entity sizes, every numerator being 0."""
    if key and response:
        return plain_identity_counts(Lookups(key, response), split_alignment=True)
    k = plain_counts.Found([len(c) for c in key], [{} for _ in key])
    r = plain_counts.Found([len(c) for c in response], [{} for _ in response])
    ceafe = (0.0, len(response), 0.0, len(key))
    ceafm = (0.0, sum(len(c) for c in response), 0.0, sum(len(c) for c in key))
    return _found_counts(k, r, ceafe, ceafm, split_alignment=True)
