"""The win estimate's line-up variants: fitted per line-up over every preset, measured per preset and line-up.

Run through ``python bench/fit_estimate.py --lineups [--games N] [--no-write]`` (one command does it all):

1. **Data.**  For every line-up of :data:`LINEUPS` (one entry each: a name
   and the agents of the seats, cycled from seat 0), every preset of
   ``riskmath.Rules.presets()`` and 2 to 6 players, ``--games`` games
   (default :data:`GAMES`) with a cap of :data:`MAX_TURNS` player-turns.  At
   the start of every player-turn from :data:`FIRST_TURN` to :data:`LAST_TURN`
   the play loop shows the live state to a callback, which records the
   features (``riskmath.evaluate._features``: the fourteen of the default
   estimate and the extra ones), the territory shares and the seat of each
   player; the game's winner is the outcome.  Drawn games (stopped by the
   cap) are left out.  Every cell (line-up, preset, player count) is cached
   on disk under ``--data`` (default ``/tmp/estimate-data``), keyed by its
   seeds and sizes, so a rerun, or a run after a line-up is added, plays
   only the games it lacks.  The key does not know the agents' code: after
   an agent changes how it plays, delete its cells (``v1-NAME-*``, or only
   the player counts whose games changed) before fitting again.
2. **Split by game.**  Every fourth game of each cell is held out; the fit never sees its positions.
3. **Fit**, per line-up, over all presets and player counts at once: a
   conditional logit whose weights are ``W @ [1, r]``, ``r`` the rule
   features of the game (``RULE_FEATURES``: missions, capitals, the
   defender's dice, the card values, ...), so one variant serves every rule
   set and changes its weights with the rules; weights of features that
   rise with a player's armies (and all their rule terms, the rule features
   being at least 0) are held to their sign.
4. **Write** ``riskmath/evaluate/data/lineups.json`` (unless ``--no-write``).
5. **Measure** on the held-out games of every preset and line-up: the Brier
   score and the log loss of the variant, of the default estimate and of
   territory share, the ratio variant / territory share with a 95 %
   bootstrap interval over held-out games (paired: the same resampled games
   for both), and print the table (reStructuredText, for
   ``docs/estimate.rst``).
"""

from __future__ import annotations

import json
import math
import random
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import riskmath as rm
from riskmath.agents import AGENTS
from riskmath.errors import RulesError
from riskmath.evaluate._coefficients import COEFFICIENTS as DEFAULT_WEIGHTS
from riskmath.evaluate._features import FEATURES, SIGNS, player_features
from riskmath.evaluate._rule_features import EXTRA_FEATURES, EXTRA_SIGNS, RULE_FEATURES, extra_features, rule_features
from riskmath.game.game import GameState
from riskmath.sim._loop import run_game

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "riskmath" / "evaluate" / "data" / "lineups.json"
DATA = Path("/tmp/estimate-data")
PLAYERS = (2, 3, 4, 5, 6)
SLOTS = max(PLAYERS)
FIRST_TURN, LAST_TURN = 8, 40
MAX_TURNS = 500
GAMES = 80
HOLD_OUT_EVERY = 4
#: Bumped when what a cached cell holds changes.
DATA_VERSION = 1


@dataclass(frozen=True)
class Lineup:
    """A line-up: its name (the ``lineup=`` keyword) and the agents of the seats, by name, cycled from seat 0."""

    name: str
    agents: tuple[str, ...]
    why: str


#: The line-ups fitted and measured: adding one is one entry here (its agents must be in ``riskmath.agents.AGENTS``).
LINEUPS = [
    Lineup("odds", ("odds",), "odds agents in every seat (the default estimate's line-up)"),
    Lineup("aggressive", ("aggressive",), "aggressive agents in every seat"),
    Lineup(
        "mixed",
        ("aggressive", "odds", "random"),
        "seat 0 aggressive, seat 1 odds, seat 2 random, then again (two players: aggressive v odds)",
    ),
    Lineup("planner", ("planner",), "planners in every seat (the strongest agent; issue 20, part 4)"),
]


def agent_columns(lineup: Lineup) -> tuple[str, ...]:
    """The agent indicator features of a line-up: one per distinct agent, in order of first seat."""
    return tuple(f"agent_{a}" for a in dict.fromkeys(lineup.agents))


