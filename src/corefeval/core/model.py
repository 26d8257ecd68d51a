"""Documents of mentions and entities, stored column-wise.

A :class:`Document` keeps one row per mention occurrence in numpy arrays (start token, end token,
entity index), so that a corpus of a million mentions costs a few arrays, not a million objects.
Mentions are contiguous token spans ``[start, end]`` (inclusive); readers of formats with
discontinuous mentions give each mention its covering span and record the exact word set in
``parts``. With its words (``tokens``), a reader keeps each word's part of speech (``pos``: UPOS in
CorefUD, the Penn Treebank tag of the CoNLL-2012 POS column), interned, so a corpus holds one string
per tag.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from itertools import repeat
from operator import attrgetter, is_
from typing import Any, ClassVar, TypeVar

import numpy as np

from .dataclass_methods import FACTORY, field_repr, refuse_delattr, refuse_setattr
from .diagnostics import Diagnostic

IntArray = np.ndarray
#: A mention as its inclusive token span ``(start, end)``: the one span type outside the arrays.
Span = tuple[int, int]


@dataclass(frozen=True, init=False, repr=False, eq=False)
class Document:
    """One evaluation unit: the mentions of a text and the entity each belongs to.

    Row order matters for the reference scorer's semantics: entities are numbered in the order
    their labels were first seen, and rows are in the order mentions were completed in the file.
    When a span occurs twice, the copy in the earlier entity (then the earlier row) is the one kept.
    """

    name: str
    starts: IntArray
    ends: IntArray
    entities: IntArray
    labels: tuple[str, ...] = ()
    n_tokens: int = 0
    lines: IntArray | None = None
    begin_line: int = 0
    parts: dict[int, tuple[int, ...]] = field(default_factory=dict)
    heads: IntArray | None = None
    tokens: tuple[str, ...] | None = None
    pos: tuple[str, ...] | None = None
    #: A fingerprint of each word (:mod:`corefeval.readers.word_prints`), where the file gives words:
    #: what the check that key and response have the same words compares.
    forms: np.ndarray | None = None
    #: The columns this document is a view of, and its index there (:class:`ViewDocument`).
    _columns: ClassVar[Columns | None] = None
    _at: ClassVar[int] = -1

    def __init__(
        self,
        name: str,
        starts: IntArray,
        ends: IntArray,
        entities: IntArray,
        labels: tuple[str, ...] = (),
        n_tokens: int = 0,
        lines: IntArray | None = None,
        begin_line: int = 0,
        parts: dict[int, tuple[int, ...]] = FACTORY,
        heads: IntArray | None = None,
        tokens: tuple[str, ...] | None = None,
        pos: tuple[str, ...] | None = None,
        forms: np.ndarray | None = None,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.__dict__.update(
            name=name,
            starts=starts,
            ends=ends,
            entities=entities,
            labels=labels,
            n_tokens=n_tokens,
            lines=lines,
            begin_line=begin_line,
            parts={} if parts is FACTORY else parts,
            heads=heads,
            tokens=tokens,
            pos=pos,
            forms=forms,
        )

    __repr__ = field_repr

    @property
    def n_mentions(self) -> int:
        return int(self.starts.shape[0])

    @property
    def n_entities(self) -> int:
        return len(self.labels) if self.labels else (int(self.entities.max()) + 1 if self.n_mentions else 0)

    def clusters(self) -> list[list[Span]]:
        """Entities as lists of ``(start, end)`` spans, in entity order then row order."""
        out: list[list[Span]] = [[] for _ in range(self.n_entities)]
        for s, e, k in zip(self.starts.tolist(), self.ends.tolist(), self.entities.tolist()):
            out[k].append((s, e))
        return [c for c in out if c]

    def mention_keys(self) -> list[Hashable]:
        """A hashable identity per row: the span, or the exact word set of a discontinuous mention."""
        keys: list[Hashable] = list(zip(self.starts.tolist(), self.ends.tolist()))
        for row, words in self.parts.items():
            keys[row] = ("parts", *words)  # never equal to a span: parts (3, 5) are words 3 and 5 only
        return keys


D = TypeVar("D", bound=Document)


def from_fields(cls: type[D], values: dict[str, Any]) -> D:
    """``cls(**values)`` for ``values`` giving every field of the document class ``cls`` by name,
    made without the frozen dataclass's ``__init__`` (one attribute set per field), which dominates
    reading a file of many small documents. ``values`` becomes the object's ``__dict__``: do not
    change it afterwards."""
    made = _new(cls)
    _set(made, "__dict__", values)
    return made


_new = object.__new__
_set = object.__setattr__


@dataclass(init=False, repr=False, eq=False)
class Columns:
    """The mention columns of many documents laid end to end, as a reader makes them once for a
    whole file: document ``d`` has rows ``bounds[d]`` to ``bounds[d + 1]`` and, when ``forms`` is
    given, words ``first_word[d]`` to ``stop_word[d]`` of it. Frozen; its methods are written out,
    not generated (see :mod:`corefeval.core.dataclass_methods`)."""

    starts: IntArray
    ends: IntArray
    entities: IntArray
    lines: IntArray
    bounds: IntArray
    forms: np.ndarray | None = None
    first_word: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    stop_word: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def __init__(
        self,
        starts: IntArray,
        ends: IntArray,
        entities: IntArray,
        lines: IntArray,
        bounds: IntArray,
        forms: np.ndarray | None = None,
        first_word: IntArray = FACTORY,
        stop_word: IntArray = FACTORY,
    ) -> None:
        self.__dict__.update(
            starts=starts,
            ends=ends,
            entities=entities,
            lines=lines,
            bounds=bounds,
            forms=forms,
            first_word=np.zeros(0, dtype=np.int64) if first_word is FACTORY else first_word,
            stop_word=np.zeros(0, dtype=np.int64) if stop_word is FACTORY else stop_word,
        )

    __repr__ = field_repr
    __setattr__ = refuse_setattr
    __delattr__ = refuse_delattr

    def view(self, name: str, d: int) -> np.ndarray | None:
        """Column ``name`` of document ``d`` (a view; ``forms``: of its words)."""
        if name == "forms":
            return None if self.forms is None else self.forms[self.first_word[d] : self.stop_word[d]]
        column: np.ndarray = getattr(self, name)
        return column[self.bounds[d] : self.bounds[d + 1]]

    def rows(self, index: IntArray, words: bool = False) -> tuple[np.ndarray | slice, IntArray]:
        """Where the rows (``words``: the words) of documents ``index`` are, in that order (a slice
        when the documents follow one another), and how many each has."""
        if words:
            lo, hi = self.first_word[index], self.stop_word[index]
        else:
            lo, hi = self.bounds[index], self.bounds[index + 1]
        lengths = hi - lo
        if not index.size:
            return slice(0, 0), lengths
        if np.array_equal(index, np.arange(index[0], index[0] + index.size)):
            return slice(int(lo[0]), int(hi[-1])), lengths
        offsets = np.cumsum(lengths) - lengths
        return np.repeat(lo - offsets, lengths) + np.arange(int(lengths.sum())), lengths


class _View:
    """A column of a :class:`ViewDocument`, made from its :class:`Columns` when first read and kept
    (in the object's ``__dict__``, which a non-data descriptor gives way to)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, doc: object, owner: type | None = None) -> Any:
        if doc is None:
            return self
        values = doc.__dict__
        made = values["_columns"].view(self.name, values["_at"])
        values[self.name] = made
        return made


class ViewDocument(Document):
    """A document of a file of many, read column-wise: its mention columns and word fingerprints
    are views of the file's :class:`Columns`, made only when asked for (scoring many documents
    together asks for none: see :func:`stacked_rows`), which saves five arrays per document.
    Made by :func:`from_fields` with ``_columns`` (the :class:`Columns`) and ``_at`` (its index)
    in place of those fields; a copy (:func:`dataclasses.replace`, pickling) is a plain one."""

    starts = _View()
    ends = _View()
    entities = _View()
    lines = _View()
    forms = _View()

    def __reduce__(self) -> tuple[Any, ...]:
        return from_fields, (Document, {f.name: getattr(self, f.name) for f in fields(Document)})


def stacked_rows(documents: Sequence[Document]) -> tuple[Columns, IntArray] | None:
    """The :class:`Columns` that every document of ``documents`` is a view of, and each one's index
    in it; ``None`` unless all are views of one."""
    columns = documents[0]._columns if documents else None
    if columns is None or not all(map(is_, map(_columns_of, documents), repeat(columns))):
        return None
    index = np.fromiter(map(_index_of, documents), dtype=np.int64, count=len(documents))
    return columns, index


_name_of = attrgetter("name")
_columns_of = attrgetter("_columns")
_index_of = attrgetter("_at")


def make_document(
    name: str,
    clusters: Iterable[Iterable[tuple[int, int]]],
    n_tokens: int | None = None,
    labels: Sequence[str] | None = None,
) -> Document:
    """Build a document from clusters of ``(start, end)`` spans (inclusive token offsets)."""
    starts: list[int] = []
    ends: list[int] = []
    ents: list[int] = []
    count = 0
    for k, cluster in enumerate(clusters):
        for s, e in cluster:
            starts.append(int(s))
            ends.append(int(e))
            ents.append(k)
        count = k + 1
    names = tuple(labels) if labels is not None else tuple(str(i) for i in range(count))
    max_end = max(ends) + 1 if ends else 0
    return Document(
        name=name,
        starts=np.asarray(starts, dtype=np.int64),
        ends=np.asarray(ends, dtype=np.int64),
        entities=np.asarray(ents, dtype=np.int64),
        labels=names,
        n_tokens=max(n_tokens or 0, max_end),
    )


@dataclass(init=False, repr=False, eq=False)
class Corpus:
    """The documents of one file, in file order, with what the reader had to say about it."""

    path: str
    documents: list[Document]
    format: str = "conll2012"
    warnings: list[Diagnostic] = field(default_factory=list)

    def __init__(
        self, path: str, documents: list[Document], format: str = "conll2012", warnings: list[Diagnostic] = FACTORY
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.path = path
        self.documents = documents
        self.format = format
        self.warnings = [] if warnings is FACTORY else warnings

    __repr__ = field_repr

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents)

    def __len__(self) -> int:
        return len(self.documents)

    def by_name(self) -> dict[str, Document]:
        """Documents by name; where a name repeats, the last occurrence wins (as in the reference)."""
        return dict(zip(map(_name_of, self.documents), self.documents))
