"""Who wins from here: chances of victory from any position, by playing games on from it (rollouts).

:func:`victory_probabilities` plays ``n_games`` games on from a state with
:func:`~riskmath.simulate` (``start=state``): each game from a
copy of the state reseeded from ``seed`` (so that the state's own future
dice are never used), with fresh copies of the agents.  It reports each
player's share of victories with a 95 % Wilson score interval and, in the
table's ``attrs``, the share of games ended by the turn cap.  The answer is
the chance of victory *when these agents play on*: it is a property of the
agents as much as of the position.  :func:`win_probabilities` is its old
name (deprecated), with the old column names.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING

from riskmath._validation import check_int, check_probability, deprecated, shown
from riskmath.agents import Agent
from riskmath.errors import InvalidArgumentError
from riskmath.game.game import Game
from riskmath.game.rules import MAX_OPTION
from riskmath.game.state import GameState
from riskmath.sim.simulation import seat_agents, simulate
from riskmath.sim.tournaments import wilson_interval

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DEFAULT_MORE_TURNS", "victory_probabilities", "win_probabilities"]

#: Player-turns played on from a state at most, when neither ``max_turns`` nor the game sets a cap.
DEFAULT_MORE_TURNS = 1000


def _cap(state: GameState, max_turns: int | None) -> int:
    """The turn cap (counted from the start of the game) for games played on from ``state``."""
    if max_turns is not None:  # (counted from the state's turn: the game's cap is the sum, within the rules' bound)
        return state.turn + check_int("max_turns", max_turns, minimum=1, maximum=MAX_OPTION - state.turn)
    own = state.game.max_turns
    if own is not None:
        return max(own, state.turn)
    if state.turn >= MAX_OPTION:  # (a state built at the rules' last turn: no cap of ours fits after it)
        raise InvalidArgumentError(
            f"the state is at turn {state.turn}, the last a game may reach: no turn is left to play"
        )
    return min(state.turn + DEFAULT_MORE_TURNS, MAX_OPTION)  # (a state built near the rules' last turn: up to it)


def victory_probabilities(
    state: GameState,
    agents: Sequence[Agent | str] | Agent | str,
    n_games: int,
    *,
    seed: int = 0,
    n_jobs: int = 1,
    executor: Executor | None = None,
    max_turns: int | None = None,
    progress: bool = False,
    move_time: float | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Each player's chance of victory from ``state``, by playing ``n_games`` games on from it.

    Game ``k`` starts from ``state.reseeded(s_k)``, ``s_k`` the ``k``-th of
    :func:`~riskmath.sim.game_seeds` ``(seed, n_games)``, so the
    state's own generator (its future dice and cards) is never used: two
    copies of a position with different generators give the same table.
    The games run as in :func:`~riskmath.simulate`
    (``start=state``), so the table is the same whether they run in one
    process, in ``n_jobs`` processes or on an ``executor``.

    Parameters
    ----------
    state : GameState
        Any sound state, e.g. from :meth:`riskmath.Game.position`, a saved game
        (``GameState.from_json``) or ``record.final`` of a played game; one
        that is over gives its result at once.
    agents : Agent, str, or sequence of them
        Who plays on: one agent (or agent name, see
        :func:`riskmath.agents.make_agent`) per seat, eliminated seats
        included; or one agent or name, meaning that agent in every seat (a
        copy each).
    n_games : int
        Games to play, at least 1.
    seed : int, default 0
        Root of the per-game seeds: the same seed gives the same table.  Use
        the same seed to compare two positions (common random numbers: the
        comparison is sharper than the two intervals suggest).
    n_jobs : int, default 1
        Worker processes, as in :func:`~riskmath.simulate`
        (-1: one per CPU).
    executor : concurrent.futures.Executor, optional
        Run the games there instead (e.g. a Dask client's ``get_executor()``).
    max_turns : int, optional
        At most this many more player-turns from ``state`` (the cap is
        ``state.turn + max_turns``); games still running then are draws.  By
        default the game's own cap (``Game(max_turns=...)`` or
        ``Rules.turn_cap``), or :data:`~riskmath.sim.rollouts.DEFAULT_MORE_TURNS` more player-turns
        when the game has none, so that no game runs for ever.
    progress : bool, default False
        A progress bar on stderr (needs tqdm).
    move_time : float, optional
        The most seconds an agent may take over one decision, as in
        :func:`~riskmath.simulate`; None (the default) for no limit.
    confidence : float, default 0.95
        The confidence level of the intervals, as in
        :func:`~riskmath.tournament.tournament`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``player`` (``0 .. players - 1``), columns ``victory``
        (the share of games the player won), ``victory_low`` and
        ``victory_high`` (its Wilson interval, 95 % by default) and ``games``.  ``attrs``
        holds ``draw`` (the share of games ended by the turn cap),
        ``draw_low``, ``draw_high`` (its interval), ``seed``, ``n_games`` and
        ``turn_cap`` (the player-turn at which games were stopped; for a
        ``state`` already over, the cap of its own game: the turn a drawn one
        ended at, None if it had none).  The ``victory`` column and ``draw``
        add up to 1.

    Raises
    ------
    InvalidArgumentError
        For a bad argument (naming it), or an unknown agent name.
    StateError
        For an inconsistent ``state`` (``GameState.problems``).
    AgentError
        If an agent fails or takes longer than ``move_time``, as in :func:`~riskmath.simulate`.
    WorkerError, SimulationInterrupted
        If a worker process dies, or the run is interrupted, as in :func:`~riskmath.simulate`.

    Examples
    --------
    Player 0 holds every territory but one, with one army on it:

    >>> import riskmath as rm
    >>> game = rm.Game(2)
    >>> names = game.board.territories
    >>> owners = {name: 0 for name in names} | {"Kamchatka": 1}
    >>> armies = {name: 3 for name in names} | {"Kamchatka": 1}
    >>> state = game.position(owners, armies, seed=1)
    >>> table = victory_probabilities(state, "aggressive", 20, seed=1)
    >>> table.round(3)
            victory  victory_low  victory_high  games
    player
    0           1.0        0.839         1.000     20
    1           0.0        0.000         0.161     20
    >>> table.attrs["draw"]
    0.0
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"state must be a GameState, got {shown(state)}")
    n = check_int("n_games", n_games, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    level = float(check_probability("confidence", confidence))  # (before the games: the intervals come after)
    game = state.game
    seats = seat_agents(agents, game.players)
    cap = _cap(state, max_turns)
    if cap != game.max_turns:
        game = Game(game.players, game.rules, game.board, defender_decides=game.defender_decides, max_turns=cap)
    table = simulate(
        game, seats, n, seed=seed, n_jobs=n_jobs, executor=executor, progress=progress, start=state, move_time=move_time
    )
    # A start already over was stopped by nothing played here: its own game's cap (a draw's turn) is the one shown.
    return _summary(table, game.players, n, seed, state.game.max_turns if state.is_terminal() else cap, level)


#: The columns of :func:`victory_probabilities` under the names :func:`win_probabilities` gave them.
_OLD_COLUMNS = {"victory": "win", "victory_low": "win_low", "victory_high": "win_high"}


@deprecated("riskmath.win_probabilities", "riskmath.victory_probabilities")
def win_probabilities(
    state: GameState,
    agents: Sequence[Agent | str] | Agent | str,
    n_games: int,
    *,
    seed: int = 0,
    n_jobs: int = 1,
    executor: Executor | None = None,
    max_turns: int | None = None,
    progress: bool = False,
    move_time: float | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Deprecated: :func:`~riskmath.victory_probabilities` with the columns named ``win``, ``win_low`` and ``win_high``.

    The same games and numbers, with a ``DeprecationWarning`` naming
    ``riskmath.victory_probabilities``; the other columns and the ``attrs``
    are the same.  Also ``riskmath.sim.win_probabilities``, and
    ``riskmath.win_probabilities``, which warns when looked up instead.
    """
    table = victory_probabilities(
        state,
        agents,
        n_games,
        seed=seed,
        n_jobs=n_jobs,
        executor=executor,
        max_turns=max_turns,
        progress=progress,
        move_time=move_time,
        confidence=confidence,
    )
    old = table.rename(columns=_OLD_COLUMNS)
    old.attrs = dict(table.attrs)
    return old


def _summary(
    table: pd.DataFrame, players: int, n: int, seed: int, cap: int | None, confidence: float = 0.95
) -> pd.DataFrame:
    """The victory shares with their intervals, from simulate's table of ``n`` games."""
    import pandas as pd

    rows = []
    for player in range(players):
        wins = int((table["winner"] == player).sum())
        low, high = wilson_interval(wins, n, confidence)
        rows.append({"player": player, "victory": wins / n, "victory_low": low, "victory_high": high, "games": n})
    result = pd.DataFrame(rows).set_index("player")
    draws = int(table["draw"].sum())
    draw_low, draw_high = wilson_interval(draws, n, confidence)
    result.attrs.update(
        {"draw": draws / n, "draw_low": draw_low, "draw_high": draw_high, "seed": seed, "n_games": n, "turn_cap": cap}
    )
    return result
