"""The lines of a CoNLL-2012 file, classified block by block into a summary the size of its mentions.

A file (or a bytes object) is walked in blocks of about :data:`BLOCK_SIZE` bytes, each cut after its
last newline and the rest carried into the next block, so no line, CRLF pair or UTF-8 character is
ever split. Each block's lines are classified column-wise with numpy (:class:`LineTable`: blank,
``#`` line, token, token carrying a mention) and only what the reader needs is kept (a
:class:`Summary`): the text of ``#`` lines, the coreference fields of mention-carrying lines (their
bytes in one buffer), their line and token numbers, token counts, the last non-blank line, and with
``keep_tokens`` the words. Reading a file therefore needs memory in proportion to its mentions
(plus one block), not to its size; the results are those of classifying the whole file at once.

The separator of the last column (TAB if the file has one, else space) is decided per block: a
block without a TAB gives the same columns either way, because a line without a TAB is cut at its
last space under both rules.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from ..core.diagnostics import InputError
from ..core.progress import reading
from .sources import BLOCK_SIZE, input_blocks
from .utf8 import check_utf8
from .word_prints import fingerprints

BOM = b"\xef\xbb\xbf"
BLANK, HASH, TOKEN, MENTION = 0, 1, 2, 3
_WHITESPACE = np.zeros(256, dtype=bool)
_WHITESPACE[[9, 10, 11, 12, 13, 32]] = True
_TRAILING_PASSES = 4  # trailing white space bytes cut for all lines at once before lines are cut one by one
_BACKWARDS = 32  # bytes searched back from a line's end for its last column, for all lines at once
_TAB, _SPACE, _DASH, _UNDERSCORE = ord("\t"), ord(" "), ord("-"), ord("_")


def words_and_tags(block: bytes, start: np.ndarray, end: np.ndarray) -> tuple[list[str], list[str]]:
    """:func:`word_and_tag` of the lines ``block[start[i]:end[i]]``, column-wise: the TABs of every
    line are found at once, the fourth and fifth columns of all lines joined and decoded in one
    piece; only lines without a TAB (space-separated) are split one by one."""
    arr = np.frombuffer(block, dtype=np.uint8)
    tabs = np.flatnonzero(arr == _TAB)
    first, stop = np.searchsorted(tabs, start), np.searchsorted(tabs, end)
    n_tabs = stop - first
    words = [""] * start.size
    tags = ["-"] * start.size

    def columns(lines: np.ndarray, left: int) -> list[str]:
        """The text between TAB ``left`` and TAB ``left + 1`` of each line, stripped."""
        a = (tabs[first[lines] + left] + 1).tolist()
        b = tabs[first[lines] + left + 1].tolist()
        joined = b"\n".join([block[i:j] for i, j in zip(a, b, strict=True)]).decode("utf-8")
        return list(map(str.strip, joined.split("\n"))) if lines.size else []

    with_word = np.flatnonzero(n_tabs >= 4)
    for i, w in zip(with_word.tolist(), columns(with_word, 2), strict=True):
        words[i] = w
    with_tag = np.flatnonzero(n_tabs >= 5)
    for i, t in zip(with_tag.tolist(), columns(with_tag, 3), strict=True):
        tags[i] = sys.intern(t)
    for i in np.flatnonzero(n_tabs == 0).tolist():
        words[i], tags[i] = word_and_tag(block[int(start[i]) : int(end[i])])
    return words, tags


def word_spans(block: bytes, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the word of each line ``block[start[i]:end[i]]`` is (as :func:`word` takes it: the
    fourth column of a line of at least five, split at TABs if it has one, else at white space;
    an empty span for a line without one), column-wise: the fields of all space-separated lines
    are found in one pass over the block."""
    arr = np.frombuffer(block, dtype=np.uint8)
    tabs = np.flatnonzero(arr == _TAB)
    tabs = np.concatenate((tabs, np.full(4, arr.size + 1, dtype=tabs.dtype)))  # past every line
    first = np.searchsorted(tabs, start)
    a, b = start.copy(), start.copy()
    tabbed = np.flatnonzero(tabs[first + 3] < end)
    a[tabbed], b[tabbed] = tabs[first[tabbed] + 2] + 1, tabs[first[tabbed] + 3]
    spaced = np.flatnonzero(tabs[first] >= end)
    if spaced.size:
        space = _WHITESPACE[arr]
        fields = np.flatnonzero(~space & np.concatenate(([True], space[:-1])))
        field_ends = np.flatnonzero(~space & np.concatenate((space[1:], [True]))) + 1
        k = np.searchsorted(fields, start[spaced])
        five = np.searchsorted(fields, end[spaced]) - k >= 5
        a[spaced[five]], b[spaced[five]] = fields[k[five] + 3], field_ends[k[five] + 3]
    _strip(arr, a, b, tabbed)
    return a, b


