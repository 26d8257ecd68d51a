"""BLANC for predicted mentions (Luo et al. 2014): F1 of coreference and of non-coreference links.

Counts per document: the four link counts of each kind, plus how many mentions the two sides do
not share (for the paper's boundary case "no links at all"). Two ways of scoring summed counts:

* ``reference`` (default): as the CoNLL scorer v8.01 does, boundary cases decided on the *key*
  link counts only; a side with no key links is undefined and the other side alone is used.
* ``paper``: section 4.1 of the paper, boundary cases decided on key *and* response links, and
  ``I(M_k = M_r)`` when neither side has any link.
* ``ua``: as the Universal Anaphora scorer does: a side with neither key nor response links is left
  out (as in the paper), each side's F is the harmonic mean of its R and P, and 0 without any link.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..core.items import Clusters, Item, Split
from ..matching.alignment import Alignment
from ..matching.cells import Cells
from ..matching.item_lookups import Aligned, OnePass, pair_count, same_pairs, weighted
from .base import Metric, Score, last_chain_overlaps, prf, ratio

if TYPE_CHECKING:
    from collections.abc import Iterable


def _pairs(n: np.ndarray | float) -> Any:
    return n * (n - 1) / 2


@dataclass(frozen=True, init=False, repr=False, eq=False)
class BlancScore(Score):
    """BLANC's R, P and F (the mean of the two link F1s) with the two link-level scores."""

    coref: Score | None = None
    noncoref: Score | None = None

    def __init__(
        self,
        recall: float,
        precision: float,
        f1: float,
        recall_num: float,
        recall_den: float,
        precision_num: float,
        precision_den: float,
        coref: Score | None = None,
        noncoref: Score | None = None,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods); repr, equality and hash are Score's.
        super().__init__(recall, precision, f1, recall_num, recall_den, precision_num, precision_den)
        self.__dict__.update(coref=coref, noncoref=noncoref)

    def to_dict(self) -> dict[str, Any]:
        out = {
            k: getattr(self, k)
            for k in ("recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den")
        }
        out["coref"] = self.coref.to_dict() if self.coref else None
        out["noncoref"] = self.noncoref.to_dict() if self.noncoref else None
        return out

    def parts(self) -> tuple[tuple[str, str, Score], ...]:
        """The coreference and non-coreference link scores whose F1 BLANC averages."""
        if self.coref is None or self.noncoref is None:
            return ()
        return (("coref", "coref links", self.coref), ("noncoref", "non-coref links", self.noncoref))


