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
from functools import cache

import numpy as np

from ..core.dataclass_methods import FACTORY, field_eq, field_hash, field_repr
from ..core.diagnostics import Diagnostic, InputError
from ..core.empty_nodes import EMPTY, EMPTY_SLOTS, MAX_WORDS, NO_HEAD, NO_PARENT, empty_id, empty_position, is_empty
from ..core.model import Corpus, Document, from_fields
from .corefud_lines import Scan, ScannedDocument, fields_at, scan, texts
from .corefud_mentions import Entities, entities, in_order, read_mentions
from .corefud_notation import (
    DEFAULT_FIELDS,
    MAX_DIGITS,
    CorefUDBridge,
    EscapeTree,
    comment,
    entity_fields,
    number,
    parse_bridges,
    parse_deps,
    parse_split_antecedents,
)
from .word_prints import of_words

__all__ = [  # the notation's pieces, read from here by the rest of corefeval
    "DEFAULT_FIELDS",
    "EMPTY",
    "EMPTY_SLOTS",
    "MAX_DIGITS",
    "MAX_WORDS",
    "NO_HEAD",
    "NO_PARENT",
    "CorefUDBridge",
    "CorefUDCorpus",
    "CorefUDDocument",
    "EscapeTree",
    "comment",
    "empty_id",
    "empty_position",
    "entity_fields",
    "is_empty",
    "node_order",
    "number",
    "parse_bridges",
    "parse_deps",
    "parse_split_antecedents",
    "read_corefud",
    "read_lines",
]

#: Nodes held one by one (discontinuous mentions and mentions with empty nodes): at most this many,
#: or ``HELD_PER_NODE`` per node of the file if that is more.
MAX_HELD = 1 << 23
HELD_PER_NODE = 8
#: Mentions longer than this find their syntactic head in a segment tree, not word by word.
SHORT = 64
#: Where an entity's first mention is in a file: (document's place, node order, id).
EntityKey = tuple[int, tuple[int, int, int], str]
#: How a mention without a ``head`` field gets its head (see :func:`read_corefud`).
HEAD_CHOICES = ("first", "tree")
#: Patterns of the line reader, compiled on first use (compiling costs every run, and a file read
#: column-wise needs neither).
_CHUNK = cache(lambda: re.compile(r"\([^()]+\)?|[^()]+\)"))
_DISCONTINUOUS = cache(lambda: re.compile(r"^(.+)\[([^\[\]/]*)/([^\[\]/]*)\]$"))


