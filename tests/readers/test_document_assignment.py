"""The one assignment over a document's unaligned mentions (:func:`corefeval.matching.head_and_partial.document_pairs`):
the CorefUD scorer's table, order and solver, the shortcut for candidates that compete with none,
and the group-by-group fallback for documents too large for one table."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import corefeval.matching.head_and_partial as matching
from corefeval.core.assignment import linear_sum_assignment
from corefeval.matching.head_and_partial import assign, document_pairs


def _order(row: int) -> tuple[tuple[int, int], tuple[int, int], int]:
    return (row, 0), (row, 0), 0


@st.composite
def candidates(draw: st.DrawFn) -> tuple[list[int], list[int], list[tuple[int, int, float]]]:
    """Key rows, response rows and candidate pairs with weights from a few values (so that ties happen)."""
    keys = list(range(draw(st.integers(1, 7))))
    responses = list(range(draw(st.integers(1, 7))))
    cells = draw(st.sets(st.tuples(st.sampled_from(keys), st.sampled_from(responses)), max_size=12))
    weights = st.sampled_from([0.25, 0.5, 1 / 3, 2 / 3, 1.0])
    return keys, responses, [(k, r, draw(weights)) for k, r in sorted(cells)]


def _total(pairs: list[tuple[int, int]], weights: dict[tuple[int, int], float]) -> float:
    return sum(weights[p] for p in pairs)


@settings(max_examples=300, deadline=None)
@given(candidates())
def test_the_document_table_is_solved_as_one_assignment(case: tuple[list[int], list[int], list]) -> None:
    keys, responses, pairs = case
    chosen, large = document_pairs(pairs, keys, responses, _order, _order)
    assert not large
    table = np.zeros((len(keys), len(responses)))
    for k, r, w in pairs:
        table[k, r] = w
    rows, cols = linear_sum_assignment(-table)
    expected = [(int(i), int(j)) for i, j in zip(rows, cols) if table[i, j] > 0]
    assert sorted(chosen) == sorted(expected)  # the solver's own pairs, ties included
    weights = {(k, r): w for k, r, w in pairs}
    assert abs(_total(chosen, weights) - _total(assign(pairs), weights)) < 1e-9  # a maximum


def test_a_mention_without_candidate_decides_a_tie() -> None:
    # key 0 has no candidate; keys 1 and 2 tie for response 1; the one table's solver breaks the
    # tie otherwise than solving the group {1, 2} x {1, 2} alone would
    pairs = [(1, 1, 0.5), (2, 1, 0.5), (2, 2, 0.5)]
    alone = assign(pairs)
    chosen, _ = document_pairs(pairs, [0, 1, 2], [0, 1, 2], _order, _order)
    table = np.zeros((3, 3))
    for k, r, w in pairs:
        table[k, r] = w
    rows, cols = linear_sum_assignment(-table)
    assert sorted(chosen) == sorted((int(i), int(j)) for i, j in zip(rows, cols) if table[i, j] > 0)
    assert len(alone) == len(chosen) == 2


def test_a_document_too_large_for_one_table_is_solved_by_groups(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pairs = [(0, 0, 1.0), (1, 0, 1.0), (1, 1, 0.5)]
    monkeypatch.setattr(matching, "MAX_DOCUMENT_CELLS", 3)
    chosen, large = document_pairs(pairs, [0, 1], [0, 1], _order, _order)
    assert large and sorted(chosen) == sorted(assign(pairs))


def test_a_document_solved_by_groups_says_so(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import corefeval
    from tests.readers.test_corefud_peer import LATE_TIE_KEY, LATE_TIE_RESPONSE

    key, response = tmp_path / "k.conllu", tmp_path / "r.conllu"
    key.write_text(LATE_TIE_KEY, encoding="utf-8")
    response.write_text(LATE_TIE_RESPONSE, encoding="utf-8")
    note = "each group of candidates is matched on its own"
    assert not [w for w in corefeval.score(str(key), str(response), ["muc"], match="head").warnings if note in str(w)]
    monkeypatch.setattr(matching, "MAX_DOCUMENT_CELLS", 1)
    warned = [str(w) for w in corefeval.score(str(key), str(response), ["muc"], match="head").warnings]
    assert any(note in w and "document 'd'" in w for w in warned)
