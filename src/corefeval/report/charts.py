"""The report's charts of one breakdown, drawn by matplotlib as inline SVG (formatting only).

matplotlib is well kept, draws without a display or a network, and SVG keeps the page one file that
opens from disk and scales cleanly. It is optional (the ``analysis`` extra): :func:`available` says
whether it can be imported, and the report leaves its charts out without it.

Both charts put the groups on the vertical axis, one row each, so that any number of groups and
any group name stay readable at the page's width; the legend stands right of the bars, never on
them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np

#: SVG settings: text stays text (not one path per glyph: a smaller page, drawn faster), and no
#: date nor random identifiers, so that the same report is the same file.
SVG_SETTINGS: dict[Any, Any] = {"svg.fonttype": "none", "svg.hashsalt": "corefeval"}
#: Chart width in inches: 5 in is 480 CSS pixels, drawn at its own size on the page.
WIDTH = 5.0


def available() -> bool:
    """Whether matplotlib can be imported (its import is what costs; done once)."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(size: tuple[float, float]) -> tuple[Any, Any]:
    """A figure and its axes, made without pyplot (no global state, no backend to load)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=size)
    return figure, figure.add_subplot()


def _svg(figure: Any) -> str:
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(SVG_SETTINGS):
        figure.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]


def bar_chart(title: str, axis: str, groups: Sequence[str], names: Sequence[str], values: np.ndarray) -> str:
    """F1 of every group (a row) and system (a bar in it), with the interval as a whisker where the
    group has one; ``values``: systems x groups x (F1, low, high), in percent (NaN: none)."""
    n_groups, n_systems = len(groups), len(names)
    height = 0.8 / n_systems
    fig, ax = _figure((WIDTH, max(2.0, 0.28 * n_groups * n_systems + 1.0)))
    rows = np.arange(n_groups)
    for s, name in enumerate(names):
        f1, low, high = values[s, :, 0], values[s, :, 1], values[s, :, 2]
        at = rows + (s - (n_systems - 1) / 2) * height
        ax.barh(at, np.nan_to_num(f1), height, label=name)
        shown = np.isfinite(low) & np.isfinite(high)
        if shown.any():
            spread = np.vstack([f1[shown] - low[shown], high[shown] - f1[shown]])
            ax.errorbar(f1[shown], at[shown], xerr=spread, fmt="none", ecolor="black", elinewidth=1, capsize=3)
    ax.set_yticks(rows, list(groups))
    ax.invert_yaxis()  # the first group on top, as in the tables
    ax.set_xlim(0, 100)
    ax.set_xlabel(axis)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize="small", frameon=False)
    return _svg(fig)


def heat_map(title: str, groups: Sequence[str], names: Sequence[str], f1: np.ndarray) -> str:
    """F1 by group (a row) and system (a column), written in each cell; ``f1``: systems x groups,
    in percent (NaN: the system has no such group)."""
    n_groups, n_systems = len(groups), len(names)
    fig, ax = _figure((min(WIDTH, 0.9 * n_systems + 2.8), 0.32 * n_groups + 1.3))
    shown = f1[~np.isnan(f1)]
    least, most = (float(shown.min()), float(shown.max())) if shown.size else (0.0, 100.0)
    image = ax.imshow(f1.T, cmap="viridis", vmin=max(0.0, least - 1), vmax=min(100.0, most + 1), aspect="auto")
    fig.colorbar(image, ax=ax, shrink=0.8)
    slanted = any(len(n) > 6 for n in names)
    ax.set_xticks(np.arange(n_systems), list(names), rotation=30 if slanted else 0, ha="right" if slanted else "center")
    ax.set_yticks(np.arange(n_groups), list(groups))
    middle = (image.norm.vmin + image.norm.vmax) / 2
    for s in range(n_systems):
        for g in range(n_groups):
            v = f1[s, g]
            colour = "white" if v < middle else "black"
            ax.text(s, g, "" if np.isnan(v) else f"{v:.1f}", ha="center", va="center", fontsize=8, color=colour)
    ax.set_title(title)
    return _svg(fig)
