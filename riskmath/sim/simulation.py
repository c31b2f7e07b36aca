"""Play full games between agents, one or many, reproducibly and in parallel.

:func:`play` plays one game and returns a :class:`GameRecord` (the seed, the
decisions, the final state and a per-turn history as a DataFrame);
:func:`simulate` plays many and returns one DataFrame row per game.  Every
game's seed comes from ``numpy.random.SeedSequence(seed)``, and each seat's
agent gets its own ``random.Random`` spawned from the game's seed, so the
same call gives the same DataFrame whether the games run in one process,
in a pool of ``n_jobs`` processes, or on any ``concurrent.futures.Executor``
(a ``dask.distributed`` client's ``get_executor()`` included).  Chance is
drawn from each game state's own generator (``auto_chance=True``), and a
blitz is one draw (a few for a big battle).

Games run on the fast in-place path of the rules model
(:mod:`riskmath.sim._loop`): the position of one private state is changed
action by action (``GameState.apply`` copies; this does not), and the
built-in agents, marked ``trusted``, decide straight from that state and are
not checked (the legality tests cover them); other agents are shown a copy
and every action they return is checked.  ``progress=True`` shows a tqdm
progress bar.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import numbers
import os
import queue
import random
import signal
import sys
import time
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import SIZE_CAP, check_bool, check_cost, check_int, is_sequence, shown
from riskmath.agents import Agent, make_agent
from riskmath.errors import (
    AgentError,
    InvalidArgumentError,
    RiskmathError,
    SimulationInterrupted,
    StateError,
    WorkerError,
)
from riskmath.game.game import Game
from riskmath.game.position import Position
from riskmath.game.state import GameState
from riskmath.sim._loop import run_game
from riskmath.sim._move_time import check_move_time
from riskmath.sim._workers import Stopped, start_worker, stop_pool, stop_signals

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["GameRecord", "game_seeds", "play", "simulate"]


@dataclass
class GameRecord:
    """One played game: replay it with ``game.replay(record.actions, record.seed, auto_chance=True)``.

    A game played on from a state (``play(..., start=state)``) replays by
    applying ``record.actions`` to
    ``record.start.reseeded(record.seed).with_auto_chance()`` (its chance
    node first resolved from the generator, if it is one); :meth:`states`
    does it for either kind of game.

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
    start : GameState or None
        The state the game was played on from, or None for a new game.

    Examples
    --------
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> game = rm.Game(2, max_turns=30)
    >>> record = play(game, [RandomAgent(), AggressiveAgent()], seed=1)
    >>> record    # short; the fields hold every action
    GameRecord(seed=1, winner=1, turns=25, actions=<343 actions>)
    >>> record.final, record.winner, record.actions[:2]
    (<GameState turn 25, GAME_OVER, won by player 1>, 1, [ChoosePile(pile=0), ChoosePile(pile=1)])
    >>> record.history()[["player", "territories_0", "territories_1"]].head(3)
          player  territories_0  territories_1
    turn
    1          1             14             14
    2          0             11             19
    3          1             12             18
    >>> game.replay(record.actions, record.seed, auto_chance=True) == record.final
    True
    """

    seed: int
    actions: list[Any]
    final: GameState
    snapshots: list[dict[str, Any]] = field(default_factory=list)
    start: GameState | None = None

    def __repr__(self) -> str:
        """Short: the game's seed, outcome and length (the fields hold the full record)."""
        return (
            f"GameRecord(seed={self.seed}, winner={self.winner}, turns={self.final.turn}, "
            f"actions=<{len(self.actions)} actions>)"
        )

    @property
    def winner(self) -> int | None:
        """The winner's player id, or None for a game stopped by the turn cap (``final.winner``)."""
        return self.final.winner

    @property
    def turns(self) -> int:
        """Player-turns played to the end (``final.turn``; what the repr shows as ``turns``)."""
        return self.final.turn

    def states(self) -> Iterator[GameState]:
        """Every state of the game in order: the first, then the state after each of ``actions``.

        The first is the new game's (``seed``, ``auto_chance=True``), or for a
        game played on from ``start``, ``start.reseeded(seed)`` with its
        chance nodes resolved; the last equals ``final``.
        """
        if self.start is None:
            state = self.final.game.new_initial_state(self.seed, auto_chance=True)
        else:
            state = self.start.reseeded(self.seed).with_auto_chance()
        yield state
        for action in self.actions:
            state = state.apply(action)
            yield state

    def history(self) -> pd.DataFrame:
        """The per-turn snapshots as a DataFrame indexed by ``turn``."""
        import pandas as pd

        return pd.DataFrame(self.snapshots).set_index("turn")


