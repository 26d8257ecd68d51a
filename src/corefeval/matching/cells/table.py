"""The contingency cells of many documents: from their alignments, or from their mentions stacked
and matched by exact span in one pass."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from ...core.assignment import Blocks, GridSolver, blocks, solve_grids
from ...core.dataclass_methods import FACTORY, field_repr, refuse_delattr, refuse_setattr
from ...core.model import Document, stacked_rows
from ...core.spancodes import span_codes
from ..alignment import Alignment, Contingency, align
from .components import Components, components

IntArray = np.ndarray
Pair = tuple[Document, Document]


class MentionSource(NamedTuple):
    """Mention-level access to the documents behind some cells, computed only when asked for.

    ``pair(d)`` gives document ``d``'s key and response (after mention selection); ``alignment(d)``
    their alignment, whose row numbers refer to those documents' rows sorted by entity (see
    :class:`~corefeval.matching.alignment.Alignment`). Either may be given; the other is derived
    (an alignment from a pair by exact span matching).
    """

    pair: Callable[[int], Pair] | None = None
    known: Callable[[int], Alignment] | None = None

    def alignment(self, d: int) -> Alignment:
        if self.known is not None:
            return self.known(d)
        if self.pair is None:
            raise LookupError("these cells were built without their documents")
        return align(*self.pair(d))

    def documents(self, d: int) -> Pair:
        if self.pair is None:
            raise LookupError("these cells were built without their documents")
        return self.pair(d)


@dataclass(init=False, repr=False, eq=False)
class Cells:
    """The contingency cells of many documents, with corpus-wide entity numbers.

    ``rows``/``cols`` are key/response entities (a document's entities are consecutive, documents
    in order), sorted by (row, col) as each document's own table is; ``doc`` is each cell's
    document; ``key_doc``/``response_doc`` each entity's document. ``response_cells``: the cell of
    each response mention found in the key, by document, response entity, then row (the order in
    which the reference scorer visits them); ``None`` when only the counts are known. ``solve``:
    how the CEAF components that need an assignment are solved (see
    :data:`~corefeval.core.assignment.GridSolver`). Frozen; its methods are written out, not
    generated (see :mod:`corefeval.core.dataclass_methods`).
    """

    n_docs: int
    rows: IntArray
    cols: IntArray
    counts: IntArray
    doc: IntArray
    key_sizes: IntArray
    response_sizes: IntArray
    key_doc: IntArray
    response_doc: IntArray
    key_mentions: IntArray
    response_mentions: IntArray
    matched: IntArray
    mentions: MentionSource = field(default_factory=MentionSource, compare=False, repr=False)
    response_cells: IntArray | None = field(default=None, compare=False, repr=False)
    solve: GridSolver = field(default=solve_grids, compare=False, repr=False)

    def __init__(
        self,
        n_docs: int,
        rows: IntArray,
        cols: IntArray,
        counts: IntArray,
        doc: IntArray,
        key_sizes: IntArray,
        response_sizes: IntArray,
        key_doc: IntArray,
        response_doc: IntArray,
        key_mentions: IntArray,
        response_mentions: IntArray,
        matched: IntArray,
        mentions: MentionSource = FACTORY,
        response_cells: IntArray | None = None,
        solve: GridSolver = solve_grids,
    ) -> None:
        self.__dict__.update(
            n_docs=n_docs,
            rows=rows,
            cols=cols,
            counts=counts,
            doc=doc,
            key_sizes=key_sizes,
            response_sizes=response_sizes,
            key_doc=key_doc,
            response_doc=response_doc,
            key_mentions=key_mentions,
            response_mentions=response_mentions,
            matched=matched,
            mentions=MentionSource() if mentions is FACTORY else mentions,
            response_cells=response_cells,
            solve=solve,
        )

    __repr__ = field_repr
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    @cached_property
    def components(self) -> Components:
        """The CEAF decomposition, shared by CEAFm and CEAFe."""
        return components(self)

    @cached_property
    def blocks(self) -> Blocks:
        """The CEAF decomposition of a stack of one, as the per-document solver takes it (cheaper
        than :attr:`components` for one small document)."""
        return blocks(self.rows, self.cols, self.key_sizes.size)

    def per_doc(self, which: IntArray, weights: np.ndarray | None = None) -> np.ndarray:
        """Sum of ``weights`` (or a count) per document; exact for integer values."""
        return np.bincount(which, weights=weights, minlength=self.n_docs)

    def documents(self, d: int) -> Pair:
        """Document ``d``'s key and response, as they were matched (after mention selection)."""
        return self.mentions.documents(d)

    def alignment(self, d: int) -> Alignment:
        """Document ``d``'s mention matching: which key row and response row share a mention id."""
        return self.mentions.alignment(d)

    @classmethod
    def of_alignments(cls, alignments: Sequence[Alignment], pairs: Sequence[Pair] | None = None) -> Cells:
        """The cells of aligned documents without repeated ids (``pairs``: the documents the
        alignments' rows refer to, for metrics that read mentions)."""
        tables = [a.contingency for a in alignments]
        n_key_ids = np.fromiter((a.n_key_ids for a in alignments), dtype=np.int64, count=len(alignments))
        n_response_ids = np.fromiter((a.n_response_ids for a in alignments), dtype=np.int64, count=len(alignments))
        n_matched = np.fromiter((a.n_matched for a in alignments), dtype=np.int64, count=len(alignments))
        source = MentionSource(pairs.__getitem__ if pairs is not None else None, list(alignments).__getitem__)
        sizes = np.fromiter((t.counts.size for t in tables), dtype=np.int64, count=len(tables))
        offsets = (np.cumsum(sizes) - sizes).tolist()
        found = _concat([_found_cells(a, t) + o for a, t, o in zip(alignments, tables, offsets)])
        return cls.of_tables(tables, n_key_ids, n_response_ids, n_matched, source, found)

    @classmethod
    def of_tables(
        cls,
        tables: Sequence[Contingency],
        key_mentions: IntArray,
        response_mentions: IntArray,
        matched: IntArray,
        mentions: MentionSource | None = None,
        response_cells: IntArray | None = None,
        solve: GridSolver = solve_grids,
    ) -> Cells:
        """The cells of documents given by their contingency tables and mention counts
        (``response_cells`` and ``solve``: see :class:`Cells`)."""
        n = len(tables)
        key_n = np.fromiter((t.key_sizes.size for t in tables), dtype=np.int64, count=n)
        response_n = np.fromiter((t.response_sizes.size for t in tables), dtype=np.int64, count=n)
        cells_n = np.fromiter((t.counts.size for t in tables), dtype=np.int64, count=n)
        key_offset, response_offset = np.cumsum(key_n) - key_n, np.cumsum(response_n) - response_n
        doc = np.repeat(np.arange(n, dtype=np.int64), cells_n)
        if n == 1:
            t = tables[0]
            rows, cols, counts, key_sizes, response_sizes = t.rows, t.cols, t.counts, t.key_sizes, t.response_sizes
        else:
            rows = _concat([t.rows for t in tables]) + key_offset[doc]
            cols = _concat([t.cols for t in tables]) + response_offset[doc]
            counts = _concat([t.counts for t in tables])
            key_sizes = _concat([t.key_sizes for t in tables])
            response_sizes = _concat([t.response_sizes for t in tables])
        return cls(
            n_docs=n,
            rows=rows.astype(np.int64, copy=False),
            cols=cols.astype(np.int64, copy=False),
            counts=counts,
            doc=doc,
            key_sizes=key_sizes,
            response_sizes=response_sizes,
            key_doc=np.repeat(np.arange(n, dtype=np.int64), key_n),
            response_doc=np.repeat(np.arange(n, dtype=np.int64), response_n),
            key_mentions=np.asarray(key_mentions, dtype=np.int64),
            response_mentions=np.asarray(response_mentions, dtype=np.int64),
            matched=np.asarray(matched, dtype=np.int64),
            mentions=mentions or MentionSource(),
            response_cells=response_cells,
            solve=solve,
        )


