"""The alignment of split antecedents: the key's and the response's paired one to one by a metric's
F1 on their members (with the UA scorer's choice among equal F1), and the tables of the counts of
every pair it is chosen from."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...core.assignment import best_pairs
from ...core.diagnostics import CountingError
from ...core.items import Clusters, Item, Split
from ...matching.item_lookups import Aligned, Lookups, assignments, split_items
from ..blanc import Outside
from .identity import IDENTITY_METRICS, alone_member_counts, f1, metric_counts, split_member_counts


def best_assignment(f: list[list[float]] | np.ndarray, placeholder: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns (in row order) of the alignment of split antecedents by their F1 table
    ``f``: :func:`corefeval.core.assignment.best_pairs` (the pairs scipy's solver gives), or, when one
    side is the placeholder of a side without split antecedents (every numerator is 0 there, so
    the pair chosen changes no number), its first cell."""
    if placeholder:
        return np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    return best_pairs(f)


_SCORED = 6  # split-antecedent tables up to this many cells are scored in plain Python, pair by pair


#: Counts of a key and a response clustering, by measure: ``(precision_num, precision_den,
#: recall_num, recall_den)`` each.
Counting = Callable[[Clusters, Clusters], dict[str, tuple[float, float, float, float]]]

#: A :data:`Counting` also given each side's :func:`~corefeval.matching.item_lookups.assignments`.
MappedCounting = Callable[
    [Clusters, Clusters, dict[Item, int], dict[Item, int]], dict[str, tuple[float, float, float, float]]
]


def _sharing_tables(
    key_sets: list[Clusters],
    response_sets: list[Clusters],
    count: MappedCounting,
    names: Sequence[str],
    alone: Counting,
) -> dict[str, np.ndarray]:
    """``count`` of every key and response split antecedent, per measure of ``names`` an array
    ``keys x responses x 4``, for entities without minimum spans. A pair without a common mention
    has numerators 0 and each side's denominators (which depend on that side only), so only the
    pairs sharing a span are counted one by one (``alone``: ``count`` of one side against nothing;
    each side's assignments made once, for all its pairs)."""
    by_span: dict[tuple[int, int], set[int]] = defaultdict(set)
    for j, clusters in enumerate(response_sets):
        for c in clusters:
            for m in c:
                by_span[m.start, m.end].add(j)
    tables = {name: np.zeros((len(key_sets), len(response_sets), 4)) for name in names}
    alone_response = [alone([], r) for r in response_sets]
    alone_key = [alone(k, []) for k in key_sets]
    for name, table in tables.items():
        table[:, :, 1] = [counts[name][1] for counts in alone_response]
        table[:, :, 3] = np.array([counts[name][3] for counts in alone_key])[:, None]
    response_maps: dict[int, dict[Item, int]] = {}
    for i, k in enumerate(key_sets):
        key_map = assignments(k)
        for j in sorted({j for c in k for m in c for j in by_span.get((m.start, m.end), ())}):
            if j not in response_maps:
                response_maps[j] = assignments(response_sets[j])
            counts = count(k, response_sets[j], key_map, response_maps[j])
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

    def count(k: Clusters, r: Clusters, *_: Any) -> dict[str, tuple[float, float, float, float]]:
        return {name: metric_counts(name, k, r, split_alignment=True)}

    return _sharing_tables(key_sets, response_sets, count, (name,), count)[name]


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
    metrics by :func:`plain_identity_counts`, which gives the counts of :func:`metric_counts` to the last
    bit."""
    key_splits, response_splits = lookups.splits()
    if not key_splits and not response_splits:
        return None
    key_sets, response_sets = _split_sets(key_splits), _split_sets(response_splits)
    if len(key_sets) * len(response_sets) <= _SCORED:  # small: every pair
        every = [[split_member_counts(k, r) for r in response_sets] for k in key_sets]
        return {name: [[c[name] for c in row] for row in every] for name in IDENTITY_METRICS}
    return _sharing_tables(key_sets, response_sets, split_member_counts, IDENTITY_METRICS, alone_member_counts)


def align_splits(
    name: str, key: Clusters, response: Clusters, table: Table | None = None, lookups: Lookups | None = None
) -> tuple[tuple[float, float, float, float], Aligned, Aligned, Aligned]:
    """The one-to-one alignment of split antecedents by ``name``'s F1 on their members: the
    split-antecedent counts, and the aligned pairs with their recall, precision and F1
    (``table``: the counts of every pair of split antecedents, when :func:`split_tables` made them;
    ``lookups``: the document's, which know its split antecedents)."""
    key_splits, response_splits = lookups.splits() if lookups is not None else (split_items(key), split_items(response))
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
        f = [[f1(*c) for c in row] for row in table]
        rows, cols = (x.tolist() for x in best_assignment(f, placeholder))
        counts = (
            float(sum(table[i][j][0] for i, j in zip(rows, cols))),
            float(sum(c[1] for c in table[0])),
            float(sum(table[i][j][2] for i, j in zip(rows, cols))),
            float(sum(row[0][3] for row in table)),
        )
    else:
        precision, recall = _ratio(table[:, :, 0], table[:, :, 1]), _ratio(table[:, :, 2], table[:, :, 3])
        both = precision + recall  # F1 as f1 computes it, cell by cell
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
    outside: Outside | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """One document's counts of an identity metric and of its split-antecedent alignment, each
    ``(recall_num, recall_den, precision_num, precision_den)`` (``lookups``: shared by the
    metrics of the document; ``table``: the split antecedents' counts, see :func:`align_splits`;
    ``one_pass``, ``outside``: see :func:`metric_counts`, for entities without minimum spans)."""
    split, r_al, p_al, f_al = align_splits(name, key, response, table, lookups)
    pn, pd, rn, rd = metric_counts(
        name, key, response, r_al, p_al, f_al, lookups=lookups, one_pass=one_pass, outside=outside
    )
    return np.array([rn, rd, pn, pd]), np.array([split[2], split[3], split[0], split[1]])


#: The split-antecedent tables of all seven measures are made at once up to this many pairs of
#: split antecedents (else one measure's table at a time, to hold one in memory).
JOINT_CELLS = 250_000


#: The most pairs of key and response split antecedents one document's alignment may score: each
#: measure's table holds them all (as the UA scorer's), and without minimum spans an array of 4
#: floats per pair; with minimum spans every pair is scored one by one.
SPLIT_TABLE_LIMIT = 4_000_000


SPLIT_TABLE_LIMIT_MIN_SPANS = 40_000


def table_cells(lookups: Lookups) -> int:
    key_splits, response_splits = lookups.splits()
    return max(len(key_splits), 1) * max(len(response_splits), 1)


def check_split_table(document: str, lookups: Lookups, by_span: bool) -> None:
    """A :class:`~corefeval.core.diagnostics.CountingError` for a document whose split-antecedent
    alignment would score more pairs than the limit (time and memory quadratic in them;
    ``by_span``: no minimum spans)."""
    limit = SPLIT_TABLE_LIMIT if by_span else SPLIT_TABLE_LIMIT_MIN_SPANS
    if table_cells(lookups) > limit:
        key_splits, response_splits = lookups.splits()
        raise CountingError(
            document,
            f"aligning its {len(key_splits)} key and {len(response_splits)} response split antecedents "
            f"would score {table_cells(lookups):,} pairs per measure, past the limit of {limit:,} "
            f"({'' if by_span else 'with minimum spans, '}the UA scorer's alignment scores every pair)",
        )
