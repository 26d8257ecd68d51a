"""The span bookkeeping of the error alignment (computed with numpy sorts) against its plain definition."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.model import Document
from corefeval.studies.errors.matching import shared_spans, spans_and_chains

rows = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2), st.integers(0, 3)), max_size=10)


def _document(found: list[tuple[int, int, int]]) -> Document:
    starts = np.array([s for s, _, _ in found], dtype=np.int64)
    ends = starts + np.array([n for _, n, _ in found], dtype=np.int64)
    return Document("d", starts, ends, np.array([k for _, _, k in found], dtype=np.int64))


@settings(max_examples=200, deadline=None)
@given(rows)
def test_distinct_spans_keep_their_first_entity_in_text_order(found) -> None:
    doc = _document(found)
    first: dict[tuple[int, int], int] = {}
    for s, e, k in zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist(), strict=True):
        first.setdefault((s, e), k)
    spans = sorted(first)
    assert spans_and_chains(doc) == (spans, [first[s] for s in spans])


@settings(max_examples=200, deadline=None)
@given(rows)
def test_shared_spans_counts_the_spans_of_several_entities(found) -> None:
    doc = _document(found)
    entities: dict[tuple[int, int], set[int]] = {}
    for s, e, k in zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist(), strict=True):
        entities.setdefault((s, e), set()).add(k)
    assert shared_spans(doc) == sum(len(ks) > 1 for ks in entities.values())
