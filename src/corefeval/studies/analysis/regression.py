"""Regressions of scores on error counts (the study's Tables 3 and 4), deterministic by default.

Features are z-scored error counts (missing counts filled with 0), with an intercept. ``ols`` gives
coefficients with t-based confidence intervals; ``ridge`` (penalty ``ridge_alpha`` on the z-scored
features, intercept unpenalised) gives percentile intervals from a seeded bootstrap of items. Both
report the in-sample R² and a held-out R² from seeded K-fold cross-validation. ``sgd-legacy`` is the
study's scikit-learn recipe (needs scikit-learn; not deterministic across versions): it exists only
to compare with the paper, not to draw conclusions from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.diagnostics import UsageError

METHODS = ("ols", "ridge", "sgd-legacy")
#: The study's SGDRegressor settings and split seed (section 1.7 of its specification).
LEGACY_SGD = dict(
    penalty="elasticnet",
    l1_ratio=0.76,
    loss="huber",
    epsilon=0.081,
    learning_rate="invscaling",
    eta0=7.61,
    power_t=0.55,
    early_stopping=True,
    validation_fraction=0.42,
    n_iter_no_change=9,
    random_state=24,
)
LEGACY_SPLIT_SEED = 38
#: The study's factor c applied to its coefficients, by scale (metrics: 1). Its targets were the raw
#: answers (0-7, 0-4, 0-2) or the aggregates on 0-7, so these factors are not a consistent normalisation.
LEGACY_FACTORS = {"standard": 1 / 7, "reduced": 4 / 7, "gravity": 2 / 7}


@dataclass(frozen=True)
class Fit:
    """One fitted model: coefficients per error type (per standard deviation of its count)."""

    target: str
    method: str
    n: int
    intercept: float
    coefficients: pd.Series
    low: pd.Series
    high: pd.Series
    r2: float
    r2_heldout: float


def zscore(x: np.ndarray) -> np.ndarray:
    """Columns centred and divided by their (population) standard deviation; constant columns -> 0."""
    sd = x.std(axis=0)
    return np.where(sd > 0, (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1), 0.0)


def _ridge(x: np.ndarray, y: np.ndarray, penalty: float) -> tuple[float, np.ndarray]:
    xm, ym = x.mean(axis=0), y.mean()
    xc = x - xm
    beta = np.linalg.solve(xc.T @ xc + penalty * np.eye(x.shape[1]), xc.T @ (y - ym))
    return float(ym - xm @ beta), beta


def _ols(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    design = np.column_stack([np.ones(len(y)), x])
    params = np.linalg.lstsq(design, y, rcond=None)[0]
    return float(params[0]), params[1:]


def _r2(y: np.ndarray, predicted: np.ndarray) -> float:
    total = float(np.sum((y - y.mean()) ** 2))
    return float(1 - np.sum((y - predicted) ** 2) / total) if total > 0 else float("nan")


def _heldout_r2(x: np.ndarray, y: np.ndarray, fitter, folds: int, seed: int) -> float:  # type: ignore[no-untyped-def]
    n = len(y)
    if n < 2 * folds:
        return float("nan")
    order = np.random.default_rng(seed).permutation(n)
    predicted = np.empty(n)
    for part in np.array_split(order, folds):
        train = np.setdiff1d(order, part)
        mean, sd = x[train].mean(axis=0), x[train].std(axis=0)
        sd = np.where(sd > 0, sd, 1)
        intercept, beta = fitter((x[train] - mean) / sd, y[train])
        predicted[part] = intercept + ((x[part] - mean) / sd) @ beta
    return _r2(y, predicted)


def fit(
    features: pd.DataFrame,
    target: pd.Series,
    method: str = "ols",
    ridge_alpha: float = 1.0,
    confidence: float = 0.95,
    n_resamples: int = 500,
    folds: int = 5,
    seed: int = 0,
    legacy_units: tuple[float, float] = (1.0, 1.0),
) -> Fit:
    """Regress ``target`` on z-scored ``features`` over the items where the target is known.

    ``legacy_units`` = (raw top, factor) is used by ``sgd-legacy`` only: the normalised target is
    fitted on the study's raw range (target x raw top) and coefficients are multiplied by the factor.
    """
    if method not in METHODS:
        raise UsageError(f"unknown regression method '{method}' (choose from {', '.join(METHODS)})")
    y_all = target.dropna()
    x_raw = features.loc[y_all.index].fillna(0).to_numpy(dtype=float)
    y = y_all.to_numpy(dtype=float)
    names = list(features.columns)
    if method == "sgd-legacy":
        top, factor = legacy_units
        return _legacy(x_raw, y * top, names, str(target.name), factor)
    x = zscore(x_raw)
    constant = x_raw.std(axis=0) == 0

    def ridge(a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray]:
        return _ridge(a, b, ridge_alpha)

    fitter = _ols if method == "ols" else ridge
    intercept, beta = fitter(x, y)
    if method == "ols":
        low, high = _ols_intervals(x, y, beta, intercept, confidence)
    else:
        low, high = _bootstrap_intervals(x, y, fitter, confidence, n_resamples, seed)
    for arr in (beta, low, high):
        arr[constant] = np.nan
    predicted = intercept + x @ np.nan_to_num(beta)
    return Fit(
        str(target.name),
        method,
        len(y),
        intercept,
        pd.Series(beta, names),
        pd.Series(low, names),
        pd.Series(high, names),
        _r2(y, predicted),
        _heldout_r2(x_raw, y, fitter, folds, seed),
    )


def _ols_intervals(
    x: np.ndarray, y: np.ndarray, beta: np.ndarray, intercept: float, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    from scipy import stats

    design = np.column_stack([np.ones(len(y)), x])
    dof = len(y) - np.linalg.matrix_rank(design)
    if dof <= 0:
        nan = np.full(beta.shape, np.nan)
        return nan, nan.copy()
    residual = y - intercept - x @ beta
    sigma2 = residual @ residual / dof
    cov = sigma2 * np.linalg.pinv(design.T @ design)
    se = np.sqrt(np.clip(np.diag(cov)[1:], 0, None))
    t = stats.t.ppf(0.5 + confidence / 2, dof)
    return beta - t * se, beta + t * se


def _bootstrap_intervals(
    x: np.ndarray,
    y: np.ndarray,
    fitter,
    confidence: float,  # type: ignore[no-untyped-def]
    n_resamples: int,
    seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    samples = (rng.integers(0, len(y), len(y)) for _ in range(n_resamples))
    draws = np.array([fitter(x[s], y[s])[1] for s in samples])
    tail = (1 - confidence) / 2
    return np.quantile(draws, tail, axis=0), np.quantile(draws, 1 - tail, axis=0)


def _legacy(x: np.ndarray, y: np.ndarray, names: list[str], target: str, factor: float) -> Fit:
    try:
        from sklearn.linear_model import SGDRegressor
        from sklearn.model_selection import train_test_split
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
    except ImportError:
        raise UsageError("the sgd-legacy regression needs scikit-learn (pip install scikit-learn)") from None
    x_train, x_test, y_train, y_test = train_test_split(x, y, random_state=LEGACY_SPLIT_SEED)
    model = make_pipeline(StandardScaler(), SGDRegressor(**LEGACY_SGD)).fit(x_train, y_train)
    sgd = model[-1]
    nan = pd.Series(np.nan, names)
    coefficients = pd.Series(sgd.coef_ * factor, names)
    return Fit(
        target,
        "sgd-legacy",
        len(y),
        float(sgd.intercept_[0]),
        coefficients,
        nan,
        nan,
        _r2(y_train, model.predict(x_train)),
        _r2(y_test, model.predict(x_test)),
    )


def coefficient_table(fits: list[Fit]) -> pd.DataFrame:
    """Table 4: one row per model, one column per error type."""
    return pd.DataFrame({f.target: f.coefficients for f in fits}).T


def summary_table(
    coefficients: pd.DataFrame, metric_rows: list[str], human_rows: list[str], drop_nonnegative: bool = True
) -> pd.DataFrame:
    """Table 3: the metric rows and a "Humans" row, the mean of the (negative) human coefficients.

    With ``drop_nonnegative`` (the paper's choice) zero and positive coefficients are blanked before
    anything is averaged, since an error should never raise a score.
    """
    table = coefficients.where(coefficients < 0) if drop_nonnegative else coefficients.copy()
    out = table.loc[metric_rows].copy()
    out.loc["Humans"] = table.loc[human_rows].mean(axis=0, skipna=True)
    return out
