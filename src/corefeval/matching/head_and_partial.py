"""Head and partial mention matching, as the CRAC shared tasks define them (exact is in ``alignment``).

* ``head``: a response mention matches a key mention when both have the same head word.
* ``partial``: a response mention matches a key mention when the key mention contains all its words
  and the key mention's head is one of them.
  On Universal Anaphora files, which have no heads, the key mention's minimum span (``Min``) must be
  among the response mention's words instead, as ufal/corefud-scorer's copy of the UA scorer has it
  (``-a partial-corefud``); a key mention without ``Min`` matches exactly only.
* ``craft`` (Universal Anaphora files): the CRAFT 2019 partial matching of ufal/corefud-scorer's copy
  of the UA scorer: a response mention matches a key mention when it lies within it (a zero matches
  by its position only), chosen greedily as that copy does (see :func:`craft_pairs`).

Matching is one-to-one and follows the CRAC scorer: mentions with the same words (and, for head
matching, the same head) are paired first; among the rest, an optimal assignment maximises the sum
of ``|key words & response words| / |key words|`` over the candidate pairs. Each matched response
mention then takes its key mention's identity and unmatched ones get identities of their own; the
usual alignment does the rest, so every metric accepts the result unchanged.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace

import numpy as np

from ..core.assignment import assignment_pairs, component_labels, linear_sum_assignment
from ..core.diagnostics import InputError, UsageError
from ..core.empty_nodes import EMPTY, NO_HEAD, empty_id, is_empty
from ..core.model import Document
from ..readers.corefud import node_order
from .alignment import Alignment, align, align_codes
from .hash_order import Member, MentionSets, NodeHashes, Words, mention_hash
from .mention_lookups import lookup_views

MODES = ("exact", "head", "partial", "craft")


def identities(doc: Document, by_head: bool = False) -> list[Hashable]:
    """A hashable identity per row: its words, and ``by_head`` also its head (the CorefUD scorer's
    mentions are equal when their words are, and under head matching their heads too)."""
    keys = doc.mention_keys()
    if not by_head or doc.heads is None:
        return keys
    return list(zip(keys, doc.heads.tolist(), strict=True))


def _first_rows(doc: Document, by_head: bool = False) -> list[int]:
    """The first row of each distinct mention (repeats of a mention are matched with it); a CorefUD
    document lists its rows in udapi's order, so this is the copy the CorefUD scorer keeps."""
    return _firsts(identities(doc, by_head))


def _firsts(ids: list[Hashable]) -> list[int]:
    """The first row of each distinct identity of ``ids`` (one per row)."""
    first: dict[Hashable, int] = {}
    for row, m in enumerate(ids):
        first.setdefault(m, row)
    return list(first.values())


def _words(doc: Document, row: int) -> Words:
    p = doc.parts.get(row)
    if p is None:
        return int(doc.starts[row]), int(doc.ends[row])
    ordered = sorted(set(p))
    if ordered[0] >= 0 and not is_empty(ordered[-1]) and ordered[-1] - ordered[0] + 1 == len(ordered):
        return ordered[0], ordered[-1]
    return frozenset(ordered)


def _all_words(doc: Document) -> list[Words]:
    """:func:`_words` of every row, in one pass over the spans."""
    out: list[Words] = list(zip(doc.starts.tolist(), doc.ends.tolist()))
    for row in doc.parts:
        out[row] = _words(doc, row)
    return out


def _size(words: Words) -> int:
    return words[1] - words[0] + 1 if isinstance(words, tuple) else len(words)


