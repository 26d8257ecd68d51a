"""Krippendorff's alpha, the good-item filter and the trust coefficient."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from corefeval.studies.analysis.agreement import alpha, bootstrap_alpha, good_items
from corefeval.studies.analysis.trust import trust_coefficients, trust_from_alphas

NAN = np.nan
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 coders, 12 units.
EXAMPLE = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
        [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
    ]
)


@pytest.mark.parametrize(("level", "expected"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)])
def test_krippendorffs_worked_example(level: str, expected: float) -> None:
    assert round(alpha(EXAMPLE, level), 3) == expected


ratings = arrays(
    float, st.tuples(st.integers(2, 5), st.integers(2, 12)), elements=st.sampled_from([0.0, 1.0, 2.0, 3.0, 5.0, NAN])
)


@settings(max_examples=150, deadline=None)
@given(ratings, st.sampled_from(["nominal", "ordinal", "interval"]))
def test_agrees_with_the_krippendorff_package(data: np.ndarray, level: str) -> None:
    ours = alpha(data, level)
    try:
        with np.errstate(all="ignore"):
            theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    except (ValueError, ZeroDivisionError):
        theirs = None
    if ours is None:
        assert theirs is None or not np.isfinite(theirs)
    else:
        assert theirs == pytest.approx(ours, abs=1e-9)


def test_undefined_alpha_is_none() -> None:
    assert alpha(np.array([[1.0, 1.0], [1.0, 1.0]])) is None  # a single value: 0/0
    assert alpha(np.array([[1.0, NAN], [NAN, 2.0]])) is None  # nothing pairable


def test_bootstrap_interval_contains_the_estimate_and_is_reproducible() -> None:
    a = bootstrap_alpha(EXAMPLE, "nominal", 300, seed=3)
    assert a.low is not None and a.high is not None and a.low <= a.value <= a.high
    assert bootstrap_alpha(EXAMPLE, "nominal", 300, seed=3) == a


def test_good_items_count_distinct_non_missing_answers() -> None:
    raw = np.array([[0, 1, 7, NAN], [1, 1, 6, 2], [2, 1, 5, 2], [3, NAN, 7, 2]])
    assert good_items(raw, 3).tolist() == [False, True, True, True]
    assert good_items(raw, 2).tolist() == [False, True, False, True]


def test_dense_rank_times_alpha_by_hand() -> None:
    subsets = [(0, 1), (0, 2), (1, 2), (0, 1, 2)]
    # sorted: -0.1 (rank 1), 0.2 (rank 2), 0.5 and 0.5 (both rank 3)
    trust = trust_from_alphas(3, subsets, [0.5, 0.2, 0.5, -0.1])
    assert trust.tolist() == pytest.approx([1.8 / 2.9, 1.0, 1.8 / 2.9])


def test_undefined_alpha_counts_as_one() -> None:
    coded = np.array([[7.0, 7, 7, 7], [7, 7, 7, 7], [0, 7, 3, 7]])
    subsets = [(0, 1), (0, 2), (1, 2), (0, 1, 2)]
    alphas = [1.0] + [alpha(coded[list(s)]) for s in subsets[1:]]
    expected = trust_from_alphas(3, subsets, alphas)
    got = trust_coefficients(coded, ("a", "b", "c"))
    assert got.coefficients == pytest.approx(tuple(expected))
    assert got.coefficients != trust_coefficients(coded, ("a", "b", "c"), undefined=0.0).coefficients


def test_large_panels_are_sampled_reproducibly() -> None:
    rng = np.random.default_rng(0)
    coded = rng.integers(0, 3, (6, 20)).astype(float)
    names = tuple("abcdef")
    sampled = trust_coefficients(coded, names, max_exact=4, n_samples=30, seed=1)
    assert sampled.sampled and sampled.n_subsets == 30
    assert trust_coefficients(coded, names, max_exact=4, n_samples=30, seed=1) == sampled
    exact = trust_coefficients(coded, names)
    assert not exact.sampled and exact.n_subsets == 2**6 - 6 - 1


def test_sampling_never_asks_for_more_subsets_than_exist() -> None:
    coded = np.random.default_rng(1).integers(0, 3, (4, 10)).astype(float)
    t = trust_coefficients(coded, tuple("abcd"), max_exact=2, n_samples=1000)
    assert t.sampled and t.n_subsets == 2**4 - 4 - 1
