"""How the odds agent's one-stack guess does: the plans it skips, and how far it is from a bound.

``riskmath.agents.odds._one_stack_odds`` guesses, from above, the probability
of the continent plan ``plan_continent_above`` would make: every army that
could take part in one stack, taking the enemy territories strongest first.
The agent skips a plan when the guess is below the plan's floor by
``ONE_STACK_MARGIN``.  The guess is not a proven bound, so this script plays
self-play games of the odds and planner agents under every preset with 2, 3,
4 and 6 players (with the skip turned off, so that every plan is made) and
reports, for every plan the agents asked for:

- how many came to nothing (no plan above the floor) and how many of those
  the guess would skip;
- how many it would skip wrongly (a plan above the floor: a decision changed);
- how often the plan's probability is above the guess, and by how much at most.

``python bench/one_stack_guess.py [--games N]`` (default 6 games per agent,
preset and player count; about ten minutes).  Not part of ``make bench``.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from typing import Any

import riskmath as rm
import riskmath.agents.odds as odds
from riskmath.agents import make_agent
from riskmath.errors import RulesError


def measure(games: int, seed: int = 777) -> tuple[Counter[str], float]:
    """Play the games with the skip off; count what the guess would have done (see the module)."""
    counts: Counter[str] = Counter()
    worst = 0.0
    margin = odds.ONE_STACK_MARGIN
    plan = odds.plan_continent_above

    def watched(state: rm.GameState, me: int, members: Any, pool: int, floor: float) -> Any:
        nonlocal worst
        found = plan(state, me, members, pool, floor)
        guess = odds._one_stack_odds(state, me, members, pool)
        best = plan(state, me, members, pool, -1.0).probability
        counts["plans"] += 1
        if best > guess:
            counts["above the guess"] += 1
            worst = max(worst, best - guess)
        skipped = guess <= floor - margin
        if found is None:
            counts["to nothing"] += 1
            counts["skipped"] += skipped
        else:
            counts["skipped wrongly"] += skipped
        return found

    odds.ONE_STACK_MARGIN, odds.plan_continent_above = math.inf, watched
    try:
        for preset in rm.Rules.presets():
            for players in (2, 3, 4, 6):
                try:
                    game = rm.Game(players, rules=rm.Rules.preset(preset), max_turns=150)
                except RulesError:  # (Secret Mission RISK is for 3 to 6 players)
                    continue
                for name in ("odds", "planner"):
                    odds._PLANS.clear()  # (the skip is off: remembered plans would hide the calls)
                    rm.simulate(game, [make_agent(name) for _ in range(players)], games, seed=seed)
    finally:
        odds.ONE_STACK_MARGIN, odds.plan_continent_above = margin, plan
        odds._PLANS.clear()
    return counts, worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per agent, preset and player count (default 6)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    counts, worst = measure(args.games)
    print(f"ONE_STACK_MARGIN = {odds.ONE_STACK_MARGIN}; {counts['plans']:,} plans asked for")
    print(
        f"  came to nothing: {counts['to nothing']:,}; the guess skips {counts['skipped']:,} of them "
        f"({counts['skipped'] / max(counts['to nothing'], 1):.0%})"
    )
    print(f"  skipped wrongly (a plan above its floor): {counts['skipped wrongly']}")
    print(f"  plan above the guess: {counts['above the guess']:,} times, by {worst:.2e} at most")
    return 0 if counts["skipped wrongly"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
