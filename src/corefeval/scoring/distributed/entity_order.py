"""Entity order over a whole CorefUD file for documents read one at a time.

udapi, and so the CorefUD scorer, orders the entities of a whole file by their first mention: an
entity id that a document shares with an earlier document of the file takes its place from there.
A worker reads one document; it gives back where each of its ids is first mentioned (``Firsts``),
and :func:`reorderings` finds, after every document is read, the documents whose order those earlier
documents change, with what each must be read again with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...readers.corefud import EntityKey

#: A document's entity ids with their first mention in it (empty: ids of its own, or not CorefUD).
Firsts = Mapping[str, EntityKey]


def reorderings(firsts: Sequence[Firsts | None]) -> dict[int, dict[str, EntityKey]]:
    """For the documents of one file (``firsts[i]``: document ``i``'s, ``None`` when not read), the
    ones whose entities an earlier document orders otherwise, each with the first mentions of its
    ids in the earlier documents (the reader's ``earlier``)."""
    seen: dict[str, EntityKey] = {}
    out: dict[int, dict[str, EntityKey]] = {}
    for index, here in enumerate(firsts):
        if not here:
            continue
        earlier = {label: seen[label] for label in here if label in seen}
        if earlier:
            alone = sorted(here, key=here.__getitem__)
            in_file = sorted(here, key=lambda label: earlier.get(label, here[label]))
            if alone != in_file:
                out[index] = earlier
        for label, key in here.items():
            seen.setdefault(label, key)
    return out
