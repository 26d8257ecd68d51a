"""Per-document checks and digests of many documents in one pass."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter
from typing import Any

import numpy as np

from ...core.model import Document
from ...core.spancodes import MAX_CODE
from ...matching.cells import Stacked, entity_numbers, parted_documents, segment_max
from ...readers.validate import crossing_pairs


def crossing_documents(documents: Sequence[Document], side: Stacked | None = None) -> np.ndarray:
    """Which documents may have a mention crossing another (overlapping without nesting), found in
    one pass: the documents are laid end to end on one token line (so no mention reaches into the
    next document) and :func:`corefeval.readers.validate.crossing_pairs` runs once. Documents with
    discontinuous mentions are always marked, for their own check. ``side``: the documents stacked,
    if at hand."""
    n = len(documents)
    side = side if side is not None else Stacked.of(documents)
    out = (side.parted if side.parted is not None else parted_documents(documents)).copy()
    highest = segment_max(side.ends, side.lengths, np.zeros(n, dtype=np.int64))
    if (side.starts.size and side.starts.min() < 0) or float((highest.astype(float) + 2).sum()) >= MAX_CODE:
        return np.ones(n, dtype=bool)  # offsets that one token line cannot hold: each document alone
    doc = side.doc
    width = highest + 2
    base = np.cumsum(width) - width
    pairs = crossing_pairs(base[doc] + side.starts, base[doc] + side.ends)
    out[doc[[a for a, _ in pairs]]] = True
    return out


#: Below this many bytes to hash, digests are made by CPython's own SHA-256 module, which loads in a
#: tenth of a millisecond; from it up, by OpenSSL's through :mod:`hashlib`, which takes about four
#: milliseconds to load (a tenth of a small run's time past numpy's import) and hashes ten times
#: faster a byte. The digests are the same.
OWN_SHA256_BELOW = 1 << 18


def sha256_for(size: int) -> Callable[[bytes], Any]:
    """The SHA-256 constructor quickest for hashing about ``size`` bytes in all, loading included."""
    own = _own_sha256() if size < OWN_SHA256_BELOW else None
    if own is not None:
        return own
    from hashlib import sha256

    return sha256


@cache
def _own_sha256() -> Callable[[bytes], Any] | None:
    """CPython's own SHA-256 (module ``_sha256`` to 3.11, ``_sha2`` from 3.12), if this Python has it."""
    for name in ("_sha256", "_sha2"):
        try:
            return importlib.import_module(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    return None


def document_digest(d: Document) -> bytes:
    """A hash of a document's name and partition, independent of file format, row order and labels."""
    order = np.lexsort((d.ends, d.starts))
    ents = d.entities[order]
    _, first = np.unique(ents, return_index=True)
    relabel = np.zeros(int(ents.max()) + 1 if ents.size else 0, dtype=np.int64)
    relabel[ents[np.sort(first)]] = np.arange(first.size)
    rows = np.ascontiguousarray(np.stack([d.starts[order], d.ends[order], relabel[ents]])).tobytes()
    h = sha256_for(len(rows))(d.name.encode("utf-8") + b"\0")
    h.update(rows)
    if d.parts:  # discontinuous mentions and zeros: their exact words
        h.update(repr(sorted((words, int(relabel[d.entities[row]])) for row, words in d.parts.items())).encode())
    return h.digest()


def document_digests(documents: Sequence[Document], side: Stacked | None = None) -> list[bytes]:
    """:func:`document_digest` of every document: the sorting and relabelling of all documents in
    one pass, then one hash per document (``side``: the documents stacked, if at hand)."""
    if len(documents) < 2:
        return [document_digest(d) for d in documents]
    side = side if side is not None else Stacked.of(documents)
    out = stacked_digests(list(map(_name_of, documents)), side)
    parted = side.parted if side.parted is not None else parted_documents(documents)
    for d in np.flatnonzero(parted).tolist():
        out[d] = document_digest(documents[d])
    return out


def stacked_digests(names: Sequence[str], side: Stacked) -> list[bytes]:
    """:func:`document_digest` of documents given stacked (without discontinuous mentions)."""
    n, lengths = len(names), side.lengths
    doc, starts, ends, entities = side.doc, side.starts, side.ends, side.entities
    order = side.order
    spans = segment_max(entities + 1, lengths, np.zeros(n, dtype=np.int64))
    number, entity_doc = entity_numbers(doc, entities[order], spans)
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
    sha = sha256_for(len(raw))
    edges = zip(names, (24 * offsets).tolist(), (24 * (offsets + lengths)).tolist())
    return [sha(name.encode("utf-8") + b"\0" + raw[a:b]).digest() for name, a, b in edges]


_name_of = attrgetter("name")
