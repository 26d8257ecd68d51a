"""Documents built from clusters of token spans, put in the order a CoNLL-2012 file gives them.

Clusters (jsonlines, JSON predictions, the in-memory :class:`~corefeval.Evaluator`, ...) say which
spans form an entity, not in which order a scorer meets them; where a span repeats, that order
decides numbers (a mention is looked up in the last entity holding it, a repeated response span
is kept in the entity seen first), and fractional sums add in it. The reference scorer reads a
CoNLL-2012 file token by token: it numbers an entity when it first meets one of its mentions
opening (at one token, one-token mentions first, then longer mentions before shorter ones) and
adds a mention to its entity when it closes (at one token, one-token mentions first, then inner
mentions before outer ones). Every door that builds documents from clusters numbers entities and
orders each entity's mentions so here (ties in the given order), so that it gives the numbers of
the same clusters written as CoNLL-2012. Rows stay grouped by entity, entity after entity: only the
order within an entity and the entities' numbers change a count, and clusters given in that order
(as a file's documents give them) are taken as they are, without a sort.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from .model import Document
from .spancodes import MAX_CODE, span_codes

IntArray = np.ndarray


def reading_order(
    starts: IntArray, ends: IntArray, entities: IntArray, lengths: IntArray | None = None
) -> tuple[IntArray, IntArray]:
    """The rows of documents laid end to end (``lengths[d]`` rows each; ``None``: one document) in
    reading order, and the entity of each row so ordered, renumbered by first opening (from 0 in
    each document, as ``entities`` are numbered). Ties (a span in two entities, two mentions of
    one entity on one span) keep the given order."""
    n = starts.size
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    lengths = np.array([n], dtype=np.int64) if lengths is None else lengths
    doc = np.repeat(np.arange(lengths.size), lengths)
    width = ends - starts
    # Opening: by start token, then one-token mentions, then longer mentions before shorter ones.
    # Closing: by end token, then inner mentions first (one-token ones are the innermost).
    shortness = width.max() - width + 1  # no overflow where it is kept: width > 0
    shortness[width == 0] = 0
    opening, closing = _codes(doc, lengths, (starts, shortness), (ends, width))
    number = _numbers(doc, entities, opening, lengths)
    order = np.arange(n) if not np.any(number[1:] < number[:-1]) else np.argsort(number, kind="stable")
    ordered = closing[order]
    if np.any((ordered[1:] < ordered[:-1]) & (number[order][1:] == number[order][:-1])):
        order = np.argsort(closing, kind="stable")  # some entity's mentions are not in closing order
        order = order[np.argsort(number[order], kind="stable")]
    full = lengths > 0
    lowest = np.zeros(lengths.size, dtype=np.int64)
    lowest[full] = np.minimum.reduceat(number, (np.cumsum(lengths) - lengths)[full])
    return order, number[order] - lowest[doc]  # the order keeps each row's document


def _codes(doc: IntArray, lengths: IntArray, *pairs: tuple[IntArray, IntArray]) -> list[IntArray]:
    """One code per row for each ``(first, second)`` pair of columns (non-negative), ordered as
    (document, first, second) are: arithmetic where it fits in 62 bits, else exact ranks."""
    top = max(int(a.max()) for pair in pairs for a in pair) + 1
    if float(lengths.size) * top * top < MAX_CODE:
        return [(doc * top + a) * top + b for a, b in pairs]
    return span_codes([(a, b, lengths) for a, b in pairs])


def _numbers(doc: IntArray, entities: IntArray, opening: IntArray, lengths: IntArray) -> IntArray:
    """Each row's entity numbered corpus-wide by first opening (documents in order, as the
    ``opening`` codes order them; ties in the given numbering)."""
    spans = np.zeros(lengths.size, dtype=np.int64)
    full = lengths > 0
    spans[full] = np.maximum.reduceat(entities, (np.cumsum(lengths) - lengths)[full]) + 1
    entity = (np.cumsum(spans) - spans)[doc] + entities
    first = np.full(int(spans.sum()), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, entity, opening)
    present = np.flatnonzero(first < np.iinfo(np.int64).max)  # in the given numbering
    if np.any(first[present[1:]] < first[present[:-1]]):
        present = present[np.argsort(first[present], kind="stable")]
    rank = np.zeros(first.size, dtype=np.int64)
    rank[present] = np.arange(present.size)
    return rank[entity]


def in_reading_order(doc: Document) -> Document:
    """``doc`` (rows of token spans in any order, entities numbered in any order) with its rows in
    reading order and its entities numbered by first opening; every row's other fields (lines,
    heads, discontinuous parts) and each entity's label follow it."""
    order, entities = reading_order(doc.starts, doc.ends, doc.entities)
    if np.array_equal(order, np.arange(order.size)) and np.array_equal(entities, doc.entities):
        return doc
    labels = doc.labels
    if labels:
        old = np.empty(int(entities.max()) + 1, dtype=np.int64)
        old[entities] = doc.entities[order]
        labels = tuple(labels[k] for k in old.tolist())
    new_row = np.empty(order.size, dtype=np.int64)
    new_row[order] = np.arange(order.size)
    return dataclasses.replace(
        doc,
        starts=doc.starts[order],
        ends=doc.ends[order],
        entities=entities,
        labels=labels,
        lines=doc.lines[order] if doc.lines is not None and doc.lines.size == order.size else doc.lines,
        heads=doc.heads[order] if doc.heads is not None and doc.heads.size == order.size else doc.heads,
        parts={int(new_row[row]): words for row, words in doc.parts.items()},
    )


def clusters_document(
    name: str, starts: Sequence[int], ends: Sequence[int], entities: Sequence[int], n_tokens: int, **fields: Any
) -> Document:
    """A document from the rows of clusters (a token span and its entity each, in any order) in
    reading order: the one builder of the readers that take clusters (``fields``: the document's
    other fields, ``lines`` as a sequence of row line numbers)."""
    if "lines" in fields:
        fields["lines"] = np.asarray(fields["lines"], dtype=np.int64)
    return in_reading_order(
        Document(
            name=name,
            starts=np.asarray(starts, dtype=np.int64),
            ends=np.asarray(ends, dtype=np.int64),
            entities=np.asarray(entities, dtype=np.int64),
            n_tokens=n_tokens,
            **fields,
        )
    )
