"""Documents built from clusters of token spans, put in the order a CoNLL-2012 file gives them.

Clusters (jsonlines, JSON predictions, the in-memory :class:`~corefeval.Evaluator`, ...) say which
spans form an entity, not in which order a scorer meets them; where a span repeats, that order
decides numbers (a mention is looked up in the last entity holding it, a repeated response span
is kept in the entity seen first), and fractional sums add in it. The reference scorer reads a
CoNLL-2012 file token by token: it numbers an entity when it first meets one of its mentions
opening (at one token, one-token mentions first, then longer mentions before shorter ones) and
records a mention when it closes (at one token, one-token mentions first, then inner mentions
before outer ones). Every door that builds documents from clusters puts them in that order here,
ties in cluster order, so that it gives the numbers of the same clusters written as CoNLL-2012.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .model import Document

IntArray = np.ndarray


def reading_order(
    starts: IntArray, ends: IntArray, entities: IntArray, lengths: IntArray | None = None
) -> tuple[IntArray, IntArray]:
    """The rows of documents laid end to end (``lengths[d]`` rows each; ``None``: one document) in
    reading order, and the entity of each row so ordered, renumbered by first opening (each
    document's entities numbered from 0, as ``entities`` number them: from 0 in each document)."""
    n = starts.size
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if lengths is None:
        lengths = np.array([n], dtype=np.int64)
    doc = np.repeat(np.arange(lengths.size), lengths)
    order = np.lexsort((-starts, ends, doc))  # by closing: one-token mentions have the largest start
    opening = np.lexsort((entities, -ends, starts != ends, starts, doc))
    spans = np.zeros(lengths.size, dtype=np.int64)
    full = lengths > 0
    spans[full] = np.maximum.reduceat(entities, (np.cumsum(lengths) - lengths)[full]) + 1
    first_entity = np.cumsum(spans) - spans
    entity = first_entity[doc] + entities  # corpus-wide, as given
    first = np.full(int(spans.sum()), n, dtype=np.int64)
    np.minimum.at(first, entity[opening], np.arange(n))
    ranked = np.argsort(first, kind="stable")  # documents in order, each one's entities as first opened
    renumber = np.empty(ranked.size, dtype=np.int64)
    renumber[ranked] = np.arange(ranked.size)
    present = np.bincount(np.repeat(np.arange(lengths.size), spans)[first < n], minlength=lengths.size)
    renumber -= np.repeat(np.cumsum(present) - present, spans)
    return order, renumber[entity[order]]


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
