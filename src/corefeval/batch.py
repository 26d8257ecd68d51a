"""Count many documents at once: the per-document count rows of a corpus in a few numpy passes.

Scoring one small document at a time costs more in Python and numpy call overhead than in
arithmetic. Here the documents are concatenated: every mention gets a corpus-wide code (document,
start, end), every entity a corpus-wide number (entities of one document are consecutive), exact
spans are matched by one sort and ``searchsorted``, the key x response contingency cells of all
documents come from one ``np.unique``, and each metric's counts are summed per document with
``np.bincount``. Only CEAF components with two rows and two columns or more are solved one by one,
with the same solver as :mod:`corefeval.metrics.ceaf`.

The rows equal :func:`corefeval.scoring.document_counts` of :func:`corefeval.alignment.align` to
the last bit: integer counts are exact in any order, and every fractional sum is computed in
numpy's own order for ``ndarray.sum`` (:func:`segment_sums`). Documents in which a mention id
repeats (a repeated key span, a response span given twice) and documents with discontinuous
mentions are not counted here: :func:`count_rows` marks them, and :func:`document_rows` counts
them through the per-document path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .alignment import align
from .assignment import component_labels, grid_weight
from .metrics.base import Metric
from .model import Document

IntArray = np.ndarray
Pair = tuple[Document, Document]

_UNROLL = 8  # numpy's pairwise summation: 8 partial sums per block ...
_BLOCK = 128  # ... of at most 128 elements; longer runs are halved (at a multiple of 8)
_MAX_CODE = 2**62


def segment_sums(values: np.ndarray, segments: IntArray, n: int) -> np.ndarray:
    """``values[segments == s].sum()`` for every ``s < n``, bit for bit, in one pass.

    ``segments`` must be sorted. ``ndarray.sum`` adds pairwise (runs under 8 elements in order;
    up to 128 elements in 8 interleaved partial sums; longer runs as the sum of two halves), so a
    plain per-segment ``bincount`` would differ from it in the last bit; this repeats its order.
    """
    lengths = np.bincount(segments, minlength=n)
    starts = np.zeros(n, dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    return _pairwise(np.asarray(values, dtype=float), starts, lengths)


def _pairwise(x: np.ndarray, starts: IntArray, lengths: IntArray) -> np.ndarray:
    out = np.zeros(lengths.size)
    long = lengths > _BLOCK
    out[~long] = _blocks(x, starts[~long], lengths[~long])
    if long.any():
        s, n = starts[long], lengths[long]
        half = n // 2
        half -= half % _UNROLL
        out[long] = _pairwise(x, s, half) + _pairwise(x, s + half, n - half)
    return out


def _ranges(starts: IntArray, lengths: IntArray) -> tuple[IntArray, IntArray]:
    """For runs ``[start, start + length)``: each element's run number and offset in its run."""
    run = np.repeat(np.arange(starts.size), lengths)
    first = np.cumsum(lengths) - lengths
    return run, np.arange(run.size) - first[run]


def _blocks(x: np.ndarray, starts: IntArray, lengths: IntArray) -> np.ndarray:
    """Sums of runs of at most 128 elements, in numpy's order."""
    out = np.zeros(lengths.size)
    short = lengths < _UNROLL
    if short.any():
        run, offset = _ranges(starts[short], lengths[short])
        out[short] = np.bincount(run, weights=x[starts[short][run] + offset], minlength=int(short.sum()))
    if not short.all():
        s, n = starts[~short], lengths[~short]
        main = n - n % _UNROLL
        run, offset = _ranges(s, main)
        bins = run * _UNROLL + offset % _UNROLL
        r = np.bincount(bins, weights=x[s[run] + offset], minlength=s.size * _UNROLL).reshape(s.size, _UNROLL)
        total = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + ((r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7]))
        for j in range(_UNROLL - 1):
            more = n % _UNROLL > j
            total[more] += x[s[more] + main[more] + j]
        out[~short] = total
    return out


