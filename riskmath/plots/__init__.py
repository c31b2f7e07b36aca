"""Matplotlib pictures of the numbers riskmath computes (no mathematics here).

Every function takes an optional ``ax`` (a new figure's axes by default),
draws on it and returns it; none calls ``plt.show()``.  Matplotlib is only
imported when a function is called.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from riskmath.errors import InvalidArgumentError
from riskmath.odds.planning import armies_needed, success_curve
from riskmath.plots.odds import (
    ATTACKER_COLOUR,
    DEFENDER_COLOUR,
    EVEN_COLOUR,
    _axes,
    battle_outcomes,
    conquest_reach,
    policy_map,
    roll_outcomes,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.colorbar import Colorbar
    from matplotlib.image import AxesImage

__all__ = [
    "ATTACKER_COLOUR",
    "DEFENDER_COLOUR",
    "EVEN_COLOUR",
    "battle_outcomes",
    "board",
    "board_svg",
    "conquest_reach",
    "game_timeline",
    "layout",
    "odds_heatmap",
    "policy_map",
    "roll_outcomes",
    "success_curves",
    "success_vs_attackers",
    "tournament",
]

# -- odds tables --------------------------------------------------------------


def _is_probability(table: pd.DataFrame, values: np.ndarray) -> bool:
    """Whether a table holds probabilities: its ``statistic`` says so, or (unnamed) its values lie in [0, 1]."""
    statistic = table.attrs.get("statistic")
    if statistic is not None:
        return str(statistic).endswith("probability")
    finite = values[np.isfinite(values)]
    return finite.size > 0 and bool(np.all((finite >= 0) & (finite <= 1)))


def _text_colour(rgba: Sequence[float] | np.ndarray) -> str:
    """Black or white, whichever contrasts more with a cell of colour ``rgba`` (WCAG relative luminance)."""
    channels = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3]]
    luminance = 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    return "black" if luminance > 0.179 else "white"


def _cell_text(value: float, percent: bool) -> str:
    """A cell's annotation: a whole percentage (never rounded to 0 % or 100 %), or 2 decimals."""
    if not percent:
        return f"{value:.2f}"
    if 0 < value < 0.005:
        return "<1%"
    if 0.995 <= value < 1:
        return ">99%"
    return f"{value:.0%}"


