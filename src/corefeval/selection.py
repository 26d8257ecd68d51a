"""What is scored: the document ``--doc`` names, and which mentions: empty nodes (zeros) kept or
left out, singletons kept or removed.

The mention options build new documents with a subset of rows (and, for zeros, of words); entity
numbering stays in first-seen order, so the reference's row semantics are kept.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .diagnostics import UsageError
from .model import Document
from .readers.corefud import is_empty

#: A CoNLL-2012 name ``(X); part N`` and a jsonlines ``doc_key`` ``X_N``: ``X`` is the bare name.
_PARTED = re.compile(r"^\((.*)\); part \d+$|^(.*)_\d+$")
#: Names listed in an error message, at most.
_LISTED = 5
#: Neighbours taken on each side of the requested name in the sorted names and in the sorted
#: reversed names (a typo leaves a long common beginning or end), for difflib to choose from: the
#: error stays quick in a large corpus.
_NEIGHBOURS = 25


def bare_names(name: str) -> tuple[str, ...]:
    """The shorter names a user may give for ``name``: ``X`` of ``(X); part 000`` or ``X_0``, and the
    last ``/`` component of ``X`` (``cctv_0000`` of ``(bc/cctv/00/cctv_0000); part 000``)."""
    m = _PARTED.match(name)
    if m is None:
        return ()
    bare = m.group(1) if m.group(1) is not None else m.group(2)
    last = bare.rsplit("/", 1)[-1]
    return (bare,) if last == bare else (bare, last)


def _listed(names: Sequence[str]) -> str:
    more = f" and {len(names) - _LISTED} more" if len(names) > _LISTED else ""
    return ", ".join(f"'{n}'" for n in names[:_LISTED]) + more


def _closest(wanted: str, names: Sequence[str]) -> list[str]:
    """Up to three of ``names`` that look like ``wanted``, or like one of their :func:`bare_names`."""
    full: dict[str, str] = {}
    for n in names:
        full.setdefault(n, n)
        for b in bare_names(n):
            full.setdefault(b, n)
    shortlist: set[str] = set()
    for flip in (False, True):
        order = {k[::-1] if flip else k: k for k in full}
        keys = sorted(order)
        at = bisect.bisect_left(keys, wanted[::-1] if flip else wanted)
        shortlist.update(order[k] for k in keys[max(0, at - _NEIGHBOURS) : at + _NEIGHBOURS])
    found = difflib.get_close_matches(wanted, sorted(shortlist), n=6, cutoff=0.5)
    return list(dict.fromkeys(full[k] for k in found))[:3]


def pick_document(wanted: str, names: Sequence[str], path: str) -> str:
    """The document name that ``wanted`` means among ``names`` (those of the key ``path``): the same
    name, else the only one whose :func:`bare_names` include it. Several such names, or none, are a
    :class:`UsageError` listing them, or the closest names."""
    if wanted in names:
        return wanted
    wanted_stripped = wanted.strip()
    matches = [
        n for n in names if wanted_stripped in n and (wanted_stripped in bare_names(n) or n.strip() == wanted_stripped)
    ]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise UsageError(f"document '{wanted}' is ambiguous in the key {path}: it may be {_listed(matches)}")
    closest = _closest(wanted, names)
    hint = f"the closest names are {_listed(closest)}" if closest else f"its documents include {_listed(names)}"
    raise UsageError(f"document '{wanted}' is not in the key {path}; {hint}")


def subset(
    doc: Document,
    keep: np.ndarray,
    spans: dict[int, tuple[int, int, tuple[int, ...] | None]] | None = None,
    heads: dict[int, int] | None = None,
) -> Document:
    """``doc`` with the rows where ``keep`` is true; ``spans`` overrides rows' (start, end, parts)."""
    rows = np.flatnonzero(keep)
    starts, ends = doc.starts[rows].copy(), doc.ends[rows].copy()
    parts: dict[int, tuple[int, ...]] = {}
    new_heads = doc.heads[rows].copy() if doc.heads is not None else None
    for new, old in enumerate(rows.tolist()):
        if spans is not None and old in spans:
            s, e, p = spans[old]
            starts[new], ends[new] = s, e
            if p is not None:
                parts[new] = p
        elif old in doc.parts:
            parts[new] = doc.parts[old]
        if heads is not None and new_heads is not None and old in heads:
            new_heads[new] = heads[old]
    copies = getattr(doc, "head_copies", None)
    if copies:  # a CorefUD document's copies with other heads follow their rows
        new_index = {old: new for new, old in enumerate(rows.tolist())}
        doc = replace(doc, head_copies={new_index[r]: c for r, c in copies.items() if r in new_index})
    old_entities = doc.entities[rows]
    _, first = np.unique(old_entities, return_index=True)
    seen = old_entities[np.sort(first)]
    renumber = np.full(doc.n_entities, -1, dtype=np.int64)
    renumber[seen] = np.arange(seen.size)
    labels = tuple(doc.labels[k] for k in seen.tolist()) if doc.labels else ()
    return replace(  # a reader's own kind of document keeps what it adds
        doc,
        starts=starts,
        ends=ends,
        entities=renumber[old_entities] if rows.size else old_entities,
        labels=labels,
        lines=doc.lines[rows] if doc.lines is not None else None,
        parts=parts,
        heads=new_heads,
    )


