"""Any CorefUD document (nested, crossing, discontinuous mentions, zeros, heads) survives writing and
reading back."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.model import Document
from corefeval.readers import read
from corefeval.readers.corefud import CorefUDCorpus, empty_position
from corefeval.writers import render

SENTENCES = [8, 7]
# nodes in file order: (sentence, word id, k); words have k = 0, empty node w.k follows word w
NODES = [(s, w, k) for s, n in enumerate(SENTENCES) for w in range(n + 1) for k in ((0, 1, 2) if w else (1,))]
START = [0, SENTENCES[0]]


def position(node: tuple[int, int, int]) -> int:
    s, w, k = node
    return START[s] + w - 1 if k == 0 else empty_position(s, w, k)


mention = st.tuples(
    st.integers(0, len(NODES) - 1), st.integers(1, 4), st.integers(0, 3), st.integers(0, 4), st.integers(0, 9)
)


def build(raw: list[tuple[int, int, int, int, int]]) -> Document:
    """Mentions from (first node, run length, gap, second run length, head choice), entity = index % 3."""
    rows: list[tuple[list[int], int, int]] = []  # node indices, entity, head node index
    for i, (first, length, gap, second, head) in enumerate(raw):
        nodes = list(range(first, min(first + length, len(NODES))))
        if second:
            after = nodes[-1] + 1 + gap
            nodes += list(range(after, min(after + second, len(NODES))))
        entity = i % 3
        span = (nodes[0], nodes[-1])
        # The bracket notation cannot pair back mentions of one entity that cross, nor two discontinuous
        # mentions of one entity that overlap (which one does "(e1[2/2]" continue?); the same words
        # twice in one entity are one mention.
        gappy = len(nodes) != nodes[-1] - nodes[0] + 1
        if any(
            k == entity
            and (
                n == nodes
                or n[0] < span[0] <= n[-1] < span[1]
                or span[0] < n[0] <= span[1] < n[-1]
                or (gappy and len(n) != n[-1] - n[0] + 1 and not (n[-1] < span[0] or span[1] < n[0]))
            )
            for n, k, _ in rows
        ):
            continue
        rows.append((nodes, entity, nodes[head % len(nodes)]))
    starts, ends, parts, heads, entities = [], [], {}, [], []
    for row, (nodes, entity, head) in enumerate(rows):
        positions = [position(NODES[n]) for n in nodes]
        words = [p for p, n in zip(positions, nodes, strict=True) if NODES[n][2] == 0]
        if words:
            start, end = words[0], words[-1]
        else:
            s, w, _ = NODES[nodes[0]]
            start = end = START[s] + max(w - 1, 0)
        if len(words) != len(positions) or end - start + 1 != len(words):
            parts[row] = tuple(positions)
        starts.append(start)
        ends.append(end)
        heads.append(position(NODES[head]))
        entities.append(entity)
    first_seen = list(dict.fromkeys(entities))
    return Document(
        "d",
        np.asarray(starts, dtype=np.int64),
        np.asarray(ends, dtype=np.int64),
        np.asarray([first_seen.index(k) for k in entities], dtype=np.int64),
        tuple(f"e{k}" for k in first_seen),
        sum(SENTENCES),
        parts=parts,
        heads=np.asarray(heads, dtype=np.int64),
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(mention, max_size=8))
def test_any_document_round_trips(tmp_path_factory: pytest.TempPathFactory, raw: list) -> None:
    doc = build(raw)
    corpus = CorefUDCorpus("mem", [doc], "corefud", sentences={"d": SENTENCES})
    path = Path(tmp_path_factory.mktemp("p")) / "x.conllu"
    path.write_text(render(corpus, "corefud")[0])
    back = read(str(path)).documents[0]
    assert back.n_tokens == doc.n_tokens
    assert entities_with_heads(back) == entities_with_heads(doc)


def entities_with_heads(d: Document) -> Counter[frozenset[tuple[object, int]]]:
    """Entities as multisets of (mention, head), whatever their order and labels."""
    out: dict[int, list[tuple[object, int]]] = {}
    for m, k, h in zip(d.mention_keys(), d.entities.tolist(), d.heads.tolist(), strict=True):  # type: ignore[union-attr]
        out.setdefault(k, []).append((m, h))
    return Counter(frozenset(Counter(v).items()) for v in out.values())