@dataclass(frozen=True)
class Cells:
    """The contingency cells of many documents, with corpus-wide entity numbers.

    ``rows``/``cols`` are key/response entities (a document's entities are consecutive, documents
    in order), sorted by (row, col) as each document's own table is; ``doc`` is each cell's
    document; ``key_doc``/``response_doc`` each entity's document.
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

    @cached_property
    def components(self) -> Components:
        """The CEAF decomposition, shared by CEAFm and CEAFe."""
        return components(self)

    def per_doc(self, which: IntArray, weights: np.ndarray | None = None) -> np.ndarray:
        """Sum of ``weights`` (or a count) per document; exact for integer values."""
        return np.bincount(which, weights=weights, minlength=self.n_docs)


def _concat(arrays: list[np.ndarray]) -> IntArray:
    return np.concatenate(arrays).astype(np.int64, copy=False) if arrays else np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class Stacked:
    """One side (key or response) of many documents: their rows concatenated, document by document,
    with how many rows each document has."""

    starts: IntArray
    ends: IntArray
    entities: IntArray
    lengths: IntArray

    @classmethod
    def of(cls, documents: Sequence[Document]) -> Stacked:
        lengths = np.fromiter((d.starts.shape[0] for d in documents), dtype=np.int64, count=len(documents))
        starts, ends, entities = (_concat([getattr(d, f) for d in documents]) for f in ("starts", "ends", "entities"))
        return cls(starts, ends, entities, lengths)

    @property
    def doc(self) -> IntArray:
        """Each row's document."""
        return np.repeat(np.arange(self.lengths.size), self.lengths)


def _entity_numbers(doc: IntArray, entities: IntArray, spans: IntArray) -> tuple[IntArray, IntArray]:
    """Corpus-wide dense entity number of each row (keeping each document's entity order) and each
    entity's document; ``spans[d]`` bounds document ``d``'s entity ids."""
    offsets = np.cumsum(spans) - spans
    raw = offsets[doc] + entities
    present = np.bincount(raw, minlength=int(spans.sum())) > 0
    number = np.cumsum(present) - 1
    entity_doc = np.repeat(np.arange(spans.size), spans)[present]
    return number[raw], entity_doc


def _segment_max(values: IntArray, lengths: IntArray, floor: IntArray) -> IntArray:
    """Per segment (consecutive runs of ``lengths``), the larger of ``floor`` and its largest value."""
    out = floor.copy()
    full = lengths > 0
    if full.any():
        starts = (np.cumsum(lengths) - lengths)[full]
        out[full] = np.maximum(out[full], np.maximum.reduceat(values, starts))
    return out


def build_cells(pairs: Sequence[Pair]) -> tuple[Cells | None, np.ndarray]:
    """The cells of every document, and a mask of the documents they do not cover (a mention id
    repeats, or mentions are discontinuous): those documents' entries in ``Cells`` are empty.
    ``None`` when no document is covered (or offsets are negative or too large to code)."""
    n = len(pairs)
    n_tokens = np.fromiter((max(k.n_tokens, r.n_tokens) for k, r in pairs), dtype=np.int64, count=n)
    skip = np.fromiter((bool(k.parts or r.parts) for k, r in pairs), dtype=bool, count=n)
    return stacked_cells(Stacked.of([k for k, _ in pairs]), Stacked.of([r for _, r in pairs]), n_tokens, skip)


