"""The markables of one IDENTITY or DISCOURSE_DEIXIS column read column-wise, from the bytes of its
cells: where every cell is closing brackets ``)`` followed by openings ``(EntityID=...|MarkableID=...``
(``)`` after one: a markable of one word), no ``@`` joins openings and no markable id is repeated
within a document, the brackets are matched for all documents at once (by the depth of each
bracket), each opening of ``EntityID`` and ``MarkableID`` alone is cut out of the column's text, and
each other opening is read by :func:`.ua_markup.opening_fields` as the line-by-line reader reads it.
Python then only makes each markable's fields. A column in any other form, or with a bracket that
closes nothing or is never closed, is read cell by cell (:func:`.ua_markup.markable_cell`), which
reads it to the same markables or says where it is wrong.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..anaphora.model import Markables
from .ua_markup import opening_fields

_OPEN, _CLOSE, _BAR, _TAB, _AT = (ord(c) for c in "()|\t@")
_ENTITY, _MARKABLE = b"EntityID=", b"|MarkableID="
_NONE = Markables((np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), [], [], []), {})


class Column(NamedTuple):
    """A layer's cells that are not ``_``: their bytes in the file (``start``, ``end``), their words
    (indices among the word lines), their line numbers; and where each document's words start
    among the word lines (one more entry: all)."""

    start: np.ndarray
    end: np.ndarray
    at: np.ndarray
    lines: np.ndarray
    firsts: np.ndarray


class _Joined(NamedTuple):
    """The column's cells joined, each followed by a tab (as bytes and as an array); each cell's
    offset in it."""

    raw: bytes
    text: np.ndarray
    offset: np.ndarray


class _Read(NamedTuple):
    """Every opening's markable: its start and end in its document, line, ``MarkableID`` and
    ``EntityID``; the other fields of those with more, by index."""

    starts: np.ndarray
    ends: np.ndarray
    lines: list[int]
    ids: list[str]
    entities: list[str]
    more: dict[int, dict[str, Any]]


class _Openings(NamedTuple):
    """Every opening: where its ``(`` is in the joined column, where its text ends (the next ``(``,
    ``)`` or tab), and whether ``)`` makes it a markable of one word."""

    at: np.ndarray
    end: np.ndarray
    one_word: np.ndarray


def column_markables(data: bytes, column: Column, path: str, layer: str) -> list[Markables] | None:
    """Per document, its markables in order of opening (``Min`` as read, not yet checked: see
    :func:`.ua_markup.finish`), or None if the column is not in the form this module reads."""
    n_docs = column.firsts.size - 1
    if not column.at.size:
        return [_NONE for _ in range(n_docs)]
    joined = _joined(data, column.start, column.end)
    text = joined.text
    if (text == _AT).any():
        return None
    openings = _openings(text)
    if openings is None:
        return None
    closers = _closers(text, openings)
    if closers is None:
        return None
    ends = _matched_ends(joined, openings, closers, column)
    if ends is None:
        return None
    return _by_document(_fields(joined, openings, ends, column, (path, layer)), n_docs)


def _joined(data: bytes, start: np.ndarray, end: np.ndarray) -> _Joined:
    """The cells ``data[start:end]`` joined, each followed by a tab."""
    text = _gathered(np.frombuffer(data, dtype=np.uint8), start, end)
    steps = end - start + 1
    return _Joined(text.tobytes(), text, np.cumsum(steps) - steps)


def _openings(text: np.ndarray) -> _Openings | None:
    """The openings of the joined column; None if a one-word ``)`` is followed by anything but an
    opening or the cell's end."""
    at = np.flatnonzero(text == _OPEN)
    specials = np.flatnonzero((text == _OPEN) | (text == _CLOSE) | (text == _TAB))
    end = specials[np.searchsorted(specials, at, side="right")]  # every cell ends with a tab
    one_word = text[end] == _CLOSE
    after = end + one_word
    if not np.isin(text[after], (_OPEN, _TAB)).all():
        return None
    return _Openings(at, end, one_word)


def _closers(text: np.ndarray, openings: _Openings) -> np.ndarray | None:
    """The positions of the closing brackets (every byte outside an opening is ``)`` or a cell's
    tab, and openings run to their cell's end: closers come first in their cell); None otherwise.
    An opening ends at the first ``(``, ``)`` or tab after it, so the only ``)`` within one is its
    one-word mark: the bytes outside are those of the other ``)`` and the tabs exactly when they
    are as many."""
    close = text == _CLOSE
    close[openings.end[openings.one_word]] = False
    closers = np.flatnonzero(close)
    inside = int((openings.end - openings.at).sum()) + int(np.count_nonzero(openings.one_word))
    if text.size - inside != closers.size + int(np.count_nonzero(text == _TAB)):
        return None
    return closers


