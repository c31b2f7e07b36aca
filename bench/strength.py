"""Strength of the odds agent: its win rates against the aggressive and the random agent, with Wilson intervals.

Run with ``python bench/strength.py [--games N] [--seed S]`` (not part of
``make bench``: about a minute on one core).  Each line-up is a two-player
tournament (:func:`riskmath.sim.tournaments.tournament`, seats rotated, 1993 rules, a cap of
150 player-turns; a game stopped by the cap is a draw), on a fixed seed, so
that two versions of the agent can be compared on the same games: run it on
each (``PYTHONPATH=/path/to/the/other/tree python bench/strength.py``) and
check that each win rate stays inside the other's interval or improves.
Also prints the wall time of each tournament.
"""

from __future__ import annotations

import argparse
import time

import riskmath as rm
from riskmath.agents import make_agent
from riskmath.sim.tournaments import tournament

OPPONENTS = ("aggressive", "random")


def strength(games: int, seed: int) -> list[tuple[str, int, int, float, float, float, float]]:
    """Per opponent: (name, games, odds-agent wins, win rate, interval low, high, seconds taken)."""
    rows = []
    for name in OPPONENTS:
        game = rm.Game(2, max_turns=150)
        start = time.perf_counter()
        table = tournament(game, [[make_agent("odds"), make_agent(name)]], games, seed=seed)
        elapsed = time.perf_counter() - start
        odds = table.set_index("agent").loc["odds"]
        rows.append(
            (
                name,
                int(odds["games"]),
                int(odds["wins"]),
                float(odds["win_rate"]),
                float(odds["ci_low"]),
                float(odds["ci_high"]),
                elapsed,
            )
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per line-up (default 200)")
    parser.add_argument("--seed", type=int, default=2026, help="root seed of the tournaments (default 2026)")
    args = parser.parse_args(argv)
    print(f"riskmath {rm.__version__} from {rm.__file__}")
    print(f"odds agent v each opponent, 2 players, {args.games} games, seed {args.seed}, cap 150 player-turns")
    for name, games, wins, rate, low, high, elapsed in strength(args.games, args.seed):
        print(
            f"  v {name:<11} wins {wins:4d}/{games}  win rate {rate:.3f}  95% Wilson [{low:.3f}, {high:.3f}]"
            f"   ({elapsed:.1f} s)"
        )


if __name__ == "__main__":
    main()
