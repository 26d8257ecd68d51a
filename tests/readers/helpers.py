"""Comparing documents independently of row order, label names and format."""

from __future__ import annotations

from collections import Counter

from corefeval.core.model import Corpus, Document


def partition(doc: Document) -> Counter[frozenset[object]]:
    """Entities as a multiset of mention multisets (labels and row order do not matter)."""
    keys = doc.mention_keys()
    groups: dict[int, list[object]] = {}
    for row, k in enumerate(doc.entities.tolist()):
        groups.setdefault(k, []).append(keys[row])
    return Counter(frozenset(Counter(g).items()) for g in groups.values())


def same_corpus(a: Corpus, b: Corpus, heads: bool = False) -> None:
    """Assert that two corpora hold the same documents, tokens and entities (and heads)."""
    assert [d.name for d in a] == [d.name for d in b]
    for x, y in zip(a.documents, b.documents, strict=True):
        assert x.n_tokens == y.n_tokens, x.name
        assert partition(x) == partition(y), x.name
        if x.tokens is not None and y.tokens is not None:
            assert x.tokens == y.tokens, x.name
        if heads:
            assert Counter(zip(x.mention_keys(), x.heads.tolist(), strict=False)) == Counter(
                zip(y.mention_keys(), y.heads.tolist(), strict=False)
            )