def columns(lineup: Lineup) -> tuple[str, ...]:
    return (*FEATURES, *EXTRA_FEATURES, *agent_columns(lineup))


# -- data -------------------------------------------------------------------------------------


def cell_seeds(seed: int, lineup: Lineup, preset: str, players: int, games: int) -> list[int]:
    key = [seed, zlib.crc32(",".join(lineup.agents).encode()), zlib.crc32(preset.encode()), players]
    return [int(x) >> 1 for x in np.random.SeedSequence(key).generate_state(games, dtype=np.uint64)]


def play_cell(lineup: Lineup, preset: str, players: int, games: int, seed: int) -> dict[str, np.ndarray]:
    """Play one cell's games; its positions as arrays (features without the agent columns)."""
    game = rm.Game(players, rm.Rules.preset(preset), max_turns=MAX_TURNS)
    width = len(FEATURES) + len(EXTRA_FEATURES)
    X: list[list[list[float]]] = []
    alive_: list[list[bool]] = []
    shares_: list[list[float]] = []
    winner, game_id, turn, held, draws = [], [], [], [], 0
    for k, s in enumerate(cell_seeds(seed, lineup, preset, players, games)):
        rows: list[tuple[Any, ...]] = []

        def snapshot(state: GameState, rows: list[tuple[Any, ...]] = rows) -> dict[str, Any]:
            if FIRST_TURN <= state.turn <= LAST_TURN:
                base, alive = player_features(state)
                extra = extra_features(state, alive)
                owners = state.position.owner
                counts = [owners.count(p) for p in range(players)]
                total = sum(counts)
                rows.append(([b + e for b, e in zip(base, extra, strict=True)], alive, [c / total for c in counts]))
                rows[-1] += (state.turn,)
            return {}

        agents = [AGENTS[lineup.agents[p % len(lineup.agents)]]() for p in range(players)]
        rngs = [random.Random(s * 7 + p) for p in range(players)]
        final, _, _ = run_game(game, agents, s, rngs, keep_actions=False, snapshot=snapshot)
        if final.winner is None:
            draws += 1
            continue
        for feats, alive, shares, t in rows:
            X.append(feats + [[0.0] * width] * (SLOTS - players))
            alive_.append(alive + [False] * (SLOTS - players))
            shares_.append(shares + [0.0] * (SLOTS - players))
            winner.append(final.winner)
            game_id.append(k)
            turn.append(t)
            held.append(k % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1)
    return {
        "X": np.array(X, dtype=float).reshape(-1, SLOTS, width),
        "alive": np.array(alive_, dtype=bool).reshape(-1, SLOTS),
        "shares": np.array(shares_, dtype=float).reshape(-1, SLOTS),
        "y": np.array(winner, dtype=int),
        "game": np.array(game_id, dtype=int),
        "turn": np.array(turn, dtype=int),
        "held": np.array(held, dtype=bool),
        "draws": np.array(draws),
        "games": np.array(games),
    }


def cell(data: Path, lineup: Lineup, preset: str, players: int, games: int, seed: int) -> dict[str, np.ndarray]:
    """A cell's positions, from the cache under ``data`` or played (and cached)."""
    name = f"v{DATA_VERSION}-{'+'.join(lineup.agents)}-{preset}-{players}p-{games}g-seed{seed}.npz"
    path = data / name
    if path.exists():
        with np.load(path) as stored:
            return dict(stored)
    arrays = play_cell(lineup, preset, players, games, seed)
    partial = path.with_suffix(".part.npz")
    np.savez_compressed(partial, **arrays)
    partial.replace(path)
    return arrays


