"""Give key and response mentions shared ids, as the reference scorer does before every metric.

Each distinct key span gets an id; a response span equal to a key span takes that id; a response
span repeated after it matched a key span is dropped (the copy in the earliest entity, then the
earliest row, is kept); twinless response spans get fresh ids, and their repeats are kept with the
same id. A repeated key span keeps both occurrences with one id. Under the ``corefud`` rule (the
CorefUD scorer's), a response span repeated in several entities is kept in each under one id, and
metrics look an id up in the other side's last chain holding it. Metrics then compare the two
partitions of ids. When no id occurs twice on a side (the normal case), everything a metric needs
is in the key x response contingency table; otherwise the literal definitions are used.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import numpy as np

from ..core.dataclass_methods import FACTORY, field_repr, refuse_delattr, refuse_setattr
from ..core.distinct import distinct, distinct_counts
from ..core.model import Document
from ..core.spancodes import span_codes

IntArray = np.ndarray


def _no_rows() -> IntArray:
    return np.zeros(0, dtype=np.int64)


class Contingency(NamedTuple):
    """Sparse key x response overlap: ``counts[c]`` mentions are in key entity ``rows[c]`` and
    response entity ``cols[c]``; ``key_sizes``/``response_sizes`` count each entity's mentions."""

    rows: IntArray
    cols: IntArray
    counts: IntArray
    key_sizes: IntArray
    response_sizes: IntArray


@dataclass(init=False, repr=False, eq=False)
class Alignment:
    """Both sides of one document as entity memberships of shared mention ids. Frozen; its methods
    are written out, not generated (see :mod:`corefeval.core.dataclass_methods`)."""

    key_entity: IntArray
    key_id: IntArray
    response_entity: IntArray
    response_id: IntArray
    n_key_ids: int
    n_response_ids: int
    n_matched: int
    repeats: bool
    last_chain: bool = False
    dropped_rows: IntArray = field(default_factory=_no_rows)
    repeated_key_rows: IntArray = field(default_factory=_no_rows)
    #: Response rows repeating a span that matched the key, kept under the ``corefud`` rule.
    shared_rows: IntArray = field(default_factory=_no_rows)
    #: What the matching of mentions wants said about this document (warnings, without a place).
    notes: tuple[str, ...] = ()
    #: Where each side looks the other's mentions up through other ids than the shared ones (see
    #: :mod:`corefeval.matching.mention_lookups`): the recall view and the precision view, else ``None``.
    views: tuple[Alignment, Alignment] | None = None
    #: Whether a key and a response mention are the same mention only with the same head too (head
    #: matching), where a metric compares mentions itself (the zero score).
    by_head: bool = False

    def __init__(
        self,
        key_entity: IntArray,
        key_id: IntArray,
        response_entity: IntArray,
        response_id: IntArray,
        n_key_ids: int,
        n_response_ids: int,
        n_matched: int,
        repeats: bool,
        last_chain: bool = False,
        dropped_rows: IntArray = FACTORY,
        repeated_key_rows: IntArray = FACTORY,
        shared_rows: IntArray = FACTORY,
        notes: tuple[str, ...] = (),
        views: tuple[Alignment, Alignment] | None = None,
        by_head: bool = False,
    ) -> None:
        self.__dict__.update(
            key_entity=key_entity,
            key_id=key_id,
            response_entity=response_entity,
            response_id=response_id,
            n_key_ids=n_key_ids,
            n_response_ids=n_response_ids,
            n_matched=n_matched,
            repeats=repeats,
            last_chain=last_chain,
            dropped_rows=_no_rows() if dropped_rows is FACTORY else dropped_rows,
            repeated_key_rows=_no_rows() if repeated_key_rows is FACTORY else repeated_key_rows,
            shared_rows=_no_rows() if shared_rows is FACTORY else shared_rows,
            notes=notes,
            views=views,
            by_head=by_head,
        )

    __repr__ = field_repr
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    @property
    def n_key_entities(self) -> int:
        return int(self.key_entity.max()) + 1 if self.key_entity.size else 0

    @property
    def n_response_entities(self) -> int:
        return int(self.response_entity.max()) + 1 if self.response_entity.size else 0

    def key_chains(self) -> list[list[int]]:
        return _chains(self.key_entity, self.key_id, self.n_key_entities)

    def response_chains(self) -> list[list[int]]:
        return _chains(self.response_entity, self.response_id, self.n_response_entities)

    @cached_property
    def contingency(self) -> Contingency:
        """The overlap table; only meaningful when ``repeats`` is false."""
        nk, nr = self.n_key_entities, self.n_response_entities
        key_sizes = np.bincount(self.key_entity, minlength=nk)
        response_sizes = np.bincount(self.response_entity, minlength=nr)
        matched = self.response_id < self.n_key_ids
        entity_of_id = np.empty(self.n_key_ids, dtype=np.int64)
        entity_of_id[self.key_id] = self.key_entity
        rows = entity_of_id[self.response_id[matched]]
        cols = self.response_entity[matched]
        cells, counts = distinct_counts(rows * max(nr, 1) + cols)
        return Contingency(cells // max(nr, 1), cells % max(nr, 1), counts, key_sizes, response_sizes)


def _chains(entity: IntArray, ids: IntArray, n: int) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(n)]
    for k, i in zip(entity.tolist(), ids.tolist()):
        out[k].append(i)
    return out


