"""Head and partial matching on small documents: which pairs match, and one-to-one assignment."""

from __future__ import annotations

import numpy as np
import pytest

from corefeval.core.diagnostics import UsageError
from corefeval.core.model import Document, make_document
from corefeval.matching.head_and_partial import match_alignment
from corefeval.metrics import build


def with_heads(clusters: list[list[tuple[int, int]]], heads: list[int], n_tokens: int = 20) -> Document:
    d = make_document("d", clusters, n_tokens)
    return Document(d.name, d.starts, d.ends, d.entities, d.labels, d.n_tokens, heads=np.asarray(heads))


def matched(key: Document, response: Document, mode: str) -> float:
    counts = build("mentions").counts(match_alignment(key, response, mode))
    return counts[0]


KEY = with_heads([[(2, 6)]], [4])  # "the old man in black", head "man" at 4


@pytest.mark.parametrize(
    "span,head,partial,head_match",
    [
        ((2, 6), 4, 1, 1),  # exact
        ((4, 4), 4, 1, 1),  # the head alone
        ((3, 5), 4, 1, 1),  # inside, contains the head
        ((2, 3), 3, 0, 0),  # inside, misses the head
        ((1, 6), 4, 0, 1),  # sticks out of the key mention: not partial, same head
        ((4, 8), 5, 0, 0),  # other head, sticks out
    ],
)
def test_which_mentions_match(span: tuple[int, int], head: int, partial: int, head_match: int) -> None:
    response = with_heads([[span]], [head])
    assert matched(KEY, response, "partial") == partial
    assert matched(KEY, response, "head") == head_match
    assert matched(KEY, response, "exact") == (span == (2, 6))


def test_one_to_one_prefers_the_larger_overlap() -> None:
    response = with_heads([[(4, 4)], [(3, 6)]], [4, 4])
    a = match_alignment(KEY, response, "partial")
    assert a.n_matched == 1
    # the matched response mention is (3, 6): its entity (index 1) holds the key's mention id
    assert a.response_entity[a.response_id == 0].tolist() == [1]


def test_an_exact_twin_is_matched_first() -> None:
    key = with_heads([[(2, 6)], [(4, 4)]], [4, 4])
    response = with_heads([[(4, 4)], [(2, 6)]], [4, 4])
    a = match_alignment(key, response, "head")
    assert a.n_matched == 2
    muc = build("muc")
    assert muc.score(muc.counts(a)).f1 == 0.0  # two singletons each side, nothing to link
    assert build("mentions").counts(a)[0] == 2


def test_partial_needs_only_key_heads() -> None:
    response = make_document("d", [[(3, 5)]], 20)
    assert matched(KEY, response, "partial") == 1
    with pytest.raises(UsageError, match="needs mention heads"):
        match_alignment(KEY, response, "head")
    with pytest.raises(UsageError, match="needs mention heads"):
        match_alignment(response, KEY, "partial")
