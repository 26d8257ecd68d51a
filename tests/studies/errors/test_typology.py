"""The six-type classifier on small hand-made cases, one rule at a time."""

from __future__ import annotations

import json

import pytest
from errcases import doc

from corefeval.studies.errors import TYPES, classify
from corefeval.studies.errors.repair import repaired

A = [(0, 0), (2, 2), (4, 4)]
B = [(6, 6), (8, 8)]
KEY = doc([A, B])


def counts(key, response, layer=None):
    items, _ = classify(key, response, layer)
    out = dict.fromkeys(TYPES, 0)
    for it in items:
        out[it.type] += it.count
    return out


def only(**kw):
    out = dict.fromkeys(TYPES, 0)
    out.update(kw)
    return out


def test_identical_response_has_no_error():
    assert counts(KEY, KEY) == only()


@pytest.mark.parametrize(
    "response, expected",
    [
        ([[(0, 1), (2, 2), (4, 4)], B], only(border=1)),
        ([[(0, 0), (2, 2)], [(4, 4), *B]], only(type=1)),
        ([[(0, 0), (2, 2), (3, 3), (4, 4)], B], only(noise=1)),
        ([[(0, 0), (2, 2)], B], only(silence=1)),
        ([A, B, [(10, 10), (12, 12)]], only(irrelevant=1)),
        ([A, B, [(10, 11)]], only(irrelevant=1)),
        ([A], only(absence=1)),
    ],
)
def test_one_error_of_each_type(response, expected):
    assert counts(KEY, doc(response)) == expected


def test_lone_survivor_in_a_singleton_is_silence_not_absence():
    assert counts(KEY, doc([A, [(6, 6)]])) == only(silence=1)


def test_lone_survivor_with_a_spurious_companion_is_absence_and_irrelevant():
    assert counts(KEY, doc([A, [(5, 5), (8, 8)]])) == only(absence=1, irrelevant=1)


def test_mentions_moved_to_a_new_antecedent_are_type_errors_without_noise():
    key = doc([[(0, 0), (2, 2), (4, 4), (6, 6)], [(10, 10), (12, 12)]])
    response = doc([[(0, 0), (2, 2)], [(3, 3), (4, 4), (6, 6)], [(10, 10), (12, 12)]])
    assert counts(key, response) == only(type=2)


def test_replaced_antecedent_makes_each_remaining_mention_a_type_error():
    assert counts(KEY, doc([[(1, 1), (2, 2), (4, 4)], B])) == only(type=2)


def test_spurious_mention_before_the_antecedent_is_an_irrelevant_construction():
    key = doc([[(2, 2), (4, 4), (6, 6)]])
    assert counts(key, doc([[(0, 0), (2, 2), (4, 4), (6, 6)]])) == only(irrelevant=1)


def test_split_off_fragment_is_irrelevant_and_a_lone_fragment_is_not_counted():
    key = doc([[(0, 0), (2, 2), (4, 4), (6, 6)]])
    assert counts(key, doc([[(0, 0), (2, 2)], [(4, 4), (6, 6)]])) == only(irrelevant=1)
    assert counts(key, doc([[(0, 0), (2, 2), (4, 4)], [(6, 6)]])) == only()


def test_mixed_chain_of_two_surviving_chains_is_irrelevant():
    key = doc([[(0, 0), (2, 2), (4, 4)], [(6, 6), (8, 8), (10, 10)]])
    response = doc([[(0, 0), (2, 2)], [(6, 6), (8, 8)], [(4, 4), (10, 10)]])
    assert counts(key, response) == only(irrelevant=1)


def test_singleton_layer_tells_a_wrong_chain_from_a_non_mention():
    response = doc([[(0, 0), (2, 2), (3, 3), (4, 4)], B])
    assert counts(KEY, response) == only(noise=1)
    assert counts(KEY, response, layer={(3, 3)}) == only(type=1)
    assert counts(KEY, response, layer=set()) == only(noise=1)


def test_key_singleton_put_into_a_chain_is_a_type_error():
    key = doc([A, B, [(3, 3)]])
    assert counts(key, doc([[(0, 0), (2, 2), (3, 3), (4, 4)], B])) == only(type=1)


def test_with_a_layer_non_mentions_of_a_new_chain_are_also_noise():
    response = doc([A, B, [(10, 10), (12, 12)]])
    assert counts(KEY, response, layer={(10, 10)}) == only(irrelevant=1, noise=1)
    assert counts(KEY, doc([A, B, [(10, 10)]]), layer=set()) == only(irrelevant=1)


def test_border_pairs_are_one_to_one_by_largest_overlap():
    key = doc([[(0, 3), (6, 6)], [(2, 5), (8, 8)]])
    response = doc([[(0, 2), (6, 6)], [(3, 5), (8, 8)]])
    items, al = classify(key, response)
    assert [it.type for it in items] == ["border", "border"]
    assert {it.response_spans[0]: it.key_spans[0] for it in items} == {(0, 2): (0, 3), (3, 5): (2, 5)}


def test_items_say_where_and_why_and_serialise():
    items, _ = classify(KEY, doc([[(0, 0), (2, 2)], B]))
    (item,) = items
    record = json.loads(json.dumps(item.to_dict()))
    assert record["type"] == "silence" and record["rule"] == "missing mention"
    assert record["key_spans"] == [[4, 4]] and record["key_chain"] == "0" and record["document"] == "d"
    assert "w4" in record["explanation"] or "4-4" in record["explanation"]


@pytest.mark.parametrize(
    "response",
    [
        [[(0, 1), (2, 2), (4, 4)], B],
        [[(0, 0), (2, 2)], [(4, 4), *B]],
        [[(0, 0), (2, 2), (3, 3), (4, 4)], B],
        [[(0, 0), (2, 2)], B],
        [A, B, [(10, 10), (12, 12)]],
        [A],
        [[(1, 1), (2, 2), (4, 4)], B],
    ],
)
def test_repairing_the_items_gives_back_the_key(response):
    r = doc(response)
    items, al = classify(KEY, r)
    fixed = repaired(r, al, [e for it in items for e in it.repair])
    assert sorted(map(sorted, fixed.clusters())) == sorted(map(sorted, KEY.clusters()))


def test_a_chain_broken_into_singletons_is_one_absence():
    assert counts(KEY, doc([A, [(6, 6)], [(8, 8)]])) == only(absence=1)


def test_every_mention_counts_the_mentions_of_absent_and_new_chains():
    response = doc([[(0, 0), (2, 2), (4, 4)], [(10, 10), (12, 12)]])
    assert counts(KEY, response) == only(absence=1, irrelevant=1)
    items, _ = classify(KEY, response, every_mention=True)
    assert sorted(it.type for it in items) == ["absence", "irrelevant", "noise", "noise", "silence", "silence"]
