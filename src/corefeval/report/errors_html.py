"""A self-contained HTML page showing an error analysis on the text (formatting only).

On top: the six counts, the Kummerfeld & Klein counts and what repairing each category gains in
F1. Then each document: key and response side by side, mentions bracketed and coloured by entity
(a response chain takes the colour of the key chain it is paired with; grey when it stands for
no key entity), errors outlined in their
type's colour and explained on hover (the ``title`` of the mention), and the list of errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from html import escape

import numpy as np

from ..core.model import Span
from ..studies.errors.analysis import METRICS, Analysis, DocumentErrors
from ..studies.errors.items import KK_TYPES, TYPES
from .grid import documents

ERROR_COLOURS = {
    "border": "#e67e00",
    "type": "#8e24aa",
    "noise": "#d32f2f",
    "silence": "#1565c0",
    "irrelevant": "#6d4c41",
    "absence": "#000000",
}
EXPLAIN = {
    "border": "a response mention with other boundaries than the key mention",
    "type": "a mention in the wrong chain",
    "noise": "a spurious mention in a chain",
    "silence": "a missed mention of a chain the response has",
    "irrelevant": "a response chain made of unrelated mentions",
    "absence": "a key chain missing as a whole",
}

_CSS = """
body{font-family:system-ui,sans-serif;margin:1.2em;color:#222;background:#fff}
h1{font-size:1.4em;margin:.2em 0}
h2{font-size:1.1em;margin:1.4em 0 .3em;border-top:2px solid #ccc;padding-top:.6em}
table{border-collapse:collapse;margin:.4em 0 .8em}
td,th{border:1px solid #ccc;padding:2px 7px;text-align:right}
th:first-child,td:first-child{text-align:left}
.summary{display:flex;flex-wrap:wrap;gap:2em}
.key{display:inline-block;width:.9em;height:.9em;border:3px solid;vertical-align:middle;margin-right:.2em}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1.2em}
.side{line-height:2.1;border:1px solid #ddd;padding:.5em .8em;border-radius:4px}
.side h3{margin:0 0 .3em;font-size:.95em;color:#555}
.m{border-radius:3px;padding:1px 2px;border:1px solid transparent}
.m sub{font-size:.65em;color:#444;margin-left:1px}
.err{outline:3px solid var(--c);outline-offset:1px}
.err.silence,.err.absence{outline-style:dashed}
ul.errs{font-size:.9em;margin:.4em 0 0 1.2em;padding:0} ul.errs li{margin:.1em 0}
.tag{display:inline-block;color:#fff;border-radius:3px;padding:0 5px;font-size:.85em}
nav{font-size:.85em;columns:3}
"""


@cache
def _colour(index: int | None) -> tuple[str, str]:
    """Background and border colour of an entity; None (a response chain standing for no key
    entity) is grey."""
    if index is None:
        return "#e0e0e0", "#757575"
    hue = (190 + index * 137.508) % 360
    return f"hsl({hue:.0f},75%,88%)", f"hsl({hue:.0f},55%,40%)"


def _counts_table(a: Analysis) -> str:
    head = "".join(f'<th><span class="key" style="border-color:{ERROR_COLOURS[t]}"></span>{t}</th>' for t in TYPES)
    counts = a.counts
    row = "".join(f"<td>{counts[t]}</td>" for t in TYPES)
    tips = "".join(f'<td title="{escape(EXPLAIN[t])}">{escape(EXPLAIN[t])}</td>' for t in TYPES)
    return (
        f"<table><tr><th>errors</th>{head}</tr><tr><td>count</td>{row}</tr>"
        f'<tr style="font-size:.75em"><td>meaning</td>{tips}</tr></table>'
    )


def _costs_table(a: Analysis) -> str:
    if not a.baseline:
        return ""
    head = "".join(f"<th>{m}</th>" for m in METRICS)
    rows = [f"<tr><td>F1 as is</td>{''.join(f'<td>{100 * a.baseline[m]:.2f}</td>' for m in METRICS)}</tr>"]
    for name, costs in (*((t, a.costs[t]) for t in TYPES), *((t, a.kk_costs[t]) for t in KK_TYPES)):
        cells = "".join(f"<td>{100 * costs[m]:+.2f}</td>" for m in METRICS)
        rows.append(f"<tr><td>repair {escape(name)}</td>{cells}</tr>")
    return (
        f"<table><caption>F1 gain (points) when only one category is repaired</caption>"
        f"<tr><th></th>{head}</tr>{''.join(rows)}</table>"
    )


def _kk_table(a: Analysis) -> str:
    head = "".join(f"<th>{t.replace('_', ' ')}</th>" for t in KK_TYPES)
    operations, mentions = a.kk_counts, a.kk_mentions
    ops = "".join(f"<td>{operations[t]}</td>" for t in KK_TYPES)
    men = "".join(f"<td>{mentions[t]}</td>" for t in KK_TYPES)
    return (
        f"<table><caption>Kummerfeld &amp; Klein categories</caption><tr><th></th>{head}</tr>"
        f"<tr><td>operations</td>{ops}</tr><tr><td>mentions</td>{men}</tr></table>"
    )


Mention = tuple[Span, "int | None", str, list[tuple[str, str]]]


#: Placeholder positions shown on each side of a mention's boundary where the files give no words.
CONTEXT = 2


def shown_tokens(words: Sequence[str], mentions: Iterable[Mention]) -> list[tuple[int, str]]:
    """``(position, text)`` of what a side shows: every word the files give, then, past them, only
    the positions near a mention's boundary (``[t]``), ``…`` standing for each gap (position -1), so
    that the page follows the mentions, not the largest offset."""
    past = len(words)
    out = list(enumerate(words))
    boundaries = np.fromiter((b for m in mentions for b in m[0]), dtype=np.int64)
    boundaries = np.unique(boundaries[boundaries + CONTEXT >= past])
    if boundaries.size:
        offsets = np.arange(-CONTEXT, CONTEXT + 1)
        near = np.unique((boundaries[:, None] + offsets).ravel())
        previous = past - 1
        for p in near[near >= past].tolist():
            if p > previous + 1:
                out.append((-1, "…"))
            out.append((p, f"[{p}]"))
            previous = p
    return out


def escaped_words(tokens: Sequence[tuple[int, str]]) -> list[str]:
    """Each shown token's text escaped for HTML, in one call for the whole side (words hold no
    newline, the separator; should one do, each word is escaped alone)."""
    texts = [t for _, t in tokens]
    joined = "\n".join(texts)
    out = escape(joined).split("\n")
    return out if len(out) == len(texts) else [escape(t) for t in texts]


def token_index(tokens: Sequence[tuple[int, str]]) -> tuple[int, dict[int, int]]:
    """Where each shown position is in ``tokens``: positions before the first returned number are
    their own index (the words); the dict gives the others (placeholders past the words)."""
    past = next((i for i, (p, _) in enumerate(tokens) if p != i), len(tokens))
    return past, {p: i for i, (p, _) in enumerate(tokens[past:], past) if p >= 0}


def _render_side(
    tokens: Sequence[tuple[int, str]],
    texts: Sequence[str],
    mentions: list[Mention],
    where: tuple[int, dict[int, int]] | None = None,
) -> str:
    """Tokens (with their escaped ``texts``) with well-nested mention spans; ``mentions`` =
    (span, colour index, label, errors); ``where`` is :func:`token_index` of ``tokens`` (made once
    for both sides). Only the tokens where a mention opens or closes are visited one by one; the
    words between them are joined in one piece."""
    opening: dict[int, list[Mention]] = {}
    ends: set[int] = set()
    for m in mentions:
        opening.setdefault(m[0][0], []).append(m)
        ends.add(m[0][1])
    for starting in opening.values():
        starting.sort(key=lambda m: -m[0][1])
    past, tail = where if where is not None else token_index(tokens)
    visits = sorted({p if 0 <= p < past else tail[p] for p in (*opening, *ends) if 0 <= p < past or p in tail})
    out: list[str] = []
    stack: list[tuple[int, str]] = []
    done = 0
    for index in visits:
        if index > done:
            out.append(" ".join(texts[done:index]) + " ")
        t = tokens[index][0]
        for span, colour, label, errs in opening.get(t, ()):
            if stack and span[1] > stack[-1][0]:
                continue  # crossing brackets cannot be nested; the mention is still listed below
            out.append(_opening(colour, errs) if errs else _plain_opening(colour, label))
            stack.append((span[1], _closing(label)))
        out.append(texts[index])
        while stack and stack[-1][0] == t:
            out.append(stack.pop()[1])
        out.append(" ")
        done = index + 1
    if done < len(tokens):
        out.append(" ".join(texts[done:]) + " ")
    out.extend(closing for _, closing in reversed(stack))
    return "".join(out)


def _opening(colour: int | None, errs: list[tuple[str, str]]) -> str:
    """The opening tag of a mention with errors: outlined in its first error's colour, the errors
    explained on hover."""
    bg, fg = _colour(colour)
    style = f"background:{bg};border-color:{fg};--c:{ERROR_COLOURS[errs[0][0]]}"
    title = " | ".join(f"{e}: {text}" for e, text in errs)
    return f'<span class="m err {errs[0][0]}" style="{style}" title="{escape(title)}">'


@lru_cache(maxsize=4096)
def _plain_opening(colour: int | None, label: str) -> str:
    """The opening tag of a mention without errors (the same for every mention of a chain)."""
    bg, fg = _colour(colour)
    return f'<span class="m" style="background:{bg};border-color:{fg}" title="{escape(f"chain {label}")}">'


@lru_cache(maxsize=4096)
def _closing(label: str) -> str:
    return f"<sub>{escape(label)}</sub></span>"


def _response_colour(d: DocumentErrors, r: int) -> int | None:
    """The key entity a response chain stands for (its paired chain, or the one entity all its
    mentions belong to), else None."""
    al = d.alignment
    if r in al.chain_of:
        return al.chain_of[r]
    owners = {al.key_chain_of(i) for i in al.response_chains[r]}
    return owners.pop() if len(owners) == 1 and -1 not in owners else None


def _document(d: DocumentErrors, number: int) -> str:
    al = d.alignment
    key_errs: dict[Span, list[tuple[str, str]]] = {}
    resp_errs: dict[Span, list[tuple[str, str]]] = {}
    for it in d.items:
        on_key = it.type in ("silence", "absence", "border")
        on_response = it.type not in ("silence", "absence")
        for s in it.key_spans if on_key else ():
            key_errs.setdefault(s, []).append((it.type, it.explanation))
        for s in it.response_spans if on_response else ():
            resp_errs.setdefault(s, []).append((it.type, it.explanation))
    key_m: list[Mention] = [
        (s, k, d.key.labels[k] if k < len(d.key.labels) else str(k), key_errs.get(s, []))
        for s, k in zip(al.key_spans, al.key_entity, strict=True)
    ]
    resp_m: list[Mention] = []
    for s, r in zip(al.response_spans, al.response_entity, strict=True):
        colour = _response_colour(d, r)
        label = d.response.labels[r] if r < len(d.response.labels) else str(r)
        resp_m.append((s, colour, label, resp_errs.get(s, [])))
    tokens = shown_tokens(d.key.tokens or d.response.tokens or (), key_m + resp_m)
    texts, where = escaped_words(tokens), token_index(tokens)
    counts = " ".join(
        f'<span class="tag" style="background:{ERROR_COLOURS[t]}">{t} {n}</span>' for t, n in d.counts.items() if n
    )
    errs = "".join(
        f'<li><span class="tag" style="background:{ERROR_COLOURS[it.type]}">{it.type}</span> '
        f"<i>{escape(it.rule)}</i>: {escape(it.explanation)}</li>"
        for it in d.items
    )
    return (
        f'<h2 id="doc{number}">{number}. {escape(d.name)} {counts or "<i>no error</i>"}</h2>'
        f'<div class="sides"><div class="side"><h3>Key</h3>{_render_side(tokens, texts, key_m, where)}</div>'
        f'<div class="side"><h3>Response</h3>{_render_side(tokens, texts, resp_m, where)}</div></div>'
        f'<ul class="errs">{errs}</ul>'
    )


def page(a: Analysis, title: str = "corefeval errors") -> str:
    """The whole page as one string (no external resources)."""
    nav = "".join(
        f'<div><a href="#doc{i}">{i}. {escape(d.name)}</a> ({sum(d.counts.values())})</div>'
        for i, d in enumerate(a.documents, 1)
    )
    docs = "".join(_document(d, i) for i, d in enumerate(a.documents, 1))
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_CSS}</style></head><body><h1>{escape(title)}</h1>"
        f"<p>key <code>{escape(a.key_path)}</code>, response <code>{escape(a.response_path)}</code>; "
        f"{documents(len(a.documents))}. Mentions are coloured by key entity (grey: a response chain that "
        "stands for no key entity); errors are outlined in their type's colour, dashed on the key side "
        "for what the response misses. Hover a mention to read its errors.</p>"
        f'<div class="summary"><div>{_counts_table(a)}{_kk_table(a)}</div>'
        f"<div>{_costs_table(a)}</div></div>"
        f"<nav>{nav}</nav>{docs}</body></html>\n"
    )
