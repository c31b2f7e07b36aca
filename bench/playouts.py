"""Full-rules games: player-turns per second, through the public API and through ``simulate``.

Two ways of playing.  The public API: a loop over ``state.apply(action)``,
which copies the state for every action, choosing from the lazy
``legal_actions()`` sequence (``random`` uniformly; ``blitz`` uniformly
among the blitzes and ending the phase in the attack phase) or, for the
baseline of the aggressive agent, scanning it as the agent did before issue 5
(:class:`ScanningAggressive`).  And ``riskmath.simulate``, which plays on one
state changed in place, with the built-in agents deciding straight from it
(:func:`simulate_rate`, :func:`scaling`).  Games use the 1993 rules and a cap
of 300 player-turns.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from typing import Any

import riskmath as rm
from riskmath.agents import AGENTS, make_agent

#: The agents to time by their names in ``riskmath.agents.AGENTS``; names not (yet) there are skipped.
AGENT_NAMES = ("random", "aggressive", "odds", "search", "planner")


def available(names: tuple[str, ...] = AGENT_NAMES) -> list[str]:
    """The names of ``names`` that ``riskmath.agents.AGENTS`` has."""
    return [name for name in names if name in AGENTS]


def random_choice(state: rm.GameState, rng: random.Random) -> object:
    return rng.choice(state.legal_actions())


def blitz_choice(state: rm.GameState, rng: random.Random) -> object:
    legal = state.legal_actions()
    if state.phase is rm.Phase.ATTACK:
        options = [a for a in legal if not isinstance(a, rm.Attack)]
        return rng.choice(options)
    return rng.choice(legal)


class ScanningAggressive:
    """The aggressive heuristic as it was before issue 5: every decision scans ``legal_actions()``."""

    name = "aggressive (scanning)"

    def act(self, state: rm.GameState, rng: random.Random) -> Any:
        legal = state.legal_actions()
        phase, player = state.phase, state.current_player
        if phase in (rm.Phase.REINFORCE, rm.Phase.TRADE_DOWN, rm.Phase.SETUP_PLACE):
            for action in legal:
                if isinstance(action, rm.TradeCards):
                    return action
            places = [a for a in legal if isinstance(a, rm.PlaceArmies)]
            if not places:
                return legal[0]
            if phase is rm.Phase.SETUP_PLACE and state.owner(places[0].territory) != player:
                return rng.choice(places)
            board = state.game.board
            candidates = {a.territory for a in places}
            front = [t for t in candidates if any(state.owner(n) != player for n in board.neighbors(t))]
            target = max(sorted(front or candidates), key=state.armies)
            return max((a for a in places if a.territory == target), key=lambda a: a.armies)
        if phase is rm.Phase.ATTACK:
            best: tuple[int, Any] | None = None
            for action in legal:
                if isinstance(action, rm.Blitz):
                    mine, theirs = state.armies(action.source) - 1, state.armies(action.target)
                    if mine >= theirs + 2 and (best is None or mine - theirs > best[0]):
                        best = (mine - theirs, action)
            return best[1] if best is not None else rm.EndPhase()
        if phase is rm.Phase.OCCUPY:
            return max((a for a in legal if isinstance(a, rm.Occupy)), key=lambda a: a.armies)
        if phase is rm.Phase.FORTIFY:
            return rm.EndPhase()
        return rng.choice(legal)


AGENTS_BY_HAND = {"random": random_choice, "blitz": blitz_choice, "scanning": ScanningAggressive().act}


def play(
    game: rm.Game, seed: int, agent: str = "random", *, check: bool = False, materialise: bool = False
) -> rm.GameState:
    """One game through the public API; ``materialise`` builds the full list of legal actions each step."""
    choose = AGENTS_BY_HAND[agent]
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, auto_chance=True)
    while not state.is_terminal():
        action = rng.choice(list(state.legal_actions())) if materialise else choose(state, rng)
        state = state.apply(action, check=check)
    return state


def turns_per_second(
    agent: str, games: int, players: int = 4, *, warm_up: int = 4, **options: bool
) -> tuple[float, int]:
    """Player-turns per second over ``games`` seeded games through the public API (and the turns played).

    A :class:`riskmath.Game` caches the chance table of every blitz it meets
    (one per attackers, defenders and stop_at), so a simulation of many games
    gets faster as the cache fills.  ``warm_up`` games with other seeds are
    played first on the same game object; ``warm_up=0`` measures a cold start.
    """
    game = rm.Game(players, max_turns=300)
    for seed in range(10_000, 10_000 + warm_up):
        play(game, seed, agent, **options)
    start = time.perf_counter()
    turns = sum(play(game, seed, agent, **options).turn for seed in range(games))
    return turns / (time.perf_counter() - start), turns


def simulate_rate(
    name: str, players: int, *, budget: float = 1.0, warm_up: int = 4, max_turns: int = 300
) -> tuple[float, int]:
    """Player-turns per second of ``simulate`` in one process, every seat played by the agent ``name``.

    Warm-up games (up to ``warm_up``, and at most a fifth of the budget;
    always one) fill the game's caches, as in :func:`turns_per_second`.  Then
    chunks of games (1, 2, 4, ... up to 16 games) run until ``budget``
    seconds have passed, so that a slow agent plays one game rather than
    many.  Returns the rate and the turns played.
    """
    game = rm.Game(players, max_turns=max_turns)
    agents = [make_agent(name) for _ in range(players)]
    start = time.perf_counter()
    for k in range(warm_up):
        rm.simulate(game, agents, 1, seed=10_000 + k)
        if time.perf_counter() - start > budget / 5:
            break
    gc.collect()  # as timeit does: no full collection of earlier benchmarks' garbage inside the timing
    turns, elapsed, k, chunk = 0, 0.0, 0, 1
    while elapsed < budget:
        start = time.perf_counter()
        table = rm.simulate(game, agents, chunk, seed=k)
        elapsed += time.perf_counter() - start
        turns += int(table["turns"].sum())
        k += 1
        chunk = min(2 * chunk, 16)
    return turns / elapsed, turns


def steady_rate(name: str, players: int, *, warm_games: int = 8, budget: float = 2.0, max_turns: int = 300) -> float:
    """Player-turns per second of ``simulate`` once the agent's caches are warm, every seat the agent ``name``.

    The odds agent remembers what it computed (battle and chain odds, routes
    searched, continent plans): its first games in a new process pay for
    filling those caches, so that :func:`simulate_rate` (one warm-up game or a
    fifth of a second) times it half cold.  Rollouts and simulations play
    hundreds of games in one process, so this measure plays ``warm_games``
    games first (not timed), then new games (seeds never played before in
    the process) in chunks until ``budget`` seconds of process time have been
    spent.  Process time, not wall time: the other processes of a loaded
    machine do not count against the agent.
    """
    game = rm.Game(players, max_turns=max_turns)
    agents = [make_agent(name) for _ in range(players)]
    rm.simulate(game, agents, warm_games, seed=20_000)
    gc.collect()
    turns, elapsed, k, chunk = 0, 0.0, 0, 1
    while elapsed < budget:
        start = time.process_time()
        table = rm.simulate(game, agents, chunk, seed=30_000 + k)
        elapsed += time.process_time() - start
        turns += int(table["turns"].sum())
        k += 1
        chunk = min(2 * chunk, 16)
    return turns / elapsed


def scaling(name: str, players: int, games: int) -> tuple[float, float, int]:
    """Wall times of ``simulate(n_jobs=1)`` and ``simulate(n_jobs=2)`` on the same games, and their turns.

    Each run starts from a fresh game (cold caches, as the workers do), and
    the two tables must be equal.
    """
    agents = [make_agent(name) for _ in range(players)]
    times, tables = [], []
    for jobs in (1, 2):
        game = rm.Game(players, max_turns=300)
        gc.collect()
        start = time.perf_counter()
        tables.append(rm.simulate(game, agents, games, seed=1, n_jobs=jobs))
        times.append(time.perf_counter() - start)
    if not tables[0].equals(tables[1]):
        raise AssertionError(f"simulate gave different tables with 1 and 2 processes ({name}, {players} players)")
    return times[0], times[1], int(tables[0]["turns"].sum())


def paired_ratio(
    players: int,
    *,
    rounds: int = 5,
    budget: float = 0.5,
    max_turns: int = 200,
    names: tuple[str, str] = ("odds", "aggressive"),
) -> tuple[float, float, float]:
    """Issue 20's measure: the first agent's player-turns per second over the second's, self-play of each.

    Every seat is the one agent, then every seat the other, on the same
    game (1993 rules, ``max_turns``), after four warm-up games of each;
    then ``rounds`` rounds, each a chunk of new games of the one agent and
    then of the other (each at least ``budget`` seconds of process time,
    the same seeds in both), so that a change in the load of a shared
    machine falls on both alike.  Returns the median rate of each and the
    median of the rounds' ratios.
    """
    game = rm.Game(players, max_turns=max_turns)
    agents = {name: [make_agent(name) for _ in range(players)] for name in names}
    for name in names:
        rm.simulate(game, agents[name], 4, seed=20_000)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names:
            gc.collect()
            turns, elapsed, k = 0, 0.0, 0
            while elapsed < budget:
                start = time.process_time()
                table = rm.simulate(game, agents[name], 2, seed=30_000 + 1000 * r + k)
                elapsed += time.process_time() - start
                turns += int(table["turns"].sum())
                k += 1
            rates[name].append(turns / elapsed)
    first, second = names
    ratios = sorted(a / b for a, b in zip(rates[first], rates[second], strict=True))
    return statistics.median(rates[first]), statistics.median(rates[second]), statistics.median(ratios)
