"""Cases where the answer is known: identical systems, systems differing on chosen documents."""

from __future__ import annotations

import pytest

from corefeval.core.model import Corpus
from corefeval.scoring.pipeline import score
from corefeval.stats import confidence_intervals
from corefeval.stats.compare import compare

from .corpora import random_corpora, systems_differing_on


def test_identical_systems_give_p_one_and_zero_width_difference():
    key, (a,) = random_corpora(11, 30, [0.3])
    c = compare(key, a, [a], resamples=300, rounds=500)
    tests = c.systems[1].tests
    for metric in c.metrics:
        assert tests.paired_bootstrap[metric] == 1.0
        assert tests.approximate_randomization[metric] == 1.0
        d = tests.difference[metric]
        assert (d.estimate, d.low, d.high, d.half_width) == (0.0, 0.0, 0.0, 0.0)
        assert c.systems[0].confidence.intervals[metric] == c.systems[1].confidence.intervals[metric]


def test_perfect_system_interval_has_width_zero():
    key, _ = random_corpora(11, 30, [0.3])
    ci = confidence_intervals(score(key, key), resamples=200)
    for metric, fields in ci.intervals.items():
        assert fields["f1"].low == fields["f1"].high == fields["f1"].estimate == 1.0, metric
        assert fields["f1"].half_width == 0.0


def test_one_differing_document_cannot_be_significant():
    """Swapping the one differing document negates the difference exactly: every round is as extreme.

    In the bootstrap, the difference grows with how often that document is drawn (0, 1, 2, ... times,
    about Poisson(1)); draws of it twice or more (26 %) are at least as far from the centre as the
    observed difference, so p cannot be small.
    """
    key, base, system = systems_differing_on(30, {4})
    c = compare(key, base, [system], resamples=2000, rounds=3000)
    tests = c.systems[1].tests
    assert c.systems[1].result.corpus["muc"].f1 > c.systems[0].result.corpus["muc"].f1
    for metric in ("muc", "bcub", "ceafe", "conll", "lea", "blanc"):
        assert tests.approximate_randomization[metric] == 1.0, metric
        assert tests.paired_bootstrap[metric] > 0.2, metric
    assert tests.approximate_randomization["mentions"] == tests.paired_bootstrap["mentions"] == 1.0


@pytest.mark.parametrize("k", [2, 3, 5])
def test_randomization_p_is_two_to_the_one_minus_k(k):
    """k identical differing documents: only 'swap none' and 'swap all' are as extreme, p = 2 / 2^k."""
    key, base, system = systems_differing_on(25, set(range(3, 3 + k)))
    rounds = 20000
    c = compare(key, base, [system], resamples=10, rounds=rounds, seed=k)
    expected = 2 / 2**k
    tolerance = 4 * (expected * (1 - expected) / rounds) ** 0.5 + 1 / rounds
    for metric in ("muc", "bcub", "ceafe", "conll"):
        assert c.systems[1].tests.approximate_randomization[metric] == pytest.approx(expected, abs=tolerance)


def test_system_better_on_every_document():
    """Every resample sees the same difference: the centred bootstrap finds nothing as extreme."""
    key, base, system = systems_differing_on(24, set(range(24)))
    resamples, rounds = 500, 4000
    c = compare(key, base, [system], resamples=resamples, rounds=rounds)
    reverse = compare(key, system, [base], resamples=resamples, rounds=rounds)
    for metric in ("muc", "bcub", "ceafe", "conll", "lea"):
        assert c.systems[1].tests.paired_bootstrap[metric] == 1 / (resamples + 1)
        assert c.systems[1].tests.approximate_randomization[metric] <= 2 / (rounds + 1)
        assert c.systems[1].tests.wins[metric] == 1.0
        assert reverse.systems[1].tests.wins[metric] == 0.0
        assert reverse.systems[1].tests.paired_bootstrap[metric] == 1 / (resamples + 1)


def test_bootstrap_mean_approaches_corpus_score():
    key, (a,) = random_corpora(5, 400, [0.3])
    ci = confidence_intervals(score(key, a), resamples=3000)
    for metric, fields in ci.intervals.items():
        for name, iv in fields.items():
            assert iv.low <= iv.estimate <= iv.high, (metric, name)
            assert abs(iv.mean - iv.estimate) < max(0.1 * iv.half_width, 1e-12), (metric, name)
            assert iv.half_width < 0.05, (metric, name)


def test_more_documents_give_narrower_intervals():
    key, (a,) = random_corpora(5, 400, [0.3])
    full = score(key, a)
    small = score(Corpus("k", key.documents[:40]), Corpus("r", a.documents[:40]))
    wide = confidence_intervals(small, resamples=1000).intervals["conll"]["f1"].half_width
    narrow = confidence_intervals(full, resamples=1000).intervals["conll"]["f1"].half_width
    assert narrow < 0.6 * wide
