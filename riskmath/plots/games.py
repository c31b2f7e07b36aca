"""Matplotlib pictures of played games and simulations (no mathematics here).

:func:`game_timeline` draws one :class:`riskmath.GameRecord` turn by turn;
:func:`tournament` draws the table of :func:`riskmath.tournament.tournament`
or of :func:`riskmath.simulate`.  Every function draws on the axes it is
given (or on a new figure's), returns them, and never shows the figure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath.errors import InvalidArgumentError
from riskmath.plots.style import owner_color

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from riskmath.sim.simulation import GameRecord

__all__ = ["game_timeline", "tournament"]

#: The columns that make a table one of :func:`riskmath.tournament.tournament`.
TOURNAMENT_COLUMNS = ("lineup", "agent", "win_rate", "ci_low", "ci_high")
#: The columns that make a table one of :func:`riskmath.simulate`.
SIMULATE_COLUMNS = ("seed", "winner", "draw", "turns")

_PANELS = (("territories", "territories"), ("armies", "armies"), ("cards", "cards in hand"))


def _numbered(columns: Sequence[Any], prefix: str) -> list[int]:
    """The ``k`` of the columns named ``prefix_k``, in increasing order."""
    pattern = re.compile(rf"{re.escape(prefix)}_(\d+)")
    return sorted(int(match[1]) for name in columns if (match := pattern.fullmatch(str(name))))


def _panels(axes: Any, n: int, what: str, **figure: Any) -> np.ndarray:
    """``n`` axes as a 1-D object array: new ones stacked in a figure, or the given ones checked."""
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    if axes is None:
        _, made = plt.subplots(n, 1, squeeze=False, layout="constrained", **figure)
        return np.asarray(made).ravel()
    if not isinstance(axes, Axes) and not isinstance(axes, (Sequence, np.ndarray)):
        raise InvalidArgumentError(f"{what} needs {n} matplotlib Axes, got {axes!r}")
    given = np.array([axes] if isinstance(axes, Axes) else list(axes), dtype=object).ravel()
    if len(given) != n or not all(isinstance(ax, Axes) for ax in given):
        raise InvalidArgumentError(f"{what} needs {n} matplotlib Axes, got {axes!r}")
    return given


def game_timeline(record: GameRecord, axes: Sequence[Axes] | np.ndarray | None = None) -> np.ndarray:
    """Draw a played game: territories, armies and cards of every owner, turn by turn.

    Parameters
    ----------
    record : GameRecord
        From :func:`riskmath.play` (with its history kept, the default).
    axes : sequence of three matplotlib.axes.Axes, optional
        The territories, armies and cards panels; by default a new figure's,
        stacked, sharing the turn axis.

    Returns
    -------
    numpy.ndarray of matplotlib.axes.Axes
        The three panels.  Each holds one line per owner (players and neutral
        owners; the cards panel players only), in the owner's color on the
        board (``riskmath.plots.style.owner_color``) and labeled with
        ``Game.owner_name``; the legend is on the first panel, and its title
        says how the game ended.

    Raises
    ------
    InvalidArgumentError
        If ``record`` is not a GameRecord or has no history
        (``play(..., record_history=False)``), or ``axes`` is not three Axes.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> record = rm.play(rm.Game(2, max_turns=30), [AggressiveAgent(), RandomAgent()], seed=1)
    >>> axes = game_timeline(record)
    >>> [len(ax.get_lines()) for ax in axes]  # player 0, player 1, neutral (no cards)
    [3, 3, 2]
    >>> [text.get_text() for text in axes[0].get_legend().get_texts()]
    ['player 0', 'player 1', 'neutral']
    >>> plt.close("all")
    """
    _check_record(record, "game_timeline")
    if not record.snapshots:
        raise InvalidArgumentError("the record has no history: play the game with record_history=True")
    history = record.history()
    game = record.final.game
    panels = _panels(axes, 3, "game_timeline", sharex=True, figsize=(7, 8))
    turns = history.index.to_numpy()
    for ax, (column, label) in zip(panels, _PANELS, strict=True):
        for owner in _numbered(history.columns, column):
            values = history[f"{column}_{owner}"].to_numpy()
            ax.plot(
                turns,
                values,
                color=owner_color(owner, game.players),
                label=game.owner_name(owner),
                drawstyle="steps-post",
            )
        ax.set_ylabel(label)
    panels[-1].set_xlabel("turn")
    panels[0].legend(title=ending(record), fontsize=8, loc="best")
    return panels


def _check_record(record: object, what: str) -> None:
    """InvalidArgumentError unless ``record`` is a :class:`~riskmath.GameRecord`."""
    from riskmath.sim.simulation import GameRecord

    if not isinstance(record, GameRecord):
        raise InvalidArgumentError(
            f"{what} needs a riskmath.GameRecord (from riskmath.play), got {type(record).__name__}: {record!r}"
        )


def ending(record: GameRecord) -> str:
    """How a recorded game ended, for a legend's title: won by whom and when, a draw, or unfinished."""
    _check_record(record, "ending")
    final = record.final
    if final.winner is not None:
        return f"won by {final.game.owner_name(final.winner)} on turn {final.turn}"
    if final.is_terminal():
        return f"a draw after {final.turn} turns"
    return f"unfinished after {final.turn} turns"


