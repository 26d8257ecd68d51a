"""The markup of a Universal Anaphora file, cell by cell, and the assembly of a read document: the
IDENTITY and DISCOURSE_DEIXIS cells' brackets (:func:`markable_cell`), the BRIDGING cells
(:func:`bridging_cell`), a finished layer's markables, and a document added to what was read
(:func:`finish`). Both ways of reading a file (line by line, :mod:`.ua`, and column-wise,
:mod:`.ua_columns`) read their cells here, so they read them alike."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any, NamedTuple

import numpy as np

from ..anaphora.model import Bridge, Markable, Markables, UADocument, from_fields
from ..core.diagnostics import Diagnostic, InputError, is_number
from ..core.empty_nodes import empty_position

#: Column positions when a file has no ``# global.columns`` header.
DEFAULT_COLUMNS = {"IDENTITY": 10, "BRIDGING": 11, "DISCOURSE_DEIXIS": 12}
_ID_KEYS = {"entityid": "EntityID", "markableid": "MarkableID", "mentionid": "MarkableID"}
_USUAL_KEYS = {"EntityID", "MarkableID", "Min", "SemType", "ElementOf", "Rel", "MentionAnchor", "EntityAnchor"}


class UALayers(NamedTuple):
    """What :func:`read_ua_documents` reads: the documents with all their layers, each document's
    sentence lengths in words (zeros left out), its zero lines (ids ``W.K``: line position ->
    position as an empty node), and warnings."""

    documents: list[UADocument]
    sentences: dict[str, list[int]]
    zero_lines: dict[str, dict[int, int]]
    warnings: list[Diagnostic]
    keep_tokens: bool = False  # whether documents keep their words (their fingerprints are always kept)


class Layer:
    """The markables of one layer of the document being read."""

    __slots__ = ("name", "open", "found", "columns")

    def __init__(self, name: str) -> None:
        self.name = name
        self.open: list[tuple[str, int]] = []  # (markable id, line) not yet closed
        #: Per markable id: the :class:`Markable`'s fields as read (``end`` -1 while open,
        #: ``min_span`` the text of ``Min`` or None until :func:`_markables` reads it).
        self.found: dict[str, dict[str, Any]] = {}
        #: The layer's markables when read column-wise (``found`` is then empty).
        self.columns: Markables | None = None

    def ids(self) -> Collection[str]:
        """The ids of the markables read."""
        return self.found.keys() if self.columns is None else set(self.columns.ids)


#: An opening as the format's writers spell it, ``(`` left out: ``EntityID`` and ``MarkableID``, then
#: any of ``Min``, ``SemType`` and ``ElementOf`` in this order, ``)`` for a one-word markable,
#: ``@`` joining the next opening. Any other spelling goes to :func:`_attributes`, to the same result.
_usual_opening = re.compile(
    r"EntityID=([^|)@]+)\|MarkableID=([^|)@]+)(?:\|Min=([^|)@]*))?(?:\|SemType=([^|)@]*))?"
    r"(?:\|ElementOf=([^|)@]*))?(\)?)@*"
).fullmatch


#: The most usual opening, ``EntityID`` and ``MarkableID`` only: matched first (in half the time).
_two_ids = re.compile(r"EntityID=([^|)@]+)\|MarkableID=([^|)@]+)(\)?)@*").fullmatch


#: ``Min`` as the format's writers spell it: one position or two (ASCII digits, no leading zero).
_usual_min = re.compile(r"([1-9][0-9]{0,14})(?:[,-]([1-9][0-9]{0,14}))?").fullmatch


def _attributes(path: str, line: int, text: str) -> dict[str, str]:
    """``Key=Value|Key=Value`` as a dictionary (identifier keys in their canonical spelling)."""
    fast: dict[str, str] = {}  # the usual case: every part Key=Value, keys spelt as the format spells them
    for part in text.split("|"):
        key, eq, value = part.partition("=")
        if not eq or key not in _USUAL_KEYS:
            break
        fast[key] = value
    else:
        return fast
    out: dict[str, str] = {}
    for part in text.split("|"):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise InputError(path, line, f"expected Key=Value in markable '{text}', found '{part}'")
        out[_ID_KEYS.get(key.lower(), key)] = value
    return out


def _min_span(path: str, line: int, value: str, n_words: int) -> tuple[int, int]:
    """``Min=3`` ``Min=3,4`` or ``Min=3-4`` as 0-based ``(start, end)``; with more than two
    positions, the first (as the UA scorer reads them). Positions lie in the document's
    ``n_words``."""
    usual = _usual_min(value)
    if usual:
        first, last = int(usual[1]), int(usual[2] or usual[1])
        if first <= n_words and last <= n_words:
            return first - 1, last - 1
    parts = value.replace("-", ",").split(",")
    if not all(is_number(p, 15) and 0 < int(p) <= n_words for p in parts):
        raise InputError(
            path, line, f"expected Min=POSITION or Min=START,END (1-based, at most {n_words}), found 'Min={value[:40]}'"
        )
    first = int(parts[0]) - 1
    return (first, int(parts[1]) - 1) if len(parts) == 2 else (first, first)


def _close(path: str, line: int, cell: str, layer: Layer, head: str, position: int) -> None:
    """The closing brackets ``head`` at the start of ``cell``: ``)`` closes the markable opened
    last, ``m1)`` markable m1."""
    opened, found = layer.open, layer.found
    if not head.strip(")"):  # only ")": each closes the last open markable
        for _ in head:
            if not opened:
                raise InputError(path, line, f"')' in {layer.name} '{cell}' closes no open markable")
            found[opened.pop()[0]]["end"] = position
        return
    for closer in head.split(")")[:-1]:
        at = next((i for i in range(len(opened) - 1, -1, -1) if opened[i][0] == closer), -1) if closer else -1
        if not opened or (closer and at < 0):
            raise InputError(path, line, f"'{closer})' in {layer.name} '{cell}' closes no open markable")
        found[opened.pop(at)[0]]["end"] = position
    if not head.endswith(")"):
        raise InputError(path, line, f"expected ')' or '(' at the end of '{head}' in {layer.name} '{cell}'")


def markable_cell(path: str, line: int, cell: str, layer: Layer, position: int) -> None:
    """Read one IDENTITY or DISCOURSE_DEIXIS cell at ``position``."""
    if cell == ")" and layer.open:  # the usual closing bracket
        layer.found[layer.open.pop()[0]]["end"] = position
        return
    head, paren, rest = cell.partition("(")
    if head:
        if head == ")" and layer.open:
            layer.found[layer.open.pop()[0]]["end"] = position
        else:
            _close(path, line, cell, layer, head, position)
        if not paren:
            return
    found = layer.found
    for piece in rest.split("("):
        usual = _two_ids(piece)
        if usual:
            (entity, mid, one_word), min_span, sem_type, element_of = usual.groups(), None, "", None
        else:
            entity, mid, min_span, sem_type, element_of, one_word = opening_fields(path, line, piece, layer.name)
        # a repeated id (a discontinuous markable) keeps its last part
        found[mid] = {
            "markable_id": mid,
            "entity": entity,
            "start": position,
            "end": position if one_word else -1,
            "line": line,
            "min_span": min_span,
            "sem_type": sem_type or "",
            "element_of": tuple(filter(None, element_of.split(","))) if element_of else (),
        }
        if not one_word:
            layer.open.append((mid, line))


def opening_fields(path: str, line: int, piece: str, layer: str) -> tuple[str, str, str | None, str, str | None, str]:
    """The entity, markable id, ``Min``, ``SemType`` and ``ElementOf`` (None when absent) of one
    opening in any spelling (``piece``: its text after ``(``), and ``)`` if the markable is of one
    word."""
    usual = _usual_opening(piece)
    if usual:
        entity, mid, min_span, sem_type, element_of, one_word = usual.groups()
        return entity, mid, min_span, sem_type, element_of, one_word
    return _opening(path, line, piece, layer)


def _opening(path: str, line: int, piece: str, layer: str) -> tuple[str, str, str | None, str, str | None, str]:
    """The entity, markable id, ``Min``, ``SemType`` and ``ElementOf`` (None when absent) of one
    opening (``piece``: its text after ``(``), and ``)`` if the markable is of one word."""
    piece = piece.rstrip("@")
    one_word = ")" if piece.endswith(")") else ""
    if one_word:
        piece = piece[:-1]
    info = _attributes(path, line, piece)
    mid = info.get("MarkableID")
    entity = info.get("EntityID")
    if not entity or not mid:
        needed = "MarkableID" if entity else "EntityID"
        raise InputError(path, line, f"expected {needed}=... in {layer} markable '({piece}'")
    return entity, mid, info.get("Min"), info.get("SemType", ""), info.get("ElementOf"), one_word


#: A BRIDGING cell of one link as the format's writers spell it: ``MarkableID``, then any of
#: ``Rel``, ``MentionAnchor`` and ``EntityAnchor`` in this order, in brackets or not.
_usual_bridge = re.compile(
    r"\(?MarkableID=([^|()@]+)(?:\|Rel=([^|()@]*))?(?:\|MentionAnchor=([^|()@]*))?(?:\|EntityAnchor=([^|()@]*))?\)?"
).fullmatch


def bridging_cell(path: str, line: int, cell: str) -> list[Bridge]:
    """The bridging links of one BRIDGING cell."""
    usual = _usual_bridge(cell)
    if usual and (usual[3] or usual[4]):
        anaphor, relation, mention, entity = usual.groups()
        fields = {
            "anaphor": anaphor,
            "mention_anchor": mention or "",
            "entity_anchor": entity or "",
            "relation": relation or "",
            "line": line,
        }
        return list(from_fields(Bridge, [fields]))
    out = []
    for piece in cell.replace("@", "(").split("("):
        piece = piece.strip().rstrip(")")
        if not piece:
            continue
        info = _attributes(path, line, piece)
        if not info.get("MarkableID"):
            raise InputError(path, line, f"expected MarkableID=... in bridging '{piece}'")
        if not (info.get("MentionAnchor") or info.get("EntityAnchor")):
            raise InputError(path, line, f"expected MentionAnchor=... or EntityAnchor=... in bridging '{piece}'")
        out.append(
            Bridge(
                info["MarkableID"],
                info.get("MentionAnchor", ""),
                info.get("EntityAnchor", ""),
                info.get("Rel", ""),
                line,
            )
        )
    return out


def _unknown_bridging_ends(path: str, document: str, bridges: list[Bridge], ids: Collection[str]) -> list[Diagnostic]:
    """A warning for each bridging link whose anaphor or ``MentionAnchor`` is no markable of the
    identity layer (``ids``): the link is not scored (the UA scorer skips it too, with a message)."""
    return [
        Diagnostic(
            path,
            b.line,
            f"document '{document}': bridging {b.anaphor[:40]} -> {b.mention_anchor[:40]} names a markable "
            "the IDENTITY column does not have; the link is not scored",
        )
        for b in bridges
        if b.anaphor not in ids or (b.mention_anchor and b.mention_anchor not in ids)
    ]


def _markables(path: str, layer: Layer, end_line: int, n_words: int) -> tuple[Markable, ...] | Markables:
    """The markables of a finished layer (of a document of ``n_words``), in order of first opening."""
    if layer.open:
        mid, line = layer.open[-1]
        raise InputError(path, line, f"{layer.name} markable '{mid}' is not closed before line {end_line}")
    parents: dict[str, set[str]] = {}  # each plural entity's elements (ElementOf)
    line_of: dict[str, int] = {}
    columns = layer.columns
    if columns is None:
        read = [(fields, fields) for fields in layer.found.values()]
    else:  # the fields of markables with more than their ids, and their ids and lines
        read = [(fields, _identified(columns, i)) for i, fields in columns.more.items()]
    for fields, known in read:
        if fields["min_span"] is not None:
            fields["min_span"] = _min_span(path, known["line"], fields["min_span"], n_words)
        if fields["element_of"]:
            parents.setdefault(known["entity"], set()).update(fields["element_of"])
            line_of.setdefault(known["entity"], known["line"])
    # a cycle needs an entity that is both a plural and an element
    if parents and not parents.keys().isdisjoint(set().union(*parents.values())):
        _check_no_cycle(path, parents, line_of)
    if columns is not None:
        return columns if len(columns) else ()
    return from_fields(Markable, layer.found.values())


def _identified(columns: Markables, i: int) -> dict[str, Any]:
    """The entity and line of markable ``i`` of ``columns``."""
    return {"entity": columns.entities[i], "line": columns.lines[i]}


def _check_no_cycle(path: str, parents: dict[str, set[str]], line_of: dict[str, int]) -> None:
    """No entity may be, through ``ElementOf`` links (``parents``: each entity's plurals, first
    given on ``line_of``), an element of itself."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for root in parents:
        stack = [(root, iter(sorted(parents.get(root, ()))))]
        if state.get(root):
            continue
        state[root] = 1
        while stack:
            entity, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[entity] = 2
                stack.pop()
            elif state.get(child) == 1:
                raise InputError(path, line_of[entity], f"entity '{child}' is, through ElementOf, an element of itself")
            elif not state.get(child):
                state[child] = 1
                stack.append((child, iter(sorted(parents.get(child, ())))))