def _common(a: Words, b: Words) -> int:
    """How many words ``a`` and ``b`` share."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return max(0, min(a[1], b[1]) - max(a[0], b[0]) + 1)
    if isinstance(a, frozenset) and isinstance(b, frozenset):
        return len(a & b)
    if isinstance(a, tuple):
        a, b = b, a
    assert isinstance(a, frozenset) and isinstance(b, tuple)
    low, high = b
    return sum(1 for w in a if low <= w <= high)


def _within(small: Words, big: Words) -> bool:
    """Whether every word of ``small`` is one of ``big``."""
    return _common(small, big) == _size(small)


def candidates(
    key: Document,
    response: Document,
    mode: str,
    fixed: list[tuple[int, int]] | None = None,
    by_head: bool = False,
    firsts: tuple[list[int], list[int]] | None = None,
    all_words: tuple[list[Words], list[Words]] | None = None,
    ids: tuple[list[Hashable], list[Hashable]] | None = None,
) -> tuple[list[tuple[int, int]], list[tuple[int, int, float]]]:
    """Twins ``(key row, response row)``, then the other candidate pairs with their similarity,
    over the first rows of distinct mentions (``by_head``: see :func:`identities`; ``firsts``: them,
    when known) not already ``fixed``; ``all_words``: every row's words (:func:`_all_words`), and
    ``ids``: every row's identity under ``mode`` (:func:`_scorer_ids`), when known."""
    fixed_keys, fixed_responses = {k for k, _ in fixed or ()}, {r for _, r in fixed or ()}
    key_first, response_first = firsts or (_first_rows(key, by_head), _first_rows(response, by_head))
    kfirst = [r for r in key_first if r not in fixed_keys]
    rfirst = [r for r in response_first if r not in fixed_responses]
    key_words, response_words = all_words or (_all_words(key), _all_words(response))
    key_ids, response_ids = ids or (_scorer_ids(key, mode, key_words), _scorer_ids(response, mode, response_words))
    twin_of = {key_ids[r]: r for r in kfirst}
    twins = [(twin_of[m], r) for r in rfirst if (m := response_ids[r]) in twin_of]
    taken_keys, taken_responses = {k for k, _ in twins}, {r for _, r in twins}
    key_heads = key.heads.tolist() if key.heads is not None else []
    keys_by_head: dict[int, list[int]] = {}
    for r in kfirst if key_heads else ():
        if r not in taken_keys:
            keys_by_head.setdefault(key_heads[r], []).append(r)
    head_order = sorted(keys_by_head)
    response_heads = response.heads.tolist() if mode == "head" and response.heads is not None else []
    scored: list[tuple[int, int, float]] = []
    kwords = key_words
    for r in rfirst if mode != "exact" else ():
        if r in taken_responses:
            continue
        words = response_words[r]
        if mode == "head":
            pool = keys_by_head.get(response_heads[r], [])
        else:
            pool = [
                k
                for h in _heads_among(words, keys_by_head, head_order)
                for k in keys_by_head[h]
                if _within(words, kwords[k])
            ]
        scored += [(k, r, _common(kwords[k], words) / _size(kwords[k])) for k in pool]
    return twins, scored


def _heads_among(words: Words, by_head: dict[int, list[int]], head_order: list[int]) -> list[int]:
    """The heads of ``by_head`` (``head_order``: them sorted) that are among ``words``."""
    if isinstance(words, tuple):
        return head_order[bisect_left(head_order, words[0]) : bisect_right(head_order, words[1])]
    return [h for h in sorted(words) if h in by_head]


#: A sort key of mentions (rows): first node, last node, number of nodes.
Order = Callable[[int], tuple[tuple[int, int], tuple[int, int], int]]


def _by_row(row: int) -> tuple[tuple[int, int], tuple[int, int], int]:
    return (row, 0), (row, 0), 0


def mention_order(doc: Document) -> Order:
    """The CorefUD scorer's order of ``doc``'s mentions (rows): by first node, then last node (both in
    file order, empty nodes among the words), then number of nodes."""

    def key(row: int) -> tuple[tuple[int, int], tuple[int, int], int]:
        p = doc.parts.get(row)
        if p is None:
            start, end = int(doc.starts[row]), int(doc.ends[row])
            return (2 * start, 0), (2 * end, 0), end - start + 1
        nodes = sorted(set(p), key=lambda n: node_order(doc, n))
        return node_order(doc, nodes[0]), node_order(doc, nodes[-1]), len(nodes)

    return key


