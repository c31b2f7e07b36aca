"""Pictures of odds tables, one roll, one battle, one conquest and a policy (use :mod:`riskmath.plots`).

Also holds :func:`axes_or_new`, the plots layer's helper for "these axes,
or a new figure's" (the colors every picture shares live in
:mod:`riskmath.plots.style`).  No mathematics here: the functions draw the
numbers the library computes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import shown
from riskmath.errors import InvalidArgumentError
from riskmath.odds.battles import Battle
from riskmath.odds.conquests import Conquest
from riskmath.odds.dice import RollOdds
from riskmath.odds.policy import STOP, Policy
from riskmath.plots.style import (
    ATTACKER_COLOR,
    DEFENDER_COLOR,
    DICE_COLORMAP,
    EVEN_COLOR,
    MIXED_COLOR,
    STOP_COLOR,
    text_color,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.colorbar import Colorbar
    from matplotlib.image import AxesImage

__all__ = ["battle_outcomes", "conquest_reach", "odds_heatmap", "policy_map", "roll_outcomes"]


# -- helpers shared by the plot modules ------------------------------------------


def axes_or_new(ax: Axes | None, figsize: tuple[float, float]) -> Axes:
    """``ax``, or the axes of a new figure of size ``figsize``.

    A helper of the plots layer (the odds and planning pictures call it), not
    part of the public API: it is not in ``__all__`` nor re-exported by
    :mod:`riskmath.plots`.
    """
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=figsize)
    return new


def _check_instance(name: str, value: object, kind: type, hint: str) -> None:
    """Raise :class:`InvalidArgumentError` naming ``value`` unless it is a ``kind``."""
    if not isinstance(value, kind):
        raise InvalidArgumentError(f"{name} must be a riskmath.{kind.__name__} (from {hint}), got {value!r}")


def _percent(value: float | Fraction) -> str:
    return f"{float(value):.1%}"


# -- one roll, one battle, one conquest ------------------------------------------


def _roll_label(attacker_losses: int, defender_losses: int) -> str:
    if attacker_losses == 0:
        return f"D loses {defender_losses}"
    if defender_losses == 0:
        return f"A loses {attacker_losses}"
    if attacker_losses == defender_losses:
        return f"each loses {attacker_losses}"
    return f"A loses {attacker_losses}, D loses {defender_losses}"


def roll_outcomes(odds: RollOdds, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """Draw the outcomes of one roll (a :class:`riskmath.RollOdds`) as bars.

    Bars run from the attacker's worst outcome ("A loses 2") to its best
    ("D loses 2"), colored by the side that comes out ahead, each labeled
    with its exact probability.

    Parameters
    ----------
    odds : RollOdds
        From :func:`riskmath.roll_odds`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    title : str, optional
        Axes title; by default the roll.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidArgumentError
        If ``odds`` is not a :class:`riskmath.RollOdds`.

    Examples
    --------
    >>> import riskmath as rm
    >>> ax = roll_outcomes(rm.roll_odds(3, 2))
    >>> [label.get_text() for label in ax.get_xticklabels()]
    ['A loses 2', 'each loses 1', 'D loses 2']
    >>> [round(float(bar.get_height()), 4) for bar in ax.patches]
    [0.2926, 0.3358, 0.3717]
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    _check_instance("odds", odds, RollOdds, "riskmath.roll_odds(attacker_dice, defender_dice)")
    ax = axes_or_new(ax, (6, 4))
    items = sorted(odds.items(), key=lambda item: -item[0][0])  # the attacker's heaviest loss first
    losses = [key for key, _ in items]
    colors = [ATTACKER_COLOR if d > a else DEFENDER_COLOR if a > d else EVEN_COLOR for a, d in losses]
    positions = np.arange(len(items))
    bars = ax.bar(positions, [float(p) for _, p in items], color=colors)
    ax.bar_label(bars, labels=[f"{_percent(p)}\n{p}" for _, p in items], fontsize=8)
    ax.set_xticks(positions, [_roll_label(a, d) for a, d in losses])
    ax.set_ylim(0, 1.2 * max(bar.get_height() for bar in bars))
    ax.set_ylabel("probability")
    ax.set_title(title or f"One roll: {odds.attacker_dice} dice against {odds.defender_dice} ({odds!r})")
    return ax


