"""Tournaments: agents against each other over many games, seats rotated, with confidence intervals.

:func:`tournament` plays each line-up in every rotation of the seats (so
that no agent keeps the advantage or handicap of a seat) through
:func:`riskmath.simulate`, and tabulates, per line-up and agent, the share
of games won with a Wilson score interval, and the wall time per game;
``by_seat=True`` splits each agent's games by its seat in the order of play.
Everything but the times is reproducible from ``seed``, with any ``n_jobs``
or executor.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import check_cost, check_int, check_probability, is_sequence, shown
from riskmath.agents import make_agent
from riskmath.errors import InvalidArgumentError
from riskmath.game.game import Game
from riskmath.sim.simulation import check_game, simulate, table_bytes

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["tournament", "wilson_interval"]


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion.

    Parameters
    ----------
    successes, trials : int
        ``0 <= successes <= trials``, ``trials >= 1``.
    confidence : float, default 0.95
        In (0, 1).

    Returns
    -------
    (float, float)
        The interval's ends, within [0, 1].

    Examples
    --------
    >>> low, high = wilson_interval(80, 100)
    >>> round(low, 4), round(high, 4)
    (0.7112, 0.8666)
    """
    from scipy.stats import norm

    n = check_int("trials", trials, minimum=1)
    k = check_int("successes", successes, minimum=0, maximum=n)
    confidence = float(check_probability("confidence", confidence))
    z = float(norm.ppf(0.5 + confidence / 2))
    p = k / n
    center = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # At k = 0 (k = n) the lower (upper) end is exactly 0 (1); in floating point it may miss by an ulp.
    low = 0.0 if k == 0 else max(0.0, center - half)
    high = 1.0 if k == n else min(1.0, center + half)
    return low, high


