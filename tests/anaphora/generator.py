"""Random Universal Anaphora key/response pairs, the same for the same seed.

A key has nested markables (some of one word, some with equal spans), minimum spans, non-referring
markables, plural entities with split antecedents (``ElementOf``, some plurals of plurals), bridging
links and a discourse-deixis layer; its response keeps, moves and relabels some of them and adds
others. Brackets are always nested (the UA scorer reads no crossing markables).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"


@dataclass(frozen=True)
class Spec:
    """A markable to write: 0-based inclusive span, ids and attributes."""

    start: int
    end: int
    entity: str
    mid: str
    min_span: tuple[int, int] | None = None
    element_of: str = ""


def _crosses(a: Spec, b: Spec) -> bool:
    overlap = a.start <= b.end and b.start <= a.end
    nested = (a.start <= b.start and b.end <= a.end) or (b.start <= a.start and a.end <= b.end)
    return overlap and not nested


def _span(rng: random.Random, n: int) -> tuple[int, int]:
    start = rng.randrange(n)
    return start, min(n - 1, start + rng.choice((0, 0, 0, 1, 1, 2, 3)))


def _min(rng: random.Random, start: int, end: int) -> tuple[int, int] | None:
    if rng.random() < 0.3:
        return None
    a = rng.randint(start, end)
    return a, rng.randint(a, end)


def _add(markables: list[Spec], m: Spec, distinct: bool = False) -> bool:
    """Add ``m`` unless it crosses a markable (or, when ``distinct``, has the span of one)."""
    if distinct and any((o.start, o.end) == (m.start, m.end) for o in markables):
        return False
    allowed = {"p1": ("", "p2"), "p2": ("",)}.get(m.entity)
    if allowed is not None and m.element_of not in allowed:
        m = replace(m, element_of="")  # no entity an element of itself, through any chain
    if any(_crosses(m, o) for o in markables):
        return False
    markables.append(m)
    return True


def _layer(rng: random.Random, n: int, prefix: str, size: int, plurals: bool, distinct: bool) -> list[Spec]:
    """A key layer: ``size`` attempts at markables over entities e1..e4 (p1, p2 plurals)."""
    out: list[Spec] = []
    for i in range(size):
        start, end = _span(rng, n)
        roll = rng.random()
        if roll < 0.12:
            entity = f"{prefix}{i}-Pseudo"
        elif plurals and roll < 0.3:
            entity = rng.choice(("p1", "p2"))
        else:
            entity = f"{prefix}e{rng.randint(1, 4)}"
        element_of = ""
        if plurals and entity.startswith(f"{prefix}e") and rng.random() < 0.35:
            element_of = rng.choice(("p1", "p2", "p1,p2"))
        if plurals and entity == "p1" and rng.random() < 0.2:
            element_of = "p2"  # a plural of plurals
        _add(out, Spec(start, end, entity, f"{prefix}m{i}", _min(rng, start, end), element_of), distinct)
    return out


def _response(rng: random.Random, n: int, key: list[Spec], prefix: str, distinct: bool) -> list[Spec]:
    out: list[Spec] = []
    for m in key:
        roll = rng.random()
        if roll < 0.15:
            continue
        if roll < 0.3:
            m = replace(m, entity=rng.choice((m.entity, f"{prefix}e{rng.randint(1, 5)}", "p1", "p2")))
        elif roll < 0.4:
            start, end = _span(rng, n)
            m = replace(m, start=start, end=end)
        elif roll < 0.5:
            m = replace(m, element_of=rng.choice(("", "p1", "p2")))
        _add(out, replace(m, min_span=None), distinct)
    for i in range(rng.randint(0, 3)):
        start, end = _span(rng, n)
        entity = rng.choice((f"{prefix}e{rng.randint(1, 5)}", f"{prefix}x{i}-Pseudo", "p1"))
        _add(out, Spec(start, end, entity, f"{prefix}r{i}"), distinct)
    return out


def _bridges(rng: random.Random, markables: list[Spec]) -> dict[str, str]:
    """Anaphor markable id -> anchor markable id."""
    out: dict[str, str] = {}
    if len(markables) < 2:
        return out
    for _ in range(rng.randint(0, 3)):
        anaphor, anchor = rng.sample(markables, 2)
        out[anaphor.mid] = anchor.mid
    return out


def _cells(markables: list[Spec], n: int) -> list[str]:
    """The column of a layer, one cell per word (nested brackets, outer markables opened first)."""
    cells = [""] * n
    for w in range(n):
        closing = [m for m in markables if m.end == w and m.start < w]
        opening = sorted((m for m in markables if m.start == w), key=lambda m: -m.end)
        text = ")" * len(closing)
        for m in opening:
            attrs = [f"EntityID={m.entity}", f"MarkableID={m.mid}"]
            if m.min_span is not None:
                a, b = m.min_span
                attrs.append(f"Min={a + 1}" if a == b else f"Min={a + 1},{b + 1}")
            if m.element_of:
                attrs.append(f"ElementOf={m.element_of}")
            text += "(" + "|".join(attrs) + (")" if m.end == w else "")
        cells[w] = text or "_"
    return cells


def write(name: str, n: int, identity: list[Spec], deixis: list[Spec], bridges: dict[str, str]) -> str:
    """A document as UA text (one sentence; positions are document positions)."""
    ident, dd = _cells(identity, n), _cells(deixis, n)
    bridge = ["_"] * n
    starts = {m.mid: m.start for m in identity}
    for anaphor, anchor in bridges.items():
        cell = f"(MarkableID={anaphor}|Rel=part-of|MentionAnchor={anchor})"
        at = starts[anaphor]
        bridge[at] = cell if bridge[at] == "_" else bridge[at] + cell
    lines = [f"# newdoc id = {name}", f"# sent_id = {name}-1"]
    for w in range(n):
        lines.append("\t".join([str(w + 1), f"w{w}", *["_"] * 8, ident[w], bridge[w], dd[w]]))
    return "\n".join(lines) + "\n\n"


def pair(seed: int, n_docs: int = 2, distinct: bool = False) -> tuple[str, str]:
    """Key and response texts of ``n_docs`` documents generated from ``seed`` (``distinct``: no
    two markables of a layer with one span, a case in which the UA scorer may divide by zero)."""
    rng = random.Random(seed)
    key_text, response_text = [HEADER + "\n"], [HEADER + "\n"]
    for d in range(n_docs):
        n = rng.randint(4, 14)
        key = _layer(rng, n, "", rng.randint(2, 12), True, distinct)
        deixis = _layer(rng, n, "d", rng.randint(0, 5), rng.random() < 0.5, distinct)
        response = _response(rng, n, key, "", distinct)
        response_deixis = _response(rng, n, deixis, "d", distinct)
        key_text.append(write(f"doc{d}", n, key, deixis, _bridges(rng, key)))
        response_text.append(write(f"doc{d}", n, response, response_deixis, _bridges(rng, response)))
    return "".join(key_text), "".join(response_text)
