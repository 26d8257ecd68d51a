"""Documents built from clusters of token spans, put in the order a CoNLL-2012 file gives them.

Clusters (jsonlines, JSON predictions, the in-memory :class:`~corefeval.Evaluator`, ...) say which
spans form an entity, not in which order a scorer meets them; where a span repeats, that order
decides numbers (a mention is looked up in the last entity holding it, a repeated response span is
kept in the entity seen first), and fractional sums add in it. The reference scorer reads a
CoNLL-2012 file token by token: it numbers an entity when it first meets one of its mentions
opening (at one token, one-token mentions first, then openings as written, which corefeval's writer
writes longer first) and adds a mention to its entity when it closes (at one token, one-token
mentions first, then inner mentions before outer ones). Every door that builds documents from
clusters numbers entities and orders each entity's mentions so here (ties in the given order), so
that it gives the numbers of the same clusters written as CoNLL-2012. Rows stay grouped by entity,
entity after entity: only the order within an entity and the entities' numbers change a count, and
clusters given in that order (as a file's documents give them) are taken as they are, without a
sort.
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
) -> tuple[IntArray | None, IntArray]:
    """The rows of documents laid end to end (``lengths[d]`` rows each; ``None``: one document) in
    reading order (``None``: as given), and the entity of each row so ordered, renumbered by first
    opening (from 0 in each document, as ``entities`` are numbered). Ties (a span in two entities,
    two mentions of one entity on one span) keep the given order."""
    n = starts.size
    if n == 0:
        return None, entities
    lengths = np.array([n], dtype=np.int64) if lengths is None else lengths
    full = lengths > 0
    firsts = (np.cumsum(lengths) - lengths)[full]  # each document's first row
    spans = np.zeros(lengths.size, dtype=np.int64)
    spans[full] = np.maximum.reduceat(entities, firsts) + 1
    entity = entities + np.repeat(np.cumsum(spans) - spans, lengths)  # corpus-wide, documents in order
    width = ends - starts
    # Opening: by start token, then one-token mentions, then longer mentions before shorter ones.
    # Closing: by end token, then inner mentions first (one-token ones are the innermost).
    shortness = (width.max() - width + 1) * (width > 0)  # no overflow where it is kept
    opening, closing = _codes(lengths, (starts, shortness), (ends, width))
    number = _numbers(entity, opening, int(spans.sum()))
    order = None if not np.any(number[1:] < number[:-1]) else np.argsort(number, kind="stable")
    by_entity = number if order is None else number[order]
    ordered = closing if order is None else closing[order]
    if np.any((ordered[1:] < ordered[:-1]) & (by_entity[1:] == by_entity[:-1])):
        order = np.argsort(closing, kind="stable")  # some entity's mentions are not in closing order
        order = order[np.argsort(number[order], kind="stable")]
        by_entity = number[order]
    if order is None and number is entity:  # already in reading order (a file's documents are)
        return None, entities
    lowest = np.zeros(lengths.size, dtype=np.int64)
    lowest[full] = np.minimum.reduceat(number, firsts)  # the order keeps each row's document
    return order, by_entity - np.repeat(lowest, lengths)


def _codes(lengths: IntArray, *pairs: tuple[IntArray, IntArray]) -> list[IntArray]:
    """One code per row for each ``(first, second)`` pair of columns (non-negative), ordered as
    (document, first, second) are: arithmetic where it fits in 62 bits, else exact ranks."""
    top = max(int(a.max()) for pair in pairs for a in pair) + 1
    if float(lengths.size) * top * top < MAX_CODE:
        base = np.repeat(np.arange(lengths.size, dtype=np.int64) * (top * top), lengths)
        return [base + a * top + b for a, b in pairs]
    return span_codes([(a, b, lengths) for a, b in pairs])


def _numbers(entity: IntArray, opening: IntArray, count: IntArray | int) -> IntArray:
    """Each row's entity (``entity``: numbered corpus-wide, ``count`` numbers) renumbered by first
    opening, documents in order as the ``opening`` codes order them, ties in the given numbering;
    ``entity`` itself where that changes nothing."""
    if not np.any(entity[1:] < entity[:-1]):  # rows entity by entity (clusters are given so)
        heads = np.flatnonzero(np.concatenate(([True], entity[1:] != entity[:-1])))
        present, first = entity[heads], np.minimum.reduceat(opening, heads)
    else:
        earliest = np.full(int(count), np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(earliest, entity, opening)
        present = np.flatnonzero(earliest < np.iinfo(np.int64).max)
        first = earliest[present]
    if not np.any(first[1:] < first[:-1]):
        if present.size == count:
            return entity
    else:
        present = present[np.argsort(first, kind="stable")]
    rank = np.zeros(int(count), dtype=np.int64)
    rank[present] = np.arange(present.size)
    return rank[entity]


def in_reading_order(doc: Document) -> Document:
    """``doc`` (rows of token spans in any order, entities numbered in any order) with its rows in
    reading order and its entities numbered by first opening; every row's other fields (lines,
    heads, discontinuous parts) and each entity's label follow it."""
    order, entities = reading_order(doc.starts, doc.ends, doc.entities)
    if order is None:
        if entities is doc.entities:
            return doc
        order = np.arange(entities.size)
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
