"""How well could any estimate do on a line-up's held-out games?  Rollouts by the same agents, as a ceiling.

The win estimate's target (issue 20, part 4) is at most 0.85 times territory
share's Brier score on held-out games of every preset and line-up.  This
script asks what that target means where the estimate is furthest from it:
from positions of the held-out games of ``bench/estimate_lineups.py`` (the
same seeds, every fourth game of a cell), it plays ``--rollouts`` games on
with the line-up's own agents (:func:`riskmath.victory_probabilities`), which
know everything about the players the features do not, and scores their win
shares, the line-up's estimate (``lineup=``) and territory share against the
game's real winner.  Half a game is added to each living player's rollout
wins (no player still in is given 0).  Beside it, "true chances": the
Brier score of the chances the rollouts estimate, their own score less its
Monte Carlo part (``E[(p^ - y)^2] = (p - y)^2 + p(1 - p)/n``, with the
unbiased estimate of ``p(1 - p)/n``): what the best estimate read off the
position could score against these agents.  One position per held-out game,
its turn drawn uniformly (seed 2026) among the recorded player-turns 8-40; with
other ``--seed`` s, the same from fresh games.  Prints each cell and the
pooled Brier ratios with 95 % bootstrap intervals over the positions (4,000
resamples): "pooled" counts each game once, "weighted" weighs each position
by the number of positions its game recorded, which estimates the ratio
over every recorded position (the estimate page's table counts every
position of turns 8-40, so that long games, which are harder to call, weigh
more there).

Run from the repository root, e.g. (about 20 minutes on one core)::

    python bench/estimate_ceiling.py --lineup planner --preset us_1993 --players 4 5 6 --rollouts 100
    python bench/estimate_ceiling.py --lineup aggressive --players 2 3 4 5 6 --seed 3026 3027 3028 3029
"""

from __future__ import annotations

import argparse
import random
import time

import estimate_lineups as lineups  # (the data script beside this one: its seeds and constants)
import numpy as np

import riskmath as rm
from riskmath.agents import AGENTS
from riskmath.evaluate import estimate_victory_probabilities
from riskmath.game.game import GameState
from riskmath.sim._loop import run_game


def positions(lineup: lineups.Lineup, preset: str, players: int, seed: int) -> list[tuple[GameState, int, int, int]]:
    """One position, the real winner, the game's index and how many positions the game recorded, per held-out
    game of the cell (as ``estimate_lineups`` plays them)."""
    game = rm.Game(players, rm.Rules.preset(preset), max_turns=lineups.MAX_TURNS)
    pick = random.Random(seed)
    found = []
    for k, s in enumerate(lineups.cell_seeds(seed, lineup, preset, players, lineups.GAMES)):
        if k % lineups.HOLD_OUT_EVERY != lineups.HOLD_OUT_EVERY - 1:
            continue
        saved: list[str] = []

        def snapshot(state: GameState, saved: list[str] = saved) -> dict[str, object]:
            if lineups.FIRST_TURN <= state.turn <= lineups.LAST_TURN:
                saved.append(state.to_json())  # (the loop's state is live: kept as a save)
            return {}

        agents = [AGENTS[lineup.agents[p % len(lineup.agents)]]() for p in range(players)]
        rngs = [random.Random(s * 7 + p) for p in range(players)]
        final, _, _ = run_game(game, agents, s, rngs, keep_actions=False, snapshot=snapshot)
        if final.winner is not None and saved:
            found.append((GameState.from_json(pick.choice(saved)), int(final.winner), k, len(saved)))
    return found


def brier(predicted: np.ndarray, winner: int) -> float:
    truth = np.zeros(len(predicted))
    truth[winner] = 1.0
    return float(((predicted - truth) ** 2).sum())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lineup", default="planner", choices=[lineup.name for lineup in lineups.LINEUPS])
    parser.add_argument("--preset", default="us_1993")
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5, 6])
    parser.add_argument("--rollouts", type=int, default=100)
    parser.add_argument(
        "--seed", type=int, nargs="+", default=[2026], help="the cells' seeds (2026: the fit's; others: fresh games)"
    )
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    lineup = next(entry for entry in lineups.LINEUPS if entry.name == args.lineup)
    scores: dict[str, list[float]] = {"rollouts": [], "true": [], "estimate": [], "share": [], "weight": []}
    for players in args.players:
        started = time.perf_counter()
        cell: dict[str, list[float]] = {name: [] for name in scores}
        found = [found for seed in args.seed for found in positions(lineup, args.preset, players, seed)]
        for state, winner, k, recorded in found:
            owners = state.position.owner
            share = np.array([owners.count(p) for p in range(players)], dtype=float)
            share /= share.sum()
            agents = [lineup.agents[p % len(lineup.agents)] for p in range(players)]
            table = rm.victory_probabilities(
                state, agents, args.rollouts, seed=k, n_jobs=args.jobs, max_turns=lineups.MAX_TURNS
            )
            wins = table["victory"].to_numpy(float) * table["games"].to_numpy(float)
            rolled = np.where(share > 0, wins + 0.5, 0.0)
            estimate = estimate_victory_probabilities(state, lineup=args.lineup).to_numpy(dtype=float)
            for name, predicted in (("rollouts", rolled / rolled.sum()), ("estimate", estimate), ("share", share)):
                cell[name].append(brier(predicted, winner))
            # The Brier score of the true chances the rollouts estimate: E[(p^ - y)^2] = (p - y)^2 + p(1 - p)/n, so
            # the rollouts' own score less the unbiased estimate of their variance (no half-game added here).
            raw = wins / args.rollouts
            cell["true"].append(brier(raw, winner) - float((raw * (1 - raw)).sum()) / (args.rollouts - 1))
            cell["weight"].append(float(recorded))
        for name in scores:
            scores[name] += cell[name]
        base = np.mean(cell["share"])
        print(
            f"{args.lineup} {args.preset} {players}p: {len(cell['share'])} positions, Brier ratio to territory share: "
            f"rollouts {np.mean(cell['rollouts']) / base:.3f} (true chances {np.mean(cell['true']) / base:.3f}), "
            f"estimate {np.mean(cell['estimate']) / base:.3f} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    b = {name: np.array(values) for name, values in scores.items()}
    picks = np.random.default_rng(args.seed[0]).integers(0, len(b["share"]), size=(4000, len(b["share"])))
    # Each game counts once ("pooled"), or by the positions it recorded ("weighted": the ratio over every recorded
    # position estimated, as the estimate page's table counts them, where long games weigh more).
    for label, weight in (("pooled", np.ones_like(b["weight"])), ("weighted", b["weight"])):
        w = weight[picks]
        for name in ("rollouts", "true", "estimate"):
            ratios = (b[name][picks] * w).sum(axis=1) / (b["share"][picks] * w).sum(axis=1)
            low, high = np.percentile(ratios, [2.5, 97.5])
            whole = (b[name] * weight).sum() / (b["share"] * weight).sum()
            print(f"{label}, {len(b['share'])} positions: {name} {whole:.3f} [{low:.3f}, {high:.3f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
