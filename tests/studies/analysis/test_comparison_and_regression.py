"""Human aggregates, Table 2, correlations, per-type loss, regressions and Table 3."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from corefeval.core.diagnostics import UsageError
from corefeval.studies.analysis import comparison, regression
from corefeval.studies.analysis.ratings import Ratings
from corefeval.studies.analysis.scales import GRAVITY, STANDARD

NAN = np.nan


def test_aggregates_average_tied_modes_and_skip_missing() -> None:
    r = Ratings(("a", "b", "c"), ("1", "2", "3"), np.array([[7, 0, NAN], [0, 0, NAN], [NAN, 7, NAN]]))
    h = comparison.aggregates(r, [STANDARD, GRAVITY])
    assert h.loc["1", "standard_mean"] == pytest.approx(0.5)
    assert h.loc["1", "standard_mode"] == pytest.approx(0.5)  # modes 0 and 7 tie: (0 + 1) / 2
    assert h.loc["2", "standard_mode"] == 0.0
    assert h.loc["2", "gravity_mean"] == pytest.approx((0 + 0 + 1) / 3)
    assert h.loc["3"].isna().all()


def test_differences_by_hand() -> None:
    metrics = pd.DataFrame({"M": [0.9, 0.5, 1.0]}, index=["1", "2", "3"])
    humans = pd.DataFrame({"h": [0.5, 0.7, NAN]}, index=["1", "2", "3"])
    d = comparison.differences(metrics, humans, ["1", "2", "3"])
    assert d["signed"].at["M", "h"] == pytest.approx((0.4 - 0.2) / 2)
    assert d["absolute"].at["M", "h"] == pytest.approx(0.3)
    assert d["positive"].at["M", "h"] == pytest.approx(0.4)
    assert d["negative"].at["M", "h"] == pytest.approx(-0.2)


def test_correlations_have_intervals_around_r() -> None:
    rng = np.random.default_rng(0)
    x = rng.random(50)
    metrics = pd.DataFrame({"M": x}, index=[str(i) for i in range(50)])
    humans = pd.DataFrame({"h": x + rng.normal(0, 0.1, 50)}, index=metrics.index)
    c = comparison.correlations(metrics, humans, list(metrics.index))
    assert list(c["method"]) == ["pearson", "spearman", "kendall"]
    assert ((c["low"] < c["r"]) & (c["r"] < c["high"])).all() and (c["r"] > 0.8).all()


def test_loss_on_single_type_items() -> None:
    counts = pd.DataFrame({"border": [1, 0, 2, 1], "noise": [0, 1, 0, 1]}, index=["1", "2", "3", "4"])
    assert comparison.single_type_items(counts).to_dict() == {"1": "border", "2": "noise", "3": "border"}
    metrics = pd.DataFrame({"M": [0.9, 0.6, 0.7, 0.0]}, index=counts.index)
    no_humans = pd.DataFrame(index=counts.index)
    loss = comparison.loss_by_error_type(metrics, no_humans, counts, list(counts.index))
    assert loss.loc["border", "M"] == pytest.approx(0.2) and loss.loc["border", "items"] == 2
    assert loss.loc["noise", "M"] == pytest.approx(0.4)


def _counts(n: int = 60, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.integers(0, 4, (n, 3)), columns=["a", "b", "c"], index=[str(i) for i in range(n)])


def test_ols_recovers_exact_coefficients_per_standard_deviation() -> None:
    x = _counts()
    z = (x - x.mean()) / x.std(ddof=0)
    y = pd.Series(0.8 - 0.05 * z["a"] - 0.02 * z["b"], name="target")
    f = regression.fit(x, y, "ols")
    assert f.coefficients.to_numpy() == pytest.approx([-0.05, -0.02, 0.0], abs=1e-12)
    assert f.intercept == pytest.approx(0.8) and f.r2 == pytest.approx(1.0)
    assert f.r2_heldout == pytest.approx(1.0)
    assert (f.low <= f.coefficients + 1e-12).all() and (f.coefficients <= f.high + 1e-12).all()


def test_ridge_shrinks_and_is_deterministic() -> None:
    x = _counts(seed=1)
    rng = np.random.default_rng(2)
    y = pd.Series(0.7 - 0.1 * x["a"] + rng.normal(0, 0.05, len(x)), index=x.index, name="t")
    ols, ridge = regression.fit(x, y, "ols"), regression.fit(x, y, "ridge", ridge_alpha=50.0)
    assert abs(ridge.coefficients["a"]) < abs(ols.coefficients["a"])
    again = regression.fit(x, y, "ridge", ridge_alpha=50.0)
    assert again.low.equals(ridge.low) and again.r2_heldout == ridge.r2_heldout


def test_constant_features_have_no_coefficient_and_missing_counts_are_zero() -> None:
    x = _counts().assign(c=0.0)
    x.iloc[0, 0] = NAN
    y = pd.Series(np.linspace(0, 1, len(x)), index=x.index, name="t")
    f = regression.fit(x, y, "ols")
    assert np.isnan(f.coefficients["c"]) and np.isfinite(f.coefficients["a"])


def test_legacy_sgd_needs_scikit_learn() -> None:
    x, y = _counts(), pd.Series(np.linspace(0, 1, 60), index=_counts().index, name="t")
    try:
        import sklearn  # noqa: F401
    except ImportError:
        with pytest.raises(UsageError, match="scikit-learn"):
            regression.fit(x, y, "sgd-legacy")
    else:
        assert np.isfinite(regression.fit(x, y, "sgd-legacy").coefficients).all()
    with pytest.raises(UsageError):
        regression.fit(x, y, "lasso")


def test_table3_drops_non_negative_and_averages_human_rows() -> None:
    table4 = pd.DataFrame({"a": [-0.1, 0.2, -0.3, -0.1], "b": [0.0, -0.2, -0.4, 0.5]}, index=["M", "A1", "A2", "MEAN"])
    t3 = regression.summary_table(table4, ["M"], ["A1", "A2", "MEAN"])
    assert t3.loc["M", "a"] == -0.1 and np.isnan(t3.loc["M", "b"])
    assert t3.loc["Humans", "a"] == pytest.approx(-0.2) and t3.loc["Humans", "b"] == pytest.approx(-0.3)
    kept = regression.summary_table(table4, ["M"], ["A1", "A2", "MEAN"], drop_nonnegative=False)
    assert kept.loc["Humans", "b"] == pytest.approx(-0.1 / 3)


def test_legacy_sgd_fits_the_raw_range_and_applies_the_factor() -> None:
    pytest.importorskip("sklearn")
    x = _counts()
    y = pd.Series(0.9 - 0.05 * x["a"], index=x.index, name="t")
    base = regression.fit(x, y, "sgd-legacy")
    scaled = regression.fit(x, y, "sgd-legacy", legacy_units=(7.0, 1 / 7))
    assert np.isfinite(base.coefficients).all() and np.isfinite(scaled.coefficients).all()
    assert base.coefficients["a"] < 0 and scaled.coefficients["a"] < 0
    assert base.low.isna().all()
