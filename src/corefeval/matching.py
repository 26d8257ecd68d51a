"""Head and partial mention matching, as the CRAC shared tasks define them (exact is in ``alignment``).

* ``head``: a response mention matches a key mention when both have the same head word.
* ``partial``: a response mention matches a key mention when the key mention contains all its words
  and the key mention's head is one of them.

Matching is one-to-one and follows the CRAC scorer: mentions with the same words (and, for head
matching, the same head) are paired first; among the rest, an optimal assignment maximises the sum
of ``|key words & response words| / |key words|`` over the candidate pairs. Each matched response
mention then takes its key mention's identity and unmatched ones get identities of their own; the
usual alignment does the rest, so every metric accepts the result unchanged.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from .alignment import Alignment, align
from .diagnostics import UsageError
from .model import Document

MODES = ("exact", "head", "partial")


def _first_rows(doc: Document) -> list[int]:
    """The first row of each distinct mention (repeats of a mention are matched with it)."""
    seen: set[Hashable] = set()
    out = []
    for row, m in enumerate(doc.mention_keys()):
        if m not in seen:
            seen.add(m)
            out.append(row)
    return out


def _words(doc: Document, row: int) -> frozenset[int]:
    p = doc.parts.get(row)
    return frozenset(p) if p is not None else frozenset(range(int(doc.starts[row]), int(doc.ends[row]) + 1))


def candidates(
    key: Document, response: Document, mode: str
) -> tuple[list[tuple[int, int]], list[tuple[int, int, float]]]:
    """Twins ``(key row, response row)``, then the other candidate pairs with their similarity,
    over the first rows of distinct mentions."""
    kfirst, rfirst = _first_rows(key), _first_rows(response)
    assert key.heads is not None
    kwords = {r: _words(key, r) for r in kfirst}
    rwords = {r: _words(response, r) for r in rfirst}

    def identity(doc: Document, row: int, words: frozenset[int]) -> Hashable:
        return (words, int(doc.heads[row])) if mode == "head" and doc.heads is not None else words

    twin_of = {identity(key, r, kwords[r]): r for r in kfirst}
    twins = [(twin_of[m], r) for r in rfirst if (m := identity(response, r, rwords[r])) in twin_of]
    taken_keys, taken_responses = {k for k, _ in twins}, {r for _, r in twins}
    by_head: dict[int, list[int]] = {}
    for r in kfirst:
        if r not in taken_keys:
            by_head.setdefault(int(key.heads[r]), []).append(r)
    scored: list[tuple[int, int, float]] = []
    for r in rfirst:
        if r in taken_responses:
            continue
        words = rwords[r]
        if mode == "head":
            assert response.heads is not None
            pool = by_head.get(int(response.heads[r]), [])
        else:
            pool = [k for w in words for k in by_head.get(w, []) if words <= kwords[k]]
        scored += [(k, r, len(kwords[k] & words) / len(kwords[k])) for k in pool]
    return twins, scored


def assign(pairs: list[tuple[int, int, float]]) -> list[tuple[int, int]]:
    """One-to-one pairs of largest total similarity; solved per connected group."""
    if not pairs:
        return []
    krows = sorted({k for k, _, _ in pairs})
    rrows = sorted({r for _, r, _ in pairs})
    ki = {k: i for i, k in enumerate(krows)}
    ri = {r: i for i, r in enumerate(rrows)}
    n = len(krows) + len(rrows)
    a = np.array([ki[k] for k, _, _ in pairs])
    b = np.array([len(krows) + ri[r] for _, r, _ in pairs])
    graph = coo_matrix((np.ones(len(pairs)), (a, b)), shape=(n, n))
    _, label = connected_components(graph, directed=False)
    groups: dict[int, list[tuple[int, int, float]]] = {}
    for (k, r, sim), x in zip(pairs, a.tolist(), strict=False):
        groups.setdefault(int(label[x]), []).append((k, r, sim))
    out: list[tuple[int, int]] = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0][:2])
            continue
        gk = sorted({k for k, _, _ in group})
        gr = sorted({r for _, r, _ in group})
        weight = np.zeros((len(gk), len(gr)))
        for k, r, sim in group:
            weight[gk.index(k), gr.index(r)] = sim
        rows, cols = linear_sum_assignment(weight, maximize=True)
        out += [
            (gk[i], gr[j]) for i, j in zip(rows.tolist(), cols.tolist(), strict=False) if weight[i, j] > 0
        ]
    return out


def match_alignment(
    key: Document, response: Document, mode: str, key_path: str = "key", response_path: str = "response"
) -> Alignment:
    """The alignment of ``key`` and ``response`` under ``mode`` matching."""
    if mode == "exact":
        return align(key, response)
    if mode not in MODES:
        raise UsageError(f"unknown match mode '{mode}' (choose from {', '.join(MODES)})")
    if key.heads is None and key.n_mentions:
        raise UsageError(
            f"--match {mode} needs mention heads; {key_path} has none (only CorefUD files have heads)"
        )
    if mode == "head" and response.heads is None and response.n_mentions:
        raise UsageError(
            f"--match head needs mention heads; {response_path} has none (only CorefUD files have heads)"
        )
    twins, scored = candidates(key, response, mode)
    return align(key, _as_key_mentions(key, response, twins + assign(scored)))


def _as_key_mentions(key: Document, response: Document, pairs: list[tuple[int, int]]) -> Document:
    """``response`` whose matched mentions take their key mention's identity, the others one of their own."""
    rkeys = response.mention_keys()
    target = {rkeys[r]: k for k, r in pairs}
    distinct: dict[Hashable, int] = {}
    starts, ends = response.starts.copy(), response.ends.copy()
    parts: dict[int, tuple[int, ...]] = {}
    for row, m in enumerate(rkeys):
        k = target.get(m)
        if k is None:
            parts[row] = (-1 - distinct.setdefault(m, len(distinct)),)
            continue
        starts[row], ends[row] = key.starts[k], key.ends[k]
        if k in key.parts:
            parts[row] = key.parts[k]
    return Document(
        response.name,
        starts,
        ends,
        response.entities,
        response.labels,
        response.n_tokens,
        response.lines,
        response.begin_line,
        parts,
        response.heads,
        response.tokens,
    )
