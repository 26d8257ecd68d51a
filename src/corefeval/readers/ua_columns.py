"""Universal Anaphora files read column-wise, as numpy passes over the file's bytes.

A regular file is read this way: its word lines are cells joined by single tabs (no other white
space, no empty cell, as many cells as the layers need), its ``# global.columns`` lines come before
its first word line and a ``# newdoc`` line before that. Every line's kind, every word's position
and sentence, and every word's fingerprint are found column-wise; Python reads only the lines that
carry markup (their cells by :class:`.ua_markup.Markup`, as the line-by-line reader reads them) and
the ids of zeros. A file that is not regular, or in which an error is found, is read line by line
(:func:`corefeval.readers.ua.read_ua_documents` does both), which reads every regular file to the
same documents and locates the error.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

import numpy as np

from ..anaphora.model import Markables
from .ua_brackets import Column, column_markables
from .ua_markup import (
    DEFAULT_COLUMNS,
    Markup,
    UALayers,
    bridging_cell,
    document_name,
    finish,
    header_columns,
    layout,
    markable_cell,
    zero_position,
)
from .word_prints import fingerprints

#: ASCII white space that ``str.split()`` splits at, besides tab and line feed.
_ASCII_SPACE = np.zeros(256, dtype=bool)
_ASCII_SPACE[[0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20]] = True
#: The other characters ``str.split()`` splits at (``str.isspace()`` beyond ASCII), as UTF-8.
WIDE_SPACES = (0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000)


@cache
def _wide_space() -> re.Pattern[bytes]:
    """A pattern of :data:`WIDE_SPACES` (made when a file beyond ASCII is first read)."""
    return re.compile(b"|".join(re.escape(chr(c).encode()) for c in WIDE_SPACES))


class _Lines(NamedTuple):
    """Each line's first byte and the byte past its last (a final carriage return left out), and
    whether it is a comment (``#`` first) or a word line (anything else but empty)."""

    starts: np.ndarray
    ends: np.ndarray
    comment: np.ndarray
    word: np.ndarray


class _Words(NamedTuple):
    """The word lines (their line indices), each one's document, where each document's words start
    among them, and the lines of the file before the stretch read (line numbers are theirs plus
    one plus this)."""

    rows: np.ndarray
    document: np.ndarray
    firsts: np.ndarray
    line0: int


#: The characters read column-wise at once, at most (a file is cut at the ``# newdoc`` line after
#: each such stretch): the numpy passes' temporary arrays, about ten times a stretch's bytes, stay
#: bounded however large the file (a document is never cut).
CHUNK = 4 * 1024 * 1024


def read_regular(path: str, text: str, keep_tokens: bool) -> UALayers | None:
    """The documents of ``text`` (without a byte-order mark) if the file is regular, else None.
    An error found raises :class:`~corefeval.core.diagnostics.InputError` (the caller reads the file
    line by line to locate the first)."""
    out = UALayers([], {}, {}, [], keep_tokens)
    start, lines_before, columns = 0, 0, None
    while start < len(text):
        first_document = text.find("# newdoc", start) + 1  # a stretch holds one document or more
        cut = text.find("\n# newdoc", max(start + CHUNK, first_document)) + 1 or len(text)
        part = _read_chunk(path, text[start:cut], keep_tokens, (lines_before, cut == len(text)), columns)
        if part is None:
            return None
        read, columns = part
        out.documents.extend(read.documents)
        out.sentences.update(read.sentences)
        out.zero_lines.update(read.zero_lines)
        out.warnings.extend(read.warnings)
        if cut < len(text):
            lines_before += text.count("\n", start, cut)
        start = cut
    return out


def _read_chunk(
    path: str, text: str, keep_tokens: bool, place: tuple[int, bool], columns: tuple[int, tuple[int, ...]] | None
) -> tuple[UALayers, tuple[int, tuple[int, ...]]] | None:
    """:func:`read_regular` of a stretch of whole documents (``place``: the lines before it, and
    whether it ends the file), in the layer ``columns`` the stretches before it found (None for
    the first), and those it finds."""
    line0, final = place
    data = text.encode("utf-8")
    b = np.frombuffer(data, dtype=np.uint8)
    lines, tabs, tabs_before, odd = _lines(b)
    if not (lines.word.any() and _plain_white_space(data, text.isascii(), lines, odd)):
        return None
    comments = np.flatnonzero(lines.comment)
    headers, newdocs = (_starting(b, lines, comments, p) for p in (b"# global.columns", b"# newdoc"))
    rows = np.flatnonzero(lines.word)
    if not newdocs.size or rows[0] < newdocs[0] or (headers.size and (columns or headers[-1] > rows[0])):
        return None
    needed, layers = columns or layout(DEFAULT_COLUMNS)
    for row in headers.tolist():
        needed, layers = layout(header_columns(_line(data, lines, row)))
    cells = _Cells(tabs, tabs_before[rows], tabs_before[rows + 1], lines.starts[rows], lines.ends[rows])
    if not _cells_regular(b, lines, rows, cells, needed):
        return None
    document = np.searchsorted(newdocs, rows, side="right") - 1
    words = _Words(rows, document, np.searchsorted(document, np.arange(newdocs.size + 1)), line0)
    source = text if text.isascii() else data
    zeros = _zero_words(b, cells)
    sentence, lengths = _sentences(lines, newdocs, words, zeros)
    forms = fingerprints(data, *cells.cell(1))
    tokens = _texts(source, *cells.cell(1)) if keep_tokens else []
    names = ("identity", "discourse deixis", "bridging")
    markup = [_layer_cells(data, source, words, cells, column, path) for column in zip(layers[:3], names)]
    out = UALayers([], {}, {}, [], keep_tokens)
    zero_lines: dict[int, dict[int, int]] = {}  # by document index, as the line-by-line reader keeps them
    for d in range(newdocs.size):
        first, last = int(words.firsts[d]), int(words.firsts[d + 1])
        if first == last:
            continue  # a document without words is left out, as the line-by-line reader leaves it
        at = (first, last)
        nodes = _document_zeros(path, source, cells, words, at, zeros, sentence)
        if nodes:
            zero_lines[len(out.documents)] = nodes
        end_line = line0 + (int(newdocs[d + 1]) + 1 if d + 1 < newdocs.size else lines.starts.size + final)
        named = (document_name(_line(data, lines, int(newdocs[d])).strip()), line0 + int(newdocs[d]) + 1)
        kept = tuple(tokens[first:last]) if keep_tokens else ()
        finish(path, out, named, lengths[d], _document_markup(path, d, at, markup), (forms[first:last], kept), end_line)
    out.zero_lines.update((out.documents[i].name, z) for i, z in zero_lines.items())
    return out, (needed, layers)


def _lines(b: np.ndarray) -> tuple[_Lines, np.ndarray, np.ndarray, np.ndarray]:
    """The lines of the bytes ``b``; the positions of its tabs, and how many come before each
    line (one more entry: all); the positions of the other white space ``str.split()`` splits at
    (ASCII only), looked for only when the bytes below ``!`` are more than the tabs and line breaks."""
    breaks, tabs = np.flatnonzero(b == 10), np.flatnonzero(b == 9)
    tabs_before = np.searchsorted(tabs, breaks)  # tabs before each line break
    low = b < 33
    other = np.zeros(0, dtype=np.int64)
    if np.count_nonzero(low) > breaks.size + tabs.size:
        other = np.flatnonzero(low & (b != 9) & (b != 10))
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [b.size]))
    if b.size:  # a carriage return ending a line is white space to the reader: left out
        ends -= (ends > starts) & (b[np.maximum(ends - 1, 0)] == 13)
    first = np.zeros(starts.size, dtype=np.uint8)
    some = ends > starts
    first[some] = b[starts[some]]
    comment = first == ord("#")
    per_line = np.concatenate(([0], tabs_before, [tabs.size]))
    return _Lines(starts, ends, comment, some & ~comment), tabs, per_line, other[_ASCII_SPACE[b[other]]]


