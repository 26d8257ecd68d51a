"""The one shape every metric has: a document becomes additive counts, counts become a score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, NamedTuple, TypeVar

import numpy as np

from ..core.dataclass_methods import field_eq, field_hash, field_repr
from ..core.model import Document
from ..matching.alignment import Alignment
from ..matching.cells import Cells

FloatOrArray = TypeVar("FloatOrArray", float, np.ndarray)


def ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` element-wise, 0 where the denominator is 0 (the reference's convention)."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)


def f1(recall: np.ndarray, precision: np.ndarray) -> np.ndarray:
    """Harmonic mean element-wise, in the reference's evaluation order ``((2P)R)/(P+R)``; 0 where P+R is 0."""
    total = precision + recall
    return np.divide((2 * precision) * recall, total, out=np.zeros(total.shape), where=total != 0)


def prf(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Recall, precision and F1 of every row of a matrix whose first four columns are recall_num,
    recall_den, precision_num, precision_den: the one place these ratios are computed."""
    c = np.atleast_2d(np.asarray(counts, dtype=float))
    r, p = ratio(c[:, 0], c[:, 1]), ratio(c[:, 2], c[:, 3])
    return r, p, f1(r, p)


@dataclass(frozen=True, init=False, repr=False, eq=False)
class Score:
    """Recall, precision and F1 with the counts they come from."""

    recall: float
    precision: float
    f1: float
    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float

    def __init__(
        self,
        recall: float,
        precision: float,
        f1: float,
        recall_num: float,
        recall_den: float,
        precision_num: float,
        precision_den: float,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.__dict__.update(
            recall=recall,
            precision=precision,
            f1=f1,
            recall_num=recall_num,
            recall_den=recall_den,
            precision_num=precision_num,
            precision_den=precision_den,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash

    @classmethod
    def from_counts(cls, rn: float, rd: float, pn: float, pd: float) -> Score:
        r, p, f = prf(np.array([rn, rd, pn, pd], dtype=float))
        return cls(float(r[0]), float(p[0]), float(f[0]), float(rn), float(rd), float(pn), float(pd))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def parts(self) -> tuple[tuple[str, str, Score], ...]:
        """The sub-scores a report shows under this one, as (key, title, score): none for most
        metrics; reporters ask a score for them rather than testing its metric's name."""
        return ()


def conll_mean(f1: Sequence[FloatOrArray]) -> FloatOrArray:
    """The CoNLL score from the MUC, B-cubed and CEAFe F1, in that order (floats, or arrays of many
    rows): their unrounded mean, added in that order; the one place it is computed."""
    muc, bcub, ceafe = f1
    return (muc + bcub + ceafe) / 3


class ConllScore(NamedTuple):
    """The CoNLL score: the unrounded mean of the MUC, B-cubed and CEAFe F1 (:func:`conll_mean`)."""

    f1: float

    def to_dict(self) -> dict[str, Any]:
        return {"f1": self.f1}


class Metric:
    """A coreference metric: counts per document, and a score for summed counts.

    Counts are a fixed-length float vector (``fields``); any sum of documents' counts is a valid
    corpus, which is what makes micro-averaging, per-document tables and resampling cheap. A metric
    is written twice: :meth:`literal_counts`, its definition over chains of mention ids (the oracle,
    and the path for documents in which a mention id repeats), and :meth:`columns`, the same counts
    for every document of some :class:`~corefeval.matching.cells.Cells` at once.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ("recall_num", "recall_den", "precision_num", "precision_den")
    #: The fields that may hold fractions; every other count is a whole number.
    fractional_fields: ClassVar[frozenset[str]] = frozenset()
    #: Whether every numerator is at most its denominator in any document (CEAF's literal definition
    #: can exceed it where key mentions repeat, as the reference's does).
    bounded: ClassVar[bool] = True
    #: Whether :meth:`columns` reads each document's mentions (``cells.documents``) rather than the
    #: contingency table: such a metric counts documents with repeated ids by :meth:`columns` too.
    reads_mentions: ClassVar[bool] = False

    def columns(self, cells: Cells) -> list[np.ndarray]:
        """One column per field, one entry per document of ``cells`` (documents without repeated ids)."""
        raise NotImplementedError

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Counts by the reference's literal definition over chains of mention ids."""
        raise NotImplementedError

    def last_chain_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """Counts as the CorefUD scorer makes them, each side looking an id up in the other side's
        last chain holding it; the literal definition where the two agree."""
        return self.literal_counts(key, response)

    #: Whether the CorefUD scorer counts both recall and precision of this metric from the key's
    #: side (CEAF's similarity, BLANC's links found), so that only the recall view counts (see
    #: :mod:`corefeval.matching.mention_lookups`).
    key_side_only: ClassVar[bool] = False

    def repeated_counts(self, alignment: Alignment) -> tuple[float, ...]:
        """Counts of a document in which a mention id repeats: the literal definition (under the
        CorefUD rule, :meth:`last_chain_counts`); with lookup views, recall from the recall view and
        precision from the precision view."""
        if alignment.views is not None:
            recall_view, precision_view = alignment.views
            recall = self.chain_counts(recall_view)
            if self.key_side_only:
                return recall
            precision = self.chain_counts(precision_view)
            return recall[:2] + precision[2:4] + recall[4:]
        return self.chain_counts(alignment)

    def chain_counts(self, alignment: Alignment) -> tuple[float, ...]:
        """Counts of one alignment whose ids may repeat, from its chains."""
        if alignment.last_chain:
            return self.last_chain_counts(alignment.key_chains(), alignment.response_chains())
        return self.literal_counts(alignment.key_chains(), alignment.response_chains())

    def counts(self, alignment: Alignment, pair: tuple[Document, Document] | None = None) -> tuple[float, ...]:
        """One aligned document's counts (the vectorised form on a stack of one, unless ids repeat);
        ``pair``: the key and response the alignment's rows refer to (needed by :attr:`reads_mentions`)."""
        if alignment.repeats and not self.reads_mentions:
            return self.repeated_counts(alignment)
        cells = Cells.of_alignments([alignment], [pair] if pair is not None else None)
        return tuple(float(column[0]) for column in self.columns(cells))

    def score_arrays(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Recall, precision and F1 of every row of a matrix of this metric's counts (resampling
        scores thousands of summed rows at once)."""
        return prf(counts)

    def score(self, counts: np.ndarray | tuple[float, ...]) -> Score:
        rn, rd, pn, pd = (float(c) for c in counts[:4])
        return Score.from_counts(rn, rd, pn, pd)


def last_chain_overlaps(chains: list[list[int]], other: list[list[int]]) -> list[Counter[int]]:
    """For each chain, how many of its mentions each chain of ``other`` holds, a mention counted
    in the last chain of ``other`` holding its id only (mentions ``other`` lacks are left out)."""
    last = {i: k for k, chain in enumerate(other) for i in chain}
    return [Counter(last[i] for i in chain if i in last) for chain in chains]
