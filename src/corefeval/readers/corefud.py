"""Reader for CorefUD 1.x: CoNLL-U with coreference in the MISC column.

Documents start at ``# newdoc``; ``# global.Entity = eid-etype-head-other`` names the dash-separated
fields of an opening bracket (``eid`` or GUM's ``GRP``; ``head`` is the 1-based position of the
mention's head among its words). ``Entity=`` holds brackets: ``(e1-person-2`` opens, ``e1)`` closes,
``(e1-person-1)`` is a one-word mention, ``(e2[1/2]`` ... ``e2[2/2])`` are the parts of one
discontinuous mention. A mention is a set of nodes: every node from its opening to its closing
bracket, empty nodes (zeros, ids like ``5.1``) included. ``SplitAnte=`` is kept, not scored.

Positions: word ``i`` of a document is position ``i`` (0-based, over all its sentences, multiword
token lines skipped), so CoNLL-U and CoNLL-2012 files of one text agree. An empty node ``w.k`` of the
document's sentence ``s`` gets position ``EMPTY + s * 2**26 + w * 64 + k - 1`` (see
:func:`empty_position`), the same in any file with the same sentences.
Mentions that are not one contiguous run of words, or contain empty nodes, record their exact
positions in ``Document.parts``. Heads come from the ``head`` field, else from the syntax (the
first word whose HEAD lies outside the mention).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..diagnostics import Diagnostic, InputError
from ..model import Corpus, Document

#: Positions at or above this are empty nodes (zeros).
EMPTY = 1 << 40
EMPTY_SLOTS = 64
MAX_WORDS = 1 << 20
DEFAULT_FIELDS: tuple[str, ...] = ("eid", "etype", "head", "other")
_CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")
_DISCONTINUOUS = re.compile(r"^(.+)\[(\d+)/(\d+)\]$")


def is_empty(position: int) -> bool:
    return position >= EMPTY


def empty_position(sentence: int, word: int, k: int) -> int:
    """Position of empty node ``word.k`` of the document's ``sentence``-th sentence (0-based)."""
    return EMPTY + (sentence << 26) + (word << 6) + k - 1


def empty_id(position: int) -> tuple[int, int, int]:
    """Inverse of :func:`empty_position`: ``(sentence, word, k)``."""
    rest = position - EMPTY
    return rest >> 26, (rest >> 6) & ((1 << 20) - 1), (rest & 63) + 1