def _strip(arr: np.ndarray, a: np.ndarray, b: np.ndarray, rows: np.ndarray) -> None:
    """Cut white space at both ends of the spans ``rows`` (a word between TABs may be padded)."""
    for _ in range(_TRAILING_PASSES):
        rows = rows[a[rows] < b[rows]]
        head, tail = _WHITESPACE[arr[a[rows]]], _WHITESPACE[arr[b[rows] - 1]]
        a[rows[head]] += 1
        b[rows[tail]] -= 1
        rows = rows[head | tail]
    for i in rows.tolist():
        while a[i] < b[i] and _WHITESPACE[arr[a[i]]]:
            a[i] += 1
        while a[i] < b[i] and _WHITESPACE[arr[b[i] - 1]]:
            b[i] -= 1


class LineTable(NamedTuple):
    """Every line of a text, column-wise: where it starts, ends (trailing white space cut), where
    its last column starts, and its kind (blank, ``#`` line, token, token carrying a mention)."""

    start: np.ndarray
    end: np.ndarray
    field: np.ndarray
    kind: np.ndarray

    @classmethod
    def of(cls, data: bytes) -> LineTable:
        arr = np.frombuffer(data, dtype=np.uint8)
        newlines = np.flatnonzero(arr == 10)
        start = np.concatenate(([0], newlines + 1))
        end = np.concatenate((newlines, [arr.size]))
        end = _trailing_space_cut(data, arr, start, end)
        separator = _TAB if b"\t" in data else _SPACE
        last = arr[np.maximum(end - 1, 0)]
        plain = (end > start) & ((last == _DASH) | (last == _UNDERSCORE))
        plain &= (end - start == 1) | (arr[np.maximum(end - 2, 0)] == separator)  # '-' or '_' after it
        first = arr[np.minimum(start, max(arr.size - 1, 0))] if arr.size else np.zeros(0, dtype=np.uint8)
        field = start.copy()
        field[plain] = end[plain] - 1
        hashed = first == ord("#")  # '#' lines have no columns to find
        _last_column(data, arr, start, end, field, np.flatnonzero((end > start) & ~plain & ~hashed), separator)
        kind = np.full(start.size, TOKEN, dtype=np.int8)
        kind[hashed] = HASH
        kind[end <= start] = BLANK
        one = (end - field == 1) & (
            (arr[np.minimum(field, arr.size - 1)] == _DASH) | (arr[np.minimum(field, arr.size - 1)] == _UNDERSCORE)
        )
        kind[(kind == TOKEN) & ~one] = MENTION
        return cls(start, end, field, kind)