def stacked_cells(
    key: Stacked, response: Stacked, n_tokens: IntArray, skip: np.ndarray
) -> tuple[Cells | None, np.ndarray]:
    """:func:`build_cells` of documents given stacked; ``skip`` marks documents not to count (their
    rows may be empty), and is returned with the documents where a mention id repeats added."""
    n = n_tokens.size
    skip = skip.copy()
    k_len, r_len = key.lengths, response.lengths
    k_doc, r_doc = key.doc, response.doc
    ks, ke, kent = key.starts, key.ends, key.entities
    rs, re_, rent = response.starts, response.ends, response.entities

    # One code per (document, start, end): start * width + end within a document's own range.
    highest = n_tokens
    for lengths, values in ((k_len, ks), (k_len, ke), (r_len, rs), (r_len, re_)):
        highest = _segment_max(values, lengths, highest)
    width = highest + 1
    span = width * width
    if (ks.size and min(ks.min(), ke.min()) < 0) or (rs.size and min(rs.min(), re_.min()) < 0):
        return None, np.ones(n, dtype=bool)
    if float(span.astype(float).sum()) >= _MAX_CODE:
        return None, np.ones(n, dtype=bool)
    base = np.cumsum(span) - span
    kc = base[k_doc] + ks * width[k_doc] + ke
    rc = base[r_doc] + rs * width[r_doc] + re_

    # Documents where an id repeats: equal codes are always in one document.
    k_order = np.argsort(kc, kind="stable")
    for codes, doc, order in ((kc, k_doc, k_order), (rc, r_doc, np.argsort(rc, kind="stable"))):
        same = np.flatnonzero(codes[order][1:] == codes[order][:-1])
        skip[doc[order][same]] = True
    if skip.any():
        keep_k, keep_r = ~skip[k_doc], ~skip[r_doc]
        k_order = (np.cumsum(keep_k) - 1)[k_order[keep_k[k_order]]]
        kc, k_doc, kent = kc[keep_k], k_doc[keep_k], kent[keep_k]
        rc, r_doc, rent = rc[keep_r], r_doc[keep_r], rent[keep_r]
    k_len, r_len = np.bincount(k_doc, minlength=n), np.bincount(r_doc, minlength=n)

    k_entity, key_doc = _entity_numbers(k_doc, kent, _segment_max(kent + 1, k_len, np.zeros(n, dtype=np.int64)))
    r_entity, response_doc = _entity_numbers(r_doc, rent, _segment_max(rent + 1, r_len, np.zeros(n, dtype=np.int64)))
    key_sizes = np.bincount(k_entity, minlength=key_doc.size)
    response_sizes = np.bincount(r_entity, minlength=response_doc.size)

    sorted_codes = kc[k_order]
    pos = np.searchsorted(sorted_codes, rc)
    clipped = np.minimum(pos, max(sorted_codes.size - 1, 0))
    hit = (pos < sorted_codes.size) & (sorted_codes[clipped] == rc) if sorted_codes.size else pos < 0
    n_cols = max(response_doc.size, 1)
    cells, counts = np.unique(k_entity[k_order[pos[hit]]] * n_cols + r_entity[hit], return_counts=True)
    rows, cols = cells // n_cols, cells % n_cols
    return (
        Cells(
            n_docs=n,
            rows=rows,
            cols=cols,
            counts=counts,
            doc=key_doc[rows],
            key_sizes=key_sizes,
            response_sizes=response_sizes,
            key_doc=key_doc,
            response_doc=response_doc,
            key_mentions=k_len,
            response_mentions=r_len,
            matched=np.bincount(r_doc[hit], minlength=n),
        ),
        skip,
    )


def _pairs(n: np.ndarray) -> np.ndarray:
    return n * (n - 1) / 2


def _mentions(c: Cells) -> list[np.ndarray]:
    return [c.matched, c.key_mentions, c.matched, c.response_mentions]


def _muc(c: Cells) -> list[np.ndarray]:
    correct = c.per_doc(c.doc, c.counts.astype(float)) - c.per_doc(c.doc)
    key_links = c.key_mentions - c.per_doc(c.key_doc)
    response_links = c.response_mentions - c.per_doc(c.response_doc)
    return [correct, key_links, correct, response_links]


def _bcubed(c: Cells) -> list[np.ndarray]:
    sq = c.counts.astype(float) ** 2
    recall = segment_sums(sq / c.key_sizes[c.rows], c.doc, c.n_docs)
    precision = segment_sums(sq / c.response_sizes[c.cols], c.doc, c.n_docs)
    return [recall, c.key_mentions, precision, c.response_mentions]


