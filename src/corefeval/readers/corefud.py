"""Reader for CorefUD 1.x: CoNLL-U with coreference in the MISC column.

Documents start at ``# newdoc``; ``# global.Entity = eid-etype-head-other`` names the dash-separated
fields of an opening bracket (``eid`` or GUM's ``GRP``; ``head`` is the 1-based position of the
mention's head among its words). ``Entity=`` holds brackets: ``(e1-person-2`` opens, ``e1)`` closes,
``(e1-person-1)`` is a one-word mention, ``(e2[1/2]`` ... ``e2[2/2])`` are the parts of one
discontinuous mention. A mention is a set of nodes: every node from its opening to its closing
bracket, empty nodes (zeros, ids like ``5.1``) included. ``SplitAnte=`` and ``Bridge=`` are kept
for the anaphora measures and conversion, not scored by the identity metrics.

Positions: word ``i`` of a document is position ``i`` (0-based, over all its sentences, multiword
token lines skipped), so CoNLL-U and CoNLL-2012 files of one text agree. An empty node ``w.k`` of the
document's sentence ``s`` gets position ``EMPTY + s * 2**26 + w * 64 + k - 1`` (see
:func:`empty_position`), the same in any file with the same sentences.
Mentions that are not one contiguous run of words, or contain empty nodes, record their exact
positions in ``Document.parts``. Heads come from the ``head`` field, else from the syntax (the
first word whose HEAD lies outside the mention); a mention of several words some of which have no
HEAD (``_``, as in files written without a tree) has no head, :data:`NO_HEAD`, rather than a guess.
Every number in the file is read by :func:`number`, which accepts 1 to 9 ASCII digits.
"""

from __future__ import annotations

import heapq
import re
import sys
from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np

from ..diagnostics import Diagnostic, InputError
from ..model import Corpus, Document

#: Positions at or above this are empty nodes (zeros).
EMPTY = 1 << 40
EMPTY_SLOTS = 64
MAX_WORDS = 1 << 20
#: The head of a mention whose file gives neither a ``head`` field nor a syntactic tree for its words.
NO_HEAD = -1
#: The parent of a word whose HEAD is ``_`` (no tree); lower than any position, so outside every mention.
NO_PARENT = -2
#: Numbers in a CorefUD file (ids, HEAD, parts) have at most this many ASCII digits.
MAX_DIGITS = 9
#: Nodes held one by one (discontinuous mentions and mentions with empty nodes): at most this many,
#: or ``HELD_PER_NODE`` per node of the file if that is more.
MAX_HELD = 1 << 23
HELD_PER_NODE = 8
#: Mentions longer than this find their syntactic head in a segment tree, not word by word.
SHORT = 64
DEFAULT_FIELDS: tuple[str, ...] = ("eid", "etype", "head", "other")
#: Where an entity's first mention is in a file: (document's place, node order, id).
EntityKey = tuple[int, tuple[int, int, int], str]
#: How a mention without a ``head`` field gets its head (see :func:`read_corefud`).
HEAD_CHOICES = ("first", "tree")
_CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")
_DISCONTINUOUS = re.compile(r"^(.+)\[([^\[\]/]*)/([^\[\]/]*)\]$")
_NUMBER = re.compile(f"[0-9]{{1,{MAX_DIGITS}}}")


def is_empty(position: int) -> bool:
    return position >= EMPTY


def empty_position(sentence: int, word: int, k: int) -> int:
    """Position of empty node ``word.k`` of the document's ``sentence``-th sentence (0-based)."""
    return EMPTY + (sentence << 26) + (word << 6) + k - 1


def empty_id(position: int) -> tuple[int, int, int]:
    """Inverse of :func:`empty_position`: ``(sentence, word, k)``."""
    rest = position - EMPTY
    return rest >> 26, (rest >> 6) & ((1 << 20) - 1), (rest & 63) + 1


def number(path: str, line: int, text: str, what: str) -> int:
    """``text`` as a non-negative integer: the one conversion of file text to a number, so that
    ``²``, ``٣``, ``+3`` or 5000 digits are an error naming the line, never a traceback."""
    if not _NUMBER.fullmatch(text):
        raise InputError(path, line, f"{what} '{text[:40]}' is not a number (expected 1 to {MAX_DIGITS} digits 0-9)")
    return int(text)


