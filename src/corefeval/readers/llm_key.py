"""A CoNLL-U key as the CRAC LLM track's pipeline reads it, for ``--llm-marks official``.

The pipeline reads the key twice. Its cleaning step (text2text-coref's ``clean``) reads a document
from one ``# newdoc id`` line to the next and a sentence from one ``# sent_id`` line to the next; a
word is the second white-space-separated field of a line whose first field has neither ``.`` (an
empty node) nor ``-`` (a multiword token). Its conversion back to CoNLL-U (``text2conllu``) reads
the same documents as trees, a sentence ending at a blank line, and removes the key's empty nodes,
and with them every enhanced dependency on one. What is kept here: the words ``clean`` aligns the
markup to, the sentences it repairs marks in, and each word's basic and enhanced parents, which
decide the heads of the response's mentions. A key whose two readings do not give the same
documents and words is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.diagnostics import InputError

#: The fields of a mention's opening bracket when the key names none (as the pipeline writes them).
DEFAULT_ENTITY_FIELDS = ("eid", "etype", "head", "other")
_NEWDOC = re.compile(r"^# newdoc(?:\s+id\s*=\s*(.+))?$")
_GLOBAL_ENTITY = re.compile(r"^# global.Entity\s*=\s*(\S+)")


@dataclass(frozen=True)
class KeyTree:
    """One sentence's tree: each word's basic parent (its word number; 0 is the root) and enhanced
    parents (``None`` when its DEPS is ``_``, so that the basic parent stands for them; else the
    word numbers of its DEPS that are not empty nodes, 0 the root). A key without a ``head`` field
    gets no head moved: its trees are not read, every parent is 0."""

    parents: tuple[int, ...]
    enhanced: tuple[tuple[int, ...] | None, ...]


@dataclass(frozen=True)
class KeyDocument:
    """One document: its first line in the key, its words as ``clean`` reads them, the lengths of the
    sentences ``clean`` repairs marks in, and its trees."""

    line: int
    words: tuple[str, ...]
    chunks: tuple[int, ...]
    trees: tuple[KeyTree, ...]


@dataclass(frozen=True)
class PipelineKey:
    """The key's documents, and the fields of the response's opening brackets (``# global.Entity``)."""

    documents: list[KeyDocument]
    fields: tuple[str, ...]

    @property
    def head_field(self) -> bool:
        return "head" in self.fields


def universal_lines(text: str) -> list[str]:
    """The lines of ``text`` as Python reads a file in text mode (``\\r\\n`` and ``\\r`` end a line
    too), without their ends; a final line end starts no line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_pipeline_key(path: str, text: str) -> PipelineKey:
    """The key at ``path`` (its text) as the pipeline reads it; an :class:`InputError` where its
    two readings differ or a tree cannot be read."""
    lines = universal_lines(text)
    words, chunks = _cleaning_view(path, lines)
    trees, starts, fields = _tree_view(path, lines)
    if len(words) != len(trees):
        raise InputError(
            path,
            1,
            f"the official pipeline reads {len(words)} documents ('# newdoc id' lines) for its alignment and "
            f"{len(trees)} ('# newdoc' lines) for its trees: every '# newdoc' needs an 'id ='",
        )
    documents = []
    for doc_words, doc_chunks, doc_trees, start in zip(words, chunks, trees, starts):
        n_words = sum(len(t.parents) for t in doc_trees)
        if n_words != len(doc_words):
            raise InputError(
                path,
                start,
                f"the official pipeline reads {len(doc_words)} words in this document for its alignment and "
                f"{n_words} in its trees",
            )
        documents.append(KeyDocument(start, tuple(doc_words), tuple(doc_chunks), tuple(doc_trees)))
    return PipelineKey(documents, fields or DEFAULT_ENTITY_FIELDS)


def _cleaning_view(path: str, lines: list[str]) -> tuple[list[list[str]], list[list[int]]]:
    """Per document, the words ``clean`` aligns to and the lengths of its sentences."""
    docs: list[list[list[str]]] = []
    doc: list[list[str]] = []
    sentence: list[str] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            new_doc = line.startswith("# newdoc id")
            if line.startswith("# sent_id") or new_doc:
                if sentence:
                    doc.append(sentence)
                sentence = []
            if new_doc and doc:
                docs.append(doc)
                doc = []
            continue
        fields = line.split()
        if len(fields) < 2:
            raise InputError(path, lineno, "the official pipeline cannot read a word line of fewer than two fields")
        if "." not in fields[0] and "-" not in fields[0]:
            sentence.append(fields[1])
    doc.append(sentence)
    docs.append(doc)
    return [[w for s in d for w in s] for d in docs], [[len(s) for s in d] for d in docs]


def _tree_view(path: str, lines: list[str]) -> tuple[list[list[KeyTree]], list[int], tuple[str, ...] | None]:
    """Per document (from ``# newdoc`` to the next), its trees; each document's first line; the
    fields of ``# global.Entity``."""
    full = any("head" in m.group(1).split("-") for m in map(_GLOBAL_ENTITY.match, lines) if m) or not any(
        map(_GLOBAL_ENTITY.match, lines)
    )
    docs: list[list[KeyTree]] = []
    starts: list[int] = []
    fields: tuple[str, ...] | None = None
    block: list[tuple[int, str]] = []
    for lineno, raw in enumerate([*lines, ""], 1):
        line = raw.rstrip()
        if line:
            block.append((lineno, line))
            continue
        if not block:
            continue
        comments = [text for _, text in block if text.startswith("#")]
        for text in comments:
            entity = _GLOBAL_ENTITY.match(text)
            if entity:
                value = tuple(entity.group(1).split("-"))
                if fields is not None and value != fields:
                    raise InputError(path, block[0][0], "the key's '# global.Entity' lines differ")
                fields = value
        if any(_NEWDOC.match(text) for text in comments) or not docs:
            docs.append([])
            starts.append(block[0][0])
        docs[-1].append(_tree(path, block[0][0], [(n, t) for n, t in block if not t.startswith("#")], full))
        block = []
    return docs, starts, fields


def _tree(path: str, first: int, rows: list[tuple[int, str]], full: bool) -> KeyTree:
    """One sentence's parents, read as the pipeline's CoNLL-U reader reads its word lines (only
    its words counted unless ``full``)."""
    parents: list[int] = []
    enhanced: list[tuple[int, ...] | None] = []
    where: list[int] = []
    for lineno, line in rows:
        ident = line.split("\t", 1)[0]
        if "-" in ident or "." in ident:
            continue
        if not full:
            parents.append(0)
            enhanced.append(None)
            continue
        cols = line.split("\t")
        where.append(lineno)
        head = cols[6] if len(cols) > 6 else "_"
        parents.append(0 if head == "_" else _number(path, lineno, head, "HEAD"))
        deps = cols[8] if len(cols) > 8 else "_"
        if deps == "_":
            enhanced.append(None)
            continue
        heads = []
        for item in deps.split("|"):
            parent, sep, _ = item.partition(":")
            if not sep:
                raise InputError(path, lineno, f"the official pipeline cannot read DEPS '{deps[:40]}'")
            if "." not in parent:
                heads.append(_number(path, lineno, parent, "a DEPS head"))
        enhanced.append(tuple(heads))
    if not parents:
        raise InputError(path, first, "the official pipeline stops reading the key at a sentence without words")
    for row, basic, more in zip(where, parents, enhanced):
        if max([basic, *(more or ())]) > len(parents):
            raise InputError(path, row, f"a head points past the sentence's {len(parents)} words")
    return KeyTree(tuple(parents), tuple(enhanced))


def _number(path: str, line: int, text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise InputError(path, line, f"{what} '{text[:40]}' is not a number the official pipeline reads")
    return int(text)