def _found_cells(a: Alignment, table: Contingency) -> IntArray:
    """The cell (in ``table``) of each response mention of ``a`` found in the key, in ``a``'s
    response order: by entity, then row."""
    found = a.response_id < a.n_key_ids
    entity_of_id = np.empty(a.n_key_ids, dtype=np.int64)
    entity_of_id[a.key_id] = a.key_entity
    width = max(table.response_sizes.size, 1)
    codes = entity_of_id[a.response_id[found]] * width + a.response_entity[found]
    return np.searchsorted(table.rows * width + table.cols, codes)


def parted_documents(documents: Sequence[Document]) -> np.ndarray:
    """Which of ``documents`` have discontinuous mentions (``parts``)."""
    return np.fromiter(map(bool, map(_parts_of, documents)), dtype=bool, count=len(documents))


_parts_of = attrgetter("parts")


def _concat(arrays: list[np.ndarray]) -> IntArray:
    return np.concatenate(arrays).astype(np.int64, copy=False) if arrays else np.zeros(0, dtype=np.int64)


@dataclass(init=False, repr=False, eq=False)
class Stacked:
    """One side (key or response) of many documents: their rows concatenated, document by document,
    with how many rows each document has (``parted``: which documents have discontinuous mentions,
    when known). Frozen; its methods are written out, not generated (see
    :mod:`corefeval.core.dataclass_methods`)."""

    starts: IntArray
    ends: IntArray
    entities: IntArray
    lengths: IntArray
    parted: np.ndarray | None = None

    def __init__(
        self, starts: IntArray, ends: IntArray, entities: IntArray, lengths: IntArray, parted: np.ndarray | None = None
    ) -> None:
        self.__dict__.update(starts=starts, ends=ends, entities=entities, lengths=lengths, parted=parted)

    __repr__ = field_repr
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    @classmethod
    def of(cls, documents: Sequence[Document]) -> Stacked:
        viewed = stacked_rows(documents)
        if viewed is not None:  # views of one file's columns: taken from them, not document by document
            columns, index = viewed
            rows, lengths = columns.rows(index)
            s, e, k = (np.array(c[rows], dtype=np.int64) for c in (columns.starts, columns.ends, columns.entities))
            return cls(s, e, k, lengths, np.zeros(len(documents), dtype=bool))  # views have no parts
        starts = [d.starts for d in documents]
        sizes = np.fromiter(map(len, starts), dtype=np.int64, count=len(documents))
        ends, entities = [d.ends for d in documents], [d.entities for d in documents]
        return cls(_concat(starts), _concat(ends), _concat(entities), sizes, parted_documents(documents))

    @cached_property
    def doc(self) -> IntArray:
        """Each row's document."""
        return np.repeat(np.arange(self.lengths.size), self.lengths)

    def document(self, d: int) -> Document:
        """Document ``d`` of the stack (nameless, its entities numbered as given)."""
        start = int(self.lengths[:d].sum())
        stop = start + int(self.lengths[d])
        return Document("", self.starts[start:stop], self.ends[start:stop], self.entities[start:stop])

    @cached_property
    def order(self) -> IntArray:
        """The rows sorted by document, start and end, ties in row order (a stable sort of their
        span codes): the order of span matching and of key digests."""
        return np.argsort(span_codes([(self.starts, self.ends, self.lengths)])[0], kind="stable")


