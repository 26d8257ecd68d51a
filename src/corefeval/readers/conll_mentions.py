"""The mentions of CoNLL-2012 coreference fields, found for a whole file in a few numpy passes.

Fields are split at ``|`` into parts, and a part of the simple kind (``(N)``, ``(N``, ``N)`` with
``N`` a plain decimal of at most 18 digits: nearly every part in practice) is read column-wise from
the fields' bytes; a field with any other part goes whole through Python's regular expressions.
Every part becomes an event (token row, phase, entity label, in text order), and the reference's
order is then a sort: entities are numbered by first appearance in (row, phase) order with one-token
mentions before openings before closings of a token, each closing is paired with the latest unclosed
opening of its entity (nesting depth decides the pair), and mentions are in completion order. A
document in which anything is wrong (an unmatched bracket, an unreadable field) gets ``None``, and
the line-by-line reader, which says where, reads it again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

import numpy as np

from ..core.diagnostics import Diagnostic
from .decimal_digits import decimal_values

#: The grammar of a coreference field, shared with the line-by-line reader, as patterns for
#: :func:`compiled` (a file read column-wise needs none of them, and compiling costs every run).
#: A field of one part:
ONE_PART = r"\((\d+)\)|\((\d+)|(\d+)\)"
#: Each part of a field, in order (a bare number is an entity number without brackets).
EVENTS = r"\(\d+\+\d\)|\((\d+)\)|\((\d+)|(\d+)\)|(\d+)|\||-|_"
#: A readable field: parts back to back or joined by '|'. A digit run is never split between two
#: parts (the lookarounds), which leaves the language unchanged and the match linear: without them a
#: long number in an unreadable field is tried in exponentially many splits.
FIELD = r"(?:\(\d+\+\d\)|\(\d+\)|\(\d+(?!\d)|(?<!\d)\d+\)|(?<!\d)\d+(?!\d)|\||-|_)*"
#: A '|' that separates nothing: first, last, or next to another '|'.
DANGLING = r"^\||\|$|\|\|"
_CANONICAL = r"0|[1-9]\d{0,17}"


@cache
def compiled(pattern: str) -> re.Pattern[str]:
    """One of the field grammar's patterns compiled (ASCII digits only), on its first use."""
    return re.compile(pattern, re.ASCII)


LABEL_HELP = "expected '-', '_' or parts '(N', 'N)', '(N)' with N a non-negative integer, separated by single '|'"


def unreadable(field: str) -> str:
    """The error (or, lenient, warning) for a coreference field outside the grammar; a long field
    is shown by its start and length, so that the message stays one readable line."""
    shown = f"'{field}'" if len(field) <= _FIELD_SHOWN else f"'{field[:_FIELD_SHOWN]}...' ({len(field)} characters)"
    return f"cannot read coreference field {shown}: {LABEL_HELP}"


_FIELD_SHOWN = 60  # characters of an unreadable field quoted in its error


def bare_numbers(document: str) -> str:
    """The warning, once per document, for entity numbers written without brackets."""
    return f"document '{document}': entity numbers without brackets are ignored, as the reference scorer and coval do"


SINGLE, OPEN, CLOSE = 0, 1, 2
_SHOWN = 3  # mentions listed in a token-order warning, at most


def _pairs(tokens: np.ndarray, phases: np.ndarray) -> np.ndarray:
    """The mentions (rows of start, end) that one entity's openings and closings make, taken in the
    given order, each closing pairing with the latest opening: a stable sort by nesting level puts
    each opening just before its closing."""
    step = np.where(phases == OPEN, 1, -1)
    depth = np.cumsum(step)
    order = np.argsort(np.where(step < 0, depth + 1, depth), kind="stable")
    return np.stack([tokens[order[0::2]], tokens[order[1::2]]], axis=1)


def _spans(pairs: np.ndarray, times: np.ndarray) -> str:
    listed = np.repeat(pairs, times, axis=0)
    more = f" and {len(listed) - _SHOWN} more" if len(listed) > _SHOWN else ""
    return " ".join(f"({s},{e})" for s, e in listed[:_SHOWN].tolist()) + more


