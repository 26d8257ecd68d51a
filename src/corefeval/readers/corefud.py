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
from typing import TYPE_CHECKING

import numpy as np

from ..diagnostics import Diagnostic, InputError
from ..model import Corpus, Document, from_fields

if TYPE_CHECKING:  # the column-wise reader's modules import this one
    from .corefud_lines import Scan, ScannedDocument

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
#: How a mention without a ``head`` field gets its head (see :func:`read_corefud`).
HEAD_CHOICES = ("tree", "first")
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


@dataclass(frozen=True)
class CorefUDDocument(Document):
    """A document read from CorefUD, with the place of each empty node among the words:
    ``follows[position]`` is the position of the word an empty node comes after (one less than its
    sentence's first word for ``0.k``), so that mentions can be put in file order."""

    follows: dict[int, int] = field(default_factory=dict)


def node_order(doc: Document, position: int) -> tuple[int, int]:
    """A sort key putting the nodes of ``doc`` in file order: a word is ``(position, 0)``, an empty
    node ``w.k`` is ``(position of word w, k)``."""
    if not is_empty(position):
        return position, 0
    follows = doc.follows if isinstance(doc, CorefUDDocument) else {}
    return follows.get(position, position), empty_id(position)[2]


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
        self.tree: EscapeTree | None = None
        self.first_heads = first_heads
        self.repeats = 0  # mentions left out for repeating a mention of their entity
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
        for (label, _), stack in self.open.items():
            if stack:
                raise self.error(
                    stack[0][0].line,
                    f"mention of entity {label} opened here is not closed before the document ends at line {end_line}",
                )
        if self.unfinished:
            first = min(self.unfinished.values(), key=lambda m: m.serial)
            raise self.error(
                first.line,
                f"discontinuous mention of entity {first.label} has only some of its {first.parts_total} parts",
            )
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
        rows, labels = self.in_udapi_order(rows)
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
        )

    def in_udapi_order(self, rows: list[_Row]) -> tuple[list[_Row], tuple[str, ...]]:
        """The rows, and the entity labels, in udapi's order (which the CorefUD scorer inherits):
        entities by their first mention (ties by id), mentions by first node, longer first, then by
        last node, then in the order of their opening brackets. A later copy of a mention's nodes in
        its own entity is left out (whatever its head), as the CorefUD scorer reads it once. udapi
        orders the entities of a whole file, an id shared by two documents taking its place from the
        earlier one; a document is read here on its own, as it is scored (see docs/formats.md)."""
        first: dict[str, tuple[tuple[int, int, int], str]] = {}
        for row in rows:
            label = row.mention.label
            first[label] = min(first.get(label, (row.order, label)), (row.order, label))
        labels = tuple(sorted(first, key=first.__getitem__))
        rank = {label: k for k, label in enumerate(labels)}
        rows.sort(key=lambda row: (rank[row.mention.label], row.order, row.mention.serial))
        kept: list[_Row] = []
        seen: set[tuple[str, Hashable]] = set()
        for row in rows:
            identity = (row.mention.label, row.parts if row.parts is not None else (row.start, row.end))
            if identity in seen:
                self.repeats += 1
                continue
            seen.add(identity)
            kept.append(row)
        return kept, labels

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
            self.tree = EscapeTree(self.parents)
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


