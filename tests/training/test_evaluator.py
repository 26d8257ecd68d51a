"""Evaluator: merging, state round trips, reset, worked examples and one-line errors."""

from __future__ import annotations

import re

import numpy as np
import pytest

from corefeval import Evaluator, metrics
from corefeval.core.diagnostics import UsageError

KEY = [[(0, 1), (5, 5), (7, 8)], [(3, 3), (10, 10)]]
RESPONSE = [[(0, 1), (5, 5)], [(3, 3), (7, 8), (12, 12)]]
DOCS = [
    (KEY, RESPONSE),
    ([["a", "b", "c"]], [["a", "b"], ["c"]]),
    ([[(1, 1), (1, 1)], [(2, 2)]], [[(1, 1)], [(1, 1), (2, 2)]]),
]


def test_single_document_equals_the_metric_functions() -> None:
    ev = Evaluator()
    ev.update(KEY, RESPONSE)
    corpus = ev.result().corpus
    for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions"):
        assert corpus[name] == metrics.evaluate(name, KEY, RESPONSE), name
    assert corpus["conll"].f1 == metrics.conll(KEY, RESPONSE).f1


def test_merge_and_state_round_trip() -> None:
    whole = Evaluator()
    whole.update_many(DOCS)
    first, second = Evaluator(), Evaluator()
    first.update_many(DOCS[:1])
    for i, (k, r) in enumerate(DOCS[1:], 1):
        second.update(k, r, name=str(i))
    merged = first + second
    np.testing.assert_array_equal(merged.result().counts, whole.result().counts)
    assert merged.result().signature == whole.result().signature
    array, names = whole.state()
    back = Evaluator.from_state(array, names)
    assert back.result().signature == whole.result().signature
    np.testing.assert_array_equal(back.result().counts, whole.result().counts)


def test_summed_states_of_workers_give_every_document() -> None:
    """Data-parallel pattern: each worker fills only its rows; the sum is the whole corpus."""
    whole = Evaluator()
    whole.update_many(DOCS)
    full, names = whole.state()
    workers = []
    for w in range(2):
        ev = Evaluator()
        for i, (k, r) in enumerate(DOCS):
            if i % 2 == w:
                ev.update(k, r, name=str(i))
        part, part_names = ev.state()
        padded = np.zeros_like(full)
        padded[[names.index(n) for n in part_names]] = part
        workers.append(padded)
    summed = Evaluator.from_state(sum(workers), names)
    assert summed.result().signature == whole.result().signature
    assert summed.result().corpus == whole.result().corpus


def test_reset_and_subset_of_metrics() -> None:
    ev = Evaluator(["muc", "b3", "ceafe"])
    ev.update(KEY, RESPONSE)
    assert list(ev.result().corpus) == ["muc", "bcub", "ceafe"]
    ev.reset()
    assert len(ev) == 0 and ev.result().counts.shape == (0, ev.width)


def test_repeated_mentions_are_scored_not_refused() -> None:
    ev = Evaluator()
    key = [[(i, i) for i in range(12)] * 2]
    ev.update(key, [[(i, i) for i in range(12)]])
    assert ev.result().corpus["muc"].recall_den == 23


@pytest.mark.parametrize(
    ("key", "response", "message"),
    [
        ([[{0, 1}]], [], "mention {0, 1} is not hashable"),
        ([5], [], "key cluster 0 is not an iterable of mentions"),
        (7, [], "key clusters must be an iterable of clusters"),
        ([], ["ab"], "response cluster 0 is not an iterable of mentions"),
    ],
)
def test_bad_input_is_one_line_usage_error(key: object, response: object, message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)) as err:
        Evaluator().update(key, response, name="doc")  # type: ignore[arg-type]
    assert "\n" not in str(err.value) and "document 'doc'" in str(err.value)


def test_mismatched_state_is_usage_error() -> None:
    ev = Evaluator()
    ev.update(KEY, RESPONSE)
    array, names = ev.state()
    with pytest.raises(UsageError, match="shape"):
        Evaluator.from_state(array, names, ["muc"])
    with pytest.raises(UsageError, match="shape"):
        Evaluator.from_state(array, names + ["x"])
    with pytest.raises(UsageError, match="digest"):
        Evaluator.from_state(array * 3, names)
    with pytest.raises(UsageError, match="different metrics"):
        ev.merge(Evaluator(["muc"]))
    with pytest.raises(UsageError, match="unknown metric"):
        Evaluator(["nope"])
    with pytest.raises(UsageError, match="BLANC"):
        Evaluator(blanc="x")


def test_result_works_downstream() -> None:
    """Confidence intervals and the JSON shape take an Evaluator's result as they take a file's."""
    from corefeval.stats.confidence import confidence_intervals

    ev = Evaluator()
    ev.update_many(DOCS)
    result = ev.result()
    intervals = confidence_intervals(result, resamples=200)
    assert intervals.n_documents == len(DOCS)
    for name, score in result.corpus.items():
        f1 = intervals.intervals[name]["f1"]
        assert f1.estimate == score.f1 and f1.low <= f1.high
    out = result.to_dict(per_doc=True)
    assert out["signature"] == result.signature and len(out["documents"]) == len(DOCS)
    assert "fmt:memory" in result.signature
