"""Evaluator counts pending documents together: the same rows and digests as one document at a time."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval import Evaluator
from corefeval.evaluator import encode
from corefeval.matching.alignment import align
from corefeval.scoring.batch import document_counts, document_digest
from corefeval.scoring.pipeline import counted_metrics

NAMES = ("all",)
#: Mostly token spans; sometimes offsets near 2**63, a string, numpy integers, or tuples of three
#: and of one. (Pairs that are not spans, a negative offset, a float, a bool, are refused: see
#: tests/test_hostile_numbers.py.)
mention = st.one_of(
    st.tuples(st.integers(0, 6), st.integers(0, 2)).map(lambda p: (p[0], p[0] + p[1])),
    st.tuples(st.integers(2**63 - 4, 2**63 - 1), st.integers(0, 2)).map(lambda p: (p[0] - p[1], p[0])),
    st.sampled_from(["a", "b", (1, 2, 3), (4,), (np.int64(1), np.int32(2))]),
)
clusters = st.lists(st.lists(mention, max_size=4), max_size=4)
documents = st.lists(st.tuples(clusters, clusters), max_size=6)


def _one_at_a_time(docs: list, variant: str) -> tuple[np.ndarray, list[bytes]]:  # type: ignore[type-arg]
    objects = counted_metrics(Evaluator(NAMES).metrics, variant)
    width = sum(len(m.fields) for m in objects)
    rows, digests = [], []
    for i, (k, r) in enumerate(docs):
        kdoc, rdoc = encode(k, r, str(i))
        rows.append(document_counts(objects, align(kdoc, rdoc)))
        digests.append(document_digest(kdoc))
    return np.array(rows, dtype=float).reshape(-1, width), digests


@settings(max_examples=300, deadline=None)
@given(documents, st.integers(0, 6), st.sampled_from(["reference", "paper"]))
def test_pending_documents_count_as_one_at_a_time(docs: list, split: int, variant: str) -> None:  # type: ignore[type-arg]
    """Counted in two rounds (a result in between), through a state and through a merge."""
    expected, digests = _one_at_a_time(docs, variant)
    ev = Evaluator(NAMES, blanc=variant)
    ev.update_many(docs[:split])
    first = ev.result()
    ev.update_many(docs[split:])
    result = ev.result()
    assert np.array_equal(first.counts, expected[: len(docs[:split])])
    assert np.array_equal(result.counts, expected)
    assert result.document_digests == digests
    array, names = ev.state()
    assert np.array_equal(array[:, : ev.width], expected)
    other = Evaluator(NAMES, blanc=variant)
    other.update_many((k, r, str(i)) for i, (k, r) in enumerate(docs[split:], split))
    head = Evaluator(NAMES, blanc=variant)
    head.update_many(docs[:split])
    assert np.array_equal((head + other).result().counts, expected)


def test_clusters_changed_after_update_do_not_change_the_document() -> None:
    key, response = [[(0, 1), (3, 3)]], [[(0, 1)], [(3, 3)]]
    ev = Evaluator(["muc"])
    ev.update(key, response)
    key[0].append((5, 5))
    response.clear()
    # mentions (found, key, found, response), then MUC: the clusters as they were at the update
    assert ev.result().counts[0].tolist() == [2.0, 2.0, 2.0, 2.0, 0.0, 1.0, 0.0, 0.0]
