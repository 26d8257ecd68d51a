"""What is scored: the document ``--doc`` names, and which mentions: empty nodes (zeros) kept or
left out, singletons kept or removed.

The mention options build new documents with a subset of rows (and, for zeros, of words); entity
numbering stays in first-seen order, so the reference's row semantics are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace

import numpy as np

from ..core.diagnostics import UsageError
from ..core.document_names import bare_names, closest, listed
from ..core.empty_nodes import is_empty
from ..core.model import Document, ViewDocument, from_fields
from ..readers.corefud import CorefUDDocument


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
        raise UsageError(f"document '{wanted}' is ambiguous in the key {path}: it may be {listed(matches)}")
    near = closest(wanted, names)
    said = "the closest name is" if len(near) == 1 else "the closest names are"
    raise UsageError(f"document '{wanted}' is not in the key {path}; {said} {listed(near)}")


def subset(
    doc: Document,
    keep: np.ndarray,
    spans: dict[int, tuple[int, int, tuple[int, ...] | None]] | None = None,
    heads: dict[int, int] | None = None,
) -> Document:
    """``doc`` with the rows where ``keep`` is true; ``spans`` overrides rows' (start, end, parts)."""
    rows = np.flatnonzero(keep)
    starts, ends = doc.starts[rows], doc.ends[rows]  # new arrays: indexing by rows copies
    parts: dict[int, tuple[int, ...]] = {}
    new_heads = doc.heads[rows] if doc.heads is not None else None
    for new, old in enumerate(rows.tolist() if spans or heads or doc.parts else ()):
        if spans is not None and old in spans:
            s, e, p = spans[old]
            starts[new], ends[new] = s, e
            if p is not None:
                parts[new] = p
        elif old in doc.parts:
            parts[new] = doc.parts[old]
        if heads is not None and new_heads is not None and old in heads:
            new_heads[new] = heads[old]
    changes: dict[str, object] = {}
    if isinstance(doc, CorefUDDocument) and doc.head_copies:  # copies with other heads follow their rows
        new_index = {old: new for new, old in enumerate(rows.tolist())}
        changes["head_copies"] = {new_index[r]: c for r, c in doc.head_copies.items() if r in new_index}
    old_entities = doc.entities[rows]
    seen = list(dict.fromkeys(old_entities.tolist()))  # the kept entities, as first seen
    renumber = np.full(doc.n_entities, -1, dtype=np.int64)
    renumber[seen] = np.arange(len(seen))
    labels = tuple(doc.labels[k] for k in seen) if doc.labels else ()
    changes.update(
        starts=starts,
        ends=ends,
        entities=renumber[old_entities] if rows.size else old_entities,
        labels=labels,
        lines=doc.lines[rows] if doc.lines is not None else None,
        parts=parts,
        heads=new_heads,
    )
    # a reader's own kind of document keeps what it adds; made as dataclasses.replace would make it,
    # without the frozen dataclass's __init__; a view of a file's columns becomes a plain document
    # (its rows are no longer the file's)
    kind = Document if isinstance(doc, ViewDocument) else type(doc)
    return from_fields(kind, {**{f.name: getattr(doc, f.name) for f in fields(kind)}, **changes})


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
    if not isinstance(doc, CorefUDDocument) or not doc.head_copies or doc.heads is None:
        return doc
    copies = doc.head_copies
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
