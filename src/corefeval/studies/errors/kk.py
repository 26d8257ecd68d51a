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

from collections.abc import Callable, Mapping

from ...core.model import Document
from .items import Edit, ErrorItem, Span
from .matching import Pairing, align_chains, align_mentions


def operations(
    key: Document, response: Document, words: Callable[[Span], str] | None = None
) -> tuple[list[ErrorItem], Pairing]:
    """K&K operations of one document, each an item with its count of mentions and its repair."""
    al = align_mentions(key, response)
    align_chains(al, sorted(set(al.key_entity)))
    found = _Found(key, response, words or (lambda s: f"{s[0]}-{s[1]}"))
    _spans_and_extras(found, al)
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
    _missing(found, al, home)
    _conflated_and_divided(found, al, parts, own, pieces, main, home)
    return found.items, al


class _Found:
    """The operations found so far in one document, and how its entities and spans are named."""

    def __init__(self, key: Document, response: Document, words: Callable[[Span], str]) -> None:
        self.key, self.response, self.w = key, response, words
        self.items: list[ErrorItem] = []

    def kname(self, k: int) -> str:
        return self.key.labels[k] if k < len(self.key.labels) else str(k)

    def rname(self, r: int) -> str:
        return self.response.labels[r] if r < len(self.response.labels) else str(r)

    def add(
        self,
        type_: str,
        text: str,
        key_spans: tuple[Span, ...] = (),
        response_spans: tuple[Span, ...] = (),
        k: int | None = None,
        r: int | None = None,
        repair: tuple[Edit, ...] = (),
    ) -> None:
        size = max(len(key_spans), len(response_spans), 1)
        kname, rname = None if k is None else self.kname(k), None if r is None else self.rname(r)
        label = type_.replace("_", " ")
        self.items.append(
            ErrorItem(self.key.name, type_, label, text, key_spans, response_spans, kname, rname, 1, size, repair)
        )


def _spans_and_extras(found: _Found, al: Pairing) -> None:
    """Span errors (overlap pairs), then extra entities and extra mentions of the response."""
    w = found.w
    for i in sorted(al.border):
        ks, rs = al.key_spans[al.r2k[i]], al.response_spans[i]
        k, r = al.key_entity[al.r2k[i]], al.response_entity[i]
        found.add("span_error", f"{w(rs)} should be {w(ks)}", (ks,), (rs,), k, r, (Edit("span", i, ks),))
    for r, members in sorted(al.response_chains.items()):
        extra = [i for i in members if al.r2k[i] < 0]
        spans = tuple(al.response_spans[i] for i in extra)
        if len(extra) == len(members):
            text = f"chain {found.rname(r)} has no mention of the key: " + ", ".join(map(w, spans))
            found.add("extra_entity", text, response_spans=spans, r=r, repair=tuple(Edit("remove", i) for i in extra))
            continue
        for i, s in zip(extra, spans, strict=True):
            text = f"{w(s)} is not a mention of the key"
            found.add("extra_mention", text, response_spans=(s,), r=r, repair=(Edit("remove", i),))


def _missing(found: _Found, al: Pairing, home: Mapping[int, tuple[object, ...]]) -> None:
    """Missing entities (no response mention at all) and missing mentions of the key."""
    w = found.w
    for k, members in sorted(al.key_chains.items()):
        missing = tuple(al.key_spans[j] for j in members if al.k2r[j] < 0)
        if len(missing) == len(members):
            text = f"key entity {found.kname(k)} is missing: " + ", ".join(map(w, missing))
            repair = tuple(Edit("place", -1, s, ("key", k)) for s in missing)
            found.add("missing_entity", text, key_spans=missing, k=k, repair=repair)
            continue
        for s in missing:
            text = f"{w(s)} of key entity {found.kname(k)} is missing"
            found.add("missing_mention", text, key_spans=(s,), k=k, repair=(Edit("place", -1, s, home[k]),))


def _conflated_and_divided(
    found: _Found,
    al: Pairing,
    parts: dict[int, dict[int, list[int]]],
    own: dict[int, int],
    pieces: dict[int, dict[int, list[int]]],
    main: dict[int, int],
    home: Mapping[int, tuple[object, ...]],
) -> None:
    """The parts of response chains that belong to another key entity than the chain's own (split
    off), then the pieces of key entities outside their main chain (merged into it)."""
    w, kname, rname = found.w, found.kname, found.rname
    for r, by_key in sorted(parts.items()):
        for k, ms in sorted(by_key.items()):
            if k != own[r]:
                spans = tuple(al.response_spans[i] for i in ms)
                text = (
                    f"chain {rname(r)} mixes key entity {kname(own[r])} with "
                    f"{', '.join(map(w, spans))} of key entity {kname(k)}"
                )
                repair = tuple(Edit("place", i, al.response_spans[i], ("new", r, k)) for i in ms)
                found.add("conflated_entities", text, response_spans=spans, k=k, r=r, repair=repair)
    for k, by_chain in sorted(pieces.items()):
        for r, ms in sorted(by_chain.items()):
            if r != main[k]:
                spans = tuple(al.response_spans[i] for i in ms)
                text = (
                    f"key entity {kname(k)} is divided: {', '.join(map(w, spans))} "
                    f"stand apart from its main chain {rname(main[k])}"
                )
                repair = tuple(Edit("place", i, al.response_spans[i], home[k]) for i in ms)
                found.add("divided_entity", text, response_spans=spans, k=k, r=r, repair=repair)


def _parts(al: Pairing) -> dict[int, dict[int, list[int]]]:
    """Response chain -> key entity -> its paired response mentions in that chain."""
    out: dict[int, dict[int, list[int]]] = {}
    for i, j in enumerate(al.r2k):
        if j >= 0:
            out.setdefault(al.response_entity[i], {}).setdefault(al.key_entity[j], []).append(i)
    return out
