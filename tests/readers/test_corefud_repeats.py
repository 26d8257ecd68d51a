"""Under the CorefUD rule a mention id may be in several chains of a side; every metric's counts
equal the CorefUD scorer's definitions (``scorer/eval/evaluator.py``), written here pair by pair,
with each side finding an id in the other side's last chain holding it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from corefeval.core.model import make_document
from corefeval.matching.alignment import align
from corefeval.metrics.bcubed import BCubed
from corefeval.metrics.blanc import BLANC
from corefeval.metrics.ceaf import CEAFe, CEAFm
from corefeval.metrics.lea import LEA
from corefeval.metrics.muc import MUC

Chains = list[list[int]]

# chains of distinct ids (a repeat within one entity is read once), an id possibly in several chains
chains = st.lists(st.lists(st.integers(0, 7), min_size=1, max_size=5, unique=True), max_size=5)


def last(other: Chains) -> dict[int, int]:
    return {i: k for k, chain in enumerate(other) for i in chain}


def muc(chains: Chains, other: Chains) -> tuple[float, float]:
    home, tp, p = last(other), 0, 0
    for c in chains:
        p += len(c) - 1
        linked = {home[m] for m in c if m in home}
        tp += len(c) - sum(1 for m in c if m not in home) - len(linked)
    return float(tp), float(p)


def bcubed(chains: Chains, other: Chains) -> tuple[float, float]:
    home, num = last(other), 0.0
    for c in chains:
        counts: dict[int, int] = {}
        for m in c:
            if m in home:
                counts[home[m]] = counts.get(home[m], 0) + 1
        num += sum(n * n for n in counts.values()) / len(c)
    return num, float(sum(len(c) for c in chains))


def lea(chains: Chains, other: Chains) -> tuple[float, float]:
    home, num = last(other), 0.0
    for c in chains:
        if len(c) == 1:
            num += 1.0 if c[0] in home and len(other[home[c[0]]]) == 1 else 0.0
            continue
        common = sum(1 for i, m in enumerate(c) for m2 in c[i + 1 :] if m in home and home.get(m2) == home[m])
        num += len(c) * common / (len(c) * (len(c) - 1) / 2)
    return num, float(sum(len(c) for c in chains))


def ceaf(key: Chains, response: Chains, entity: bool) -> tuple[float, float, float, float]:
    """``ceafe``/``ceafm``: the best one-to-one sum of phi4/phi3, a key chain's overlap with a
    response chain being how many of its mentions the response chain holds."""
    phi = np.zeros((len(key), len(response)))
    for i, k in enumerate(key):
        for j, r in enumerate(response):
            overlap = sum(1 for m in k if m in r)
            phi[i, j] = 2 * overlap / (len(k) + len(r)) if entity else overlap
    rows, cols = linear_sum_assignment(-phi) if phi.size else ([], [])
    best = float(phi[rows, cols].sum()) if phi.size else 0.0
    if entity:
        return best, float(len(key)), best, float(len(response))
    return best, float(sum(map(len, key))), best, float(sum(map(len, response)))


def blanc(key: Chains, response: Chains) -> tuple[float, ...]:
    home = last(response)
    coref = sum(
        1 for c in key for i, m in enumerate(c) for m2 in c[i + 1 :] if m in home and m2 in home and home[m] == home[m2]
    )
    non = sum(
        1
        for a, c in enumerate(key)
        for m in c
        for c2 in key[a + 1 :]
        for m2 in c2
        if m in home and m2 in home and home[m] != home[m2]
    )
    nk, nr = sum(len(c) for c in key), sum(len(c) for c in response)
    ck, cr = sum(len(c) * (len(c) - 1) / 2 for c in key), sum(len(c) * (len(c) - 1) / 2 for c in response)
    return (coref, ck, coref, cr, non, nk * (nk - 1) / 2 - ck, non, nr * (nr - 1) / 2 - cr)


@settings(max_examples=300, deadline=None)
@given(key=chains, response=chains)
def test_counts_are_the_corefud_scorers_definitions(key: Chains, response: Chains) -> None:
    assert MUC().last_chain_counts(key, response) == (*muc(key, response), *muc(response, key))
    b = BCubed().last_chain_counts(key, response)
    expected = (*bcubed(key, response), *bcubed(response, key))
    assert all(abs(x - y) < 1e-9 for x, y in zip(b, expected))
    assert BLANC().last_chain_counts(key, response)[:8] == blanc(key, response)
    for metric, entity in ((CEAFe(), True), (CEAFm(), False)):
        got, expected = metric.last_chain_counts(key, response), ceaf(key, response, entity)
        assert all(abs(x - y) < 1e-9 for x, y in zip(got, expected))
    lea_counts = LEA().last_chain_counts(key, response)
    assert all(abs(x - y) < 1e-9 for x, y in zip(lea_counts, (*lea(key, response), *lea(response, key))))


def test_the_rule_decides_what_becomes_of_a_response_span_in_two_entities() -> None:
    key = make_document("d", [[(0, 0), (1, 1)]])
    response = make_document("d", [[(0, 0), (1, 1)], [(0, 0), (2, 2)]])
    reference, corefud = align(key, response), align(key, response, "corefud")
    assert reference.response_chains() == [[0, 1], [2]] and reference.dropped_rows.tolist() == [2]
    assert not reference.last_chain and not reference.repeats
    assert corefud.response_chains() == [[0, 1], [0, 2]] and corefud.shared_rows.tolist() == [2]
    assert corefud.last_chain and corefud.repeats
    assert MUC().counts(reference) == (1.0, 1.0, 1.0, 1.0)
    assert MUC().counts(corefud) == (0.0, 1.0, 1.0, 2.0)