#: The most cells of the one assignment over a document's unaligned mentions (:func:`document_pairs`):
#: past this, each group of candidates is solved on its own, with a warning.
MAX_DOCUMENT_CELLS = 1 << 24


def document_pairs(
    pairs: list[tuple[int, int, float]],
    key_rows: list[int],
    response_rows: list[int],
    key_order: Order,
    response_order: Order,
    max_cells: int | None = None,
) -> tuple[list[tuple[int, int]], bool]:
    """One-to-one pairs of largest total similarity, chosen as the CorefUD scorer chooses them: one
    assignment by scipy's solver over every key mention of ``key_rows`` x every response mention of
    ``response_rows`` (a similarity of 0 outside the candidate ``pairs``), both in the scorer's
    order, so that ties go where its solver sends them, mentions without a candidate included.

    Candidates that compete with none are taken as they are (any optimum holds them). A document
    whose table would exceed ``max_cells`` is solved group by group (the same total, ties possibly
    broken otherwise); the flag returned says so. ``max_cells``: :data:`MAX_DOCUMENT_CELLS` by default."""
    if not pairs:
        return [], False
    key_degree: dict[int, int] = {}
    response_degree: dict[int, int] = {}
    for k, r, _ in pairs:
        key_degree[k] = key_degree.get(k, 0) + 1
        response_degree[r] = response_degree.get(r, 0) + 1
    if len(key_degree) == len(pairs) and len(response_degree) == len(pairs):
        return [(k, r) for k, r, _ in pairs], False
    if len(key_rows) * len(response_rows) > (MAX_DOCUMENT_CELLS if max_cells is None else max_cells):
        return assign(pairs, key_order, response_order), True
    keys = sorted(key_rows, key=key_order)
    responses = sorted(response_rows, key=response_order)
    ki = {k: i for i, k in enumerate(keys)}
    ri = {r: j for j, r in enumerate(responses)}
    similarity = np.zeros((len(keys), len(responses)))
    for k, r, weight in pairs:
        similarity[ki[k], ri[r]] = weight
    rows, cols = linear_sum_assignment(-similarity)
    return [(keys[i], responses[j]) for i, j in zip(rows.tolist(), cols.tolist()) if similarity[i, j] > 0], False


def assign(
    pairs: list[tuple[int, int, float]], key_order: Order | None = None, response_order: Order | None = None
) -> list[tuple[int, int]]:
    """One-to-one pairs of largest total similarity; solved per connected group, its key and
    response mentions in the given orders (row order by default), so that ties go as the CorefUD
    scorer's one assignment over mentions in its order sends them."""
    if not pairs:
        return []
    krows = sorted({k for k, _, _ in pairs})
    rrows = sorted({r for _, r, _ in pairs})
    ki = {k: i for i, k in enumerate(krows)}
    ri = {r: i for i, r in enumerate(rrows)}
    a = np.array([ki[k] for k, _, _ in pairs], dtype=np.int64)
    b = np.array([ri[r] for _, r, _ in pairs], dtype=np.int64)
    label = component_labels(a, b, len(krows))
    groups: dict[int, list[tuple[int, int, float]]] = {}
    for (k, r, sim), x in zip(pairs, label.tolist(), strict=True):
        groups.setdefault(x, []).append((k, r, sim))
    out: list[tuple[int, int]] = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0][:2])
            continue
        gk = sorted({k for k, _, _ in group}, key=key_order or _by_row)
        gr = sorted({r for _, r, _ in group}, key=response_order or _by_row)
        weight = np.zeros((len(gk), len(gr)))
        for k, r, sim in group:
            weight[gk.index(k), gr.index(r)] = sim
        out += [(gk[i], gr[j]) for i, j in assignment_pairs(weight)]
    return out


Deps = dict[int, frozenset[tuple[int, str]]]


