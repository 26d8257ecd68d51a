"""MOR, the mention overlap ratio of the CRAC 2022 shared task: how many words of the key mentions
the response mentions cover, with no mention used twice.

Key and response mentions are paired one-to-one so that the total number of shared words is as
large as possible; recall is that total over the words of all key mentions, precision over the
words of all response mentions. A word is a node: empty nodes (zeros) count as words. The pairing
ignores the matching mode: a mention is paired with whatever it overlaps most usefully.

As in the CorefUD scorer, a mention repeated inside one entity counts once, a mention repeated in
two entities counts twice. Mentions that share no word never compete, so the assignment splits
into groups of overlapping mentions; a group of one key and one response mention needs no solver.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

import numpy as np

from ..core.assignment import linear_sum_assignment
from ..core.diagnostics import CountingError
from ..core.empty_nodes import is_empty
from ..core.model import Document
from ..matching.cells import Cells
from .base import Metric

IntArray = np.ndarray


def distinct_rows(doc: Document) -> IntArray:
    """The rows of ``doc`` that are not a repeat of a mention earlier in the same entity (with the
    same head: under head matching a copy with another head is a mention of its own)."""
    heads = doc.heads if doc.heads is not None else np.zeros(doc.entities.size, dtype=np.int64)
    if not doc.parts:  # sorted by entity, span, head and row, a mention's first copy starts each run
        order = np.lexsort((np.arange(doc.entities.size), heads, doc.ends, doc.starts, doc.entities))
        columns = (doc.entities[order], doc.starts[order], doc.ends[order], heads[order])
        first = np.ones(order.size, dtype=bool)
        first[1:] = np.logical_or.reduce([c[1:] != c[:-1] for c in columns]) if order.size else first[1:]
        return np.sort(order[first])
    seen: set[tuple[int, object, int]] = set()
    keys = doc.mention_keys()
    out = []
    for row, (entity, m, head) in enumerate(zip(doc.entities.tolist(), keys, heads.tolist())):
        if (entity, m, head) not in seen:
            seen.add((entity, m, head))
            out.append(row)
    return np.asarray(out, dtype=np.int64)


def nodes(doc: Document, row: int) -> frozenset[int]:
    """The positions of a mention's words, empty nodes included."""
    p = doc.parts.get(row)
    if p is not None:
        return frozenset(p)
    return frozenset(range(int(doc.starts[row]), int(doc.ends[row]) + 1))


def sizes(doc: Document, rows: IntArray) -> IntArray:
    """How many words each of ``rows`` has."""
    out = doc.ends[rows] - doc.starts[rows] + 1
    for i, row in enumerate(rows.tolist()):
        if row in doc.parts:
            out[i] = len(set(doc.parts[row]))
    return out


def literal_counts(key: Document, response: Document) -> tuple[float, float, float, float]:
    """MOR counts by the definition: one optimal assignment over every key x response pair."""
    krows, rrows = distinct_rows(key), distinct_rows(response)
    kwords = [nodes(key, r) for r in krows.tolist()]
    rwords = [nodes(response, r) for r in rrows.tolist()]
    overlap = 0.0
    if kwords and rwords:
        table = np.array([[len(k & r) for r in rwords] for k in kwords], dtype=float)
        i, j = linear_sum_assignment(table, maximize=True)
        overlap = float(table[i, j].sum())
    key_words = float(sum(len(k) for k in kwords))
    response_words = float(sum(len(r) for r in rwords))
    return overlap, key_words, overlap, response_words


def _hulls(doc: Document, rows: IntArray) -> tuple[IntArray, IntArray]:
    """An interval per mention that overlaps another's whenever they share a word that is not an
    empty node: the span of its words; a mention of empty nodes only gets its first empty node."""
    lo, hi = doc.starts[rows].copy(), doc.ends[rows].copy()
    for i, row in enumerate(rows.tolist()):
        p = doc.parts.get(row)
        if p is None:
            continue
        words = [x for x in p if not is_empty(x)]
        lo[i], hi[i] = (min(words), max(words)) if words else (min(p), min(p))
    return lo, hi


