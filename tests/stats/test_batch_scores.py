"""Vectorised scores of count rows equal ``ScoreResult.scores_from`` on the same rows, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.scoring.pipeline import score
from corefeval.stats.batch_scores import score_arrays

from .corpora import random_corpora


@pytest.fixture(scope="module", params=["reference", "paper"])
def layout(request):
    key, (response,) = random_corpora(1, 3, [0.3])
    return score(key, response, blanc=request.param)


def check_rows(result, rows: np.ndarray) -> None:
    arrays = score_arrays(result.metric_objects, result.columns, result.settings.metrics, rows)
    assert list(arrays) == list(result.settings.metrics)
    for r, row in enumerate(rows):
        expected = result.scores_from(row)
        for metric, s in expected.items():
            if metric == "conll":
                assert arrays[metric].f1[r] == s.f1
                continue
            assert (arrays[metric].recall[r], arrays[metric].precision[r], arrays[metric].f1[r]) == (
                s.recall,
                s.precision,
                s.f1,
            ), (metric, row[result.columns[metric]])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_count_rows(layout, data):
    """Small counts with many zeros reach every boundary case (no links, no key links, ...)."""
    width = layout.counts.shape[1]
    cells = st.one_of(st.just(0.0), st.integers(0, 6).map(float), st.integers(0, 600).map(lambda x: x / 7))
    rows = np.array([data.draw(st.lists(cells, min_size=width, max_size=width)) for _ in range(5)])
    check_rows(layout, rows)


def test_blanc_boundary_rows(layout):
    """Every combination of empty coreference / non-coreference link counts, by hand."""
    s = layout.columns["blanc"]
    rows = []
    for coref in ([0, 0, 0, 0], [0, 0, 0, 3], [2, 4, 2, 2], [0, 3, 0, 0]):
        for non in ([0, 0, 0, 0], [0, 0, 0, 5], [7, 9, 7, 8], [0, 2, 0, 0]):
            for unshared in (0, 2):
                row = np.ones(layout.counts.shape[1])
                row[s] = coref + non + [unshared]
                rows.append(row)
    check_rows(layout, np.array(rows))


def test_sums_of_real_document_rows(layout):
    """Column sums of actual documents (the bootstrap's rows) score as the corpus does."""
    check_rows(layout, np.array([layout.counts.sum(axis=0), layout.counts[0], layout.counts[1:].sum(axis=0)]))
