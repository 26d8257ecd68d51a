"""Seeded golds and the markup language models write for them, for the tests and the benchmark of
:mod:`corefeval.rewards`: :func:`gold_document` makes a document with nested mentions, singletons and
long entities, :func:`markup` writes a document's mentions on words as text2text-coref marks,
Markdown links or XML tags, :func:`edited_document` changes its mentions as a model gets them wrong.
"""

from __future__ import annotations

import random

from corefeval.core.model import Corpus, Document, make_document
from corefeval.writers import render

VOCABULARY = ("the", "cat", "sat", "on", "a", "mat", "it", "he", "John", "saw", "dog", "and", ",", ".", "Mary", "her")


def gold_document(seed: int, n_words: int = 60) -> Document:
    """A seeded document of ``n_words`` words with nested mentions, singletons and long entities (no
    span in two entities, and none crossing another)."""
    rng = random.Random(seed)
    words = tuple(rng.choice(VOCABULARY) for _ in range(n_words))
    taken: list[tuple[int, int]] = []
    clusters: list[list[tuple[int, int]]] = []
    for _ in range(max(1, n_words // 12)):
        cluster = []
        for _ in range(rng.randint(1, 5)):
            start = rng.randrange(n_words)
            span = (start, min(n_words - 1, start + rng.choice((0, 0, 1, 2, 4))))
            if span not in taken and all(span[1] < s or span[0] > e or s <= span[0] <= span[1] <= e for s, e in taken):
                taken.append(span)
                cluster.append(span)
        clusters.append(cluster)
    doc = make_document(f"doc{seed}", clusters, n_words)
    return Document(doc.name, doc.starts, doc.ends, doc.entities, doc.labels, n_words, tokens=words)


def conll_gold(seed: int, n_words: int = 60) -> str:
    return render(Corpus("gold", [gold_document(seed, n_words)], format="conll2012"), "conll2012")[0]


def markup(doc: Document, style: str, words: tuple[str, ...] | None = None) -> str:
    """The document written as a model writes it: text2text-coref marks, Markdown links or XML tags."""
    words = words or doc.tokens or ()
    opens: list[list[tuple[int, str]]] = [[] for _ in words]
    closes: list[list[str]] = [[] for _ in words]
    for s, e, k in zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist()):
        opens[s].append((-e, f"e{k + 1}"))
        closes[e].append(f"e{k + 1}")
    out = []
    for i, word in enumerate(words):
        first = [eid for _, eid in sorted(opens[i])]
        if style == "text2text":
            marks = [f"[{eid}" for eid in first] + [f"{eid}]" for eid in closes[i]]
            single = [m[1:] for m in marks if m.startswith("[") and m[1:] + "]" in marks]
            marks = [m for m in marks if m.strip("[]") not in single] + [f"[{eid}]" for eid in single]
            out.append(word + ("|" + ",".join(marks) if marks else ""))
            continue
        before = "".join("[" if style == "markdown-links" else f"<m id={eid}>" for eid in first)
        after = "".join(f"](#{eid})" if style == "markdown-links" else "</m>" for eid in reversed(closes[i]))
        out.append(before + word + after)
    return " ".join(out)


def edited_document(doc: Document, rng: random.Random, edits: int) -> Document:
    """``doc`` with ``edits`` of its mentions dropped, moved to another entity or added (one word)."""
    rows = list(zip(doc.starts.tolist(), doc.ends.tolist(), doc.entities.tolist()))
    n_entities = max(doc.n_entities, 1)
    for _ in range(edits):
        kind = rng.randrange(3)
        if kind == 0 and rows:
            rows.pop(rng.randrange(len(rows)))
        elif kind == 1 and rows:
            s, e, _ = rows.pop(rng.randrange(len(rows)))
            rows.append((s, e, rng.randrange(n_entities + 1)))
        else:
            start = rng.randrange(doc.n_tokens)
            if all((s, e) != (start, start) for s, e, _ in rows):  # a span in two entities is rare
                rows.append((start, start, rng.randrange(n_entities + 1)))
    clusters: list[list[tuple[int, int]]] = [[] for _ in range(n_entities + 1)]
    for s, e, k in sorted(set(rows)):
        clusters[k].append((s, e))
    out = make_document(doc.name, clusters, doc.n_tokens)
    return Document(out.name, out.starts, out.ends, out.entities, out.labels, doc.n_tokens, tokens=doc.tokens)
