"""The mentions of CoNLL-2012 coreference fields, found for a whole file in a few numpy passes.

A field of one part (``(N)``, ``(N``, ``N)`` with ``N`` a plain decimal of at most 18 digits, nearly
every field in practice) is read column-wise from the raw bytes; any other field goes through
Python's regular expressions. Every part becomes an event (token row, phase, place in the field,
entity label), and the reference's order is then a sort: entities are numbered by first appearance
in (row, phase) order with one-token mentions before openings before closings of a token, each
closing is paired with the latest unclosed opening of its entity (nesting depth decides the pair), and
mentions are in completion order. A document in which anything is wrong (an unmatched bracket, an
unreadable field) gets ``None``, and the line-by-line reader, which says where, reads it again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..diagnostics import Diagnostic

#: The grammar of a coreference field, shared with the line-by-line reader. A field of one part:
ONE_PART = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")
#: Each part of a field, in order (a bare number is an entity number without brackets).
EVENTS = re.compile(r"\(\d+\+\d\)|\((\d+)\)|\((\d+)|(\d+)\)|(\d+)|\||-|_")
#: A readable field: parts back to back or joined by '|'. A digit run is never split between two
#: parts (the lookarounds), which leaves the language unchanged and the match linear: without them a
#: long number in an unreadable field is tried in exponentially many splits.
FIELD = re.compile(r"(?:\(\d+\+\d\)|\(\d+\)|\(\d+(?!\d)|(?<!\d)\d+\)|(?<!\d)\d+(?!\d)|\||-|_)*")
#: A '|' that separates nothing: first, last, or next to another '|'.
DANGLING = re.compile(r"^\||\|$|\|\|")
_CANONICAL = re.compile(r"0|[1-9]\d{0,17}")

LABEL_HELP = "expected '-', '_' or parts '(N', 'N)', '(N)' with N a non-negative integer, separated by single '|'"


def unreadable(field: str) -> str:
    """The error (or, lenient, warning) for a coreference field outside the grammar."""
    return f"cannot read coreference field '{field}': {LABEL_HELP}"


def bare_numbers(document: str) -> str:
    """The warning, once per document, for entity numbers written without brackets."""
    return f"document '{document}': entity numbers without brackets are ignored, as the reference scorer and coval do"


SINGLE, OPEN, CLOSE = 0, 1, 2
_CHUNK = 1 << 19  # rows classified at a time (bounds the temporary byte matrix)
_DIGITS = 18  # the most digits of an entity number read column-wise (as int64, like _CANONICAL)
_WIDTH = _DIGITS + 2  # '(' + digits + ')'
_OPEN_PAREN, _CLOSE_PAREN, _ZERO = ord("("), ord(")"), ord("0")


@dataclass(frozen=True)
class Mentions:
    """One document's mention columns, as :class:`~corefeval.model.Document` keeps them."""

    starts: np.ndarray
    ends: np.ndarray
    entities: np.ndarray
    labels: tuple[str, ...]
    lines: np.ndarray