def odds_heatmap(
    table: pd.DataFrame,
    ax: Axes | None = None,
    *,
    cmap: str = "RdYlGn",
    annotate: bool | None = None,
    title: str | None = None,
    contour: float | None = 0.5,
) -> Axes:
    """Draw an odds table (e.g. from :func:`riskmath.odds_table`) as a heatmap.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows ``attackers``, columns ``defenders``; ``table.attrs["statistic"]``
        (set by :func:`riskmath.odds_table`) names the values.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    cmap : str, default "RdYlGn"
        Colormap name.
    annotate : bool, optional
        Write the values in the cells (percentages for probabilities, else two
        decimals, in black or white for contrast with the cell); by default
        only for tables up to 15 x 15.
    title : str, optional
        Axes title.
    contour : float or None, default 0.5
        Draw this probability level as a black contour line (also marked on
        the colour bar); ``None`` to omit it.  Only drawn for probabilities
        (a statistic whose name ends in ``probability``, or, for a table
        without one, values within ``[0, 1]``), and only where the table
        crosses the level.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on (the figure is never shown).

    Raises
    ------
    InvalidArgumentError
        If ``contour`` is not a number strictly between 0 and 1.

    Examples
    --------
    >>> import riskmath as rm
    >>> ax = odds_heatmap(rm.odds_table(6, 6))
    >>> ax.get_images()[0].get_clim(), len(ax.texts), len(ax.collections)    # one 50 % contour
    ((0.0, 1.0), 36, 1)
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    if contour is not None and (isinstance(contour, bool) or not isinstance(contour, (int, float, Fraction))):
        raise InvalidArgumentError(f"contour must be a probability or None, got {contour!r}")
    if contour is not None and not 0 < contour < 1:
        raise InvalidArgumentError(f"contour must be strictly between 0 and 1, got {contour!r}")
    ax = _axes(ax, (7, 6))
    values = table.to_numpy(dtype=float)
    probability = _is_probability(table, values)
    limits = (0.0, 1.0) if probability else (None, None)
    image = ax.imshow(values, origin="lower", cmap=cmap, aspect="auto", vmin=limits[0], vmax=limits[1])
    colorbar = ax.figure.colorbar(image, ax=ax, label=str(table.attrs.get("statistic", "value")))
    rows, cols = values.shape
    step_r, step_c = max(1, rows // 15), max(1, cols // 15)
    ax.set_yticks(np.arange(0, rows, step_r), [str(v) for v in table.index[::step_r]])
    ax.set_xticks(np.arange(0, cols, step_c), [str(v) for v in table.columns[::step_c]])
    ax.set_ylabel(f"{table.index.name or 'attackers'} (armies able to attack)")
    ax.set_xlabel(table.columns.name or "defenders")
    if contour is not None and probability:
        _draw_contour(ax, colorbar, values, float(contour))
    if annotate is None:
        annotate = rows <= 15 and cols <= 15
    if annotate:
        _annotate_cells(ax, image, values, percent=probability)
    if title:
        ax.set_title(title)
    return ax


def _draw_contour(ax: Axes, colorbar: Colorbar, values: np.ndarray, level: float) -> None:
    """The ``level`` contour of ``values`` in cell coordinates, if the table crosses it."""
    finite = values[np.isfinite(values)]
    if min(values.shape) < 2 or finite.size == 0 or not finite.min() < level < finite.max():
        return  # nothing to draw (Matplotlib would warn)
    lines = ax.contour(values, levels=[level], colors="black", linewidths=1.5)
    colorbar.add_lines(lines)


def _annotate_cells(ax: Axes, image: AxesImage, values: np.ndarray, *, percent: bool) -> None:
    rows, cols = values.shape
    fontsize = 9 if max(rows, cols) <= 8 else 7
    for r in range(rows):
        for c in range(cols):
            value = values[r, c]
            if not np.isfinite(value):
                continue
            colour = _text_colour(image.cmap(image.norm(value)))
            text = _cell_text(value, percent)
            ax.text(c, r, text, ha="center", va="center", fontsize=fontsize, color=colour)


# -- planning -------------------------------------------------------------------


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

    Examples
    --------
    >>> import pandas as pd
    >>> import riskmath as rm
    >>> curves = pd.DataFrame({"3 then 2": rm.success_curve([3, 2], 12), "5": rm.success_curve([5], 12)})
    >>> ax = success_curves(curves, title="Two paths")
    >>> [t.get_text() for t in ax.get_legend().get_texts()], ax.get_ylabel()
    (['3 then 2', '5'], 'P(success)')
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    ax = _axes(ax, (7, 4.5))
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


def success_vs_attackers(
    defenders: int | Sequence[int],
    ax: Axes | None = None,
    *,
    max_attackers: int | None = None,
    p: float | Fraction = 0.9,
    rules: object = None,
    title: str | None = None,
) -> Axes:
    """Draw P(taking a path) against the number of attackers, with the armies needed marked.

    The curve is :func:`riskmath.success_curve`; a dashed vertical line (and
    a label) marks :func:`riskmath.armies_needed` for probability ``p``, and
    a dotted horizontal line marks ``p``.

    Parameters
    ----------
    defenders : int or sequence of int
        The path, as for :func:`riskmath.conquest`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    max_attackers : int, optional
        Right end of the curve; by default twice the armies needed (at least 10).
    p : float or Fraction, default 0.9
        Required success probability, strictly between 0 and 1.
    rules : CombatRules, optional
        Combat variant.
    title : str, optional
        Axes title; by default the path.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidArgumentError
        For a bad path, ``p`` or ``max_attackers`` (from the library functions).

    Examples
    --------
    >>> ax = success_vs_attackers([3, 2, 2], p=0.9)
    >>> ax.get_lines()[-1].get_xdata()    # armies_needed([3, 2, 2], 0.9)
    [14, 14]
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    needed = armies_needed(defenders, p, rules=rules)
    if max_attackers is None:
        max_attackers = max(2 * needed, 10)
    curve = success_curve(defenders, max_attackers, rules=rules)
    ax = _axes(ax, (7, 4.5))
    ax.plot(
        curve.index, curve.to_numpy(dtype=float), marker="o", markersize=3, color=ATTACKER_COLOUR, label="P(success)"
    )
    ax.axhline(float(p), color="grey", linestyle=":", linewidth=0.8, label=f"P = {float(p):g}")
    ax.axvline(needed, color="black", linestyle="--", linewidth=1, label=f"{needed} armies for P >= {float(p):g}")
    ax.annotate(str(needed), xy=(needed, 0), xytext=(3, 3), textcoords="offset points", fontsize=9)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("attackers (armies able to attack)")
    ax.set_ylabel("P(success)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title or f"Taking a path defended by {defenders}")
    return ax


# ---------------------------------------------------------------------------------
# The board, game and simulation pictures live in their own modules.
# ---------------------------------------------------------------------------------
from riskmath.plots.boardmap import board, board_svg, layout  # noqa: E402
from riskmath.plots.games import game_timeline, tournament  # noqa: E402
