"""Fit the weights of ``riskmath.evaluate.estimate_victory_probabilities`` to self-play, and measure them.

What it does, with a fixed seed (``--seed``, default 2026):

1. **Data.**  Games between odds agents (``OddsAgent``, one per seat) for 2,
   3, 4, 5 and 6 players on the classic map with the default rules,
   ``--games`` per player count (default 300; ``--quick``: 40), each with a
   cap of ``MAX_TURNS`` player-turns.  At the start of every player-turn from
   turn 10 to 40 the in-place play loop (``riskmath.sim._loop.run_game``)
   shows the live state to a callback, which records the estimate's features,
   the territory shares and ``position_value``; the game's winner is the
   outcome.  **Draws:** a game stopped by the cap has no winner; its
   positions are left out of both the fit and the measurement (the script
   prints how many there were: with odds agents, very few or none).
2. **Split by game.**  Every fourth game of each player count (the 4th, 8th,
   ...) is held out: none of its positions is seen by the fit.
3. **Fit.**  A conditional logit (softmax over the players still in the game
   of ``w . f(player)``) by maximum likelihood with an L2 penalty
   (``--l2``), by ``scipy.optimize.minimize`` (L-BFGS-B) with the analytic
   gradient; weights of features that grow with a player's armies are bounded
   to the sign ``riskmath.evaluate._features.SIGNS`` gives them.
4. **Write** ``riskmath/evaluate/_coefficients.py`` (unless ``--no-write``).
5. **Measure** on the held-out positions: the Brier score (the squared
   distance between the predicted vector and the winner's indicator, summed
   over the players and averaged over positions) and the log loss (minus the
   log of the winner's predicted chance) of the estimate and of the baselines
   uniform (over the players still in), territory share, and a softmax of
   ``position_value`` (its temperature fitted on the fit positions), with 95 %
   bootstrap intervals over held-out games (``--bootstrap`` resamples);
   per player count too.  With ``--rollouts N`` (needs
   ``riskmath.victory_probabilities``), also on ``--rollout-positions`` held-out
   positions against the share of N rollout games won from each
   (``riskmath.victory_probabilities``, odds agents in every seat; half a game
   added to each player's wins, so that no player still in gets exactly 0).
6. **Draw** the reliability diagram of the held-out predictions into
   ``docs/images/estimate_calibration.png`` (``--image``) and the estimate over
   one new four-player game into ``estimate_win_chances.png`` beside it, and
   time one call of the estimate against one call of ``position_value`` on the
   same states.

Run from the repository root: ``python bench/fit_estimate.py [--quick]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import riskmath as rm
from riskmath.agents.odds import OddsAgent
from riskmath.evaluate import estimate, position_value
from riskmath.evaluate._features import FEATURES, SIGNS, player_features
from riskmath.game.game import GameState
from riskmath.sim._loop import run_game

ROOT = Path(__file__).resolve().parent.parent
COEFFICIENTS = ROOT / "riskmath" / "evaluate" / "_coefficients.py"
IMAGE = ROOT / "docs" / "images" / "estimate_calibration.png"
PLAYERS = (2, 3, 4, 5, 6)
FIRST_TURN, LAST_TURN = 10, 40
MAX_TURNS = 500
HOLD_OUT_EVERY = 4
SLOTS = max(PLAYERS)


@dataclass
class Data:
    """Positions as padded arrays: features (N, SLOTS, F), players in the game (N, SLOTS), winner (N,), ..."""

    features: list[list[list[float]]] = field(default_factory=list)
    alive: list[list[bool]] = field(default_factory=list)
    shares: list[list[float]] = field(default_factory=list)
    values: list[list[float]] = field(default_factory=list)
    winner: list[int] = field(default_factory=list)
    game: list[int] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    turn: list[int] = field(default_factory=list)
    states: list[GameState | None] = field(default_factory=list)

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "X": np.array(self.features, dtype=float),
            "alive": np.array(self.alive, dtype=bool),
            "shares": np.array(self.shares, dtype=float),
            "values": np.array(self.values, dtype=float),
            "y": np.array(self.winner, dtype=int),
            "game": np.array(self.game, dtype=int),
            "players": np.array(self.players, dtype=int),
            "turn": np.array(self.turn, dtype=int),
        }


def pad(row: list[Any], fill: Any) -> list[Any]:
    return row + [fill] * (SLOTS - len(row))


def generate(games: int, seed: int, keep_states: bool) -> tuple[Data, Data, dict[str, Any]]:
    """Play the games; return the fit and held-out positions and counts."""
    fit, held = Data(), Data()
    counts: dict[str, Any] = {"games": 0, "draws": 0, "turns": 0, "seconds": 0.0, "by_players": {}}
    game_id = 0
    for n in PLAYERS:
        game = rm.Game(n, max_turns=MAX_TURNS)
        seeds = np.random.SeedSequence([seed, n]).generate_state(games, dtype=np.uint64)
        started = time.perf_counter()
        draws = 0
        for k, s in enumerate(int(x) >> 1 for x in seeds):
            held_out = k % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1
            target = held if held_out else fit
            rows: list[tuple[Any, ...]] = []

            def snapshot(
                state: GameState, rows: list[tuple[Any, ...]] = rows, held_out: bool = held_out
            ) -> dict[str, Any]:
                if FIRST_TURN <= state.turn <= LAST_TURN:
                    features, alive = player_features(state)
                    owners = state.position.owner
                    counts_ = [owners.count(p) for p in range(state.game.players)]
                    total = sum(counts_)
                    values = position_value(state)["value"].tolist()
                    kept = (
                        GameState(state.game, state.position.copy(), auto_chance=True)
                        if keep_states and held_out
                        else None
                    )
                    rows.append((features, alive, [c / total for c in counts_], values, state.turn, kept))
                return {}

            rngs = [random.Random(s * 7 + seat) for seat in range(n)]
            final, _, _ = run_game(
                game, [OddsAgent() for _ in range(n)], s, rngs, keep_actions=False, snapshot=snapshot
            )
            counts["games"] += 1
            counts["turns"] += final.turn
            if final.winner is None:
                draws += 1
                game_id += 1
                continue
            for features, alive, shares, values, turn, kept in rows:
                target.features.append(pad(features, [0.0] * len(FEATURES)))
                target.alive.append(pad(alive, False))
                target.shares.append(pad(shares, 0.0))
                target.values.append(pad(values, 0.0))
                target.winner.append(final.winner)
                target.game.append(game_id)
                target.players.append(n)
                target.turn.append(turn)
                target.states.append(kept)
            game_id += 1
        seconds = time.perf_counter() - started
        counts["seconds"] += seconds
        counts["draws"] += draws
        counts["by_players"][n] = (games, draws, seconds)
        print(f"  {n} players: {games} games ({draws} drawn at the cap) in {seconds:.1f} s", flush=True)
    return fit, held, counts


# -- the model ---------------------------------------------------------------------------


def softmax_scores(scores: np.ndarray, alive: np.ndarray) -> np.ndarray:
    z = np.where(alive, scores, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(alive, np.exp(z), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def objective(w: np.ndarray, X: np.ndarray, alive: np.ndarray, y: np.ndarray, l2: float) -> tuple[float, np.ndarray]:
    """Penalized negative log likelihood (mean over positions) and its gradient."""
    p = softmax_scores(X @ w, alive)
    n = len(y)
    rows = np.arange(n)
    nll = -np.log(np.maximum(p[rows, y], 1e-300)).mean()
    onehot = np.zeros_like(p)
    onehot[rows, y] = 1.0
    grad = np.einsum("nk,nkf->f", p - onehot, X) / n
    return nll + l2 * float(w @ w), grad + 2 * l2 * w


def fit_weights(X: np.ndarray, alive: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    from scipy.optimize import minimize

    bounds = [(0.0, None) if SIGNS[f] > 0 else (None, 0.0) if SIGNS[f] < 0 else (None, None) for f in FEATURES]
    start = np.zeros(len(FEATURES))
    start[FEATURES.index("log_territories")] = 1.0
    result = minimize(objective, start, args=(X, alive, y, l2), jac=True, method="L-BFGS-B", bounds=bounds)
    if not result.success:
        print(f"  warning: the optimizer stopped: {result.message}", flush=True)
    return np.asarray(result.x)


def fit_temperature(values: np.ndarray, alive: np.ndarray, y: np.ndarray) -> float:
    """The temperature T of softmax(value / T) with the least log loss on the fit positions."""
    from scipy.optimize import minimize_scalar

    rows = np.arange(len(y))

    def loss(log_t: float) -> float:
        p = softmax_scores(values / math.exp(log_t), alive)
        return float(-np.log(np.maximum(p[rows, y], 1e-300)).mean())

    result = minimize_scalar(loss, bounds=(-8.0, 4.0), method="bounded")
    return math.exp(result.x)


# -- measuring ----------------------------------------------------------------------------


def scores(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per position: the Brier score and the log loss."""
    rows = np.arange(len(y))
    onehot = np.zeros_like(p)
    onehot[rows, y] = 1.0
    brier = ((p - onehot) ** 2).sum(axis=1)
    logloss = -np.log(np.clip(p[rows, y], 1e-15, 1.0))
    return brier, logloss