def _matched_ends(joined: _Joined, openings: _Openings, closers: np.ndarray, column: Column) -> np.ndarray | None:
    """Each opening's closing cell (its own if of one word), the closer of a bracket being the first
    that brings the depth back below it; None if a closer closes nothing or a document ends with a
    markable open."""
    cell_of_opening = np.searchsorted(joined.offset, openings.at, side="right") - 1
    ends = cell_of_opening.copy()
    pushed = openings.at[~openings.one_word]
    position = np.concatenate((pushed, closers))
    step = np.concatenate((np.ones(pushed.size, dtype=np.int64), -np.ones(closers.size, dtype=np.int64)))
    order = np.argsort(position, kind="stable")
    position, step = position[order], step[order]
    depth = np.cumsum(step)
    cell = np.searchsorted(joined.offset, position, side="right") - 1
    document = np.searchsorted(column.firsts, column.at[cell], side="right") - 1
    last = np.flatnonzero(np.append(document[1:] != document[:-1], True))
    if position.size and ((depth < 0).any() or (depth[last] != 0).any()):
        return None
    level = np.where(step > 0, depth, depth + 1)
    paired = np.lexsort((position, level))
    if not ((step[paired[0::2]] > 0).all() and (step[paired[1::2]] < 0).all()):
        return None
    opened = np.searchsorted(openings.at, position[paired[0::2]])
    ends[opened] = cell[paired[1::2]]
    return ends


def _simple(text: np.ndarray, openings: _Openings) -> tuple[np.ndarray, np.ndarray]:
    """Which openings are ``EntityID=E|MarkableID=M`` alone (each value of a byte or more), and
    where the ``|`` of each is (meaningful for those)."""
    at, end, n = openings.at, openings.end, text.size
    bars = np.flatnonzero(text == _BAR)
    if not bars.size:
        return np.zeros(at.size, dtype=bool), at
    k = np.searchsorted(bars, at)
    bar = bars[np.minimum(k, bars.size - 1)]
    second = bars[np.minimum(k + 1, bars.size - 1)]
    ok = (k < bars.size) & (bar > at + len(_ENTITY) + 1) & (end > bar + len(_MARKABLE))
    ok &= (k + 1 >= bars.size) | (second > end)
    for j, byte in enumerate(_ENTITY):
        ok &= text[np.minimum(at + 1 + j, n - 1)] == byte
    for j, byte in enumerate(_MARKABLE):
        ok &= text[np.minimum(bar + j, n - 1)] == byte
    return ok, bar


def _fields(
    joined: _Joined, openings: _Openings, ends: np.ndarray, column: Column, where: tuple[str, str]
) -> tuple[_Read, np.ndarray]:
    """Each opening's markable as columns (positions in its document) and its document."""
    raw = joined.raw
    simple, bar = _simple(joined.text, openings)
    cell = np.searchsorted(joined.offset, openings.at, side="right") - 1
    word = column.at[cell]
    document = np.searchsorted(column.firsts, word, side="right") - 1
    first = column.firsts[document]
    lines = column.lines[cell].tolist()
    entities = _texts(raw, openings.at + 1 + len(_ENTITY), bar)
    ids = _texts(raw, bar + len(_MARKABLE), openings.end)
    more: dict[int, dict[str, Any]] = {}
    other = np.flatnonzero(~simple)
    pieces = _texts(raw, openings.at[other] + 1, openings.end[other] + openings.one_word[other])
    for i, piece in zip(other.tolist(), pieces):
        entity, mid, min_span, sem_type, element_of, _ = opening_fields(where[0], lines[i], piece, where[1])
        ids[i], entities[i] = mid, entity
        more[i] = {
            "min_span": min_span,
            "sem_type": sem_type or "",
            "element_of": tuple(filter(None, element_of.split(","))) if element_of else (),
        }
    return _Read(word - first, column.at[ends] - first, lines, ids, entities, more), document


def _texts(raw: bytes, start: np.ndarray, end: np.ndarray) -> list[str]:
    """The texts ``raw[start:end]`` (empty where ``end`` comes first), cut from one string: the
    pieces joined by tabs (which no cell holds), decoded and split at once."""
    if not start.size:
        return []
    joined = _gathered(np.frombuffer(raw, dtype=np.uint8), start, np.maximum(end, start))
    return joined[:-1].tobytes().decode().split("\t")


def _gathered(source: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The pieces ``source[start:end]``, each followed by a tab."""
    lengths = end - start
    steps = lengths + 1
    at = np.cumsum(steps) - steps  # where each piece starts
    out = np.full(int(steps.sum()), _TAB, dtype=np.uint8)
    inside = np.ones(out.size, dtype=bool)
    inside[at + lengths] = False
    to = np.flatnonzero(inside)
    out[to] = source[to + np.repeat(start - at, lengths)]
    return out


def _by_document(fields: tuple[_Read, np.ndarray], n_docs: int) -> list[Markables] | None:
    """Each document's markables; None if an id is repeated within a document (a discontinuous
    markable, read cell by cell)."""
    read, document = fields
    bounds = np.searchsorted(document, np.arange(n_docs + 1)).tolist()
    out = []
    for d in range(n_docs):
        lo, hi = bounds[d], bounds[d + 1]
        ids = read.ids[lo:hi]
        if len(set(ids)) != hi - lo:
            return None
        more = {i - lo: fields for i, fields in read.more.items() if lo <= i < hi} if read.more else {}
        columns = (read.starts[lo:hi], read.ends[lo:hi], read.lines[lo:hi], ids, read.entities[lo:hi])
        out.append(Markables(columns, more))
    return out