def counts(key: Document, response: Document) -> tuple[float, float, float, float]:
    """MOR counts ``(recall_num, recall_den, precision_num, precision_den)`` of one document, in
    time linear in its mentions (plus the assignments of groups with several mentions per side)."""
    krows, rrows = distinct_rows(key), distinct_rows(response)
    ksize, rsize = sizes(key, krows), sizes(response, rrows)
    krows, rrows, shared = _pair_equal_mentions(key, krows, response, rrows)
    nk = krows.size
    if not nk or not rrows.size:
        return shared, float(ksize.sum()), shared, float(rsize.sum())
    klo, khi = _hulls(key, krows)
    rlo, rhi = _hulls(response, rrows)
    lo, hi = np.concatenate([klo, rlo]), np.concatenate([khi, rhi])
    order = np.lexsort((hi, lo))
    reach = np.maximum.accumulate(hi[order])
    starts_group = np.ones(order.size, dtype=bool)
    starts_group[1:] = lo[order][1:] > reach[:-1]
    group = np.empty(order.size, dtype=np.int64)
    group[order] = np.cumsum(starts_group) - 1
    if key.parts or response.parts:
        group = _join_by_empty_nodes(group, key, krows, response, rrows)
    overlap = shared + _overlap(group, key, krows, response, rrows)
    return overlap, float(ksize.sum()), overlap, float(rsize.sum())


def _pair_equal_mentions(
    key: Document, krows: IntArray, response: Document, rrows: IntArray
) -> tuple[IntArray, IntArray, float]:
    """The rows left after pairing key and response mentions of the same words (as
    :func:`_pair_equal_spans` does for spans), and the words those pairs share."""
    waiting: dict[frozenset[int], list[int]] = {}
    for row in krows.tolist():
        waiting.setdefault(nodes(key, row), []).append(row)
    paired_key: set[int] = set()
    left: list[int] = []
    shared = 0
    for row in rrows.tolist():
        words = nodes(response, row)
        copies = waiting.get(words)
        if copies:
            paired_key.add(copies.pop())
            shared += len(words)
        else:
            left.append(row)
    kept = np.asarray([r for r in krows.tolist() if r not in paired_key], dtype=np.int64)
    return kept, np.asarray(left, dtype=np.int64), float(shared)