class BLANC(Metric):
    name = "blanc"
    title = "BLANC"
    fields = (
        "coref_recall_num",
        "coref_recall_den",
        "coref_precision_num",
        "coref_precision_den",
        "noncoref_recall_num",
        "noncoref_recall_den",
        "noncoref_precision_num",
        "noncoref_precision_den",
        "unshared_mentions",
    )
    key_side_only = True

    def __init__(self, variant: str = "reference") -> None:
        if variant not in ("reference", "paper", "ua"):
            raise ValueError(f"unknown BLANC variant '{variant}' (reference, paper or ua)")
        self.variant = variant

    def columns(self, cells: Cells) -> list[np.ndarray]:
        c = cells
        n = c.counts.astype(float)
        key_links = c.per_doc(c.key_doc, _pairs(c.key_sizes.astype(float)))
        response_links = c.per_doc(c.response_doc, _pairs(c.response_sizes.astype(float)))
        both_links = c.per_doc(c.doc, _pairs(n))
        key_non = _pairs(c.key_mentions.astype(float)) - key_links
        response_non = _pairs(c.response_mentions.astype(float)) - response_links
        row_sums = np.bincount(c.rows, weights=n, minlength=c.key_sizes.size)
        col_sums = np.bincount(c.cols, weights=n, minlength=c.response_sizes.size)
        both_non = (
            _pairs(c.per_doc(c.doc, n))
            - c.per_doc(c.key_doc, _pairs(row_sums))
            - c.per_doc(c.response_doc, _pairs(col_sums))
            + both_links
        )
        unshared = c.key_mentions + c.response_mentions - 2 * c.matched
        return [both_links, key_links, both_links, response_links, both_non, key_non, both_non, response_non, unshared]

    def chain_counts(self, alignment: Alignment) -> tuple[float, ...]:
        unshared = float(alignment.n_key_ids + alignment.n_response_ids - 2 * alignment.n_matched)
        return super().chain_counts(alignment)[:8] + (unshared,)

    def literal_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """The link counts of the literal definition (distinct id pairs: coreference within a chain,
        an id twice in a chain linking to itself; non-coreference between two chains), counted per
        chain instead of enumerated pair by pair (see :func:`_side_links`)."""
        key, response = [c for c in key if c], [c for c in response if c]
        ck, nk, key_side = _side_links(key)
        cr, nr, _ = _side_links(response)
        both = _both_links(key_side, response)
        cc, nn = both if both is not None else _enumerated_both(key, response)
        return (
            float(cc),
            float(ck),
            float(cc),
            float(cr),
            float(nn),
            float(nk),
            float(nn),
            float(nr),
            0.0,
        )

    def last_chain_counts(self, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
        """The CorefUD scorer's ``blancc``/``blancn``: links found are counted over key chains only,
        a key mention placed in the last response chain holding its id; a pair within one key chain
        is a coreference link found when both fall in one response chain, a pair across key chains
        a non-coreference link found when they fall in two. Link totals come from chain sizes."""
        overlaps = last_chain_overlaps(key, response)
        coref = sum(_pairs(n) for c in overlaps for n in c.values())
        per_chain = [sum(c.values()) for c in overlaps]
        per_other: Counter[int] = Counter()
        squares: Counter[int] = Counter()
        for c in overlaps:
            for r, n in c.items():
                per_other[r] += n
                squares[r] += n * n
        across = (sum(per_chain) ** 2 - sum(n * n for n in per_chain)) / 2
        same_other = sum((total * total - squares[r]) / 2 for r, total in per_other.items())
        ck, cr = sum(_pairs(len(c)) for c in key), sum(_pairs(len(c)) for c in response)
        nk = _pairs(sum(len(c) for c in key)) - ck
        nr = _pairs(sum(len(c) for c in response)) - cr
        non = across - same_other
        return (float(coref), float(ck), float(coref), float(cr), float(non), float(nk), float(non), float(nr), 0.0)

    def score_arrays(self, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        c = np.atleast_2d(np.asarray(counts, dtype=float))
        (rc, pc, fc), (rn, pn, fn) = prf(c[:, 0:4]), prf(c[:, 4:8])
        if self.variant == "reference":
            # Boundary cases on the key's link counts: a side without key links is undefined.
            no_c, no_n = c[:, 1] == 0, c[:, 5] == 0
            fallback = np.zeros(c.shape[0])
        elif self.variant == "ua":
            no_c = (c[:, 1] == 0) & (c[:, 3] == 0)
            no_n = (c[:, 5] == 0) & (c[:, 7] == 0)
            fallback = np.zeros(c.shape[0])
        else:
            # The paper (section 4.1): on key and response links; F per side is 2|both|/(|key|+|resp|),
            # and with no link at all BLANC is I(M_k = M_r).
            no_c = (c[:, 1] == 0) & (c[:, 3] == 0)
            no_n = (c[:, 5] == 0) & (c[:, 7] == 0)
            fc, fn = ratio(2 * c[:, 0], c[:, 1] + c[:, 3]), ratio(2 * c[:, 4], c[:, 5] + c[:, 7])
            fallback = np.where(c[:, 8] == 0, 1.0, 0.0)

        def pick(coref: np.ndarray, non: np.ndarray) -> np.ndarray:
            out = np.where(no_n, coref, (coref + non) / 2)
            out = np.where(no_c, non, out)
            return np.where(no_c & no_n, fallback, out)

        return pick(rc, rn), pick(pc, pn), pick(fc, fn)

    def score(self, counts: np.ndarray | tuple[float, ...]) -> BlancScore:
        c = [float(x) for x in counts]
        (r,), (p,), (f,) = self.score_arrays(np.array(c))
        return BlancScore(
            float(r),
            float(p),
            float(f),
            float(r),
            1.0,
            float(p),
            1.0,
            coref=Score.from_counts(*c[0:4]),
            noncoref=Score.from_counts(*c[4:8]),
        )


class _Side:
    """One side's chains as :func:`_side_links` sees them: each id's chains, the ids in exactly one
    chain (and which), and the distinct pairs of ids in several chains that share a chain (a plain
    class: making a dataclass costs start-up)."""

    __slots__ = ("chains_of", "single", "multi_pairs")

    def __init__(
        self, chains_of: dict[int, list[int]], single: dict[int, int], multi_pairs: set[tuple[int, int]]
    ) -> None:
        self.chains_of = chains_of
        self.single = single
        self.multi_pairs = multi_pairs


def _side_links(chains: list[list[int]]) -> tuple[int, int, _Side]:
    """Coreference and non-coreference link counts of one side's non-empty chains.

    Ids in one chain only are counted by chain (s ids of a chain make s(s-1)/2 links, and s * m with
    its m ids that are in other chains too); only pairs of ids that are both in several chains are
    enumerated (and deduplicated), chain by chain. Two distinct ids are a non-coreference link unless
    both are in one and the same chain only; an id in several chains is one with itself."""
    chains_of: dict[int, list[int]] = {}
    self_links: set[int] = set()
    for c, chain in enumerate(chains):
        counts = Counter(chain)
        self_links.update(i for i, n in counts.items() if n > 1)
        for i in counts:
            chains_of.setdefault(i, []).append(c)
    single = {i: cs[0] for i, cs in chains_of.items() if len(cs) == 1}
    multi_in: list[list[int]] = [[] for _ in chains]
    for i, cs in chains_of.items():
        if len(cs) > 1:
            for c in cs:
                multi_in[c].append(i)
    singles_in = Counter(single.values())
    multi_pairs = {(a, b) for ids in multi_in for a, b in combinations(sorted(ids), 2)}
    same_chain = sum(n * (n - 1) // 2 for n in singles_in.values())
    coref = same_chain + sum(singles_in[c] * len(multi_in[c]) for c in range(len(chains)))
    coref += len(multi_pairs) + len(self_links)
    n = len(chains_of)
    non = n * (n - 1) // 2 - same_chain + (n - len(single))
    return coref, non, _Side(chains_of, single, multi_pairs)


def _both_links(key: _Side, response: list[list[int]]) -> tuple[int, int] | None:
    """Links in both the key and the response, when every key id is at most once in the response
    (as :func:`corefeval.matching.alignment.align` leaves them): a response link between two of them is then
    a pair in one chain (coreference) or in two (non-coreference). ``None`` otherwise."""
    chain_of: dict[int, int] = {}
    for r, chain in enumerate(response):
        for i in chain:
            if i in key.chains_of:
                if i in chain_of:
                    return None
                chain_of[i] = r
    coref = 0
    for chain in response:
        ids = [i for i in chain if i in key.chains_of]
        singles = Counter(key.single[i] for i in ids if i in key.single)
        coref += sum(n * (n - 1) // 2 for n in singles.values())
        coref += sum(singles[c] for i in ids if i not in key.single for c in key.chains_of[i])
    coref += sum(1 for a, b in key.multi_pairs if a in chain_of and chain_of.get(b) == chain_of[a])
    m = len(chain_of)
    per_chain = Counter(chain_of.values())
    apart = m * (m - 1) // 2 - sum(n * (n - 1) // 2 for n in per_chain.values())
    # Pairs in two response chains that are not a key link: both in one and the same key chain only.
    by_key = Counter(key.single[i] for i in chain_of if i in key.single)
    by_both = Counter((key.single[i], r) for i, r in chain_of.items() if i in key.single)
    same_key = sum(n * (n - 1) // 2 for n in by_key.values()) - sum(n * (n - 1) // 2 for n in by_both.values())
    return coref, apart - same_key


def _enumerated_both(key: list[list[int]], response: list[list[int]]) -> tuple[int, int]:
    """Links in both sides by enumerating them (chains that :func:`_both_links` does not cover)."""

    def links(chains: list[list[int]]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
        coref = {(min(a, b), max(a, b)) for c in chains for a, b in combinations(c, 2)}
        non = {(min(a, b), max(a, b)) for x, y in combinations(chains, 2) for a in x for b in y}
        return coref, non

    ck, nk = links(key)
    cr, nr = links(response)
    return len(ck & cr), len(nk & nr)


__all__ = ["BLANC", "BlancScore"]


def coreference_item_counts(
    response: Clusters, key: Clusters, to_response: dict[Item, int], aligned: Aligned, one_pass: OnePass | None = None
) -> tuple[float, ...]:
    """The Universal Anaphora scorer's coreference links of a document over items:
    ``(found, response links, found, key links)``; a link with an aligned split antecedent weighs
    its F1."""

    any_weighted = any(weighted(c, aligned) for c in key)
    # every link weighing 1: counted by response entity, in time linear in the items
    num = 0.0 if any_weighted else float(sum(_found_links(key, to_response, one_pass)))
    for k, c in enumerate(key if any_weighted else ()):
        if one_pass is not None and k not in one_pass.mixed:  # links weighing 1, counted at once
            num += float(one_pass.found.links[k])
            continue
        for i, m in enumerate(c):
            weight = 1.0
            if isinstance(m, Split) and m in aligned:
                m, weight = aligned[m]
            if m in to_response:
                for m2 in c[i + 1 :]:
                    if m2 in to_response and to_response[m] == to_response[m2]:
                        num += weight
    rd = sum(len(c) * (len(c) - 1) / 2 for c in key)
    pd = sum(len(c) * (len(c) - 1) / 2 for c in response)
    return num, pd, num, rd


def _found_links(key: Clusters, to_response: dict[Item, int], one_pass: OnePass | None) -> Iterable[int]:
    """Per key entity, its pairs of items in one response entity (from ``one_pass`` where it
    counts the entity)."""

    for k, c in enumerate(key):
        if one_pass is not None and k not in one_pass.mixed:
            yield one_pass.found.links[k]
        else:
            yield same_pairs(to_response[m] for m in c if m in to_response)


class Outside(NamedTuple):
    """The rest of a document, for the non-coreference links of some of its entities (none of the
    rest's entities holds an item of theirs, nor does any holding an item found in theirs): its key
    items found in the response, each weighing 1, its key items and its response items."""

    found: int
    key: int
    response: int


def non_coreference_item_counts(
    response: Clusters,
    key: Clusters,
    to_response: dict[Item, int],
    aligned: Aligned,
    one_pass: OnePass | None = None,
    outside: Outside | None = None,
) -> tuple[float, ...]:
    """The non-coreference links of the key found in the response: pairs of items in two key
    entities, both found, in two response entities, each weighing the product of the items'
    weights (an aligned split antecedent stands for its response partner and weighs its F1).
    Counted, in time linear in the items, as the pairs of found items less those in one key or
    one response entity plus those in both, for the items weighing 1 (per key entity, how many
    each response entity holds: from ``one_pass`` where it counts the entity); then the pairs with
    each weighted item. ``outside``: the rest of the document, when these entities are a part of
    it; the links with an item here are counted (those within the rest are not)."""

    where: list[dict[int, int]] = []  # per key entity, its items weighing 1 in each response entity
    weighted: list[tuple[int, int, float]] = []
    for k, c in enumerate(key):
        if one_pass is not None and k not in one_pass.mixed:
            where.append(one_pass.found.where[k])
            continue
        counts: dict[int, int] = {}
        for m in c:
            if type(m) is Split and m in aligned:
                partner, weight = aligned[m]
                if partner in to_response:
                    weighted.append((k, to_response[partner], weight))
            elif m in to_response:
                counts[to_response[m]] = counts.get(to_response[m], 0) + 1
        where.append(counts)
    by_key = [sum(counts.values()) for counts in where]
    by_response: dict[int, int] = {}
    for counts in where:
        for r, x in counts.items():
            by_response[r] = by_response.get(r, 0) + x
    rest = outside or _NOTHING_OUTSIDE
    n = sum(by_key) + rest.found
    in_both = sum(pair_count(x) for counts in where for x in counts.values())
    here = pair_count(n) - pair_count(rest.found)  # pairs of found items, one here at least
    num = float(here - sum(map(_pairs, by_key)) - sum(map(_pairs, by_response.values())) + in_both)
    for a, (k, r, w) in enumerate(weighted):
        num += w * (n - by_key[k] - by_response.get(r, 0) + where[k].get(r, 0))
        num += sum(w * w2 for k2, r2, w2 in weighted[a + 1 :] if k2 != k and r2 != r)
    nk, nr = sum(len(c) for c in key) + rest.key, sum(len(c) for c in response) + rest.response
    rd = nk * (nk - 1) / 2 - _pairs(rest.key) - sum(len(c) * (len(c) - 1) / 2 for c in key)
    pd = nr * (nr - 1) / 2 - _pairs(rest.response) - sum(len(c) * (len(c) - 1) / 2 for c in response)
    return num, pd, num, rd


_NOTHING_OUTSIDE = Outside(0, 0, 0)