def _blanc(c: Cells) -> list[np.ndarray]:
    n = c.counts.astype(float)
    key_links = c.per_doc(c.key_doc, _pairs(c.key_sizes.astype(float)))
    response_links = c.per_doc(c.response_doc, _pairs(c.response_sizes.astype(float)))
    both_links = c.per_doc(c.doc, _pairs(n))
    key_non = _pairs(c.key_mentions.astype(float)) - key_links
    response_non = _pairs(c.response_mentions.astype(float)) - response_links
    row_sums = np.bincount(c.rows, weights=n, minlength=c.key_sizes.size)
    col_sums = np.bincount(c.cols, weights=n, minlength=c.response_sizes.size)
    both_non = (
        _pairs(c.per_doc(c.doc, n))
        - c.per_doc(c.key_doc, _pairs(row_sums))
        - c.per_doc(c.response_doc, _pairs(col_sums))
        + both_links
    )
    unshared = c.key_mentions + c.response_mentions - 2 * c.matched
    return [both_links, key_links, both_links, response_links, both_non, key_non, both_non, response_non, unshared]


def _lea_side(c: Cells, sizes: IntArray, entity_doc: IntArray, index: IntArray) -> np.ndarray:
    """sum over one side's entities of |E| * resolution(E), per document (as metrics.lea._side)."""
    n = c.counts.astype(float)
    links_found = np.bincount(index, weights=n * (n - 1) / 2, minlength=sizes.size)
    s = sizes.astype(float)
    big = s > 1
    total = segment_sums(s[big] * links_found[big] / (s[big] * (s[big] - 1) / 2), entity_doc[big], c.n_docs)
    singles = (c.key_sizes[c.rows] == 1) & (c.response_sizes[c.cols] == 1) & (c.counts == 1)
    return total + c.per_doc(c.doc, singles.astype(float))


def _lea(c: Cells) -> list[np.ndarray]:
    recall = _lea_side(c, c.key_sizes, c.key_doc, c.rows)
    precision = _lea_side(c, c.response_sizes, c.response_doc, c.cols)
    return [recall, c.key_mentions, precision, c.response_mentions]


def _smallest_row(rows: IntArray, cols: IntArray, n_rows: int) -> IntArray:
    """Each cell's connected component, named by its smallest row (nodes: rows and ``n_rows + col``):
    every node takes the smallest label of its cells' nodes, with pointer jumping, until stable."""
    label = np.arange(n_rows + int(cols.max(initial=-1)) + 1, dtype=np.int64)
    col_nodes = n_rows + cols
    while True:
        cell = np.minimum(label[rows], label[col_nodes])
        new = label.copy()
        np.minimum.at(new, rows, cell)
        np.minimum.at(new, col_nodes, cell)
        new = new[new]
        if np.array_equal(new, label):
            return label[rows]
        label = new


@dataclass(frozen=True)
class Components:
    """The CEAF decomposition of all documents' cells (as :func:`corefeval.assignment.blocks`):
    cells alone in their row and column, and the other cells' components in the order each
    document's own :func:`~corefeval.assignment.max_matching` adds them."""

    simple: np.ndarray
    cells: IntArray  # the other cells, component by component
    first: IntArray  # each component's first position in ``cells``, in adding order
    ends: IntArray
    doc: IntArray
    lone: np.ndarray  # one row or one column: its best cell is its best matching