def bootstrap(per_position: dict[str, np.ndarray], games: np.ndarray, draws: int, seed: int) -> dict[str, np.ndarray]:
    """Means over ``draws`` resamples of held-out games (with replacement): one array per method."""
    ids, inverse = np.unique(games, return_inverse=True)
    sums = {name: np.bincount(inverse, weights=v, minlength=len(ids)) for name, v in per_position.items()}
    sizes = np.bincount(inverse, minlength=len(ids))
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(ids), size=(draws, len(ids)))
    weights = np.stack([np.bincount(row, minlength=len(ids)) for row in picks])
    total = weights @ sizes
    return {name: (weights @ s) / total for name, s in sums.items()}


def report(methods: dict[str, np.ndarray], y: np.ndarray, games: np.ndarray, draws: int, seed: int) -> dict[str, Any]:
    briers, losses = {}, {}
    for name, p in methods.items():
        briers[name], losses[name] = scores(p, y)
    boot_b = bootstrap(briers, games, draws, seed)
    boot_l = bootstrap(losses, games, draws, seed)
    out: dict[str, Any] = {}
    print(f"  {'method':<22} {'Brier':>8} {'95% CI':>17} {'log loss':>9} {'95% CI':>17}")
    for name in methods:
        b, bl, bh = briers[name].mean(), *np.percentile(boot_b[name], [2.5, 97.5])
        lo, ll, lh = losses[name].mean(), *np.percentile(boot_l[name], [2.5, 97.5])
        out[name] = (b, bl, bh, lo, ll, lh)
        print(f"  {name:<22} {b:8.4f} [{bl:.4f}, {bh:.4f}] {lo:9.4f} [{ll:.4f}, {lh:.4f}]")
    if "estimate" in methods and "territory share" in methods:
        ratio = boot_b["estimate"] / boot_b["territory share"]
        point = briers["estimate"].mean() / briers["territory share"].mean()
        low, high = np.percentile(ratio, [2.5, 97.5])
        out["ratio"] = (point, low, high)
        print(f"  Brier(estimate) / Brier(territory share) = {point:.3f}  (95% CI [{low:.3f}, {high:.3f}])")
    return out


