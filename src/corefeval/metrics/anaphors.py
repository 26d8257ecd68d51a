"""Anaphor-decomposable scores: each anaphor of the key is found, missed or wrongly linked.

An anaphor is a key mention that is not the first of its entity and that a filter accepts (the
zero score's filter: mentions headed by an empty node). Following the CorefUD scorer:

* the response counterpart of a key mention is the response mention with the same words (and, for
  head matching, the same head), else the one the mention matching paired it with;
* a key anaphor is a **false negative** when it has no counterpart or its counterpart is the first
  mention of a response entity; a **wrong link** when no earlier mention of its key entity has a
  counterpart in the counterpart's response entity; a **true positive** otherwise;
* a response mention that the filter accepts, is not the first of a response entity and is no key
  anaphor's counterpart is a **false positive**.

Recall is ``tp / (tp + fn + wl)``, precision ``tp / (tp + fp + wl)``. Mentions are ordered as in
the CorefUD scorer: by first word, then last word, then number of words, an empty node ``w.k``
coming after word ``w`` of its sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping

import numpy as np

from ..core.empty_nodes import EMPTY, NO_HEAD, empty_id, is_empty
from ..core.model import Document
from ..matching.alignment import Alignment
from ..matching.cells import Cells
from .base import Metric
from .mor import distinct_rows

IntArray = np.ndarray
#: Which rows of a document are candidate anaphors (a boolean mask over its rows).
AnaphorFilter = Callable[[Document], np.ndarray]
#: Positions of words in the order of the CorefUD scorer: word ``p`` is ``p << 7``, empty node
#: ``w.k`` is ``(position of word w) << 7 | k``.
_SHIFT = 7


def zeros(doc: Document) -> np.ndarray:
    """Mentions headed by an empty node (without a head: whose first node is empty)."""
    heads = doc.heads if doc.heads is not None else np.full(doc.n_mentions, NO_HEAD, dtype=np.int64)
    first = doc.starts.copy()
    for row, p in doc.parts.items():
        first[row] = p[0]
    return np.where(heads == NO_HEAD, first >= EMPTY, heads >= EMPTY)


def head_upos(upos: Mapping[int, str], tags: Collection[str] = ("PRON",)) -> AnaphorFilter:
    """Mentions whose head's universal part of speech (``upos``: word position to tag) is in ``tags``."""
    wanted = frozenset(tags)

    def accept(doc: Document) -> np.ndarray:
        heads = doc.heads.tolist() if doc.heads is not None else [NO_HEAD] * doc.n_mentions
        return np.array([upos.get(h) in wanted for h in heads], dtype=bool)

    return accept


def predicate(test: Callable[[Document, int], bool]) -> AnaphorFilter:
    """Mentions for which ``test(document, row)`` holds."""
    return lambda doc: np.array([bool(test(doc, row)) for row in range(doc.n_mentions)], dtype=bool)


def _sentence_starts(doc: Document) -> dict[int, int]:
    """Position of each sentence's first word, for sentences with a mention of empty nodes only
    (the reader places such a mention at the word before its first node, or after for ``0.k``)."""
    out: dict[int, int] = {}
    for row, p in doc.parts.items():
        if all(is_empty(x) for x in p):
            s, w, _ = empty_id(p[0])
            out.setdefault(s, int(doc.starts[row]) - max(w - 1, 0))
    return out


def order_keys(doc: Document) -> tuple[IntArray, IntArray, IntArray]:
    """First node, last node and node count of every row, in the CorefUD scorer's word order."""
    first, last = doc.starts << _SHIFT, doc.ends << _SHIFT
    count = doc.ends - doc.starts + 1
    starts = _sentence_starts(doc) if doc.parts else {}
    for row, p in doc.parts.items():
        ranks = []
        for i, x in enumerate(p):
            if not is_empty(x):
                ranks.append(x << _SHIFT)
                continue
            s, w, k = empty_id(x)
            if s in starts:
                base = starts[s] + w - 1
            else:
                after = next((y for y in p[i:] if not is_empty(y)), None)
                before = next((y for y in reversed(p[:i]) if not is_empty(y)), None)
                base = after - 1 if after is not None else before if before is not None else int(doc.starts[row])
            ranks.append((base << _SHIFT) | k)
        first[row], last[row], count[row] = min(ranks), max(ranks), len(set(p))
    return first, last, count


def _identities(doc: Document, by_head: bool) -> list[Hashable]:
    """A mention's identity as the CorefUD scorer compares mentions: its words, and under head
    matching (``by_head``) its head too."""
    keys = doc.mention_keys()
    if by_head and doc.heads is not None:
        return [(m, h) for m, h in zip(keys, doc.heads.tolist())]
    return keys