class _CorpusParts:
    """What a CorefUD corpus gathers document by document, in file order (see :func:`read_corefud`);
    the corpus's tables by document name are made at the end (a file may have a million)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.warnings: list[Diagnostic] = []
        self.documents: list[Document] = []
        self.found: list[_DocumentReader | ScannedDocument] = []
        self.entity_types: list[dict[str, str]] = []
        self.seen: dict[str, int] = {}
        self.held = [0, 0]  # see _DocumentReader.held
        self.headless_line = 0

    def add(self, doc: _DocumentReader, end_line: int) -> None:
        """Finish ``doc`` (which ends before line ``end_line``) and add it, unless it has neither
        words nor mentions."""
        if doc.n_words == 0 and not doc.done:
            return
        document = doc.finish(end_line)
        self.add_document(document, doc.headless_line, doc.repeats, doc.entity_types, doc)

    def add_document(
        self,
        document: Document,
        headless_line: int,
        repeats: int,
        entity_types: dict[str, str],
        found: _DocumentReader | ScannedDocument,
    ) -> None:
        """Add a finished document, with what else its lines gave (``found``)."""
        name = document.name
        if name in self.seen:
            self.warnings.append(
                Diagnostic(
                    self.path,
                    document.begin_line,
                    f"document '{name}' appears again (first at line {self.seen[name]}); the last occurrence is scored",
                )
            )
        else:
            self.seen[name] = document.begin_line
        self.documents.append(document)
        self.found.append(found)
        self.entity_types.append(entity_types)
        if headless_line and not self.headless_line:
            self.headless_line = headless_line
        if repeats:
            self.warnings.append(
                Diagnostic(
                    self.path,
                    document.begin_line,
                    f"document '{name}': {repeats} mention(s) repeat the words of a mention of "
                    "their own entity; each is scored once, as the CorefUD scorer does",
                )
            )

    def corpus(self) -> CorefUDCorpus:
        if not self.documents:
            raise InputError(self.path, 1, "no document found (expected CoNLL-U word lines)")
        names = [d.name for d in self.documents]  # a name that repeats keeps its last document's
        return CorefUDCorpus(
            path=self.path,
            documents=self.documents,
            format="corefud",
            warnings=self.warnings,
            entity_types=dict(zip(names, self.entity_types)),
            empty_deps=dict(zip(names, [f.empty_deps for f in self.found])),
            split_antecedents=dict(zip(names, [f.split_antecedents for f in self.found])),
            bridges=dict(zip(names, [f.bridges for f in self.found])),
            sentences=dict(zip(names, [f.sentence_lengths for f in self.found])),
            headless_line=self.headless_line,
        )


def read_corefud(
    path: str, text: str, keep_tokens: bool = False, first_line: int = 1, heads: str = "tree"
) -> CorefUDCorpus:
    """Read a CorefUD CoNLL-U file (documents in file order); ``first_line`` is the line number of
    ``text``'s first line, when it is a part of a larger file.

    ``heads`` decides the head of a mention whose opening bracket has no ``head`` field: ``tree``,
    the first word whose syntactic HEAD is outside the mention; ``first``, the mention's first node,
    as udapi (and so the CorefUD scorer and the official CRAC numbers) takes it.

    The text is read column-wise (:mod:`.corefud_lines`, :mod:`.corefud_mentions`); a text with a
    line that reading does not vouch for, or a mistake, is read line by line (:func:`read_lines`),
    which says what is wrong and where. Both give the same corpus."""
    if heads not in HEAD_CHOICES:
        raise ValueError(f"unknown heads '{heads}' (choose from {', '.join(HEAD_CHOICES)})")
    from .corefud_lines import scan

    if text.startswith("\ufeff"):
        text = text[1:]
    scanned = scan(text, first_line, keep_tokens)
    if scanned is not None:
        try:
            return _read_scanned(path, scanned, keep_tokens, heads == "first")
        except InputError:
            pass  # the line reader says where
    return read_lines(path, text, keep_tokens, first_line, heads)


def _read_scanned(path: str, s: Scan, keep_tokens: bool, first_heads: bool) -> CorefUDCorpus:
    """The corpus of a text read column-wise: its documents' mentions from
    :func:`.corefud_mentions.read_mentions`, or for a document left to the per-document path, from
    a :class:`_DocumentReader` given its scanned lines."""
    from .corefud_mentions import read_mentions

    m = read_mentions(s, first_heads)
    parts = _CorpusParts(path)
    item_doc = s.nodes.doc[s.entity_node]
    for d, doc in enumerate(s.documents):
        if m.per_document[d]:
            lo, hi = np.searchsorted(item_doc, [d, d + 1]).tolist()
            parts.add(_replayed(path, s, d, range(lo, hi), keep_tokens, first_heads, parts.held), doc.end_line)
            continue
        if doc.n_words == 0 and not m.n_mentions[d]:
            continue
        parts.held[1] += doc.n_nodes
        lo, hi = m.bounds[d], m.bounds[d + 1]
        words = slice(doc.first_word, doc.first_word + doc.n_words)
        document = from_fields(
            CorefUDDocument,
            {
                "name": doc.name,
                "starts": m.starts[lo:hi],
                "ends": m.ends[lo:hi],
                "entities": m.entities[lo:hi],
                "labels": m.labels[d],
                "n_tokens": doc.n_words,
                "lines": m.lines[lo:hi],
                "begin_line": doc.begin_line,
                "parts": {},
                "heads": m.heads[lo:hi],
                "tokens": tuple(s.words[words]) if s.words is not None else None,
                "pos": tuple(s.upos[words]) if s.upos is not None else None,
                "follows": doc.follows,
            },
        )
        parts.add_document(document, m.headless_line[d], m.repeats[d], m.entity_types[d], doc)
    return parts.corpus()


def _replayed(
    path: str, s: Scan, d: int, items: range, keep_tokens: bool, first_heads: bool, held: list[int]
) -> _DocumentReader:
    """A reader of document ``d`` given its scanned nodes and its ``Entity=`` items (``items``), as
    the line reader would have it at the document's end."""
    doc = s.documents[d]
    reader = _DocumentReader(path, doc.name, doc.begin_line, keep_tokens, held, first_heads)
    nodes = slice(doc.first_node, doc.first_node + doc.n_nodes)
    reader.positions = s.nodes.position[nodes].tolist()
    reader.parents = s.nodes.parent[nodes].tolist()
    reader.anchors, reader.follows, reader.empty_deps = doc.anchors, doc.follows, doc.empty_deps
    reader.split_antecedents, reader.bridges = doc.split_antecedents, doc.bridges
    reader.n_words, reader.sentence_lengths = doc.n_words, doc.sentence_lengths
    if s.words is not None and s.upos is not None:
        reader.words = s.words[doc.first_word : doc.first_word + doc.n_words]
        reader.upos = s.upos[doc.first_word : doc.first_word + doc.n_words]
    from .corefud_lines import texts

    values = texts(s.data, s.entity_start[items.start : items.stop], s.entity_end[items.start : items.stop])
    for i, value in zip(items, values):
        node = int(s.entity_node[i])
        line = int(s.nodes.line[node]) + s.first_line
        reader.brackets(value, node - doc.first_node, line, s.entity_fields[int(s.entity_field_set[i])])
    return reader