@dataclass
class CorefUDCorpus(Corpus):
    """A corpus read from CorefUD, with what scoring does not use but conversion keeps.

    ``entity_types[doc][label]`` is the ``etype`` of an entity; ``split_antecedents[doc]`` lists
    ``(label, antecedent labels)`` from ``SplitAnte=``; ``sentences[doc]`` the number of words
    of each sentence; ``empty_deps[doc][position]`` an empty node's DEPS as ``(parent position,
    relation)`` pairs (parent -1 for the root), which align zeros by their dependencies.
    """

    entity_types: dict[str, dict[str, str]] = field(default_factory=dict)
    split_antecedents: dict[str, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    sentences: dict[str, list[int]] = field(default_factory=dict)
    empty_deps: dict[str, dict[int, frozenset[tuple[int, str]]]] = field(default_factory=dict)


@dataclass
class _Mention:
    label: str
    nodes: list[int]
    line: int
    head_index: int | None = None
    parts_total: int = 0
    parts_seen: int = 0


class _DocumentReader:
    """Collects the nodes and mentions of one document."""

    def __init__(self, path: str, name: str, line: int, keep_tokens: bool) -> None:
        self.path = path
        self.name = name
        self.begin_line = line
        self.positions: list[int] = []  # node index -> position
        self.anchors: dict[int, int] = {}  # empty node position -> position of the word before (or after)
        self.empty_deps: dict[int, frozenset[tuple[int, str]]] = {}
        self.parents: list[int] = []  # node index -> position of its syntactic parent, -1 for none
        self.words: list[str] | None = [] if keep_tokens else None
        self.n_words = 0
        self.sentence_lengths: list[int] = []
        self.label_index: dict[str, int] = {}
        self.entity_types: dict[str, str] = {}
        self.open: dict[str, list[tuple[_Mention, int, int]]] = {}  # label -> (mention, first node, part)
        self.discontinuous: dict[str, list[_Mention]] = {}
        self.done: list[_Mention] = []
        self.split_antecedents: list[tuple[str, tuple[str, ...]]] = []

    def error(self, line: int, message: str) -> InputError:
        return InputError(self.path, line, message)

    def entity(self, label: str, etype: str | None) -> None:
        if label not in self.label_index:
            self.label_index[label] = len(self.label_index)
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

    def opening(self, body: str, closes: bool, node: int, line: int, fields: tuple[str, ...]) -> None:
        values = dict(zip(fields, body.split("-"), strict=False))
        label = values.get("eid", values.get("GRP"))
        if not label:
            raise self.error(line, f"'({body}' has no entity id (global.Entity = {'-'.join(fields)})")
        part, total = 0, 0
        d = _DISCONTINUOUS.match(label)
        if d:
            label, part, total = d.group(1), int(d.group(2)), int(d.group(3))
            if not 1 <= part <= total:
                raise self.error(line, f"'({body}': part {part} of {total} does not exist")
        head_index = None
        if values.get("head"):
            try:
                head_index = int(values["head"])
            except ValueError:
                raise self.error(line, f"'({body}': head '{values['head']}' is not a number") from None
        self.entity(label, values.get("etype") or values.get("entity"))
        if part > 1:
            waiting = [
                m
                for m in self.discontinuous.get(label, [])
                if m.parts_seen == part - 1
                and m.parts_total == total
                and all(m is not o for o, _, _ in self.open.get(label, []))
            ]
            if not waiting:
                raise self.error(
                    line,
                    f"'({body}': part {part} of a discontinuous mention whose part {part - 1} was not seen",
                )
            mention = waiting[0]
        else:
            mention = _Mention(label, [], line, parts_total=total)
            if total:
                self.discontinuous.setdefault(label, []).append(mention)
        if head_index is not None:
            mention.head_index = head_index
        mention.parts_seen = max(part, 1)
        self.open.setdefault(label, []).append((mention, node, part))
        if closes:
            self.closing(label + (f"[{part}/{total}]" if total else ""), node, line)

    def closing(self, label: str, node: int, line: int) -> None:
        part, total = 0, 0
        d = _DISCONTINUOUS.match(label)
        if d:
            label, part, total = d.group(1), int(d.group(2)), int(d.group(3))
        stack = self.open.get(label, [])
        # the innermost open mention of this entity with the same part ("e1)" closes a plain one)
        at = next((i for i in range(len(stack) - 1, -1, -1) if stack[i][2] == part), None)
        if at is None:
            name = f"{label}[{part}/{total}]" if total else label
            raise self.error(line, f"'{name})' closes a mention of entity {label} that is not open")
        mention, first, _ = stack.pop(at)
        mention.nodes.extend(range(first, node + 1))
        if total and part < total:
            return
        if mention.parts_total:
            self.discontinuous[label].remove(mention)
        self.done.append(mention)

    def finish(self, end_line: int) -> Document:
        for label, stack in self.open.items():
            if stack:
                raise self.error(
                    stack[0][0].line,
                    f"mention of entity {label} opened here is not closed before the document ends at line {end_line}",
                )
        for label, waiting in self.discontinuous.items():
            if waiting:
                raise self.error(
                    waiting[0].line,
                    f"discontinuous mention of entity {label} has only some of its {waiting[0].parts_total} parts",
                )
        starts, ends, entities, lines, heads = [], [], [], [], []
        parts: dict[int, tuple[int, ...]] = {}
        for row, m in enumerate(self.done):
            nodes = sorted(set(m.nodes))
            positions = [self.positions[n] for n in nodes]
            words = [p for p in positions if not is_empty(p)]
            if words:
                start, end = words[0], words[-1]
            else:
                start = end = self.anchors[positions[0]]
            if len(words) != len(positions) or end - start + 1 != len(words):
                parts[row] = tuple(positions)
            starts.append(start)
            ends.append(end)
            entities.append(self.label_index[m.label])
            lines.append(m.line)
            heads.append(self.head(m, nodes))
        return Document(
            name=self.name,
            starts=np.asarray(starts, dtype=np.int64),
            ends=np.asarray(ends, dtype=np.int64),
            entities=np.asarray(entities, dtype=np.int64),
            labels=tuple(self.label_index),
            n_tokens=self.n_words,
            lines=np.asarray(lines, dtype=np.int64),
            begin_line=self.begin_line,
            parts=parts,
            heads=np.asarray(heads, dtype=np.int64),
            tokens=tuple(self.words) if self.words is not None else None,
        )

    def head(self, m: _Mention, nodes: list[int]) -> int:
        """The head position: the ``head`` field, else the first word whose parent is outside."""
        if m.head_index is not None:
            if not 1 <= m.head_index <= len(nodes):
                raise self.error(
                    m.line,
                    f"head {m.head_index} of a mention of entity {m.label} is outside its {len(nodes)} words",
                )
            return self.positions[nodes[m.head_index - 1]]
        inside = {self.positions[n] for n in nodes}
        for n in nodes:
            p = self.positions[n]
            if not is_empty(p) and self.parents[n] not in inside:
                return p
        return self.positions[nodes[0]]


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


def read_corefud(path: str, text: str, keep_tokens: bool = False, first_line: int = 1) -> CorefUDCorpus:
    """Read a CorefUD CoNLL-U file (documents in file order); ``first_line`` is the line number of
    ``text``'s first line, when it is a part of a larger file."""
    warnings: list[Diagnostic] = []
    documents: list[Document] = []
    corpus_types: dict[str, dict[str, str]] = {}
    corpus_split: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    corpus_sentences: dict[str, list[int]] = {}
    corpus_deps: dict[str, dict[int, frozenset[tuple[int, str]]]] = {}
    fields = DEFAULT_FIELDS
    seen: dict[str, int] = {}
    doc: _DocumentReader | None = None
    sentence_start = 0  # position of the sentence's first word
    sentence_words = 0
    lineno = 0

    def close(end_line: int) -> None:
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
        documents.append(doc.finish(end_line))
        corpus_types[doc.name] = doc.entity_types
        corpus_split[doc.name] = doc.split_antecedents
        corpus_sentences[doc.name] = doc.sentence_lengths
        corpus_deps[doc.name] = doc.empty_deps

    if text.startswith("\ufeff"):
        text = text[1:]
    for lineno, raw in enumerate(text.split("\n"), first_line):
        line = raw.rstrip("\r")
        if not line.strip():
            if doc is not None and sentence_words:
                doc.sentence_lengths.append(sentence_words)
            sentence_start += sentence_words
            sentence_words = 0
            continue
        if line.startswith("#"):
            kind, value = comment(line)
            if kind == "newdoc":
                if doc is not None:
                    close(lineno)
                doc = _DocumentReader(path, value, lineno, keep_tokens)
                sentence_start = sentence_words = 0
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
            doc = _DocumentReader(path, "", lineno, keep_tokens)
        if "." in ident:
            before, _, k = ident.partition(".")
            if not (before.isdigit() and k.isdigit() and int(k) >= 1):
                raise InputError(path, lineno, f"cannot read the word id '{ident}'")
            if int(k) > EMPTY_SLOTS:
                raise InputError(path, lineno, f"more than {EMPTY_SLOTS} empty nodes after one word")
            if int(before) >= MAX_WORDS:
                raise InputError(path, lineno, f"sentence longer than {MAX_WORDS} words")
            position = empty_position(len(doc.sentence_lengths), int(before), int(k))
            doc.anchors[position] = sentence_start + max(int(before) - 1, 0)
            doc.empty_deps[position] = _deps(path, lineno, cols[8], len(doc.sentence_lengths), sentence_start)
            parent = -1
        else:
            if not ident.isdigit() or int(ident) != sentence_words + 1:
                raise InputError(path, lineno, f"word id '{ident}' where {sentence_words + 1} was expected")
            position = sentence_start + sentence_words
            sentence_words += 1
            doc.n_words += 1
            parent = sentence_start + int(cols[6]) - 1 if cols[6].isdigit() and cols[6] != "0" else -1
            if doc.words is not None:
                doc.words.append(cols[1])
        node = len(doc.positions)
        doc.positions.append(position)
        doc.parents.append(parent)
        if cols[9] == "_":
            continue
        for item in cols[9].split("|"):
            if item.startswith("Entity="):
                doc.brackets(item[7:], node, lineno, fields)
            elif item.startswith("SplitAnte="):
                doc.split_antecedents.extend(_split_antecedents(path, lineno, item[10:]))
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
        sentences=corpus_sentences,
    )