def entity_numbers(doc: IntArray, entities: IntArray, spans: IntArray) -> tuple[IntArray, IntArray]:
    """Corpus-wide dense entity number of each row (keeping each document's entity order) and each
    entity's document; ``spans[d]`` bounds document ``d``'s entity ids."""
    offsets = np.cumsum(spans) - spans
    raw = offsets[doc] + entities
    present = np.bincount(raw, minlength=int(spans.sum())) > 0
    number = np.cumsum(present) - 1
    entity_doc = np.repeat(np.arange(spans.size), spans)[present]
    return number[raw], entity_doc


def segment_max(values: IntArray, lengths: IntArray, floor: IntArray) -> IntArray:
    """Per segment (consecutive runs of ``lengths``), the larger of ``floor`` and its largest value."""
    out = floor.copy()
    full = lengths > 0
    if full.any():
        starts = (np.cumsum(lengths) - lengths)[full]
        out[full] = np.maximum(out[full], np.maximum.reduceat(values, starts))
    return out


def _distinct_counts(values: IntArray) -> tuple[IntArray, IntArray]:
    """``np.unique(values, return_counts=True)``, with a stable sort: the values come in documents
    whose ranges ascend, which the stable sort's runs exploit (several times faster here)."""
    ordered = np.sort(values, kind="stable")
    first = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]]) if ordered.size else np.zeros(0, dtype=np.int64)
    return ordered[first], np.diff(np.r_[first, ordered.size])


def build_cells(pairs: Sequence[Pair], sides: tuple[Stacked, Stacked] | None = None) -> tuple[Cells, np.ndarray]:
    """The cells of every document, and a mask of the documents they do not cover (a mention id
    repeats, or mentions are discontinuous): those documents' entries in ``Cells`` are empty.
    ``sides``: the pairs' key and response documents stacked, if at hand."""
    key, response = (
        sides if sides is not None else (Stacked.of([k for k, _ in pairs]), Stacked.of([r for _, r in pairs]))
    )
    return stacked_cells(key, response, _parted(key, pairs, 0) | _parted(response, pairs, 1), pairs)


def _parted(side: Stacked, pairs: Sequence[Pair], i: int) -> np.ndarray:
    """Which documents of one side (``i``: 0 the key, 1 the response) of ``pairs`` have parts."""
    return side.parted if side.parted is not None else parted_documents([pair[i] for pair in pairs])


