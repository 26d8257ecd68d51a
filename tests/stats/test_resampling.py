"""Draws, strata, Holm's correction, reproducibility and the small-sample warning."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefeval.core.diagnostics import UsageError
from corefeval.core.model import Corpus
from corefeval.scoring.pipeline import score
from corefeval.stats import confidence_intervals, holm
from corefeval.stats.compare import compare
from corefeval.stats.resampling import bootstrap_draws, draw_weights, resampled_totals, swap_masks
from corefeval.stats.strata import by_pattern, choose_strata, pool_files

from .corpora import random_corpora


def test_weights_count_draws():
    draws = np.array([[0, 0, 2], [1, 2, 1]])
    assert draw_weights(draws, 4).tolist() == [[2, 0, 1, 0], [0, 2, 1, 0]]


def test_resampled_totals_are_sums_of_drawn_rows():
    counts = np.arange(12, dtype=float).reshape(4, 3)
    draws = np.array([[3, 3, 0, 1], [2, 2, 2, 2]])
    expected = [counts[[3, 3, 0, 1]].sum(axis=0), counts[[2, 2, 2, 2]].sum(axis=0)]
    assert resampled_totals(draws, counts).tolist() == [e.tolist() for e in expected]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("abc"), min_size=1, max_size=30), st.integers(0, 2**32 - 1))
def test_strata_keep_their_size_in_every_resample(labels, seed):
    draws = bootstrap_draws(np.random.default_rng(seed), len(labels), 20, labels)
    assert draws.shape == (20, len(labels))
    for row in draws:
        drawn = [labels[i] for i in row]
        for label in set(labels):
            assert drawn.count(label) == labels.count(label)


def test_swap_masks_are_fair_coins():
    masks = swap_masks(np.random.default_rng(0), 50, 4000)
    assert masks.dtype == bool and masks.shape == (4000, 50)
    assert abs(masks.mean() - 0.5) < 0.01


def test_by_pattern_uses_first_group_or_match():
    names = ["bc/cctv/00/cctv_0000_0", "nw/xinhua/00/x_1", "tc/ch/00/ch_0001", "plain"]
    assert by_pattern(names, r"^(\w+)/") == ["bc", "nw", "tc", "(other)"]
    assert by_pattern(names, r"^\w+/") == ["bc/", "nw/", "tc/", "(other)"]
    assert by_pattern(["(bc/cctv/00/cctv_0000); part 000", "(nw/wsj/00/wsj_0001); part 001"], r"(\w+)/") == ["bc", "nw"]
    with pytest.raises(UsageError):
        by_pattern(names, "(")


def test_pool_files_stacks_counts_and_labels_by_file():
    key, (a,) = random_corpora(2, 6, [0.3])
    first = score(Corpus("k1", key.documents[:4]), Corpus("r1", a.documents[:4]))
    second = score(Corpus("k2", key.documents[4:]), Corpus("r2", a.documents[4:]))
    pooled = pool_files([first, second])
    assert pooled.document_names[0] == "k1:doc0" and pooled.document_names[4] == "k2:doc4"
    assert choose_strata([first, second], by_file=True) == (["k1"] * 4 + ["k2"] * 2, "file")
    assert choose_strata([first, second], r"doc(\d)") == (["0", "1", "2", "3", "4", "5"], r"name~doc(\d)")
    assert choose_strata([first, second]) == (None, None)
    assert np.array_equal(pooled.counts, score(key, a).counts)
    assert pooled.corpus["conll"].f1 == score(key, a).corpus["conll"].f1


def test_holm_known_values_and_statsmodels():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []
    from statsmodels.stats.multitest import multipletests

    p = np.random.default_rng(1).random(9) / 10
    assert holm(list(p)) == pytest.approx(multipletests(p, method="holm")[1].tolist())


def test_holm_option_adjusts_across_systems():
    key, (a, b, c) = random_corpora(4, 40, [0.4, 0.25, 0.3])
    plain = compare(key, a, [b, c], resamples=200, rounds=400)
    adjusted = compare(key, a, [b, c], resamples=200, rounds=400, holm=True)
    for metric in plain.metrics:
        raw = [s.tests.approximate_randomization[metric] for s in plain.systems[1:]]
        got = [s.adjusted.approximate_randomization[metric] for s in adjusted.systems[1:]]
        assert got == holm(raw)
    assert "correction:holm" in adjusted.signature and "correction" not in plain.signature
    assert adjusted.to_dict()["systems"][1]["approximate_randomization_holm"] is not None


def test_same_seed_same_numbers_and_rounds_do_not_move_the_bootstrap():
    key, (a, b) = random_corpora(8, 40, [0.4, 0.25])
    one = compare(key, a, [b], resamples=300, rounds=500, seed=3).to_dict()
    two = compare(key, a, [b], resamples=300, rounds=500, seed=3).to_dict()
    assert one == two
    other_seed = compare(key, a, [b], resamples=300, rounds=500, seed=4).to_dict()
    assert other_seed["systems"][1]["confidence"] != one["systems"][1]["confidence"]
    more_rounds = compare(key, a, [b], resamples=300, rounds=900, seed=3).to_dict()
    assert more_rounds["systems"][1]["confidence"] == one["systems"][1]["confidence"]
    assert more_rounds["systems"][1]["paired_bootstrap"] == one["systems"][1]["paired_bootstrap"]
    assert "seed:3" in one["signature"] and "bootstrap:300" in one["signature"]
    assert "rounds:500" in one["signature"]


def test_single_document_warns_and_gives_width_zero():
    key, (a, b) = random_corpora(9, 1, [0.4, 0.2])
    ci = confidence_intervals(score(key, a), resamples=100)
    assert any("scored as a single document" in w.message for w in ci.warnings)
    assert all(iv["f1"].half_width == 0 for iv in ci.intervals.values())
    c = compare(key, a, [b], resamples=100, rounds=100)
    assert any("scored as a single document" in w.message for w in c.warnings)
    assert set(c.systems[1].tests.approximate_randomization.values()) == {1.0}
    assert set(c.systems[1].tests.paired_bootstrap.values()) == {1.0}


def test_few_documents_and_singleton_strata_warn():
    key, (a,) = random_corpora(9, 12, [0.4])
    result = score(key, a)
    ci = confidence_intervals(result, resamples=50, strata=["x"] * 11 + ["y"])
    messages = [w.message for w in ci.warnings]
    assert any("only 12 documents" in m for m in messages)
    assert any("stratum 'y' has a single document" in m for m in messages)
    key, (a,) = random_corpora(9, 40, [0.4])
    assert confidence_intervals(score(key, a), resamples=50).warnings == []


def test_bad_settings_are_usage_errors():
    key, (a,) = random_corpora(9, 5, [0.4])
    result = score(key, a)
    for kwargs in ({"resamples": 0}, {"level": 1.0}, {"level": 0}):
        with pytest.raises(UsageError):
            confidence_intervals(result, **kwargs)
    with pytest.raises(UsageError):
        compare(key, a, [a], rounds=0)
    with pytest.raises(UsageError):
        compare(key, a, [])
    with pytest.raises(UsageError):
        compare(key, a, [a], names=["only-one"])
