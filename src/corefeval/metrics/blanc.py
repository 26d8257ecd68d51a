"""BLANC for predicted mentions (Luo et al. 2014): F1 of coreference and of non-coreference links.

Counts per document: the four link counts of each kind, plus how many mentions the two sides do
not share (for the paper's boundary case "no links at all"). Two ways of scoring summed counts:

* ``reference`` (default): as the CoNLL scorer v8.01 does, boundary cases decided on the *key*
  link counts only; a side with no key links is undefined and the other side alone is used.
* ``paper``: section 4.1 of the paper, boundary cases decided on key *and* response links, and
  ``I(M_k = M_r)`` when neither side has any link.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..alignment import Alignment
from .base import Metric, Score, f1, ratio


def _pairs(n: np.ndarray | float) -> Any:
    return n * (n - 1) / 2


@dataclass(frozen=True)
class BlancScore(Score):
    """BLANC's R, P and F (the mean of the two link F1s) with the two link-level scores."""

    coref: Score | None = None
    noncoref: Score | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in ("recall", "precision", "f1", "recall_num", "recall_den",
                                             "precision_num", "precision_den")}
        out["coref"] = self.coref.to_dict() if self.coref else None
        out["noncoref"] = self.noncoref.to_dict() if self.noncoref else None
        return out


class BLANC(Metric):
    name = "blanc"
    title = "BLANC"
    fields = ("coref_recall_num", "coref_recall_den", "coref_precision_num", "coref_precision_den",
              "noncoref_recall_num", "noncoref_recall_den", "noncoref_precision_num",
              "noncoref_precision_den", "unshared_mentions")

    def __init__(self, variant: str = "reference") -> None:
        if variant not in ("reference", "paper"):
            raise ValueError(f"unknown BLANC variant '{variant}' (reference or paper)")
        self.variant = variant

    def counts(self, alignment: Alignment) -> tuple[float, ...]:
        unshared = float(alignment.n_key_ids + alignment.n_response_ids - 2 * alignment.n_matched)
        return super().counts(alignment)[:8] + (unshared,)

    def table_counts(self, alignment: Alignment) -> tuple[float, ...]:
        t = alignment.contingency
        key_links = float(_pairs(t.key_sizes.astype(float)).sum())
        response_links = float(_pairs(t.response_sizes.astype(float)).sum())
        n = t.counts.astype(float)
        both_links = float(_pairs(n).sum())
        key_non = float(_pairs(float(t.key_sizes.sum()))) - key_links
        response_non = float(_pairs(float(t.response_sizes.sum()))) - response_links
        row_sums = np.bincount(t.rows, weights=n)
        col_sums = np.bincount(t.cols, weights=n)
        both_non = (float(_pairs(n.sum())) - float(_pairs(row_sums).sum()) - float(_pairs(col_sums).sum())
                    + both_links)
        return (both_links, key_links, both_links, response_links,
                both_non, key_non, both_non, response_non, 0.0)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        def links(chains: list[list[int]]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
            coref = {(min(a, b), max(a, b)) for c in chains for a, b in combinations(c, 2)}
            non = {(min(a, b), max(a, b)) for x, y in combinations([c for c in chains if c], 2)
                   for a in x for b in y}
            return coref, non

        ck, nk = links(key)
        cr, nr = links(response)
        cc, nn = len(ck & cr), len(nk & nr)
        return (float(cc), float(len(ck)), float(cc), float(len(cr)),
                float(nn), float(len(nk)), float(nn), float(len(nr)), 0.0)

    def score(self, counts: np.ndarray | tuple[float, ...]) -> BlancScore:
        c = [float(x) for x in counts]
        coref = Score.from_counts(*c[0:4])
        noncoref = Score.from_counts(*c[4:8])
        if self.variant == "reference":
            r, p, f = _reference(coref, noncoref)
        else:
            r, p, f = _paper(coref, noncoref, c[8] == 0)
        return BlancScore(r, p, f, r, 1.0, p, 1.0, coref=coref, noncoref=noncoref)


def _reference(c: Score, n: Score) -> tuple[float, float, float]:
    if c.recall_den == 0 and n.recall_den == 0:
        return 0.0, 0.0, 0.0
    if c.recall_den == 0:
        return n.recall, n.precision, n.f1
    if n.recall_den == 0:
        return c.recall, c.precision, c.f1
    return (c.recall + n.recall) / 2, (c.precision + n.precision) / 2, (c.f1 + n.f1) / 2


def _paper(c: Score, n: Score, same_mentions: bool) -> tuple[float, float, float]:
    no_coref = c.recall_den == 0 and c.precision_den == 0
    no_non = n.recall_den == 0 and n.precision_den == 0
    if no_coref and no_non:
        v = 1.0 if same_mentions else 0.0
        return v, v, v
    # F from eq. 18: 2|both| / (|key| + |response|), defined whenever either side has links.
    fc = ratio(2 * c.recall_num, c.recall_den + c.precision_den)
    fn = ratio(2 * n.recall_num, n.recall_den + n.precision_den)
    if no_coref:
        return n.recall, n.precision, fn
    if no_non:
        return c.recall, c.precision, fc
    return (c.recall + n.recall) / 2, (c.precision + n.precision) / 2, (fc + fn) / 2


__all__ = ["BLANC", "BlancScore", "f1"]