@dataclass(frozen=True)
class CorefUDBridge:
    """A bridging link of ``Bridge=e12<e15:part`` on the first node of a mention of ``e15``: that
    mention (the ``anaphor`` entity's mention opened at or before ``position``) is anchored to the
    entity ``anchor`` by ``relation`` (may be empty); ``line`` is the file's line."""

    anaphor: str
    position: int
    anchor: str
    relation: str = ""
    line: int = 0


@dataclass
class CorefUDCorpus(Corpus):
    """A corpus read from CorefUD, with what scoring does not use but conversion keeps.

    ``entity_types[doc][label]`` is the ``etype`` of an entity; ``split_antecedents[doc]`` lists
    ``(label, antecedent labels)`` from ``SplitAnte=``; ``bridges[doc]`` the bridging links of
    ``Bridge=`` (:class:`CorefUDBridge`); ``sentences[doc]`` the number of words
    of each sentence; ``empty_deps[doc][position]`` an empty node's DEPS as ``(parent position,
    relation)`` pairs (parent -1 for the root), which align zeros by their dependencies;
    ``headless_line`` the line of the file's first mention of several nodes without a ``head`` field
    (0: none), whose head is the reading option ``heads`` decides.
    """

    entity_types: dict[str, dict[str, str]] = field(default_factory=dict)
    split_antecedents: dict[str, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    bridges: dict[str, list[CorefUDBridge]] = field(default_factory=dict)
    sentences: dict[str, list[int]] = field(default_factory=dict)
    empty_deps: dict[str, dict[int, frozenset[tuple[int, str]]]] = field(default_factory=dict)
    headless_line: int = 0
    #: Each document's entity ids (one mapping per document, in order) with the place of their first
    #: mention in it, ``(document's place in the file, node order, id)``: what a later document of
    #: the file orders its entities by (``earlier`` of :func:`read_corefud`), for readers of one
    #: document at a time; empty for ids of their own document (GUM's ``GRP``).
    first_mentions: list[dict[str, EntityKey]] = field(default_factory=list)


@dataclass(frozen=True)
class CorefUDDocument(Document):
    """A document read from CorefUD, with the place of each empty node among the words:
    ``follows[position]`` is the position of the word an empty node comes after (one less than its
    sentence's first word for ``0.k``), so that mentions can be put in file order."""

    follows: dict[int, int] = field(default_factory=dict)
    #: Later copies of a mention's nodes in its own entity with another head: ``row -> ((head,
    #: line), ...)`` after the mention's row. They are one mention, except under head matching,
    #: where the CorefUD scorer tells mentions apart by their heads too (see
    #: :func:`corefeval.selection.with_head_copies`).
    head_copies: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)


def node_order(doc: Document, position: int) -> tuple[int, int]:
    """A sort key putting the nodes of ``doc`` in file order: a word is ``(2 * position, 0)``, an
    empty node ``w.k`` is ``(2 * position of word w, k)``, and ``0.k`` (before a sentence's first
    word) is ``(2 * position of that word - 1, k)``, after the empty nodes ending the sentence before."""
    if not is_empty(position):
        return 2 * position, 0
    follows = doc.follows if isinstance(doc, CorefUDDocument) else {}
    _, word, k = empty_id(position)
    before = follows.get(position, position)
    return 2 * before + (1 if word == 0 else 0), k


@dataclass
class _Mention:
    label: str
    line: int
    serial: int
    runs: list[tuple[int, int]] = field(default_factory=list)  # node ranges, inclusive
    head_index: int | None = None
    parts_total: int = 0
    parts_seen: int = 0


@dataclass
class _Row:
    """A finished mention: its span, its exact positions when they are not one run of words, its
    head, and its place in udapi's order (first node index, minus its number of nodes, last node index)."""

    mention: _Mention
    start: int
    end: int
    parts: tuple[int, ...] | None
    head: int
    order: tuple[int, int, int]