def battle_outcomes(battle: Battle, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """Draw the final-state distribution of a battle as bars.

    Right of zero: the attacker wins with ``1..attackers`` armies able to
    attack left (in ``ATTACKER_COLOR``).  Left of zero: the territory
    holds with ``1..defenders`` defenders left (in ``DEFENDER_COLOR``;
    the attacker was beaten or stopped at ``stop_at``).  One bar per count,
    zero-height where impossible; the title gives the win probability.

    Parameters
    ----------
    battle : Battle
        From :func:`riskmath.battle` (``exact=True`` works too).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    title : str, optional
        Axes title; by default the battle and its win probability.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidArgumentError
        If ``battle`` is not a :class:`riskmath.Battle`.

    Examples
    --------
    >>> import riskmath as rm
    >>> ax = battle_outcomes(rm.battle(5, 3))
    >>> len(ax.patches), ax.get_title()
    (8, 'Battle(5, 3): P(attacker wins) = 76.9%')
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    _check_instance("battle", battle, Battle, "riskmath.battle(attackers, defenders)")
    ax = axes_or_new(ax, (7, 4))
    wins = {a: float(p) for (a, d), p in battle.outcomes.items() if d == 0}
    holds = {d: float(p) for d, p in battle.defenders_left_distribution.items() if d > 0}
    attackers = np.arange(1, battle.attackers + 1)
    defenders = np.arange(1, battle.defenders + 1)
    if battle.attackers:
        heights = [wins.get(int(a), 0.0) for a in attackers]
        ax.bar(attackers, heights, color=ATTACKER_COLOR, label="attacker wins: attackers left")
    heights = [holds.get(int(d), 0.0) for d in defenders]
    ax.bar(-defenders, heights, color=DEFENDER_COLOR, label="defender holds: defenders left")
    _absolute_integer_ticks(ax)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("armies left at the end (defenders | attackers)")
    ax.set_ylabel("probability")
    ax.legend(fontsize=8)
    ax.set_title(title or f"{battle!r}: P(attacker wins) = {_percent(battle.win_probability)}")
    return ax


def _absolute_integer_ticks(ax: Axes) -> None:
    """Integer x ticks labeled without sign (defender counts are drawn at negative x)."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{abs(x):g}"))


