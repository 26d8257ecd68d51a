"""Kummerfeld & Klein operations: hand cases, and repairing every operation gives the key back."""

from __future__ import annotations

from errcases import doc
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.studies.errors import KK_TYPES
from corefeval.studies.errors.kk import operations
from corefeval.studies.errors.repair import repaired

KEY = doc([[(0, 0), (2, 2), (4, 4)], [(6, 6), (8, 8)]])


def ops(key, response):
    items, _ = operations(key, response)
    out = dict.fromkeys(KK_TYPES, 0)
    for it in items:
        out[it.type] += it.count
    return {k: v for k, v in out.items() if v}


def test_mention_in_the_wrong_chain_is_one_split_and_one_merge():
    assert ops(KEY, doc([[(0, 0), (2, 2)], [(4, 4), (6, 6), (8, 8)]])) == {"conflated_entities": 1, "divided_entity": 1}


def test_missing_and_extra_mentions_and_entities():
    assert ops(KEY, doc([[(0, 0), (2, 2)], [(6, 6), (8, 8), (9, 9)]])) == {"missing_mention": 1, "extra_mention": 1}
    assert ops(KEY, doc([[(0, 0), (2, 2), (4, 4)], [(10, 10), (12, 12)]])) == {"missing_entity": 1, "extra_entity": 1}


def test_span_error_and_mentions_affected():
    items, _ = operations(KEY, doc([[(0, 1), (2, 2), (4, 4)], [(6, 6), (8, 8)]]))
    assert [(it.type, it.mentions) for it in items] == [("span_error", 1)]
    items, _ = operations(KEY, doc([[(0, 0), (2, 2), (4, 4)]]))
    assert [(it.type, it.count, it.mentions) for it in items] == [("missing_entity", 1, 2)]


def test_a_split_chain_is_one_merge_whose_mentions_are_the_smaller_piece():
    key = doc([[(0, 0), (2, 2), (4, 4), (6, 6), (8, 8)]])
    items, _ = operations(key, doc([[(0, 0), (2, 2), (4, 4)], [(6, 6), (8, 8)]]))
    assert [(it.type, it.mentions) for it in items] == [("divided_entity", 2)]


spans = st.tuples(st.integers(0, 14), st.integers(0, 2)).map(lambda t: (t[0], min(t[0] + t[1], 14)))
partitions = st.lists(st.lists(spans, min_size=1, max_size=5), max_size=5)


def dedup(clusters):
    seen, out = set(), []
    for c in clusters:
        kept = []
        for s in c:
            if s not in seen:
                seen.add(s)
                kept.append(s)
        if kept:
            out.append(kept)
    return out


@settings(max_examples=300, deadline=None)
@given(partitions, partitions)
def test_applying_every_operation_turns_the_response_into_the_key(k, r):
    key, response = doc(dedup(k), 15), doc(dedup(r), 15)
    items, al = operations(key, response)
    fixed = repaired(response, al, [e for it in items for e in it.repair])
    assert sorted(map(sorted, fixed.clusters())) == sorted(map(sorted, key.clusters()))
    assert all(it.mentions >= it.count >= 1 for it in items)