def _trailing_space_cut(data: bytes, arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The lines' ends with trailing white space cut, in time linear in the text.

    Most lines end with at most a ``\r`` or a space or two: those are cut for all lines at once, a
    byte at a time for :data:`_TRAILING_PASSES` bytes; the few lines with more are cut one by one.
    """
    end = end.copy()
    pending = np.flatnonzero(end > start)
    for _ in range(_TRAILING_PASSES):
        trailing = _WHITESPACE[arr[end[pending] - 1]]
        pending = pending[trailing]
        if pending.size == 0:
            return end
        end[pending] -= 1
        pending = pending[end[pending] > start[pending]]
    for i in pending.tolist():
        line_start = int(start[i])
        end[i] = line_start + len(data[line_start : int(end[i])].rstrip())
    return end


def _last_column(
    data: bytes,
    arr: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    field: np.ndarray,
    lines: np.ndarray,
    separator: int,
) -> None:
    """Set ``field`` of ``lines`` to the start of their last column: after the line's last TAB, or
    after its last space if it has no TAB.

    The last column is short, so the lines are searched backwards from their ends together, one
    byte position at a time (for a TAB, or in a text without TABs for a space); the few lines where
    that decides nothing within ``_BACKWARDS`` bytes are searched one by one.
    """
    pending = lines
    undecided = []
    for back in range(1, _BACKWARDS + 1):
        if pending.size == 0:
            break
        at = end[pending] - back
        inside = at >= start[pending]
        hit = inside & (arr[np.maximum(at, 0)] == separator)
        field[pending[hit]] = at[hit] + 1
        if separator == _TAB:
            undecided.append(pending[~inside])  # no TAB on the line: its last space decides
        pending = pending[inside & ~hit]
    for i in np.concatenate([pending, *undecided]).tolist():
        line_start, line_end = int(start[i]), int(end[i])
        cut = data.rfind(b"\t", line_start, line_end)
        if cut < 0:
            cut = data.rfind(b" ", line_start, line_end)
        field[i] = cut + 1 if cut >= 0 else line_start


def word(line: str) -> str:
    """A token line's word: its fourth column if it has at least five, else an empty string."""
    cols = line.split("\t") if "\t" in line else line.split()
    return cols[3].strip() if len(cols) >= 5 else ""


def word_and_tag(line: bytes) -> tuple[str, str]:
    """A token line's word (as :func:`word`) and part of speech: its fifth column (interned) if it
    has at least six, else ``-``. Tab-separated lines are split as bytes, decoding two fields only."""
    if b"\t" not in line:
        text = line.decode("utf-8")
        cols = text.split()
        return word(text), sys.intern(cols[4].strip()) if len(cols) >= 6 else "-"
    fields = line.split(b"\t", 5)
    found = fields[3].decode("utf-8").strip() if len(fields) >= 5 else ""
    return found, sys.intern(fields[4].decode("utf-8").strip()) if len(fields) >= 6 else "-"


class Summary(NamedTuple):
    """What the reader needs of a text's lines (line and token numbers count from 0).

    ``hash_lines``, ``hash_texts`` and ``hash_tokens`` hold each ``#`` line's number, text (the last
    line of the text with trailing white space cut, any other without its ``\\r``) and the tokens
    before it (three columns: a file of many small documents has two such lines for each). Mention-carrying lines are
    ``mention_lines`` with ``mention_tokens`` (their token numbers) and their last column's bytes,
    ``fields[field_bounds[i]:field_bounds[i + 1]]``.
    """

    n_lines: int
    n_tokens: int
    last_nonblank: int  # -1 when every line is blank
    hash_lines: list[int]
    hash_texts: list[str]
    hash_tokens: list[int]
    mention_lines: np.ndarray
    mention_tokens: np.ndarray
    fields: bytes
    field_bounds: np.ndarray
    words: list[str] | None
    bom: bool
    pos: list[str] | None
    #: Each token's word fingerprint (:mod:`.word_prints`).
    prints: np.ndarray
    #: The tokens before each blank line (where a sentence ends), in text order.
    sentence_breaks: np.ndarray


def _hash_lines(
    block: bytes, table: LineTable, kind: np.ndarray, before: int, tokens_through: np.ndarray
) -> tuple[list[int], list[str], list[int]]:
    """The ``#`` lines of a block as :class:`Summary` holds them (``before``: the lines of earlier
    blocks), decoded in one piece: a file of many small documents has two for each."""
    at = np.flatnonzero(kind == HASH)
    if not at.size:
        return [], [], []
    stops = table.start[np.minimum(at + 1, table.start.size - 1)] - 1
    stops[at + 1 == table.start.size] = table.end[-1]  # the text's last line: trailing white space cut
    texts = b"\n".join([block[a:b] for a, b in zip(table.start[at].tolist(), stops.tolist())]).decode("utf-8")
    lines = texts.split("\n")
    if "\r" in texts:
        lines = [t.rstrip("\r") for t in lines]
    return (at + before).tolist(), lines, tokens_through[at].tolist()


class _Scan:
    """Builds a :class:`Summary` from a text's blocks, fed in order."""

    def __init__(self, keep_tokens: bool) -> None:
        self.n_lines = self.n_tokens = 0
        self.last_nonblank = -1
        self.hash_lines: list[int] = []
        self.hash_texts: list[str] = []
        self.hash_tokens: list[int] = []
        self.lines: list[np.ndarray] = []
        self.tokens: list[np.ndarray] = []
        self.lengths: list[np.ndarray] = []
        self.fields: list[np.ndarray] = []
        self.words: list[str] | None = [] if keep_tokens else None
        self.pos: list[str] | None = [] if keep_tokens else None
        self.breaks: list[np.ndarray] = []
        self.prints: list[np.ndarray] = []

    def feed(self, block: bytes, final: bool) -> None:
        """Classify ``block``: whole lines, ending with a newline unless it is the text's end."""
        if not block:  # after a final newline: one blank line
            self.n_lines += final
            return
        table = LineTable.of(block)
        kind = table.kind if final else table.kind[:-1]  # a block ending with a newline: no line after it
        is_token = kind >= TOKEN
        tokens_through = np.cumsum(is_token)
        nonblank = np.flatnonzero(kind != BLANK)
        if nonblank.size:
            self.last_nonblank = self.n_lines + int(nonblank[-1])
        lines, texts, tokens = _hash_lines(block, table, kind, self.n_lines, tokens_through + self.n_tokens)
        self.hash_lines += lines
        self.hash_texts += texts
        self.hash_tokens += tokens
        self.breaks.append(tokens_through[kind == BLANK] + self.n_tokens)
        rows = np.flatnonzero(kind == MENTION)
        if rows.size:
            starts = table.field[rows]
            lengths = table.end[rows] - starts
            offsets = np.cumsum(lengths) - lengths
            at = np.repeat(starts - offsets, lengths) + np.arange(int(lengths.sum()))
            self.fields.append(np.frombuffer(block, dtype=np.uint8)[at])
            self.lengths.append(lengths)
            self.lines.append(rows + self.n_lines)
            self.tokens.append(tokens_through[rows] - 1 + self.n_tokens)
        token_start, token_end = table.start[: kind.size][is_token], table.end[: kind.size][is_token]
        self.prints.append(fingerprints(block, *word_spans(block, token_start, token_end)))
        if self.words is not None and self.pos is not None:
            words, tags = words_and_tags(block, token_start, token_end)
            self.words.extend(words)
            self.pos.extend(tags)
        self.n_lines += kind.size
        self.n_tokens += int(tokens_through[-1]) if kind.size else 0

    def summary(self, bom: bool) -> Summary:
        lengths = np.concatenate([np.zeros(1, dtype=np.int64), *self.lengths])
        return Summary(
            n_lines=self.n_lines,
            n_tokens=self.n_tokens,
            last_nonblank=self.last_nonblank,
            hash_lines=self.hash_lines,
            hash_texts=self.hash_texts,
            hash_tokens=self.hash_tokens,
            mention_lines=np.concatenate([np.zeros(0, dtype=np.int64), *self.lines]),
            mention_tokens=np.concatenate([np.zeros(0, dtype=np.int64), *self.tokens]),
            fields=np.concatenate([np.zeros(0, dtype=np.uint8), *self.fields]).tobytes(),
            field_bounds=np.cumsum(lengths),
            words=self.words,
            bom=bom,
            pos=self.pos,
            sentence_breaks=np.concatenate([np.zeros(0, dtype=np.int64), *self.breaks]),
            prints=np.concatenate([np.zeros(0, dtype=np.uint64), *self.prints]),
        )


def scan_bytes(data: bytes, keep_tokens: bool = False, bom: bool = True, block_size: int = BLOCK_SIZE) -> Summary:
    """The summary of ``data`` (UTF-8, not checked again), walked in blocks of about
    ``block_size`` bytes; a leading byte-order mark is skipped (and said) when ``bom``."""
    skip = bom and data.startswith(BOM)
    scan = _Scan(keep_tokens)
    pos = len(BOM) if skip else 0
    while True:
        cut = data.rfind(b"\n", pos, pos + block_size)
        if cut < 0:
            cut = data.find(b"\n", pos + block_size)
        if cut < 0:
            scan.feed(data[pos:], True)
            return scan.summary(skip)
        scan.feed(data[pos : cut + 1], False)
        pos = cut + 1


def scan_file(path: str, keep_tokens: bool = False, block_size: int = BLOCK_SIZE) -> Summary:
    """The summary of the input at ``path`` (a file, ``-``, a pipe; gzip or not: see
    :mod:`.sources`), read in blocks of about ``block_size`` bytes."""
    return scan_blocks(path, input_blocks(path, block_size), keep_tokens)


def scan_blocks(path: str, blocks: Iterable[tuple[bytes, bool]], keep_tokens: bool = False) -> Summary:
    """The summary of an input given as blocks of whole lines (as :func:`.sources.input_blocks`
    gives them), each checked to be UTF-8 as it comes (a located :class:`InputError` at the first
    byte that is not); a leading byte-order mark is skipped and said. An input of nothing but white
    space is an error."""
    scan = _Scan(keep_tokens)
    skip = first = False
    for block, final in reading(path, blocks):
        check_utf8(path, block, scan.n_lines + 1)
        if not first:
            first = True
            skip = block.startswith(BOM)
            block = block[len(BOM) :] if skip else block
        scan.feed(block, final)
    if scan.last_nonblank < 0 and not skip:
        raise InputError(path, 1, "the file is empty")
    return scan.summary(skip)
