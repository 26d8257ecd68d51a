"""What an error type costs: the F1 gained by repairing only that type, scored by corefeval."""

from __future__ import annotations

import pytest
from errcases import doc

from corefeval.core.model import Corpus
from corefeval.metrics import bcub, muc
from corefeval.studies.errors import KK_TYPES, TYPES
from corefeval.studies.errors.analysis import METRICS, analyse

A = [(0, 0), (2, 2), (4, 4)]
B = [(6, 6), (8, 8)]


def corpus(*docs):
    return Corpus("mem", list(docs))


@pytest.mark.parametrize(
    "response, error_type",
    [
        ([[(0, 1), (2, 2), (4, 4)], B], "border"),
        ([[(0, 0), (2, 2)], [(4, 4), *B]], "type"),
        ([[(0, 0), (2, 2), (3, 3), (4, 4)], B], "noise"),
        ([[(0, 0), (2, 2)], B], "silence"),
        ([A, B, [(10, 10), (12, 12)]], "irrelevant"),
        ([A], "absence"),
    ],
)
def test_repairing_the_only_error_type_recovers_all_that_was_lost(response, error_type):
    a = analyse(corpus(doc([A, B])), corpus(doc(response)))
    for metric in METRICS:
        assert a.costs[error_type][metric] == pytest.approx(1.0 - a.baseline[metric])
        for other in TYPES:
            if other != error_type:
                assert a.costs[other][metric] == 0.0


def test_costs_are_corpus_level_and_agree_with_the_metrics():
    key = [doc([A, B], name="one"), doc([A, B], name="two")]
    response = [doc([[(0, 0), (2, 2)], [(4, 4), *B]], name="one"), doc([A], name="two")]
    a = analyse(corpus(*key), corpus(*response))
    assert a.baseline["muc"] == pytest.approx(_pooled(muc, key, response))
    fixed_type = [doc([A, B], name="one"), doc([A], name="two")]
    gain = _pooled(bcub, key, fixed_type) - _pooled(bcub, key, response)
    assert a.costs["type"]["bcub"] == pytest.approx(gain)
    assert set(a.kk_costs) == set(KK_TYPES)


def _pooled(metric, key_docs, response_docs):
    """The metric over the documents as one, mentions made distinct by the document name."""

    def tag(docs):
        return [[(d.name, s) for s in c] for d in docs for c in d.clusters()]

    return metric(tag(key_docs), tag(response_docs)).f1
