"""Which lines of a Universal Anaphora file must be read one by one, found for all lines at once.

Most word lines of a file carry no markable (``_`` in every layer column) and need no more than to
be counted and their word's fingerprint taken: :func:`scan_lines` finds these *plain* lines, and
every line's word fingerprint, from the file's bytes in a few numpy passes. The reader then reads
the other lines one by one with the code it reads every line with: lines naming a document or the
columns, blank lines, lines with a markable or a zero's id, and any line whose cells are not plain
tab-separated (other whitespace, which ``str.split`` splits on too, or an empty cell), so that
those read exactly as before. Comment lines that name neither are skipped, as the reader skips them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .word_prints import fingerprints, of_words

_TAB, _NEWLINE, _HASH, _DOT, _UNDERSCORE = 9, 10, 35, 46, 95
#: ASCII bytes ``str.split`` splits on besides tab and newline.
_OTHER_SPACE = (11, 12, 13, 28, 29, 30, 31, 32)
#: The lines the reader must read (the others are plain word lines or comments it skips).
READ = ("# newdoc", "# global.columns")


class LineScan(NamedTuple):
    """Where a file's lines need reading: ``events`` (0-based, in order) are read one by one;
    ``before[i]`` counts the plain word lines among the first ``i`` lines, and ``plain`` lists
    them; ``prints`` holds each line's word fingerprint (0 on a line without a word). ``markup``
    lists the tab-separated word lines with a markable, and ``cells`` each layer column's cell on
    them (the text of each); ``regular`` tells whether every event is such a line, a blank line or
    a comment the reader reads, every word line coming after a ``# newdoc`` (then documents can
    be put together from these without reading line by line)."""

    events: list[int]
    before: list[int]
    plain: np.ndarray
    prints: np.ndarray
    markup: np.ndarray
    cells: dict[int, list[str]]
    regular: bool
    words: np.ndarray  # whether each line is a word line (plain or markup)
    blank: np.ndarray  # whether each line is empty

    def first_plain(self, at: int) -> int:
        """The first plain word line from line ``at`` on."""
        return int(self.plain[self.before[at]])

    def forms(self, begin: int, end: int, read: list[int]) -> np.ndarray:
        """The fingerprints of the word lines among lines ``begin`` to ``end`` (exclusive): the
        plain ones and those of ``read`` (the word lines read one by one), in line order."""
        plain = self.plain[self.before[begin] : self.before[end]]
        lines = np.sort(np.concatenate([plain, np.asarray(read, dtype=np.int64)])) if read else plain
        return self.prints[lines]


def _other_space(data: bytes, b: np.ndarray, ascii_only: bool) -> np.ndarray:
    """The places of whitespace other than tab and newline, as ``str.split`` knows it (ASCII, and
    U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 in UTF-8)."""
    at = [np.flatnonzero(b == code) for code in _OTHER_SPACE if code == 32 or bytes((code,)) in data]
    if not ascii_only:
        lead = np.flatnonzero((b >= 0xC2) & (b <= 0xE3))
        padded = np.concatenate([b, np.zeros(2, dtype=np.uint8)])
        first, second, third = b[lead], padded[lead + 1], padded[lead + 2]
        two = (first == 0xC2) & ((second == 0x85) | (second == 0xA0))
        three = (first == 0xE1) & (second == 0x9A) & (third == 0x80)
        spaces = (third <= 0x8A) | (third == 0xA8) | (third == 0xA9) | (third == 0xAF)
        three |= (first == 0xE2) & (((second == 0x80) & spaces) | ((second == 0x81) & (third == 0x9F)))
        three |= (first == 0xE3) & (second == 0x80) & (third == 0x80)
        at.append(lead[two | three])
    return np.concatenate(at)


def scan_lines(text: str, lines: list[str], needed: int, layers: list[int]) -> LineScan | None:
    """The :class:`LineScan` of ``text`` (split into ``lines``) whose word lines have at least
    ``needed + 1`` cells and their markables in the columns ``layers``; None for text that is not
    UTF-8 encodable (the reader then reads every line)."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    b = np.frombuffer(data, dtype=np.uint8)
    padded = np.concatenate([b, np.zeros(1, dtype=np.uint8)])  # a place past the end reads 0
    newlines = np.flatnonzero(b == _NEWLINE)
    n = newlines.size + 1
    starts = np.concatenate([[0], newlines + 1])
    ends = np.concatenate([newlines, [len(data)]])
    is_tab = padded == _TAB
    tabs = np.flatnonzero(is_tab)
    n_tabs = np.add.reduceat(is_tab, starts, dtype=np.int64)  # an empty line's start is its newline (or the end)
    first = np.cumsum(n_tabs) - n_tabs  # each line's first tab, in ``tabs``
    at_tab = np.concatenate([tabs, [len(data)]])  # a tab past the last: never read for a line without one
    filled = ends > starts
    head, last = padded[starts], padded[np.maximum(ends - 1, 0)]
    comment = filled & (head == _HASH)
    # lines whose cells str.split finds otherwise: an empty cell, or other whitespace
    odd = filled & ((head == _TAB) | (last == _TAB))
    odd[np.searchsorted(newlines, tabs[1:][np.diff(tabs) == 1])] = True
    odd[np.searchsorted(newlines, _other_space(data, b, text.isascii()))] = True
    tabbed = filled & ~comment & ~odd & (n_tabs > 0)

    def cell(c: int) -> tuple[np.ndarray, np.ndarray]:
        """Each line's cell ``c`` (for lines of more than ``c`` cells)."""
        begin = starts if c == 0 else at_tab[np.minimum(first + c - 1, tabs.size)] + 1
        return begin, np.where(n_tabs > c, at_tab[np.minimum(first + c, tabs.size)], ends)

    words = tabbed & (n_tabs >= needed)
    dots = np.flatnonzero(b == _DOT)
    dot_line = np.searchsorted(newlines, dots)
    words[dot_line[dots < np.where(n_tabs > 0, at_tab[np.minimum(first, tabs.size)], ends)[dot_line]]] = False
    plain = words.copy()  # (a dot in the first cell: a zero's id, read one by one)
    bounds = {c: cell(c) for c in layers}
    for begin, end in bounds.values():
        plain &= (end - begin == 1) & (padded[np.minimum(begin, len(data))] == _UNDERSCORE)
    prints = np.zeros(n, dtype=np.uint64)
    word_begin, word_end = cell(1)
    prints[tabbed] = fingerprints(data, word_begin[tabbed], word_end[tabbed])
    split = [(i, lines[i].split()) for i in np.flatnonzero(filled & ~comment & ~tabbed).tolist()]
    forms = [(i, cells[1]) for i, cells in split if len(cells) > 1]
    if forms:
        prints[[i for i, _ in forms]] = of_words([w for _, w in forms])
    events = ~plain & ~comment
    read = [i for i in np.flatnonzero(comment).tolist() if lines[i].startswith(READ)]
    markup = np.flatnonzero(words & ~plain)
    regular = not (events & ~words & filled).any() and _words_after_newdoc(lines, read, words)
    events[read] = True
    return LineScan(
        np.flatnonzero(events).tolist(),
        np.concatenate([[0], np.cumsum(plain)]).tolist(),
        np.flatnonzero(plain),
        prints,
        markup,
        _texts(text, data, bounds, markup) if regular else {},
        regular,
        words,
        ~filled,
    )