def match_alignment(
    key: Document,
    response: Document,
    mode: str,
    key_path: str = "key",
    response_path: str = "response",
    zero_deps: tuple[Deps, Deps] | None = None,
    rule: str = "reference",
    sentences: tuple[Sentences, Sentences] | None = None,
) -> Alignment:
    """The alignment of ``key`` and ``response`` under ``mode`` matching; with ``zero_deps`` (the
    key's and the response's empty-node DEPS), zero mentions are first aligned by their dependencies.
    ``rule``: what becomes of a response span repeated in two entities (see :func:`align`).
    ``sentences``: each side's :data:`Sentences`, which put tied mentions in the CorefUD scorer's
    order (see :mod:`corefeval.matching.hash_order`; without them, in the order of the file)."""
    if mode not in MODES:
        raise UsageError(f"unknown match mode '{mode}' (choose from {', '.join(MODES)})")
    if mode == "exact" and zero_deps is None:
        return align(key, response, rule)
    option = f"--match {mode}" if mode != "exact" else "--zeros dependent"
    minimum = ua_min_spans(key, key_path) if mode == "partial" else None
    for doc, path, role in ((key, key_path, "key"), (response, response_path, "response")):
        if minimum is not None:
            break  # UA files: minimum spans instead of heads
        every_head = mode == "head" or (mode == "partial" and role == "key")
        if not (every_head or zero_deps is not None):
            continue
        if doc.heads is None:  # a file without heads, whether this document has mentions or not
            raise UsageError(f"{option} needs mention heads; {path} has none (only CorefUD files have heads)")
        if every_head and doc.n_mentions:
            _require_heads(doc, path, mode)
    # mentions are told apart by their heads too only where some span has two heads
    key_keys, response_keys = key.mention_keys(), response.mention_keys()
    by_head = mode == "head" and (_two_heads(key, key_keys) or _two_heads(response, response_keys))
    distinct_ids = (_with_heads(key, key_keys, by_head), _with_heads(response, response_keys, by_head))
    firsts = (_firsts(distinct_ids[0]), _firsts(distinct_ids[1]))  # asked for again and again below
    words = (_all_words(key), _all_words(response))
    ids = _scorer_ids(key, mode, words[0]), _scorer_ids(response, mode, words[1])
    sets = _mention_sets(key, response, mode, firsts, words, ids, by_head, sentences)
    fixed: list[tuple[int, int]] = []
    large = False
    if zero_deps is not None:
        zero_firsts = sets.zero_orders() if sets is not None else firsts
        fixed, large = zero_pairs(key, response, *zero_deps, by_head=by_head, firsts=zero_firsts)
    rest = sets.rest_orders(fixed if zero_deps is not None else None) if sets is not None else firsts
    if mode == "craft":
        twins, _ = candidates(key, response, "exact", fixed)
        chosen = craft_pairs(key, response, twins)
    else:
        if minimum is not None:
            twins, _ = candidates(key, response, "exact", fixed)
            scored = min_span_candidates(key, response, twins, minimum)
        else:
            twins, scored = candidates(key, response, mode, fixed, by_head, firsts, words, ids)
        taken_keys, taken_responses = {k for k, _ in fixed + twins}, {r for _, r in fixed + twins}
        key_rows = [k for k in rest[0] if k not in taken_keys]
        response_rows = [r for r in rest[1] if r not in taken_responses]
        chosen, more = document_pairs(scored, key_rows, response_rows, mention_order(key), mention_order(response))
        large = large or more
    pairs = fixed + twins + chosen
    a = align_codes(*_matched_codes(*distinct_ids, pairs), key.entities, response.entities, rule)
    a = lookup_views(a, key.entities, response.entities, pairs, *ids)
    return replace(a, notes=(_LARGE,) if large else (), by_head=mode == "head")


#: A document's sentences: the number of words of each, and the number of sentences before it in its file.
Sentences = tuple[Sequence[int], int]


