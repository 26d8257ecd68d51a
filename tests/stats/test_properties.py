"""Properties every comparison must have, on random corpora."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.stats.compare import compare

from .corpora import random_corpora


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n_docs=st.integers(2, 25), noises=st.tuples(st.floats(0, 0.6), st.floats(0, 0.6)))
def test_two_sided_tests_are_symmetric_and_valid(seed, n_docs, noises):
    """Swapping baseline and system negates every difference, so neither p-value may change."""
    key, (a, b) = random_corpora(seed, n_docs, list(noises))
    forward = compare(key, a, [b], resamples=100, rounds=200, seed=seed)
    backward = compare(key, b, [a], resamples=100, rounds=200, seed=seed)
    f, r = forward.systems[1].tests, backward.systems[1].tests
    for metric in forward.metrics:
        assert f.approximate_randomization[metric] == r.approximate_randomization[metric]
        assert f.paired_bootstrap[metric] == r.paired_bootstrap[metric]
        for p in (f.approximate_randomization[metric], f.paired_bootstrap[metric]):
            assert 1 / 201 <= p <= 1.0
        d, e = f.difference[metric], r.difference[metric]
        assert abs(d.estimate + e.estimate) < 1e-12
        assert abs(d.low + e.high) < 1e-12 and abs(d.high + e.low) < 1e-12
        assert forward.systems[0].confidence.intervals[metric] == backward.systems[1].confidence.intervals[metric]