def game_seeds(seed: int, n_games: int) -> list[int]:
    """The per-game seeds of ``simulate``: 63-bit integers from ``SeedSequence(seed)``.

    Parameters
    ----------
    seed : int
        The root seed, any integer >= 0 (``simulate``'s ``seed``).
    n_games : int
        How many seeds, >= 0.

    Returns
    -------
    list of int

    Examples
    --------
    The first seeds do not depend on how many games are asked for:

    >>> game_seeds(0, 3)
    [7896617691693857887, 6195319269190327588, 1180918054825871008]
    >>> game_seeds(0, 2) == game_seeds(0, 3)[:2]
    True

    Raises
    ------
    InvalidArgumentError
        For a negative or non-integer ``seed`` or ``n_games`` (NumPy's ``SeedSequence`` takes any integer >= 0).
    """
    check_int("seed", seed, minimum=0)
    check_int("n_games", n_games, minimum=0)
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


def play(
    game: Game,
    agents: Sequence[Agent | str] | Agent | str,
    seed: int,
    *,
    record_history: bool = True,
    start: GameState | None = None,
    move_time: float | None = None,
) -> GameRecord:
    """Play one game between ``agents`` (one per seat) from ``seed``, from a new game or from ``start``.

    The game is played on one private state changed in place, with every
    chance node drawn from the state's generator (``auto_chance``).  An agent
    marked ``trusted`` (the built-in ones; see ``riskmath.agents``) is
    shown that live state and its actions are applied unchecked; any other
    agent is shown a copy, and every action it returns is checked.  The record
    is the same either way: a trusted agent's game replays, checked, with
    :meth:`Game.replay`.

    Parameters
    ----------
    game : Game
    agents : Agent, str, or sequence of them
        One per seat, or one meaning that agent in every seat (a copy
        each); a name (``"random"``, ``"odds"``, ...) is
        :func:`riskmath.agents.make_agent` of it.
    seed : int
        The game's seed (its chance generator and, spawned from it, the
        agents'), from 0 to ``2**64 - 1`` (the generator's state is 64 bits,
        and the record must replay: ``game.replay(record.actions, seed)``).
    record_history : bool, default True
        Keep a snapshot at the start of every player-turn.
    start : GameState, optional
        Play on from this state instead of a new game: from a copy reseeded
        with ``seed`` (``start.reseeded(seed)``), so that the state's own
        future dice are never used.  It must be a state of a game with the
        same players, board and rules as ``game`` (the turn cap may differ:
        ``game``'s applies); a state that is over gives a record at once.
    move_time : float, optional
        The most seconds an agent may take over one decision; None (the
        default) for no limit.  A decision that takes longer ends the game
        with an :class:`~riskmath.AgentError`.  In the main thread on Unix
        the decision is interrupted when its time is up (by SIGALRM; the
        program's own SIGALRM handler or interval timer, if any, is left
        alone); elsewhere it is timed and fails when it returns, so an
        agent that never returns is not stopped there.  See
        :doc:`/limits` ("Simulations").

    Raises
    ------
    InvalidArgumentError
        For the wrong number of agents, a seed out of range, a ``move_time``
        that is not a positive number of seconds, or a ``start`` of another
        kind of game (naming the difference).
    StateError
        For a ``start`` that is inconsistent (``GameState.problems``).
    IllegalActionError
        If an untrusted agent returns an illegal action (naming the agent).
    AgentError
        If an agent raises, or takes longer than ``move_time`` over a
        decision (naming the agent, its seat and the seed).

    Examples
    --------
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> record = play(rm.Game(2, max_turns=30), [RandomAgent(), AggressiveAgent()], seed=1)
    >>> record.winner, record.final.turn, len(record.actions)
    (1, 25, 343)
    >>> play(rm.Game(2, max_turns=30), [RandomAgent(), AggressiveAgent()], seed=1, record_history=False).snapshots
    []
    """
    check_game(game)
    agents = seat_agents(agents, game.players)
    check_int("seed", seed, minimum=0, maximum=(1 << 64) - 1)
    moves = check_move_time(move_time)
    begin = _check_start(game, start)
    snapshot = _snapshot if check_bool("record_history", record_history) else None
    final, actions, snapshots = run_game(
        game,
        agents,
        seed,
        _agent_rngs(seed, game.players),
        keep_actions=True,
        snapshot=snapshot,
        start=begin,
        move_time=moves,
    )
    return GameRecord(seed, actions, final, snapshots, start)