def tournament(
    game: Game,
    lineups: Sequence[Sequence[Any]],
    n_games: int,
    *,
    seed: int = 0,
    n_jobs: int = 1,
    executor: Executor | None = None,
    confidence: float = 0.95,
    move_time: float | None = None,
    by_seat: bool = False,
    max_turns: int | None = None,
) -> pd.DataFrame:
    """Play every line-up ``n_games`` times, rotating the seats, and tabulate wins per agent (or per seat).

    Parameters
    ----------
    game : Game
        Its number of players is the length of every line-up.
    lineups : sequence of sequences of Agent or str
        One agent per seat (or an agent's name, as for
        :func:`riskmath.agents.make_agent`).  Agents are told apart by their
        ``name``: two agents of one line-up with the same name must have the
        same repr where their classes write one (the built-in agents' show
        their options), else be of one class; otherwise the line-up is
        refused (the table would count them as one).
    n_games : int
        Games per line-up, at least one per rotation (a multiple of the
        number of players splits evenly; the first rotations get the rest).
    seed : int, default 0
        Root of every game's seed (each line-up and rotation gets its own
        stream from ``numpy.random.SeedSequence``).
    n_jobs, executor
        As for :func:`riskmath.simulate`.
    confidence : float, default 0.95
        Of the Wilson intervals.
    move_time : float, optional
        The most seconds an agent may take over one decision, as in
        :func:`riskmath.simulate`; None (the default) for no limit.
    by_seat : bool, default False
        One row per line-up, agent and seat instead of per line-up and
        agent (see Returns).
    max_turns : int, optional
        A turn cap for these games in place of the game's own, as in
        :func:`~riskmath.simulate` (games it stops are draws).

    Returns
    -------
    pandas.DataFrame
        One row per line-up and agent name: ``lineup`` (the names, comma
        separated, in the first rotation's seat order), ``agent``, ``seats``
        (how many seats it holds), ``games``, ``wins``, ``draws``,
        ``win_rate``, ``ci_low``, ``ci_high`` and ``seconds_per_game`` (the
        wall time of the line-up's games divided by their number: with
        ``n_jobs`` above 1 the games overlap, so it is the time per game of
        the whole pool, not of one game).

        With ``by_seat=True``, one row per line-up, agent and seat, the
        column ``seat`` after ``seats``: the seat in the order of play, 0
        for the player who takes the first turn (drawn at random in each
        game, as the rules say), 1 for the next and so on; the neutral of a
        two-player game is not a seat.  ``games`` counts the games the agent
        played from that seat (a line-up holding an agent twice counts each
        of its seats), ``wins`` and ``draws`` are among those games, the
        interval is that of ``wins`` of ``games``, and ``seconds_per_game``
        shares each rotation's wall time equally among its games.  A seat
        the agent never held has ``games`` 0, ``win_rate`` NaN and the
        interval [0, 1].  Summed over the seats, ``games`` is ``n_games``
        times ``seats`` and ``wins`` is the agent's wins of the table without
        ``by_seat``.

    Raises
    ------
    InvalidArgumentError
        For a line-up of the wrong length or holding something that is not
        an agent (or an agent's name), an empty list of line-ups, or fewer
        games than rotations.
    AgentError, WorkerError, SimulationInterrupted
        As for :func:`riskmath.simulate` (the ``results`` are those of the
        rotation that was being played).

    Examples
    --------
    >>> from riskmath.agents import AggressiveAgent, RandomAgent
    >>> table = tournament(Game(2, max_turns=150), [[AggressiveAgent(), RandomAgent()]], 4, seed=1)
    >>> table[["agent", "seats", "games"]].values.tolist()
    [['aggressive', 1, 4], ['random', 1, 4]]
    >>> bool((table["ci_low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["ci_high"]).all())
    True
    >>> seats = tournament(Game(2, max_turns=150), [[AggressiveAgent(), RandomAgent()]], 4, seed=1, by_seat=True)
    >>> seats[["agent", "seat"]].values.tolist()
    [['aggressive', 0], ['aggressive', 1], ['random', 0], ['random', 1]]
    >>> seats.groupby("agent")["wins"].sum().tolist() == table["wins"].tolist()
    True
    """
    import pandas as pd

    check_game(game)
    check_int("seed", seed, minimum=0)
    n = check_int("n_games", n_games, minimum=1)
    confidence = float(check_probability("confidence", confidence))  # (before the games: the intervals come after them)
    if isinstance(lineups, str) or not is_sequence(lineups) or not lineups:
        raise InvalidArgumentError(f"lineups must hold at least one line-up of agents, got {shown(lineups)}")
    players = game.players
    lineups = [_lineup(lineup, k, players) for k, lineup in enumerate(lineups)]
    if n < players:
        raise InvalidArgumentError(f"n_games must be at least the number of rotations ({players}), got {n_games}")
    # Each rotation's games are one simulate() table, tallied and dropped: the largest is what the run holds.
    check_cost(
        lambda: f"tournament with n_games={shown(n)} ({shown(-(-n // players))} games a rotation)",
        memory=table_bytes(-(-n // players), players),
        hint="play fewer games (or several tournaments with different seeds); ",
    )
    if not isinstance(by_seat, bool):
        raise InvalidArgumentError(f"by_seat must be True or False, got {by_seat!r}")
    streams = np.random.SeedSequence(seed).generate_state(len(lineups) * players, dtype=np.uint32)
    rows = []
    for index, lineup in enumerate(lineups):
        names = [agent.name for agent in lineup]
        # Per (agent, seat in the order of play): games, wins, draws, seconds; seat None for all of them.
        tally: dict[tuple[str, int | None], list[float]] = {}
        for name in names:
            for seat in [None, *range(players)] if by_seat else [None]:
                tally[name, seat] = [0, 0, 0, 0.0]
        draws = 0
        elapsed = 0.0
        for shift in range(players):
            count = n // players + (1 if shift < n % players else 0)
            seated = [lineup[(seat + shift) % players] for seat in range(players)]
            stream = int(streams[index * players + shift])
            start = time.perf_counter()
            table = simulate(
                game,
                seated,
                count,
                seed=stream,
                n_jobs=n_jobs,
                executor=executor,
                move_time=move_time,
                max_turns=max_turns,
            )
            spent = time.perf_counter() - start
            elapsed += spent
            draws += int(table["draw"].sum())
            for winner in table["winner"].dropna():
                tally[seated[int(winner)].name, None][1] += 1
            if by_seat:
                for seed_k, winner, drawn in zip(table["seed"], table["winner"], table["draw"], strict=True):
                    first = _first_player(game, int(seed_k))
                    for seat in range(players):
                        player = (first + seat) % players
                        counts = tally[seated[player].name, seat]
                        counts[0] += 1
                        counts[1] += int(winner is not pd.NA and int(winner) == player)
                        counts[2] += int(bool(drawn))
                        counts[3] += spent / count
        for name in dict.fromkeys(names):
            wins = int(tally[name, None][1])
            if not by_seat:
                rows.append(
                    _row(",".join(names), name, names.count(name), None, n, wins, draws, elapsed / n, confidence)
                )
                continue
            for seat in range(players):
                games, won, drawn, seconds = tally[name, seat]
                rows.append(
                    _row(
                        ",".join(names),
                        name,
                        names.count(name),
                        seat,
                        int(games),
                        int(won),
                        int(drawn),
                        seconds / games if games else math.nan,
                        confidence,
                    )
                )
    return pd.DataFrame(rows)


def _lineup(lineup: object, k: int, players: int) -> list[Any]:
    """Line-up ``k``: one agent per seat, a name taken as :func:`riskmath.agents.make_agent` of it."""
    if isinstance(lineup, str) or not is_sequence(lineup):
        raise InvalidArgumentError(
            f"lineups[{k}] must be a sequence of agents or agent names, one per seat (lineups is a list of "
            f"line-ups: [[agent, agent, ...], ...]), got {shown(lineup)}"
        )
    if len(lineup) != players:
        raise InvalidArgumentError(f"a line-up needs one agent per player ({players}), got {len(lineup)}")
    seats = [make_agent(agent) if isinstance(agent, str) else agent for agent in lineup]
    for seat, agent in enumerate(seats):
        if not isinstance(getattr(agent, "name", None), str) or not callable(getattr(agent, "act", None)):
            raise InvalidArgumentError(
                f"lineups[{k}][{seat}] must be an agent (a name and an act method) or an agent's name, "
                f"got {shown(agent)}"
            )
    first: dict[str, Any] = {}
    for seat, agent in enumerate(seats):  # the table has one row per name: the agents of one name must be alike
        other = first.setdefault(agent.name, agent)
        if other is not agent and not _alike(other, agent):
            raise InvalidArgumentError(
                f"lineups[{k}] has two different agents named {agent.name!r} ({shown(other)} and {shown(agent)}, "
                f"seat {seat}), which the table would count as one: give one of them another name "
                "(set its name attribute)"
            )
    return seats


def _alike(one: Any, two: Any) -> bool:
    """Whether two agents of one name play alike as far as can be told: the same repr where both classes write
    one (a repr of the options, as the built-in agents do; a subclass that only counts decisions keeps it),
    else the same class."""
    if _writes_repr(one) and _writes_repr(two):
        return repr(one) == repr(two)
    return type(one) is type(two)  # (an address: nothing to compare but the class)


def _writes_repr(agent: object) -> bool:
    """Whether the agent's class (or a base but ``object``) writes its own repr."""
    return any("__repr__" in vars(cls) for cls in type(agent).__mro__[:-1])


def _first_player(game: Game, seed: int) -> int:
    """The player who takes the first turn of the game :func:`riskmath.simulate` plays on ``seed``.

    That game starts from ``game.new_initial_state(seed=seed,
    auto_chance=True)``, whose chance nodes, the draw of the first player
    among them, are resolved before anyone decides.
    """
    first = game.new_initial_state(seed=seed, auto_chance=True).position.first
    if not 0 <= first < game.players:  # pragma: no cover - every rule set draws the first player at the start
        raise InvalidArgumentError(f"the first player of the game on seed {seed} is not drawn at the start")
    return int(first)


def _row(
    lineup: str,
    name: str,
    seats: int,
    seat: int | None,
    games: int,
    wins: int,
    draws: int,
    seconds: float,
    confidence: float,
) -> dict[str, Any]:
    """One row of the table (with ``seat`` unless it is None); a row of no games has a NaN rate and [0, 1]."""
    low, high = wilson_interval(wins, games, confidence) if games else (0.0, 1.0)
    row: dict[str, Any] = {"lineup": lineup, "agent": name, "seats": seats}
    if seat is not None:
        row["seat"] = seat
    row.update(
        games=games,
        wins=wins,
        draws=draws,
        win_rate=wins / games if games else math.nan,
        ci_low=low,
        ci_high=high,
        seconds_per_game=seconds,
    )
    return row