def write_coefficients(path: Path, weights: np.ndarray, command: str, seed: int, description: str) -> None:
    import textwrap

    made = textwrap.wrap(f"Made by ``{command}`` (seed {seed}) from {description}.", width=100)
    lines = [
        '"""Weights of ``riskmath.evaluate.estimate_victory_probabilities``: generated, do not edit.',
        "",
        *made,
        "Rerun the script to regenerate; the names are ``riskmath.evaluate._features.FEATURES``, in order.",
        '"""',
        "",
        "#: The feature names the weights go with, in order.",
        "FEATURES = (",
        *[f'    "{name}",' for name in FEATURES],
        ")",
        "#: One weight per feature.",
        "COEFFICIENTS = (",
        *[f"    {float(w)!r},  # {name}" for w, name in zip(weights, FEATURES, strict=True)],
        ")",
        "",
    ]
    path.write_text("\n".join(lines))


def time_calls(states: list[GameState]) -> None:
    """Per-call time of the estimate v ``position_value`` on the same states (best of 3)."""

    def best(fn: Any) -> float:
        times = []
        for _ in range(3):
            started = time.perf_counter()
            for state in states:
                fn(state)
            times.append((time.perf_counter() - started) / len(states))
        return min(times)

    est = best(estimate.estimate_victory_probabilities)
    raw = best(estimate.victory_list)
    value = best(position_value)
    print(
        f"  per call on {len(states)} states: estimate_victory_probabilities {est * 1e3:.3f} ms "
        f"(features and softmax without the Series {raw * 1e3:.3f} ms); position_value {value * 1e3:.3f} ms; "
        f"ratio position_value / estimate = {value / est:.2f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per player count (default 300)")
    parser.add_argument("--quick", action="store_true", help="40 games per player count, 200 bootstrap resamples")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--l2", type=float, default=1e-4, help="L2 penalty on the weights (per position)")
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--rollouts", type=int, default=0, help="rollout games per position (0: no rollout baseline)")
    parser.add_argument("--rollout-positions", type=int, default=60)
    parser.add_argument("--no-write", action="store_true", help="do not write the coefficients module")
    parser.add_argument("--image", type=Path, default=IMAGE)
    parser.add_argument(
        "--lineups", action="store_true", help="fit and measure the line-up variants (bench/estimate_lineups.py)"
    )
    parser.add_argument("--data", type=Path, default=Path("/tmp/estimate-data"), help="--lineups: the game cache")
    parser.add_argument(
        "--only",
        action="append",
        metavar="NAME",
        help="--lineups: fit and measure only this line-up (repeatable); the others keep their weights in the file",
    )
    args = parser.parse_args(argv)
    if args.lineups:
        import estimate_lineups

        games = 12 if args.quick else (args.games if args.games != 300 else estimate_lineups.GAMES)
        draws = 200 if args.quick else args.bootstrap
        known = [lineup.name for lineup in estimate_lineups.LINEUPS]
        unknown = [name for name in args.only or () if name not in known]
        if unknown:
            parser.error(f"--only: unknown line-up {unknown[0]!r}; line-ups are {', '.join(known)}")
        return estimate_lineups.main(games, args.seed, args.l2, draws, args.data, args.no_write, only=args.only)
    games = 40 if args.quick else args.games
    draws = 200 if args.quick else args.bootstrap
    if games < HOLD_OUT_EVERY:
        parser.error(f"--games must be at least {HOLD_OUT_EVERY}, got {games}")
    if args.rollouts and not hasattr(rm, "victory_probabilities"):
        parser.error("--rollouts needs riskmath.victory_probabilities, which this checkout lacks")
    if not args.image.parent.is_dir():
        parser.error(f"--image: no directory {args.image.parent}")
    started = time.perf_counter()
    print(f"Generating {games} games per player count {PLAYERS} (odds agents, seed {args.seed}) ...", flush=True)
    fit, held, counts = generate(games, args.seed, keep_states=args.rollouts > 0)
    rate = counts["turns"] / counts["seconds"]
    print(
        f"  {counts['games']} games, {counts['draws']} drawn (left out), {counts['turns']} player-turns in "
        f"{counts['seconds']:.0f} s ({rate:.0f} player-turns/s including the recording)"
    )
    F, H = fit.arrays(), held.arrays()
    print(
        f"  positions (turns {FIRST_TURN}-{LAST_TURN}): fit {len(F['y'])} from {len(np.unique(F['game']))} games, "
        f"held out {len(H['y'])} from {len(np.unique(H['game']))} games"
    )
    t0 = time.perf_counter()
    weights = fit_weights(F["X"], F["alive"], F["y"], args.l2)
    temperature = fit_temperature(F["values"], F["alive"], F["y"])
    print(f"Fitted in {time.perf_counter() - t0:.1f} s:")
    for name, w in zip(FEATURES, weights, strict=True):
        print(f"  {name:<16} {w:+.4f}")
    print(f"  position_value softmax temperature {temperature:.4f}")
    if not args.no_write:
        quick = " --quick" if args.quick else f" --games {games}"
        command = f"python bench/fit_estimate.py{quick} --seed {args.seed} --l2 {args.l2}"
        description = (
            f"{len(F['y'])} positions (player-turns {FIRST_TURN}-{LAST_TURN}) of {len(np.unique(F['game']))} games "
            f"between odds agents, {games} per player count 2-6 less the held-out fourth, classic map and rules, "
            f"cap {MAX_TURNS} turns (drawn games left out)"
        )
        write_coefficients(COEFFICIENTS, weights, command, args.seed, description)
        print(f"  wrote {COEFFICIENTS.relative_to(ROOT)}")

    def methods(A: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        alive = A["alive"]
        uniform = alive / alive.sum(axis=1, keepdims=True)
        return {
            "estimate": softmax_scores(A["X"] @ weights, alive),
            "uniform": uniform,
            "territory share": A["shares"],
            "position_value softmax": softmax_scores(A["values"] / temperature, alive),
        }

    print(f"Held-out positions ({len(H['y'])}), 95 % intervals from {draws} bootstrap resamples of games:")
    overall = report(methods(H), H["y"], H["game"], draws, args.seed)
    for n in PLAYERS:
        pick = H["players"] == n
        if pick.sum():
            print(f" {n} players ({pick.sum()} positions, {len(np.unique(H['game'][pick]))} games):")
            report(methods({k: v[pick] for k, v in H.items()}), H["y"][pick], H["game"][pick], draws, args.seed)
    point, low, high = overall["ratio"]
    met = "MET" if high < 0.9 else ("met on the point estimate only" if point < 0.9 else "NOT met")
    print(
        f"Target (Brier at least 10 % below territory share): {met} "
        f"({1 - point:.1%} below, CI [{1 - high:.1%}, {1 - low:.1%}])"
    )

    if args.rollouts:
        rollout_baseline(held, H, weights, args.rollouts, args.rollout_positions, args.seed)

    # Reliability diagram of the held-out predictions (one per player in the game and position).
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from riskmath.plots import calibration

    p = methods(H)["estimate"]
    outcome = np.zeros_like(p)
    outcome[np.arange(len(H["y"])), H["y"]] = 1.0
    mask = H["alive"]
    fig, ax = plt.subplots(figsize=(5.5, 5.5), layout="constrained")
    calibration(p[mask], outcome[mask], bins=10, ax=ax, label="estimate")
    ax.set_title(f"Held-out positions, turns {FIRST_TURN}-{LAST_TURN} ({len(H['y'])} positions)")
    fig.savefig(args.image, dpi=110)
    plt.close(fig)
    print(f"  wrote {args.image.relative_to(ROOT) if args.image.is_relative_to(ROOT) else args.image}")

    draw_win_chances(args.image.with_name("estimate_win_chances.png"), args.seed)
    sample = held_states(games, args.seed)
    time_calls(sample)
    print(f"Total {time.perf_counter() - started:.0f} s")
    return 0


def draw_win_chances(path: Path, seed: int) -> None:
    """The estimate over one new four-player game between odds agents (``plots.win_chances``), saved to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from riskmath.plots import win_chances

    record = rm.play(rm.Game(4), [OddsAgent() for _ in range(4)], seed)
    fig, ax = plt.subplots(figsize=(8, 3.5), layout="constrained")
    win_chances(record, ax=ax)
    ax.set_title(f"Estimated win chances, four odds agents (game seed {seed})")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print(f"  wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def held_states(games: int, seed: int, count: int = 200) -> list[GameState]:
    """Some positions at turns 10-40 of a few fresh games, for timing (copies of the live states)."""
    states: list[GameState] = []
    for n in PLAYERS:
        game = rm.Game(n, max_turns=MAX_TURNS)

        def snapshot(state: GameState) -> dict[str, Any]:
            if FIRST_TURN <= state.turn <= LAST_TURN:
                states.append(GameState(state.game, state.position.copy(), auto_chance=True))
            return {}

        for s in range(3):
            run_game(
                game,
                [OddsAgent() for _ in range(n)],
                seed + s,
                [random.Random(s + k) for k in range(n)],
                keep_actions=False,
                snapshot=snapshot,
            )
    return states[:count]


def rollout_baseline(
    held: Data, H: dict[str, np.ndarray], weights: np.ndarray, n_games: int, positions: int, seed: int
) -> None:
    """Estimate and territory share v the share of ``n_games`` rollouts won, on ``positions`` held-out positions."""
    picks = np.random.default_rng(seed).choice(len(H["y"]), size=min(positions, len(H["y"])), replace=False)
    rollout = np.zeros((len(picks), SLOTS))
    started = time.perf_counter()
    for i, k in enumerate(picks):
        state = held.states[k]
        assert state is not None
        n = state.game.players
        table = rm.victory_probabilities(state, [OddsAgent() for _ in range(n)], n_games, seed=seed + i)
        # Half a game won added per player in the game (so that a player who won none is not given 0 exactly).
        alive = [state.alive(p) for p in range(n)]
        wins = table["victory"].to_numpy() * n_games + 0.5 * np.array(alive)
        rollout[i, :n] = wins / wins.sum()
    seconds = time.perf_counter() - started
    print(f"Rollouts: {n_games} games from each of {len(picks)} held-out positions in {seconds:.0f} s")
    sub = {k: v[picks] for k, v in H.items()}
    alive = sub["alive"]
    methods = {
        "estimate": softmax_scores(sub["X"] @ weights, alive),
        "territory share": sub["shares"],
        f"rollouts ({n_games})": rollout,
    }
    report(methods, sub["y"], sub["game"], 200, seed)
    gap = np.abs(methods["estimate"] - rollout)[alive].mean()
    print(f"  mean |estimate - rollouts| per player: {gap:.3f}")


if __name__ == "__main__":
    sys.exit(main())