def _missing(results: pd.DataFrame, columns: Sequence[str]) -> list[str]:
    return [name for name in columns if name not in results.columns]


def tournament(
    results: pd.DataFrame,
    axes: Axes | Sequence[Axes] | np.ndarray | None = None,
    *,
    agents: Sequence[Any] | None = None,
    confidence: float = 0.95,
) -> np.ndarray:
    """Draw win rates with their Wilson intervals from a tournament or a simulation.

    Two layouts are understood, told apart by their columns:

    - the table of :func:`riskmath.tournament.tournament` (``lineup``,
      ``agent``, ``win_rate``, ``ci_low``, ``ci_high``): one panel of
      horizontal bars, the win rate of every agent in every line-up, with
      the table's intervals as error bars;
    - the table of :func:`riskmath.simulate` (``seed``, ``winner``, ``draw``,
      ``turns``): a panel with the win rate of every seat and its Wilson
      interval, and a histogram of the games' lengths.

    Parameters
    ----------
    results : pandas.DataFrame
        One of the two tables.
    axes : matplotlib.axes.Axes or sequence of them, optional
        One panel for a tournament table, two for a simulation table; a new
        figure's by default.
    agents : sequence of str or Agent, optional
        Simulation tables only: a name (or an agent, for its ``name``) per
        seat, to label the bars.
    confidence : float, default 0.95
        Simulation tables only: of the Wilson intervals (a tournament table
        has its own).

    Returns
    -------
    numpy.ndarray of matplotlib.axes.Axes
        The panels drawn on: one for a tournament table, two for a
        simulation table (always an array, whatever the layout).

    Raises
    ------
    InvalidArgumentError
        If ``results`` is not a DataFrame of either layout (the message names
        the missing columns), has no rows, or ``agents`` or ``axes`` do not
        fit it.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> seats = [AggressiveAgent(), RandomAgent()]
    >>> table = rm.simulate(rm.Game(2, max_turns=60), seats, 10, seed=0)
    >>> rates, lengths = tournament(table, agents=seats)
    >>> [float(bar.get_width()) for bar in rates.patches]
    [1.0, 0.0]
    >>> [label.get_text() for label in rates.get_yticklabels()]
    ['seat 0: aggressive', 'seat 1: random']
    >>> int(sum(bar.get_height() for bar in lengths.patches))
    10
    >>> plt.close("all")
    """
    import pandas as pd

    if not isinstance(results, pd.DataFrame):
        raise InvalidArgumentError(f"results must be a pandas DataFrame, got {type(results).__name__}")
    missing_tournament = _missing(results, TOURNAMENT_COLUMNS)
    missing_simulate = _missing(results, SIMULATE_COLUMNS)
    if missing_tournament and missing_simulate:
        raise InvalidArgumentError(
            "results is neither a tournament table (missing columns "
            f"{', '.join(missing_tournament)}) nor a simulate table (missing columns {', '.join(missing_simulate)})"
        )
    if results.empty:
        raise InvalidArgumentError("results has no rows: there is nothing to draw")
    if not missing_tournament:
        if agents is not None:
            raise InvalidArgumentError("agents= labels the seats of a simulate table; a tournament table names them")
        (ax,) = panels = _panels(axes, 1, "tournament (of a tournament table)", figsize=(7, 1.2 + 0.4 * len(results)))
        _tournament_bars(results, ax)
        return panels
    panels = _panels(axes, 2, "tournament (of a simulate table)", figsize=(7, 7))
    _seat_bars(results, panels[0], agents, confidence)
    _game_lengths(results, panels[1])
    return panels


