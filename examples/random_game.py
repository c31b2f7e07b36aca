"""Play one seeded game of RISK between uniformly random players.

Run:  python examples/random_game.py [--seed 1] [--players 4] [--preset us_1993] [--max-turns 300] [--blitz 0.0]

Every decision is ``rng.choice(state.legal_actions())``: the legal actions are
a lazy sequence, so picking one at random is cheap however many there are.
With ``--blitz P`` a player who may attack picks, with probability P, a random
blitz (a whole battle fought to the end in one chance node) instead.  Dice,
battles and card draws are drawn from the state's own seeded generator
(``auto_chance=True``), so the same options always give the same game.

Prints the territories and armies of every owner after each 100 turns (a
turn is one player's turn) and the result; writes no files.
"""

from __future__ import annotations

import argparse
import random

import riskmath as rm


def choose(state: rm.GameState, rng: random.Random, blitz: float) -> object:
    """A uniformly random legal action; with probability ``blitz`` a random blitz when one is legal."""
    actions = state.legal_actions()
    if blitz > 0 and state.phase is rm.Phase.ATTACK and rng.random() < blitz:
        blitzes = [action for action in actions if isinstance(action, rm.Blitz)]
        if blitzes:
            return rng.choice(blitzes)
    return rng.choice(actions)


def summary(state: rm.GameState, turns: int) -> None:
    """Territories, armies and cards of every owner (players, then neutrals)."""
    game = state.game
    print(f"after {turns} turns:")
    for owner in range(game.owners):
        territories = state.territories_of(owner)
        armies = sum(state.armies(t) for t in territories)
        cards = ""
        if owner < game.players:  # neutrals hold no cards
            hand = len(state.cards(owner))
            cards = f"  {hand} card{'' if hand == 1 else 's'}"
        print(f"  {game.owner_name(owner):<10} {len(territories):>3} territories {armies:>5} armies{cards}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seeds the dice and the players")
    parser.add_argument("--players", type=int, default=4, help="2 to 6 players")
    parser.add_argument("--preset", default="us_1993", choices=rm.Rules.presets(), help="rules (default: 1993 US)")
    parser.add_argument("--max-turns", type=int, default=300, help="the game is a draw after this many turns")
    parser.add_argument("--blitz", type=float, default=0.0, help="probability of preferring a blitz when attacking")
    args = parser.parse_args(argv)

    game = rm.Game(players=args.players, rules=rm.Rules.preset(args.preset), max_turns=args.max_turns)
    state = game.new_initial_state(seed=args.seed, auto_chance=True)
    rng = random.Random(args.seed)
    print(f"{game}, seed {args.seed}, random players" + (f" (blitz {args.blitz:g})" if args.blitz else ""))

    decisions = 0
    reported = 0
    while not state.is_terminal():
        state = state.apply(choose(state, rng, args.blitz), check=False)  # legal by construction
        decisions += 1
        if state.turn - 1 >= reported + 100:  # turn ``state.turn`` has begun, so the turns before it are over
            reported += 100
            summary(state, reported)
    if state.turn > reported:
        summary(state, state.turn)

    if state.winner is not None:
        print(f"{game.owner_name(state.winner)} wins in turn {state.turn} after {decisions} decisions")
    else:
        print(f"draw: no winner after {state.turn} turns ({decisions} decisions)")


if __name__ == "__main__":
    main()
