"""A Universal Anaphora document: the markables of its identity and discourse-deixis layers and its
bridging links, in file order.

Markables keep the file's identifiers (``MarkableID``, ``EntityID``) because the layers refer to
each other by them: split antecedents name the plural entity (``ElementOf``), bridging names its
anaphor and anchor markables. :meth:`UADocument.layer` turns a layer into a plain
:class:`~corefeval.core.model.Document`, so that every identity metric of corefeval applies to it.
"""

from __future__ import annotations

from collections.abc import Iterable
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
    identity: tuple[Markable, ...] = ()
    deixis: tuple[Markable, ...] = ()
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