def header_columns(line: str) -> dict[str, int]:
    """The layer columns a ``# global.columns`` line names: layer name -> position."""
    names = line.split("=", 1)[-1].split()
    return {c: names.index(c) for c in DEFAULT_COLUMNS if c in names}


def document_name(line: str) -> str:
    """The name a ``# newdoc`` line (stripped) gives its document."""
    return line.split("=", 1)[1].strip() if "=" in line else ""


def layout(columns: dict[str, int]) -> tuple[int, tuple[int, ...]]:
    """For the layer ``columns`` a file names (layer name -> position): the last position a word
    line must have, and the positions of IDENTITY, DISCOURSE_DEIXIS and BRIDGING (-1 if absent)
    followed by three positions to test for ``_`` on every word line (those of the layers present,
    repeated to make three; 0 if none, a word line then always tested in full)."""
    at = tuple(columns.get(c, -1) for c in ("IDENTITY", "DISCOURSE_DEIXIS", "BRIDGING"))
    present = [a for a in at if a >= 0] or [0]
    return max(columns.values(), default=1), at + tuple(present[i % len(present)] for i in range(3))


class Markup:
    """The layers of the document being read: its identity and discourse-deixis markables and its
    bridging links."""

    __slots__ = ("identity", "deixis", "bridges")

    def __init__(self) -> None:
        self.identity, self.deixis = Layer("identity"), Layer("discourse deixis")
        self.bridges: list[Bridge] = []


