"""The lines of a CorefUD (CoNLL-U) text, classified column-wise with numpy.

:func:`scan` finds in a few passes over the bytes what :func:`.corefud.read_corefud` reads line by
line: blank lines, comments, multiword tokens, words (their ids and HEADs checked and turned into
positions and parents) and empty nodes, the documents (``# newdoc``) and sentences they make, and
the ``Entity=``, ``SplitAnte=`` and ``Bridge=`` items of the MISC column. Python visits only the
lines that carry something of their own: ``# newdoc`` and ``# global.Entity`` comments, empty nodes,
and split antecedents and bridges (read by the line reader's own functions).

A text with a line this scan does not vouch for (a line that is neither blank, a comment nor ten
columns, an id or HEAD that is not 1 to 9 digits, a word id out of sequence, a HEAD past its
sentence, anything the line reader would refuse) gives ``None``: the line reader then reads it and
says what is wrong, at which line, as it always did.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ..core.dataclass_methods import field_eq, field_repr
from ..core.diagnostics import InputError
from ..core.empty_nodes import EMPTY_SLOTS, MAX_WORDS, NO_PARENT, empty_position
from .corefud_notation import (
    DEFAULT_FIELDS,
    MAX_DIGITS,
    CorefUDBridge,
    comment,
    entity_fields,
    number,
    parse_bridges,
    parse_deps,
    parse_split_antecedents,
)
from .decimal_digits import decimal_values
from .word_prints import fingerprints

BLANK, COMMENT, WORD, EMPTY_NODE, MULTIWORD = 0, 1, 2, 3, 4
_TAB, _NEWLINE, _CR, _HASH = 9, 10, 13, ord("#")
_PIPE, _UNDERSCORE, _EQUALS = (ord(c) for c in "|_=")
_CR_PASSES = 4  # trailing CRs cut for all lines at once before the rest are cut one by one


@dataclass(init=False, repr=False, eq=False)
class Nodes:
    """The words and empty nodes of the text, in file order (one entry per node)."""

    line: np.ndarray  # 0-based line
    doc: np.ndarray  # document
    index: np.ndarray  # node index within its document
    position: np.ndarray  # position within its document (see corefud.empty_position for empty nodes)
    parent: np.ndarray  # the position of its syntactic parent, -1 for none, NO_PARENT without a HEAD
    empty: np.ndarray  # whether it is an empty node

    def __init__(
        self,
        line: np.ndarray,
        doc: np.ndarray,
        index: np.ndarray,
        position: np.ndarray,
        parent: np.ndarray,
        empty: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.line = line
        self.doc = doc
        self.index = index
        self.position = position
        self.parent = parent
        self.empty = empty

    __repr__ = field_repr
    __eq__ = field_eq


class ScannedDocument:
    """What one document's lines give, besides its nodes and mentions (a plain class with slots:
    a file may have a million documents)."""

    __slots__ = (
        "name",
        "begin_line",
        "end_line",
        "first_node",
        "n_nodes",
        "n_words",
        "first_word",
        "sentence_lengths",
        "anchors",
        "follows",
        "empty_deps",
        "split_antecedents",
        "bridges",
    )

    def __init__(
        self,
        name: str,
        begin_line: int,
        end_line: int,
        first_node: int,
        n_nodes: int,
        n_words: int,
        first_word: int,
        sentence_lengths: list[int],
    ) -> None:
        self.name = name
        self.begin_line = begin_line  # line number
        self.end_line = end_line  # the line number the line reader closes it at (the next '# newdoc', else the last)
        self.first_node = first_node  # its nodes are first_node .. first_node + n_nodes - 1
        self.n_nodes = n_nodes
        self.n_words = n_words
        self.first_word = first_word  # in the text's words
        self.sentence_lengths = sentence_lengths
        self.anchors: dict[int, int] = {}
        self.follows: dict[int, int] = {}
        self.empty_deps: dict[int, frozenset[tuple[int, str]]] = {}
        self.split_antecedents: list[tuple[str, tuple[str, ...]]] = []
        self.bridges: list[CorefUDBridge] = []


@dataclass(init=False, repr=False, eq=False)
class Scan:
    """A CoNLL-U text read column-wise."""

    data: bytes
    first_line: int
    documents: list[ScannedDocument]
    nodes: Nodes
    #: The ``Entity=`` items: their node (in :attr:`nodes`), where the value is in :attr:`data`, and
    #: the ``# global.Entity`` fields in force on their line.
    entity_node: np.ndarray
    entity_start: np.ndarray
    entity_end: np.ndarray
    entity_fields: list[tuple[str, ...]]
    entity_field_set: np.ndarray  # index into entity_fields, per item
    field_lines: np.ndarray  # the line of each '# global.Entity' after the first field set
    words: list[str] | None = None
    upos: list[str] | None = None
    #: Each word's fingerprint (:mod:`.word_prints`), in file order.
    prints: np.ndarray | None = None

    def __init__(
        self,
        data: bytes,
        first_line: int,
        documents: list[ScannedDocument],
        nodes: Nodes,
        entity_node: np.ndarray,
        entity_start: np.ndarray,
        entity_end: np.ndarray,
        entity_fields: list[tuple[str, ...]],
        entity_field_set: np.ndarray,
        field_lines: np.ndarray,
        words: list[str] | None = None,
        upos: list[str] | None = None,
        prints: np.ndarray | None = None,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.data = data
        self.first_line = first_line
        self.documents = documents
        self.nodes = nodes
        self.entity_node = entity_node
        self.entity_start = entity_start
        self.entity_end = entity_end
        self.entity_fields = entity_fields
        self.entity_field_set = entity_field_set
        self.field_lines = field_lines
        self.words = words
        self.upos = upos
        self.prints = prints

    __repr__ = field_repr
    __eq__ = field_eq


def fields_at(s: Scan, line_numbers: list[int]) -> list[tuple[str, ...]]:
    """The ``# global.Entity`` fields in force at each line number (after the line, if it is one)."""
    at = np.searchsorted(s.field_lines, np.asarray(line_numbers, dtype=np.int64) - s.first_line, side="right")
    return [s.entity_fields[i] for i in at.tolist()]