@dataclass(init=False, repr=False, eq=False)
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

    def __init__(
        self,
        path: str,
        documents: list[Document],
        format: str = "conll2012",
        warnings: list[Diagnostic] = FACTORY,
        entity_types: dict[str, dict[str, str]] = FACTORY,
        split_antecedents: dict[str, list[tuple[str, tuple[str, ...]]]] = FACTORY,
        bridges: dict[str, list[CorefUDBridge]] = FACTORY,
        sentences: dict[str, list[int]] = FACTORY,
        empty_deps: dict[str, dict[int, frozenset[tuple[int, str]]]] = FACTORY,
        headless_line: int = 0,
        first_mentions: list[dict[str, EntityKey]] = FACTORY,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        super().__init__(path, documents, format, warnings)
        self.entity_types = {} if entity_types is FACTORY else entity_types
        self.split_antecedents = {} if split_antecedents is FACTORY else split_antecedents
        self.bridges = {} if bridges is FACTORY else bridges
        self.sentences = {} if sentences is FACTORY else sentences
        self.empty_deps = {} if empty_deps is FACTORY else empty_deps
        self.headless_line = headless_line
        self.first_mentions = [] if first_mentions is FACTORY else first_mentions

    __eq__ = field_eq


@dataclass(frozen=True, init=False, repr=False, eq=False)
class CorefUDDocument(Document):
    """A document read from CorefUD, with the place of each empty node among the words:
    ``follows[position]`` is the position of the word an empty node comes after (one less than its
    sentence's first word for ``0.k``), so that mentions can be put in file order."""

    follows: dict[int, int] = field(default_factory=dict)
    #: Later copies of a mention's nodes in its own entity with another head: ``row -> ((head,
    #: line), ...)`` after the mention's row. They are one mention, except under head matching,
    #: where the CorefUD scorer tells mentions apart by their heads too (see
    #: :func:`corefeval.matching.selection.with_head_copies`).
    head_copies: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    def __init__(
        self,
        name: str,
        starts: np.ndarray,
        ends: np.ndarray,
        entities: np.ndarray,
        labels: tuple[str, ...] = (),
        n_tokens: int = 0,
        lines: np.ndarray | None = None,
        begin_line: int = 0,
        parts: dict[int, tuple[int, ...]] = FACTORY,
        heads: np.ndarray | None = None,
        tokens: tuple[str, ...] | None = None,
        pos: tuple[str, ...] | None = None,
        forms: np.ndarray | None = None,
        follows: dict[int, int] = FACTORY,
        head_copies: dict[int, tuple[tuple[int, int], ...]] = FACTORY,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        super().__init__(
            name, starts, ends, entities, labels, n_tokens, lines, begin_line, parts, heads, tokens, pos, forms
        )
        self.__dict__.update(
            follows={} if follows is FACTORY else follows,
            head_copies={} if head_copies is FACTORY else head_copies,
        )

    __repr__ = field_repr
    __eq__ = field_eq
    __hash__ = field_hash


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


@dataclass(init=False, repr=False, eq=False)
class _Mention:
    label: str
    line: int
    serial: int
    runs: list[tuple[int, int]] = field(default_factory=list)  # node ranges, inclusive
    head_index: int | None = None
    parts_total: int = 0
    parts_seen: int = 0

    def __init__(
        self,
        label: str,
        line: int,
        serial: int,
        runs: list[tuple[int, int]] = FACTORY,
        head_index: int | None = None,
        parts_total: int = 0,
        parts_seen: int = 0,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.label = label
        self.line = line
        self.serial = serial
        self.runs = [] if runs is FACTORY else runs
        self.head_index = head_index
        self.parts_total = parts_total
        self.parts_seen = parts_seen

    __repr__ = field_repr
    __eq__ = field_eq


@dataclass(init=False, repr=False, eq=False)
class _Row:
    """A finished mention: its span, its exact positions when they are not one run of words, its
    head, and its place in udapi's order (first node index, minus its number of nodes, last node index)."""

    mention: _Mention
    start: int
    end: int
    parts: tuple[int, ...] | None
    head: int
    order: tuple[int, int, int]

    def __init__(
        self,
        mention: _Mention,
        start: int,
        end: int,
        parts: tuple[int, ...] | None,
        head: int,
        order: tuple[int, int, int],
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.mention = mention
        self.start = start
        self.end = end
        self.parts = parts
        self.head = head
        self.order = order

    __repr__ = field_repr
    __eq__ = field_eq


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
        self.forms: list[str] = []  # every word's form, for its fingerprint (unless prints are given)
        self.prints: np.ndarray | None = None
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
        for m in _CHUNK().finditer(value):
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
        d = _DISCONTINUOUS().match(label)
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
        return self.document(self.rows(end_line))

    def rows(self, end_line: int) -> list[_Row]:
        """The document's mentions (brackets left open at ``end_line`` left out or cut short), in
        the order they were completed."""
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
        return rows

    def document(self, rows: list[_Row]) -> Document:
        """The document of its mentions (:meth:`rows`), in udapi's order."""
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
            forms=self.prints if self.prints is not None else of_words(self.forms),
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


class _CorpusParts:
    """What a CorefUD corpus gathers document by document, in file order (see :func:`read_corefud`);
    the corpus's tables by document name are made at the end (a file may have a million).
    ``earlier``: the first mention of each entity id of the file so far (udapi orders the entities
    of a whole file), starting from the one given for the documents before the text."""

    def __init__(self, path: str, earlier: dict[str, EntityKey] | None, first_index: int) -> None:
        self.path = path
        self.warnings: list[Diagnostic] = []
        self.documents: list[Document] = []
        self.found: list[_DocumentReader | ScannedDocument] = []
        self.entity_types: list[dict[str, str]] = []
        self.first_mentions: list[dict[str, EntityKey]] = []
        self.seen: dict[str, int] = {}
        self.held = [0, 0]  # see _DocumentReader.held
        self.headless_line = 0
        self.earlier = dict(earlier or {})
        self.first_index = first_index

    @property
    def next_index(self) -> int:
        """The place in the file of the next document added."""
        return self.first_index + len(self.documents)

    def kept(self, doc: _DocumentReader) -> bool:
        """Whether a document is scored: one with neither words nor mentions is not."""
        return bool(doc.n_words or doc.done)

    def add(self, doc: _DocumentReader, end_line: int, own_ids: bool) -> None:
        """Finish ``doc`` (which ends before line ``end_line``) and add it, unless it has neither
        words nor mentions; ``own_ids``: its entity ids are its own (GUM's ``GRP``), not the file's."""
        if self.kept(doc):
            self.add_read(doc, doc.rows(end_line), own_ids)

    def add_read(self, doc: _DocumentReader, rows: list[_Row], own_ids: bool) -> None:
        """Add a document whose mentions are read (:meth:`_DocumentReader.rows`)."""
        doc.index = self.next_index
        doc.earlier = None if own_ids else self.earlier
        document = doc.document(rows)
        self.add_document(document, doc.headless_line, doc.repeats, doc.entity_types, doc, doc.first_keys, doc.notes)

    def add_document(
        self,
        document: Document,
        headless_line: int,
        repeats: int,
        entity_types: dict[str, str],
        found: _DocumentReader | ScannedDocument,
        first_keys: dict[str, EntityKey],
        notes: list[Diagnostic],
    ) -> None:
        """Add a finished document, with what else its lines gave (``found``), the first mention of
        each of its entities and the warnings about its brackets left open."""
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
        self.first_mentions.append(first_keys)
        self.warnings.extend(notes)
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
            first_mentions=self.first_mentions,
        )


def own_ids(fields: tuple[str, ...]) -> bool:
    """Whether entity ids named by these ``# global.Entity`` fields are a document's own (GUM's
    ``GRP``) rather than the file's: udapi orders the entities of a file by ids of the file."""
    return "GRP" in fields and "eid" not in fields


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
    CRAC numbers) takes it; ``tree``, the first word whose syntactic HEAD is outside the mention.

    The text is read column-wise (:mod:`.corefud_lines`, :mod:`.corefud_mentions`); a text with a
    line that reading does not vouch for, or a mistake, is read line by line (:func:`read_lines`),
    which says what is wrong and where. Both give the same corpus."""
    if heads not in HEAD_CHOICES:
        raise ValueError(f"unknown heads '{heads}' (choose from {', '.join(HEAD_CHOICES)})")
    if text.startswith("\ufeff"):
        text = text[1:]
    scanned = scan(text, first_line, keep_tokens)
    if scanned is not None:
        try:
            return _read_scanned(path, scanned, keep_tokens, heads == "first", _CorpusParts(path, earlier, first_index))
        except InputError:
            pass  # the line reader says where
    return read_lines(path, text, keep_tokens, first_line, heads, earlier, first_index)


def _read_scanned(path: str, s: Scan, keep_tokens: bool, first_heads: bool, parts: _CorpusParts) -> CorefUDCorpus:
    """The corpus of a text read column-wise: the mentions of most documents from
    :mod:`.corefud_mentions`, the others' from a :class:`_DocumentReader` given their scanned
    lines. First each document's place and mentions, then the place of each entity id's first
    mention in the file, then the documents in order."""
    rows = read_mentions(s, first_heads)
    e = entities(rows)
    plans = _first_pass(path, s, rows.per_document, rows.n_mentions, keep_tokens, first_heads, parts)
    key = _entity_places(s, e, plans, rows.names, parts.earlier)
    ordered = in_order(s, rows, e, key)
    first_items, first_bounds = _first_keys(s, e, plans, rows.names)
    for d, doc in enumerate(s.documents):
        plan = plans[d]
        if plan is None:
            continue
        if plan.reader is not None:
            parts.add_read(plan.reader, plan.rows or [], plan.own_ids)
            continue
        lo, hi = ordered.bounds[d], ordered.bounds[d + 1]
        words = slice(doc.first_word, doc.first_word + doc.n_words)
        document = from_fields(
            CorefUDDocument,
            {
                "name": doc.name,
                "starts": ordered.starts[lo:hi],
                "ends": ordered.ends[lo:hi],
                "entities": ordered.entities[lo:hi],
                "labels": ordered.labels[d],
                "n_tokens": doc.n_words,
                "lines": ordered.lines[lo:hi],
                "begin_line": doc.begin_line,
                "parts": {},
                "heads": ordered.heads[lo:hi],
                "tokens": tuple(s.words[words]) if s.words is not None else None,
                "pos": tuple(s.upos[words]) if s.upos is not None else None,
                "forms": s.prints[words] if s.prints is not None else None,
                "follows": doc.follows,
                "head_copies": ordered.head_copies.get(d, {}),
            },
        )
        keys = {} if plan.own_ids else dict(first_items[first_bounds[d] : first_bounds[d + 1]])
        for label, first_key in keys.items():
            parts.earlier.setdefault(label, first_key)
        parts.add_document(document, rows.headless_line[d], ordered.repeats[d], rows.entity_types[d], doc, keys, [])
    return parts.corpus()


@dataclass(init=False, repr=False, eq=False)
class _Plan:
    """A document that is scored: its place in the file, whether its entity ids are its own, and for
    one read by a :class:`_DocumentReader`, the reader and its mentions."""

    index: int
    own_ids: bool
    reader: _DocumentReader | None = None
    rows: list[_Row] | None = None

    def __init__(
        self,
        index: int,
        own_ids: bool,
        reader: _DocumentReader | None = None,
        rows: list[_Row] | None = None,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.index = index
        self.own_ids = own_ids
        self.reader = reader
        self.rows = rows

    __repr__ = field_repr
    __eq__ = field_eq


def _first_pass(
    path: str,
    s: Scan,
    per_document: list[bool],
    n_mentions: list[int],
    keep_tokens: bool,
    first_heads: bool,
    parts: _CorpusParts,
) -> list[_Plan | None]:
    """Each document's place and way (``None``: not scored, having neither words nor mentions), the
    mentions of those left to the per-document path read in file order (the file's budget of nodes
    held one by one counts the nodes of every document before)."""
    own = [own_ids(fields) for fields in fields_at(s, [doc.end_line for doc in s.documents])]
    item_doc = s.nodes.doc[s.entity_node]
    out: list[_Plan | None] = []
    index = parts.first_index
    for d, doc in enumerate(s.documents):
        if per_document[d]:
            lo, hi = np.searchsorted(item_doc, [d, d + 1]).tolist()
            reader = _replayed(path, s, d, range(lo, hi), keep_tokens, first_heads, parts.held)
            if not parts.kept(reader):
                out.append(None)
                continue
            out.append(_Plan(index, own[d], reader, reader.rows(doc.end_line)))
        elif doc.n_words or n_mentions[d]:
            parts.held[1] += doc.n_nodes
            out.append(_Plan(index, own[d]))
        else:
            out.append(None)
            continue
        index += 1
    return out


def _entity_places(
    s: Scan, e: Entities, plans: list[_Plan | None], names: list[str], earlier: dict[str, EntityKey]
) -> tuple[np.ndarray, ...]:
    """Where each entity of the documents read column-wise goes in its document's order: its id's
    first mention in the file (``earlier`` for the documents before the text, then every document
    whose ids are the file's), as ``(document's place, first node, minus nodes, last node)``; or its
    first mention in its document, where ids are the document's own."""
    ids = {name: k for k, name in enumerate(names)}
    index = np.asarray([p.index if p is not None else -1 for p in plans], dtype=np.int64)
    first_node = np.asarray([doc.first_node for doc in s.documents], dtype=np.int64)
    local = np.stack([index[e.doc], e.first - first_node[e.doc], e.minus_size, e.last - first_node[e.doc]])
    own = np.asarray([p is None or p.own_ids for p in plans], dtype=bool)
    shared = ~own[e.doc]
    found: list[tuple[int, ...]] = []  # (id, place...) of the file's ids read by a document reader
    for p in plans:
        if p is None or p.reader is None or p.own_ids:
            continue
        firsts: dict[str, tuple[int, int, int]] = {}
        for row in p.rows or []:
            firsts[row.mention.label] = min(firsts.get(row.mention.label, row.order), row.order)
        found += [(ids.setdefault(label, len(ids)), p.index, *order) for label, order in firsts.items()]
    table = np.concatenate(
        [np.concatenate([e.label[shared][None], local[:, shared]]), np.asarray(found, dtype=np.int64).reshape(-1, 5).T],
        axis=1,
    )
    order = np.lexsort(table[::-1])  # by id, then place
    first_of_id = np.full((len(ids), 4), -1, dtype=np.int64)
    if order.size:
        new = np.ones(order.size, dtype=bool)
        new[1:] = table[0, order[1:]] != table[0, order[:-1]]
        chosen = order[new]
        first_of_id[table[0, chosen]] = table[1:, chosen].T
    for label, (place, (a, minus, b), _) in earlier.items():
        if label in ids:
            first_of_id[ids[label]] = (place, a, minus, b)
    key = local.copy()
    key[:, shared] = first_of_id[e.label[shared]].T
    return tuple(key)


def _first_keys(
    s: Scan, e: Entities, plans: list[_Plan | None], names: list[str]
) -> tuple[list[tuple[str, EntityKey]], list[int]]:
    """Every document's entity ids with their first mention in it, in the order the line reader
    finds them (by their first completed mention): document ``d``'s are ``items[bounds[d]:bounds[d + 1]]``."""
    order = np.lexsort((e.closing, e.doc))
    doc = e.doc[order]
    first_node = np.asarray([d.first_node for d in s.documents], dtype=np.int64)[doc]
    index = np.asarray([p.index if p is not None else -1 for p in plans], dtype=np.int64)[doc]
    labels = [names[k] for k in e.label[order].tolist()]
    items = [
        (label, (place, (a, minus, b), label))
        for label, place, a, minus, b in zip(
            labels,
            index.tolist(),
            (e.first[order] - first_node).tolist(),
            e.minus_size[order].tolist(),
            (e.last[order] - first_node).tolist(),
        )
    ]
    return items, np.searchsorted(doc, np.arange(len(s.documents) + 1)).tolist()


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
    if s.prints is not None:
        reader.prints = s.prints[doc.first_word : doc.first_word + doc.n_words]
    if s.words is not None and s.upos is not None:
        reader.words = s.words[doc.first_word : doc.first_word + doc.n_words]
        reader.upos = s.upos[doc.first_word : doc.first_word + doc.n_words]
    values = texts(s.data, s.entity_start[items.start : items.stop], s.entity_end[items.start : items.stop])
    for i, value in zip(items, values):
        node = int(s.entity_node[i])
        line = int(s.nodes.line[node]) + s.first_line
        reader.brackets(value, node - doc.first_node, line, s.entity_fields[int(s.entity_field_set[i])])
    return reader


def read_lines(
    path: str,
    text: str,
    keep_tokens: bool = False,
    first_line: int = 1,
    heads: str = "first",
    earlier: dict[str, EntityKey] | None = None,
    first_index: int = 0,
) -> CorefUDCorpus:
    """:func:`read_corefud`, reading line by line (``text`` without its byte-order mark)."""
    parts = _CorpusParts(path, earlier, first_index)
    fields = DEFAULT_FIELDS
    doc: _DocumentReader | None = None
    sentence = _Sentence(path)
    lineno = 0
    for lineno, raw in enumerate(text.split("\n"), first_line):
        line = raw.rstrip("\r")
        if not line.strip():
            sentence.check_heads()
            if doc is not None and sentence.words:
                doc.sentence_lengths.append(sentence.words)
            sentence.next()
            continue
        if line.startswith("#"):
            kind, value = comment(line)
            if kind == "newdoc":
                sentence.check_heads()
                if doc is not None:
                    sentence.close(doc, parts, lineno, fields)
                doc = _DocumentReader(path, value, lineno, keep_tokens, parts.held, heads == "first")
                sentence.restart()
            elif kind == "global.Entity":
                fields = entity_fields(path, lineno, value)
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(
                path, lineno, f"a CoNLL-U word line has 10 TAB-separated columns, this one has {len(cols)}"
            )
        if "-" in cols[0]:
            continue
        if doc is None:
            doc = _DocumentReader(path, "", lineno, keep_tokens, parts.held, heads == "first")
        if "." in cols[0]:
            position, parent = _empty_node(path, lineno, cols, doc, sentence.start), -1
        else:
            position, parent = sentence.word(lineno, cols, doc)
        node = doc.add_node(position, parent)
        if cols[9] != "_":
            _misc(path, lineno, cols[9], doc, node, fields, position)
    sentence.check_heads()
    if doc is not None:
        sentence.close(doc, parts, lineno, fields)
    return parts.corpus()


class _Sentence:
    """The sentence being read line by line: where its first word is in the document, how many
    words it has, and its largest HEAD with that HEAD's line (checked when the sentence ends)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.restart()

    def restart(self) -> None:
        """A new document's first sentence."""
        self.start = self.words = 0
        self.highest_head = (0, 0)

    def next(self) -> None:
        """The next sentence of the same document."""
        self.start += self.words
        self.words = 0
        self.highest_head = (0, 0)

    def check_heads(self) -> None:
        if self.highest_head[0] > self.words:
            head, line = self.highest_head
            raise InputError(self.path, line, f"HEAD {head} points past the sentence's {self.words} words")

    def close(self, doc: _DocumentReader, parts: _CorpusParts, end_line: int, fields: tuple[str, ...]) -> None:
        """The document ends: its last sentence is counted and the document added."""
        if self.words:
            doc.sentence_lengths.append(self.words)
        parts.add(doc, end_line, own_ids(fields))

    def word(self, lineno: int, cols: list[str], doc: _DocumentReader) -> tuple[int, int]:
        """A word's line: its position in the document and its parent's (``NO_PARENT`` without a
        HEAD, -1 for the root)."""
        ident = cols[0]
        if number(self.path, lineno, ident, "the word id") != self.words + 1:
            raise InputError(self.path, lineno, f"word id '{ident}' where {self.words + 1} was expected")
        position = self.start + self.words
        self.words += 1
        doc.n_words += 1
        parent = NO_PARENT
        if cols[6] != "_":
            head = number(self.path, lineno, cols[6], "HEAD")
            self.highest_head = max(self.highest_head, (head, lineno))
            parent = self.start + head - 1 if head else -1
        doc.forms.append(cols[1])
        if doc.words is not None:
            doc.words.append(cols[1])
        if doc.upos is not None:
            doc.upos.append(sys.intern(cols[3]))
        return position, parent


def _empty_node(path: str, lineno: int, cols: list[str], doc: _DocumentReader, sentence_start: int) -> int:
    """An empty node's line (``W.K``): its position among the document's nodes, with the word it
    follows and its dependencies recorded."""
    ident = cols[0]
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
    return position


def _misc(
    path: str, lineno: int, misc: str, doc: _DocumentReader, node: int, fields: tuple[str, ...], position: int
) -> None:
    """A node's MISC column: its entity brackets, split antecedents and bridges."""
    for item in misc.split("|"):
        if item.startswith("Entity="):
            doc.brackets(item[7:], node, lineno, fields)
        elif item.startswith("SplitAnte="):
            doc.split_antecedents.extend(parse_split_antecedents(path, lineno, item[10:]))
        elif item.startswith("Bridge="):
            doc.bridges.extend(parse_bridges(path, lineno, item[7:], position))