def _mention_sets(
    key: Document,
    response: Document,
    mode: str,
    firsts: tuple[list[int], list[int]],
    words: tuple[list[Words], list[Words]],
    ids: tuple[list[Hashable], list[Hashable]],
    by_head: bool,
    sentences: tuple[Sentences, Sentences] | None,
) -> MentionSets | None:
    """The CorefUD scorer's sets of the documents' distinct mentions (``firsts``, with their
    ``words`` and scorer ``ids``), when two of one side tie in its order (first node, last node,
    number of nodes) and ``sentences`` are known; else ``None`` (the order of the file is theirs)."""
    docs = (key, response)
    if sentences is None or not any(_tied(docs[i], firsts[i], by_head) for i in (0, 1)):
        return None
    members: list[list[Member]] = [[], []]
    for i, doc in enumerate(docs):
        nodes = NodeHashes(*sentences[i])
        heads = doc.heads.tolist() if doc.heads is not None else None
        for row in firsts[i]:
            head = heads[row] if heads is not None and mode == "head" else None
            zero = heads is not None and is_empty(heads[row])
            members[i].append(Member(row, ids[i][row], mention_hash(nodes, words[i][row], head), zero))
    return MentionSets(*members)


def _tied(doc: Document, rows: list[int], by_head: bool) -> bool:
    """Whether two of ``rows`` (distinct mentions) have the same first node, last node and number of
    nodes: only possible where some mention is not one run of words, or a run has two heads."""
    if not (doc.parts or by_head):
        return False
    order = mention_order(doc)
    return len({order(row) for row in rows}) < len(rows)


def _scorer_ids(doc: Document, mode: str, words: list[Words] | None = None) -> list[Hashable]:
    """Each row's identity as the CorefUD scorer compares mentions: its words (``words``: every
    row's, when known), and under head matching its head too."""
    words = _all_words(doc) if words is None else words
    if mode != "head" or doc.heads is None:
        return list(words)
    return list(zip(words, doc.heads.tolist(), strict=True))


_LARGE = (
    f"more unaligned mentions than one assignment over the document holds ({MAX_DOCUMENT_CELLS:,} pairs): "
    "each group of candidates is matched on its own, and a tie among equally good candidates may be "
    "broken otherwise than by the CorefUD scorer"
)


def ua_min_spans(doc: Document, path: str) -> dict[int, tuple[int, int]] | None:
    """Each row's minimum span (``Min``) in a Universal Anaphora document (the first markable's of
    a span of its entity, as the UA scorer keeps the first of equal mentions); ``None`` for a
    document of another format. Zero lines would put markables and rows at other positions: a
    document with zeros is a usage error."""
    ua = getattr(doc, "anaphora", None)
    if ua is None:
        return None
    if ua.n_tokens != doc.n_tokens:
        raise UsageError(f"--match partial on a Universal Anaphora file with zeros (5.1) is not supported: {path}")
    mins: dict[tuple[str, int, int], tuple[int, int] | None] = {}
    for m in ua.identity:
        mins.setdefault((m.entity, m.start, m.end), m.min_span)
    out: dict[int, tuple[int, int]] = {}
    for row, (s, e, k) in enumerate(zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist())):
        found = mins.get((doc.labels[k], s, e)) if doc.labels else None
        if found is not None:
            out[row] = found
    return out


def min_span_candidates(
    key: Document, response: Document, twins: list[tuple[int, int]], minimum: dict[int, tuple[int, int]]
) -> list[tuple[int, int, float]]:
    """Pairs of a key mention and a response mention within it that holds its minimum span, with
    ``|common words| / |key words|``, among the mentions ``twins`` leave."""
    taken_keys, taken_responses = {k for k, _ in twins}, {r for _, r in twins}
    keys = sorted((minimum[r][0], r) for r in _first_rows(key) if r in minimum and r not in taken_keys)
    min_starts = [s for s, _ in keys]
    out = []
    for r in _first_rows(response):
        words = _words(response, r)
        if r in taken_responses or not isinstance(words, tuple):
            continue
        low, high = words
        for _, k in keys[bisect_left(min_starts, low) : bisect_right(min_starts, high)]:
            kwords = _words(key, k)
            if minimum[k][1] <= high and isinstance(kwords, tuple) and _within(words, kwords):
                out.append((k, r, _common(kwords, words) / _size(kwords)))
    return out


