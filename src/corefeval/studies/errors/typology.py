"""The six error types of the 2022 human-judgment study, found automatically.

Mentions and chains are paired first (see :mod:`.matching`); key chains are key entities of two
or more mentions. Then, per document:

* border: a response mention paired with a key chain mention by overlap only;
* absence: a key chain of which no response chain holds two mentions together, unless its one
  surviving mention sits alone in a response singleton (then its missing mentions are silences);
* silence: a missing mention of a key chain that is not absent;
* in a response chain paired with key chain k: a mention of another key chain, or a referring
  mention that is in no key chain, is a type error; an unmatched mention is noise; but when the
  chain starts with a mention foreign to k and k's own first mention is missing, the antecedent was
  replaced and each of k's mentions there is a type error, and when k's first mention is present
  the chain was built on a wrong antecedent: irrelevant;
* a response chain paired with no key chain: mentions of one surviving key chain with foreign
  company were moved to a new antecedent (type, one per moved mention); a lone mention is not
  counted; anything else (unmatched mentions only, a split-off fragment, a mixture, remnants of an
  absent chain) is one irrelevant chain construction.

Key entities with one mention, and the optional singleton layer, are "real" mentions: referring but
not coreferent. With a layer, an unmatched mention outside it is no mention at all, so a new chain
of two or more such mentions also counts noise for each of them.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.model import Document
from .items import Edit, ErrorItem, Span
from .matching import Pairing, align_chains, align_mentions, chain_entities


class _Context:
    """What the rules of one document share: alignment, chain names, words, the items found."""

    def __init__(
        self, key: Document, response: Document, al: Pairing, chains: set[int], words: Callable[[Span], str]
    ) -> None:
        self.key, self.response, self.al, self.chains, self.words = key, response, al, chains, words
        self.items: list[ErrorItem] = []
        self.layer = False
        self.every_mention = False

    def key_name(self, k: int | None) -> str | None:
        if k is None or k < 0:
            return None
        return self.key.labels[k] if k < len(self.key.labels) else str(k)

    def response_name(self, r: int | None) -> str | None:
        if r is None or r < 0:
            return None
        return self.response.labels[r] if r < len(self.response.labels) else str(r)

    def chain_word(self, k: int) -> str:
        first = self.al.key_spans[self.al.key_chains[k][0]]
        return f"key chain {self.key_name(k)} ({self.words(first)})"

    def add(
        self,
        type_: str,
        rule: str,
        text: str,
        *,
        key_spans: tuple[Span, ...] = (),
        response_spans: tuple[Span, ...] = (),
        k: int | None = None,
        r: int | None = None,
        count: int = 1,
        repair: tuple[Edit, ...] = (),
    ) -> None:
        self.items.append(
            ErrorItem(
                self.key.name,
                type_,
                rule,
                text,
                key_spans,
                response_spans,
                self.key_name(k),
                self.response_name(r),
                count,
                max(len(key_spans), len(response_spans), 1),
                repair,
            )
        )

    def is_chain_mention(self, i: int) -> bool:
        return self.al.key_chain_of(i) in self.chains

    def is_real(self, i: int) -> bool:
        return (self.al.r2k[i] >= 0 and not self.is_chain_mention(i)) or i in self.al.real

    def is_spurious(self, i: int) -> bool:
        return self.al.r2k[i] < 0 and i not in self.al.real


def classify(
    key: Document,
    response: Document,
    singleton_layer: set[Span] | None = None,
    words: Callable[[Span], str] | None = None,
    every_mention: bool = False,
) -> tuple[list[ErrorItem], Pairing]:
    """The study's six error types in one document, each error itemised with its repair.

    ``every_mention`` also counts each missing mention of an absent chain as silence and each
    unmatched mention of a new chain as noise (the convention of the study's multi-error passages).
    """
    chains = chain_entities(key)
    al = align_mentions(key, response, border_on=chains, real_spans=singleton_layer)
    align_chains(al, sorted(chains))
    cx = _Context(key, response, al, chains, words or (lambda s: f"{s[0]}-{s[1]}"))
    cx.layer = singleton_layer is not None
    cx.every_mention = every_mention
    _borders(cx)
    absent = _key_chains(cx)
    _response_chains(cx, absent)
    return cx.items, al


def _borders(cx: _Context) -> None:
    al = cx.al
    for i in sorted(al.border):
        j = al.r2k[i]
        ks, rs = al.key_spans[j], al.response_spans[i]
        cx.add(
            "border",
            "overlap",
            f"{cx.words(rs)} should be {cx.words(ks)}",
            key_spans=(ks,),
            response_spans=(rs,),
            k=al.key_entity[j],
            r=al.response_entity[i],
            repair=(Edit("span", i, ks),),
        )


def _key_chains(cx: _Context) -> set[int]:
    """Chain absence and silence; returns the absent key chains (their pairing is dropped)."""
    al = cx.al
    absent: set[int] = set()
    for k in sorted(cx.chains):
        members = al.key_chains[k]
        survivors = [al.k2r[j] for j in members if al.k2r[j] >= 0]
        held: dict[int, int] = {}
        for i in survivors:
            held[al.response_entity[i]] = held.get(al.response_entity[i], 0) + 1
        linked = any(n >= 2 for n in held.values())
        missing = [al.key_spans[j] for j in members if al.k2r[j] < 0]
        if not linked and not _lone_survivor(cx, survivors):
            absent.add(k)
            r = al.response_of.pop(k, None)
            if r is not None:
                al.chain_of.pop(r, None)
            edits = tuple(Edit("place", -1, s, ("key", k)) for s in missing)
            edits += tuple(Edit("place", i, al.response_spans[i], ("key", k)) for i in survivors)
            cx.add(
                "absence",
                "no two mentions together",
                f"{cx.chain_word(k)} is missing as a whole ({len(members)} mentions)",
                key_spans=tuple(al.key_spans[j] for j in members),
                k=k,
                repair=edits,
            )
            if cx.every_mention:
                for s in missing:
                    cx.add(
                        "silence",
                        "missing mention of an absent chain",
                        f"{cx.words(s)} of {cx.chain_word(k)} is not marked",
                        key_spans=(s,),
                        k=k,
                        repair=(Edit("place", -1, s, ("key", k)),),
                    )
            continue
        r = al.response_of.get(k)
        if r is not None and _wrong_antecedent(cx, r, k) == "replaced":
            missing = [s for s in missing if s != al.key_spans[members[0]]]
        for s in missing:
            cx.add(
                "silence",
                "missing mention",
                f"{cx.words(s)} of {cx.chain_word(k)} is not marked",
                key_spans=(s,),
                k=k,
                repair=(Edit("place", -1, s, ("key", k)),),
            )
    return absent


def _lone_survivor(cx: _Context, survivors: list[int]) -> bool:
    """One mention left, alone in a response singleton."""
    if len(survivors) != 1:
        return False
    al = cx.al
    r = al.response_entity[survivors[0]]
    return len(al.response_chains[r]) == 1


def _response_chains(cx: _Context, absent: set[int]) -> None:
    al = cx.al
    for r, members in sorted(al.response_chains.items()):
        k = al.chain_of.get(r)
        if k is not None:
            _paired_chain(cx, r, k, members)
        else:
            _unpaired_chain(cx, r, members, absent)


def _wrong_antecedent(cx: _Context, r: int, k: int) -> str:
    """How chain ``r`` paired with ``k`` starts: "" (well), "replaced" (k's antecedent is missing and
    r starts with a non-mention of the key chains) or "prepended" (such a mention precedes k's)."""
    al = cx.al
    first = al.response_chains[r][0]
    if cx.is_chain_mention(first):
        return ""
    antecedent = al.key_chains[k][0]
    if al.k2r[antecedent] < 0:
        return "replaced"
    return "prepended"


def _take_out(cx: _Context, i: int) -> Edit:
    """The edit that takes mention ``i`` out of its chain: delete a non-mention, isolate a real one."""
    if cx.is_spurious(i):
        return Edit("remove", i)
    return Edit("place", i, cx.al.response_spans[i], ("new", i))


def _paired_chain(cx: _Context, r: int, k: int, members: list[int]) -> None:
    al = cx.al
    how = _wrong_antecedent(cx, r, k)
    if how == "replaced":
        new = al.response_spans[members[0]]
        antecedent = al.key_spans[al.key_chains[k][0]]
        fix = (_take_out(cx, members[0]), Edit("place", -1, antecedent, ("key", k)))
        for i in members:
            if al.key_chain_of(i) == k:
                rs = al.response_spans[i]
                cx.add(
                    "type",
                    "attached to a new antecedent",
                    f"{cx.words(rs)} of {cx.chain_word(k)} is linked to {cx.words(new)} instead",
                    key_spans=(al.key_spans[al.r2k[i]],),
                    response_spans=(rs,),
                    k=k,
                    r=r,
                    repair=(Edit("place", i, rs, ("key", k)),) + fix,
                )
        members = members[1:]
    elif how == "prepended":
        new = al.response_spans[members[0]]
        cx.add(
            "irrelevant",
            "wrong antecedent",
            f"chain {cx.response_name(r)} starts with {cx.words(new)}, which is not part of {cx.chain_word(k)}",
            response_spans=(new,),
            k=k,
            r=r,
            repair=(_take_out(cx, members[0]),),
        )
        members = members[1:]
    for i in members:
        rs = al.response_spans[i]
        if cx.is_spurious(i):
            cx.add(
                "noise",
                "spurious mention in chain",
                f"{cx.words(rs)} is not a mention but is in the chain of {cx.chain_word(k)}",
                response_spans=(rs,),
                k=k,
                r=r,
                repair=(Edit("remove", i),),
            )
            continue
        other = al.key_chain_of(i)
        if other == k:
            continue
        if other in cx.chains:
            cx.add(
                "type",
                "mention of another chain",
                f"{cx.words(rs)} belongs to {cx.chain_word(other)}, not to {cx.chain_word(k)}",
                key_spans=(al.key_spans[al.r2k[i]],),
                response_spans=(rs,),
                k=other,
                r=r,
                repair=(Edit("place", i, rs, ("key", other)),),
            )
        else:
            cx.add(
                "type",
                "singleton put in a chain",
                f"{cx.words(rs)} refers to something else than {cx.chain_word(k)}",
                response_spans=(rs,),
                k=k,
                r=r,
                repair=(Edit("place", i, rs, ("new", i)),),
            )


def _unpaired_chain(cx: _Context, r: int, members: list[int], absent: set[int]) -> None:
    al = cx.al
    spans = tuple(al.response_spans[i] for i in members)
    spurious = [i for i in members if cx.is_spurious(i)]
    real = [i for i in members if cx.is_real(i)]
    by_key: dict[int, list[int]] = {}
    for i in members:
        if cx.is_chain_mention(i):
            by_key.setdefault(al.key_chain_of(i), []).append(i)
    remove_spurious = tuple(Edit("remove", i) for i in spurious)
    home = tuple(
        Edit("place", i, al.response_spans[i], ("key", al.key_chain_of(i))) for ks in by_key.values() for i in ks
    )
    alone = tuple(Edit("place", i, al.response_spans[i], ("new", i)) for i in real)
    if not by_key:
        if spurious or len(real) >= 2:
            cx.add(
                "irrelevant",
                "chain of unrelated mentions",
                f"chain {cx.response_name(r)} links mentions "
                "that corefer with nothing: " + ", ".join(cx.words(s) for s in spans),
                response_spans=spans,
                r=r,
                repair=remove_spurious + alone,
            )
            if len(members) >= 2 and (cx.layer or cx.every_mention):
                _noise_in_irrelevant(cx, r, spurious)
        return
    if len(by_key) == 1:
        ((k, moved),) = by_key.items()
        others = spurious + real
        if k not in absent and k in al.response_of and others:
            for i in moved:
                rs = al.response_spans[i]
                cx.add(
                    "type",
                    "moved to a new antecedent",
                    f"{cx.words(rs)} of {cx.chain_word(k)} is linked "
                    f"to {', '.join(cx.words(al.response_spans[s]) for s in others)} instead",
                    key_spans=(al.key_spans[al.r2k[i]],),
                    response_spans=(rs,),
                    k=k,
                    r=r,
                    repair=(Edit("place", i, rs, ("key", k)),) + remove_spurious,
                )
            return
        if len(members) == 1:
            return
    rule = "split-off fragment" if len(by_key) == 1 and not spurious and not real else "mixed chain"
    cx.add(
        "irrelevant",
        rule,
        f"chain {cx.response_name(r)} groups mentions that do not corefer as a chain "
        "of the key: " + ", ".join(cx.words(s) for s in spans),
        response_spans=spans,
        r=r,
        repair=home + remove_spurious + alone,
    )
    if cx.every_mention:
        _noise_in_irrelevant(cx, r, spurious)


def _noise_in_irrelevant(cx: _Context, r: int, spurious: list[int]) -> None:
    for i in spurious:
        rs = cx.al.response_spans[i]
        cx.add(
            "noise",
            "non-mention in a new chain",
            f"{cx.words(rs)} is not a mention",
            response_spans=(rs,),
            r=r,
            repair=(Edit("remove", i),),
        )