def _rate_bars(ax: Axes, labels: list[str], rates: list[float], lows: list[float], highs: list[float]) -> None:
    """Horizontal win-rate bars, top to bottom in the given order, with interval error bars."""
    positions = np.arange(len(labels))
    below = np.maximum(np.subtract(rates, lows), 0.0)
    above = np.maximum(np.subtract(highs, rates), 0.0)
    colors = [owner_color(k) for k in range(len(labels))]
    ax.barh(positions, rates, xerr=np.vstack([below, above]), color=colors, capsize=4, alpha=0.8)
    ax.set_yticks(positions, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate")


def _tournament_bars(results: pd.DataFrame, ax: Axes) -> None:
    lineups = results["lineup"].astype(str)
    several = lineups.nunique() > 1
    labels = [
        f"{agent} ({lineup})" if several else str(agent)
        for agent, lineup in zip(results["agent"], lineups, strict=True)
    ]
    if "seat" in results.columns:  # a table by seat (tournament(..., by_seat=True)): seat 0 moves first
        labels = [f"{label}, seat {seat}" for label, seat in zip(labels, results["seat"], strict=True)]
    rates, lows, highs = (results[name].astype(float).tolist() for name in ("win_rate", "ci_low", "ci_high"))
    _rate_bars(ax, labels, rates, lows, highs)
    games = results["games"].iloc[0] if "games" in results.columns and results["games"].nunique() == 1 else None
    ax.set_title("tournament" + (f": {games} games per line-up" if games is not None else ""))


def _seat_name(agent: Any) -> str:
    return agent if isinstance(agent, str) else str(getattr(agent, "name", agent))


def _seat_bars(results: pd.DataFrame, ax: Axes, agents: Sequence[Any] | None, confidence: float) -> None:
    from riskmath.sim.tournaments import wilson_interval

    seats = _numbered(results.columns, "territories")
    if not seats:
        winners = results["winner"].dropna()
        seats = list(range(int(winners.max()) + 1)) if len(winners) else []
    if agents is not None:
        if isinstance(agents, str) or len(agents) != len(seats):
            raise InvalidArgumentError(f"agents must name each of the {len(seats)} seats, got {agents!r}")
        labels = [f"seat {k}: {_seat_name(agent)}" for k, agent in zip(seats, agents, strict=True)]
    else:
        labels = [f"seat {k}" for k in seats]
    n = len(results)
    winners = results["winner"].dropna().astype(int)
    wins = [int((winners == k).sum()) for k in seats]
    intervals = [wilson_interval(w, n, confidence) for w in wins]
    _rate_bars(ax, labels, [w / n for w in wins], [low for low, _ in intervals], [high for _, high in intervals])
    draws = int(results["draw"].astype(bool).sum())
    ax.set_title(f"{n} games, {draws} draws; {confidence:.0%} Wilson intervals")


def _game_lengths(results: pd.DataFrame, ax: Axes) -> None:
    from matplotlib.ticker import MaxNLocator

    turns = results["turns"].to_numpy(dtype=float)
    low, high = turns.min(), turns.max()
    # One bin per number of turns while they fit, else 30 bins.
    bins: Any = np.arange(low - 0.5, high + 1.5) if high - low < 30 else 30
    ax.hist(turns, bins=bins, color="gray", edgecolor="white")
    ax.set_xlabel("game length (turns)")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