def token_order_note(
    document: str,
    label: str,
    field: str,
    token: int,
    tokens: Sequence[int] | np.ndarray,
    phases: Sequence[int] | np.ndarray,
    others: int,
) -> str | None:
    """The warning for a token whose field closes a mention of entity ``label`` before opening
    another (``1)|(2)|(1``): corefeval pairs brackets in the order written; the reference scorer
    takes a token's openings before its closings, and so counts other mentions. ``tokens`` and
    ``phases`` are the entity's brackets in the document, in text order; ``others``: how many more
    tokens of the document close and reopen an entity. ``None`` when both readings agree."""
    token_array, phase_array = np.asarray(tokens, dtype=np.int64), np.asarray(phases, dtype=np.int64)
    ours = _pairs(token_array, phase_array)
    reference_order = np.lexsort((phase_array, token_array))  # by token, openings before closings
    theirs = _pairs(token_array[reference_order], phase_array[reference_order])
    both = np.concatenate([ours, theirs])
    order = np.lexsort((both[:, 1], both[:, 0]))
    both = both[order]
    new = _group_starts(both[:, 0], both[:, 1])
    net = np.bincount(np.cumsum(new) - 1, weights=np.repeat([1, -1], len(ours))[order]).astype(np.int64)
    pairs = both[new]
    if not net.any():
        return None
    more = f" ({others} more tokens of the document close and reopen an entity)" if others else ""
    return (
        f"document '{document}': token {token} ('{field}') closes a mention of entity {label} and opens "
        f"another; read in the order written, entity {label} has {_spans(pairs, np.maximum(net, 0))}, but "
        f"the reference scorer reads a token's openings before its closings and would count "
        f"{_spans(pairs, np.maximum(-net, 0))} instead{more}"
    )


_CHUNK = 1 << 18  # fields split and read at a time: their temporary arrays stay small and in cache
_DIGITS = 18  # the most digits of an entity number read column-wise (as int64, like _CANONICAL)
_WIDTH = _DIGITS + 2  # '(' + digits + ')'
_OPEN_PAREN, _CLOSE_PAREN, _ZERO, _PIPE = ord("("), ord(")"), ord("0"), ord("|")


class Mentions(NamedTuple):
    """One document's mention columns, as :class:`~corefeval.core.model.Document` keeps them (a named
    tuple: a reader makes one per document, and there may be a million documents)."""

    starts: np.ndarray
    ends: np.ndarray
    entities: np.ndarray
    labels: tuple[str, ...]
    lines: np.ndarray


class Found(NamedTuple):
    """The mention columns of every document of a file, in file order: document ``d`` has rows
    ``bounds[d]`` to ``bounds[d + 1]`` and entity labels ``labels[first_label[d]:first_label[d + 1]]``
    (``broken[d]``: an error in it, no rows; the line-by-line reader says where)."""

    starts: np.ndarray
    ends: np.ndarray
    entities: np.ndarray
    lines: np.ndarray
    bounds: np.ndarray
    labels: list[str]
    first_label: list[int]
    broken: list[bool]


