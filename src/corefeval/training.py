"""A drop-in ``CorefEvaluator`` for training code written against the common neural-coref ``metrics.py``.

Many coreference repositories (e2e-coref and its descendants) carry a ``metrics.py`` whose
``CorefEvaluator`` averages MUC, B-cubed and CEAFe. Replacing ``from metrics import CorefEvaluator``
with ``from corefeval.training import CorefEvaluator`` keeps the calls and gives the reference
scorer's numbers (see docs/training.md for where they differ, and why):

>>> from corefeval.training import CorefEvaluator
>>> ev = CorefEvaluator()
>>> gold = [((0, 1), (5, 5)), ((3, 3), (7, 7))]
>>> ev.update(gold, gold, {}, {})
>>> ev.get_prf()
(1.0, 1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from .evaluator import Evaluator
from .metrics import CONLL_PARTS
from .metrics.base import Score, conll_mean
from .scoring.results import ScoreResult


class CorefEvaluator:
    """The ``update`` / ``get_prf`` interface over a :class:`corefeval.Evaluator` of MUC, B-cubed and
    CEAFe; precision, recall and F1 are each the mean over the three metrics."""

    def __init__(self) -> None:
        self.evaluator = Evaluator(CONLL_PARTS)
        self._result: ScoreResult | None = None

    def update(
        self,
        predicted: Iterable[Iterable[Hashable]],
        gold: Iterable[Iterable[Hashable]],
        mention_to_predicted: Any = None,
        mention_to_gold: Any = None,
    ) -> None:
        """Add one document; the mention-to-cluster maps are accepted for compatibility and unused
        (both are implied by the clusters)."""
        self.evaluator.update(gold, predicted)
        self._result = None

    def scores(self) -> list[Score]:
        """The corpus MUC, B-cubed and CEAFe scores so far."""
        if self._result is None:
            self._result = self.evaluator.result()
        return [self._result.corpus[m] for m in CONLL_PARTS]

    def get_f1(self) -> float:
        return conll_mean([s.f1 for s in self.scores()])

    def get_recall(self) -> float:
        return sum(s.recall for s in self.scores()) / len(CONLL_PARTS)

    def get_precision(self) -> float:
        return sum(s.precision for s in self.scores()) / len(CONLL_PARTS)

    def get_prf(self) -> tuple[float, float, float]:
        """Precision, recall and F1, in that order (as the common interface returns them)."""
        return self.get_precision(), self.get_recall(), self.get_f1()

    def result(self) -> ScoreResult:
        """The full result (per-document scores, counts, signature)."""
        return self.evaluator.result()