def components(c: Cells) -> Components:
    simple = (np.bincount(c.rows)[c.rows] == 1) & (np.bincount(c.cols)[c.cols] == 1)
    rest = np.flatnonzero(~simple)
    labels = _smallest_row(c.rows[rest], c.cols[rest], c.key_sizes.size)
    order = np.lexsort((labels, c.doc[rest]))
    cells, labels = rest[order], labels[order]
    starts = np.r_[True, labels[1:] != labels[:-1]] if cells.size else np.zeros(0, dtype=bool)
    first = np.flatnonzero(starts)
    comp = np.cumsum(starts) - 1
    rows, cols = c.rows[cells], c.cols[cells]
    new_row = np.r_[True, (rows[1:] != rows[:-1]) | (comp[1:] != comp[:-1])] if cells.size else starts
    n_rows = np.bincount(comp, weights=new_row, minlength=first.size)
    width = max(c.response_sizes.size, 1)
    pairs = np.sort(comp * width + cols)  # (plain np.unique would import numpy.ma, 40 ms)
    distinct = pairs[np.r_[True, pairs[1:] != pairs[:-1]]] if pairs.size else pairs
    n_cols = np.bincount(distinct // width, minlength=first.size)
    lone = (n_rows == 1) | (n_cols == 1)
    doc = c.doc[cells[first]] if cells.size else np.zeros(0, dtype=np.int64)
    # Where a document has three one-row/column components or two others, their adding order
    # changes the float: there, order them by the per-document union-find's labels.
    exact = (np.bincount(doc, weights=lone, minlength=c.n_docs) >= 3) | (
        np.bincount(doc, weights=~lone, minlength=c.n_docs) >= 2
    )
    key = labels[first]
    if exact.any():
        in_exact = np.sort(cells[exact[c.doc[cells]]])  # those documents' cells, in table order
        roots = component_labels(c.rows[in_exact], c.cols[in_exact], c.key_sizes.size)
        root_of_cell = np.zeros(c.rows.size, dtype=np.int64)
        root_of_cell[in_exact] = roots
        key = np.where(exact[doc], root_of_cell[cells[first]], key)
    adding = np.lexsort((key, doc))
    ends = np.r_[first[1:], cells.size].astype(np.int64)
    return Components(simple, cells, first[adding], ends[adding], doc[adding], lone[adding])


def _ceaf_best(c: Cells, weights: np.ndarray) -> np.ndarray:
    """Per document, the best one-to-one alignment weight, added as
    :func:`corefeval.assignment.max_matching` adds it: cells alone in their row and column, then
    one-row or one-column components (their best cell), then the other components solved."""
    parts = c.components
    total = segment_sums(weights[parts.simple], c.doc[parts.simple], c.n_docs)
    if not parts.cells.size:
        return total
    by_position = np.maximum.reduceat(weights[parts.cells], np.sort(parts.first))
    best = by_position[np.searchsorted(np.sort(parts.first), parts.first)]
    total = total + c.per_doc(parts.doc[parts.lone], best[parts.lone])
    for k in np.flatnonzero(~parts.lone).tolist():
        idx = parts.cells[parts.first[k] : parts.ends[k]]
        r_u, r_inv = np.unique(c.rows[idx], return_inverse=True)
        c_u, c_inv = np.unique(c.cols[idx], return_inverse=True)
        total[parts.doc[k]] += grid_weight((r_u.size, c_u.size), r_inv.reshape(-1), c_inv.reshape(-1), weights[idx])
    return total


def _ceafm(c: Cells) -> list[np.ndarray]:
    best = _ceaf_best(c, c.counts.astype(float))
    return [best, c.key_mentions, best, c.response_mentions]


def _ceafe(c: Cells) -> list[np.ndarray]:
    phi = 2.0 * c.counts.astype(float) / (c.key_sizes[c.rows] + c.response_sizes[c.cols])
    best = _ceaf_best(c, phi)
    return [best, c.per_doc(c.key_doc), best, c.per_doc(c.response_doc)]


_COLUMNS = {
    "mentions": _mentions,
    "muc": _muc,
    "bcub": _bcubed,
    "ceafm": _ceafm,
    "ceafe": _ceafe,
    "blanc": _blanc,
    "lea": _lea,
}


def count_rows(pairs: Sequence[Pair], metrics: Sequence[Metric]) -> tuple[np.ndarray, np.ndarray]:
    """The count rows (``len(pairs)`` x the metrics' fields) of the documents this pass covers, and
    a mask of the others, whose rows are zeros and must be counted one by one."""
    return _rows(*build_cells(pairs), len(pairs), metrics)


def count_stacked(
    key: Stacked, response: Stacked, n_tokens: IntArray, skip: np.ndarray, metrics: Sequence[Metric]
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`count_rows` of documents given stacked (``skip``: documents not to count)."""
    return _rows(*stacked_cells(key, response, n_tokens, skip), n_tokens.size, metrics)


def _rows(cells: Cells | None, skip: np.ndarray, n: int, metrics: Sequence[Metric]) -> tuple[np.ndarray, np.ndarray]:
    width = sum(len(m.fields) for m in metrics)
    if cells is None or skip.all():
        return np.zeros((n, width)), skip
    rows = np.zeros((n, width))
    j = 0
    for m in metrics:
        for column in _COLUMNS[m.name](cells):
            rows[:, j] = column
            j += 1
    rows[skip] = 0.0
    return rows, skip


def document_rows(pairs: Sequence[Pair], metrics: Sequence[Metric]) -> np.ndarray:
    """Every document's count row: the corpus-wide pass, and the per-document path where it must."""
    from .scoring import document_counts

    rows, skip = count_rows(pairs, metrics)
    for i in np.flatnonzero(skip).tolist():
        rows[i] = document_counts(metrics, align(*pairs[i]))
    return rows


def crossing_documents(documents: Sequence[Document]) -> np.ndarray:
    """Which documents may have a mention crossing another (overlapping without nesting), found in
    one pass: the documents are laid end to end on one token line (so no mention reaches into the
    next document) and :func:`corefeval.validate.crossing_pairs` runs once. Documents with
    discontinuous mentions are always marked, for their own check."""
    from .validate import crossing_pairs

    n = len(documents)
    out = np.fromiter((bool(d.parts) for d in documents), dtype=bool, count=n)
    side = Stacked.of(documents)
    if side.starts.size and side.starts.min() < 0:
        return np.ones(n, dtype=bool)
    doc = side.doc
    width = _segment_max(side.ends, side.lengths, np.zeros(n, dtype=np.int64)) + 2
    base = np.cumsum(width) - width
    pairs = crossing_pairs(base[doc] + side.starts, base[doc] + side.ends)
    out[doc[[a for a, _ in pairs]]] = True
    return out


def document_digests(documents: Sequence[Document]) -> list[bytes]:
    """:func:`corefeval.scoring.document_digest` of every document: the sorting and relabelling of
    all documents in one pass, then one hash per document."""
    from .scoring import document_digest

    out = stacked_digests([d.name for d in documents], Stacked.of(documents))
    return [document_digest(d) if d.parts else digest for d, digest in zip(documents, out)]


def stacked_digests(names: Sequence[str], side: Stacked) -> list[bytes]:
    """:func:`corefeval.scoring.document_digest` of documents given stacked (without
    discontinuous mentions)."""
    import hashlib

    n, lengths = len(names), side.lengths
    doc, starts, ends, entities = side.doc, side.starts, side.ends, side.entities
    # Rows sorted by document, start, end (ties in row order), as one integer key where it fits.
    width = _segment_max(np.maximum(starts, ends), lengths, np.zeros(n, dtype=np.int64)) + 1
    if starts.size and min(starts.min(), ends.min()) >= 0 and float((width.astype(float) ** 2).sum()) < _MAX_CODE:
        base = np.cumsum(width * width) - width * width
        order = np.argsort(base[doc] + starts * width[doc] + ends, kind="stable")
    else:
        order = np.lexsort((ends, starts, doc))
    spans = _segment_max(entities + 1, lengths, np.zeros(n, dtype=np.int64))
    number, entity_doc = _entity_numbers(doc, entities[order], spans)
    # Each document's entities renumbered in order of first appearance among its sorted mentions.
    first = np.full(entity_doc.size, number.size, dtype=np.int64)
    np.minimum.at(first, number, np.arange(number.size))
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    per_doc = np.bincount(entity_doc, minlength=n)
    relabel = rank[number] - (np.cumsum(per_doc) - per_doc)[doc]
    offsets = np.cumsum(lengths) - lengths
    at = 3 * offsets[doc] + np.arange(doc.size) - offsets[doc]
    table = np.empty(3 * doc.size, dtype=np.int64)
    table[at] = starts[order]
    table[at + lengths[doc]] = ends[order]
    table[at + 2 * lengths[doc]] = relabel
    raw = table.tobytes()
    out = []
    for name, start, length in zip(names, (24 * offsets).tolist(), (24 * lengths).tolist()):
        h = hashlib.sha256(name.encode("utf-8") + b"\0")
        h.update(raw[start : start + length])
        out.append(h.digest())
    return out