def _join_by_empty_nodes(
    group: IntArray, key: Document, krows: IntArray, response: Document, rrows: IntArray
) -> IntArray:
    """Merge the groups of mentions that share an empty node (their hulls need not meet)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    first_group: dict[int, int] = {}
    a, b = [], []
    offset = 0
    for doc, rows in ((key, krows), (response, rrows)):
        for i, row in enumerate(rows.tolist()):
            for x in doc.parts.get(row, ()):
                if is_empty(x):
                    g = int(group[offset + i])
                    a.append(first_group.setdefault(x, g))
                    b.append(g)
        offset += rows.size
    if not a:
        return group
    n = int(group.max()) + 1
    graph = coo_matrix((np.ones(len(a)), (np.asarray(a), np.asarray(b))), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    return cast(IntArray, label[group])


def _overlap(group: IntArray, key: Document, krows: IntArray, response: Document, rrows: IntArray) -> float:
    """The largest total of shared words, summed over the groups."""
    nk = krows.size
    kgroup, rgroup = group[:nk], group[nk:]
    n = int(group.max()) + 1
    kcount, rcount = np.bincount(kgroup, minlength=n), np.bincount(rgroup, minlength=n)
    pair = (kcount == 1) & (rcount == 1)
    ki = np.flatnonzero(pair[kgroup])
    ri = np.flatnonzero(pair[rgroup])
    ki, ri = ki[np.argsort(kgroup[ki], kind="stable")], ri[np.argsort(rgroup[ri], kind="stable")]
    kr, rr = krows[ki], rrows[ri]
    plain = np.ones(kr.size, dtype=bool)
    if key.parts or response.parts:
        plain = np.array(
            [k not in key.parts and r not in response.parts for k, r in zip(kr.tolist(), rr.tolist())], dtype=bool
        )
    low = np.maximum(key.starts[kr[plain]], response.starts[rr[plain]])
    high = np.minimum(key.ends[kr[plain]], response.ends[rr[plain]])
    total = float(np.maximum(high - low + 1, 0).sum())
    for k, r in zip(kr[~plain].tolist(), rr[~plain].tolist()):
        total += len(nodes(key, k) & nodes(response, r))
    crowded = np.flatnonzero((kcount >= 1) & (rcount >= 1) & ~pair)
    if crowded.size:
        check_group_sizes(kcount[crowded], rcount[crowded], [key.name] * crowded.size)
        kmembers = _members(kgroup, crowded)
        rmembers = _members(rgroup, crowded)
        for g in crowded.tolist():
            kwords = [nodes(key, int(krows[i])) for i in kmembers[g]]
            rwords = [nodes(response, int(rrows[i])) for i in rmembers[g]]
            table = np.array([[len(k & r) for r in rwords] for k in kwords], dtype=float)
            i, j = linear_sum_assignment(table, maximize=True)
            total += float(table[i, j].sum())
    return total


def _members(groups: IntArray, wanted: IntArray) -> dict[int, list[int]]:
    """The indices of ``groups`` in each of the ``wanted`` groups."""
    keep = np.flatnonzero(np.isin(groups, wanted))
    out: dict[int, list[int]] = {}
    for i, g in zip(keep.tolist(), groups[keep].tolist()):
        out.setdefault(g, []).append(i)
    return out


def _spans(docs: list[Document]) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    """Document, start, end, entity and head (0 without heads) of every mention of ``docs`` (no
    parts), concatenated."""
    lengths = np.fromiter((d.n_mentions for d in docs), dtype=np.int64, count=len(docs))
    doc = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)
    if not doc.size:
        return doc, doc, doc, doc, doc
    starts, ends, entities = (np.concatenate([getattr(d, f) for d in docs]) for f in ("starts", "ends", "entities"))
    heads = np.concatenate([d.heads if d.heads is not None else np.zeros(d.n_mentions, np.int64) for d in docs])
    return doc, starts, ends, entities, heads


def _offsets(doc: IntArray, values: IntArray) -> IntArray:
    """Per row, an offset that sets each document's ``values`` apart from the previous documents'."""
    top = np.zeros(int(doc.max()) + 1, dtype=np.int64)
    np.maximum.at(top, doc, values)
    return (np.cumsum(top + 2) - (top + 2))[doc]


def _sorted_by(*keys: IntArray) -> IntArray:
    """The order of rows sorted by ``keys`` (non-negative integers; the first key most significant):
    one argsort of a combined code when it fits in 62 bits, else a lexsort."""
    code = np.zeros_like(keys[0])
    bits = 0
    for key in keys:
        width = int(key.max()).bit_length() if key.size else 0
        bits += width
        code = (code << width) | key
    if bits > 62:
        return np.lexsort(keys[::-1])
    return np.argsort(code, kind="stable")


def plain_counts(keys: list[Document], responses: list[Document]) -> np.ndarray:
    """MOR counts (one row per document) of documents whose mentions are all contiguous spans of
    words, every document at once: the spans of all documents, set apart, are swept once for
    groups of overlapping mentions; a group with one mention on a side is its best overlap, and
    only groups with several mentions on both sides are solved one by one."""
    n = len(keys)
    out = np.zeros((n, 4))
    sides = (_spans(keys), _spans(responses))
    docs, lo, hi, entity, heads = (np.concatenate([k, r]) for k, r in zip(*sides))
    if not docs.size:
        return out
    side = np.repeat(np.array([0, 1]), [sides[0][0].size, sides[1][0].size])
    offset = _offsets(docs, hi)
    lo, hi = lo + offset, hi + offset
    # one sort serves the sweep (by start) and finds the repeats within an entity (then adjacent)
    order = _sorted_by(lo, hi - lo, side, entity + _offsets(docs, entity))
    docs, lo, hi, side, entity, heads = (a[order] for a in (docs, lo, hi, side, entity, heads))
    new = np.ones(docs.size, dtype=bool)
    # a copy with another head (head matching's copies, next to the mention they copy) counts too
    new[1:] = (np.diff(lo) != 0) | (np.diff(hi) != 0) | (np.diff(side) != 0) | (np.diff(entity) != 0)
    new[1:] |= np.diff(heads) != 0
    docs, lo, hi, side = docs[new], lo[new], hi[new], side[new]
    on_key = side == 0
    out[:, 1] = np.bincount(docs[on_key], weights=(hi - lo + 1)[on_key], minlength=n)
    out[:, 3] = np.bincount(docs[~on_key], weights=(hi - lo + 1)[~on_key], minlength=n)
    docs, lo, hi, side, shared = _pair_equal_spans(docs, lo, hi, side, n)
    out[:, 0] = out[:, 2] = shared
    nk = int((side == 0).sum())
    if not nk or nk == docs.size:
        return out
    first = np.ones(docs.size, dtype=bool)
    first[1:] = lo[1:] > np.maximum.accumulate(hi)[:-1]
    group = np.cumsum(first) - 1
    n_groups = int(group[-1]) + 1
    group_doc = docs[first]
    keyed = np.concatenate([np.flatnonzero(side == 0), np.flatnonzero(side == 1)])  # key mentions first
    docs, lo, hi, group = docs[keyed], lo[keyed], hi[keyed], group[keyed]
    kgroup, rgroup = group[:nk], group[nk:]
    kcount = np.bincount(kgroup, minlength=n_groups)
    rcount = np.bincount(rgroup, minlength=n_groups)
    best = np.zeros(n_groups, dtype=np.int64)
    for single, many, count in ((kgroup, rgroup, kcount), (rgroup, kgroup, rcount)):
        one = np.flatnonzero(count[single] == 1)  # the lone mention of its side in its group
        lone = np.full(n_groups, -1, dtype=np.int64)
        lone[single[one]] = one + (0 if single is kgroup else nk)
        partner = lone[many]
        members = np.flatnonzero(partner >= 0) + (0 if many is kgroup else nk)
        partner = partner[partner >= 0]
        common = np.minimum(hi[members], hi[partner]) - np.maximum(lo[members], lo[partner]) + 1
        np.maximum.at(best, group[members], np.maximum(common, 0))
    crowded = np.flatnonzero((kcount > 1) & (rcount > 1))
    if crowded.size:
        names = [keys[d].name for d in group_doc[crowded].tolist()]
        _solve_crowded(best, crowded, group, kcount, rcount, lo, hi, nk, names)
    out[:, 0] += np.bincount(group_doc, weights=best, minlength=n)
    out[:, 2] = out[:, 0]
    return out


def _solve_crowded(
    best: IntArray,
    crowded: IntArray,
    group: IntArray,
    kcount: IntArray,
    rcount: IntArray,
    lo: IntArray,
    hi: IntArray,
    nk: int,
    names: list[str],
) -> None:
    """The best overlaps (into ``best``) of the groups with several mentions on both sides: the
    shapes with a closed form first, any other group by its own assignment."""
    check_group_sizes(kcount[crowded], rcount[crowded], names)
    by_group = np.argsort(group, kind="stable")  # a group's key mentions, then its response mentions
    bounds = np.searchsorted(group[by_group], np.stack([crowded, crowded + 1]))
    solved = np.zeros(crowded.size, dtype=bool)
    value = np.zeros(crowded.size, dtype=np.int64)
    for part in _batches(kcount[crowded] * rcount[crowded]):
        solved[part], value[part] = _distinct_favourites(
            by_group, bounds[0][part], kcount[crowded][part], rcount[crowded][part], lo, hi
        )
    best[crowded[solved]] = value[solved]
    crowded, bounds = crowded[~solved], bounds[:, ~solved]
    two = (kcount[crowded] == 2) | (rcount[crowded] == 2)
    if two.any():
        best[crowded[two]] = _two_against_many(by_group, bounds[0][two], bounds[1][two], kcount[crowded[two]], lo, hi)
    crowded, bounds = crowded[~two], bounds[:, ~two]
    three = (kcount[crowded] == 3) & (rcount[crowded] == 3)
    if three.any():
        best[crowded[three]] = _three_by_three(by_group, bounds[0][three], lo, hi)
    crowded, bounds = crowded[~three], bounds[:, ~three]
    for g, a, b in zip(crowded.tolist(), bounds[0].tolist(), bounds[1].tolist()):
        members = by_group[a:b]
        k, r = members[members < nk], members[members >= nk]
        table = np.minimum.outer(hi[k], hi[r]) - np.maximum.outer(lo[k], lo[r]) + 1
        table = np.maximum(table, 0)
        i, j = linear_sum_assignment(table, maximize=True)
        best[g] = int(table[i, j].sum())


def _pair_equal_spans(
    docs: IntArray, lo: IntArray, hi: IntArray, side: IntArray, n: int
) -> tuple[IntArray, IntArray, IntArray, IntArray, np.ndarray]:
    """Pair key and response mentions of the same span while both sides have a copy left (rows
    sorted by span, then side), and return the rows left and each document's words so shared.

    Some optimal assignment pairs them: if ``K = R = W`` were paired with ``R'`` and ``K'``
    instead, swapping gains ``|W| + |K' & R'| - |W & R'| - |K' & W| >= 0``. So only the copies
    left over (a span on one side only, or more copies on one side) need the solver."""
    start = np.ones(lo.size, dtype=bool)
    start[1:] = (np.diff(lo) != 0) | (np.diff(hi) != 0)
    run = np.cumsum(start) - 1
    begin = np.flatnonzero(start)
    on_key = np.bincount(run, weights=side == 0).astype(np.int64)
    on_response = np.bincount(run) - on_key
    paired = np.minimum(on_key, on_response)
    place = np.arange(lo.size) - begin[run]  # key copies come first in a run
    rank = np.where(side == 0, place, place - on_key[run])
    keep = rank >= paired[run]
    shared = np.bincount(docs[begin], weights=paired * (hi[begin] - lo[begin] + 1), minlength=n)
    return docs[keep], lo[keep], hi[keep], side[keep], shared


#: The largest group of overlapping mentions (key x response mentions left after pairing equal
#: ones) that MOR solves: a dense table of this many cells takes about a second and 128 MB.
MAX_GROUP_CELLS = 16_000_000


def check_group_sizes(n_key: IntArray, n_response: IntArray, names: list[str]) -> None:
    """Refuse a document with a group of overlapping mentions too large to solve exactly."""
    cells = n_key.astype(np.int64) * n_response
    worst = int(np.argmax(cells))
    if int(cells[worst]) > MAX_GROUP_CELLS:
        raise CountingError(
            names[worst],
            f"MOR would solve an assignment of {int(n_key[worst])} key x {int(n_response[worst])} response "
            f"mentions that overlap one another (more than {MAX_GROUP_CELLS:,} pairs); "
            "leave out 'mor' or split the document",
        )


def _batches(sizes: IntArray, limit: int = 1 << 22) -> list[slice]:
    """Consecutive slices of ``sizes`` each summing to about ``limit`` at most (a larger item alone),
    so that the tables of many groups are built a few million cells at a time."""
    before = np.cumsum(sizes) - sizes
    cuts = np.flatnonzero(np.diff(before // limit)) + 1
    edges = [0, *cuts.tolist(), int(sizes.size)]
    return [slice(a, b) for a, b in zip(edges[:-1], edges[1:])]


def _overlap_of(a: IntArray, b: IntArray, lo: IntArray, hi: IntArray) -> IntArray:
    return np.maximum(np.minimum(hi[a], hi[b]) - np.maximum(lo[a], lo[b]) + 1, 0)


def _distinct_favourites(
    by_group: IntArray, begin: IntArray, n_key: IntArray, n_response: IntArray, lo: IntArray, hi: IntArray
) -> tuple[np.ndarray, IntArray]:
    """Groups whose key mentions (or whose response mentions) each have a different best partner:
    their best total is the sum of those best overlaps, an upper bound that these pairs reach."""
    size = n_key * n_response
    seg = np.cumsum(size) - size
    group = np.repeat(np.arange(size.size), size)
    local = np.arange(int(size.sum())) - seg[group]
    i, j = local // n_response[group], local % n_response[group]
    common = _overlap_of(by_group[begin[group] + i], by_group[begin[group] + n_key[group] + j], lo, hi)
    found = np.zeros(size.size, dtype=bool)
    value = np.zeros(size.size, dtype=np.int64)
    for line, n_lines in ((i, n_key), (j, n_response)):
        index = (np.cumsum(n_lines) - n_lines)[group] + line
        top = np.zeros(int(n_lines.sum()), dtype=np.int64)
        np.maximum.at(top, index, common)
        favourite = np.full(top.size, np.iinfo(np.int64).max)
        np.minimum.at(favourite, index, np.where(common == top[index], j if line is i else i, favourite.max()))
        owner = np.repeat(np.arange(size.size), n_lines)
        pairs = np.unique(owner * (int(size.max()) + 1) + favourite)
        distinct = np.bincount(pairs // (int(size.max()) + 1), minlength=size.size) == n_lines
        value = np.where(distinct & ~found, np.bincount(owner, weights=top, minlength=size.size), value)
        found |= distinct
    return found, value.astype(np.int64)


def _three_by_three(by_group: IntArray, begin: IntArray, lo: IntArray, hi: IntArray) -> IntArray:
    """The best total of groups of three key and three response mentions: the best of the six
    one-to-one pairings."""
    rows = by_group[begin[:, None, None] + np.arange(3)[None, :, None]]
    cols = by_group[begin[:, None, None] + 3 + np.arange(3)[None, None, :]]
    table = _overlap_of(np.broadcast_to(rows, (begin.size, 3, 3)), np.broadcast_to(cols, (begin.size, 3, 3)), lo, hi)
    perms = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    totals = table[:, [0, 1, 2], perms].sum(axis=2)
    return totals.max(axis=1)


def _two_against_many(
    by_group: IntArray, begin: IntArray, end: IntArray, n_key: IntArray, lo: IntArray, hi: IntArray
) -> IntArray:
    """The best total of groups with two mentions ``A, B`` on one side and ``m >= 2`` on the other:
    ``A`` and ``B`` take their best partners if these differ, else one of them its second best."""
    key_pair = n_key == 2
    first = np.where(key_pair, begin, begin + n_key)  # A; B follows it
    others_begin = np.where(key_pair, begin + 2, begin)
    m = np.where(key_pair, end - begin - 2, n_key)
    seg = np.cumsum(m) - m
    local = np.arange(int(m.sum())) - np.repeat(seg, m)
    others = by_group[np.repeat(others_begin, m) + local]
    a = _overlap_of(np.repeat(by_group[first], m), others, lo, hi)
    b = _overlap_of(np.repeat(by_group[first + 1], m), others, lo, hi)
    out = []
    for values in (a, b):
        top = np.maximum.reduceat(values, seg)
        at = np.minimum.reduceat(np.where(values == np.repeat(top, m), local, m.max()), seg)
        second = np.maximum.reduceat(np.where(local == np.repeat(at, m), -1, values), seg)
        out.append((top, at, second))
    (top_a, at_a, second_a), (top_b, at_b, second_b) = out
    return np.where(at_a != at_b, top_a + top_b, np.maximum(top_a + second_b, second_a + top_b))


class MOR(Metric):
    """MOR per document, from each document's mentions (``--match`` does not change it)."""

    name = "mor"
    title = "MOR"
    reads_mentions = True

    def columns(self, cells: Cells) -> list[np.ndarray]:
        pairs = [cells.documents(d) for d in range(cells.n_docs)]
        plain = [d for d, (k, r) in enumerate(pairs) if not k.parts and not r.parts]
        out = np.zeros((cells.n_docs, 4))
        if plain:
            out[plain] = plain_counts([pairs[d][0] for d in plain], [pairs[d][1] for d in plain])
        for d in sorted(set(range(cells.n_docs)) - set(plain)):
            out[d] = counts(*pairs[d])
        return list(out.T)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """MOR of chains of mention ids, each mention one word: the distinct ids of each side, and
        of both (no assignment is needed when no two mentions share part of a word)."""
        key_ids = [i for chain in key for i in dict.fromkeys(chain)]
        response_ids = [i for chain in response for i in dict.fromkeys(chain)]
        shared = float(equal_pairs(key_ids, response_ids))
        return shared, float(len(key_ids)), shared, float(len(response_ids))


def equal_pairs(a: list[int], b: list[int]) -> int:
    """How many pairs of equal values a one-to-one pairing of ``a`` and ``b`` can make."""
    ca, cb = Counter(a), Counter(b)
    return sum(min(n, cb[v]) for v, n in ca.items())
