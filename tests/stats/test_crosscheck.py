"""The fast count-matrix resampling against a slow one that rebuilds and re-scores every resample."""

from __future__ import annotations

import numpy as np
import pytest

from corefeval.scoring.pipeline import score
from corefeval.stats.compare import compare
from corefeval.stats.confidence import bootstrap_samples
from corefeval.stats.resampling import bootstrap_draws, streams, swap_masks

from .corpora import random_corpora, rescored_f1

SEED, RESAMPLES, ROUNDS, N_DOCS = 7, 150, 250, 8


@pytest.fixture(scope="module")
def setup():
    key, (baseline, system) = random_corpora(3, N_DOCS, [0.35, 0.15])
    fast = compare(key, baseline, [system], resamples=RESAMPLES, rounds=ROUNDS, seed=SEED)
    boot_rng, swap_rng = streams(SEED)
    draws = bootstrap_draws(boot_rng, N_DOCS, RESAMPLES)
    masks = swap_masks(swap_rng, N_DOCS, ROUNDS)
    return key, baseline, system, fast, draws, masks


def slow_p(differences: list[float], observed: float, centre: float) -> float:
    extreme = 0
    for d in differences:
        if abs(d - centre) >= abs(observed) - 1e-10:
            extreme += 1
    return (extreme + 1) / (len(differences) + 1)


def test_resampled_scores_equal_rescored_corpora(setup):
    key, baseline, system, fast, draws, _ = setup
    arrays = bootstrap_samples(fast.systems[1].result, draws)
    for r, row in enumerate(draws[:40]):
        slow = rescored_f1(key, system, [(int(i), system) for i in row])
        for metric, value in slow.items():
            assert arrays[metric].f1[r] == pytest.approx(value, abs=1e-12), metric


def test_paired_bootstrap_and_interval_match_slow_rescoring(setup):
    key, baseline, system, fast, draws, _ = setup
    observed = {m: score(key, system).corpus[m].f1 - score(key, baseline).corpus[m].f1 for m in fast.metrics}
    base_runs = [rescored_f1(key, baseline, [(int(i), baseline) for i in row]) for row in draws]
    sys_runs = [rescored_f1(key, system, [(int(i), system) for i in row]) for row in draws]
    tests = fast.systems[1].tests
    for metric in fast.metrics:
        diffs = [s[metric] - b[metric] for s, b in zip(sys_runs, base_runs, strict=True)]
        centre = sum(diffs) / len(diffs)
        assert tests.paired_bootstrap[metric] == slow_p(diffs, observed[metric], centre), metric
        assert tests.wins[metric] == sum(d > 0 for d in diffs) / len(diffs)
        values = sorted(s[metric] for s in sys_runs)
        low, high = np.quantile(values, [0.025, 0.975])
        interval = fast.systems[1].confidence.intervals[metric]["f1"]
        assert interval.low == pytest.approx(low, abs=1e-12)
        assert interval.high == pytest.approx(high, abs=1e-12)


def test_approximate_randomization_matches_slow_rescoring(setup):
    key, baseline, system, fast, _, masks = setup
    observed = {m: score(key, system).corpus[m].f1 - score(key, baseline).corpus[m].f1 for m in fast.metrics}
    diffs: dict[str, list[float]] = {m: [] for m in fast.metrics}
    for row in masks:
        as_baseline = [(i, system if swap else baseline) for i, swap in enumerate(row)]
        as_system = [(i, baseline if swap else system) for i, swap in enumerate(row)]
        b, s = rescored_f1(key, baseline, as_baseline), rescored_f1(key, system, as_system)
        for m in fast.metrics:
            diffs[m].append(s[m] - b[m])
    for metric in fast.metrics:
        expected = slow_p(diffs[metric], observed[metric], 0.0)
        assert fast.systems[1].tests.approximate_randomization[metric] == expected, metric