def entities_in_order(doc: Document) -> list[list[int]]:
    """The distinct rows of each entity, each entity sorted in the CorefUD scorer's order."""
    rows = distinct_rows(doc)
    first, last, count = order_keys(doc)
    order = rows[np.lexsort((count[rows], last[rows], first[rows], doc.entities[rows]))]
    out: dict[int, list[int]] = {}
    for row, e in zip(order.tolist(), doc.entities[order].tolist()):
        out.setdefault(e, []).append(row)
    return [out[e] for e in sorted(out)]


def _partners(key: Document, response: Document, alignment: Alignment) -> dict[int, int]:
    """Key row to the response row the matching paired it with."""
    korder = np.argsort(key.entities, kind="stable")
    rorder = np.argsort(response.entities, kind="stable")
    kept = rorder[~np.isin(rorder, alignment.dropped_rows)]
    row_of_id = {i: r for r, i in zip(kept.tolist(), alignment.response_id.tolist()) if i < alignment.n_key_ids}
    return {k: row_of_id[i] for k, i in zip(korder.tolist(), alignment.key_id.tolist()) if i in row_of_id}


#: Outcomes of a key anaphor in :func:`anaphor_rows`.
TRUE_POSITIVE, FALSE_NEGATIVE, WRONG_LINK = 0, 1, 2


def anaphor_rows(
    key: Document, response: Document, alignment: Alignment, accept: AnaphorFilter = zeros
) -> tuple[dict[int, int], list[int]]:
    """The outcome of every key anaphor (key row to :data:`TRUE_POSITIVE`, :data:`FALSE_NEGATIVE`
    or :data:`WRONG_LINK`) and the response rows that are false positives, by the definition above."""
    key_ok, response_ok = accept(key), accept(response)
    rids, kids = _identities(response, alignment.by_head), _identities(key, alignment.by_head)
    partner = _partners(key, response, alignment)
    response_entities = entities_in_order(response)
    entity_of: dict[Hashable, int] = {}
    for e, rows in enumerate(response_entities):
        for r in rows:
            entity_of[rids[r]] = e
    firsts = {rids[rows[0]] for rows in response_entities}
    found: dict[int, int] = {}
    covered: set[Hashable] = set()
    for rows in entities_in_order(key):
        earlier: set[int] = set()
        for i, k in enumerate(rows):
            counterpart: Hashable | None = kids[k] if kids[k] in entity_of else None
            if counterpart is None and k in partner:
                counterpart = rids[partner[k]]
            entity = entity_of.get(counterpart) if counterpart is not None else None
            if i and key_ok[k]:
                if counterpart is None or counterpart in firsts:
                    found[k] = FALSE_NEGATIVE
                elif entity not in earlier:
                    found[k] = WRONG_LINK
                else:
                    found[k] = TRUE_POSITIVE
                if counterpart is not None:
                    covered.add(counterpart)
            if entity is not None:
                earlier.add(entity)
    spurious = [
        r
        for rows in response_entities
        for r in rows
        if response_ok[r] and rids[r] not in firsts and rids[r] not in covered
    ]
    return found, spurious


def outcomes(
    key: Document, response: Document, alignment: Alignment, accept: AnaphorFilter = zeros
) -> tuple[int, int, int, int]:
    """``(tp, fn, wl, fp)`` of one document, by the definition above."""
    found, spurious = anaphor_rows(key, response, alignment, accept)
    tally = np.bincount(np.fromiter(found.values(), dtype=np.int64, count=len(found)), minlength=3)
    return int(tally[TRUE_POSITIVE]), int(tally[FALSE_NEGATIVE]), int(tally[WRONG_LINK]), len(spurious)


def counts(
    key: Document, response: Document, alignment: Alignment, accept: AnaphorFilter = zeros
) -> tuple[float, float, float, float]:
    """``(recall_num, recall_den, precision_num, precision_den)`` of one document."""
    tp, fn, wl, fp = outcomes(key, response, alignment, accept)
    return float(tp), float(tp + fn + wl), float(tp), float(tp + fp + wl)


def _may_hold_zeros(doc: Document) -> bool:
    """Whether a mention may be headed by an empty node (only mentions with parts hold one)."""
    return bool(doc.parts) or (doc.heads is not None and bool((doc.heads >= EMPTY).any()))


class ZeroScore(Metric):
    """The zero score per document: :func:`counts` with the :func:`zeros` filter."""

    name = "zero"
    title = "zeros"
    reads_mentions = True

    def columns(self, cells: Cells) -> list[np.ndarray]:
        out = np.zeros((4, cells.n_docs))
        for d in range(cells.n_docs):
            key, response = cells.documents(d)
            if _may_hold_zeros(key) or _may_hold_zeros(response):
                out[:, d] = counts(key, response, cells.alignment(d))
        return list(out)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Chains of mention ids have no empty nodes, hence no zeros: nothing to count."""
        return 0.0, 0.0, 0.0, 0.0
