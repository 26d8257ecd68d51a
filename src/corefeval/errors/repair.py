"""Apply repairing edits to a response document, to measure what a kind of error costs."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from ..model import Document, make_document
from .items import Edit, Span
from .matching import Alignment


def repaired(response: Document, al: Alignment, edits: Iterable[Edit]) -> Document:
    """``response`` (as paired in ``al``) with ``edits`` applied; other mentions are left as they are."""
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
    return make_document(response.name, clusters.values(), n_tokens=response.n_tokens)