def simple_fields(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kind (SINGLE, OPEN, CLOSE, or -1: to be read in Python) and entity number of each field
    ``arr[start:end]``."""
    kind = np.full(start.size, -1, dtype=np.int8)
    value = np.zeros(start.size, dtype=np.int64)
    columns = np.arange(_WIDTH)
    for lo in range(0, start.size, _CHUNK):
        s, length = start[lo : lo + _CHUNK], end[lo : lo + _CHUNK] - start[lo : lo + _CHUNK]
        rows = np.arange(s.size)
        cells = arr[np.minimum(s[:, None] + columns, arr.size - 1)]
        opens = cells[:, 0] == _OPEN_PAREN
        closes = cells[rows, np.clip(length - 1, 0, _WIDTH - 1)] == _CLOSE_PAREN
        digit_from = opens.astype(np.int64)
        digit_to = length - closes
        in_digits = (columns >= digit_from[:, None]) & (columns < digit_to[:, None])
        digits = cells - np.uint8(_ZERO)  # wraps below '0', so one comparison finds the digits
        allowed = (
            ~(columns < length[:, None])
            | (in_digits & (digits < 10))
            | ((columns == 0) & opens[:, None])
            | ((columns == (length - 1)[:, None]) & closes[:, None])
        )
        ok = (length <= _WIDTH) & (opens | closes) & (digit_to > digit_from) & (digit_to - digit_from <= _DIGITS)
        ok &= allowed.all(axis=1)
        ok &= (cells[rows, np.minimum(digit_from, _WIDTH - 1)] != _ZERO) | (digit_to - digit_from == 1)
        number = np.zeros(s.size, dtype=np.int64)
        for column in range(_WIDTH):
            take = in_digits[:, column] & ok
            if take.any():
                number[take] = number[take] * 10 + digits[take, column]
        part = np.where(opens & closes, SINGLE, np.where(opens, OPEN, CLOSE))
        kind[lo : lo + _CHUNK] = np.where(ok, part, -1)
        value[lo : lo + _CHUNK] = number
    return kind, value


@dataclass
class _Events:
    """Parts of fields that are not one simple part, read in Python, and what was said about them."""

    rows: list[int]
    phases: list[int]
    places: list[int]
    labels: list[int]
    warnings: dict[int, list[Diagnostic]]
    broken: set[int]


def _python_events(
    data: bytes,
    rows: np.ndarray,
    field_start: np.ndarray,
    field_end: np.ndarray,
    doc_of_row: np.ndarray,
    line_of_row: np.ndarray,
    context: tuple[str, list[str], bool],
    label_ids: dict[str, int],
) -> _Events:
    path, names, lenient = context
    out = _Events([], [], [], [], {}, set())
    bare_reported: set[int] = set()

    def label_id(label: str) -> int:
        if _CANONICAL.fullmatch(label):
            return int(label)
        return label_ids.setdefault(label, -1 - len(label_ids))

    def add(row: int, phase: int, place: int, label: str) -> None:
        out.rows.append(row)
        out.phases.append(phase)
        out.places.append(place)
        out.labels.append(label_id(label))

    for row, a, b, doc, line in zip(
        rows.tolist(),
        field_start[rows].tolist(),
        field_end[rows].tolist(),
        doc_of_row[rows].tolist(),
        line_of_row[rows].tolist(),
    ):
        if doc in out.broken:
            continue
        field = data[a:b].decode("utf-8").strip()
        one = ONE_PART.fullmatch(field)
        if one is not None:
            single, opening, closing = one.groups()
            if single is not None:
                add(row, SINGLE, 0, single)
            elif opening is not None:
                add(row, OPEN, 0, opening)
            else:
                add(row, CLOSE, 0, closing)
            continue
        if not FIELD.fullmatch(field) or DANGLING.search(field):
            if not lenient:
                out.broken.add(doc)
                continue
            message = unreadable(field) + "; read as '-'"
            out.warnings.setdefault(doc, []).append(Diagnostic(path, line, message))
            continue
        for place, (single, opening, closing, bare) in enumerate(EVENTS.findall(field)):
            if bare and doc not in bare_reported:
                bare_reported.add(doc)
                out.warnings.setdefault(doc, []).append(Diagnostic(path, line, bare_numbers(names[doc])))
            elif single:
                add(row, SINGLE, place, single)
            elif opening:
                add(row, OPEN, place, opening)
            elif closing:
                add(row, CLOSE, place, closing)
    return out


def _group_starts(*keys: np.ndarray) -> np.ndarray:
    """Whether each element of sorted key columns starts a new group."""
    new = np.ones(keys[0].size, dtype=bool)
    if keys[0].size:
        new[1:] = False
        for key in keys:
            new[1:] |= key[1:] != key[:-1]
    return new


def document_mentions(
    data: bytes,
    field_start: np.ndarray,
    field_end: np.ndarray,
    token_of_row: np.ndarray,
    line_of_row: np.ndarray,
    doc_of_row: np.ndarray,
    context: tuple[str, list[str], bool],
) -> tuple[list[Mentions | None], dict[int, list[Diagnostic]]]:
    """The mentions of every document from its mention-carrying rows (file order, ``doc_of_row``
    non-decreasing), and the warnings per document; ``None`` for a document with an error.

    ``context`` is the path, the document names and whether unreadable fields are only warned of.
    """
    n_docs = len(context[1])
    arr = np.frombuffer(data, dtype=np.uint8)
    kind, value = simple_fields(arr, field_start, field_end)
    label_ids: dict[str, int] = {}
    slow = _python_events(
        data, np.flatnonzero(kind < 0), field_start, field_end, doc_of_row, line_of_row, context, label_ids
    )
    fast = np.flatnonzero(kind >= 0)
    row = np.concatenate([fast, np.asarray(slow.rows, dtype=np.int64)])
    phase = np.concatenate([kind[fast].astype(np.int64), np.asarray(slow.phases, dtype=np.int64)])
    place = np.concatenate([np.zeros(fast.size, dtype=np.int64), np.asarray(slow.places, dtype=np.int64)])
    label = np.concatenate([value[fast], np.asarray(slow.labels, dtype=np.int64)])
    if slow.rows:  # the reference's order: by row, then singles, openings, closings, then text order
        order = np.lexsort((place, phase, row))
        row, phase, place, label = row[order], phase[order], place[order], label[order]
    doc = doc_of_row[row]
    position = np.arange(row.size)
    text_order = position
    if slow.rows:  # brackets pair in the order they are written, even within one field
        text_order = np.empty(row.size, dtype=np.int64)
        text_order[np.lexsort((place, row))] = position

    # Entities: one per (document, label), numbered by first appearance within the document.
    by_label = np.lexsort((position, label, doc))
    starts_group = _group_starts(doc[by_label], label[by_label])
    group = np.empty(row.size, dtype=np.int64)
    group[by_label] = np.cumsum(starts_group) - 1
    first_seen = position[by_label[starts_group]]
    group_order = np.argsort(first_seen, kind="stable")
    group_doc = doc[first_seen[group_order]]
    doc_first_group = np.searchsorted(group_doc, np.arange(n_docs + 1))
    rank = np.empty(group_order.size, dtype=np.int64)
    rank[group_order] = np.arange(group_order.size) - doc_first_group[group_doc]

    # Pair each closing with the latest unclosed opening of its entity: equal nesting depth.
    broken = np.zeros(n_docs, dtype=bool)
    broken[list(slow.broken)] = True
    brackets = np.flatnonzero(phase != SINGLE)
    brackets = brackets[np.lexsort((text_order[brackets], group[brackets]))]
    step = np.where(phase[brackets] == OPEN, 1, -1)
    depth = np.cumsum(step)
    new_group = _group_starts(group[brackets])
    base = np.repeat((depth - step)[new_group], np.diff(np.append(np.flatnonzero(new_group), brackets.size)))
    depth -= base
    is_close = step < 0
    broken[doc[brackets[is_close & (depth < 0)]]] = True
    ends_group = np.append(new_group[1:], True) if brackets.size else new_group
    broken[doc[brackets[ends_group & (depth != 0)]]] = True
    level = np.where(is_close, depth + 1, depth)
    usable = brackets[~broken[doc[brackets]]]
    paired = usable[np.lexsort((text_order[usable], level[~broken[doc[brackets]]], group[usable]))]
    opening_token = np.zeros(row.size, dtype=np.int64)
    opening_token[paired[1::2]] = token_of_row[row[paired[0::2]]]

    # Mentions: one-token mentions and closings, in the order they were completed.
    done = np.flatnonzero(phase != OPEN)
    ends = token_of_row[row[done]]
    starts = np.where(phase[done] == SINGLE, ends, opening_token[done])
    entities = rank[group[done]]
    lines = line_of_row[row[done]]
    doc_bounds = np.searchsorted(doc[done], np.arange(n_docs + 1))
    label_names = {v: k for k, v in label_ids.items()}
    group_labels = label[first_seen[group_order]].tolist()
    out: list[Mentions | None] = []
    for d in range(n_docs):
        if broken[d]:
            out.append(None)
            continue
        lo, hi = doc_bounds[d], doc_bounds[d + 1]
        names = group_labels[doc_first_group[d] : doc_first_group[d + 1]]
        out.append(
            Mentions(
                starts[lo:hi],
                ends[lo:hi],
                entities[lo:hi],
                tuple(str(v) if v >= 0 else label_names[v] for v in names),
                lines[lo:hi],
            )
        )
    return out, slow.warnings