def _words_after_newdoc(lines: list[str], read: list[int], words: np.ndarray) -> bool:
    """Whether the file's first word line (if any) comes after its first ``# newdoc`` line."""
    first_word = np.flatnonzero(words)[:1].tolist()
    first_doc = [i for i in read if lines[i].startswith("# newdoc")][:1]
    return not first_word or bool(first_doc and first_doc[0] < first_word[0])


def _texts(
    text: str, data: bytes, bounds: dict[int, tuple[np.ndarray, np.ndarray]], at: np.ndarray
) -> dict[int, list[str]]:
    """The text of each column of ``bounds`` (byte offsets per line) on the lines ``at``."""
    out = {}
    for c, (begin, end) in bounds.items():
        begin, end = begin[at], end[at]
        cells = ["_"] * at.size
        some = np.flatnonzero((end - begin != 1) | (np.frombuffer(data, dtype=np.uint8)[begin] != _UNDERSCORE))
        pieces = zip(some.tolist(), begin[some].tolist(), end[some].tolist())
        if len(text) == len(data):  # ASCII: byte offsets are character offsets
            for i, a, z in pieces:
                cells[i] = text[a:z]
        else:
            for i, a, z in pieces:
                cells[i] = data[a:z].decode("utf-8")
        out[c] = cells
    return out