class _DocumentReader:
    """Collects the nodes and mentions of one document.

    Mentions are kept as node ranges, so that long nested mentions cost what their brackets cost;
    the parts of discontinuous mentions are paired through queues keyed by entity, part count and
    the part waited for, so that each bracket costs a logarithmic time whatever the file.
    """

    def __init__(
        self, path: str, name: str, line: int, keep_tokens: bool, held: list[int], first_heads: bool = False
    ) -> None:
        self.path = path
        self.name = name
        self.begin_line = line
        self.positions: list[int] = []  # node index -> position
        self.anchors: dict[int, int] = {}  # empty node position -> position of the word before (or after)
        self.follows: dict[int, int] = {}  # empty node position -> position of the word before (-1 + first)
        self.empty_deps: dict[int, frozenset[tuple[int, str]]] = {}
        # node index -> position of its syntactic parent, -1 for none, NO_PARENT for a word without HEAD
        self.parents: list[int] = []
        self.empties_before = np.zeros(1, dtype=np.int64)  # node index -> empty nodes before it (at the end)
        self.treeless_before = np.zeros(1, dtype=np.int64)  # node index -> words without a HEAD before it
        self.words: list[str] | None = [] if keep_tokens else None
        self.upos: list[str] | None = [] if keep_tokens else None
        self.n_words = 0
        self.sentence_lengths: list[int] = []
        self.entity_types: dict[str, str] = {}
        self.open: dict[tuple[str, int], list[tuple[_Mention, int]]] = {}  # (label, part) -> (mention, first node)
        self.waiting: dict[tuple[str, int, int], list[tuple[int, _Mention]]] = {}  # heaps by serial
        self.unfinished: dict[int, _Mention] = {}  # serial -> discontinuous mention with parts to come
        self.serial = 0
        self.done: list[_Mention] = []
        self.split_antecedents: list[tuple[str, tuple[str, ...]]] = []
        self.bridges: list[CorefUDBridge] = []
        self.held = held  # [nodes held one by one so far in the file, nodes read so far in the file]
        self.tree: _EscapeTree | None = None
        self.first_heads = first_heads
        self.repeats = 0  # mentions left out for repeating a mention of their entity
        # the first mention of each entity id of the file's earlier documents, as (document, order,
        # id): udapi orders the entities of a whole file (None: ids of this document are its own)
        self.earlier: dict[str, EntityKey] | None = None
        self.first_keys: dict[str, EntityKey] = {}  # this document's ids, their first mention here
        self.index = 0  # this document's place in the file
        self.notes: list[Diagnostic] = []  # warnings about brackets left open
        self.headless_line = 0  # the first line opening a mention of several nodes without a head field

    def error(self, line: int, message: str) -> InputError:
        return InputError(self.path, line, message)

    def add_node(self, position: int, parent: int) -> int:
        """Record a node; returns its index."""
        self.positions.append(position)
        self.parents.append(parent)
        return len(self.positions) - 1

    def entity(self, label: str, etype: str | None) -> None:
        if etype and label not in self.entity_types:
            self.entity_types[label] = etype

    def brackets(self, value: str, node: int, line: int, fields: tuple[str, ...]) -> None:
        """Apply one node's ``Entity=`` value."""
        pos = 0
        for m in _CHUNK.finditer(value):
            if m.start() != pos:
                break
            pos = m.end()
            chunk = m.group()
            if chunk[0] == "(":
                self.opening(chunk[1:].rstrip(")"), chunk.endswith(")"), node, line, fields)
            else:
                self.closing(chunk[:-1], node, line)
        if pos != len(value):
            raise self.error(
                line,
                f"cannot read 'Entity={value}': expected brackets like '(e1-person-1', 'e1)' or '(e1-person-1)'",
            )

    def part_of(self, label: str, line: int) -> tuple[str, int, int]:
        """``e2[1/3]`` -> ``("e2", 1, 3)``; a plain label is part 0 of 0."""
        d = _DISCONTINUOUS.match(label)
        if not d:
            return label, 0, 0
        part = number(self.path, line, d.group(2), f"the part number of '{label}'")
        total = number(self.path, line, d.group(3), f"the part count of '{label}'")
        if not 1 <= part <= total:
            raise self.error(line, f"'{label}': part {part} of {total} does not exist")
        return d.group(1), part, total

    def opening(self, body: str, closes: bool, node: int, line: int, fields: tuple[str, ...]) -> None:
        values = dict(zip(fields, body.split("-"), strict=False))
        label = values.get("eid", values.get("GRP"))
        if not label:
            raise self.error(line, f"'({body}' has no entity id (global.Entity = {'-'.join(fields)})")
        label, part, total = self.part_of(label, line)
        head_index = None
        if values.get("head"):
            head_index = number(self.path, line, values["head"], f"the head of '({body}'")
        self.entity(label, values.get("etype") or values.get("entity"))
        if part > 1:
            queue = self.waiting.get((label, total, part - 1))
            if not queue:
                raise self.error(
                    line,
                    f"'({body}': part {part} of a discontinuous mention whose part {part - 1} was not seen",
                )
            _, mention = heapq.heappop(queue)  # the earliest mention waiting for this part
        else:
            mention = _Mention(label, line, self.serial, parts_total=total)
            self.serial += 1
            if total:
                self.unfinished[mention.serial] = mention
        if head_index is not None:
            mention.head_index = head_index
        mention.parts_seen = max(part, 1)
        self.open.setdefault((label, part), []).append((mention, node))
        if closes:
            self.closing(label + (f"[{part}/{total}]" if total else ""), node, line)

    def closing(self, label: str, node: int, line: int) -> None:
        label, part, total = self.part_of(label, line)
        # the innermost open mention of this entity with the same part ("e1)" closes a plain one)
        stack = self.open.get((label, part))
        if not stack:
            name = f"{label}[{part}/{total}]" if total else label
            raise self.error(line, f"'{name})' closes a mention of entity {label} that is not open")
        mention, first = stack.pop()
        mention.runs.append((first, node))
        if total and part < total:
            heapq.heappush(self.waiting.setdefault((label, mention.parts_total, part), []), (mention.serial, mention))
            return
        self.unfinished.pop(mention.serial, None)
        self.done.append(mention)

    def finish(self, end_line: int) -> Document:
        self.leave_unfinished(end_line)
        self.held[1] += len(self.positions)
        counts = np.zeros(len(self.positions) + 1, dtype=np.int64)
        np.cumsum(np.asarray(self.positions, dtype=np.int64) >= EMPTY, out=counts[1:])
        self.empties_before = counts
        counts = np.zeros(len(self.positions) + 1, dtype=np.int64)
        np.cumsum(np.asarray(self.parents, dtype=np.int64) == NO_PARENT, out=counts[1:])
        self.treeless_before = counts
        rows: list[_Row] = []
        for m in self.done:
            a, b = m.runs[0]
            if m.head_index is None and (a != b or len(m.runs) > 1):
                self.headless_line = min(self.headless_line or m.line, m.line)
            if len(m.runs) == 1 and self.empties_before[b + 1] == self.empties_before[a]:
                rows.append(
                    _Row(m, self.positions[a], self.positions[b], None, self.span_head(m, a, b), (a, -(b - a + 1), b))
                )
                continue
            nodes = self.hold(m)
            positions = [self.positions[n] for n in nodes]
            words = [p for p in positions if not is_empty(p)]
            start, end = (words[0], words[-1]) if words else (self.anchors[positions[0]],) * 2
            exact = len(words) != len(positions) or end - start + 1 != len(words)
            order = (nodes[0], -len(nodes), nodes[-1])
            rows.append(_Row(m, start, end, tuple(positions) if exact else None, self.head(m, nodes), order))
        rows, labels, copies = self.in_udapi_order(rows)
        parts = {i: row.parts for i, row in enumerate(rows) if row.parts is not None}
        rank = {label: k for k, label in enumerate(labels)}
        return CorefUDDocument(
            name=self.name,
            starts=np.asarray([row.start for row in rows], dtype=np.int64),
            ends=np.asarray([row.end for row in rows], dtype=np.int64),
            entities=np.asarray([rank[row.mention.label] for row in rows], dtype=np.int64),
            labels=labels,
            n_tokens=self.n_words,
            lines=np.asarray([row.mention.line for row in rows], dtype=np.int64),
            begin_line=self.begin_line,
            parts=parts,
            heads=np.asarray([row.head for row in rows], dtype=np.int64),
            tokens=tuple(self.words) if self.words is not None else None,
            pos=tuple(self.upos) if self.upos is not None else None,
            follows=self.follows,
            head_copies=copies,
        )

    def leave_unfinished(self, end_line: int) -> None:
        """What udapi (and so the CorefUD scorer) does with brackets left open at the end: a mention
        never closed is left out; a discontinuous mention whose later parts never come is the parts
        it has, headed by its first node. Each is a warning (:attr:`notes`)."""
        dropped: set[int] = set()
        for (label, _), stack in self.open.items():
            for mention, _ in stack:
                dropped.add(mention.serial)
                self.unfinished.pop(mention.serial, None)
                self.notes.append(
                    Diagnostic(
                        self.path,
                        mention.line,
                        f"a mention of entity {label} opened here is not closed before the document ends at line "
                        f"{end_line}; it is left out, as the CorefUD scorer leaves it out",
                    )
                )
        if dropped:
            self.done = [m for m in self.done if m.serial not in dropped]
        for mention in sorted(self.unfinished.values(), key=lambda m: m.serial):
            mention.head_index = None
            self.done.append(mention)
            self.notes.append(
                Diagnostic(
                    self.path,
                    mention.line,
                    f"discontinuous mention of entity {mention.label} has only {mention.parts_seen} of its "
                    f"{mention.parts_total} parts; it is scored as those parts, headed by its first node, "
                    "as the CorefUD scorer scores it",
                )
            )
        self.unfinished.clear()

    def in_udapi_order(
        self, rows: list[_Row]
    ) -> tuple[list[_Row], tuple[str, ...], dict[int, tuple[tuple[int, int], ...]]]:
        """The rows, and the entity labels, in udapi's order (which the CorefUD scorer inherits):
        entities by their first mention (ties by id), mentions by first node, longer first, then by
        last node, then in the order of their opening brackets. A later copy of a mention's nodes in
        its own entity is left out, as the CorefUD scorer reads it once; one with another head is
        returned with the row it copies (the third value), for head matching. udapi
        orders the entities of a whole file: an id shared with an earlier document of the file
        (:attr:`earlier`) takes its place from its first mention there (see docs/formats.md)."""
        first: dict[str, EntityKey] = {}
        for row in rows:
            label = row.mention.label
            here = (self.index, row.order, label)
            first[label] = min(first.get(label, here), here)
        earlier = self.earlier if self.earlier is not None else {}
        labels = tuple(sorted(first, key=lambda label: earlier.get(label, first[label])))
        if self.earlier is not None:
            for label, key in first.items():
                self.earlier.setdefault(label, key)
            self.first_keys = first
        rank = {label: k for k, label in enumerate(labels)}
        rows.sort(key=lambda row: (rank[row.mention.label], row.order, row.mention.serial))
        kept: list[_Row] = []
        seen: dict[tuple[str, Hashable], tuple[int, list[int]]] = {}
        copies: dict[int, tuple[tuple[int, int], ...]] = {}
        for row in rows:
            identity = (row.mention.label, row.parts if row.parts is not None else (row.start, row.end))
            if identity in seen:
                self.repeats += 1
                at, heads = seen[identity]
                if row.head not in heads:
                    heads.append(row.head)
                    copies[at] = (*copies.get(at, ()), (row.head, row.mention.line))
                continue
            seen[identity] = (len(kept), [row.head])
            kept.append(row)
        return kept, labels, copies

    def hold(self, m: _Mention) -> list[int]:
        """The nodes of a mention one by one, within the file's budget for such nodes."""
        nodes = sorted({n for a, b in m.runs for n in range(a, b + 1)})
        self.held[0] += len(nodes)
        budget = max(MAX_HELD, HELD_PER_NODE * self.held[1])
        if self.held[0] > budget:
            raise self.error(
                m.line,
                f"discontinuous mentions and mentions with empty nodes cover {self.held[0]} nodes in all "
                f"up to this one, more than the {budget} this file's size allows",
            )
        return nodes

    def span_head(self, m: _Mention, a: int, b: int) -> int:
        """The head of the mention of words ``a..b`` (node indices, no empty node among them)."""
        if m.head_index is not None:
            return self.positions[a + self.head_offset(m, b - a + 1)]
        if a == b or self.first_heads:
            return self.positions[a]
        if self.treeless_before[b + 1] != self.treeless_before[a]:
            return NO_HEAD
        start, end = self.positions[a], self.positions[b]
        if b - a < SHORT:
            first = next((n for n in range(a, b + 1) if not start <= self.parents[n] <= end), a)
            return self.positions[first]
        if self.tree is None:
            self.tree = _EscapeTree(self.parents)
        return self.positions[self.tree.first_outside(a, b, start, end)]

    def head_offset(self, m: _Mention, size: int) -> int:
        assert m.head_index is not None
        if not 1 <= m.head_index <= size:
            raise self.error(
                m.line,
                f"head {m.head_index} of a mention of entity {m.label} is outside its {size} words",
            )
        return m.head_index - 1

    def head(self, m: _Mention, nodes: list[int]) -> int:
        """The head position: the ``head`` field, else the first word whose parent is outside;
        :data:`NO_HEAD` for a mention of several words some of which have no HEAD."""
        if m.head_index is not None:
            return self.positions[nodes[self.head_offset(m, len(nodes))]]
        if self.first_heads:
            return self.positions[nodes[0]]
        words = [n for n in nodes if not is_empty(self.positions[n])]
        if len(words) > 1 and any(self.parents[n] == NO_PARENT for n in words):
            return NO_HEAD
        inside = {self.positions[n] for n in nodes}
        for n in words:
            if self.parents[n] not in inside:
                return self.positions[n]
        return self.positions[nodes[0]]