def _deps(path: str, line: int, value: str, sentence: int, sentence_start: int) -> frozenset[tuple[int, str]]:
    """DEPS ``2:nsubj|3.1:obj`` as ``(parent position, relation)`` pairs; ``_`` is none."""
    if value == "_":
        return frozenset()
    out = set()
    for item in value.split("|"):
        head, sep, relation = item.partition(":")
        word, dot, k = head.partition(".")
        if not sep or not word.isdigit() or (dot and not k.isdigit()):
            raise InputError(path, line, f"cannot read DEPS '{value}': expected 'HEAD:relation' items")
        if dot:
            out.add((empty_position(sentence, int(word), int(k)), relation))
        else:
            out.add((sentence_start + int(word) - 1 if word != "0" else -1, relation))
    return frozenset(out)


def _split_antecedents(path: str, line: int, value: str) -> list[tuple[str, tuple[str, ...]]]:
    """``SplitAnte=e3<e11,e4<e11`` -> ``[("e11", ("e3", "e4"))]``."""
    grouped: dict[str, list[str]] = {}
    for link in value.split(","):
        ante, sep, anaphor = link.partition("<")
        if not sep or not ante or not anaphor:
            raise InputError(path, line, f"cannot read 'SplitAnte={value}': expected links like 'e3<e11'")
        grouped.setdefault(anaphor, []).append(ante)
    return [(k, tuple(v)) for k, v in grouped.items()]
