"""Teach a masked PPO agent to beat random play on a small board, in five minutes on one core.

Run:  pip install -e ".[rl]"
      python examples/maskable_ppo.py [--minutes 5 | --steps N] [--board south_america_africa] [--opponents 1]
                                      [--eval-games 200] [--seed 0] [--curve curve.csv] [--plot curve.png]
                                      [--save model.zip]

The learner is sb3-contrib's ``MaskablePPO`` with its default network (two
hidden layers of 64), on :class:`riskmath.envs.gymnasium.RiskEnv` with
``flat=True``: the scaled observation vector in, one of the board's action
ids out, the illegal ones masked by ``env.action_masks()``.  The opponents
are riskmath's :class:`~riskmath.agents.RandomAgent`; under the 1993 rules a
two-player game has a neutral player too.  Training runs
:data:`ENVS_PER_SEAT` environments per seat, so that the learner plays every
seat from the start and the network answers them in batches, and stops when
the time budget is spent (PyTorch held to one thread: "one core").  A time
budget trains for more or fewer steps on a faster or slower machine;
``--steps`` trains for a fixed number of steps instead, the same model for
the same seed.

The evaluation then plays ``--eval-games`` new games (seeds never used in
training) with the seats rotated, the learner choosing its most likely
legal action, and prints the share of games it won, with a Wilson 95 %
interval, per seat and in all, beside uniformly random play measured on
the same games.  A game that reaches the turn cap (200 player-turns) is
not a win.  ``--curve`` writes the training curve (the share of the last
100 training games won, against time and steps) as CSV, ``--plot`` draws
it; both paths are checked before training starts.  Ctrl-C during training
stops it and evaluates the agent trained so far.

The settings that differ from sb3-contrib's defaults are in
:data:`PPO_SETTINGS`, and ``docs/learning.rst`` says why (mainly the
discount: a game's only reward comes hundreds of steps after its first
move) and shows the curve and result of the default run.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from riskmath.envs.gymnasium import RiskEnv
from riskmath.errors import BoardError
from riskmath.sim import wilson_interval

#: The turn cap of the environments, training and evaluation (RiskEnv's default).
MAX_TURNS = 200
#: Training games in the moving window of the curve.
WINDOW = 100
#: Seeds of the evaluation games start here, far from the training seeds.
EVAL_SEED = 1_000_000
#: Training environments per seat (a DummyVecEnv of them all).
ENVS_PER_SEAT = 4
#: MaskablePPO's settings that are not its defaults (see docs/learning.rst, "A recipe that learns").
PPO_SETTINGS: dict[str, Any] = {"gamma": 0.999, "n_steps": 256, "batch_size": 256, "n_epochs": 5, "ent_coef": 0.01}


def make_env(board: str, opponents: int, seat: int) -> RiskEnv:
    """The learner in ``seat`` against ``opponents`` random agents on ``board`` (flat observations).

    ``illegal_action="raise"``: the learner is masked, so an illegal id would be a bug, not a loss to learn from.
    """
    return RiskEnv(
        opponents=["random"] * opponents,
        seat=seat,
        board=board,
        max_turns=MAX_TURNS,
        flat=True,
        illegal_action="raise",
    )


@dataclass
class Curve:
    """The training games as they end: (seconds, steps, won) each, and the curve points taken from them."""

    start: float = field(default_factory=time.perf_counter)
    outcomes: deque[bool] = field(default_factory=lambda: deque(maxlen=WINDOW))
    points: list[tuple[float, int, int, float]] = field(default_factory=list)  # seconds, steps, games, win share
    games: int = 0

    def record(self, steps: int, won: bool) -> None:
        self.games += 1
        self.outcomes.append(won)
        if self.games % 25 == 0:
            elapsed = time.perf_counter() - self.start
            self.points.append((elapsed, steps, self.games, sum(self.outcomes) / len(self.outcomes)))


def train(
    board: str,
    opponents: int,
    seed: int,
    minutes: float | None = None,
    steps: int | None = None,
    envs_per_seat: int = ENVS_PER_SEAT,
    **settings: Any,
) -> tuple[Any, Curve]:
    """A MaskablePPO model trained for ``minutes`` of wall-clock time or for ``steps`` steps, and its curve.

    ``settings`` replace :data:`PPO_SETTINGS` one by one.
    """
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    players = opponents + 1
    seats = [seat for seat in range(players) for _ in range(envs_per_seat)]
    envs = DummyVecEnv([lambda seat=seat: make_env(board, opponents, seat) for seat in seats])
    envs.seed(seed)
    model = MaskablePPO("MlpPolicy", envs, seed=seed, device="cpu", verbose=0, **(PPO_SETTINGS | settings))
    curve = Curve()
    deadline = math.inf if minutes is None else curve.start + 60 * minutes

    class Budget(BaseCallback):
        def _on_step(self) -> bool:
            for done, reward in zip(self.locals["dones"], self.locals["rewards"], strict=True):
                if done:
                    curve.record(self.num_timesteps, reward == 1.0)
            return time.perf_counter() < deadline

    try:
        model.learn(total_timesteps=10**12 if steps is None else steps, callback=Budget())
    except KeyboardInterrupt:
        print("training interrupted: evaluating the agent trained so far")
    return model, curve


def evaluate(
    model: Any, board: str, opponents: int, games: int, deterministic: bool = True
) -> list[tuple[int, bool, bool]]:
    """(seat, learner won, uniform random play won) for each evaluation game, seats rotated.

    Game ``i`` is played twice from the same seed, once by the model (its
    most likely legal action; ``deterministic=False``: an action sampled from
    its policy) and once by uniformly random legal actions.
    """
    players = opponents + 1
    envs = [make_env(board, opponents, seat) for seat in range(players)]
    results = []
    for i in range(games):
        seat = i % players
        env = envs[seat]
        won = []
        for policy in ("model", "random"):
            rng = random.Random(i)
            observation, _ = env.reset(seed=EVAL_SEED + i)
            done, reward = False, 0.0
            while not done:
                mask = env.action_masks()
                if policy == "model":
                    action, _ = model.predict(observation, action_masks=mask, deterministic=deterministic)
                else:
                    legal = np.flatnonzero(mask)
                    action = legal[rng.randrange(len(legal))]
                observation, reward, terminated, truncated, _ = env.step(int(action))
                done = terminated or truncated
            won.append(reward == 1.0)
        results.append((seat, won[0], won[1]))
    return results


def share(wins: int, games: int) -> str:
    low, high = wilson_interval(wins, games)
    return f"{wins / games:6.1%}  [{low:.2f}, {high:.2f}]  of {games}"


def report(results: Sequence[tuple[int, bool, bool]], players: int) -> float:
    """Print the learner's and random play's win shares per seat and in all; return the learner's."""
    print(f"{'':12}  {'learner':>30}  {'uniform random play':>30}")
    for seat in range(players):
        rows = [r for r in results if r[0] == seat]
        learner, rand = sum(r[1] for r in rows), sum(r[2] for r in rows)
        print(f"seat {seat:<7}  {share(learner, len(rows)):>30}  {share(rand, len(rows)):>30}")
    learner, rand = sum(r[1] for r in results), sum(r[2] for r in results)
    print(f"{'all seats':12}  {share(learner, len(results)):>30}  {share(rand, len(results)):>30}")
    return learner / len(results)


