"""A Universal Anaphora document: the markables of its identity and discourse-deixis layers and its
bridging links, in file order.

Markables keep the file's identifiers (``MarkableID``, ``EntityID``) because the layers refer to
each other by them: split antecedents name the plural entity (``ElementOf``), bridging names its
anaphor and anchor markables. :meth:`UADocument.layer` turns a layer into a plain
:class:`~corefeval.core.model.Document`, so that every identity metric of corefeval applies to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

import numpy as np

from ..core.model import Document, Span, make_document

#: The suffix of the entity of a non-referring markable (``EntityID=4-Pseudo``).
PSEUDO = "-Pseudo"


@dataclass(frozen=True)
class Markable:
    """One markable: its span and minimum span (inclusive word offsets in the document), its ids,
    and the plural entities it is an element of."""

    markable_id: str
    entity: str
    start: int
    end: int
    line: int
    min_span: Span | None = None
    sem_type: str = ""
    element_of: tuple[str, ...] = ()

    @property
    def referring(self) -> bool:
        """Not a non-referring expression (whose entity ends in ``-Pseudo``)."""
        return not self.entity.endswith(PSEUDO)

    @property
    def span(self) -> Span:
        return (self.start, self.end)


_Frozen = TypeVar("_Frozen", "Markable", "Bridge")


def from_fields(cls: type[_Frozen], values: Iterable[dict[str, Any]]) -> tuple[_Frozen, ...]:
    """The :class:`Markable` or :class:`Bridge` objects whose fields are each of ``values`` (a
    value for every field, by name), made without the frozen dataclass's ``__init__`` (one
    attribute set per field), which dominates reading a file of many markables. Each dictionary
    becomes its object's ``__dict__``: do not change it afterwards."""
    made = []
    for given in values:
        one = _new(cls)
        _set(one, "__dict__", given)
        made.append(one)
    return tuple(made)


_new = object.__new__
_set = object.__setattr__


class Markables(Sequence[Markable]):
    """The markables of one layer of a document read column-wise, kept as the reader's columns
    until a :class:`Markable` is asked for: making those objects costs more than all else in
    reading a large file, and counting a document without split antecedents reads the columns
    (:attr:`starts`, :attr:`ends`, :attr:`entities`). It behaves as the tuple of its markables
    (equal to it, hashed, printed, added and pickled as it), made when first read."""

    __slots__ = ("starts", "ends", "lines", "ids", "entities", "more", "_made")

    def __init__(
        self,
        columns: tuple[np.ndarray, np.ndarray, list[int], list[str], list[str]],
        more: dict[int, dict[str, Any]],
    ) -> None:
        #: Each markable's start and end (arrays), line, ``MarkableID`` and ``EntityID``, in order of opening.
        self.starts, self.ends, self.lines, self.ids, self.entities = columns
        #: The fields of the markables with more than their ids (``Min``, ``SemType``, ``ElementOf``), by index.
        self.more = more
        self._made: tuple[Markable, ...] | None = None

    def made(self) -> tuple[Markable, ...]:
        """The markables as objects (made once)."""
        if self._made is None:
            values = [
                {
                    "markable_id": mid,
                    "entity": entity,
                    "start": start,
                    "end": end,
                    "line": line,
                    "min_span": None,
                    "sem_type": "",
                    "element_of": (),
                }
                for mid, entity, start, end, line in zip(
                    self.ids, self.entities, self.starts.tolist(), self.ends.tolist(), self.lines
                )
            ]
            for i, fields in self.more.items():
                values[i].update(fields)
            self._made = from_fields(Markable, values)
        return self._made

    def has_elements(self) -> bool:
        """Whether a markable is an element of a plural entity (``ElementOf``)."""
        return any(fields.get("element_of") for fields in self.more.values())

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, index: Any) -> Any:
        return self.made()[index]

    def __iter__(self) -> Iterator[Markable]:
        return iter(self.made())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Markables):
            other = other.made()
        return self.made() == other if isinstance(other, tuple) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.made())

    def __repr__(self) -> str:
        return repr(self.made())

    def __add__(self, other: object) -> Any:
        return self.made() + (other.made() if isinstance(other, Markables) else other)  # type: ignore[operator]

    def __radd__(self, other: object) -> Any:
        return other + self.made()  # type: ignore[operator]

    def __reduce__(self) -> tuple[type[tuple[Markable, ...]], tuple[tuple[Markable, ...]]]:
        return tuple, (self.made(),)


@dataclass(frozen=True)
class Bridge:
    """A bridging link: the anaphor markable, its anchor markable and/or entity, the relation."""

    anaphor: str
    mention_anchor: str = ""
    entity_anchor: str = ""
    relation: str = ""
    line: int = 0


@dataclass(frozen=True)
class UADocument:
    """The layers of one Universal Anaphora document (``# newdoc id``)."""

    name: str
    n_tokens: int
    #: Each layer's markables: a tuple, or the columns they are read from (:class:`Markables`, which
    #: behaves as that tuple).
    identity: tuple[Markable, ...] | Markables = ()
    deixis: tuple[Markable, ...] | Markables = ()
    bridging: tuple[Bridge, ...] = ()
    tokens: tuple[str, ...] = field(default=(), repr=False)
    #: Each word's fingerprint (:mod:`corefeval.readers.word_prints`), where the file gives words.
    forms: np.ndarray | None = field(default=None, repr=False, compare=False)
    line: int = 0  # the line of its '# newdoc' (0: not read from a file)

    def layer(self, which: str = "identity", non_referring: bool = False) -> AnaphoraDocument:
        """The coreference chains of a layer (``identity`` or ``deixis``) as a document: referring
        markables grouped by entity in order of first appearance (non-referring ones too, by their
        pseudo entity, when ``non_referring``), carrying this whole document."""
        markables = self.identity if which == "identity" else self.deixis
        order: dict[str, list[Span]] = {}
        for m in markables:
            if m.referring or non_referring:
                order.setdefault(m.entity, []).append(m.span)
        plain = make_document(self.name, order.values(), n_tokens=self.n_tokens, labels=list(order))
        values = {f.name: getattr(plain, f.name) for f in fields(Document)}
        values["tokens"] = self.tokens or None
        values["forms"] = self.forms
        values["begin_line"] = self.line
        return AnaphoraDocument(**values, anaphora=self)

    def first_line(self) -> int:
        """The line of its first markable in the file (0: none, or not read from a file)."""
        layers = (self.identity, self.deixis)
        lines = [min(x.lines) if isinstance(x, Markables) else min(m.line for m in x) for x in layers if x]
        return min(lines, default=0)

    def non_referring(self) -> list[Markable]:
        """The non-referring markables of the identity layer, in file order."""
        return [m for m in self.identity if not m.referring]

    def split_antecedents(self) -> dict[str, list[str]]:
        """Each plural entity's element entities (from ``ElementOf``), in file order, repeats kept."""
        out: dict[str, list[str]] = {}
        for m in self.identity:
            for plural in m.element_of:
                out.setdefault(plural, []).append(m.entity)
        return out


@dataclass(frozen=True)
class AnaphoraDocument(Document):
    """One layer of a Universal Anaphora document as a :class:`~corefeval.core.model.Document`, with the
    document it comes from (its other layers), for the measures that need them."""

    anaphora: UADocument | None = field(default=None, repr=False, compare=False)