def _check_start(game: Game, start: object) -> Position | None:
    """The position of ``start`` (None for a new game), refused unless a sound state of a game like ``game``."""
    if start is None:
        return None
    if not isinstance(start, GameState):
        raise InvalidArgumentError(f"start must be a GameState (or None for a new game), got {shown(start)}")
    other = start.game
    if other is not game:
        differences = []
        if other.players != game.players:
            differences.append(f"{other.players} players, not {game.players}")
        if other.board != game.board:
            differences.append(f"board {other.board.name!r} is not the game's board {game.board.name!r}")
        mine, theirs = game.rules.to_dict(), other.rules.to_dict()
        keys = sorted(
            key for key in mine.keys() | theirs.keys() if key != "turn_cap" and mine.get(key) != theirs.get(key)
        )
        if keys:
            differences.append(
                "rules differ in " + ", ".join(f"{k} ({theirs.get(k)!r}, not {mine.get(k)!r})" for k in keys)
            )
        if other.defender_decides != game.defender_decides:
            differences.append(f"defender_decides is {other.defender_decides}, not {game.defender_decides}")
        if differences:
            raise InvalidArgumentError(("start is a state of another kind of game: " + "; ".join(differences))[:600])
    if game.max_turns is not None and start.turn > game.max_turns and not start.is_terminal():
        raise InvalidArgumentError(
            f"start is at player-turn {start.turn}, past the turn cap of {game.max_turns} (raise max_turns)"
        )
    found = start.problems()  # against its own game: a draw stays a draw whatever the cap now
    if found:
        raise StateError(("start is not a consistent state: " + "; ".join(found))[:600])
    return start.position


def check_game(game: object) -> None:
    """Refuse anything but a :class:`~riskmath.Game` (for the entry points of :mod:`riskmath.sim`)."""
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"game must be a riskmath Game, got {type(game).__name__}: {shown(game)}")


def seat_agents(agents: object, players: int) -> list[Agent]:
    """One agent per seat: a name (:func:`riskmath.agents.make_agent` of it) or an agent, copied for every seat,
    or a sequence of them, one per seat (for :func:`play`, :func:`simulate` and
    :func:`~riskmath.victory_probabilities` alike)."""
    if isinstance(agents, str):
        return [make_agent(agents) for _ in range(players)]
    if callable(getattr(agents, "act", None)):
        return [copy.deepcopy(agents) for _ in range(players)]  # type: ignore[misc]
    if isinstance(agents, bytes) or not is_sequence(agents):
        raise InvalidArgumentError(
            f"agents must be an agent, an agent's name or one of them per seat ({players}), got {shown(agents)}"
        )
    if len(agents) != players:
        raise InvalidArgumentError(f"need one agent per player ({players}), got {len(agents)}")
    seats = [make_agent(agent) if isinstance(agent, str) else agent for agent in agents]
    for agent in seats:
        if not callable(getattr(agent, "act", None)):
            raise InvalidArgumentError(f"{shown(agent)} is not an agent: it has no act(state, rng) method")
    return seats


