"""A document with split antecedents counted in two parts (the entities joined to a split antecedent
by the literal definitions, the others in the vectorised pass) has the literal definitions' counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.anaphora import ua_sides
from corefeval.anaphora.ua_sides import Pair, Side, UASettings
from corefeval.core.items import Mention, Split
from corefeval.matching.item_lookups import assignments
from corefeval.metrics.blanc import Outside, non_coreference_item_counts
from corefeval.metrics.ua import scores as ua_scores
from corefeval.metrics.ua.parts import split_parts
from corefeval.metrics.ua_identity import COLUMNS, identity_rows
from corefeval.readers.ua import read_ua

from ...anaphora.generator import pair


def _paired(seed: int, distinct: bool, singletons: bool) -> list[Pair]:
    key, response = pair(seed, 10, distinct=distinct)
    options = UASettings(keep_singletons=singletons)
    return ua_sides.pairs(read_ua("k", key).anaphora, read_ua("r", response).anaphora, options)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans())
def test_documents_cut_in_two_have_the_literal_counts(seed: int, distinct: bool, singletons: bool) -> None:
    paired = _paired(seed, distinct, singletons)
    rows, counted = identity_rows(paired, min_spans=False)
    for i, p in enumerate(paired):
        literal = ua_scores.document_counts(p)
        for name, at in COLUMNS.items():
            assert rows[i, at : at + 4].tolist() == pytest.approx(literal[name].tolist(), rel=1e-12, abs=1e-12), name
        if i in counted:  # split antecedents' own counts, non-referring markables and bridging: the whole's
            for name, counts in literal.items():
                assert counted[i][name].tolist() == pytest.approx(counts.tolist(), rel=1e-12, abs=1e-12), name


def test_generated_documents_are_cut_with_entities_on_both_sides() -> None:
    """The test above reaches documents whose two parts both hold entities."""
    cut = [split_parts(p) for seed in range(12) for p in _paired(seed, False, True)]
    both = [c for c in cut if c is not None and c.split.key.clusters and c.plain.key.clusters]
    assert len(both) >= 10


def test_the_part_with_split_antecedents_holds_every_entity_joined_to_one() -> None:
    """A key entity with a split antecedent, the response entity sharing a mention with it and the
    key entity sharing another mention with that one form the first part; the rest the second."""
    a, b, c, d, e = (Mention(i, i) for i in range(5))
    plural = [a, Split({(d,), (e,)})]
    key = [plural, [b, c], [d], [e]]
    response = [[a, b], [c], [d, e]]
    parts = split_parts(Pair("doc", Side(key, [], {}), Side(response, [], {})))
    assert parts is not None
    assert parts.split.key.clusters == [plural, [b, c]] and parts.split.response.clusters == [[a, b], [c]]
    assert parts.plain.key.clusters == [[d], [e]] and parts.plain.response.clusters == [[d, e]]
    assert parts.outside == Outside(found=2, key=2, response=2)


def test_a_span_in_two_entities_of_one_side_leaves_the_document_whole() -> None:
    a, b = Mention(0, 0), Mention(1, 1)
    key = [[a, Split({(b,)})], [b], [Mention(0, 0)]]
    assert split_parts(Pair("doc", Side(key, [], {}), Side([[a, b]], [], {}))) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=14), st.integers(0, 14))
def test_non_coreference_links_of_a_part_given_the_rest_add_up_to_the_whole(
    items: list[tuple[int, int]], cut: int
) -> None:
    """BLANC's non-coreference links of a document equal those with an item in the first entities,
    given the rest (:class:`Outside`), plus those within the rest, when no entity of one part holds
    an item found in the other."""
    key_of = {i: k for i, (k, _) in enumerate(items)}
    response_of = {i: r for i, (_, r) in enumerate(items)}
    first = {i for i in key_of if i < cut}
    # the parts' entities are disjoint: entity numbers of the second part are shifted on both sides
    key = _entities({i: k + (0 if i in first else 10) for i, k in key_of.items()})
    response = _entities({i: r + (0 if i in first else 10) for i, r in response_of.items() if r != 3})
    whole = non_coreference_item_counts(response, key, assignments(response), {})
    parts = [[c for c in side if c[0].start < cut] for side in (key, response)]
    rest = [[c for c in side if c[0].start >= cut] for side in (key, response)]
    found = sum(1 for c in rest[0] for m in c if m in assignments(rest[1]))
    outside = Outside(found, sum(map(len, rest[0])), sum(map(len, rest[1])))
    here = non_coreference_item_counts(parts[1], parts[0], assignments(parts[1]), {}, outside=outside)
    there = non_coreference_item_counts(rest[1], rest[0], assignments(rest[1]), {})
    assert [a + b for a, b in zip(here, there)] == pytest.approx(list(whole), abs=1e-9)


def _entities(of: dict[int, int]) -> list[list[Mention]]:
    """Items (one-word mentions, by position) grouped by entity number, in order of first item."""
    grouped: dict[int, list[Mention]] = {}
    for i, entity in sorted(of.items()):
        grouped.setdefault(entity, []).append(Mention(i, i))
    return list(grouped.values())
