"""The literal definitions (used where mention ids repeat) counted per chain equal enumerating them.

The oracle below is the definition as it reads, pair by pair and mention by mention; the metrics
count the same links per chain or per chain pair, in time linear in the mentions.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from corefeval import Evaluator
from corefeval.core.assignment import solve_dense
from corefeval.matching.alignment import align
from corefeval.metrics import build, clusters_to_documents
from corefeval.scoring.batch import document_rows


def _muc(key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
    chain_of = {i: k for k, chain in enumerate(key) for i in chain}
    correct = 0
    for chain in response:
        for pos, i in enumerate(chain):
            k = chain_of.get(i)
            if k is not None and any(chain_of.get(j) == k for j in chain[pos + 1 :]):
                correct += 1
    kl = sum(len(c) - 1 for c in key if c)
    rl = sum(len(c) - 1 for c in response if c)
    return float(correct), float(kl), float(correct), float(rl)


def _bcub(key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
    chain_of = {i: chain for chain in key for i in chain}
    rn = pn = 0.0
    for chain in response:
        for i in chain:
            k = chain_of.get(i)
            if k is None:
                continue
            members = set(k)
            c = sum(1 for j in chain if j in members)
            pn += c / len(chain)
            rn += c / len(k)
    return rn, float(sum(len(c) for c in key)), pn, float(sum(len(c) for c in response))


def _ceaf(entity: bool, key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
    key, response = [c for c in key if c], [c for c in response if c]
    ks = np.array([len(c) for c in key], dtype=float)
    rs = np.array([len(c) for c in response], dtype=float)
    best = 0.0
    if key and response:
        overlap = np.array([[sum(1 for i in k if i in set(r)) for r in response] for k in key], dtype=float)
        phi = 2.0 * overlap / (ks[:, None] + rs[None, :]) if entity else overlap
        best = solve_dense(phi)
    if entity:
        return best, float(np.count_nonzero(ks)), best, float(np.count_nonzero(rs))
    return best, float(ks.sum()), best, float(rs.sum())


def _blanc(key: list[list[int]], response: list[list[int]]) -> tuple[float, ...]:
    def links(chains: list[list[int]]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
        coref = {(min(a, b), max(a, b)) for c in chains for a, b in combinations(c, 2)}
        non = {(min(a, b), max(a, b)) for x, y in combinations([c for c in chains if c], 2) for a in x for b in y}
        return coref, non

    ck, nk = links(key)
    cr, nr = links(response)
    cc, nn = len(ck & cr), len(nk & nr)
    return (
        float(cc),
        float(len(ck)),
        float(cc),
        float(len(cr)),
        float(nn),
        float(len(nk)),
        float(nn),
        float(len(nr)),
        0.0,
    )


#: Chains that may hold an id twice, share it with another chain, or repeat it in the response.
chains = st.lists(st.lists(st.integers(0, 9), min_size=1, max_size=6), max_size=6)


@settings(max_examples=400, deadline=None)
@given(chains, chains)
@example(key=[[0, 0, 0]], response=[[0]])
@example(key=[[0, 1], [0, 1], [2]], response=[[0, 1, 2]])
@example(key=[[0, 1], [0], [1]], response=[[0], [1]])
def test_per_chain_counts_equal_the_enumerated_definitions(key: list[list[int]], response: list[list[int]]) -> None:
    """On ids as align() gives them, and on raw chains (BLANC's per-chain path needs align's
    guarantee, a key id at most once in the response, and enumerates otherwise)."""
    a = align(*clusters_to_documents(key, response))
    for kc, rc in ((a.key_chains(), a.response_chains()), (key, response)):
        assert build("muc").literal_counts(kc, rc) == _muc(kc, rc)
        assert build("bcub").literal_counts(kc, rc) == _bcub(kc, rc)  # same additions, same order
        assert build("blanc").literal_counts(kc, rc) == _blanc(kc, rc)
        for name, entity in (("ceafm", False), ("ceafe", True)):
            np.testing.assert_allclose(build(name).literal_counts(kc, rc), _ceaf(entity, kc, rc), rtol=1e-12)


def test_many_copies_of_one_span_are_counted_by_formula() -> None:
    """20,000 copies of one span (enumerating BLANC's links took 3.9 s for 4,000; the time is
    measured in benchmarks/, not here). Counts checked against the formulas: n copies in one key
    chain, once in the response."""
    n = 20_000
    ev = Evaluator(["muc", "bcub", "ceafe", "blanc"])
    ev.update([[(0, 0)] * n, [(1, 1)]], [[(0, 0)] * n, [(1, 1)]])
    counts = ev.result().corpus
    assert counts["muc"].recall_den == n - 1
    assert counts["blanc"].coref.recall_den == 1  # one distinct pair: the span with itself
    assert counts["blanc"].noncoref.recall_den == 1  # the span and (1, 1)


#: A document without repeated ids: each key mention's entity (a permutation of the mentions gives
#: the file order) and each response mention's entity, or -1 where the response lacks it; the
#: response may add mentions of its own.
documents = st.lists(
    st.tuples(
        st.lists(st.integers(0, 6), min_size=1, max_size=40),
        st.lists(st.integers(-1, 6), max_size=50),
        st.randoms(use_true_random=False),
    ),
    min_size=1,
    max_size=4,
)


def _chains(entities: list[int], order: list[int]) -> list[list[int]]:
    out: dict[int, list[int]] = {}
    for i in order:
        if i < len(entities) and entities[i] >= 0:
            out.setdefault(entities[i], []).append(i)
    return list(out.values())


@settings(max_examples=300, deadline=None)
@given(documents)
def test_vectorised_b_cubed_adds_as_the_reference_does(docs: list) -> None:  # type: ignore[type-arg]
    """Without repeated ids, the counting pass (all documents stacked, and each alone) adds B-cubed's
    numerators mention by mention in the reference's order: its literal definition, bit for bit."""
    pairs, expected = [], []
    for key_entities, response_entities, rng in docs:
        order = list(range(max(len(key_entities), len(response_entities))))
        rng.shuffle(order)
        key, response = _chains(key_entities, order), _chains(response_entities, order)
        pair = clusters_to_documents(key, response)
        a = align(*pair)
        assert not a.repeats
        pairs.append(pair)
        expected.append(_bcub(a.key_chains(), a.response_chains()))
    metric = build("bcub")
    assert document_rows(pairs, [metric]).tolist() == [list(e) for e in expected]
    for pair, e in zip(pairs, expected):
        assert tuple(metric.counts(align(*pair))) == e