def _row(
    game: Game, agents: Sequence[Agent], seed: int, start: Position | None = None, move_time: float | None = None
) -> dict[str, Any]:
    rngs = _agent_rngs(seed, game.players)
    final = run_game(game, agents, seed, rngs, keep_actions=False, start=start, move_time=move_time)[0]
    row: dict[str, Any] = {"seed": seed, "winner": final.winner, "draw": final.draw, "turns": final.turn}
    for seat in range(game.players):
        held = final.territories_of(seat)
        row[f"territories_{seat}"] = len(held)
        row[f"armies_{seat}"] = sum(final.armies(t) for t in held)
    return row


# A worker process keeps the game of the simulation it serves (by a token per call of ``simulate``), so that
# its chunks share one game (and the agents' per-game caches) instead of each unpickling a copy.
_GAMES: dict[str, Game] = {}


def _rows(args: tuple[str, Game, Sequence[Agent], list[int], Position | None, float | None]) -> list[dict[str, Any]]:
    token, game, agents, seeds, start, move_time = args
    kept = _GAMES.get(token)
    if kept is None:
        if len(_GAMES) >= 4:
            _GAMES.clear()
        kept = _GAMES.setdefault(token, game)  # (one step: another thread's clear cannot come between)
    game = kept
    rows: list[dict[str, Any]] = []
    for seed in seeds:
        try:
            rows.append(_row(game, agents, seed, start, move_time))
        except Exception as error:  # the chunk's games before the failure go back with it (kept, as in one process)
            with contextlib.suppress(AttributeError, TypeError):
                error._finished = rows  # type: ignore[attr-defined]
            raise
    return rows


def _progress_bar(total: int) -> Any:
    """A tqdm bar on stderr counting games (with their rate in games/s)."""
    try:
        from tqdm import tqdm  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        raise InvalidArgumentError(
            "progress=True (--progress on the command line) needs tqdm, which is not installed: pip install tqdm, "
            "or install riskmath with its [progress] extra"
        ) from None
    return tqdm(total=total, unit=" games", desc="simulate", file=sys.stderr, dynamic_ncols=True)


