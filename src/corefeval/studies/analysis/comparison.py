"""Metric scores against human judgments: per-item aggregates, differences (Table 2), correlations,
and the mean loss per error type on items with a single error type.

Human aggregates are per item, over the annotators who answered, on a scale's codes normalised to
[0, 1]: the mean, and the mode (tied modes averaged, as pandas' ``mode().mean()`` does in the study).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .ratings import Ratings
from .scales import Scale

STATISTICS = ("mean", "mode")
DIFFERENCE_KINDS = ("signed", "absolute", "positive", "negative")


def _mode(column: np.ndarray) -> float:
    present = column[~np.isnan(column)]
    if not present.size:
        return float("nan")
    values, counts = np.unique(present, return_counts=True)
    return float(values[counts == counts.max()].mean())


def aggregates(ratings: Ratings, scales: list[Scale]) -> pd.DataFrame:
    """Items x ``<scale>_<statistic>`` normalised human aggregates (NaN for items nobody answered)."""
    out = pd.DataFrame(index=pd.Index(ratings.items, name="id"))
    for scale in scales:
        if not scale.ordered:
            continue
        coded = scale.normalise(scale.code(ratings.values))
        answered = (~np.isnan(coded)).sum(axis=0)
        sums = np.nansum(coded, axis=0)
        out[f"{scale.name}_mean"] = np.where(answered > 0, sums / np.maximum(answered, 1), np.nan)
        out[f"{scale.name}_mode"] = [_mode(coded[:, i]) for i in range(coded.shape[1])]
    return out


def differences(metrics: pd.DataFrame, humans: pd.DataFrame, items: list[str]) -> dict[str, pd.DataFrame]:
    """Table 2: mean of F1 - human over ``items``, signed, absolute, positive-only, negative-only.

    Positive values mean the metric is more lenient than the people. Items where either side is
    missing are left out of that cell.
    """
    tables = {
        kind: pd.DataFrame(index=metrics.columns, columns=humans.columns, dtype=float) for kind in DIFFERENCE_KINDS
    }
    for m in metrics.columns:
        for h in humans.columns:
            d = (metrics.loc[items, m] - humans.loc[items, h]).dropna().to_numpy(dtype=float)
            tables["signed"].loc[m, h] = d.mean() if d.size else np.nan
            tables["absolute"].loc[m, h] = np.abs(d).mean() if d.size else np.nan
            tables["positive"].loc[m, h] = d[d > 0].mean() if (d > 0).any() else np.nan
            tables["negative"].loc[m, h] = d[d < 0].mean() if (d < 0).any() else np.nan
    return tables


def per_item_differences(metrics: pd.DataFrame, human: pd.Series, items: list[str]) -> pd.DataFrame:
    """F1 - human per item and metric (the distribution behind Table 2)."""
    return metrics.loc[items].sub(human.loc[items], axis=0)


# Standard errors of Fisher's z for each coefficient (Fieller, Hartley and Pearson, 1957).
_Z_VARIANCE = {"pearson": (1.0, 3), "spearman": (1.06, 3), "kendall": (0.437, 4)}


def correlations(
    metrics: pd.DataFrame, humans: pd.DataFrame, items: list[str], confidence: float = 0.95
) -> pd.DataFrame:
    """Pearson, Spearman and Kendall correlations of each metric with each aggregate, with Fisher-z CIs."""
    rows = []
    z_crit = stats.norm.ppf(0.5 + confidence / 2)
    for m in metrics.columns:
        for h in humans.columns:
            pair = pd.concat([metrics.loc[items, m], humans.loc[items, h]], axis=1).dropna()
            x, y = pair.iloc[:, 0].to_numpy(float), pair.iloc[:, 1].to_numpy(float)
            for method, fn in (
                ("pearson", stats.pearsonr),
                ("spearman", stats.spearmanr),
                ("kendall", stats.kendalltau),
            ):
                scale_factor, offset = _Z_VARIANCE[method]
                n = x.size
                if n <= offset or np.ptp(x) == 0 or np.ptp(y) == 0:
                    r, p, low, high = (np.nan,) * 4
                else:
                    result = fn(x, y)
                    r, p = float(result[0]), float(result[1])
                    z = np.arctanh(np.clip(r, -0.999999, 0.999999))
                    half = z_crit * np.sqrt(scale_factor / (n - offset))
                    low, high = float(np.tanh(z - half)), float(np.tanh(z + half))
                rows.append(
                    {"metric": m, "human": h, "method": method, "r": r, "low": low, "high": high, "p": p, "n": n}
                )
    return pd.DataFrame(rows)


def single_type_items(counts: pd.DataFrame) -> pd.Series:
    """The only error type of each item that has exactly one (items with none or several are left out)."""
    filled = counts.fillna(0)
    present = filled > 0
    single = present.sum(axis=1) == 1
    return present[single].idxmax(axis=1)


def loss_by_error_type(
    metrics: pd.DataFrame, humans: pd.DataFrame, counts: pd.DataFrame, items: list[str]
) -> pd.DataFrame:
    """Mean loss (1 - score) per error type over the ``items`` whose errors are all of that type."""
    kind = single_type_items(counts)
    kind = kind[kind.index.isin(items)]
    both = pd.concat([metrics, humans], axis=1)
    rows = {}
    for error_type in counts.columns:
        chosen = kind.index[kind == error_type]
        rows[error_type] = (1 - both.loc[chosen]).mean() if len(chosen) else pd.Series(np.nan, both.columns)
        rows[error_type]["items"] = len(chosen)
    return pd.DataFrame(rows).T
