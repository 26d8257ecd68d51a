"""BLANC: the worked examples of Pradhan et al. 2014 and Luo et al. 2014 (its boundary cases and
the reference scorer's variant), with the papers' numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval import metrics

# Pradhan et al. 2014 (papers/002), section 4: key {a b c} {d e f g}, response {a b} {c d} {f g h i}.
KEY_002 = [["a", "b", "c"], ["d", "e", "f", "g"]]
RESPONSE_002 = [["a", "b"], ["c", "d"], ["f", "g", "h", "i"]]


def test_pradhan_2014_blanc() -> None:
    s = metrics.blanc(KEY_002, RESPONSE_002)
    assert (s.coref.recall_num, s.coref.recall_den, s.coref.precision_den) == (2, 9, 8)
    assert (s.noncoref.recall_num, s.noncoref.recall_den, s.noncoref.precision_den) == (8, 12, 20)
    # The paper's "F_c = 0.23" and "BLANC = 0.36" are truncated, as the reference scorer prints them.
    assert s.coref.f1 == pytest.approx(2 * (2 / 9) * (2 / 8) / (2 / 9 + 2 / 8))
    assert int(s.coref.f1 * 100) / 100 == 0.23 and s.noncoref.f1 == pytest.approx(0.5)
    assert s.f1 == pytest.approx((s.coref.f1 + 0.5) / 2) and int(s.f1 * 100) / 100 == 0.36


# Luo et al. 2014 (papers/000), section 4.2: four BLANC examples, with the paper's boundary cases.
@pytest.mark.parametrize(
    ("key", "response", "expected"),
    [
        ([["a", "b", "c"], ["d"]], [["b", "c"], ["d", "e"]], Fraction(17, 35)),  # example 1
        ([["a"]], [["b"]], Fraction(0)),  # example 2, boundary case 1: I(M_k = M_r) = 0
        ([["a"], ["b"], ["c"]], [["a"], ["b"], ["d"]], Fraction(1, 3)),  # example 3, boundary case 2
        ([["a", "b", "c"]], [["b", "c"]], Fraction(1, 2)),  # example 4, boundary case 3
    ],
)
def test_luo_2014_blanc_examples(key: list, response: list, expected: Fraction) -> None:
    assert metrics.blanc(key, response, variant="paper").f1 == pytest.approx(float(expected))


def test_luo_2014_example_1_components() -> None:
    s = metrics.blanc([["a", "b", "c"], ["d"]], [["b", "c"], ["d", "e"]], variant="paper")
    assert s.coref.recall == pytest.approx(1 / 3) and s.coref.precision == pytest.approx(1 / 2)
    assert s.noncoref.recall == pytest.approx(2 / 3) and s.noncoref.precision == pytest.approx(2 / 4)
    assert s.coref.f1 == pytest.approx(2 / 5) and s.noncoref.f1 == pytest.approx(4 / 7)


def test_luo_2014_boundary_case_1_identical_mentions_score_1() -> None:
    assert metrics.blanc([["a"]], [["a"]], variant="paper").f1 == 1.0


@pytest.mark.parametrize(
    ("key", "response", "reference", "paper"),
    [
        # Only the response has coreference links: the reference decides on the key's links (none), so
        # BLANC is the non-coreference F1 alone (0.8); the paper averages it with F_c = 0.
        ([["a"], ["b"], ["c"]], [["a", "b"], ["c"]], 0.8, 0.4),
        # No link at all on either side, same mentions: the reference gives 0, the paper I(M_k = M_r) = 1.
        ([["a"]], [["a"]], 0.0, 1.0),
        # Example 4 (no non-coreference links anywhere): both give F_c.
        ([["a", "b", "c"]], [["b", "c"]], 0.5, 0.5),
    ],
)
def test_blanc_variants_differ_only_at_boundaries(key: list, response: list, reference: float, paper: float) -> None:
    assert metrics.blanc(key, response).f1 == pytest.approx(reference)
    assert metrics.blanc(key, response, variant="paper").f1 == pytest.approx(paper)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=14), st.integers(0, 14))
def test_non_coreference_links_of_some_entities_given_the_rest_add_up_to_the_whole(
    items: list[tuple[int, int]], cut: int
) -> None:
    """BLANC's non-coreference links of a document (item form) equal those with an item in some
    of its entities, given the rest (:class:`Outside`), plus those within the rest, when no entity
    of one part holds an item found in the other."""
    from corefeval.core.items import Mention
    from corefeval.matching.item_lookups import assignments
    from corefeval.metrics.blanc import Outside, non_coreference_item_counts

    def entities(of: dict[int, int]) -> list[list[Mention]]:
        grouped: dict[int, list[Mention]] = {}
        for i, entity in sorted(of.items()):
            grouped.setdefault(entity, []).append(Mention(i, i))
        return list(grouped.values())

    # entity numbers of the second part are shifted on both sides: the parts share no entity
    key = entities({i: k + (0 if i < cut else 10) for i, (k, _) in enumerate(items)})
    response = entities({i: r + (0 if i < cut else 10) for i, (_, r) in enumerate(items) if r != 3})
    whole = non_coreference_item_counts(response, key, assignments(response), {})
    here_key, rest_key = [c for c in key if c[0].start < cut], [c for c in key if c[0].start >= cut]
    here_response = [c for c in response if c[0].start < cut]
    rest_response = [c for c in response if c[0].start >= cut]
    found = sum(1 for c in rest_key for m in c if m in assignments(rest_response))
    outside = Outside(found, sum(map(len, rest_key)), sum(map(len, rest_response)))
    counted = non_coreference_item_counts(here_response, here_key, assignments(here_response), {}, outside=outside)
    within = non_coreference_item_counts(rest_response, rest_key, assignments(rest_response), {})
    assert [a + b for a, b in zip(counted, within)] == pytest.approx(list(whole), abs=1e-9)
