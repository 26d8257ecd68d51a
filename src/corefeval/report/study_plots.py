"""Figures of a study (matplotlib, no display needed); each function draws one figure and returns it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.output import atomic_open

Figure = Any


def _pyplot():  # type: ignore[no-untyped-def]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(figure: Figure, stem: str) -> list[str]:
    """Write ``stem.png`` and ``stem.svg``, each atomically (see :mod:`corefeval.core.output`); returns the paths."""
    paths = []
    for ext, dpi in (("png", 120), ("svg", None)):
        paths.append(f"{stem}.{ext}")
        with atomic_open(paths[-1], binary=True) as fh:
            figure.savefig(fh, format=ext, bbox_inches="tight", **({"dpi": dpi} if dpi else {}))
    _pyplot().close(figure)
    return paths


def item_bars(f1: pd.DataFrame, human: pd.Series, items: list[str], title: str) -> Figure:
    """Per item (sorted by the human score): the human aggregate as a bar, each metric's F1 as a marker."""
    plt = _pyplot()
    order = human.loc[items].sort_values(kind="stable").index
    x = np.arange(len(order))
    fig, ax = plt.subplots(figsize=(max(8, 0.16 * len(order) + 2), 4.5))
    ax.bar(x, human.loc[order], color="#cccccc", label=f"people ({human.name})", width=0.85)
    markers = "os^vDPX*"
    for k, metric in enumerate(f1.columns):
        ax.plot(
            x,
            f1.loc[order, metric],
            linestyle="none",
            marker=markers[k % len(markers)],
            markersize=3.5,
            label=metric,
            alpha=0.8,
        )
    ax.set_xticks(x)
    ax.set_xticklabels(order, rotation=90, fontsize=5)
    ax.set_xlim(-1, len(order))
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("item (sorted by the human score)")
    ax.set_ylabel("score in [0, 1]")
    ax.set_title(title)
    ax.legend(ncol=4, fontsize=7, loc="lower right")
    return fig


def coefficient_bars(summary: pd.DataFrame, fits: dict[str, Any], title: str) -> Figure:
    """One panel per Table-3 row: coefficient per error type, with the model's interval when known."""
    plt = _pyplot()
    rows = list(summary.index)
    cols = 4
    nrows = int(np.ceil(len(rows) / cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(3.2 * cols, 2.6 * nrows), sharex=True, squeeze=False)
    values_all = summary.to_numpy(dtype=float)
    lo = min(float(np.nanmin(values_all)) if np.isfinite(values_all).any() else 0.0, 0.0)
    hi = max(float(np.nanmax(values_all)) if np.isfinite(values_all).any() else 0.0, 0.0)
    types = list(summary.columns)
    y = np.arange(len(types))
    for ax, row in zip(axes.flat, rows, strict=False):
        values = summary.loc[row].to_numpy(dtype=float)
        ax.barh(y, np.nan_to_num(values), color=np.where(values > 0, "#c44e52", "#4c72b0"))
        fit = fits.get(row)
        if fit is not None and fit.low.notna().any():
            shown = ~np.isnan(values)
            low, high = fit.low.to_numpy()[shown], fit.high.to_numpy()[shown]
            ax.errorbar(
                values[shown],
                y[shown],
                xerr=[values[shown] - low, high - values[shown]],
                fmt="none",
                ecolor="black",
                capsize=2,
                linewidth=0.8,
            )
        for k in np.flatnonzero(np.isnan(values)):
            ax.text(0, y[k], " dropped (>= 0)", va="center", fontsize=6, color="gray")
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_yticks(y)
        ax.set_yticklabels(types, fontsize=7)
        ax.invert_yaxis()
        ax.set_title(row, fontsize=9)
        ax.set_xlim(min(lo * 1.6, -0.05), max(hi * 1.6, 0.05))
    for ax in list(axes.flat)[len(rows) :]:
        ax.axis("off")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def heatmap(
    table: pd.DataFrame,
    title: str,
    center: float | None = 0.0,
    fmt: str = "{:.2f}",
    cmap: str = "RdBu",
    marks: pd.DataFrame | None = None,
) -> Figure:
    """A coloured table with its values written in; ``marks`` (same shape, bool) frames some cells."""
    plt = _pyplot()
    data = table.to_numpy(dtype=float)
    fig, ax = plt.subplots(figsize=(1.0 + 0.85 * table.shape[1], 0.8 + 0.32 * table.shape[0]))
    finite = data[np.isfinite(data)]
    if center is not None and finite.size:
        span = max(abs(finite.min() - center), abs(finite.max() - center)) or 1.0
        image = ax.imshow(data, cmap=cmap, vmin=center - span, vmax=center + span, aspect="auto")
    else:
        image = ax.imshow(data, cmap=cmap, aspect="auto")
    for (r, c), v in np.ndenumerate(data):
        if np.isfinite(v):
            ax.text(c, r, fmt.format(v), ha="center", va="center", fontsize=7)
        if marks is not None and bool(marks.iat[r, c]):
            ax.add_patch(plt.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=2))
    ax.set_xticks(range(table.shape[1]))
    ax.set_xticklabels(table.columns, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(table.shape[0]))
    ax.set_yticklabels(table.index, fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, fraction=0.04)
    fig.tight_layout()
    return fig


