"""What the planner agent weighs: a position's best placements by the victory estimate, then the planner at play.

Run with ``python examples/planner.py [--games N] [--four N] [--seed S]``.  It plays a
three-player game between odds agents to the tenth player-turn, asks
:class:`riskmath.evaluate.WhatIf` what the player to move would be worth if
it put its whole pool on each of its territories (the question
:class:`riskmath.agents.PlannerAgent` asks of every candidate move), shows
where the planner places, then plays two-player games of the planner against
the odds agent, the player ids alternated, and prints the win rate with its
95 % Wilson interval and each seat's in the order of play (seat 0 moves
first; who does is drawn in every game, so a seat's games vary around half
of them and few games may leave a seat with none).  Last, four-player
games of the planner against three odds agents (``--four N``, seats
rotated; an even share is 25 %), where it plans eliminations: a rival's last
territory brings its cards (docs/strategy.rst, "The planner agent").
"""

from __future__ import annotations

import argparse
import random

import riskmath as rm
from riskmath.agents import OddsAgent, PlannerAgent
from riskmath.evaluate import WhatIf
from riskmath.game.actions import TradeCards
from riskmath.sim.tournaments import tournament


def best_placements(state: rm.GameState, top: int = 5) -> list[tuple[str, float]]:
    """The player to move's ``top`` territories for its whole pool, by its estimated chance of victory."""
    me, pool = state.current_player, state.pool
    whatif = WhatIf(state, me)
    names = state.game.board.territories
    armies = state.position.armies
    worth = [
        (names[t], whatif.chance(changes={t: (me, armies[t] + pool)}))
        for t in range(len(names))
        if state.owner(t) == me
    ]
    return sorted(worth, key=lambda item: -item[1])[:top]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="two-player games against the odds agent (default 40)")
    parser.add_argument("--four", type=int, default=40, help="four-player games against odds agents (default 40)")
    parser.add_argument("--seed", type=int, default=4, help="seed of the position and of the games (default 4)")
    args = parser.parse_args(argv)

    state = rm.Game(3).new_initial_state(seed=args.seed, auto_chance=True)
    agent, rng = OddsAgent(), random.Random(0)
    while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
        state = state.apply(agent.act(state, rng))
    planner, me = PlannerAgent(), state.current_player
    choice = planner.act(state, random.Random(0))
    while isinstance(choice, TradeCards):  # a set first, as the planner would: the pool grows
        print(f"player {me} trades {', '.join(choice.cards)}")
        state = state.apply(choice)
        choice = planner.act(state, random.Random(0))
    print(f"player-turn {state.turn}: player {me} places {state.pool} armies")
    print(f"  its chance of victory as the position stands: {WhatIf(state, me).chance():.3f}")
    for name, chance in best_placements(state):
        print(f"  all {state.pool} on {name:<22} {chance:.3f}")
    print(f"  the planner (placement and the attack it plans, weighed together): {choice}")

    for players, n_games in ((2, args.games), (4, args.four)):
        if n_games < 1:
            continue
        lineup = [PlannerAgent()] + [OddsAgent() for _ in range(players - 1)]
        table = tournament(rm.Game(players, max_turns=300), [lineup], n_games, seed=args.seed, by_seat=True)
        planner = table[table["agent"] == "planner"]
        wins, games = int(planner["wins"].sum()), int(planner["games"].sum())
        low, high = rm.tournament.wilson_interval(wins, games)
        rivals = "odds agent" if players == 2 else "three odds agents"
        count = "two" if players == 2 else "four"
        print(f"planner v {rivals}, {games} {count}-player games: {wins / games:.0%} won [{low:.0%}, {high:.0%}]")
        for row in planner.itertuples():
            print(f"  seat {row.seat}: {row.wins} of {row.games}")


if __name__ == "__main__":
    main()
