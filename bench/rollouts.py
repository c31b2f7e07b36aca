"""Rollouts from a position: what ``victory_probabilities`` costs, against ``simulate`` from new games in the same run.

``python bench/rollouts.py [--quick]`` prints, for each built-in agent
(every seat the same agent, three players):

* player-turns per second of ``simulate`` from new games (the set-up
  included), the baseline;
* player-turns per second of ``victory_probabilities`` from a position in the
  middle of a game (the three-player position of ``docs/outlook.rst``),
  counted from the position, and the ratio to the baseline: starting from a
  given state should cost no more per player-turn than starting a new game;
* the seconds that 1000 rollouts from that position would take on one core
  at that rate.

No test asserts on these times; the figures go in the report of the work
that changes them.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

import riskmath as rm
from riskmath.agents import make_agent

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from docs_pages import outlook_position  # the position of docs/outlook.rst, as the docs tests build it

#: The agents to time, with the games per measurement (the odds agent is far slower) and a turn cap.
AGENTS = (("random", 40, 300), ("aggressive", 40, 300), ("odds", 4, 60))


def new_games_rate(name: str, games: int, cap: int) -> float:
    """Player-turns per second of ``simulate`` from new games (after one warm-up game)."""
    game = rm.Game(3, max_turns=cap)
    agents = [make_agent(name) for _ in range(3)]
    rm.simulate(game, agents, 1, seed=10_000)
    gc.collect()
    start = time.perf_counter()
    table = rm.simulate(game, agents, games, seed=1)
    return int(table["turns"].sum()) / (time.perf_counter() - start)


def rollout_rate(name: str, state: rm.GameState, games: int, cap: int) -> tuple[float, float]:
    """Player-turns per second of ``victory_probabilities`` from ``state`` (turns counted from it); seconds a game."""
    agents = [make_agent(name) for _ in range(3)]
    rm.victory_probabilities(state, agents, 1, seed=10_000, max_turns=cap)
    gc.collect()
    game = rm.Game(3, max_turns=state.turn + cap)
    start = time.perf_counter()
    table = rm.simulate(game, agents, games, seed=1, start=state)  # what victory_probabilities runs, with the turns
    elapsed = time.perf_counter() - start
    return int((table["turns"] - state.turn).sum()) / elapsed, elapsed / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games")
    args = parser.parse_args(argv)
    state = outlook_position()
    print(f"riskmath {rm.__version__}; rollouts from {state!r} (docs/outlook.rst), 3 players")
    for name, games, cap in AGENTS:
        if args.quick:
            games = max(2, games // 4)
        base = new_games_rate(name, games, cap)
        rate, per_game = rollout_rate(name, state, games, cap)
        print(
            f"{name:<11} new games {base:8.0f} player-turns/s   from the position {rate:8.0f} player-turns/s "
            f"({rate / base:4.2f}x)   1000 rollouts on one core: about {1000 * per_game:6.0f} s (cap {cap} turns)"
        )


if __name__ == "__main__":
    main()