def simple_fields(arr: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kind (SINGLE, OPEN, CLOSE, or -1: to be read in Python) and entity number of each part
    ``arr[start:end]``.

    The digits are read one column at a time for the parts that still have digits there, so the
    work follows the parts' lengths.
    """
    kind = np.full(start.size, -1, dtype=np.int8)
    value = np.zeros(start.size, dtype=np.int64)
    length = end - start
    at = np.flatnonzero((length >= 2) & (length <= _WIDTH))
    first, last = start[at], end[at]
    opens = arr[first] == _OPEN_PAREN
    closes = arr[last - 1] == _CLOSE_PAREN
    digits_from = first + opens
    n_digits = last - closes - digits_from
    ok = (opens | closes) & (n_digits >= 1) & (n_digits <= _DIGITS)
    at, opens, closes, digits_from, n_digits = at[ok], opens[ok], closes[ok], digits_from[ok], n_digits[ok]
    good, number = decimal_values(arr, digits_from, digits_from + n_digits, _DIGITS)
    good &= (arr[digits_from] != _ZERO) | (n_digits == 1)  # canonical: no leading zero
    part = np.where(opens & closes, SINGLE, np.where(opens, OPEN, CLOSE))
    kind[at[good]] = part[good]
    value[at[good]] = number[good]
    return kind, value


class _Parts(NamedTuple):
    """The ``|``-separated parts of fields, in text order: in ``arr`` at ``[start, end)``, of field
    ``row`` (a field without ``|`` is one part)."""

    arr: np.ndarray
    row: np.ndarray
    start: np.ndarray
    end: np.ndarray


def split_parts(arr: np.ndarray, field_start: np.ndarray, field_end: np.ndarray) -> _Parts:
    """The parts of the fields ``arr[field_start:field_end]`` (in order, not overlapping), in the
    fields' order; fields that are not back to back in ``arr`` are gathered first."""
    lengths = field_end - field_start
    if field_start.size and bool(np.all(field_start[1:] == field_end[:-1])):
        base = int(field_start[0])
        arr = arr[base : int(field_end[-1])]
        start = field_start - base
    else:
        start = np.cumsum(lengths) - lengths
        arr = arr[np.repeat(field_start - start, lengths) + np.arange(int(lengths.sum()))]
    end = start + lengths
    pipes = np.flatnonzero(arr == _PIPE)
    if not pipes.size:
        return _Parts(arr, np.arange(start.size), start, end)
    count = 1 + np.bincount(np.searchsorted(start, pipes, side="right") - 1, minlength=start.size)
    row = np.repeat(np.arange(start.size), count)
    place = np.arange(row.size) - np.repeat(np.cumsum(count) - count, count)
    first = place == 0
    last = place == count[row] - 1
    part_start = np.empty(row.size, dtype=np.int64)
    part_end = np.empty(row.size, dtype=np.int64)
    part_start[first], part_start[~first] = start, pipes + 1
    part_end[last], part_end[~last] = end, pipes
    return _Parts(arr, row, part_start, part_end)


class _Events:
    """Parts of fields read in Python (in text order), and what was said about them (a plain class:
    a dataclass costs millions of instructions to make at import)."""

    def __init__(self) -> None:
        self.rows: list[int] = []
        self.phases: list[int] = []
        self.labels: list[int] = []
        self.warnings: dict[int, list[Diagnostic]] = {}
        self.broken: set[int] = set()


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
    out = _Events()
    if not rows.size:
        return out
    bare_reported: set[int] = set()
    canonical, one_part, readable = compiled(_CANONICAL).fullmatch, compiled(ONE_PART).fullmatch, compiled(FIELD)
    dangling, events = compiled(DANGLING).search, compiled(EVENTS).findall

    def label_id(label: str) -> int:
        if canonical(label):
            return int(label)
        return label_ids.setdefault(label, -1 - len(label_ids))

    def add(row: int, phase: int, label: str) -> None:
        out.rows.append(row)
        out.phases.append(phase)
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
        one = one_part(field)
        if one is not None:
            single, opening, closing = one.groups()
            if single is not None:
                add(row, SINGLE, single)
            elif opening is not None:
                add(row, OPEN, opening)
            else:
                add(row, CLOSE, closing)
            continue
        if not readable.fullmatch(field) or dangling(field):
            if not lenient:
                out.broken.add(doc)
                continue
            message = unreadable(field) + "; read as '-'"
            out.warnings.setdefault(doc, []).append(Diagnostic(path, line, message))
            continue
        for single, opening, closing, bare in events(field):
            if bare and doc not in bare_reported:
                bare_reported.add(doc)
                out.warnings.setdefault(doc, []).append(Diagnostic(path, line, bare_numbers(names[doc])))
            elif single:
                add(row, SINGLE, single)
            elif opening:
                add(row, OPEN, opening)
            elif closing:
                add(row, CLOSE, closing)
    return out


def _group_starts(*keys: np.ndarray) -> np.ndarray:
    """Whether each element of sorted key columns starts a new group."""
    new = np.ones(keys[0].size, dtype=bool)
    if keys[0].size:
        new[1:] = False
        for key in keys:
            new[1:] |= key[1:] != key[:-1]
    return new


def _events(
    data: bytes,
    field_start: np.ndarray,
    field_end: np.ndarray,
    doc_of_row: np.ndarray,
    line_of_row: np.ndarray,
    context: tuple[str, list[str], bool],
    label_ids: dict[str, int],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, _Events]:
    """Every part of every field as an event in the reference's order: by row, then one-token
    mentions, openings, closings, each in text order. Gives the events' rows, phases and labels,
    each event's rank in text order (``None`` when that is the order they are in), and what Python
    said about the fields it read."""
    arr = np.frombuffer(data, dtype=np.uint8)
    in_python = np.zeros(field_start.size, dtype=bool)
    rows, phases, labels = [], [], []
    several = False  # whether some field has several parts
    for lo in range(0, field_start.size, _CHUNK):
        parts = split_parts(arr, field_start[lo : lo + _CHUNK], field_end[lo : lo + _CHUNK])
        several |= parts.row.size > min(_CHUNK, field_start.size - lo)
        kind, value = simple_fields(parts.arr, parts.start, parts.end)
        in_python[lo + parts.row[kind < 0]] = True  # a field with a part that is not simple is read whole
        fast = np.flatnonzero(~in_python[lo + parts.row])
        rows.append(lo + parts.row[fast])
        phases.append(kind[fast])
        labels.append(value[fast])
    slow = _python_events(
        data, np.flatnonzero(in_python), field_start, field_end, doc_of_row, line_of_row, context, label_ids
    )
    rows.append(np.asarray(slow.rows, dtype=np.int64))
    phases.append(np.asarray(slow.phases, dtype=np.int8))
    labels.append(np.asarray(slow.labels, dtype=np.int64))
    row = np.concatenate(rows)
    del rows
    phase = np.concatenate(phases)
    del phases
    label = np.concatenate(labels)
    del labels
    if slow.rows:  # both lists are in text order, and no row is in both
        by_text = np.argsort(row, kind="stable")
        row, phase, label = row[by_text], phase[by_text], label[by_text]
        del by_text
    if not (slow.rows or several):  # one event per row: text order is the reference's
        return row, phase, label, None, slow
    text_order = np.argsort(row * 3 + phase, kind="stable")
    return row[text_order], phase[text_order], label[text_order], text_order, slow


def _reopened_by_document(
    reopened: np.ndarray, brackets: np.ndarray, doc: np.ndarray, broken: np.ndarray
) -> list[tuple[int, list[int]]]:
    """The positions in ``brackets`` where a token closes and reopens an entity, by document (those
    not ``broken``), in file order."""
    at = reopened[~broken[doc[brackets[reopened]]]]
    if not at.size:
        return []
    at = at[np.argsort(brackets[at], kind="stable")]
    docs = doc[brackets[at]]
    cuts = np.flatnonzero(_group_starts(docs)).tolist() + [at.size]
    return [(int(docs[lo]), at[lo:hi].tolist()) for lo, hi in zip(cuts, cuts[1:])]


def _entity_groups(
    label: np.ndarray, doc: np.ndarray, n_docs: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """Entities, one per (document, label), numbered by first appearance within their document: each
    event's entity group, each group's number within its document, each document's first group, and
    each group's label."""
    by_label = np.argsort(label, kind="stable") if n_docs == 1 else np.lexsort((label, doc))
    starts_group = _group_starts(label[by_label]) if n_docs == 1 else _group_starts(doc[by_label], label[by_label])
    group = np.empty(label.size, dtype=np.int64)
    group[by_label] = np.cumsum(starts_group) - 1
    first_seen = by_label[starts_group]
    del by_label, starts_group
    group_order = np.argsort(first_seen, kind="stable")
    group_doc = doc[first_seen[group_order]]
    doc_first_group = np.searchsorted(group_doc, np.arange(n_docs + 1))
    rank = np.empty(group_order.size, dtype=np.int64)
    rank[group_order] = np.arange(group_order.size) - doc_first_group[group_doc]
    return group, rank, doc_first_group, label[first_seen[group_order]].tolist()


def _nesting_levels(
    opens: np.ndarray, bracket_group: np.ndarray, bracket_doc: np.ndarray, broken: np.ndarray
) -> np.ndarray:
    """Each bracket's nesting depth within its entity (brackets by entity, then in text order), an
    opening and the closing it pairs with at the same depth; documents with a closing before its
    opening or an opening never closed are marked in ``broken``."""
    step = np.where(opens, 1, -1)
    depth = np.cumsum(step)
    new_group = _group_starts(bracket_group)
    depth -= np.repeat((depth - step)[new_group], np.diff(np.append(np.flatnonzero(new_group), step.size)))
    is_close = step < 0
    broken[bracket_doc[is_close & (depth < 0)]] = True
    ends_group = np.append(new_group[1:], True) if step.size else new_group
    broken[bracket_doc[ends_group & (depth != 0)]] = True
    return np.where(is_close, depth + 1, depth)


def _reopened(phase: np.ndarray, row: np.ndarray, bracket_group: np.ndarray) -> np.ndarray:
    """The brackets (by entity, then in text order) after which the same token opens another
    mention of the entity it closes one of."""
    if phase.size < 2:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(
        (phase[:-1] == CLOSE) & (phase[1:] == OPEN) & (row[:-1] == row[1:]) & (bracket_group[:-1] == bracket_group[1:])
    )


def _opening_tokens(
    usable: np.ndarray, level: np.ndarray, bracket_group: np.ndarray, row: np.ndarray, token_of_row: np.ndarray
) -> np.ndarray:
    """For each event that closes a mention, the token of the opening it pairs with (``usable``:
    the brackets of unbroken documents, by entity and then in text order, so that a stable sort by
    nesting level puts each opening just before its closing)."""
    paired = usable[np.lexsort((level, bracket_group))]
    out = np.zeros(row.size, dtype=np.int64)
    out[paired[1::2]] = token_of_row[row[paired[0::2]]]
    return out


def document_mentions(
    data: bytes,
    field_start: np.ndarray,
    field_end: np.ndarray,
    token_of_row: np.ndarray,
    line_of_row: np.ndarray,
    doc_of_row: np.ndarray,
    context: tuple[str, list[str], bool],
) -> tuple[Found, dict[int, list[Diagnostic]]]:
    """The mentions of every document from its mention-carrying rows (file order, ``doc_of_row``
    non-decreasing), and the warnings per document (a document with an error has no rows).

    ``context`` is the path, the document names and whether unreadable fields are only warned of.
    Intermediate arrays are dropped as soon as they are used: the events of a large file are many.
    """
    n_docs = len(context[1])
    label_ids: dict[str, int] = {}
    row, phase, label, text_order, slow = _events(
        data, field_start, field_end, doc_of_row, line_of_row, context, label_ids
    )
    doc = doc_of_row[row]
    group, rank, doc_first_group, group_labels = _entity_groups(label, doc, n_docs)
    del label

    # Pair each closing with the latest unclosed opening of its entity: equal nesting depth.
    broken = np.zeros(n_docs, dtype=bool)
    broken[list(slow.broken)] = True
    brackets = np.flatnonzero(phase != SINGLE)
    order = (group[brackets],) if text_order is None else (text_order[brackets], group[brackets])  # None: in text order
    brackets = brackets[np.lexsort(order)]
    del order
    several_per_row = text_order is not None
    del text_order
    bracket_group = group[brackets]
    # Where a token closes a mention of an entity before opening another of it (then the reference,
    # which takes a token's openings first, may pair the brackets otherwise).
    reopened = (
        _reopened(phase[brackets], row[brackets], bracket_group) if several_per_row else np.zeros(0, dtype=np.int64)
    )
    level = _nesting_levels(phase[brackets] == OPEN, bracket_group, doc[brackets], broken)
    label_names = {v: k for k, v in label_ids.items()}
    for d, at in _reopened_by_document(reopened, brackets, doc, broken):
        tried: set[int] = set()
        for a in at:
            r, g = int(row[brackets[a]]), int(bracket_group[a])
            if g in tried:
                continue
            tried.add(g)
            value = group_labels[doc_first_group[d] + rank[g]]
            lo, hi = np.searchsorted(bracket_group, [g, g + 1])
            entity = brackets[lo:hi]
            note = token_order_note(
                context[1][d],
                str(value) if value >= 0 else label_names[value],
                data[field_start[r] : field_end[r]].decode("utf-8").strip(),
                int(token_of_row[r]),
                token_of_row[row[entity]],
                phase[entity],
                len(at) - 1,
            )
            if note is not None:
                slow.warnings.setdefault(d, []).append(Diagnostic(context[0], int(line_of_row[r]), note))
                break
    keep = ~broken[doc[brackets]]
    opening_token = _opening_tokens(brackets[keep], level[keep], bracket_group[keep], row, token_of_row)
    del brackets, bracket_group, level, keep

    # Mentions: one-token mentions and closings, in the order they were completed.
    done = np.flatnonzero(phase != OPEN)
    done_rows = row[done]
    ends = token_of_row[done_rows]
    starts = np.where(phase[done] == SINGLE, ends, opening_token[done])
    del opening_token
    entities = rank[group[done]]
    lines = line_of_row[done_rows]
    text = {v: str(v) if v >= 0 else label_names[v] for v in set(group_labels)}  # one string per label
    names = list(map(text.__getitem__, group_labels))
    bounds = np.searchsorted(doc[done], np.arange(n_docs + 1))
    out = Found(starts, ends, entities, lines, bounds, names, doc_first_group.tolist(), broken.tolist())
    return out, slow.warnings
