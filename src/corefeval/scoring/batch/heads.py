"""Head matching of many documents at once, counted together.

:func:`corefeval.matching.head_and_partial.match_alignment` matches one document at a time. Most documents are
plain for head matching: no discontinuous mention and no zero (empty node), no copy of a mention
with another head, every mention with a head, and on each side no two mentions with the same
words and head after the mention selection. In such a document the scorer's steps come down to
this: a key and a response mention with the same words and head are twins; among the others, a
response mention's candidates are the key mentions with its head, and where every candidate is
the only one of its key mention and of its response mention (no assignment to solve), each pair
is matched; every other mention is left unmatched, and no mention is looked up through another
one's words (:mod:`corefeval.matching.mention_lookups`: the words of a moved pair are never on the other
side, or they would be twins).

:class:`HeadMatching` does these steps for all such documents in a few numpy passes and counts
them in one stack of cells (:func:`corefeval.matching.cells.table.matched_cells`); the rest (a document that
is not plain, or whose candidates compete) is matched one by one as before. Both give the same
counts to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.dataclass_methods import field_eq, field_hash, field_repr, refuse_delattr, refuse_setattr
from ...core.empty_nodes import EMPTY, NO_HEAD
from ...core.model import Document
from ...core.spancodes import MAX_CODE
from ...matching.alignment import Alignment
from ...matching.cells import Cells, Pair, segment_max
from ...matching.cells.table import MentionSource, matched_cells
from ...metrics.base import Metric
from .counts import columns_into

Prepare = Callable[[Document, Document], tuple[Alignment, Document, Document]]


@dataclass(init=False, repr=False, eq=False)
class _Side:
    """One side of the plain documents, stacked, after the mention selection: each row's document,
    words, head and entity (in the order the selected document numbers its entities)."""

    doc: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    heads: np.ndarray
    entities: np.ndarray

    def __init__(
        self,
        doc: np.ndarray,
        starts: np.ndarray,
        ends: np.ndarray,
        heads: np.ndarray,
        entities: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.__dict__.update(
            doc=doc,
            starts=starts,
            ends=ends,
            heads=heads,
            entities=entities,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr


def _plain(doc: Document) -> bool:
    """Whether ``doc`` may be plain (see the module docstring; the rest is checked on the stack)."""
    return not doc.parts and doc.heads is not None and not getattr(doc, "head_copies", None)


def _stacked(docs: Sequence[Document], remove_singletons: bool) -> _Side:
    """The rows of ``docs`` stacked, singletons left out when ``remove_singletons``: a document
    that loses some renumbers its entities in order of first kept row, as the selection does."""
    columns = [[getattr(d, name) for d in docs] for name in ("starts", "ends", "heads", "entities")]
    lengths = np.fromiter(map(len, columns[0]), dtype=np.int64, count=len(docs))
    doc = np.repeat(np.arange(len(docs)), lengths)
    starts, ends, heads, entities = (
        np.concatenate(c).astype(np.int64, copy=False) if docs else np.zeros(0, dtype=np.int64) for c in columns
    )
    if not remove_singletons or not doc.size:
        return _Side(doc, starts, ends, heads, entities)
    spans = segment_max(entities + 1, lengths, np.zeros(len(docs), dtype=np.int64))
    entity = (np.cumsum(spans) - spans)[doc] + entities
    keep = np.bincount(entity, minlength=int(spans.sum()))[entity] > 1
    kept = np.flatnonzero(keep)
    by_entity = kept[np.argsort(entity[kept], kind="stable")]  # each entity's kept rows, in order
    first = np.ones(by_entity.size, dtype=bool)
    first[1:] = entity[by_entity[1:]] != entity[by_entity[:-1]]
    first_kept = np.zeros(int(spans.sum()), dtype=np.int64)
    first_kept[entity[by_entity[first]]] = (by_entity - (np.cumsum(lengths) - lengths)[doc[by_entity]])[first]
    lost = np.bincount(doc[~keep], minlength=len(docs)) > 0
    renumbered = np.where(lost[doc], first_kept[entity], entities)
    return _Side(doc[keep], starts[keep], ends[keep], heads[keep], renumbered[keep])


def _codes(key: _Side, response: _Side, *columns: str) -> tuple[np.ndarray, np.ndarray]:
    """One code per row of both sides for its document and the given ``columns``: equal codes,
    equal values. The values are folded into one integer where they fit (one sort), else sorted
    together."""
    values = [np.concatenate([key.doc, response.doc])]
    values += [np.concatenate([getattr(key, c), getattr(response, c)]) for c in columns]
    widths = [float(v.max(initial=0)) + 1.0 for v in values]
    if min(int(v.min(initial=0)) for v in values) >= 0 and float(np.prod(widths)) < MAX_CODE:
        folded = values[0]
        for v, width in zip(values[1:], widths[1:]):
            folded = folded * int(width) + v
        order = np.argsort(folded)
        values = [folded]
    else:
        order = np.lexsort(values[::-1])
    new = np.zeros(order.size, dtype=bool)
    for v in values:
        ordered = v[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    code = np.empty(order.size, dtype=np.int64)
    code[order] = np.cumsum(new)
    return code[: key.doc.size], code[key.doc.size :]


def _repeated(codes: np.ndarray, doc: np.ndarray, out: np.ndarray) -> None:
    """Mark in ``out`` the documents where a code occurs twice (codes of one side, from
    :func:`_codes`: small, and each of one document)."""
    out[doc[np.bincount(codes)[codes] > 1]] = True


def _partners(key: _Side, response: _Side, bad: np.ndarray) -> np.ndarray:
    """The key row each response row is matched with (-1: none), marking in ``bad`` the documents
    that are not plain after all or whose candidates compete (see the module docstring)."""
    for side in (key, response):
        bad[side.doc[(side.heads == NO_HEAD) | (side.heads >= EMPTY)]] = True
    kc, rc = _codes(key, response, "starts", "ends", "heads")
    _repeated(kc, key.doc, bad)
    _repeated(rc, response.doc, bad)
    key_of_code = np.full(int(max(kc.max(initial=0), rc.max(initial=0))) + 1, -1, dtype=np.int64)
    key_of_code[kc] = np.arange(kc.size)
    partner = key_of_code[rc]  # twins: the same words and head
    k_free = np.ones(kc.size, dtype=bool)
    k_free[partner[partner >= 0]] = False
    r_free = partner < 0
    kh, rh = _codes(key, response, "heads")
    size = int(max(kh.max(initial=0), rh.max(initial=0))) + 1
    n_keys = np.bincount(kh[k_free], minlength=size)
    n_responses = np.bincount(rh[r_free], minlength=size)
    competing = (n_keys > 0) & (n_responses > 0) & ((n_keys > 1) | (n_responses > 1))
    bad[key.doc[k_free & competing[kh]]] = True
    bad[response.doc[r_free & competing[rh]]] = True
    key_of_head = np.full(size, -1, dtype=np.int64)
    free_keys = np.flatnonzero(k_free)
    key_of_head[kh[free_keys]] = free_keys
    partner[r_free] = key_of_head[rh[r_free]]  # the one candidate, where there is one
    return partner


@dataclass(init=False, repr=False, eq=False)
class HeadMatching:
    """A preparation under head matching (``one``: the per-document one, which this object also is
    when called) that can also count many documents at once (:meth:`rows`); ``remove_singletons``:
    the run leaves singletons out."""

    one: Prepare
    remove_singletons: bool

    def __init__(
        self,
        one: Prepare,
        remove_singletons: bool,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.__dict__.update(
            one=one,
            remove_singletons=remove_singletons,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    def __call__(self, key: Document, response: Document) -> tuple[Alignment, Document, Document]:
        return self.one(key, response)

    def rows(self, pairs: Sequence[Pair], metrics: Sequence[Metric], width: int) -> tuple[np.ndarray, np.ndarray]:
        """The count rows of the plain documents of ``pairs`` (``len(pairs)`` x ``width``), and a
        mask of the others, whose rows are zeros and must be counted one by one."""
        alone = np.ones(len(pairs), dtype=bool)
        rows = np.zeros((len(pairs), width))
        plain = [i for i, (k, r) in enumerate(pairs) if _plain(k) and _plain(r)]
        if not plain:
            return rows, alone
        key = _stacked([pairs[i][0] for i in plain], self.remove_singletons)
        response = _stacked([pairs[i][1] for i in plain], self.remove_singletons)
        bad = np.zeros(len(plain), dtype=bool)
        partner = _partners(key, response, bad)
        good = np.flatnonzero(~bad)
        if not good.size:
            return rows, alone
        cells = self._cells([pairs[i] for i in np.asarray(plain)[good].tolist()], key, response, partner, bad)
        at = np.asarray(plain, dtype=np.int64)[good]
        columns_into(rows, cells, metrics, at)
        alone[at] = False
        return rows, alone

    def _cells(self, pairs: list[Pair], key: _Side, response: _Side, partner: np.ndarray, bad: np.ndarray) -> Cells:
        """The cells of the documents ``bad`` leaves (``pairs``: them), renumbered 0, 1, ..."""
        number = np.cumsum(~bad) - 1
        k_keep, r_keep = ~bad[key.doc], ~bad[response.doc]
        kept_partner = partner[r_keep]
        found = np.flatnonzero(kept_partner >= 0)
        partners = (np.cumsum(k_keep) - 1)[kept_partner[found]]
        mentions = MentionSource(lambda d: self.one(*pairs[d])[1:], lambda d: self.one(*pairs[d])[0])
        return matched_cells(
            len(pairs),
            (number[key.doc[k_keep]], key.entities[k_keep]),
            (number[response.doc[r_keep]], response.entities[r_keep]),
            (found, partners),
            mentions,
        )
