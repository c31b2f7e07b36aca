"""Matplotlib pictures of odds tables (no mathematics here)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["odds_heatmap", "success_curves"]


def odds_heatmap(
    table: pd.DataFrame,
    ax: Axes | None = None,
    *,
    cmap: str = "RdYlGn",
    annotate: bool | None = None,
    title: str | None = None,
) -> Axes:
    """Draw an odds table (e.g. from :func:`riskmath.odds_table`) as a heatmap.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows ``attackers``, columns ``defenders``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    cmap : str, default "RdYlGn"
        Colormap name.
    annotate : bool, optional
        Write the values in the cells; by default only for tables up to 15 x 15.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on (the figure is never shown).
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 6))
    values = table.to_numpy(dtype=float)
    limits = (0.0, 1.0) if table.attrs.get("statistic") == "win_probability" else (None, None)
    image = ax.imshow(values, origin="lower", cmap=cmap, aspect="auto", vmin=limits[0], vmax=limits[1])
    ax.figure.colorbar(image, ax=ax, label=str(table.attrs.get("statistic", "value")))
    rows, cols = values.shape
    step_r, step_c = max(1, rows // 15), max(1, cols // 15)
    ax.set_yticks(np.arange(0, rows, step_r), [str(v) for v in table.index[::step_r]])
    ax.set_xticks(np.arange(0, cols, step_c), [str(v) for v in table.columns[::step_c]])
    ax.set_ylabel(f"{table.index.name or 'attackers'} (armies able to attack)")
    ax.set_xlabel(table.columns.name or "defenders")
    if annotate is None:
        annotate = rows <= 15 and cols <= 15
    if annotate:
        for r in range(rows):
            for c in range(cols):
                ax.text(c, r, f"{values[r, c]:.2f}", ha="center", va="center", fontsize=7)
    if title:
        ax.set_title(title)
    return ax


def success_curves(
    curves: pd.DataFrame,
    ax: Axes | None = None,
    *,
    thresholds: tuple[float, ...] = (0.5, 0.9),
    title: str | None = None,
) -> Axes:
    """Draw success probabilities against the number of attackers.

    Parameters
    ----------
    curves : pandas.DataFrame
        Index: armies able to attack; one column per plan or path (e.g.
        built from :func:`riskmath.success_curve`), values in ``[0, 1]``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    thresholds : tuple of float, default (0.5, 0.9)
        Probabilities marked with dotted horizontal lines.
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    for name in curves.columns:
        ax.plot(curves.index, curves[name].astype(float), label=str(name))
    for level in thresholds:
        ax.axhline(level, color="grey", linestyle=":", linewidth=0.8)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"{curves.index.name or 'attackers'} (armies able to attack)")
    ax.set_ylabel("P(success)")
    ax.legend(loc="lower right", fontsize=8)
    if title:
        ax.set_title(title)
    return ax
