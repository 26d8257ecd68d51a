"""The one shape every metric has: a document becomes additive counts, counts become a score."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar

import numpy as np

from ..alignment import Alignment


def ratio(num: float, den: float) -> float:
    """``num / den``, or 0 when the denominator is 0 (the reference's convention)."""
    return num / den if den else 0.0


def f1(recall: float, precision: float) -> float:
    """Harmonic mean in the reference's evaluation order, 0 when both are 0."""
    return ((2 * precision) * recall) / (precision + recall) if precision + recall else 0.0


@dataclass(frozen=True)
class Score:
    """Recall, precision and F1 with the counts they come from."""

    recall: float
    precision: float
    f1: float
    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float

    @classmethod
    def from_counts(cls, rn: float, rd: float, pn: float, pd: float) -> Score:
        r, p = ratio(rn, rd), ratio(pn, pd)
        return cls(r, p, f1(r, p), float(rn), float(rd), float(pn), float(pd))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Metric:
    """A coreference metric: ``counts`` for one aligned document, ``score`` for summed counts.

    Counts are a fixed-length float vector (``fields``); any sum of documents' counts is a valid
    corpus, which is what makes micro-averaging, per-document tables and resampling cheap.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ("recall_num", "recall_den", "precision_num", "precision_den")

    def counts(self, alignment: Alignment) -> tuple[float, ...]:
        if alignment.repeats:
            return self.literal_counts(alignment.key_chains(), alignment.response_chains())
        return self.table_counts(alignment)

    def table_counts(self, alignment: Alignment) -> tuple[float, ...]:
        """Counts from the contingency table (documents without repeated ids)."""
        raise NotImplementedError

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Counts by the reference's literal definition over chains of mention ids."""
        raise NotImplementedError

    def score(self, counts: np.ndarray | tuple[float, ...]) -> Score:
        rn, rd, pn, pd = (float(c) for c in counts[:4])
        return Score.from_counts(rn, rd, pn, pd)
