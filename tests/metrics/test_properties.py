"""Invariants every metric must satisfy, checked on random clusterings (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from corefeval import metrics
from corefeval.core.model import Corpus, make_document
from corefeval.core.registry import ALL, COUNTED
from corefeval.matching.alignment import align
from corefeval.metrics import build, clusters_to_documents
from corefeval.scoring.pipeline import score


@st.composite
def clusterings(draw: st.DrawFn, universe: int = 14, max_entities: int = 5) -> list[list[int]]:
    """A partition of a random subset of mentions 0..universe-1 (no mention twice)."""
    assignment = draw(st.dictionaries(st.integers(0, universe - 1), st.integers(0, max_entities - 1)))
    clusters: dict[int, list[int]] = {}
    for mention, entity in assignment.items():
        clusters.setdefault(entity, []).append(mention)
    return list(clusters.values())


def _links(clusters: list[list[int]]) -> int:
    return sum(len(c) - 1 for c in clusters)


@settings(max_examples=200, deadline=None)
@given(clusterings())
def test_perfect_response_scores_one(key: list[list[int]]) -> None:
    """Exceptions, by definition: nothing to score (empty key) gives 0 everywhere; MUC has no
    links to find when every key entity is a singleton; reference BLANC has no link at all with
    one mention; hence CoNLL (which averages MUC) is below 1 when MUC is 0; the zero score has no
    zero to find, the Universal Anaphora layer measures no layer."""
    n = sum(len(c) for c in key)
    for name in ALL:
        s = metrics.evaluate(name, key, key)
        exempt = (
            n == 0
            or (name in ("muc", "ua-muc", "conll") and _links(key) == 0)
            or (name in ("blanc", "ua-blanc") and n == 1)
            or name == "zero"  # clusters of ids have no empty nodes, hence no zero to find
            or name in ("non-referring", "bridging-ar", "bridging-fbm", "bridging-fbe")  # nor UA layers
        )
        if not exempt:
            assert s.f1 == pytest.approx(1.0), name


@settings(max_examples=300, deadline=None)
@given(clusterings(), clusterings())
def test_scores_lie_in_unit_interval(key: list[list[int]], response: list[list[int]]) -> None:
    for name in ALL:
        for variant in ("reference", "paper") if name == "blanc" else ("reference",):
            s = metrics.evaluate(name, key, response, blanc=variant)
            for v in (s.recall, s.precision, s.f1):
                assert -1e-12 <= v <= 1 + 1e-12, name


@settings(max_examples=300, deadline=None)
@given(clusterings(), clusterings())
def test_swapping_key_and_response_swaps_recall_and_precision(key: list[list[int]], response: list[list[int]]) -> None:
    """For BLANC this holds for the paper's variant; the reference decides its boundary cases on
    the key's links only, so it is symmetric only when both sides have both kinds of links."""
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        a, b = metrics.evaluate(name, key, response), metrics.evaluate(name, response, key)
        assert a.recall == pytest.approx(b.precision) and a.precision == pytest.approx(b.recall), name
        assert a.f1 == pytest.approx(b.f1)
    a = metrics.blanc(key, response, variant="paper")
    b = metrics.blanc(response, key, variant="paper")
    assert a.recall == pytest.approx(b.precision) and a.f1 == pytest.approx(b.f1)


@settings(max_examples=200, deadline=None)
@given(clusterings(), clusterings(), st.randoms(use_true_random=False))
def test_renaming_and_reordering_change_nothing(key: list[list[int]], response: list[list[int]], rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)

    def shuffled(clusters: list[list[int]]) -> list[list[str]]:
        out = [[f"m{m}" for m in c] for c in clusters]
        for c in out:
            rnd.shuffle(c)
        rnd.shuffle(out)
        return out

    for name in ALL:
        for variant in ("reference", "paper") if name == "blanc" else ("reference",):
            a = metrics.evaluate(
                name, [[f"m{m}" for m in c] for c in key], [[f"m{m}" for m in c] for c in response], blanc=variant
            )
            b = metrics.evaluate(name, shuffled(key), shuffled(response), blanc=variant)
            assert a.recall == pytest.approx(b.recall) and a.precision == pytest.approx(b.precision), name
            assert a.f1 == pytest.approx(b.f1), name


@settings(max_examples=300, deadline=None)
@given(clusterings(universe=20, max_entities=7), clusterings(universe=20, max_entities=7))
def test_contingency_counts_equal_literal_definitions(key: list[list[int]], response: list[list[int]]) -> None:
    """Differential test: the vectorised counts (a stack of one document's cells) equal the
    reference's literal rules, for every registered metric."""
    kd, rd = clusters_to_documents(key, response)
    a = align(kd, rd)
    assert not a.repeats
    for name in COUNTED:
        m = build(name)
        fast = m.counts(a, (kd, rd))
        slow = m.literal_counts(a.key_chains(), a.response_chains())
        assert np.allclose(fast[:8], slow[:8]), (name, fast, slow)


#: Entities that may hold a mention twice, or share it with another entity (as files can).
chains_with_repeats = st.lists(st.lists(st.integers(0, 7), min_size=1, max_size=5), max_size=5)