def dense_sorted(values: IntArray) -> IntArray:
    """Renumber ascending values 0..n-1 keeping their order (empty entities disappear): entities
    in sorted order, as every alignment holds them, need no sort to be renumbered."""
    if values.size == 0:
        return values
    new = np.empty(values.size, dtype=np.int64)
    new[0] = 0
    np.not_equal(values[1:], values[:-1], out=new[1:])
    return np.cumsum(new)


def _mention_codes(key: Document, response: Document) -> tuple[IntArray, IntArray]:
    """One integer per mention such that equal codes mean equal mentions, across both documents."""
    if not key.parts and not response.parts:
        key_codes, response_codes = span_codes(
            [
                (key.starts, key.ends, np.array([key.n_mentions])),
                (response.starts, response.ends, np.array([response.n_mentions])),
            ]
        )
        return key_codes, response_codes
    table: dict[Hashable, int] = {}
    kc = [table.setdefault(m, len(table)) for m in key.mention_keys()]
    rc = [table.setdefault(m, len(table)) for m in response.mention_keys()]
    return np.asarray(kc, dtype=np.int64), np.asarray(rc, dtype=np.int64)


RULES = ("reference", "corefud")


def align(key: Document, response: Document, rule: str = "reference") -> Alignment:
    """Assign shared mention ids to ``key`` and ``response`` (exact span matching); ``rule`` says
    what becomes of a response span repeated in two entities (see the module docstring)."""
    if rule not in RULES:
        raise ValueError(f"unknown repeat rule '{rule}' ({' or '.join(RULES)})")
    return align_codes(*_mention_codes(key, response), key.entities, response.entities, rule)


def align_codes(
    key_codes: IntArray, response_codes: IntArray, key_entities: IntArray, response_entities: IntArray, rule: str
) -> Alignment:
    """:func:`align` of rows given as mention codes (equal codes: the same mention, across both
    sides) and entities: for callers that know which mentions are the same without documents
    to compare (head matching gives response mentions their key mention's code)."""
    korder = np.argsort(key_entities, kind="stable")
    rorder = np.argsort(response_entities, kind="stable")
    kcodes = key_codes[korder]
    rcodes = response_codes[rorder]

    unique_key, first, key_id = distinct(kcodes)
    n_key = int(unique_key.size)
    repeated_key_rows = np.zeros(0, dtype=np.int64)
    if n_key < kcodes.size:
        mask = np.ones(kcodes.size, dtype=bool)
        mask[first] = False
        repeated_key_rows = korder[mask]

    pos = np.searchsorted(unique_key, rcodes)
    pos_clipped = np.minimum(pos, max(n_key - 1, 0))
    matched = (pos < n_key) & (unique_key[pos_clipped] == rcodes) if n_key else np.zeros(rcodes.size, dtype=bool)

    keep = np.ones(rcodes.size, dtype=bool)
    matched_idx = np.flatnonzero(matched)
    _, first, _ = distinct(rcodes[matched_idx])
    if first.size < matched_idx.size:
        keep[matched_idx] = False
        keep[matched_idx[first]] = True
    repeated_rows = rorder[~keep]
    if rule == "corefud":
        keep[:] = True

    response_id = np.empty(rcodes.size, dtype=np.int64)
    response_id[matched] = pos[matched]
    twinless = ~matched
    unique_twinless, _, twin_inverse = distinct(rcodes[twinless])
    response_id[twinless] = n_key + twin_inverse
    kept_twice = rule == "corefud" and first.size < matched_idx.size
    repeats = n_key < kcodes.size or unique_twinless.size < int(twinless.sum()) or kept_twice

    return Alignment(
        key_entity=dense_sorted(key_entities[korder]),
        key_id=key_id,
        response_entity=dense_sorted(response_entities[rorder][keep]),
        response_id=response_id[keep],
        n_key_ids=n_key,
        n_response_ids=int(first.size + unique_twinless.size),
        n_matched=int(first.size),
        repeats=bool(repeats),
        last_chain=rule == "corefud",
        dropped_rows=repeated_rows if rule == "reference" else np.zeros(0, dtype=np.int64),
        repeated_key_rows=repeated_key_rows,
        shared_rows=repeated_rows if rule == "corefud" else np.zeros(0, dtype=np.int64),
    )
