"""Play full games between agents, one or many, reproducibly and in parallel.

:func:`play` plays one game and returns a :class:`GameRecord` (the seed, the
decisions, the final state and a per-turn history as a DataFrame);
:func:`simulate` plays many and returns one DataFrame row per game.  Every
game's seed comes from ``numpy.random.SeedSequence(seed)``, and each seat's
agent gets its own ``random.Random`` spawned from the game's seed, so the
same call gives the same DataFrame whether the games run in one process,
in a pool of ``n_jobs`` processes, or on any ``concurrent.futures.Executor``
(a ``dask.distributed`` client's ``get_executor()`` included).  Chance is
drawn from each game state's own generator (``auto_chance=True``), and whole
battles are one draw when an agent blitzes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import check_int
from riskmath.agents import Agent
from riskmath.errors import IllegalActionError, InvalidArgumentError
from riskmath.game import Game
from riskmath.state import GameState

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["GameRecord", "game_seeds", "play", "simulate"]


@dataclass
class GameRecord:
    """One played game: replay it with ``game.replay(record.actions, record.seed, auto_chance=True)``.

    Attributes
    ----------
    seed : int
        The game's seed (its state generator and, spawned from it, the agents').
    actions : list
        Every decision, in order (chance was drawn from the seed).
    final : GameState
        The last state.
    snapshots : list of dict
        At the start of every player-turn: ``turn``, ``player`` and, per
        owner, territories, armies and cards.
    """

    seed: int
    actions: list[Any]
    final: GameState
    snapshots: list[dict[str, Any]] = field(default_factory=list)

    @property
    def winner(self) -> int | None:
        return self.final.winner

    def history(self) -> pd.DataFrame:
        """The per-turn snapshots as a DataFrame indexed by ``turn``."""
        import pandas as pd

        return pd.DataFrame(self.snapshots).set_index("turn")


def game_seeds(seed: int, n_games: int) -> list[int]:
    """The per-game seeds of ``simulate``: 63-bit integers from ``SeedSequence(seed)``."""
    state = np.random.SeedSequence(seed).generate_state(n_games, dtype=np.uint64)
    return [int(s) >> 1 for s in state]


def _agent_rngs(seed: int, seats: int) -> list[random.Random]:
    children = np.random.SeedSequence(seed).spawn(seats)
    return [random.Random(int(c.generate_state(1, dtype=np.uint64)[0])) for c in children]


def _snapshot(state: GameState) -> dict[str, Any]:
    game = state.game
    row: dict[str, Any] = {"turn": state.turn, "player": state.current_player}
    for owner in range(game.owners):
        held = state.territories_of(owner)
        row[f"territories_{owner}"] = len(held)
        row[f"armies_{owner}"] = sum(state.armies(t) for t in held)
        if owner < game.players:
            row[f"cards_{owner}"] = len(state.cards(owner))
    return row


def play(game: Game, agents: Sequence[Agent], seed: int, *, record_history: bool = True) -> GameRecord:
    """Play one game between ``agents`` (one per seat) from ``seed``.

    Raises
    ------
    InvalidArgumentError
        For the wrong number of agents.
    IllegalActionError
        If an agent returns an illegal action (naming the agent).
    """
    _check_agents(game, agents)
    state = game.new_initial_state(seed, auto_chance=True)
    rngs = _agent_rngs(seed, game.players)
    actions: list[Any] = []
    snapshots: list[dict[str, Any]] = []
    turn = 0
    while not state.is_terminal():
        if record_history and state.turn != turn:
            turn = state.turn
            snapshots.append(_snapshot(state))
        player = state.current_player
        action = agents[player].act(state, rngs[player])
        try:
            state = state.apply(action)
        except IllegalActionError as error:
            raise IllegalActionError(f"agent {agents[player].name!r} in seat {player}: {error}") from None
        actions.append(action)
    return GameRecord(seed, actions, state, snapshots)


def _check_agents(game: Game, agents: Sequence[Agent]) -> None:
    if len(agents) != game.players:
        raise InvalidArgumentError(f"need one agent per player ({game.players}), got {len(agents)}")
    for agent in agents:
        if not callable(getattr(agent, "act", None)):
            raise InvalidArgumentError(f"{agent!r} is not an agent: it has no act(state, rng) method")


def _row(game: Game, agents: Sequence[Agent], seed: int) -> dict[str, Any]:
    final = play(game, agents, seed, record_history=False).final
    row: dict[str, Any] = {"seed": seed, "winner": final.winner, "draw": final.draw, "turns": final.turn}
    for seat in range(game.players):
        held = final.territories_of(seat)
        row[f"territories_{seat}"] = len(held)
        row[f"armies_{seat}"] = sum(final.armies(t) for t in held)
    return row


def _rows(args: tuple[Game, Sequence[Agent], list[int]]) -> list[dict[str, Any]]:
    game, agents, seeds = args
    return [_row(game, agents, seed) for seed in seeds]


def simulate(
    game: Game,
    agents: Sequence[Agent],
    n_games: int,
    *,
    seed: int = 0,
    n_jobs: int = 1,
    executor: Executor | None = None,
    max_turns: int | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` games and tabulate them, one row per game.

    Parameters
    ----------
    game : Game
    agents : sequence of Agent
        One per seat.
    n_games : int
        At least 1.
    seed : int, default 0
        Root of the per-game seeds (``game_seeds``).
    n_jobs : int, default 1
        Worker processes (a ``concurrent.futures.ProcessPoolExecutor``).
    executor : concurrent.futures.Executor, optional
        Run the games there instead (overrides ``n_jobs``); e.g. a Dask
        client's ``get_executor()``.
    max_turns : int, optional
        A turn cap (player-turns) ending games as draws; overrides the game's.

    Returns
    -------
    pandas.DataFrame
        Columns ``seed``, ``winner`` (seat, missing for a draw), ``draw``,
        ``turns`` (player-turns) and ``territories_k``, ``armies_k`` per seat;
        the same for any ``n_jobs`` or executor.

    Examples
    --------
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> table = simulate(Game(3, max_turns=60), [AggressiveAgent(), RandomAgent(), RandomAgent()], 4, seed=1)
    >>> list(table.columns[:4]), len(table)
    (['seed', 'winner', 'draw', 'turns'], 4)
    """
    import pandas as pd

    n = check_int("n_games", n_games, minimum=1)
    jobs = check_int("n_jobs", n_jobs, minimum=1)
    check_int("seed", seed, minimum=0)
    if max_turns is not None:
        game = Game(game.players, game.rules, game.board, defender_decides=game.defender_decides, max_turns=max_turns)
    _check_agents(game, agents)
    seeds = game_seeds(seed, n)
    if executor is None and jobs == 1:
        rows = _rows((game, agents, seeds))
    else:
        workers = jobs if executor is None else max(jobs, 1)
        chunks = [seeds[k::workers] for k in range(workers) if seeds[k::workers]]
        if executor is None:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                parts = list(pool.map(_rows, [(game, agents, chunk) for chunk in chunks]))
        else:
            parts = list(executor.map(_rows, [(game, agents, chunk) for chunk in chunks]))
        by_seed = {row["seed"]: row for part in parts for row in part}
        rows = [by_seed[s] for s in seeds]
    table = pd.DataFrame(rows)
    table["winner"] = table["winner"].astype("Int64")
    return table
