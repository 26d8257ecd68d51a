"""The UA scorer's MUC, B-cubed, LEA and BLANC of a document without split antecedents, all from
one pass over its mentions.

Without split antecedents no item weighs anything but 1, and each of these metrics depends on an
entity's mentions only through how many of them the other side has in each of its entities
(:class:`Found`). These counts are taken once per side and give every metric the numbers of
:mod:`corefeval.anaphora.ua_metrics`, operation for operation: the integer parts are exact in
floats, and every float operation (a division, a sum over entities) is the same and made in the
same order (tested to the last bit against the item-by-item definitions).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Found:
    """Per entity of one side: its size, and how many of its mentions each entity of the other
    side holds (in order of first mention)."""

    sizes: list[int]
    where: list[dict[int, int]]

    @classmethod
    def of(cls, clusters: Sequence[Sequence[Hashable]], to_other: dict[Hashable, int]) -> Found:
        where = []
        find = to_other.get
        for c in clusters:
            counts: dict[int, int] = {}  # a Counter, without its cost on entities of a few mentions
            for m in c:
                j = find(m)
                if j is not None:
                    counts[j] = counts.get(j, 0) + 1
            where.append(counts)
        return cls([len(c) for c in clusters], where)


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def muc(side: Found, other: Found | None = None) -> tuple[float, float]:
    """MUC numerator and denominator of one side: without singletons, as the scorer's main MUC; or,
    ``other`` given, as its alignment of split antecedents counts them, a singleton as one link,
    found when its mention is a singleton on the other side."""
    tp, p = 0.0, 0.0
    for size, where in zip(side.sizes, side.where):
        if size == 1 and other is not None:
            p += 1
            if where and other.sizes[next(iter(where))] == 1:
                tp += 1
            continue
        p += size - 1
        tp += sum(where.values()) - len(where)  # the mentions found, less the entities they are in
    return tp, p


def bcub(side: Found) -> tuple[float, float]:
    num, den = 0.0, 0.0
    for size, where in zip(side.sizes, side.where):
        num += sum(float(v) * float(v) for v in where.values()) / size
        den += size
    return num, den


def lea(side: Found, other: Found) -> tuple[float, float]:
    num, den = 0.0, 0.0
    for size, where in zip(side.sizes, side.where):
        if size == 1:
            links = 1.0
            common = 1.0 if where and other.sizes[next(iter(where))] == 1 else 0.0
        else:
            links = size * (size - 1) / 2.0
            common = float(sum(_pairs(n) for n in where.values()))
        num += size * common / links
        den += size
    return num, den


def blancc(key: Found, response: Found) -> tuple[float, float, float, float]:
    num = float(sum(sum(_pairs(n) for n in where.values()) for where in key.where))
    rd = sum(size * (size - 1) / 2 for size in key.sizes)
    pd = sum(size * (size - 1) / 2 for size in response.sizes)
    return num, pd, num, rd


def blancn(key: Found, response: Found) -> tuple[float, float, float, float]:
    """Pairs of found mentions less those in one key or one response entity plus those in both."""
    by_response: Counter[int] = Counter()
    in_key = in_both = found = 0
    for where in key.where:
        n = sum(where.values())
        found += n
        in_key += _pairs(n)
        in_both += sum(_pairs(x) for x in where.values())
        by_response.update(where)
    in_response = sum(_pairs(x) for x in by_response.values())
    num = float(_pairs(found) - in_key - in_response + in_both)
    nk, nr = sum(key.sizes), sum(response.sizes)
    rd = nk * (nk - 1) / 2 - sum(size * (size - 1) / 2 for size in key.sizes)
    pd = nr * (nr - 1) / 2 - sum(size * (size - 1) / 2 for size in response.sizes)
    return num, pd, num, rd
