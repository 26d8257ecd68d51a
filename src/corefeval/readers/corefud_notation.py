"""The pieces of the CorefUD notation the readers share: positions of words and empty nodes, numbers,
``# global.Entity`` fields and other comments, ``DEPS``, ``Bridge=`` and ``SplitAnte=`` values, and the
search of a mention's syntactic head (see :mod:`.corefud` for what they mean together)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..core.dataclass_methods import field_eq, field_hash, field_repr, refuse_delattr, refuse_setattr
from ..core.diagnostics import InputError
from ..core.empty_nodes import EMPTY_SLOTS, MAX_WORDS, empty_position

#: Numbers in a CorefUD file (ids, HEAD, parts) have at most this many ASCII digits.
MAX_DIGITS = 9
DEFAULT_FIELDS: tuple[str, ...] = ("eid", "etype", "head", "other")
_NUMBER = cache(lambda: re.compile(f"[0-9]{{1,{MAX_DIGITS}}}"))  # compiled on first use


def number(path: str, line: int, text: str, what: str) -> int:
    """``text`` as a non-negative integer: the one conversion of file text to a number, so that
    ``²``, ``٣``, ``+3`` or 5000 digits are an error naming the line, never a traceback."""
    if not _NUMBER().fullmatch(text):
        raise InputError(path, line, f"{what} '{text[:40]}' is not a number (expected 1 to {MAX_DIGITS} digits 0-9)")
    return int(text)


@dataclass(init=False, repr=False, eq=False)
class CorefUDBridge:
    """A bridging link of ``Bridge=e12<e15:part`` on the first node of a mention of ``e15``: that
    mention (the ``anaphor`` entity's mention opened at or before ``position``) is anchored to the
    entity ``anchor`` by ``relation`` (may be empty); ``line`` is the file's line."""

    anaphor: str
    position: int
    anchor: str
    relation: str = ""
    line: int = 0

    def __init__(
        self,
        anaphor: str,
        position: int,
        anchor: str,
        relation: str = "",
        line: int = 0,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.__dict__.update(
            anaphor=anaphor,
            position=position,
            anchor=anchor,
            relation=relation,
            line=line,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr


class EscapeTree:
    """Minimum and maximum parent over ranges of nodes, to find the first node of a range whose
    parent lies outside an interval in logarithmic time (a segment tree)."""

    def __init__(self, parents: list[int]) -> None:
        size = 1
        while size < len(parents):
            size *= 2
        self.size = size
        low = np.full(2 * size, np.iinfo(np.int64).max, dtype=np.int64)
        high = np.full(2 * size, np.iinfo(np.int64).min, dtype=np.int64)
        low[size : size + len(parents)] = parents
        high[size : size + len(parents)] = parents
        level = size
        while level > 1:  # nodes level/2 .. level-1 from their children level .. 2*level-1
            low[level // 2 : level] = np.minimum(low[level : 2 * level : 2], low[level + 1 : 2 * level : 2])
            high[level // 2 : level] = np.maximum(high[level : 2 * level : 2], high[level + 1 : 2 * level : 2])
            level //= 2
        self.low = low.data
        self.high = high.data

    def escapes(self, i: int, start: int, end: int) -> bool:
        return bool(self.low[i] < start or self.high[i] > end)

    def first_outside(self, a: int, b: int, start: int, end: int) -> int:
        """The first node in ``a..b`` whose parent is not in ``start..end``; ``a`` if there is none."""
        left: list[int] = []
        right: list[int] = []
        lo, hi = a + self.size, b + self.size + 1
        while lo < hi:
            if lo & 1:
                left.append(lo)
                lo += 1
            if hi & 1:
                hi -= 1
                right.append(hi)
            lo //= 2
            hi //= 2
        for i in left + right[::-1]:
            if self.escapes(i, start, end):
                while i < self.size:
                    i = 2 * i if self.escapes(2 * i, start, end) else 2 * i + 1
                return i - self.size
        return a


def comment(line: str) -> tuple[str, str]:
    """What a ``#`` line (``\\r`` cut) tells the reader: ``("newdoc", name)``, ``("global.Entity", value)``,
    or ``("", "")`` for any other comment."""
    key, _, value = line[1:].partition("=")
    key = key.strip()
    if key == "newdoc" or key.startswith("newdoc "):
        return "newdoc", value.strip() if "=" in line else ""
    if key == "global.Entity":
        return "global.Entity", value
    return "", ""


def entity_fields(path: str, line: int, value: str) -> tuple[str, ...]:
    """The fields named by a ``# global.Entity`` value; one must be the entity id."""
    fields = tuple(value.strip().split("-"))
    if "eid" not in fields and "GRP" not in fields:
        raise InputError(path, line, "global.Entity names no 'eid' (or 'GRP') field")
    return fields


def parse_deps(path: str, line: int, value: str, sentence: int, sentence_start: int) -> frozenset[tuple[int, str]]:
    """DEPS ``2:nsubj|3.1:obj`` as ``(parent position, relation)`` pairs; ``_`` is none."""
    if value == "_":
        return frozenset()
    out = set()
    for item in value.split("|"):
        head, sep, relation = item.partition(":")
        word, dot, k = head.partition(".")
        if not sep:
            raise InputError(path, line, f"cannot read DEPS '{value}': expected 'HEAD:relation' items")
        parent = number(path, line, word, "a DEPS head")
        if dot:
            slot = number(path, line, k, "a DEPS empty node")
            if not 1 <= slot <= EMPTY_SLOTS or parent >= MAX_WORDS:
                raise InputError(path, line, f"DEPS head '{head}' is not an empty node id like '3.1'")
            out.add((empty_position(sentence, parent, slot), relation))
        else:
            out.add((sentence_start + parent - 1 if parent else -1, relation))
    return frozenset(out)


def parse_bridges(path: str, line: int, value: str, position: int) -> list[CorefUDBridge]:
    """``Bridge=e12<e15:part,e13<e15`` on the node at ``position``: e15's mention there is anchored
    to e12 (relation ``part``) and to e13."""
    out = []
    for link in value.split(","):
        anchor, sep, rest = link.partition("<")
        anaphor, _, relation = rest.partition(":")
        if not sep or not anchor or not anaphor or anchor == anaphor:
            raise InputError(path, line, f"cannot read 'Bridge={value}': expected links like 'e12<e15:part'")
        out.append(CorefUDBridge(anaphor, position, anchor, relation, line))
    return out


def parse_split_antecedents(path: str, line: int, value: str) -> list[tuple[str, tuple[str, ...]]]:
    """``SplitAnte=e3<e11,e4<e11`` -> ``[("e11", ("e3", "e4"))]``."""
    grouped: dict[str, list[str]] = {}
    for link in value.split(","):
        ante, sep, anaphor = link.partition("<")
        if not sep or not ante or not anaphor:
            raise InputError(path, line, f"cannot read 'SplitAnte={value}': expected links like 'e3<e11'")
        grouped.setdefault(anaphor, []).append(ante)
    return [(k, tuple(v)) for k, v in grouped.items()]