def exclude_zeros(doc: Document) -> Document:
    """Leave empty nodes out of every mention; mentions of empty nodes only disappear."""
    touched = [row for row, p in doc.parts.items() if any(is_empty(x) for x in p)]
    if not touched:
        return doc
    keep = np.ones(doc.n_mentions, dtype=bool)
    spans: dict[int, tuple[int, int, tuple[int, ...] | None]] = {}
    heads: dict[int, int] = {}
    for row in touched:
        words = [x for x in doc.parts[row] if not is_empty(x)]
        if not words:
            keep[row] = False
            continue
        contiguous = max(words) - min(words) + 1 == len(words)
        spans[row] = (min(words), max(words), None if contiguous else tuple(words))
        if doc.heads is not None and is_empty(int(doc.heads[row])):
            heads[row] = words[0]
    return subset(doc, keep, spans, heads)


def remove_singletons(doc: Document) -> Document:
    """Leave out entities with one mention."""
    if not doc.n_mentions:
        return doc
    sizes = np.bincount(doc.entities)
    keep = sizes[doc.entities] > 1
    return doc if keep.all() else subset(doc, keep)


def with_head_copies(doc: Document) -> Document:
    """``doc`` with the copies of its mentions that have another head as mentions of their own,
    right after the mention they copy (head matching tells mentions apart by their heads, as the
    CorefUD scorer does)."""
    copies = getattr(doc, "head_copies", None)
    if not copies or doc.heads is None:
        return doc
    order: list[int] = []
    heads: list[int] = []
    lines: list[int] = []
    for row in range(doc.n_mentions):
        order.append(row)
        heads.append(int(doc.heads[row]))
        lines.append(int(doc.lines[row]) if doc.lines is not None else doc.begin_line)
        for head, line in copies.get(row, ()):
            order.append(row)
            heads.append(head)
            lines.append(line)
    index = np.asarray(order, dtype=np.int64)
    return replace(
        doc,
        starts=doc.starts[index],
        ends=doc.ends[index],
        entities=doc.entities[index],
        lines=np.asarray(lines, dtype=np.int64),
        parts={new: doc.parts[old] for new, old in enumerate(order) if old in doc.parts},
        heads=np.asarray(heads, dtype=np.int64),
        head_copies={},
    )


def select(doc: Document, zeros: str, singletons: str) -> Document:
    """``doc`` with the mentions that the ``zeros`` and ``singletons`` options score."""
    if zeros == "exclude":
        doc = exclude_zeros(doc)
    return remove_singletons(doc) if singletons == "remove" else doc