def conquest_reach(conquest: Conquest, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """Draw P(at least ``k`` territories captured) of a conquest, ``k = 1..n``.

    One bar per territory of the path (the last one, in
    ``ATTACKER_COLOR``, is the win probability, also marked by a
    dashed line); tick labels give each territory's defenders.

    Parameters
    ----------
    conquest : Conquest
        From :func:`riskmath.conquest`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    title : str, optional
        Axes title; by default the conquest.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidArgumentError
        If ``conquest`` is not a :class:`riskmath.Conquest`.

    Examples
    --------
    >>> import riskmath as rm
    >>> ax = conquest_reach(rm.conquest(12, [3, 2, 2]))
    >>> [round(float(bar.get_height()), 4) for bar in ax.patches]
    [0.9935, 0.9556, 0.8387]
    >>> ax.get_legend().get_texts()[0].get_text()
    'P(all 3 captured) = 83.9%'
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    _check_instance("conquest", conquest, Conquest, "riskmath.conquest(attackers, defenders)")
    ax = axes_or_new(ax, (7, 4))
    reach = conquest.reach_probabilities
    steps = np.array(reach.index, dtype=int)
    colors = [EVEN_COLOR] * (len(steps) - 1) + [ATTACKER_COLOR]
    bars = ax.bar(steps, [float(p) for p in reach], color=colors)
    if len(steps) <= 15:
        ax.bar_label(bars, labels=[_percent(p) for p in reach], fontsize=8)
    won = conquest.win_probability
    label = f"P(all {len(steps)} captured) = {_percent(won)}"
    ax.axhline(float(won), color=ATTACKER_COLOR, linestyle="--", linewidth=1, label=label)
    ax.set_xticks(steps, [f"{k}\n({d})" for k, d in zip(steps, conquest.defenders, strict=True)])
    ax.set_xlabel("territories captured, at least (defenders of the k-th)")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1.1)
    ax.legend(loc="lower left", fontsize=8)
    ax.set_title(title or repr(conquest))
    return ax


# -- odds tables --------------------------------------------------------------


def _is_probability(table: pd.DataFrame, values: np.ndarray) -> bool:
    """Whether a table holds probabilities: its ``statistic`` says so, or (unnamed) its values lie in [0, 1]."""
    statistic = table.attrs.get("statistic")
    if statistic is not None:
        return str(statistic).endswith("probability")
    finite = values[np.isfinite(values)]
    return finite.size > 0 and bool(np.all((finite >= 0) & (finite <= 1)))


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
        the color bar); ``None`` to omit it.  Only drawn for probabilities
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
        If ``table`` is not a non-empty DataFrame of numbers, or ``contour``
        is not a number strictly between 0 and 1.

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
    import pandas as pd

    if not isinstance(table, pd.DataFrame) or table.empty:
        raise InvalidArgumentError(
            f"table must be a non-empty DataFrame (e.g. riskmath.odds_table), got {shown(table)}"
        )
    try:
        values = table.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise InvalidArgumentError("table must hold numbers (e.g. riskmath.odds_table)") from None
    ax = axes_or_new(ax, (7, 6))
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
            color = text_color(image.cmap(image.norm(value)))
            text = _cell_text(value, percent)
            ax.text(c, r, text, ha="center", va="center", fontsize=fontsize, color=color)


# -- policies --------------------------------------------------------------------


def _policy_categories(actions: Sequence[Any]) -> list[Any]:
    """The actions present: dice counts (most first), then ``"stop"``, then ``"mixed"``."""
    present = set(actions)
    dice = sorted((a for a in present if isinstance(a, int)), reverse=True)
    return dice + [name for name in (STOP, "mixed") if name in present]


def _policy_colors(categories: Sequence[Any], max_dice: int) -> list[Any]:
    import matplotlib as mpl

    greens = mpl.colormaps[DICE_COLORMAP]
    fixed = {STOP: STOP_COLOR, "mixed": MIXED_COLOR}
    return [fixed[c] if c in fixed else greens(0.05 + 0.9 * c / max_dice) for c in categories]


def _policy_label(category: Any) -> str:
    if isinstance(category, int):
        return f"{category} {'die' if category == 1 else 'dice'}"
    return str(category)


def policy_map(policy: Policy, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """Draw an optimal attack policy as a map over states (attackers, defenders).

    Each cell is the attacker's optimal action at that state: the number of
    dice to throw, ``"stop"``, or ``"mixed"`` (a mixed strategy, in
    two-sided policies), one color per action present, with a legend.

    Parameters
    ----------
    policy : Policy
        From :func:`riskmath.optimal_policy`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    title : str, optional
        Axes title; by default the policy.

    Returns
    -------
    matplotlib.axes.Axes
        The image's pixel centers sit at the integer states ``1..attackers``
        (y) by ``1..defenders`` (x); its values index the legend entries.

    Raises
    ------
    InvalidArgumentError
        If ``policy`` is not a :class:`riskmath.Policy`.

    Examples
    --------
    >>> import riskmath as rm
    >>> ax = policy_map(rm.optimal_policy(10, 10, lambda a, d: (d == 0) - (a < 3)))
    >>> [text.get_text() for text in ax.get_legend().get_texts()]
    ['3 dice', '2 dice', '1 die', 'stop']
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    _check_instance("policy", policy, Policy, "riskmath.optimal_policy(attackers, defenders)")
    ax = axes_or_new(ax, (7, 6))
    actions = policy.table()["action"]
    categories = _policy_categories(list(actions))
    codes = np.zeros((policy.attackers, policy.defenders), dtype=int)
    for (a, d), action in actions.items():
        codes[a - 1, d - 1] = categories.index(action)
    colors = _policy_colors(categories, policy.rules.attacker_max_dice)
    extent = (0.5, policy.defenders + 0.5, 0.5, policy.attackers + 0.5)
    ax.imshow(
        codes,
        origin="lower",
        cmap=ListedColormap(colors),
        vmin=-0.5,
        vmax=len(categories) - 0.5,
        interpolation="nearest",
        aspect="auto",
        extent=extent,
    )
    handles = [Patch(facecolor=color, label=_policy_label(c)) for c, color in zip(categories, colors, strict=True)]
    ax.legend(handles=handles, title="attacker", loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8)
    _integer_ticks(ax)
    ax.set_xlabel("defenders")
    ax.set_ylabel("attackers (armies able to attack)")
    ax.set_title(title or f"Optimal play: {policy!r}")
    return ax


def _integer_ticks(ax: Axes) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
