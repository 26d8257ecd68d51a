"""The distinct rows of a document (each mention's first copy in its entity), found with one sort,
against their plain definition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.model import Document
from corefeval.metrics.mor import distinct_rows


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4), st.integers(0, 2)), max_size=12))
def test_each_mention_keeps_its_first_row_in_its_entity(rows) -> None:
    entities = np.array([e for e, _, _ in rows], dtype=np.int64)
    starts = np.array([s for _, s, _ in rows], dtype=np.int64)
    doc = Document("d", starts, starts + np.array([n for _, _, n in rows], dtype=np.int64), entities)
    seen: set[tuple[int, int, int]] = set()
    expected = []
    for row, found in enumerate(zip(doc.entities.tolist(), doc.starts.tolist(), doc.ends.tolist())):
        if found not in seen:
            seen.add(found)
            expected.append(row)
    assert distinct_rows(doc).tolist() == expected
