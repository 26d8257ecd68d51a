"""The items of Universal Anaphora entities as the UA scorer 2.0 compares them: a mention (equal
to another by span, or within a minimum span) and a split antecedent (the extra member of a plural
entity). Plain classes, cheap to import: every identity metric's split-antecedent form reads them."""

from __future__ import annotations

from typing import Any


class Mention(frozenset):  # type: ignore[type-arg]
    """A markable as the UA scorer compares it: equal to another by span, or (key side, with
    ``min_spans``) to any markable within it that covers its minimum span; hashed by span, as the
    set of its two ends (a frozenset only for that hash, which is then computed and kept without
    calling Python: dictionaries and sets of mentions look it up often; never used as a set)."""

    __slots__ = ("start", "end", "min_span")
    start: int
    end: int
    min_span: tuple[int, int] | None

    def __new__(cls, start: int, end: int, min_span: tuple[int, int] | None = None) -> Mention:
        self = frozenset.__new__(cls, (start, end))
        self.start, self.end, self.min_span = start, end, min_span
        return self

    def __eq__(self, other: object) -> bool:
        if type(other) is not Mention:  # never equal to a set (or anything else) as a set
            return False
        if self.min_span is None and other.min_span is None:
            return self.start == other.start and self.end == other.end
        if self.min_span:
            return self.start <= other.start <= self.min_span[0] and self.min_span[1] <= other.end <= self.end
        if other.min_span:
            return other.start <= self.start <= other.min_span[0] and other.min_span[1] <= self.end <= other.end
        return self.start == other.start and self.end == other.end

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = frozenset.__hash__

    def __reduce__(self) -> tuple[type[Mention], tuple[int, int, tuple[int, int] | None]]:
        return Mention, (self.start, self.end, self.min_span)

    def __repr__(self) -> str:
        return f"({self.start},{self.end})"


class Split:
    """The extra member of a plural entity: the set of its element entities (each a tuple of
    mentions); equal to another by that set."""

    __slots__ = ("members", "_hash")

    def __init__(self, members: set[tuple[Mention, ...]]) -> None:
        self.members = members
        self._hash = hash(frozenset(members))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Split):
            return self.members == other.members
        if isinstance(other, Mention):
            return False
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash


Item = Any  # a Mention or a Split


Clusters = list[list[Item]]
