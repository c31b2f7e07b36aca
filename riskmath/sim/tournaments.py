"""Tournaments: agents against each other over many games, seats rotated, with confidence intervals.

:func:`tournament` plays each line-up in every rotation of the seats (so
that no agent keeps the advantage or handicap of a seat) through
:func:`riskmath.simulate`, and tabulates, per line-up and agent, the share
of games won with a Wilson score interval.  Everything is reproducible from
``seed``, with any ``n_jobs`` or executor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import check_int
from riskmath.errors import InvalidArgumentError
from riskmath.game.game import Game
from riskmath.sim.simulation import simulate

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
    if not isinstance(confidence, float) or not 0.0 < confidence < 1.0:
        raise InvalidArgumentError(f"confidence must be a float in (0, 1), got {confidence!r}")
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
) -> pd.DataFrame:
    """Play every line-up ``n_games`` times, rotating the seats, and tabulate wins per agent.

    Parameters
    ----------
    game : Game
        Its number of players is the length of every line-up.
    lineups : sequence of sequences of Agent
        One agent per seat.  Agents are told apart by their ``name``.
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

    Returns
    -------
    pandas.DataFrame
        One row per line-up and agent name: ``lineup`` (the names, comma
        separated, in the first rotation's seat order), ``agent``, ``seats``
        (how many seats it holds), ``games``, ``wins``, ``draws``,
        ``win_rate``, ``ci_low`` and ``ci_high``.

    Raises
    ------
    InvalidArgumentError
        For a line-up of the wrong length, an empty list of line-ups, or
        fewer games than rotations.
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
    """
    import pandas as pd

    check_int("seed", seed, minimum=0)
    n = check_int("n_games", n_games, minimum=1)
    if not lineups:
        raise InvalidArgumentError("lineups must hold at least one line-up of agents")
    players = game.players
    for lineup in lineups:
        if len(lineup) != players:
            raise InvalidArgumentError(f"a line-up needs one agent per player ({players}), got {len(lineup)}")
    if n < players:
        raise InvalidArgumentError(f"n_games must be at least the number of rotations ({players}), got {n_games}")
    streams = np.random.SeedSequence(seed).generate_state(len(lineups) * players, dtype=np.uint32)
    rows = []
    for index, lineup in enumerate(lineups):
        names = [agent.name for agent in lineup]
        wins = dict.fromkeys(names, 0)
        draws = 0
        for shift in range(players):
            count = n // players + (1 if shift < n % players else 0)
            seated = [lineup[(seat + shift) % players] for seat in range(players)]
            stream = int(streams[index * players + shift])
            table = simulate(game, seated, count, seed=stream, n_jobs=n_jobs, executor=executor, move_time=move_time)
            draws += int(table["draw"].sum())
            for winner in table["winner"].dropna():
                wins[seated[int(winner)].name] += 1
        for name in dict.fromkeys(names):
            low, high = wilson_interval(wins[name], n, confidence)
            rows.append(
                {
                    "lineup": ",".join(names),
                    "agent": name,
                    "seats": names.count(name),
                    "games": n,
                    "wins": wins[name],
                    "draws": draws,
                    "win_rate": wins[name] / n,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
    return pd.DataFrame(rows)