def craft_pairs(key: Document, response: Document, twins: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The CRAFT pairs among the mentions that ``twins`` (same words) leave, as ufal/corefud-scorer's
    copy of the UA scorer chooses them: each response mention in order of first word, last word and
    size is offered to the *first* key mention in that order that it lies within; it takes that key
    mention if no earlier response mention took it, and is otherwise left unmatched (the copy stops
    at the first key mention it fits, even a taken one). Zeros (empty nodes) are never paired here.

    The first key mention a response fits is found in a max-tree of key ends over the key order
    (the keys that start early enough are a prefix of it), so this is ``O(n log n)``."""
    taken_keys, taken_responses = {k for k, _ in twins}, {r for _, r in twins}

    def rows(doc: Document, taken: set[int]) -> list[tuple[int, int, int]]:
        out = []
        for row in _first_rows(doc):
            words = _words(doc, row)
            if row in taken or not isinstance(words, tuple) or is_empty(words[1]):
                continue  # discontinuous mentions and zeros (sets of words) are never CRAFT-matched
            out.append((words[0], words[1], row))
        return sorted(out)

    keys = rows(key, taken_keys)
    if not keys:
        return []
    starts = [s for s, _, _ in keys]
    size = 1 << max(0, (len(keys) - 1).bit_length())
    tree = [-1] * (2 * size)  # tree[size + i]: the end of key i; inner nodes: the largest below
    for i, (_, end, _) in enumerate(keys):
        tree[size + i] = end
    for node in range(size - 1, 0, -1):
        tree[node] = max(tree[2 * node], tree[2 * node + 1])
    used: set[int] = set()
    out: list[tuple[int, int]] = []
    for start, end, row in rows(response, taken_responses):
        first = _first_reaching(tree, size, bisect_right(starts, start), end)
        if first is not None and first not in used:
            used.add(first)
            out.append((keys[first][2], row))
    return out


def _first_reaching(tree: list[int], size: int, limit: int, end: int) -> int | None:
    """The first leaf below ``limit`` whose value is at least ``end`` (``None``: no such leaf)."""
    if limit == 0 or tree[1] < end:
        return None
    node, low, high = 1, 0, size  # node covers leaves [low, high)
    while node < size:
        mid = (low + high) // 2
        if tree[2 * node] >= end:
            node, high = 2 * node, mid
        else:
            node, low = 2 * node + 1, mid
        if low >= limit:
            return None
    return low if low < limit else None


def _require_heads(doc: Document, path: str, mode: str) -> None:
    """Refuse a document with a mention whose head its file does not give (``NO_HEAD``): matching
    it by a guessed head would give a wrong number without a word of warning."""
    assert doc.heads is not None
    missing = np.flatnonzero(doc.heads == NO_HEAD)
    if not missing.size:
        return
    row = int(missing[0])
    line = int(doc.lines[row]) if doc.lines is not None and doc.lines.size > row else doc.begin_line
    label = doc.labels[int(doc.entities[row])] if doc.labels else str(int(doc.entities[row]))
    raise InputError(
        path,
        line,
        f"--match {mode} needs the head of every mention, and this mention of entity {label} has none "
        f"(no head field in Entity= and no syntactic tree: HEAD is '_'); "
        f"{missing.size} of the {doc.n_mentions} mentions of document '{doc.name}' have no head",
    )


def zero_pairs(
    key: Document,
    response: Document,
    key_deps: Deps,
    response_deps: Deps,
    by_head: bool = False,
    firsts: tuple[list[int], list[int]] | None = None,
) -> tuple[list[tuple[int, int]], bool]:
    """Zero mentions (headed by an empty node) of one sentence paired as the CRAC 2024 scorer does:
    one optimal assignment of ``10 * F(parent and relation) + F(parent)`` over their DEPS, over all
    the document's zero mentions (:func:`document_pairs`); ``by_head``: see :func:`identities`.
    The flag: the document was too large for one assignment. ``firsts``: the first rows of the
    documents' distinct mentions, when known."""
    key_zeros, response_zeros = (
        _zero_rows(key, by_head, firsts and firsts[0]),
        _zero_rows(response, by_head, firsts and firsts[1]),
    )
    if not (key_zeros and response_zeros):
        return [], False  # nothing to pair
    pairs = zero_candidates(key, response, key_deps, response_deps, by_head, (key_zeros, response_zeros))
    return document_pairs(pairs, key_zeros, response_zeros, mention_order(key), mention_order(response))


def _zero_rows(doc: Document, by_head: bool, first: list[int] | None = None) -> list[int]:
    """The first rows of the distinct zero mentions (headed by an empty node) of ``doc`` (``first``:
    the first rows of its distinct mentions, when known)."""
    if doc.heads is None or not bool((doc.heads >= EMPTY).any()):
        return []
    heads = doc.heads.tolist()
    return [row for row in (first if first is not None else _first_rows(doc, by_head)) if is_empty(heads[row])]


def _f_score(a: frozenset[object], b: frozenset[object]) -> float:
    """The CorefUD scorer's F of two sets (``a`` the key's), in its order of operations, so that
    equal weights are equal to the last bit as in its assignment; 0 when they share nothing."""
    common = len(a & b)
    if not common:
        return 0.0
    p = common / len(a)
    r = common / len(b)
    return 2 * p * r / (p + r)


def zero_candidates(
    key: Document,
    response: Document,
    key_deps: Deps,
    response_deps: Deps,
    by_head: bool = False,
    zero_rows: tuple[list[int], list[int]] | None = None,
) -> list[tuple[int, int, float]]:
    """The pairs of zero mentions of one sentence that :func:`zero_pairs` chooses from, with their
    weight (``zero_rows``: each side's, when known)."""
    assert key.heads is not None and response.heads is not None
    key_zeros, response_zeros = zero_rows or (_zero_rows(key, by_head), _zero_rows(response, by_head))

    def zeros(doc: Document, deps: Deps, rows: list[int]) -> list[tuple[int, int, frozenset[tuple[int, str]]]]:
        assert doc.heads is not None
        heads = doc.heads.tolist()
        return [(row, empty_id(heads[row])[0], deps.get(heads[row], frozenset())) for row in rows]

    pairs = []
    for k, ks, kd in zeros(key, key_deps, key_zeros):
        for r, rs, rd in zeros(response, response_deps, response_zeros):
            if ks == rs:
                weight = 0.0
                weight += 10 * _f_score(kd, rd)
                weight += _f_score(frozenset(p for p, _ in kd), frozenset(p for p, _ in rd))
                if weight > 0:
                    pairs.append((k, r, weight))
    return pairs


def _matched_codes(
    key_ids: list[Hashable], response_ids: list[Hashable], pairs: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """The mention codes to align (:func:`~corefeval.matching.alignment.align_codes`): a key row's code is
    its identity's (``key_ids``, :func:`identities`), numbered as first seen; a response row whose
    identity (``response_ids``) was matched takes its key mention's code, the others a code of their
    own (one per distinct identity), numbered as first seen after the key's."""
    codes: dict[Hashable, int] = {}
    key_codes = [codes.setdefault(m, len(codes)) for m in key_ids]
    target = {response_ids[r]: key_codes[k] for k, r in pairs}
    fresh: dict[Hashable, int] = {}
    n = len(codes)
    response_codes = [target[m] if m in target else n + fresh.setdefault(m, len(fresh)) for m in response_ids]
    return np.asarray(key_codes, dtype=np.int64), np.asarray(response_codes, dtype=np.int64)


def _with_heads(doc: Document, keys: list[Hashable], by_head: bool) -> list[Hashable]:
    """:func:`identities` of ``doc`` from its :meth:`~corefeval.core.model.Document.mention_keys`."""
    if not by_head or doc.heads is None:
        return keys
    return list(zip(keys, doc.heads.tolist(), strict=True))


def _two_heads(doc: Document, keys: list[Hashable]) -> bool:
    """Whether some mention of ``doc`` (its :meth:`~corefeval.core.model.Document.mention_keys`: ``keys``)
    occurs with two different heads: more distinct mentions with their heads than without."""
    if doc.heads is None or not keys:
        return False
    return len(set(zip(keys, doc.heads.tolist()))) != len(set(keys))