def simulate(
    game: Game,
    agents: Sequence[Agent | str] | Agent | str,
    n_games: int,
    *,
    seed: int = 0,
    n_jobs: int = 1,
    executor: Executor | None = None,
    max_turns: int | None = None,
    progress: bool = False,
    start: GameState | None = None,
    on_game: Callable[[dict[str, Any]], object] | None = None,
    move_time: float | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` games and tabulate them, one row per game (new games, or on from ``start``).

    Games are played on the fast in-place path of :func:`play`.  In
    parallel, the games go out in chunks (about four per worker, so that the
    workers stay busy to the end, and at most 32 games) and come back in seed
    order.

    A parallel run stops cleanly however it is stopped.  Ctrl-C (SIGINT),
    and SIGTERM or SIGHUP when the program has no handler of its own for
    them, raise :class:`~riskmath.SimulationInterrupted` with the finished
    games: while the run is in progress, in the main thread, ``simulate``
    handles those two signals itself, and puts the previous handlers back
    when it returns (a signal the program ignores or handles stays so; a
    serial run leaves them alone).  The workers end with the run, and with
    this process however it ends, even by SIGKILL (on Linux the kernel ends
    them; elsewhere each looks at its parent every second).

    Parameters
    ----------
    game : Game
    agents : Agent, str, or sequence of them
        One per seat, or one meaning that agent in every seat (a copy
        each); a name (``"random"``, ``"odds"``, ...) is
        :func:`riskmath.agents.make_agent` of it.
    n_games : int
        At least 1.
    seed : int, default 0
        Root of the per-game seeds (``game_seeds``).
    n_jobs : int, default 1
        Worker processes (a ``concurrent.futures.ProcessPoolExecutor``); -1
        for one per CPU (``os.cpu_count()``), as in joblib and scikit-learn.
        At most ``n_games`` workers start, and at most one per CPU (more is
        capped, with a ``RuntimeWarning``).  With an ``executor``, the number
        of workers to cut chunks for (at least 2, at most ``n_games``; not
        capped by this machine's CPUs).
    executor : concurrent.futures.Executor, optional
        Run the games there instead of in a process pool; e.g. a Dask
        client's ``get_executor()``.
    max_turns : int, optional
        A turn cap (player-turns) ending games as draws; overrides the game's.
    progress : bool, default False
        Show a progress bar on stderr counting the games, with their rate in
        games per second (as chunks finish when in parallel).  Needs tqdm
        (``pip install 'riskmath[progress]'``).
    start : GameState, optional
        Play every game on from this state instead of a new game: game ``k``
        from ``start.reseeded(game_seeds(seed, n_games)[k])``, so that the
        state's own future dice are never used.  It must be a sound state of
        a game with the same players, board and rules (the turn cap may
        differ: ``max_turns`` or ``game``'s applies, counted from the start of
        the game, so it must not be behind ``start.turn``); a state that is
        over gives its rows at once.  :func:`riskmath.victory_probabilities`
        tabulates who wins from here.
    on_game : callable, optional
        Called in this process with each finished game's row (a dict with
        the table's columns) as soon as it is back, in the order games
        finish; e.g. to append it to a file, so that a run that dies later
        loses nothing (``riskmath simulate --out`` does this).  If it raises,
        the run stops (pending work is cancelled) and the exception
        propagates with the finished games in its ``results`` attribute.
    move_time : float, optional
        The most seconds an agent may take over one decision, as in
        :func:`play`; None (the default) for no limit.  In a process pool
        each worker runs its games in its main thread, so a decision over
        the limit is interrupted there; on an ``executor`` whose tasks run
        in threads (Dask's) it fails when it returns.

    Returns
    -------
    pandas.DataFrame
        Columns ``seed``, ``winner`` (seat, missing for a draw), ``draw``,
        ``turns`` (player-turns) and ``territories_k``, ``armies_k`` per seat;
        the same for any ``n_jobs``, executor or ``progress``.

    Raises
    ------
    InvalidArgumentError
        For a bad argument, ``progress=True`` without tqdm installed, or a
        ``start`` of another kind of game (the message names the difference).
    StateError
        For a ``start`` that is inconsistent (``GameState.problems``).
    AgentError
        If an agent raises, returns an illegal action (then also an
        ``IllegalActionError``), takes longer than ``move_time`` over a
        decision or, trusted, goes round in circles; it names the agent, the
        seat and the game's seed, and its ``results`` holds the games that
        finished (pending work is cancelled): every game before the failing
        one, and in parallel also later games that had finished by then.
    WorkerError
        In parallel, if a worker process dies (killed by the out-of-memory
        killer, say) or the executor fails on a chunk of games for a reason
        of its own: the message names the games lost (those in play), and
        ``results`` holds the games that finished.  (Any other exception
        from a worker is raised as it would be in one process, with
        ``results`` too; so is any exception but ``KeyboardInterrupt``,
        a ``SystemExit`` from an agent or ``on_game`` included.)
    SimulationInterrupted
        On Ctrl-C (a ``KeyboardInterrupt``), and in parallel on SIGTERM or
        SIGHUP (see above; ``signum`` says which): the pool stops at once
        (queued chunks are cancelled, the workers ended) and ``results``
        holds the games that finished, in seed order.

    Examples
    --------
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> table = simulate(Game(3, max_turns=60), [AggressiveAgent(), RandomAgent(), RandomAgent()], 4, seed=1)
    >>> list(table.columns[:4]), len(table)
    (['seed', 'winner', 'draw', 'turns'], 4)
    """
    check_game(game)
    n = check_int("n_games", n_games, minimum=1)
    if executor is not None and (isinstance(executor, type) or not callable(getattr(executor, "submit", None))):
        raise InvalidArgumentError(
            "executor must be a concurrent.futures.Executor instance with a submit method (e.g. "
            f"ProcessPoolExecutor(2), or a Dask client's get_executor()), got {shown(executor)}"
        )
    check_cost(
        lambda: f"simulate with n_games={shown(n)}",
        memory=table_bytes(n, game.players),
        hint="play fewer games (or several batches with different seeds); ",
    )
    jobs = _check_jobs(n_jobs)
    check_int("seed", seed, minimum=0)
    moves = check_move_time(move_time)
    if not isinstance(progress, bool):
        raise InvalidArgumentError(f"progress must be True or False, got {progress!r}")
    if on_game is not None and not callable(on_game):
        raise InvalidArgumentError(f"on_game must be a callable or None, got {shown(on_game)}")
    if max_turns is not None:
        game = Game(game.players, game.rules, game.board, defender_decides=game.defender_decides, max_turns=max_turns)
    agents = seat_agents(agents, game.players)
    begin = _check_start(game, start)
    seeds = game_seeds(seed, n)
    rows: dict[int, dict[str, Any]] = {}  # by game number: the finished games, kept whatever happens
    bar = _progress_bar(n) if progress else None
    run = _Run(game, agents, seeds, begin, moves, rows, bar, on_game)
    try:
        if executor is None:
            workers = _workers(jobs, n)
            if workers == 1:
                one = _row if moves is None else functools.partial(_row, move_time=moves)
                for k, game_seed in enumerate(seeds):
                    rows[k] = one(game, agents, game_seed, begin)
                    if on_game is not None:
                        on_game(dict(rows[k]))
                    if bar is not None:
                        bar.update(1)
            else:
                _check_picklable(agents, workers)
                with stop_signals():
                    pool = ProcessPoolExecutor(max_workers=workers, initializer=start_worker, initargs=(os.getpid(),))
                    try:
                        _in_parallel(pool, workers, run, _pool_failure(pool))
                        pool.shutdown(wait=True)
                    except BaseException:
                        stop_pool(pool)
                        raise
        else:
            workers = min(max(jobs if jobs > 0 else 2, 2), n)
            with stop_signals():
                _in_parallel(executor, workers, run, _executor_failure)
    except KeyboardInterrupt as interrupt:
        signum = interrupt.signum if isinstance(interrupt, Stopped) else signal.SIGINT
        raise SimulationInterrupted(_table(rows, game.players), n, signum=signum) from interrupt
    except BaseException as error:  # an agent, a worker, on_game (a full disk, sys.exit ...): the games ride on it
        if isinstance(error, (AgentError, WorkerError)) or not hasattr(error, "results"):
            with contextlib.suppress(AttributeError, TypeError):
                error.results = _table(rows, game.players)  # type: ignore[attr-defined]
        raise
    finally:
        if bar is not None:
            bar.close()
    return _table(rows, game.players)


#: The table's memory per game (a row of Python values while the games run, then the DataFrame), roughly.
_BYTES_PER_GAME, _BYTES_PER_SEAT = 700, 200


def table_bytes(n_games: int, players: int) -> float:
    """The estimated memory of :func:`simulate`'s table of ``n_games`` games of ``players`` players (its rows and
    the records behind them), checked against the limits before any game is played."""
    return float(min(n_games, SIZE_CAP) * (_BYTES_PER_GAME + _BYTES_PER_SEAT * players))


def _check_jobs(n_jobs: object) -> int:
    """``n_jobs`` as an int: -1 (every CPU) or a positive integer."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral):
        raise InvalidArgumentError(f"n_jobs must be an integer (-1 for every CPU), got {n_jobs!r}")
    jobs = int(n_jobs)
    if jobs == 0 or jobs < -1:
        raise InvalidArgumentError(f"n_jobs must be >= 1, got {jobs} (or -1 for one worker per CPU)")
    return jobs


def _check_picklable(agents: Sequence[Agent], workers: int) -> None:
    """Refuse, before any process starts, an agent that cannot be sent to a worker process (pickled)."""
    import pickle

    for seat, agent in enumerate(agents):
        try:
            pickle.dumps(agent)
        except Exception as error:
            raise InvalidArgumentError(
                f"the agent in seat {seat} ({shown(agent)}) cannot be sent to worker processes "
                f"(n_jobs={workers}): pickling it fails ({type(error).__name__}: {error}); play with n_jobs=1"
            ) from None


def _workers(jobs: int, n_games: int) -> int:
    """Worker processes for ``jobs`` and ``n_games``: at most one per game and one per CPU."""
    cpus = os.cpu_count() or 1
    if jobs == -1:
        jobs = cpus
    elif jobs > cpus:
        used = min(cpus, n_games)
        fewer = f" and the {n_games} game{'s' * (n_games != 1)}" if n_games < cpus else ""
        warnings.warn(
            f"n_jobs={jobs} is more than the {cpus} CPU{'s' * (cpus != 1)}{fewer}: using {used} worker "
            f"process{'es' * (used != 1)}",
            RuntimeWarning,
            stacklevel=3,
        )
        jobs = cpus
    return max(1, min(jobs, n_games))


def _table(rows: dict[int, dict[str, Any]], players: int) -> pd.DataFrame:
    """The finished games' rows in seed order (the usual columns even when none finished)."""
    import pandas as pd

    columns = ["seed", "winner", "draw", "turns"]
    columns += [f"{kind}_{seat}" for seat in range(players) for kind in ("territories", "armies")]
    table = pd.DataFrame([rows[k] for k in sorted(rows)], columns=columns)
    table["winner"] = table["winner"].astype("Int64")
    return table


@dataclass
class _Run:
    """What a parallel run plays and where its results go (the arguments of ``simulate``, checked)."""

    game: Game
    agents: Sequence[Agent]
    seeds: list[int]
    start: Position | None
    move_time: float | None
    rows: dict[int, dict[str, Any]]  # the finished games' rows, by game number
    bar: Any
    on_game: Callable[[dict[str, Any]], object] | None


#: The most games in one chunk: what an interruption or a failure may lose per worker.
_MOST_PER_CHUNK = 32


def _in_parallel(executor: Executor, workers: int, run: _Run, describe: Callable[[BaseException], str] = repr) -> None:
    """Play ``run.seeds`` in chunks on ``executor``, putting each finished game's row in ``run.rows`` by game number.

    A few chunks per worker are in flight at a time, the next one submitted as one finishes, so that a run
    of a million games does not queue hundreds of thousands of tasks at once (nor cancel them one by one on
    Ctrl-C).  A failure is reported as with one worker: the failure of the earliest game in seed order.  No
    chunk after a failed one is submitted; those in flight before it are waited for, since one of them may
    fail too, and their games are kept.  Every game that finished is kept, however the run stops: a failed
    chunk's games before its failure come back with the error (:func:`_rows`), a chunk is stored whole
    before ``on_game`` sees its rows (which may fail), and the chunks already back when the run stops are
    stored too.  An agent's failure is raised as it is (an :class:`AgentError`), and
    so is any other error of ours (a :class:`RiskmathError`) from a worker; anything else (a worker that
    died, an executor's own error) becomes a :class:`WorkerError` naming the games lost, with ``describe``'s
    words for the cause.

    Finished chunks are collected through a queue filled by the futures' callbacks, not with
    ``concurrent.futures.wait``: an interruption (Ctrl-C, SIGTERM) can then never leave a future's lock held
    by this thread, which would stall the executor's own threads (and Python at exit).
    """
    seeds, rows, bar, on_game = run.seeds, run.rows, run.bar, run.on_game
    size = min(-(-len(seeds) // (4 * workers)), _MOST_PER_CHUNK)
    token = uuid.uuid4().hex
    queued = iter(range(0, len(seeds), size))
    running: dict[Future[list[dict[str, Any]]], int] = {}
    finished: queue.SimpleQueue[Future[list[dict[str, Any]]]] = queue.SimpleQueue()
    failed: tuple[int, BaseException] | None = None  # the earliest failed chunk and its error
    lost: set[int] = set()  # the chunks lost to something other than an error of ours

    def submit_next() -> bool:
        nonlocal failed
        k = next(queued, None)
        if k is None:
            return False
        try:
            future = executor.submit(
                _rows, (token, run.game, run.agents, seeds[k : k + size], run.start, run.move_time)
            )
        except Exception as error:  # a broken pool refuses work: its chunks in flight fail too
            lost.add(k)
            failed = (k, error) if failed is None or k < failed[0] else failed
            return False
        if not callable(getattr(future, "add_done_callback", None)):  # (the loop waits on futures by their callbacks)
            raise InvalidArgumentError(
                f"executor.submit returned {shown(future)}, not a concurrent.futures.Future: executor must be an "
                "Executor (for Dask, the client's get_executor())"
            )
        running[future] = k
        future.add_done_callback(finished.put)
        return True

    def keep(k: int, chunk: list[dict[str, Any]]) -> None:
        for i, row in enumerate(chunk):
            rows[k + i] = row
        if bar is not None:
            bar.update(len(chunk))

    for _ in range(2 * workers):
        if not submit_next():
            break
    try:
        while running:
            future = finished.get()
            k = running.pop(future)
            try:
                chunk = future.result()
            except Exception as error:
                if not isinstance(error, RiskmathError):
                    lost.add(k)
                if failed is None or k < failed[0]:
                    failed = (k, error)
                chunk = _finished(error) or []  # the failed chunk's games before the failure
            keep(k, chunk)  # (the whole chunk first: on_game may fail)
            if on_game is not None:
                for row in chunk:
                    on_game(dict(row))
            if failed is None:
                while len(running) < 2 * workers and submit_next():
                    pass
            elif all(j > failed[0] for j in running.values()):
                break
        if failed is not None:
            first = failed[1]
            if isinstance(first, RiskmathError):
                raise first
            raise _lost(describe(first), sorted(lost | set(running.values())), size, seeds) from first
    except BaseException:
        for future, k in running.items():  # the chunks already back are kept (without on_game: it may be what failed)
            if not future.cancel() and future.done():
                failure = future.exception()
                back = future.result() if failure is None else _finished(failure)
                if back:
                    keep(k, back)
        raise


def _finished(error: BaseException) -> list[dict[str, Any]] | None:
    """The rows of the games a failed chunk finished before ``error`` (see :func:`_rows`), taken off the error."""
    state = getattr(error, "__dict__", None)
    return None if state is None else state.pop("_finished", None)


def _lost(cause: str, chunks: list[int], size: int, seeds: list[int]) -> WorkerError:
    """The error for ``chunks`` (their first game numbers) lost to ``cause``, naming their games and seeds."""
    games = [g for k in chunks for g in range(k, min(k + size, len(seeds)))]
    spans: list[list[int]] = []
    for g in games:
        if spans and spans[-1][1] == g - 1:
            spans[-1][1] = g
        else:
            spans.append([g, g])
    numbers = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
    lost_seeds = [seeds[g] for g in games]
    some = ", ".join(map(str, lost_seeds[:3])) + (", ..." if len(lost_seeds) > 3 else "")
    return WorkerError(
        f"{cause}; the {len(games)} games in flight (being played or queued) were lost: games {numbers} of "
        f"{len(seeds)}, counting from 0 "
        f"(seeds {some}; all in .lost_seeds)",
        lost_games=games,
        lost_seeds=lost_seeds,
    )


def _pool_failure(pool: ProcessPoolExecutor) -> Callable[[BaseException], str]:
    """What went wrong in ``pool``, in words: how a worker that died ended, or the error of a chunk."""

    def describe(error: BaseException) -> str:
        if not isinstance(error, BrokenExecutor):
            return f"a chunk of games failed in a worker process ({type(error).__name__}: {error})"
        processes = list((getattr(pool, "_processes", None) or {}).values())
        # The pool ends the other workers (SIGTERM) once one has died; the dead one's end is the other one.  A
        # process's end is known a moment after the pool learns of it: wait for them all, a second at most.
        deadline = time.monotonic() + 1
        while True:
            codes = [_exit_code(process) for process in processes]
            if None not in codes or time.monotonic() > deadline:
                break
            time.sleep(0.01)
        ended = [code for code in codes if code is not None]
        code = next((c for c in ended if c != -signal.SIGTERM), ended[0] if ended else None)
        return f"a worker process {_ending(code)}"

    return describe


def _exit_code(process: Any) -> int | None:
    try:
        code: int | None = process.exitcode
    except Exception:  # (a process object the pool broke)
        return None
    return code


def _ending(code: int | None) -> str:
    """How a process with exit code ``code`` (``multiprocessing``'s: minus the signal that killed it) ended."""
    if code is None:
        return "died"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        oom = " (as the out-of-memory killer does)" if name == "SIGKILL" else ""
        return f"was killed by {name}{oom}"
    return f"exited with status {code}"


def _executor_failure(error: BaseException) -> str:
    return f"the executor failed on a chunk of games ({type(error).__name__}: {error})"
