"""Kummerfeld & Klein's (2013) error categories, as the operations that turn the response into the key.

Mentions are paired as for the six types, but against every key entity (singletons included), and
chains are paired by shared mentions. Then, in order: each overlap pair is a span error (fix the
boundaries); a response chain with no key mention is an extra entity (delete it), any other
unpaired response mention an extra mention (delete it); a key entity with no response mention is a
missing entity (add it), any other missing key mention a missing mention (add it to its entity's
chain); every part of a response chain that belongs to another key entity than the chain's own is
split off (conflated entities, one operation per part); every piece of a key entity outside its
main chain is merged into it (divided entity, one operation per piece). A mention in the wrong
chain thus costs one split and one merge, as in the original. Spans are matched by token overlap,
not by syntactic heads, so that any language and format works without parses.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import Document
from .items import Edit, ErrorItem, Span
from .matching import Pairing, align_chains, align_mentions


def operations(
    key: Document, response: Document, words: Callable[[Span], str] | None = None
) -> tuple[list[ErrorItem], Pairing]:
    """K&K operations of one document, each an item with its count of mentions and its repair."""
    w = words or (lambda s: f"{s[0]}-{s[1]}")
    al = align_mentions(key, response)
    align_chains(al, sorted(set(al.key_entity)))
    items: list[ErrorItem] = []

    def kname(k: int) -> str:
        return key.labels[k] if k < len(key.labels) else str(k)

    def rname(r: int) -> str:
        return response.labels[r] if r < len(response.labels) else str(r)

    def add(
        type_: str,
        text: str,
        key_spans: tuple[Span, ...] = (),
        response_spans: tuple[Span, ...] = (),
        k: int | None = None,
        r: int | None = None,
        repair: tuple[Edit, ...] = (),
    ) -> None:
        items.append(
            ErrorItem(
                key.name,
                type_,
                type_.replace("_", " "),
                text,
                key_spans,
                response_spans,
                None if k is None else kname(k),
                None if r is None else rname(r),
                1,
                max(len(key_spans), len(response_spans), 1),
                repair,
            )
        )

    for i in sorted(al.border):
        ks, rs = al.key_spans[al.r2k[i]], al.response_spans[i]
        add(
            "span_error",
            f"{w(rs)} should be {w(ks)}",
            (ks,),
            (rs,),
            al.key_entity[al.r2k[i]],
            al.response_entity[i],
            (Edit("span", i, ks),),
        )
    for r, members in sorted(al.response_chains.items()):
        extra = [i for i in members if al.r2k[i] < 0]
        spans = tuple(al.response_spans[i] for i in extra)
        if len(extra) == len(members):
            add(
                "extra_entity",
                f"chain {rname(r)} has no mention of the key: " + ", ".join(map(w, spans)),
                response_spans=spans,
                r=r,
                repair=tuple(Edit("remove", i) for i in extra),
            )
        else:
            for i, s in zip(extra, spans, strict=True):
                add(
                    "extra_mention",
                    f"{w(s)} is not a mention of the key",
                    response_spans=(s,),
                    r=r,
                    repair=(Edit("remove", i),),
                )
    parts = _parts(al)
    own = {r: al.chain_of.get(r, max(by_key, key=lambda k: (len(by_key[k]), -k))) for r, by_key in parts.items()}
    pieces: dict[int, dict[int, list[int]]] = {}
    for r, by_key in parts.items():
        for k, ms in by_key.items():
            pieces.setdefault(k, {})[r] = ms
    main = {
        k: al.response_of.get(k, max(by_chain, key=lambda r: (len(by_chain[r]), -r))) for k, by_chain in pieces.items()
    }
    home = {k: ("chain", r) if own[r] == k else ("new", r, k) for k, r in main.items()}
    for k, members in sorted(al.key_chains.items()):
        missing = tuple(al.key_spans[j] for j in members if al.k2r[j] < 0)
        if len(missing) == len(members):
            add(
                "missing_entity",
                f"key entity {kname(k)} is missing: " + ", ".join(map(w, missing)),
                key_spans=missing,
                k=k,
                repair=tuple(Edit("place", -1, s, ("key", k)) for s in missing),
            )
        else:
            for s in missing:
                add(
                    "missing_mention",
                    f"{w(s)} of key entity {kname(k)} is missing",
                    key_spans=(s,),
                    k=k,
                    repair=(Edit("place", -1, s, home[k]),),
                )
    for r, by_key in sorted(parts.items()):
        for k, ms in sorted(by_key.items()):
            if k != own[r]:
                spans = tuple(al.response_spans[i] for i in ms)
                add(
                    "conflated_entities",
                    f"chain {rname(r)} mixes key entity {kname(own[r])} with "
                    f"{', '.join(map(w, spans))} of key entity {kname(k)}",
                    response_spans=spans,
                    k=k,
                    r=r,
                    repair=tuple(Edit("place", i, al.response_spans[i], ("new", r, k)) for i in ms),
                )
    for k, by_chain in sorted(pieces.items()):
        for r, ms in sorted(by_chain.items()):
            if r != main[k]:
                spans = tuple(al.response_spans[i] for i in ms)
                add(
                    "divided_entity",
                    f"key entity {kname(k)} is divided: {', '.join(map(w, spans))} "
                    f"stand apart from its main chain {rname(main[k])}",
                    response_spans=spans,
                    k=k,
                    r=r,
                    repair=tuple(Edit("place", i, al.response_spans[i], home[k]) for i in ms),
                )
    return items, al


def _parts(al: Pairing) -> dict[int, dict[int, list[int]]]:
    """Response chain -> key entity -> its paired response mentions in that chain."""
    out: dict[int, dict[int, list[int]]] = {}
    for i, j in enumerate(al.r2k):
        if j >= 0:
            out.setdefault(al.response_entity[i], {}).setdefault(al.key_entity[j], []).append(i)
    return out