def finish(
    path: str,
    out: UALayers,
    named: tuple[str, int],
    sentences: list[int],
    markup: Markup,
    words: tuple[np.ndarray, tuple[str, ...]],
    end_line: int,
) -> None:
    """Add the document ``named`` (its name and the line of its ``# newdoc``), of ``sentences``
    (their lengths), read up to ``end_line``, to ``out``; ``words``: their fingerprints, and the
    words themselves if ``out`` keeps them."""
    name, begin = named
    forms, tokens = words
    n_words = len(forms)
    out.sentences[name] = sentences
    markables = _markables(path, markup.identity, end_line, n_words)
    bridges = markup.bridges
    if bridges:
        out.warnings.extend(_unknown_bridging_ends(path, name, bridges, markup.identity.ids()))
    deixis_markables = _markables(path, markup.deixis, end_line, n_words)
    out.documents.append(UADocument(name, n_words, markables, deixis_markables, tuple(bridges), tokens, forms, begin))


def zero_position(path: str, line: int, word_id: str, sentence: int) -> int:
    """The position of the zero ``W.K`` (an empty node after word ``W`` of its sentence)."""
    word, _, k = word_id.partition(".")
    if not (len(word_id) <= 12 and is_number(word) and is_number(k) and 0 < int(k) <= 64 and int(word) < 1 << 20):
        raise InputError(path, line, f"expected a zero's id as WORD.K (K from 1 to 64), found '{word_id[:40]}'")
    return empty_position(sentence, int(word), int(k))