def difference_boxes(per_variant: dict[str, pd.DataFrame], title: str) -> Figure:
    """Per metric, the distribution of F1 - human over items, one box per scoring variant."""
    plt = _pyplot()
    variants = list(per_variant)
    metrics = list(per_variant[variants[0]].columns)
    fig, ax = plt.subplots(figsize=(1.3 * len(metrics) + 2, 4))
    width = 0.8 / len(variants)
    colours = ["#4c72b0", "#dd8452", "#55a868", "#c44e52"]
    for k, variant in enumerate(variants):
        table = per_variant[variant]
        positions = np.arange(len(metrics)) + (k - (len(variants) - 1) / 2) * width
        box = ax.boxplot(
            [table[m].dropna() for m in metrics],
            positions=positions,
            widths=width * 0.9,
            patch_artist=True,
            showmeans=True,
            meanprops=dict(marker="D", markersize=3, markerfacecolor="white"),
        )
        for patch in box["boxes"]:
            patch.set_facecolor(colours[k % len(colours)])
            patch.set_alpha(0.6)
        ax.plot([], [], color=colours[k % len(colours)], linewidth=6, alpha=0.6, label=f"{variant} scores")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(metrics)))
    ax.set_xticklabels(metrics)
    ax.set_ylabel("metric F1 - human score")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    return fig


def alpha_bars(table1: pd.DataFrame, title: str) -> Figure:
    """Alpha per scale on all and on good items, before and after removing the outlier annotators."""
    plt = _pyplot()
    scales = list(dict.fromkeys(table1["scale"]))
    fig, ax = plt.subplots(figsize=(1.8 * len(scales) + 2, 4))
    series = [
        ("all", "alpha", "all items", "#a1c9f4"),
        ("good", "alpha", "good items", "#4c72b0"),
        ("good", "alpha_without_outliers", "good items, outliers removed", "#c44e52"),
        ("all", "alpha_without_outliers", "all items, outliers removed", "#ff9f9b"),
    ]
    width = 0.8 / len(series)
    for k, (items, column, label, colour) in enumerate(series):
        values = []
        for scale in scales:
            row = table1[(table1["scale"] == scale) & (table1["items"] == items)]
            v = row[column].iloc[0] if len(row) else np.nan
            values.append(np.nan if v is None else float(v))
        x = np.arange(len(scales)) + (k - (len(series) - 1) / 2) * width
        bars = ax.bar(x, np.nan_to_num(values), width * 0.95, color=colour, label=label)
        for bar, v in zip(bars, values, strict=True):
            if np.isfinite(v):
                ax.text(
                    bar.get_x() + bar.get_width() / 2,
                    max(v, 0) + 0.005,
                    f"{v:.3f}",
                    ha="center",
                    fontsize=6,
                    rotation=90,
                    va="bottom",
                )
    ax.set_xticks(range(len(scales)))
    ax.set_xticklabels(scales)
    ax.set_ylabel("Krippendorff's alpha")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    ax.set_ylim(
        min(0, float(np.nanmin(table1["alpha"].astype(float)))) - 0.02,
        max(0.1, float(np.nanmax(table1[["alpha", "alpha_without_outliers"]].astype(float)))) * 1.35,
    )
    return fig