def _line(data: bytes, lines: _Lines, row: int) -> str:
    """The text of line ``row``."""
    return data[lines.starts[row] : lines.ends[row]].decode()


def _plain_white_space(data: bytes, ascii: bool, lines: _Lines, odd: np.ndarray) -> bool:
    """Whether no line but comments holds white space other than tabs (``odd``: the positions of
    other ASCII white space; a line's final carriage return left out)."""
    if odd.size:
        row = np.searchsorted(lines.starts, odd, side="right") - 1
        if (~lines.comment[row] & (odd < lines.ends[row])).any():
            return False
    if ascii:
        return True
    wide = np.asarray([m.start() for m in _wide_space().finditer(data)], dtype=np.int64)
    return not wide.size or bool(lines.comment[np.searchsorted(lines.starts, wide, side="right") - 1].all())


def _starting(b: np.ndarray, lines: _Lines, rows: np.ndarray, prefix: bytes) -> np.ndarray:
    """The lines of ``rows`` that start with ``prefix``."""
    rows = rows[lines.ends[rows] - lines.starts[rows] >= len(prefix)]
    for i, byte in enumerate(prefix):
        rows = rows[b[lines.starts[rows] + i] == byte]
    return rows


class _Cells:
    """Where the cells of every word line are: cell ``k`` of a line runs from after its ``k``-th tab
    to its next tab or the line's end."""

    def __init__(
        self, tabs: np.ndarray, first_tab: np.ndarray, next_first: np.ndarray, starts: np.ndarray, ends: np.ndarray
    ) -> None:
        self.tabs, self.first_tab, self.starts, self.ends = tabs, first_tab, starts, ends
        self.n_tabs = next_first - first_tab

    def cell(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The first byte of cell ``k`` of every word line and the byte past its last (every line has it)."""
        start = self.starts if k == 0 else self.tabs[self.first_tab + (k - 1)] + 1
        last = np.minimum(self.first_tab + k, self.tabs.size - 1)
        return start, np.where(k < self.n_tabs, self.tabs[last], self.ends)


def _cells_regular(b: np.ndarray, lines: _Lines, rows: np.ndarray, cells: _Cells, needed: int) -> bool:
    """Whether every word line has more than ``needed`` cells and no empty one."""
    if cells.n_tabs.min() < needed or (b[cells.starts] == 9).any() or (b[cells.ends - 1] == 9).any():
        return False
    doubled = cells.tabs[1:][np.diff(cells.tabs) == 1]
    return not doubled.size or not lines.word[np.searchsorted(lines.starts, doubled, side="right") - 1].any()


def _texts(source: str | bytes, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The texts ``source[start:end]`` (``source``: the file's text if ASCII, else its bytes)."""
    if isinstance(source, str):
        return [source[s:e] for s, e in zip(starts.tolist(), ends.tolist())]
    return [source[s:e].decode() for s, e in zip(starts.tolist(), ends.tolist())]


def _zero_words(b: np.ndarray, cells: _Cells) -> np.ndarray:
    """The word lines (indices among them) whose first cell holds ``.``: zeros (their first cells
    read a byte at a time when short, as they are, else found from the file's dots)."""
    start, end = cells.cell(0)
    length = end - start
    longest = int(length.max())
    if longest > 8:
        dots = np.flatnonzero(b == ord("."))
        word = np.searchsorted(start, dots, side="right") - 1
        return np.unique(word[(word >= 0) & (dots < end[np.maximum(word, 0)])])
    dotted = np.zeros(start.size, dtype=bool)
    for i in range(longest):
        dotted |= (i < length) & (b[np.minimum(start + i, b.size - 1)] == ord("."))
    return np.flatnonzero(dotted)


def _sentences(
    lines: _Lines, newdocs: np.ndarray, words: _Words, zeros: np.ndarray
) -> tuple[np.ndarray, list[list[int]]]:
    """Each word's sentence (its number in its document), and each document's sentence lengths
    (zeros left out): a sentence is the words between empty lines or ``# newdoc`` lines."""
    breaks = lines.ends == lines.starts
    breaks[newdocs] = True
    segment = np.cumsum(breaks)[words.rows]
    new = np.ones(segment.size, dtype=bool)
    new[1:] = segment[1:] != segment[:-1]
    firsts = np.flatnonzero(new)
    counted = np.ones(segment.size, dtype=np.int64)
    counted[zeros] = 0
    lengths = np.add.reduceat(counted, firsts)
    of_document = words.document[firsts]
    bounds = np.searchsorted(of_document, np.arange(newdocs.size + 1))
    number = np.cumsum(new) - 1
    number -= bounds[words.document]
    return number, [lengths[bounds[d] : bounds[d + 1]].tolist() for d in range(newdocs.size)]


class _LayerCells(NamedTuple):
    """The cells of one layer that are not ``_``: their word lines (indices among them, an array
    and a list), their line numbers and texts; or, for a markable layer read column-wise
    (:mod:`.ua_brackets`), each document's markables instead of the texts."""

    at: np.ndarray
    words: list[int]
    lines: list[int]
    texts: list[str]
    markables: list[Markables] | None = None


def _layer_cells(
    data: bytes, source: str | bytes, words: _Words, cells: _Cells, column: tuple[int, str], path: str
) -> _LayerCells | None:
    """The cells of the layer at position ``column[0]`` (-1: a layer the file does not have; its
    name ``column[1]``, ``bridging`` for the BRIDGING column) that are not ``_``."""
    k, name = column
    if k < 0:
        return None
    start, end = cells.cell(k)
    at = np.flatnonzero((end - start != 1) | (np.frombuffer(data, dtype=np.uint8)[start] != ord("_")))
    lines = words.rows[at] + 1 + words.line0
    if name != "bridging":
        markables = column_markables(data, Column(start[at], end[at], at, lines, words.firsts), path, name)
        if markables is not None:
            return _LayerCells(at, [], [], [], markables)
    return _LayerCells(at, at.tolist(), lines.tolist(), _texts(source, start[at], end[at]))


def _document_markup(path: str, document: int, at: tuple[int, int], layers: list[_LayerCells | None]) -> Markup:
    """The markup of ``document``, whose words are ``at`` (first, past last) among the word lines,
    from the cells of its IDENTITY, DISCOURSE_DEIXIS and BRIDGING columns (``layers``)."""
    first = at[0]
    read = Markup()
    for column, layer in zip(layers, (read.identity, read.deixis, None)):
        if column is None:
            continue
        if column.markables is not None and layer is not None:
            layer.columns = column.markables[document]
            continue
        lo, hi = np.searchsorted(column.at, at).tolist()
        for w, line, cell in zip(column.words[lo:hi], column.lines[lo:hi], column.texts[lo:hi]):
            if layer is None:
                read.bridges.extend(bridging_cell(path, line, cell))
            else:
                markable_cell(path, line, cell, layer, w - first)
    return read


def _document_zeros(
    path: str,
    source: str | bytes,
    cells: _Cells,
    words: _Words,
    at: tuple[int, int],
    zeros: np.ndarray,
    sentence: np.ndarray,
) -> dict[int, int]:
    """The zero lines of the document whose words are ``at``: position -> position as an empty node."""
    first = at[0]
    lo, hi = np.searchsorted(zeros, at).tolist()  # zeros are in order
    chosen = zeros[lo:hi]
    if not chosen.size:
        return {}
    ids = _texts(source, cells.starts[chosen], cells.tabs[cells.first_tab[chosen]])
    return {
        w - first: zero_position(path, int(words.rows[w]) + 1 + words.line0, word_id, int(sentence[w]))
        for w, word_id in zip(chosen.tolist(), ids)
    }