def collect(data: Path, lineup: Lineup, games: int, seed: int) -> dict[str, np.ndarray]:
    """Every cell of a line-up, stacked, with the rule features, the preset and a game id unique over cells."""
    parts = []
    games_seen = 0
    for preset in rm.Rules.presets():
        for n in PLAYERS:
            try:
                rm.Game(n, rm.Rules.preset(preset), max_turns=MAX_TURNS)
            except RulesError:  # e.g. Secret Mission RISK is for 3 to 6 players
                continue
            started = time.perf_counter()
            c = cell(data, lineup, preset, n, games, seed)
            seconds = time.perf_counter() - started
            if seconds > 1:
                print(
                    f"    {lineup.name} {preset} {n}p: {len(c['y'])} positions, "
                    f"{int(c['draws'])} drawn, {seconds:.0f} s",
                    flush=True,
                )
            count = len(c["y"])
            r = rule_features(rm.Game(n, rm.Rules.preset(preset), max_turns=MAX_TURNS))
            onehot = np.zeros((SLOTS, len(agent_columns(lineup))))
            order = list(dict.fromkeys(lineup.agents))
            for p in range(n):
                onehot[p, order.index(lineup.agents[p % len(lineup.agents)])] = 1.0
            agents = np.broadcast_to(onehot, (count, SLOTS, onehot.shape[1]))
            parts.append(
                {
                    "X": np.concatenate([c["X"], agents * c["alive"][:, :, None]], axis=2),
                    "R": np.broadcast_to(np.array([1.0, *r]), (count, 1 + len(r))),
                    "alive": c["alive"],
                    "shares": c["shares"],
                    "y": c["y"],
                    "game": c["game"] + games_seen,
                    "turn": c["turn"],
                    "held": c["held"],
                    "players": np.full(count, n),
                    "preset": np.full(count, preset),
                }
            )
            games_seen += games
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# -- the model --------------------------------------------------------------------------------


