"""The CorefEvaluator shim: the common interface, the reference's numbers."""

from __future__ import annotations

import pytest

from corefeval import metrics
from corefeval.training import CorefEvaluator

GOLD = [((0, 1), (5, 5), (7, 8)), ((3, 3), (10, 10))]
PREDICTED = [((0, 1), (5, 5)), ((3, 3), (7, 8), (12, 12)), ((20, 20),)]


def test_interface_gives_the_mean_of_muc_bcubed_ceafe() -> None:
    ev = CorefEvaluator()
    mention_to_gold = {m: c for c in GOLD for m in c}
    mention_to_predicted = {m: c for c in PREDICTED for m in c}
    ev.update(PREDICTED, GOLD, mention_to_predicted, mention_to_gold)
    parts = [metrics.evaluate(m, GOLD, PREDICTED) for m in ("muc", "bcub", "ceafe")]
    p, r, f = ev.get_prf()
    assert p == pytest.approx(sum(s.precision for s in parts) / 3, abs=1e-15)
    assert r == pytest.approx(sum(s.recall for s in parts) / 3, abs=1e-15)
    assert f == ev.get_f1() == metrics.conll(GOLD, PREDICTED).f1
    assert (ev.get_precision(), ev.get_recall()) == (p, r)
    assert ev.result().document_names == ["0"]


@pytest.mark.parametrize("module", ["corefeval.evaluator", "corefeval.training"])
def test_docstring_examples_run(module: str) -> None:
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried and not failures