def digits(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether each ``arr[start:end]`` is 1 to :data:`~.corefud.MAX_DIGITS` ASCII digits, and its value."""
    return decimal_values(arr, start, end, MAX_DIGITS)


def _line_ends(data: bytes, arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each line's start and end, its trailing carriage returns cut (as ``rstrip("\\r")`` cuts them)."""
    newlines = np.flatnonzero(arr == _NEWLINE)
    start = np.concatenate(([0], newlines + 1))
    end = np.concatenate((newlines, [arr.size]))
    pending = np.flatnonzero(end > start)
    for _ in range(_CR_PASSES):
        pending = pending[arr[end[pending] - 1] == _CR]
        end[pending] -= 1
        pending = pending[end[pending] > start[pending]]
        if not pending.size:
            return start, end
    for i in pending[arr[end[pending] - 1] == _CR].tolist():
        end[i] = start[i] + len(data[start[i] : end[i]].rstrip(b"\r"))
    return start, end


def first_of_each(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values, sorted, and where each first occurs: ``np.unique(values,
    return_index=True)`` without importing ``numpy.ma`` as ``np.unique`` does (20 ms)."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    new = np.ones(ordered.size, dtype=bool)
    new[1:] = ordered[1:] != ordered[:-1]
    return ordered[new], order[new]


def distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (as ``np.unique``, see :func:`first_of_each`)."""
    return first_of_each(np.asarray(values, dtype=np.int64))[0]


def _found(data: bytes, word: bytes) -> np.ndarray:
    """Where ``word`` occurs in ``data`` (a word that is rare: found one by one)."""
    out = []
    at = data.find(word)
    while at >= 0:
        out.append(at)
        at = data.find(word, at + len(word))
    return np.asarray(out, dtype=np.int64)


def _before(arr: np.ndarray, at: np.ndarray, key: bytes) -> np.ndarray:
    """The starts of ``key`` where it comes right before a position of ``at``."""
    at = at[at >= len(key)]
    for i, byte in enumerate(reversed(key), 1):
        at = at[arr[at - i] == byte]
    return at - len(key)


def count_in(marks: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """How many of the sorted positions ``marks`` lie in each ``[start, end)``."""
    return np.searchsorted(marks, end) - np.searchsorted(marks, start)


def texts(data: bytes, start: np.ndarray, end: np.ndarray) -> list[str]:
    """The text of each ``data[start:end]`` (none holds a newline), decoded in one piece."""
    if not start.size:
        return []
    joined = b"\n".join([data[a:b] for a, b in zip(start.tolist(), end.tolist())])
    return joined.decode("utf-8").split("\n")


class _Unsure(Exception):
    """A line the column-wise scan does not vouch for: the line reader reads the text."""


def scan(text: str, first_line: int = 1, keep_tokens: bool = False) -> Scan | None:
    """The text read column-wise (``text`` without its byte-order mark), or ``None`` when a line
    needs the line reader (see the module's docstring)."""
    try:
        return _scan(text, first_line, keep_tokens)
    except (_Unsure, InputError):
        return None


@dataclass(init=False, repr=False, eq=False)
class _Rows:
    """The lines of ten columns (``line``), with where their TABs are, so that column ``k`` of row
    ``r`` runs from ``tab(k - 1)[r] + 1`` to ``tab(k)[r]`` (column 9 to the line's end)."""

    line: np.ndarray
    tabs: np.ndarray
    first_tab: np.ndarray
    ident: np.ndarray  # the id of a word's row

    def __init__(
        self,
        line: np.ndarray,
        tabs: np.ndarray,
        first_tab: np.ndarray,
        ident: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.line = line
        self.tabs = tabs
        self.first_tab = first_tab
        self.ident = ident

    __repr__ = field_repr
    __eq__ = field_eq

    def tab(self, k: int, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        return self.tabs[self.first_tab[rows] + k]


def _scan(text: str, first_line: int, keep_tokens: bool) -> Scan:
    data = text.encode("utf-8")
    arr = np.frombuffer(data, dtype=np.uint8)
    start, end = _line_ends(data, arr)
    n = start.size
    length = end - start
    first = arr[np.minimum(start, max(arr.size - 1, 0))] if arr.size else np.zeros(n, dtype=np.uint8)
    kind = np.full(n, BLANK, dtype=np.int8)
    kind[(length > 0) & (first == _HASH)] = COMMENT
    tabs = np.append(np.flatnonzero(arr == _TAB), [arr.size + 1] * 10)  # never reached by a line
    first_tab = np.searchsorted(tabs, start)
    row = (length > 0) & (kind == BLANK) & (tabs[first_tab + 8] < end) & (tabs[first_tab + 9] > end)
    for i in np.flatnonzero((length > 0) & (kind == BLANK) & ~row).tolist():
        if data[start[i] : end[i]].decode("utf-8").strip():
            raise _Unsure  # not ten columns: the line reader says so
    line = np.flatnonzero(row)
    rows = _Rows(line, tabs, first_tab[line], np.zeros(0, dtype=np.int64))
    id_end = rows.tab(0)
    word, rows.ident = digits(arr, start[line], id_end)
    kind[line] = WORD
    for r in np.flatnonzero(~word).tolist():  # multiword tokens, empty nodes, and ids the line reader refuses
        ident = data[start[line[r]] : id_end[r]]
        if b"-" in ident:
            kind[line[r]] = MULTIWORD
        elif b"." in ident:
            kind[line[r]] = EMPTY_NODE
        else:
            raise _Unsure
    return _structure(data, arr, first_line, kind, start, end, rows, keep_tokens)


def _comments(data: bytes, start: np.ndarray, end: np.ndarray, kind: np.ndarray) -> list[tuple[int, str, str]]:
    """The ``# newdoc`` and ``# global.Entity`` comments: (line, kind, value), in file order."""
    hits = np.concatenate([_found(data, word) for word in (b"newdoc", b"global.Entity")])
    lines = distinct(np.searchsorted(start, hits, side="right") - 1)
    lines = lines[kind[lines] == COMMENT]
    out = []
    for line, text in zip(lines.tolist(), texts(data, start[lines], end[lines])):
        if text.startswith("# newdoc id = "):  # the usual form, as comment() reads it
            out.append((line, "newdoc", text[14:].strip()))
            continue
        what, value = comment(text)
        if what:
            out.append((line, what, value))
    return out


@dataclass(init=False, repr=False, eq=False)
class _Lines:
    """Per-line counts the structure of documents and sentences is read from."""

    kind: np.ndarray
    words_before: np.ndarray  # words before each line (n + 1 entries)
    nodes_before: np.ndarray
    resets: np.ndarray  # blank and '# newdoc' lines: where a sentence's word count starts again
    doc_starts: np.ndarray  # the line each document starts at

    def __init__(
        self,
        kind: np.ndarray,
        words_before: np.ndarray,
        nodes_before: np.ndarray,
        resets: np.ndarray,
        doc_starts: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.kind = kind
        self.words_before = words_before
        self.nodes_before = nodes_before
        self.resets = resets
        self.doc_starts = doc_starts

    __repr__ = field_repr
    __eq__ = field_eq

    def doc_of(self, lines: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.doc_starts, lines, side="right") - 1

    def last_reset(self, lines: np.ndarray) -> np.ndarray:
        """The last reset line at or before each line (-1: none)."""
        at = np.searchsorted(self.resets, lines, side="right") - 1
        return np.where(at >= 0, self.resets[np.maximum(at, 0)], -1)


def _structure(
    data: bytes,
    arr: np.ndarray,
    first_line: int,
    kind: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    rows: _Rows,
    keep_tokens: bool,
) -> Scan:
    """The documents, sentences, nodes and items of classified lines (see :func:`scan`)."""
    n = kind.size
    comments = _comments(data, start, end, kind)
    newdocs = [(line, value) for line, what, value in comments if what == "newdoc"]
    field_lines = [line for line, what, _ in comments if what == "global.Entity"]
    field_sets = [DEFAULT_FIELDS] + [
        entity_fields("", line + first_line, value) for line, what, value in comments if what == "global.Entity"
    ]
    is_node = (kind == WORD) | (kind == EMPTY_NODE)
    first_node = int(np.argmax(is_node)) if is_node.any() else n
    starts = [(line, name) for line, name in newdocs]
    if first_node < n and (not newdocs or first_node < newdocs[0][0]):
        starts.insert(0, (first_node, ""))
    lines = _Lines(
        kind=kind,
        words_before=np.concatenate(([0], np.cumsum(kind == WORD))),
        nodes_before=np.concatenate(([0], np.cumsum(is_node))),
        resets=distinct(np.concatenate([np.flatnonzero(kind == BLANK), [line for line, _ in newdocs]])),
        doc_starts=np.asarray([line for line, _ in starts], dtype=np.int64),
    )
    row_of = np.full(n, -1, dtype=np.int64)
    row_of[rows.line] = np.arange(rows.line.size)
    position, parent = _words(arr, rows, row_of, lines)
    documents = _documents(starts, lines, first_line, n)
    node_lines = np.flatnonzero(is_node)
    empty = kind[node_lines] == EMPTY_NODE
    _empty_nodes(data, start, rows, row_of, node_lines[empty], lines, documents, position, first_line)
    parent[node_lines[empty]] = -1
    node_doc = lines.doc_of(node_lines)
    nodes = Nodes(
        line=node_lines,
        doc=node_doc,
        index=lines.nodes_before[node_lines] - lines.nodes_before[lines.doc_starts[node_doc]],
        position=position[node_lines],
        parent=parent[node_lines],
        empty=empty,
    )
    items = _items(data, arr, start, end, rows, row_of, kind)
    entity = items[2] == 0
    entity_line = items[0][entity]
    _other_items(data, items, position, lines, documents, first_line)
    words = upos = None
    word_rows = row_of[np.flatnonzero(kind == WORD)]
    prints = fingerprints(data, rows.tab(0, word_rows) + 1, rows.tab(1, word_rows))
    if keep_tokens:
        words = texts(data, rows.tab(0, word_rows) + 1, rows.tab(1, word_rows))
        upos = [sys.intern(t) for t in texts(data, rows.tab(2, word_rows) + 1, rows.tab(3, word_rows))]
    return Scan(
        data=data,
        first_line=first_line,
        documents=documents,
        nodes=nodes,
        entity_node=np.searchsorted(node_lines, entity_line),
        entity_start=items[1][entity],
        entity_end=items[3][entity],
        entity_fields=field_sets,
        entity_field_set=np.searchsorted(np.asarray(field_lines, dtype=np.int64), entity_line),
        field_lines=np.asarray(field_lines, dtype=np.int64),
        words=words,
        upos=upos,
        prints=prints,
    )


def _words(arr: np.ndarray, rows: _Rows, row_of: np.ndarray, lines: _Lines) -> tuple[np.ndarray, np.ndarray]:
    """Each line's position and parent (words only; the other lines' entries are 0), after checking
    every word's id (its place in its sentence) and HEAD (within its sentence)."""
    n = lines.kind.size
    position = np.zeros(n, dtype=np.int64)
    parent = np.zeros(n, dtype=np.int64)
    word_lines = np.flatnonzero(lines.kind == WORD)
    if not word_lines.size:
        return position, parent
    word_rows = row_of[word_lines]
    ident = rows.ident[word_rows]
    W = lines.words_before
    # sentence k: the lines after reset k - 1 up to reset k; its words, and the words before it
    sentence = np.searchsorted(lines.resets, word_lines)
    bounds = W[np.concatenate(([0], lines.resets + 1, [n]))]
    before = bounds[:-1][sentence]
    in_sentence = np.arange(word_lines.size) - before
    if not np.array_equal(ident, in_sentence + 1):
        raise _Unsure
    head_start, head_end = rows.tab(5, word_rows) + 1, rows.tab(6, word_rows)
    no_head = (head_end - head_start == 1) & (arr[head_start] == _UNDERSCORE)
    ok, head = digits(arr, head_start, head_end)
    if not (ok | no_head).all() or (np.where(no_head, 0, head) > (bounds[1:] - bounds[:-1])[sentence]).any():
        raise _Unsure
    last_lines = np.append(lines.resets, n) - 1  # each sentence's last line (in its words' document)
    doc_first_word = W[lines.doc_starts][lines.doc_of(last_lines)]  # the words before its document
    pos = np.arange(word_lines.size) - doc_first_word[sentence]
    position[word_lines] = pos
    parent[word_lines] = np.where(no_head, NO_PARENT, np.where(head == 0, -1, pos - ident + head))
    return position, parent


def _documents(starts: list[tuple[int, str]], lines: _Lines, first_line: int, n: int) -> list[ScannedDocument]:
    """The documents that start at ``starts`` (line, name), with their sentences' lengths."""
    W, N = lines.words_before, lines.nodes_before
    seg_end = np.append(lines.resets, n)  # sentence k: the lines after reset k - 1, up to reset k
    seg_words = W[seg_end] - W[np.concatenate(([0], lines.resets + 1))]
    full = np.flatnonzero(seg_words > 0)
    cuts = np.searchsorted(lines.doc_of(seg_end[full] - 1), np.arange(len(starts) + 1)).tolist()
    lengths = seg_words[full].tolist()
    bounds = np.append(lines.doc_starts, n)
    ends = (bounds[1:] + first_line).tolist()
    if ends:
        ends[-1] = n - 1 + first_line  # the last document ends with the text
    nodes, words = N[bounds].tolist(), W[bounds].tolist()
    return [
        ScannedDocument(
            name,
            line + first_line,
            ends[d],
            nodes[d],
            nodes[d + 1] - nodes[d],
            words[d + 1] - words[d],
            words[d],
            lengths[cuts[d] : cuts[d + 1]],
        )
        for d, (line, name) in enumerate(starts)
    ]


def _sentences_before(lines: _Lines, n: int) -> np.ndarray:
    """For each line, the sentences with words ended by a blank line before it (n + 1 entries): a
    document's sentences before a line are the difference of two entries."""
    W = lines.words_before
    seg_words = W[lines.resets] - W[np.concatenate(([0], lines.resets[:-1] + 1))]
    ended = np.zeros(n, dtype=np.int64)
    ended[lines.resets[(lines.kind[lines.resets] == BLANK) & (seg_words > 0)]] = 1
    return np.concatenate(([0], np.cumsum(ended)))


def _empty_nodes(
    data: bytes,
    start: np.ndarray,
    rows: _Rows,
    row_of: np.ndarray,
    empty_lines: np.ndarray,
    lines: _Lines,
    documents: list[ScannedDocument],
    position: np.ndarray,
    first_line: int,
) -> None:
    """Read the empty nodes (their ids and DEPS, with the line reader's own checks) into
    ``position`` and their documents' ``anchors``, ``follows`` and ``empty_deps``."""
    if not empty_lines.size:
        return
    W = lines.words_before
    docs = lines.doc_of(empty_lines)
    doc_start = lines.doc_starts[docs]
    sentence_start = W[lines.last_reset(empty_lines) + 1] - W[doc_start]
    before = _sentences_before(lines, lines.kind.size)
    sentence = before[empty_lines] - before[doc_start]
    r = row_of[empty_lines]
    idents = texts(data, start[empty_lines], rows.tab(0, r))
    deps = texts(data, rows.tab(7, r) + 1, rows.tab(8, r))
    for line, d, ident, dep, s_start, s in zip(
        empty_lines.tolist(), docs.tolist(), idents, deps, sentence_start.tolist(), sentence.tolist()
    ):
        lineno = line + first_line
        head, _, dot = ident.partition(".")
        word = number("", lineno, head, "the word id before the dot of empty node")
        k = number("", lineno, dot, "the empty node number of")
        if not 1 <= k <= EMPTY_SLOTS or word >= MAX_WORDS:
            raise _Unsure
        p = empty_position(s, word, k)
        doc = documents[d]
        doc.anchors[p] = s_start + max(word - 1, 0)
        doc.follows[p] = s_start + word - 1
        doc.empty_deps[p] = parse_deps("", lineno, dep, s, s_start)
        position[line] = p


#: Item kinds by their first letter: Entity, SplitAnte, Bridge.
_ITEM_KIND = np.zeros(256, dtype=np.int64)
_ITEM_KIND[[ord("E"), ord("S"), ord("B")]] = [0, 1, 2]
_ITEM_KEY = np.asarray([len("Entity="), len("SplitAnte="), len("Bridge=")])


def _items(
    data: bytes,
    arr: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    rows: _Rows,
    row_of: np.ndarray,
    kind: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``Entity=``, ``SplitAnte=`` and ``Bridge=`` items of the nodes' MISC columns, in file
    order: their line, where their value starts, their kind (0, 1, 2) and where the value ends."""
    equals = np.flatnonzero(arr == _EQUALS)
    at = np.sort(np.concatenate([_before(arr, equals, key) for key in (b"Entity", b"SplitAnte", b"Bridge")]))
    line = np.searchsorted(start, at, side="right") - 1
    node = (kind[line] == WORD) | (kind[line] == EMPTY_NODE)
    at, line = at[node], line[node]
    misc = rows.tab(8, row_of[line]) + 1
    item = (at == misc) | ((at > misc) & (arr[np.maximum(at - 1, 0)] == _PIPE))
    at, line = at[item], line[item]
    what = _ITEM_KIND[arr[at]]
    value = at + _ITEM_KEY[what]
    pipes = np.flatnonzero(arr == _PIPE)
    following = np.searchsorted(pipes, value)
    pipe = pipes[np.minimum(following, pipes.size - 1)] if pipes.size else end[line]
    stop = np.where((following < pipes.size) & (pipe < end[line]), pipe, end[line])
    return line, value, what, stop


def _other_items(
    data: bytes,
    items: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    position: np.ndarray,
    lines: _Lines,
    documents: list[ScannedDocument],
    first_line: int,
) -> None:
    """Read the ``SplitAnte=`` and ``Bridge=`` items into their documents (in file order)."""
    line, value, what, stop = items
    other = np.flatnonzero(what > 0)
    docs = lines.doc_of(line[other]).tolist()
    for i, d, text in zip(other.tolist(), docs, texts(data, value[other], stop[other])):
        lineno = int(line[i]) + first_line
        if what[i] == 1:
            documents[d].split_antecedents.extend(parse_split_antecedents("", lineno, text))
        else:
            documents[d].bridges.extend(parse_bridges("", lineno, text, int(position[line[i]])))
