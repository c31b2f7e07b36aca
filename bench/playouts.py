"""Full-rules games between random agents: player-turns per second.

``random`` picks uniformly among the legal actions (through the lazy
``legal_actions()`` sequence); ``blitz`` does the same except that in the
attack phase it chooses uniformly among the blitzes (``stop_at=0``) and
ending the phase, so that each battle is one chance node drawn from the
exact battle distribution.  Games use the 1993 rules, 4 players, a cap of
300 player-turns, and every action is applied with ``check=False`` (the
documented fast path for actions taken from ``legal_actions()``).
"""

from __future__ import annotations

import random
import time

import riskmath as rm


def random_choice(state: rm.GameState, rng: random.Random) -> object:
    return rng.choice(state.legal_actions())


def blitz_choice(state: rm.GameState, rng: random.Random) -> object:
    legal = state.legal_actions()
    if state.phase is rm.Phase.ATTACK:
        options = [a for a in legal if not isinstance(a, rm.Attack)]
        return rng.choice(options)
    return rng.choice(legal)


AGENTS = {"random": random_choice, "blitz": blitz_choice}


def play(
    game: rm.Game, seed: int, agent: str = "random", *, check: bool = False, materialise: bool = False
) -> rm.GameState:
    """One game; ``materialise`` builds the full list of legal actions each step (the slow way)."""
    choose = AGENTS[agent]
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, auto_chance=True)
    while not state.is_terminal():
        action = rng.choice(list(state.legal_actions())) if materialise else choose(state, rng)
        state = state.apply(action, check=check)
    return state


def turns_per_second(
    agent: str, games: int, players: int = 4, *, warm_up: int = 4, **options: bool
) -> tuple[float, int]:
    """Player-turns per second over ``games`` seeded games (and the turns played).

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