def read_lines(
    path: str, text: str, keep_tokens: bool = False, first_line: int = 1, heads: str = "tree"
) -> CorefUDCorpus:
    """:func:`read_corefud`, reading line by line (``text`` without its byte-order mark)."""
    parts = _CorpusParts(path)
    fields = DEFAULT_FIELDS
    doc: _DocumentReader | None = None
    sentence_start = 0  # position of the sentence's first word
    sentence_words = 0
    highest_head = (0, 0)  # the sentence's largest HEAD and its line
    lineno = 0

    def close(end_line: int) -> None:
        assert doc is not None
        if sentence_words:
            doc.sentence_lengths.append(sentence_words)
        parts.add(doc, end_line)

    def end_sentence() -> None:
        if highest_head[0] > sentence_words:
            raise InputError(
                path, highest_head[1], f"HEAD {highest_head[0]} points past the sentence's {sentence_words} words"
            )

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
                doc = _DocumentReader(path, value, lineno, keep_tokens, parts.held, heads == "first")
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
            doc = _DocumentReader(path, "", lineno, keep_tokens, parts.held, heads == "first")
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
            doc.empty_deps[position] = parse_deps(path, lineno, cols[8], len(doc.sentence_lengths), sentence_start)
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
                doc.split_antecedents.extend(parse_split_antecedents(path, lineno, item[10:]))
            elif item.startswith("Bridge="):
                doc.bridges.extend(parse_bridges(path, lineno, item[7:], position))
    end_sentence()
    if doc is not None:
        close(lineno)
    return parts.corpus()


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