class _EscapeTree:
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


def read_corefud(
    path: str,
    text: str,
    keep_tokens: bool = False,
    first_line: int = 1,
    heads: str = "first",
    earlier: dict[str, EntityKey] | None = None,
    first_index: int = 0,
) -> CorefUDCorpus:
    """Read a CorefUD CoNLL-U file (documents in file order); ``first_line`` is the line number of
    ``text``'s first line, when it is a part of a larger file, ``first_index`` the place in the file
    of its first document, and ``earlier`` the first mention of each entity id of the documents
    before it (see :attr:`CorefUDCorpus.first_mentions`): udapi orders the entities of a whole file.

    ``heads`` decides the head of a mention whose opening bracket has no ``head`` field: ``first``
    (the default), the mention's first node, as udapi (and so the CorefUD scorer and the official
    CRAC numbers) takes it; ``tree``, the first word whose syntactic HEAD is outside the mention."""
    if heads not in HEAD_CHOICES:
        raise ValueError(f"unknown heads '{heads}' (choose from {', '.join(HEAD_CHOICES)})")
    warnings: list[Diagnostic] = []
    documents: list[Document] = []
    corpus_types: dict[str, dict[str, str]] = {}
    corpus_split: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    corpus_bridges: dict[str, list[CorefUDBridge]] = {}
    corpus_sentences: dict[str, list[int]] = {}
    corpus_deps: dict[str, dict[int, frozenset[tuple[int, str]]]] = {}
    fields = DEFAULT_FIELDS
    seen: dict[str, int] = {}
    earlier = dict(earlier or {})
    corpus_firsts: list[dict[str, EntityKey]] = []
    held = [0, 0]
    headless_line = 0
    doc: _DocumentReader | None = None
    sentence_start = 0  # position of the sentence's first word
    sentence_words = 0
    highest_head = (0, 0)  # the sentence's largest HEAD and its line
    lineno = 0

    def close(end_line: int) -> None:
        nonlocal headless_line
        assert doc is not None
        if doc.n_words == 0 and not doc.done:
            return
        if sentence_words:
            doc.sentence_lengths.append(sentence_words)
        if doc.name in seen:
            warnings.append(
                Diagnostic(
                    path,
                    doc.begin_line,
                    f"document '{doc.name}' appears again (first at "
                    f"line {seen[doc.name]}); the last occurrence is scored",
                )
            )
        seen.setdefault(doc.name, doc.begin_line)
        doc.index = first_index + len(documents)
        doc.earlier = None if "GRP" in fields and "eid" not in fields else earlier  # GRP ids are per document
        documents.append(doc.finish(end_line))
        warnings.extend(doc.notes)
        headless_line = headless_line or doc.headless_line
        if doc.repeats:
            warnings.append(
                Diagnostic(
                    path,
                    doc.begin_line,
                    f"document '{doc.name}': {doc.repeats} mention(s) repeat the words of a mention of "
                    "their own entity; each is scored once, as the CorefUD scorer does",
                )
            )
        corpus_types[doc.name] = doc.entity_types
        corpus_split[doc.name] = doc.split_antecedents
        corpus_bridges[doc.name] = doc.bridges
        corpus_sentences[doc.name] = doc.sentence_lengths
        corpus_deps[doc.name] = doc.empty_deps
        corpus_firsts.append(doc.first_keys)

    def end_sentence() -> None:
        if highest_head[0] > sentence_words:
            raise InputError(
                path, highest_head[1], f"HEAD {highest_head[0]} points past the sentence's {sentence_words} words"
            )

    if text.startswith("\ufeff"):
        text = text[1:]
    for lineno, raw in enumerate(text.split("\n"), first_line):
        line = raw.rstrip("\r")
        if not line.strip():
            end_sentence()
            if doc is not None and sentence_words:
                doc.sentence_lengths.append(sentence_words)
            sentence_start += sentence_words
            sentence_words = 0
            highest_head = (0, 0)
            continue
        if line.startswith("#"):
            kind, value = comment(line)
            if kind == "newdoc":
                end_sentence()
                if doc is not None:
                    close(lineno)
                doc = _DocumentReader(path, value, lineno, keep_tokens, held, heads == "first")
                sentence_start = sentence_words = 0
                highest_head = (0, 0)
            elif kind == "global.Entity":
                fields = entity_fields(path, lineno, value)
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(
                path, lineno, f"a CoNLL-U word line has 10 TAB-separated columns, this one has {len(cols)}"
            )
        ident = cols[0]
        if "-" in ident:
            continue
        if doc is None:
            doc = _DocumentReader(path, "", lineno, keep_tokens, held, heads == "first")
        if "." in ident:
            before, _, dot = ident.partition(".")
            word = number(path, lineno, before, "the word id before the dot of empty node")
            k = number(path, lineno, dot, "the empty node number of")
            if k < 1:
                raise InputError(path, lineno, f"cannot read the word id '{ident}': empty nodes are numbered from 1")
            if k > EMPTY_SLOTS:
                raise InputError(path, lineno, f"more than {EMPTY_SLOTS} empty nodes after one word")
            if word >= MAX_WORDS:
                raise InputError(path, lineno, f"sentence longer than {MAX_WORDS} words")
            position = empty_position(len(doc.sentence_lengths), word, k)
            doc.anchors[position] = sentence_start + max(word - 1, 0)
            doc.follows[position] = sentence_start + word - 1
            doc.empty_deps[position] = _deps(path, lineno, cols[8], len(doc.sentence_lengths), sentence_start)
            parent = -1
        else:
            if number(path, lineno, ident, "the word id") != sentence_words + 1:
                raise InputError(path, lineno, f"word id '{ident}' where {sentence_words + 1} was expected")
            position = sentence_start + sentence_words
            sentence_words += 1
            doc.n_words += 1
            parent = NO_PARENT
            if cols[6] != "_":
                head = number(path, lineno, cols[6], "HEAD")
                highest_head = max(highest_head, (head, lineno))
                parent = sentence_start + head - 1 if head else -1
            if doc.words is not None:
                doc.words.append(cols[1])
            if doc.upos is not None:
                doc.upos.append(sys.intern(cols[3]))
        node = doc.add_node(position, parent)
        if cols[9] == "_":
            continue
        for item in cols[9].split("|"):
            if item.startswith("Entity="):
                doc.brackets(item[7:], node, lineno, fields)
            elif item.startswith("SplitAnte="):
                doc.split_antecedents.extend(_split_antecedents(path, lineno, item[10:]))
            elif item.startswith("Bridge="):
                doc.bridges.extend(_bridges(path, lineno, item[7:], position))
    end_sentence()
    if doc is not None:
        close(lineno)
    if not documents:
        raise InputError(path, 1, "no document found (expected CoNLL-U word lines)")
    return CorefUDCorpus(
        path=path,
        documents=documents,
        format="corefud",
        warnings=warnings,
        entity_types=corpus_types,
        empty_deps=corpus_deps,
        split_antecedents=corpus_split,
        bridges=corpus_bridges,
        sentences=corpus_sentences,
        headless_line=headless_line,
        first_mentions=corpus_firsts,
    )


def _deps(path: str, line: int, value: str, sentence: int, sentence_start: int) -> frozenset[tuple[int, str]]:
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


def _bridges(path: str, line: int, value: str, position: int) -> list[CorefUDBridge]:
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


def _split_antecedents(path: str, line: int, value: str) -> list[tuple[str, tuple[str, ...]]]:
    """``SplitAnte=e3<e11,e4<e11`` -> ``[("e11", ("e3", "e4"))]``."""
    grouped: dict[str, list[str]] = {}
    for link in value.split(","):
        ante, sep, anaphor = link.partition("<")
        if not sep or not ante or not anaphor:
            raise InputError(path, line, f"cannot read 'SplitAnte={value}': expected links like 'e3<e11'")
        grouped.setdefault(anaphor, []).append(ante)
    return [(k, tuple(v)) for k, v in grouped.items()]
