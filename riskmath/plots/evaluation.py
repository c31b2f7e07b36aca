"""Matplotlib pictures of estimated chances of victory and of how well they are calibrated (no mathematics here).

:func:`calibration` draws a reliability diagram from the bins of
:func:`riskmath.evaluate.calibration_table`, with the Wilson intervals of
:func:`riskmath.tournament.wilson_interval`; :func:`win_chances` replays a
:class:`riskmath.GameRecord` and draws
:func:`riskmath.evaluate.victory_chances_over` as stacked areas.  Every function
draws on the axes it is given (or on a new figure's), returns them, and never
shows the figure.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from riskmath._validation import check_bool
from riskmath.errors import InvalidArgumentError
from riskmath.plots.games import ending
from riskmath.plots.style import EVEN_COLOR, owner_color

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from riskmath.game.state import GameState
    from riskmath.sim.simulation import GameRecord

__all__ = ["calibration", "win_chances"]


def _axes(ax: Any, what: str, **figure: Any) -> Axes:
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    if ax is None:
        _, ax = plt.subplots(layout="constrained", **figure)
        return ax  # type: ignore[no-any-return]
    if not isinstance(ax, Axes):
        raise InvalidArgumentError(f"{what}: ax must be a matplotlib Axes, got {ax!r}")
    return ax


def calibration(
    predicted: Any,
    outcomes: Any,
    *,
    bins: int = 10,
    ax: Axes | None = None,
    confidence: float = 0.95,
    label: str | None = None,
    counts: bool = True,
) -> Axes:
    """Draw a reliability diagram: predicted probability against the observed frequency, bin by bin.

    Parameters
    ----------
    predicted : array_like of float
        Probabilities in [0, 1].
    outcomes : array_like of {0, 1}
        Whether each predicted event happened.
    bins : int, default 10
        Equal-width bins over [0, 1] (:func:`riskmath.evaluate.calibration_table`).
    ax : matplotlib.axes.Axes, optional
        By default a new figure's.
    confidence : float, default 0.95
        Of the Wilson interval drawn around each bin's observed frequency.
    label : str, optional
        The legend entry of the points (default ``"observed"``).
    counts : bool, default True
        Write each bin's number of predictions next to its point.

    Returns
    -------
    matplotlib.axes.Axes
        With the diagonal of perfect calibration (a dashed line), one point
        per non-empty bin at (mean prediction, observed frequency) with its
        Wilson interval as an error bar, and, with ``counts``, the counts as
        text.

    Raises
    ------
    InvalidArgumentError
        As :func:`~riskmath.evaluate.calibration_table` does, or if ``ax`` is
        not an Axes.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = calibration([0.1, 0.15, 0.8, 0.9], [0, 1, 1, 1], bins=2)
    >>> [text.get_text() for text in ax.texts]
    ['n=2', 'n=2']
    >>> ax.get_lines()[1].get_xydata().round(3).tolist()    # the points (the first line is the diagonal)
    [[0.125, 0.5], [0.85, 1.0]]
    >>> plt.close("all")
    """
    from riskmath.evaluate.estimate import calibration_table
    from riskmath.sim.tournaments import wilson_interval

    table = calibration_table(predicted, outcomes, bins=bins)
    intervals = [
        wilson_interval(int(e), int(n), confidence) for e, n in zip(table["events"], table["count"], strict=False)
    ]
    ax = _axes(ax, "calibration", figsize=(5, 5))
    x, y = table["predicted"].to_numpy(), table["observed"].to_numpy()
    below = [max(o - low, 0.0) for o, (low, _) in zip(y, intervals, strict=True)]
    above = [max(high - o, 0.0) for o, (_, high) in zip(y, intervals, strict=True)]
    ax.plot([0, 1], [0, 1], linestyle="--", color=EVEN_COLOR, linewidth=1, label="perfect calibration")
    ax.errorbar(
        x, y, yerr=[below, above], fmt="o", color=owner_color(0), capsize=3, label=label or "observed", zorder=3
    )
    if counts:
        for xi, yi, n in zip(x, y, table["count"], strict=True):
            right = xi < 0.8  # the label beside the point, inside the axes
            ax.annotate(
                f"n={n}",
                (xi, yi),
                xytext=(6 if right else -6, -10),
                textcoords="offset points",
                ha="left" if right else "right",
                fontsize=7,
            )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("predicted probability")
    ax.set_ylabel(f"observed frequency ({confidence:.0%} Wilson interval)")
    ax.legend(loc="upper left", fontsize=8)
    return ax


def _replayed(record: GameRecord) -> Iterator[GameState]:
    """Every state of a recorded game, from its first on (a new game's, or the state it was played on from)."""
    return record.states()


def win_chances(record: GameRecord, *, ax: Axes | None = None, stacked: bool = True) -> Axes:
    """Draw each player's estimated chance of victory at the start of every player-turn of a recorded game.

    The game is replayed (:meth:`~riskmath.GameRecord.states`: a game
    played on from a state, too) and
    :func:`riskmath.evaluate.victory_chances_over` evaluates
    :func:`~riskmath.evaluate.estimate_victory_probabilities` turn by turn.

    Parameters
    ----------
    record : GameRecord
        From :func:`riskmath.play`.
    ax : matplotlib.axes.Axes, optional
        By default a new figure's.
    stacked : bool, default True
        Stacked areas (the players' chances fill the height 1) or one line
        per player.

    Returns
    -------
    matplotlib.axes.Axes
        One area (or line) per player in the player's board color
        (``riskmath.plots.style.owner_color``), labeled ``player k``; the
        legend's title says how the game ended.

    Raises
    ------
    InvalidArgumentError
        If ``record`` is not a GameRecord or ``ax`` is not an Axes.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent
    >>> record = rm.play(rm.Game(3, max_turns=60), [AggressiveAgent()] * 3, seed=2)
    >>> ax = win_chances(record)
    >>> len(ax.collections), [text.get_text() for text in ax.get_legend().get_texts()]
    (3, ['player 0', 'player 1', 'player 2'])
    >>> plt.close("all")
    """
    from riskmath.evaluate.estimate import victory_chances_over
    from riskmath.sim.simulation import GameRecord

    if not isinstance(record, GameRecord):
        raise InvalidArgumentError(f"record must be a GameRecord (from riskmath.play), got {record!r}")
    stacked = check_bool("stacked", stacked)
    ax = _axes(ax, "win_chances", figsize=(7, 3.5))
    chances = victory_chances_over(_replayed(record))
    game = record.final.game
    turns = chances.index.to_numpy()
    players = list(range(game.players))
    colors = [owner_color(p, game.players) for p in players]
    labels = [game.owner_name(p) for p in players]
    if stacked:
        ax.stackplot(turns, *(chances[p].to_numpy() for p in players), colors=colors, labels=labels, step="post")
    else:
        for p, color, label in zip(players, colors, labels, strict=True):
            ax.plot(turns, chances[p].to_numpy(), color=color, label=label, drawstyle="steps-post")
    ax.set_xlim(turns[0], turns[-1])
    ax.set_ylim(0, 1)
    ax.set_xlabel("turn")
    ax.set_ylabel("estimated chance of victory")
    ax.legend(title=ending(record), fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the areas
    return ax