@settings(max_examples=300, deadline=None)
@given(chains_with_repeats, chains_with_repeats)
@example(key=[[0, 1], [0]], response=[[0, 1]])
@example(key=[[0], [0, 1]], response=[[0]])
def test_lea_repeated_counts_equal_literal_definition_with_repeated_mentions(
    key: list[list[int]], response: list[list[int]]
) -> None:
    """Differential test where ids repeat: a mention in two key entities, twice in one entity,
    repeated in the response; LEA scores every document by its tables."""
    m = build("lea")
    a = align(*clusters_to_documents(key, response))
    fast = m.repeated_counts(a)
    assert m.counts(a) == fast
    assert np.allclose(fast, m.literal_counts(a.key_chains(), a.response_chains())), (fast, key, response)


# (key, response, counts) printed by the reference's LEA-scorer branch for mention 0 in two key
# entities: for precision it belongs to the last key entity that holds it, so entity order matters.
LEA_BRANCH_EXAMPLES = [
    ([[0, 1], [0]], [[0, 1]], (2, 3, 0, 2)),
    ([[0], [0, 1]], [[0, 1]], (2, 3, 2, 2)),
    ([[0, 1], [0]], [[0]], (1, 3, 1, 1)),
    ([[0], [0, 1]], [[0]], (1, 3, 0, 1)),
]


@pytest.mark.parametrize(("key", "response", "want"), LEA_BRANCH_EXAMPLES)
def test_lea_of_a_mention_in_two_key_entities_follows_the_lea_scorer_branch(
    key: list[list[int]], response: list[list[int]], want: tuple[int, ...]
) -> None:
    m = build("lea")
    a = align(*clusters_to_documents(key, response))
    assert m.counts(a) == want
    assert m.literal_counts(a.key_chains(), a.response_chains()) == want


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(clusterings(), clusterings()), min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_corpus_score_is_ratio_of_summed_counts_and_ignores_document_order(
    pairs: list[tuple[list[list[int]], list[list[int]]]], rnd: object
) -> None:
    import random

    assert isinstance(rnd, random.Random)
    docs = [
        (
            make_document(f"d{i}", [[(m, m) for m in c] for c in k], 20),
            make_document(f"d{i}", [[(m, m) for m in c] for c in r], 20),
        )
        for i, (k, r) in enumerate(pairs)
    ]
    result = score(Corpus("k", [k for k, _ in docs]), Corpus("r", [r for _, r in docs]))
    for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        cols = result.counts[:, result.columns[name]]
        rn, rd, pn, pd = cols.sum(axis=0)
        got = result.corpus[name]
        assert got.recall == pytest.approx(rn / rd if rd else 0.0)
        assert got.precision == pytest.approx(pn / pd if pd else 0.0)
    order = list(range(len(docs)))
    rnd.shuffle(order)
    again = score(Corpus("k", [docs[i][0] for i in order]), Corpus("r", [docs[i][1] for i in reversed(order)]))
    for name, s in result.corpus.items():
        assert again.corpus[name].f1 == pytest.approx(s.f1), name


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 16), st.integers(1, 16), st.randoms(use_true_random=False))
def test_small_assignment_solver_equals_scipy(n: int, m: int, rnd: object) -> None:
    """CEAF's in-house solver (used for small components, to avoid importing scipy) is optimal."""
    import random

    from scipy.optimize import linear_sum_assignment

    from corefeval.core.assignment import solve_dense

    assert isinstance(rnd, random.Random)
    weights = np.array(
        [[rnd.choice([0.0, rnd.random(), float(rnd.randint(0, 5))]) for _ in range(m)] for _ in range(n)]
    )
    r, c = linear_sum_assignment(weights, maximize=True)
    assert solve_dense(weights) == pytest.approx(float(weights[r, c].sum()), abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 40), st.integers(2, 40), st.randoms(use_true_random=False))
def test_sparse_assignment_solver_equals_dense(n: int, m: int, rnd: object) -> None:
    """The memory-linear solver used for very large components gives the dense optimum."""
    import random

    from corefeval.core.assignment import solve_dense, solve_sparse

    assert isinstance(rnd, random.Random)
    cells = {
        (rnd.randrange(n), rnd.randrange(m)): rnd.choice([rnd.random(), float(rnd.randint(1, 4))])
        for _ in range(rnd.randint(1, n * m))
    }
    r = np.array([k[0] for k in cells])
    c = np.array([k[1] for k in cells])
    w = np.array(list(cells.values()))
    dense = np.zeros((n, m))
    dense[r, c] = w
    assert solve_sparse(r, c, w, (n, m)) == pytest.approx(solve_dense(dense), abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), unique=True, max_size=40))
def test_component_labels_are_the_roots_of_a_plain_union_find(cells: list[tuple[int, int]]) -> None:
    """The union-find's roots decide the order in which CEAF adds its components: they are those
    of the textbook union-find (no path shortening; a row's root linked under its column's root)."""
    from corefeval.core.assignment import component_labels

    cells.sort()
    rows = np.array([r for r, _ in cells], dtype=np.int64)
    cols = np.array([c for _, c in cells], dtype=np.int64)
    parent = list(range(13 + 13))

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for r, c in cells:
        a, b = root(r), root(13 + c)
        if a != b:
            parent[a] = b
    assert component_labels(rows, cols, 13).tolist() == [root(r) for r, _ in cells]
