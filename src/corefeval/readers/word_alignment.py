"""Word-level alignment of a generated text to the key's words, as text2text-coref's ``clean`` does it.

A language model that rewrites a document with coreference markup also rewrites some of its words:
it drops a few, adds others, changes spelling. Its mentions are put back on the key's words through
a word-level edit-distance alignment (unit costs for a word added, dropped or replaced; words
starting with ``##``, zeros, are passed over for free). Among the alignments of least cost, the one
chosen is the one ``clean`` chooses: walking back from the end of both texts, equal words are paired
first, then a replacement, then a word of the model's own, then a key word the model left out.

That cost can pair a word the model kept with another key word: in ``... w18 x19 w19`` against
``... w18 w19 w20`` (``x19`` its own, ``w20`` left out), two replacements cost as much as one word
added and one left out, and ``clean`` takes the replacements, so a mark on ``w19`` lands on ``w20``;
in ``w6 x6 x6 w6'`` against ``w6 w7 w8`` ... three replacements cost less than two words added and
two left out. ``most_equal=True`` makes a replacement cost as much as a word added and a word left
out, so that the least cost is that of the alignments with the most equal words (a longest common
subsequence): words the model kept stay where they were, whatever it added or left out around them.

``clean`` fills the whole ``len(generated) * len(key)`` table. Here only a band of diagonals around
the main one is filled, twice as wide each time the cost found exceeds it: a cell whose cost is at
most the band's half-width is reached by a path inside the band (every step off the diagonal costs
one), so the cells the walk back reads are exact and the walk is the same. A first band as wide
as the number of words without an equal word in the other text (at most twice the least number of
edits) gives an alignment whose cost bounds the least one; when it exceeds the band, a band that
wide is filled. The cost is
``O(len * cost)`` time and memory instead of ``O(len**2)``: linear in the document's length for a
given rate of edits, and in the number of edits for a given length. Own code rather than a library
(``rapidfuzz``'s ``editops``, ``difflib``): neither breaks ties as ``clean`` does, and scores must
equal the official pipeline's; numpy fills each row of the band at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np

#: A word the model wrote for an empty node (a zero); aligned to nothing, at no cost.
ZERO_PREFIX = "##"
#: ``target`` of a generated word aligned to no key word.
UNALIGNED = -1
_INF = 1 << 60
_FIRST_WIDTH = 16
#: The most cells of the band's table (8 bytes each) an alignment may fill.
MAX_CELLS = 1 << 26


@dataclass(frozen=True)
class WordAlignment:
    """Where each generated word went.

    ``target[i]`` is the key word that generated word ``i`` was paired with (equal or replaced), or
    :data:`UNALIGNED`; ``same[i]`` whether the pair is of equal words; ``after[i]``, for a zero, the
    key word it follows (-1: it comes before the first key word, where ``clean`` drops it).
    ``inserted`` counts the model's own words (no key word), ``replaced`` the changed ones and
    ``deleted`` the key words the model left out.
    """

    target: np.ndarray
    same: np.ndarray
    after: np.ndarray
    inserted: int
    replaced: int
    deleted: int

    @property
    def edits(self) -> int:
        return self.inserted + self.replaced + self.deleted


def is_zero(word: str) -> bool:
    return word.startswith(ZERO_PREFIX)


def has_zero(words: Sequence[str]) -> bool:
    """Whether a word is a zero: one search in the words joined (a word holding the separator can
    only raise a false alarm, which the words are then checked one by one for)."""
    return "\x00" + ZERO_PREFIX in "\x00" + "\x00".join(words) and any(map(is_zero, words))


class TooManyEdits(Exception):
    """The alignment needs more than the edits allowed (``at_least`` of them), or a band too large
    to hold (``too_large``): refused rather than filling a table of ``len(generated) ** 2`` cells."""

    def __init__(self, at_least: int, too_large: bool = False) -> None:
        super().__init__(f"at least {at_least} edits")
        self.at_least = at_least
        self.too_large = too_large

    def message(self, name: str, written: int, words: int, max_edits: float | None) -> str:
        """What a run says of document ``name``, whose ``written`` words align to the key's ``words``
        only with more edits than allowed (``max_edits``: the share of the key's words, if any)."""
        said = f"document '{name}': aligning its {written} words to the key's {words} takes at least {self.at_least}"
        if self.too_large or max_edits is None:
            return f"{said} edits, more than corefeval aligns in a document that long"
        return f"{said} edits: more than {max_edits:.0%} of the key's words (--max-edits)"


def align_words(
    generated: Sequence[str],
    key: Sequence[str],
    most_equal: bool = False,
    max_edits: int | None = None,
    max_cells: int = MAX_CELLS,
) -> WordAlignment:
    """The alignment of ``generated`` to ``key`` that text2text-coref's ``clean`` finds, or with
    ``most_equal`` one with the most equal words (a replacement costing two edits). Raises
    :class:`TooManyEdits` when it needs more than ``max_edits`` edits (a replacement counting two
    with ``most_equal``), or a band of more than ``max_cells`` cells."""
    m = len(generated)
    if (m + 1) * (2 * _FIRST_WIDTH + 1) <= max_cells and _same_words(generated, key):
        return _word_for_word(m)
    vocabulary: dict[str, int] = {}
    gen = [vocabulary.setdefault(w, len(vocabulary)) for w in generated]
    ref = [vocabulary.setdefault(w, len(vocabulary)) for w in key]
    free = [is_zero(w) for w in generated]
    m, n = len(gen), len(ref)
    centre = np.zeros(m + 1, dtype=np.int64)
    np.cumsum(np.logical_not(free), out=centre[1:])  # the diagonal: key words a row has reached
    # A word added or left out costs ``unit``, a replacement ``unit + extra``.
    unit, extra = (1, 1) if most_equal else (1, 0)
    unmatched = _unmatched(gen, ref, free)
    allowed = m + n if max_edits is None else max_edits
    if (unmatched + 1) // 2 > allowed:  # each edit leaves at most two words unmatched
        raise TooManyEdits((unmatched + 1) // 2)
    # the least cost is at most ``limit``; a replacement may cost two edits, and a word replaced by
    # one found elsewhere in the key is no unmatched word: a first band twice as wide then
    limit = allowed * (1 + extra)
    width = max(_FIRST_WIDTH, min(unmatched * (1 + extra), limit))
    if most_equal and (m + 1) * (2 * max(width, limit) + 1) <= max_cells and not any(free):
        # the bands below would widen up to max(width, limit) at most: the whole table, computed
        # a row at a time as bits, gives the same alignment and the same refusals (without zeros,
        # which ``clean``'s table counts in its first column only)
        return _most_equal(gen, ref, max(width, limit))
    while True:
        if (m + 1) * (2 * width + 1) > max_cells:
            raise TooManyEdits((unmatched + 1) // 2, too_large=True)
        table = _band(gen, ref, free, centre, width, unit, extra)
        cost = _cell(table, centre, width, m, n) // unit
        if cost <= width:  # a band as wide as the least cost is exact
            break
        if width >= limit:  # exact up to ``limit``, so more edits are needed
            raise TooManyEdits((width + 1 + extra) // (1 + extra))
        width = min(cost, limit)  # this band's cost bounds the least one
    return _walk_back(gen, ref, free, partial(_cell, table, centre, width), unit, extra)


def _same_words(generated: Sequence[str], key: Sequence[str]) -> bool:
    """Whether the model wrote the key's words and no zero."""
    return list(generated) == list(key) and not has_zero(generated)


def _word_for_word(m: int) -> WordAlignment:
    """The alignment of a text to itself: the one the walk back finds, every word paired with itself."""
    return WordAlignment(np.arange(m, dtype=np.int64), np.ones(m, dtype=bool), np.full(m, -1, dtype=np.int64), 0, 0, 0)


def _most_equal(gen: list[int], ref: list[int], bound: int) -> WordAlignment:
    """The alignment with the most equal words of a text without zeros (``most_equal``: a
    replacement costs two, so the cost of prefixes ``i``, ``j`` is ``i + j - 2 * LCS(i, j)``), from the whole table
    kept as one integer of bits a row: bit ``j`` of row ``i`` is 0 where ``LCS(i, j + 1)`` exceeds
    ``LCS(i, j)`` (the bit-parallel longest common subsequence of Allison and Dix, 1986). Each row
    costs a few operations on ``len(ref)``-bit integers, whatever the number of edits. Refused, as
    the bands refuse it, when the least cost exceeds ``bound``, the widest band they would fill."""
    n = len(ref)
    where: dict[int, int] = {}
    for j, w in enumerate(ref):
        where[w] = where.get(w, 0) | 1 << j
    full = (1 << n) - 1
    bits = full
    rows = [bits]
    for w in gen:
        found = bits & where.get(w, 0)
        bits = ((bits + found) | (bits - found)) & full
        rows.append(bits)

    def cell(i: int, j: int) -> int:
        return i - j + 2 * (rows[i] & ((1 << j) - 1)).bit_count()

    if cell(len(gen), n) > bound:
        raise TooManyEdits((bound + 2) // 2)
    return _walk_back(gen, ref, [False] * len(gen), cell, 1, 1)


def _unmatched(gen: list[int], ref: list[int], free: list[bool]) -> int:
    """Words of either text without an equal word in the other (as multisets): at most twice the
    least number of edits, and usually close to it, so that one band that wide is usually enough."""
    counts = np.bincount(np.asarray([w for w, f in zip(gen, free) if not f], dtype=np.int64), minlength=1)
    other = np.bincount(np.asarray(ref, dtype=np.int64), minlength=1)
    size = max(counts.size, other.size)
    counts = np.pad(counts, (0, size - counts.size))
    other = np.pad(other, (0, size - other.size))
    return int(np.abs(counts - other).sum())


def _band(
    gen: list[int], ref: list[int], free: list[bool], centre: np.ndarray, width: int, unit: int, extra: int
) -> np.ndarray:
    """The cost table restricted to key words ``centre[i] - width .. centre[i] + width`` of row ``i``
    (column ``t`` of row ``i`` is key prefix ``centre[i] - width + t``); cells outside cost ``_INF``."""
    m, n = len(gen), len(ref)
    span = 2 * width + 1
    offsets = np.arange(span, dtype=np.int64)
    table = np.empty((m + 1, span), dtype=np.int64)
    # key words, -1 outside the key (the band of a row may lie past the key's end)
    padded = np.full(max(n, int(centre[-1])) + 2 * span + 2, -1, dtype=np.int64)
    base = span + 1
    padded[base : base + n] = ref
    columns = offsets - width  # key prefix length minus centre
    row = np.where((columns >= 0) & (columns <= n), columns * unit, _INF)
    steps = offsets * unit
    table[0] = row
    candidate = np.empty(span, dtype=np.int64)
    for i in range(1, m + 1):
        first = int(centre[i]) - width  # key prefix length of column 0
        if free[i - 1]:
            table[i] = row
        else:
            # cell t of this row: from cell t of the row above (diagonal: same word or replaced),
            # t + 1 (the model's own word), or t - 1 of this row (a key word left out)
            np.add(row, unit + extra, out=candidate)
            np.minimum(candidate[:-1], row[1:] + unit, out=candidate[:-1])
            words = padded[base + first - 1 : base + first - 1 + span]
            np.copyto(candidate, row, where=words == gen[i - 1])
            candidate -= steps
            np.minimum.accumulate(candidate, out=table[i])
            table[i] += steps
        row = table[i]
        if first <= 0:
            row[: -first + 1] = _INF
            row[-first] = i * unit
        if first + span - 1 > n:
            row[n - first + 1 :] = _INF
    return table


def _cell(table: np.ndarray, centre: np.ndarray, width: int, i: int, j: int) -> int:
    t = j - int(centre[i]) + width
    return int(table[i, t]) if 0 <= t < table.shape[1] else _INF


def _walk_back(
    gen: list[int], ref: list[int], free: list[bool], cell: Callable[[int, int], int], unit: int, extra: int
) -> WordAlignment:
    """Walk from the end of both texts to the start choosing as ``clean`` does (``cell(i, j)``: the
    least cost of aligning the first ``i`` generated words to the first ``j`` key words)."""
    m, n = len(gen), len(ref)
    target = np.full(m, UNALIGNED, dtype=np.int64)
    same = np.zeros(m, dtype=bool)
    after = np.full(m, -1, dtype=np.int64)
    inserted = replaced = deleted = 0
    i, j = m, n
    while i > 0 and j > 0:
        if free[i - 1]:
            after[i - 1] = j - 1
            i -= 1
        elif gen[i - 1] == ref[j - 1]:
            target[i - 1] = j - 1
            same[i - 1] = True
            i -= 1
            j -= 1
        else:
            here = cell(i, j)
            if here == cell(i - 1, j - 1) + unit + extra:
                target[i - 1] = j - 1
                replaced += 1
                i -= 1
                j -= 1
            elif here == cell(i - 1, j) + unit:
                inserted += 1
                i -= 1
            else:
                deleted += 1
                j -= 1
    deleted += j
    inserted += sum(1 for k in range(i) if not free[k])
    return WordAlignment(target, same, after, inserted, replaced, deleted)
