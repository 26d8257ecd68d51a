"""The order documents built from clusters are put in (:mod:`corefeval.core.reading_order`): the order
of a CoNLL-2012 file's reader, row fields kept with their rows, many documents at once as one by one."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.model import Document
from corefeval.core.reading_order import in_reading_order, reading_order

Span = tuple[int, int]
EDGE = 2**63 - 1

offsets = st.one_of(st.integers(0, 9), st.integers(EDGE - 3, EDGE))
spans = st.tuples(offsets, offsets).map(lambda p: (min(p), max(p)))
documents = st.lists(st.tuples(spans, st.integers(0, 4)), max_size=12)  # (span, cluster), any order


def _document(rows: list[tuple[Span, int]]) -> Document:
    starts = np.array([s for (s, _), _ in rows], dtype=np.int64)
    ends = np.array([e for (_, e), _ in rows], dtype=np.int64)
    entities = np.array([k for _, k in rows], dtype=np.int64)
    n = len(rows)
    return Document(
        "d",
        starts,
        ends,
        entities,
        labels=tuple(f"cluster{k}" for k in range(int(entities.max()) + 1 if n else 0)),
        lines=np.arange(100, 100 + n, dtype=np.int64),
        heads=np.arange(200, 200 + n, dtype=np.int64),
        parts={row: (row,) for row in range(0, n, 3)},
    )


def _expected(rows: list[tuple[Span, int]]) -> list[tuple[int, int]]:
    """Each row's (new entity, place) the rule gives, written out plainly: entities numbered by
    their first opening (start; one-token mentions first; then longer first; ties by cluster),
    each one's rows by closing (end; inner first; ties in the given order)."""

    def opening(row: int) -> tuple[int, int, int, int]:
        (s, e), k = rows[row]
        return (s, 0 if s == e else 1, -(e - s), k)

    first: dict[int, tuple[int, int, int, int]] = {}
    for row in range(len(rows)):
        k = rows[row][1]
        first[k] = min(first.get(k, opening(row)), opening(row))
    number = {k: i for i, k in enumerate(sorted(first, key=first.__getitem__))}
    order = sorted(range(len(rows)), key=lambda r: (number[rows[r][1]], rows[r][0][1], -rows[r][0][0], r))
    return [(number[rows[r][1]], r) for r in order]


@settings(max_examples=300, deadline=None)
@given(documents)
def test_rows_and_entities_follow_the_rule_and_keep_their_fields(rows: list[tuple[Span, int]]) -> None:
    doc = _document(rows)
    out = in_reading_order(doc)
    expected = _expected(rows)
    assert out.entities.tolist() == [k for k, _ in expected]
    was = [r for _, r in expected]
    assert list(zip(out.starts.tolist(), out.ends.tolist())) == [rows[r][0] for r in was]
    assert out.lines is not None and out.heads is not None
    assert out.lines.tolist() == [100 + r for r in was] and out.heads.tolist() == [200 + r for r in was]
    assert out.parts == {new: (old,) for new, old in enumerate(was) if old % 3 == 0}
    assert [out.labels[k] for k in out.entities.tolist()] == [f"cluster{rows[r][1]}" for r in was]
    assert in_reading_order(out) is out  # in reading order: taken as it is


@settings(max_examples=200, deadline=None)
@given(st.lists(documents, min_size=1, max_size=5))
def test_many_documents_at_once_are_each_document_alone(docs: list[list[tuple[Span, int]]]) -> None:
    alone = [in_reading_order(_document(rows)) for rows in docs]
    starts = np.concatenate([_document(rows).starts for rows in docs])
    ends = np.concatenate([_document(rows).ends for rows in docs])
    entities = np.concatenate([_document(rows).entities for rows in docs])
    lengths = np.array([len(rows) for rows in docs], dtype=np.int64)
    order, numbers = reading_order(starts, ends, entities, lengths)
    order = np.arange(starts.size) if order is None else order
    assert starts[order].tolist() == [s for d in alone for s in d.starts.tolist()]
    assert ends[order].tolist() == [e for d in alone for e in d.ends.tolist()]
    assert numbers.tolist() == [k for d in alone for k in d.entities.tolist()]
