"""The mentions of CorefUD ``Entity=`` brackets, for a whole file in a few numpy passes.

Given the items a column-wise scan found (:mod:`.corefud_lines`), the brackets of every document
are cut into pieces (``(e1-person-2``, ``e1)``, ``(e1-person-1)``) at every parenthesis, their fields
read by the ``# global.Entity`` in force, each closing paired with the latest unclosed opening of
its entity (equal nesting depth), and the mentions given their heads and put in the order the line
reader gives them (udapi's: see :meth:`.corefud._DocumentReader.in_udapi_order`), a repeated
mention of one entity kept once.

A document is left to the line reader's per-document path (:class:`.corefud._DocumentReader`, fed
the scanned lines) when something in it is not of the plain kind read here: a discontinuous
mention (``[1/2]``), a mention with an empty node among its nodes, brackets or fields the line
reader would refuse or read otherwise (no entity id, a repeated field name, a bracket closing what
is not open, a head outside its mention).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.dataclass_methods import field_eq, field_repr
from ..core.empty_nodes import NO_HEAD, NO_PARENT
from .corefud_lines import Scan, count_in, digits, first_of_each, texts
from .corefud_notation import EscapeTree
from .word_prints import LOW_BYTES, eight_bytes

_OPEN, _CLOSE, _DASH, _SQUARE = ord("("), ord(")"), ord("-"), ord("[")
#: Mentions whose nodes together number more than this many times the file's nodes (plus this
#: constant) find their syntactic heads in a segment tree, one by one, not all at once.
_EXPANSION, _EXPANSION_FLOOR = 4, 1 << 20
#: Entity ids of up to this many pieces of eight bytes are numbered by their bytes (see :func:`label_numbers`).
_LABEL_PIECES = 8


@dataclass(init=False, repr=False, eq=False)
class Rows:
    """The mentions of the documents read here, in no particular order: each mention's document,
    entity id (in ``names``), first and last node (in the scan's nodes), line, head, the order of
    its opening in its document (``serial``) and of its closing in the file (``closing``).
    ``per_document[d]`` is ``False`` for the documents read here, ``True`` for those left to the
    per-document path (no rows here)."""

    per_document: list[bool]
    doc: np.ndarray
    label: np.ndarray
    first: np.ndarray
    last: np.ndarray
    line: np.ndarray
    head: np.ndarray
    serial: np.ndarray
    closing: np.ndarray
    names: list[str]
    entity_types: list[dict[str, str]]
    headless_line: list[int]
    n_mentions: list[int]  # mentions completed in each document, repeats included

    def __init__(
        self,
        per_document: list[bool],
        doc: np.ndarray,
        label: np.ndarray,
        first: np.ndarray,
        last: np.ndarray,
        line: np.ndarray,
        head: np.ndarray,
        serial: np.ndarray,
        closing: np.ndarray,
        names: list[str],
        entity_types: list[dict[str, str]],
        headless_line: list[int],
        n_mentions: list[int],
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.per_document = per_document
        self.doc = doc
        self.label = label
        self.first = first
        self.last = last
        self.line = line
        self.head = head
        self.serial = serial
        self.closing = closing
        self.names = names
        self.entity_types = entity_types
        self.headless_line = headless_line
        self.n_mentions = n_mentions

    __repr__ = field_repr
    __eq__ = field_eq


@dataclass(init=False, repr=False, eq=False)
class Entities:
    """Each entity of each document read here (sorted by document, then id number): its first
    mention there (first node, minus its number of nodes, last node; nodes of the scan) and the
    place of its first closing."""

    doc: np.ndarray
    label: np.ndarray
    first: np.ndarray
    minus_size: np.ndarray
    last: np.ndarray
    closing: np.ndarray
    of_row: np.ndarray  # each row's entity

    def __init__(
        self,
        doc: np.ndarray,
        label: np.ndarray,
        first: np.ndarray,
        minus_size: np.ndarray,
        last: np.ndarray,
        closing: np.ndarray,
        of_row: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.doc = doc
        self.label = label
        self.first = first
        self.minus_size = minus_size
        self.last = last
        self.closing = closing
        self.of_row = of_row

    __repr__ = field_repr
    __eq__ = field_eq


@dataclass(init=False, repr=False, eq=False)
class Ordered:
    """The mentions of the documents read here in the line reader's order, document by document
    (rows ``bounds[d]`` to ``bounds[d + 1]``), with each document's entity ids, the copies it left
    out and the later copies with another head (``head_copies``, only for documents that have some)."""

    bounds: list[int]
    starts: np.ndarray
    ends: np.ndarray
    entities: np.ndarray
    lines: np.ndarray
    heads: np.ndarray
    labels: list[tuple[str, ...]]
    repeats: list[int]
    head_copies: dict[int, dict[int, tuple[tuple[int, int], ...]]]

    def __init__(
        self,
        bounds: list[int],
        starts: np.ndarray,
        ends: np.ndarray,
        entities: np.ndarray,
        lines: np.ndarray,
        heads: np.ndarray,
        labels: list[tuple[str, ...]],
        repeats: list[int],
        head_copies: dict[int, dict[int, tuple[tuple[int, int], ...]]],
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.bounds = bounds
        self.starts = starts
        self.ends = ends
        self.entities = entities
        self.lines = lines
        self.heads = heads
        self.labels = labels
        self.repeats = repeats
        self.head_copies = head_copies

    __repr__ = field_repr
    __eq__ = field_eq


@dataclass(init=False, repr=False, eq=False)
class _Values:
    """The ``Entity=`` values of a text laid end to end (the passes over bytes then cover the
    values, not the text): item ``i``'s value is ``data[start[i]:end[i]]`` (``arr``: its bytes)."""

    data: bytes
    arr: np.ndarray
    start: np.ndarray
    end: np.ndarray

    def __init__(
        self,
        data: bytes,
        arr: np.ndarray,
        start: np.ndarray,
        end: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.data = data
        self.arr = arr
        self.start = start
        self.end = end

    __repr__ = field_repr
    __eq__ = field_eq

    @classmethod
    def of(cls, s: Scan) -> _Values:
        length = s.entity_end - s.entity_start
        start = np.cumsum(length) - length
        at = np.repeat(s.entity_start - start, length) + np.arange(int(length.sum()))
        arr = np.frombuffer(s.data, dtype=np.uint8)[at]
        return cls(arr.tobytes(), arr, start, start + length)


@dataclass(init=False, repr=False, eq=False)
class _Pieces:
    """The pieces of every ``Entity=`` value (``[start, end)`` in the data), with their item, and
    what is inside their parentheses."""

    item: np.ndarray
    opens: np.ndarray
    closes: np.ndarray
    inner_start: np.ndarray
    inner_end: np.ndarray

    def __init__(
        self,
        item: np.ndarray,
        opens: np.ndarray,
        closes: np.ndarray,
        inner_start: np.ndarray,
        inner_end: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.item = item
        self.opens = opens
        self.closes = closes
        self.inner_start = inner_start
        self.inner_end = inner_end

    __repr__ = field_repr
    __eq__ = field_eq


def _pieces(s: Scan, v: _Values, flagged: np.ndarray) -> _Pieces:
    """Cut every value before each ``(`` and after each ``)``; a piece without either, or with
    nothing inside them, is something the line reader refuses: its document is ``flagged``."""
    arr, start, end = v.arr, v.start, v.end
    parens = np.flatnonzero((arr == _OPEN) | (arr == _CLOSE))
    first, count = np.searchsorted(parens, start), count_in(parens, start, end)
    item_of = np.repeat(np.arange(start.size), count)
    at = parens[np.repeat(first - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))]
    at = at + (arr[at] == _CLOSE)  # a closing parenthesis cuts after itself
    cuts = np.concatenate([start, at, end])
    cut_item = np.concatenate([np.arange(start.size), item_of, np.arange(start.size)])
    order = np.lexsort((cuts, cut_item))
    cuts, cut_item = cuts[order], cut_item[order]
    keep = np.ones(cuts.size, dtype=bool)
    keep[1:] = (cuts[1:] != cuts[:-1]) | (cut_item[1:] != cut_item[:-1])
    cuts, cut_item = cuts[keep], cut_item[keep]
    piece = np.flatnonzero(cut_item[1:] == cut_item[:-1])
    lo, hi, item = cuts[piece], cuts[piece + 1], cut_item[piece]
    opens, closes = arr[lo] == _OPEN, arr[hi - 1] == _CLOSE
    inner_start, inner_end = lo + opens, hi - closes
    bad = (~opens & ~closes) | (inner_end <= inner_start)
    flagged[s.nodes.doc[s.entity_node[item[bad]]]] = True
    square = count_in(np.flatnonzero(arr == _SQUARE), start, end) > 0  # discontinuous mentions
    flagged[s.nodes.doc[s.entity_node[square]]] = True
    return _Pieces(item, opens, closes, inner_start, inner_end)


def _field_positions(fields: tuple[str, ...]) -> tuple[int, int, int, int, int, bool]:
    """Where ``eid``, ``GRP``, ``head``, ``etype`` and ``entity`` are among ``fields`` (-1: absent),
    and whether a name repeats (then the line reader's dictionary keeps the last: read there)."""
    where = [fields.index(name) if name in fields else -1 for name in ("eid", "GRP", "head", "etype", "entity")]
    return (*where, len(set(fields)) != len(fields))  # type: ignore[return-value]


@dataclass(init=False, repr=False, eq=False)
class _Openings:
    """The opening pieces' fields: their piece, label, head (-1: none) and entity type (where the
    label and type are in the data)."""

    piece: np.ndarray
    label_start: np.ndarray
    label_end: np.ndarray
    head: np.ndarray
    typed: np.ndarray
    type_start: np.ndarray
    type_end: np.ndarray

    def __init__(
        self,
        piece: np.ndarray,
        label_start: np.ndarray,
        label_end: np.ndarray,
        head: np.ndarray,
        typed: np.ndarray,
        type_start: np.ndarray,
        type_end: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.piece = piece
        self.label_start = label_start
        self.label_end = label_end
        self.head = head
        self.typed = typed
        self.type_start = type_start
        self.type_end = type_end

    __repr__ = field_repr
    __eq__ = field_eq


def _openings(s: Scan, v: _Values, p: _Pieces, flagged: np.ndarray) -> _Openings:
    """Read the fields of every opening as ``# global.Entity`` names them (the entity id is ``eid``,
    else ``GRP``; ``head`` is 1 to 9 digits when given; the type is ``etype``, else ``entity``)."""
    arr = v.arr
    o = np.flatnonzero(p.opens)
    lo, hi = p.inner_start[o], p.inner_end[o]
    dashes = np.append(np.flatnonzero(arr == _DASH), arr.size)  # a last one past every value
    first_dash = np.searchsorted(dashes, lo)
    n_dashes = np.searchsorted(dashes, hi) - first_dash
    n_parts = n_dashes + 1
    table = np.asarray([_field_positions(f) for f in s.entity_fields], dtype=np.int64)
    eid, grp, head, etype, entity, repeated = table[s.entity_field_set[p.item[o]]].T

    def part(k: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The ``k``-th field of each opening, and whether the opening has it, not empty."""
        k = np.maximum(k, 0)
        begin = np.where(k == 0, lo, dashes[np.minimum(first_dash + k - 1, dashes.size - 1)] + 1)
        stop = np.where(k >= n_dashes, hi, dashes[np.minimum(first_dash + k, dashes.size - 1)])
        return begin, stop, stop > begin

    label_k = np.where((eid >= 0) & (n_parts > eid), eid, np.where((grp >= 0) & (n_parts > grp), grp, -1))
    label_start, label_end, labelled = part(label_k)
    head_start, head_end, headed = part(head)
    headed &= (head >= 0) & (n_parts > head)
    ok, value = digits(arr, head_start, head_end)
    type_start, type_end, typed = part(etype)
    typed &= (etype >= 0) & (n_parts > etype)
    other_start, other_end, other = part(entity)
    other &= (entity >= 0) & (n_parts > entity) & ~typed
    bad = (label_k < 0) | ~labelled | (repeated > 0) | (headed & ~ok)
    flagged[s.nodes.doc[s.entity_node[p.item[o[bad]]]]] = True
    return _Openings(
        piece=o,
        label_start=label_start,
        label_end=label_end,
        head=np.where(headed, value, -1),
        typed=typed | other,
        type_start=np.where(typed, type_start, other_start),
        type_end=np.where(typed, type_end, other_end),
    )


def label_numbers(v: _Values, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """A number for each entity id ``v.data[start:end]`` (equal ids, equal numbers, in order of
    first appearance) and the ids' texts by number. Ids of up to :data:`_LABEL_PIECES` pieces of
    eight bytes are told apart by their pieces and length in one sort; longer ones by their texts."""
    length = end - start
    pieces = (int(length.max(initial=0)) + 7) // 8
    if pieces > _LABEL_PIECES:
        given = texts(v.data, start, end)
        ids = {t: i for i, t in enumerate(dict.fromkeys(given))}  # first appearance first
        return np.fromiter(map(ids.__getitem__, given), dtype=np.int64, count=len(given)), list(ids)
    eights = eight_bytes(v.data)
    keys = [length]
    for j in range(pieces):
        left = np.clip(length - 8 * j, 0, 8)
        keys.append(eights[np.minimum(start + 8 * j, len(v.data))] & LOW_BYTES[left])
    order = np.lexsort(keys)  # stable: each id's first appearance comes first among its copies
    new = np.zeros(order.size, dtype=bool)
    new[:1] = True
    for key in keys:
        ordered = key[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    firsts = order[new]
    rank = np.empty(firsts.size, dtype=np.int64)
    rank[np.argsort(firsts)] = np.arange(firsts.size)
    numbers = np.empty(order.size, dtype=np.int64)
    numbers[order] = rank[np.cumsum(new) - 1]
    chosen = np.sort(firsts)
    return numbers, texts(v.data, start[chosen], end[chosen])


@dataclass(init=False, repr=False, eq=False)
class _Pairs:
    """Each mention's opening and closing piece and its label's number (in ``names``)."""

    opening: np.ndarray  # index into the openings
    closing_piece: np.ndarray
    label: np.ndarray
    names: list[str]
    opening_label: np.ndarray  # every opening's label

    def __init__(
        self,
        opening: np.ndarray,
        closing_piece: np.ndarray,
        label: np.ndarray,
        names: list[str],
        opening_label: np.ndarray,
    ) -> None:
        # Written out, not generated (see corefeval.core.dataclass_methods).
        self.opening = opening
        self.closing_piece = closing_piece
        self.label = label
        self.names = names
        self.opening_label = opening_label

    __repr__ = field_repr
    __eq__ = field_eq


def _pair(v: _Values, p: _Pieces, op: _Openings, piece_doc: np.ndarray, flagged: np.ndarray) -> _Pairs:
    """Pair each closing with the latest unclosed opening of its entity in its document (equal
    nesting depth); a closing with nothing open, or an opening never closed, flags its document."""
    close_only = np.flatnonzero(p.closes & ~p.opens)
    codes, names = label_numbers(
        v,
        np.concatenate([op.label_start, p.inner_start[close_only]]),
        np.concatenate([op.label_end, p.inner_end[close_only]]),
    )
    piece_label = np.zeros(p.item.size, dtype=np.int64)
    piece_label[op.piece] = codes[: op.piece.size]
    piece_label[close_only] = codes[op.piece.size :]
    piece = np.concatenate([op.piece, np.flatnonzero(p.closes)])
    phase = np.concatenate(
        [np.zeros(op.piece.size, dtype=np.int64), np.ones(piece.size - op.piece.size, dtype=np.int64)]
    )
    keep = ~flagged[piece_doc[piece]]
    piece, phase = piece[keep], phase[keep]
    doc, label = piece_doc[piece], piece_label[piece]
    order = np.lexsort((phase, piece, label, doc))  # by entity, then in text order
    piece, phase, doc, label = piece[order], phase[order], doc[order], label[order]
    step = 1 - 2 * phase
    depth = np.cumsum(step)
    new = np.ones(piece.size, dtype=bool)
    new[1:] = (doc[1:] != doc[:-1]) | (label[1:] != label[:-1])
    starts = np.flatnonzero(new)
    depth -= np.repeat((depth - step)[starts], np.diff(np.append(starts, piece.size)))
    last = np.append(starts[1:] - 1, piece.size - 1) if piece.size else starts
    flagged[doc[(phase == 1) & (depth < 0)]] = True
    flagged[doc[last[depth[last] != 0]]] = True
    level = np.where(phase == 1, depth + 1, depth)
    usable = np.flatnonzero(~flagged[doc])
    paired = usable[np.lexsort((level[usable], label[usable], doc[usable]))]  # stable: text order kept
    opening_of_piece = np.full(p.item.size, -1, dtype=np.int64)
    opening_of_piece[op.piece] = np.arange(op.piece.size)
    return _Pairs(
        opening_of_piece[piece[paired[0::2]]],
        piece[paired[1::2]],
        label[paired[0::2]],
        names,
        piece_label[op.piece],
    )


def _heads(s: Scan, first: np.ndarray, last: np.ndarray, head: np.ndarray, first_heads: bool) -> np.ndarray:
    """Each mention's head (nodes ``first..last``, words only): the ``head`` field, else the first
    word (one word, or ``first_heads``), else :data:`~.corefud.NO_HEAD` if a word has no HEAD, else
    the first word whose parent lies outside the mention (the first word if none does)."""
    position, parent = s.nodes.position, s.nodes.parent
    out = position[np.where(head > 0, first + head - 1, first)]
    treeless = np.concatenate(([0], np.cumsum(parent == NO_PARENT)))
    tree = (head < 0) & (first != last) & (not first_heads)
    no_head = tree & (treeless[last + 1] != treeless[first])
    out[no_head] = NO_HEAD
    tree &= ~no_head
    which = np.flatnonzero(tree)
    length = last[which] - first[which] + 1
    if int(length.sum()) > _EXPANSION * position.size + _EXPANSION_FLOOR:  # long nested mentions
        escape = EscapeTree(parent.tolist())
        for i, a, b in zip(which.tolist(), first[which].tolist(), last[which].tolist()):
            out[i] = position[escape.first_outside(a, b, int(position[a]), int(position[b]))]
        return out
    mention = np.repeat(np.arange(which.size), length)
    node = np.repeat(first[which] - (np.cumsum(length) - length), length) + np.arange(mention.size)
    low, high = position[first[which]][mention], position[last[which]][mention]
    escapes = np.flatnonzero((parent[node] < low) | (parent[node] > high))
    found = escapes[np.append(True, mention[escapes][1:] != mention[escapes][:-1])] if escapes.size else escapes
    out[which[mention[found]]] = position[node[found]]
    return out


def read_mentions(s: Scan, first_heads: bool) -> Rows:
    """The mentions of every document of ``s`` that is read here (see the module's docstring);
    ``first_heads``: a mention without a ``head`` field is headed by its first word."""
    v = _Values.of(s)
    n_docs = len(s.documents)
    flagged = np.zeros(n_docs, dtype=bool)
    p = _pieces(s, v, flagged)
    op = _openings(s, v, p, flagged)
    piece_doc = s.nodes.doc[s.entity_node[p.item]]
    pairs = _pair(v, p, op, piece_doc, flagged)
    first = s.entity_node[p.item[op.piece[pairs.opening]]]
    last = s.entity_node[p.item[pairs.closing_piece]]
    doc = s.nodes.doc[first]
    n_mentions = np.bincount(doc, minlength=n_docs).tolist()
    head = op.head[pairs.opening]
    empties = np.concatenate(([0], np.cumsum(s.nodes.empty)))
    flagged[doc[(empties[last + 1] != empties[first]) | (head == 0) | (head > last - first + 1)]] = True
    keep = np.flatnonzero(~flagged[doc])
    first, last, doc, head = first[keep], last[keep], doc[keep], head[keep]
    opening_doc = piece_doc[op.piece]
    line = s.nodes.line[first] + s.first_line
    loose = (head < 0) & (first != last)
    headless = np.full(n_docs, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(headless, doc[loose], line[loose])
    headless[headless == np.iinfo(np.int64).max] = 0
    return Rows(
        per_document=flagged.tolist(),
        doc=doc,
        label=pairs.label[keep],
        first=first,
        last=last,
        line=line,
        head=_heads(s, first, last, head, first_heads),
        serial=pairs.opening[keep] - np.searchsorted(opening_doc, doc),
        closing=pairs.closing_piece[keep],
        names=pairs.names,
        entity_types=_entity_types(v, n_docs, op, pairs, opening_doc, flagged),
        headless_line=headless.tolist(),
        n_mentions=n_mentions,
    )


def entities(rows: Rows) -> Entities:
    """Each entity's first mention in its document (see :class:`Entities`)."""
    size = rows.last - rows.first
    order = np.lexsort((rows.last, -size, rows.first, rows.label, rows.doc))
    d, k = rows.doc[order], rows.label[order]
    new = np.ones(order.size, dtype=bool)
    new[1:] = (d[1:] != d[:-1]) | (k[1:] != k[:-1])
    of_row = np.empty(order.size, dtype=np.int64)
    of_row[order] = np.cumsum(new) - 1
    closing = np.full(int(new.sum()), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(closing, of_row, rows.closing)
    at = order[new]
    return Entities(d[new], k[new], rows.first[at], -size[at] - 1, rows.last[at], closing, of_row)


def in_order(s: Scan, rows: Rows, e: Entities, key: tuple[np.ndarray, ...]) -> Ordered:
    """The mentions in the line reader's order: entities by ``key`` (each entity's place: the
    document, first node, minus size and last node of its first mention in the file, or in its
    document; ties by id), mentions by entity, first node, length, last node and opening. A later
    copy of a mention of its entity is left out (counted), and kept as a head copy if its head is
    new for that mention."""
    n_docs = len(s.documents)
    names = rows.names
    name_rank = np.empty(len(names), dtype=np.int64)
    name_rank[np.argsort(np.asarray(names, dtype=object), kind="stable")] = np.arange(len(names))
    entity_order = np.lexsort((name_rank[e.label], *reversed(key), e.doc))
    doc_first_entity = np.searchsorted(e.doc[entity_order], np.arange(n_docs + 1))
    rank = np.empty(e.doc.size, dtype=np.int64)
    rank[entity_order] = np.arange(e.doc.size) - doc_first_entity[e.doc[entity_order]]
    entity = rank[e.of_row]
    size = rows.last - rows.first
    order = np.lexsort((rows.serial, rows.last, -size, rows.first, entity, rows.doc))
    d, k, a, b = rows.doc[order], entity[order], rows.first[order], rows.last[order]
    kept = np.ones(order.size, dtype=bool)
    kept[1:] = (d[1:] != d[:-1]) | (k[1:] != k[:-1]) | (a[1:] != a[:-1]) | (b[1:] != b[:-1])
    entity_names = [names[i] for i in e.label[entity_order].tolist()]
    cuts = doc_first_entity.tolist()
    heads, lines = rows.head[order], rows.line[order]
    doc = d[kept]
    bounds = np.searchsorted(doc, np.arange(n_docs + 1)).tolist()
    return Ordered(
        bounds=bounds,
        starts=s.nodes.position[a[kept]],
        ends=s.nodes.position[b[kept]],
        entities=k[kept],
        lines=lines[kept],
        heads=heads[kept],
        labels=[tuple(entity_names[cuts[i] : cuts[i + 1]]) for i in range(n_docs)],
        repeats=np.bincount(d[~kept], minlength=n_docs).tolist(),
        head_copies=_head_copies(kept, d, heads, lines, bounds),
    )


def _head_copies(
    kept: np.ndarray, doc: np.ndarray, heads: np.ndarray, lines: np.ndarray, bounds: list[int]
) -> dict[int, dict[int, tuple[tuple[int, int], ...]]]:
    """The later copies whose head is new for the mention they copy: ``doc -> row -> ((head,
    line), ...)`` (``kept``: which of the ordered mentions are kept; a copy follows the one it copies)."""
    out: dict[int, dict[int, tuple[tuple[int, int], ...]]] = {}
    copies = np.flatnonzero(~kept)
    row_of = (np.cumsum(kept) - 1)[copies].tolist()  # the kept row each copy copies
    seen: list[int] = []
    last_row = -1
    for i, row in zip(copies.tolist(), row_of):
        if row != last_row:
            last_row, seen = row, [int(heads[i - 1])]  # a first copy follows its kept row
        head = int(heads[i])
        if head not in seen:
            seen.append(head)
            d = int(doc[i])
            mine = out.setdefault(d, {})
            local = row - bounds[d]
            mine[local] = (*mine.get(local, ()), (head, int(lines[i])))
    return out


def _entity_types(
    v: _Values, n_docs: int, op: _Openings, pairs: _Pairs, opening_doc: np.ndarray, flagged: np.ndarray
) -> list[dict[str, str]]:
    """Each document's entity types: an entity's first opening that gives one, in file order."""
    out: list[dict[str, str]] = [{} for _ in range(n_docs)]
    typed = np.flatnonzero(op.typed & ~flagged[opening_doc])
    n = max(len(pairs.names), 1)
    _, first = first_of_each(opening_doc[typed] * n + pairs.opening_label[typed])
    chosen = typed[np.sort(first)]
    types = texts(v.data, op.type_start[chosen], op.type_end[chosen])
    for d, k, t in zip(opening_doc[chosen].tolist(), pairs.opening_label[chosen].tolist(), types):
        out[d][pairs.names[k]] = t
    return out
