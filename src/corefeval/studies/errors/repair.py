"""Apply repairing edits to a response document, to measure what a kind of error costs."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable

import numpy as np

from ...core.model import Document, make_document
from .items import Edit, Span
from .matching import Pairing


def repaired(response: Document, al: Pairing, edits: Iterable[Edit], key: Document | None = None) -> Document:
    """``response`` (as paired in ``al``) with ``edits`` applied; other mentions are left as they are.

    When both documents have heads, a mention keeps its head, and one that takes a key span takes
    that key mention's head (so the repair can be scored with head or partial matching).
    """
    edits = list(edits)
    spans: list[Span] = list(al.response_spans)
    chain: list[Hashable] = [("chain", r) for r in al.response_entity]
    alive = [True] * len(spans)

    def resolve(target: tuple[Hashable, ...]) -> Hashable:
        if target[0] == "key":
            r = al.response_of.get(int(target[1]))  # type: ignore[call-overload]
            return ("chain", r) if r is not None else target
        return target

    for e in edits:
        if e.kind == "span":
            spans[e.mention] = e.span
        elif e.kind == "remove":
            alive[e.mention] = False
        elif e.kind == "place":
            if e.mention >= 0:
                chain[e.mention] = resolve(e.target)
            else:
                spans.append(e.span)
                chain.append(resolve(e.target))
                alive.append(True)
        else:
            raise ValueError(f"unknown edit {e.kind!r}")
    clusters: dict[Hashable, list[Span]] = {}
    seen: set[Span] = set()
    for span, c, keep in zip(spans, chain, alive, strict=True):
        if keep and span not in seen:
            seen.add(span)
            clusters.setdefault(c, []).append(span)
    doc = make_document(response.name, clusters.values(), n_tokens=response.n_tokens)
    if key is None or key.heads is None or response.heads is None:
        return doc
    key_heads = _heads(key)
    head_of = {**key_heads, **_heads(response)}
    head_of.update((e.span, key_heads[e.span]) for e in edits if e.kind in ("span", "place") and e.span in key_heads)
    heads = np.asarray([head_of.get(s, s[0]) for s in zip(doc.starts.tolist(), doc.ends.tolist())], dtype=np.int64)
    return dataclasses.replace(doc, heads=heads)


def _heads(doc: Document) -> dict[Span, int]:
    assert doc.heads is not None
    return dict(zip(zip(doc.starts.tolist(), doc.ends.tolist()), doc.heads.tolist()))