def stacked_cells(
    key: Stacked, response: Stacked, skip: np.ndarray, pairs: Sequence[Pair] | None = None
) -> tuple[Cells, np.ndarray]:
    """:func:`build_cells` of documents given stacked; ``skip`` marks documents not to count (their
    rows may be empty), and is returned with the documents where a mention id repeats added.
    ``pairs``: the documents themselves, if at hand (else they are rebuilt from the stacks when a
    metric asks for them)."""
    n = skip.size
    skip = skip.copy()
    k_len, r_len = key.lengths, response.lengths
    k_doc, r_doc = key.doc, response.doc
    ks, ke, kent = key.starts, key.ends, key.entities
    rs, re_, rent = response.starts, response.ends, response.entities

    # One exact code per (document, start, end), shared by both sides.
    kc, rc = span_codes([(ks, ke, k_len), (rs, re_, r_len)])

    # Documents where an id repeats: equal codes are always in one document. Both sides' rows are
    # taken in span order (a code orders rows as their own side's order does).
    k_order, r_order = key.order, response.order
    for codes, doc, order in ((kc, k_doc, k_order), (rc, r_doc, r_order)):
        in_order = codes[order]
        skip[doc[order[np.flatnonzero(in_order[1:] == in_order[:-1])]]] = True
    if skip.any():
        keep_k, keep_r = ~skip[k_doc], ~skip[r_doc]
        k_order = (np.cumsum(keep_k) - 1)[k_order[keep_k[k_order]]]
        r_order = (np.cumsum(keep_r) - 1)[r_order[keep_r[r_order]]]
        kc, k_doc, kent = kc[keep_k], k_doc[keep_k], kent[keep_k]
        rc, r_doc, rent = rc[keep_r], r_doc[keep_r], rent[keep_r]
    # Response spans looked up among the key's, both in span order (so each search starts near the last).
    sorted_codes, queries = kc[k_order], rc[r_order]
    pos = np.searchsorted(sorted_codes, queries)
    clipped = np.minimum(pos, max(sorted_codes.size - 1, 0))
    hit = (pos < sorted_codes.size) & (sorted_codes[clipped] == queries) if sorted_codes.size else pos < 0
    mentions = MentionSource(pairs.__getitem__ if pairs is not None else _rebuilt(key, response))
    return matched_cells(n, (k_doc, kent), (r_doc, rent), (r_order[hit], k_order[pos[hit]]), mentions), skip


def matched_cells(
    n: int,
    key: tuple[IntArray, IntArray],
    response: tuple[IntArray, IntArray],
    found: tuple[IntArray, IntArray],
    mentions: MentionSource,
) -> Cells:
    """The cells of ``n`` documents whose mentions are matched one to one: ``key`` and ``response``
    give each row's document and entity (rows of a document together, documents in order; a larger
    entity id comes later in its document's order), ``found`` the response rows found in the key
    and the key row each one is (every row is a mention of its own: no id repeats)."""
    k_doc, kent = key
    r_doc, rent = response
    found_rows, partner = found
    k_len, r_len = np.bincount(k_doc, minlength=n), np.bincount(r_doc, minlength=n)
    k_entity, key_doc = entity_numbers(k_doc, kent, segment_max(kent + 1, k_len, np.zeros(n, dtype=np.int64)))
    r_entity, response_doc = entity_numbers(r_doc, rent, segment_max(rent + 1, r_len, np.zeros(n, dtype=np.int64)))
    n_cols = max(response_doc.size, 1)
    codes = k_entity[partner] * n_cols + r_entity[found_rows]
    cells, counts = _distinct_counts(codes)
    rows, cols = cells // n_cols, cells % n_cols
    in_order = np.lexsort((found_rows, r_entity[found_rows]))  # by response entity, then row
    return Cells(
        n_docs=n,
        rows=rows,
        cols=cols,
        counts=counts,
        doc=key_doc[rows],
        key_sizes=np.bincount(k_entity, minlength=key_doc.size),
        response_sizes=np.bincount(r_entity, minlength=response_doc.size),
        key_doc=key_doc,
        response_doc=response_doc,
        key_mentions=k_len,
        response_mentions=r_len,
        matched=np.bincount(r_doc[found_rows], minlength=n),
        mentions=mentions,
        response_cells=np.searchsorted(cells, codes[in_order]),
    )


def _rebuilt(key: Stacked, response: Stacked) -> Callable[[int], Pair]:
    return lambda d: (key.document(d), response.document(d))