def softmax_scores(scores: np.ndarray, alive: np.ndarray) -> np.ndarray:
    z = np.where(alive, scores, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(alive, np.exp(z), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def predict(W: np.ndarray, X: np.ndarray, R: np.ndarray, alive: np.ndarray) -> np.ndarray:
    """The variant's chances: softmax over the players in of ``X[n, k] . (W @ R[n])``."""
    return softmax_scores(np.einsum("nkf,nf->nk", X, R @ W.T), alive)


def fit(X: np.ndarray, R: np.ndarray, alive: np.ndarray, y: np.ndarray, signs: list[int], l2: float) -> np.ndarray:
    """Maximum likelihood with an L2 penalty; ``W`` is (features, 1 + rule features)."""
    from scipy.optimize import minimize

    F, J = X.shape[2], R.shape[1]
    rows = np.arange(len(y))
    onehot = np.zeros(alive.shape)
    onehot[rows, y] = 1.0

    def objective(flat: np.ndarray) -> tuple[float, np.ndarray]:
        W = flat.reshape(F, J)
        p = predict(W, X, R, alive)
        nll = -np.log(np.maximum(p[rows, y], 1e-300)).mean()
        grad = np.einsum("nk,nkf->nf", p - onehot, X).T @ R / len(y)
        return nll + l2 * float(flat @ flat), grad.ravel() + 2 * l2 * flat

    bounds = []
    for s in signs:
        bounds += [(0.0, None) if s > 0 else (None, 0.0) if s < 0 else (None, None)] * J
    start = np.zeros((F, J))
    start[FEATURES.index("log_territories"), 0] = 1.0
    result = minimize(objective, start.ravel(), jac=True, method="L-BFGS-B", bounds=bounds, options={"maxiter": 3000})
    if not result.success:
        print(f"  warning: the optimizer stopped: {result.message}", flush=True)
    return np.asarray(result.x).reshape(F, J)


# -- measuring --------------------------------------------------------------------------------


def scores(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    rows = np.arange(len(y))
    onehot = np.zeros_like(p)
    onehot[rows, y] = 1.0
    return ((p - onehot) ** 2).sum(axis=1), -np.log(np.clip(p[rows, y], 1e-15, 1.0))


def ratio_interval(
    num: np.ndarray, den: np.ndarray, games: np.ndarray, draws: int, seed: int
) -> tuple[float, float, float]:
    """mean(num) / mean(den) and a 95 % bootstrap interval, resampling games (the same games for both)."""
    ids, inverse = np.unique(games, return_inverse=True)
    a = np.bincount(inverse, weights=num, minlength=len(ids))
    b = np.bincount(inverse, weights=den, minlength=len(ids))
    picks = np.random.default_rng(seed).integers(0, len(ids), size=(draws, len(ids)))
    counts = np.stack([np.bincount(row, minlength=len(ids)) for row in picks])
    ratios = (counts @ a) / (counts @ b)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return float(num.mean() / den.mean()), float(low), float(high)


def measure(lineup: Lineup, A: dict[str, np.ndarray], W: np.ndarray, draws: int, seed: int) -> list[dict[str, Any]]:
    """Per preset (and over all): held-out Brier scores and log losses, and the ratios to territory share."""
    H = {k: v[A["held"]] for k, v in A.items()}
    variant = predict(W, H["X"], H["R"], H["alive"])
    base = H["X"][:, :, : len(FEATURES)]
    default = softmax_scores(base @ np.array(DEFAULT_WEIGHTS), H["alive"])
    out = []
    for preset in [*rm.Rules.presets(), "all"]:
        pick = np.ones(len(H["y"]), bool) if preset == "all" else H["preset"] == preset
        if pick.sum() == 0:
            out.append({"lineup": lineup.name, "preset": preset, "positions": 0})
            continue
        y, games = H["y"][pick], H["game"][pick]
        bv, lv = scores(variant[pick], y)
        bd, ld = scores(default[pick], y)
        bt, lt = scores(H["shares"][pick], y)
        out.append(
            {
                "lineup": lineup.name,
                "preset": preset,
                "positions": int(pick.sum()),
                "games": len(np.unique(games)),
                "brier": (bv.mean(), bd.mean(), bt.mean()),
                "logloss": (lv.mean(), ld.mean(), lt.mean()),
                "ratio": ratio_interval(bv, bt, games, draws, seed),
                "default_ratio": bd.mean() / bt.mean(),
                "logloss_ratio": lv.mean() / lt.mean(),
                "three_ratio": three(variant[pick], H["shares"][pick], y, H["players"][pick]),
            }
        )
    return out


def three(predicted: np.ndarray, shares: np.ndarray, y: np.ndarray, players: np.ndarray) -> float:
    """The Brier ratio to territory share on the three-player games alone (the issue's measurement); NaN if none."""
    pick = players == 3
    if not pick.any():
        return math.nan
    return float(scores(predicted[pick], y[pick])[0].mean() / scores(shares[pick], y[pick])[0].mean())


def table(results: list[dict[str, Any]]) -> str:
    """The per-preset and per-line-up table, as reStructuredText."""
    head = (
        "line-up",
        "preset",
        "positions",
        "games",
        "variant",
        "default",
        "territory",
        "ratio [95 % interval]",
        "default ratio",
        "log loss ratio",
        "3 players",
    )
    rows = []
    for r in results:
        if not r["positions"]:
            rows.append((r["lineup"], r["preset"], "0", "0", "", "", "", "no positions", "", "", ""))
            continue
        point, low, high = r["ratio"]
        rows.append(
            (
                r["lineup"],
                r["preset"],
                f"{r['positions']:,}",
                str(r["games"]),
                f"{r['brier'][0]:.3f}",
                f"{r['brier'][1]:.3f}",
                f"{r['brier'][2]:.3f}",
                f"{point:.2f} [{low:.2f}, {high:.2f}]",
                f"{r['default_ratio']:.2f}",
                f"{r['logloss_ratio']:.2f}",
                "" if math.isnan(r["three_ratio"]) else f"{r['three_ratio']:.2f}",
            )
        )
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    rule = "  ".join("=" * w for w in widths)
    line = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()  # noqa: E731
    return "\n".join([rule, line(head), rule, *(line(r) for r in rows), rule])


def write(
    path: Path, fitted: dict[str, tuple[Lineup, np.ndarray]], command: str, description: str, made: dict[str, str]
) -> None:
    """The variants as JSON (data, read once by ``riskmath.evaluate.estimate``): agents, feature names, weights.

    ``made`` says how each line-up was fitted (its own ``made`` entry), so that a line-up kept through
    ``--only`` keeps its own account, not the whole earlier file's.
    """
    document = {
        "made": f"Made by `{command}` from {description}. Generated: do not edit.",
        "features": [*FEATURES, *EXTRA_FEATURES],
        "rule_features": list(RULE_FEATURES),
        "lineups": {
            name: {
                "made": made[name],
                "agents": list(lineup.agents),
                "columns": list(columns(lineup)),
                "weights": [[round(float(v), 6) for v in row] for row in W],
            }
            for name, (lineup, W) in fitted.items()
        },
    }
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def kept_variants(path: Path, refitted: list[str]) -> tuple[dict[str, tuple[Lineup, np.ndarray]], dict[str, str]]:
    """The variants of the file at ``path`` other than ``refitted`` (their weights as written), and how each was made.

    (A line-up without a ``made`` entry of its own, from a file written before there were any, takes the file's.)
    """
    document = json.loads(path.read_text(encoding="utf-8"))
    if document["features"] != [*FEATURES, *EXTRA_FEATURES] or document["rule_features"] != list(RULE_FEATURES):
        raise SystemExit(f"{path}: fitted to other features; refit every line-up (without --only)")
    by_name = {lineup.name: lineup for lineup in LINEUPS}
    kept, made = {}, {}
    for name, entry in document["lineups"].items():
        if name in refitted:
            continue
        lineup = by_name.get(name, Lineup(name, tuple(entry["agents"]), ""))
        kept[name] = (lineup, np.array(entry["weights"], dtype=float))
        made[name] = entry.get("made", document["made"])
    return kept, made


def main(
    games: int, seed: int, l2: float, draws: int, data: Path, no_write: bool, only: list[str] | None = None
) -> int:
    """Fit and measure every line-up of :data:`LINEUPS`, or those named in ``only`` (the others' weights kept)."""
    data.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    fitted: dict[str, tuple[Lineup, np.ndarray]] = {}
    results = []
    positions = 0
    for lineup in LINEUPS:
        if only and lineup.name not in only:
            continue
        print(
            f"Line-up {lineup.name} ({', '.join(lineup.agents)}): {games} games per preset and player count ...",
            flush=True,
        )
        A = collect(data, lineup, games, seed)
        fit_ = ~A["held"]
        signs = (
            [SIGNS[f] for f in FEATURES] + [EXTRA_SIGNS[f] for f in EXTRA_FEATURES] + [0] * len(agent_columns(lineup))
        )
        t0 = time.perf_counter()
        W = fit(A["X"][fit_], A["R"][fit_], A["alive"][fit_], A["y"][fit_], signs, l2)
        print(
            f"  fitted on {int(fit_.sum())} positions of {len(np.unique(A['game'][fit_]))} games in "
            f"{time.perf_counter() - t0:.0f} s; held out {int(A['held'].sum())} positions of "
            f"{len(np.unique(A['game'][A['held']]))} games",
            flush=True,
        )
        positions += int(fit_.sum())
        fitted[lineup.name] = (lineup, W)
        results += measure(lineup, A, W, draws, seed)
    print()
    print("Held-out Brier scores per line-up and preset (variant, default estimate, territory share) and ratios:")
    print(table(results))
    bad = [r for r in results if r["positions"] and r["ratio"][0] > 0.85]
    names = ", ".join(f"{r['lineup']}/{r['preset']}" for r in bad)
    print(f"Cells above 0.85x territory share: {names or 'none'}")
    if not no_write:
        description = (
            f"{positions} positions (player-turns {FIRST_TURN}-{LAST_TURN}) of games between the line-ups "
            f"{', '.join(fitted)}, {games} per preset (all of ``Rules.presets()``) and player count 2-6 less the "
            f"held-out fourth, seed {seed}, L2 {l2}, cap {MAX_TURNS} turns (drawn games left out)"
        )
        command = f"python bench/fit_estimate.py --lineups --games {games} --seed {seed} --l2 {l2}"
        if only:
            command += "".join(f" --only {name}" for name in only)
        made = dict.fromkeys(fitted, f"Made by `{command}` from {description}.")
        if only:
            kept, kept_made = kept_variants(OUTPUT, list(fitted))
            description += f"; the line-ups {', '.join(kept)} kept as fitted before (each line-up's ``made`` says how)"
            fitted, made = {**kept, **fitted}, {**kept_made, **made}
        write(OUTPUT, fitted, command, description, made)
        print(f"  wrote {OUTPUT.relative_to(ROOT)}")
    print(f"Total {time.perf_counter() - started:.0f} s")
    return 0