def write_curve(curve: Curve, path: Path) -> None:
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["seconds", "steps", "games", f"won_last_{WINDOW}"])
        writer.writerows((f"{s:.1f}", steps, games, f"{won:.3f}") for s, steps, games, won in curve.points)


def plot_curve(curve: Curve, path: Path, result: float, random_share: float) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.4), layout="constrained")
    seconds = [p[0] / 60 for p in curve.points]
    ax.plot(seconds, [p[3] for p in curve.points], label=f"training games won (last {WINDOW})")
    ax.axhline(result, color="C1", linestyle="--", label=f"evaluation: {result:.0%}")
    ax.axhline(random_share, color="grey", linestyle=":", label=f"uniform random play: {random_share:.0%}")
    ax.set(xlabel="training time (minutes, one core)", ylabel="share of games won", ylim=(0, 1))
    ax.legend(loc="lower right")
    fig.savefig(path, dpi=110)
    plt.close(fig)


def checked_path(name: str, value: str | None, suffix: str) -> Path | None:
    """``value`` as a path whose folder exists, ending in ``suffix``; checked before training starts."""
    if value is None:
        return None
    path = Path(value)
    if path.suffix != suffix:
        raise SystemExit(f"{name} must end in {suffix}, got {value!r}")
    if not path.parent.is_dir():
        raise SystemExit(f"{name}: no folder {str(path.parent)!r}")
    try:
        path.touch()
    except OSError as error:
        raise SystemExit(f"{name}: cannot write {value!r}: {error.strerror}") from None
    return path


def main(argv: Sequence[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, help="training time (wall clock; the default, 5 minutes)")
    budget.add_argument("--steps", type=int, help="training steps instead of a time (reproducible)")
    parser.add_argument("--board", default="south_america_africa", help="a board name (default south_america_africa)")
    parser.add_argument("--opponents", type=int, default=1, choices=range(1, 6), help="random opponents (default 1)")
    parser.add_argument("--eval-games", type=int, default=200, help="evaluation games (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", help="write the training curve here (.csv)")
    parser.add_argument("--plot", help="draw the training curve here (.png)")
    parser.add_argument("--save", help="save the trained model here (.zip)")
    args = parser.parse_args(argv)
    if args.minutes is None and args.steps is None:
        args.minutes = 5.0
    if args.minutes is not None and not (math.isfinite(args.minutes) and args.minutes > 0):
        parser.error(f"--minutes must be a positive number, got {args.minutes}")
    if args.steps is not None and args.steps < 1:
        parser.error(f"--steps must be at least 1, got {args.steps}")
    if args.eval_games < 1:
        parser.error(f"--eval-games must be at least 1, got {args.eval_games}")
    try:
        import sb3_contrib  # noqa: F401 -- only to say what is missing before a file is touched
    except ModuleNotFoundError:
        parser.error(
            "needs sb3-contrib (and PyTorch): pip install sb3-contrib, or riskmath's [rl] extra: pip install -e '.[rl]'"
        )
    curve_path = checked_path("--curve", args.curve, ".csv")
    plot_path = checked_path("--plot", args.plot, ".png")
    save_path = checked_path("--save", args.save, ".zip")
    try:
        make_env(args.board, args.opponents, 0)  # a bad board name fails here, before training
    except BoardError as error:
        parser.error(f"--board: {error}")

    model, curve = train(args.board, args.opponents, args.seed, args.minutes, args.steps)
    steps = model.num_timesteps
    print(f"trained {steps:,} steps, {curve.games:,} games in {time.perf_counter() - curve.start:.0f} s")
    if save_path is not None:
        model.save(save_path)
    if curve_path is not None:
        write_curve(curve, curve_path)
    results = evaluate(model, args.board, args.opponents, args.eval_games)
    result = report(results, args.opponents + 1)
    if plot_path is not None:
        plot_curve(curve, plot_path, result, sum(r[2] for r in results) / len(results))
    return result


if __name__ == "__main__":
    main()
