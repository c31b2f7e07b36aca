"""Is the win estimate limited by its data, by its form, or by its features?  Two probes on the odds line-up.

The line-up variants of the estimate (``bench/estimate_lineups.py``) are a
conditional logit whose weights are linear in the game's rule features.  On
the held-out games of the odds line-up their Brier score is 0.86-0.95 times
territory share's under most presets, while rollouts by the same agents
(``bench/estimate_ceiling.py``) reach about 0.70 on the same kind of
positions.  This script asks where the difference lies, on ``--games`` games
per preset and player count (every fourth held out, as the fit does; the
games are cached under ``--data``):

1. **More data.**  The shipped weights against weights refitted, with the
   same penalty, on the fit part of these games (four times the fit's 80
   games per cell at the default 320), both scored on the same held-out
   games.
2. **Another form.**  A small neural network (``--hidden`` tanh units, the
   same features and rule features as inputs, shared by the players) added
   to the shipped utility and fitted by L-BFGS on ``--sample`` fit positions
   (an L2 penalty of ``--l2``).  It may bend every feature, and combine
   them, which the variants cannot.

Both print the held-out Brier ratio to territory share per preset and per
player count.  If neither moves it by much, what is left is what the
features do not see.

Run from the repository root (about 10 minutes on one core, most of it the
games of a first run and the network's fit)::

    python bench/estimate_headroom.py --games 320
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import estimate_lineups as lineups
import numpy as np
from scipy.optimize import minimize


class Residual:
    """A one-layer tanh network on each player's features and the rule features, added to a fixed utility."""

    def __init__(self, inputs: np.ndarray, base: np.ndarray, alive: np.ndarray, hidden: int, l2: float) -> None:
        self.inputs, self.base, self.alive, self.hidden, self.l2 = inputs, base, alive, hidden, l2
        self.width = inputs.shape[2]

    def unpack(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        d, h = self.width, self.hidden
        return theta[: d * h].reshape(d, h), theta[d * h : d * h + h], theta[d * h + h :]

    def predict(self, theta: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        w1, b1, w2 = self.unpack(theta)
        z = self.inputs[rows]
        h = np.tanh(z @ w1 + b1)
        return z, h, lineups.softmax_scores(self.base[rows] + h @ w2, self.alive[rows])

    def loss(self, theta: np.ndarray, rows: np.ndarray, winners: np.ndarray) -> tuple[float, np.ndarray]:
        """Mean log loss plus the penalty, and its gradient."""
        w1, _, w2 = self.unpack(theta)
        z, h, p = self.predict(theta, rows)
        n = len(rows)
        value = -np.log(np.clip(p[np.arange(n), winners], 1e-300, None)).mean()
        g = p.copy()
        g[np.arange(n), winners] -= 1.0
        g[~self.alive[rows]] = 0.0
        g /= n
        g_w2 = np.einsum("nk,nkh->h", g, h)
        g_h = g[:, :, None] * w2 * (1.0 - h**2)
        g_w1 = np.einsum("nkd,nkh->dh", z, g_h)
        value += self.l2 * (np.sum(w1**2) + np.sum(w2**2))
        grad = np.concatenate([(g_w1 + 2 * self.l2 * w1).ravel(), g_h.sum(axis=(0, 1)), g_w2 + 2 * self.l2 * w2])
        return float(value), grad


def report(title: str, columns: dict[str, np.ndarray], shares: np.ndarray, data: dict[str, np.ndarray]) -> None:
    """The held-out Brier ratio to territory share of each column, per preset, over all, per player count."""
    y = data["y"]
    base = lineups.scores(shares, y)[0]
    scored = {name: lineups.scores(p, y)[0] for name, p in columns.items()}
    print(f"\n{title}: held-out Brier score over territory share's")
    print(f"{'':26}" + "".join(f"{name:>12}" for name in scored))
    groups = [(preset, data["preset"] == preset) for preset in dict.fromkeys(data["preset"])]
    groups += [("all", np.ones(len(y), dtype=bool))]
    groups += [(f"{n} players", data["players"] == n) for n in lineups.PLAYERS]
    for label, pick in groups:
        print(f"{label:26}" + "".join(f"{s[pick].mean() / base[pick].mean():12.3f}" for s in scored.values()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=320, help="games per preset and player count")
    parser.add_argument("--seed", type=int, default=2026, help="the fit's seed (its games are a prefix of these)")
    parser.add_argument("--data", type=Path, default=Path("/tmp/estimate-data"))
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--sample", type=int, default=150_000, help="fit positions the network is fitted on")
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args(argv)
    lineup = next(entry for entry in lineups.LINEUPS if entry.name == "odds")
    args.data.mkdir(parents=True, exist_ok=True)
    A = lineups.collect(args.data, lineup, args.games, args.seed)
    shipped = np.array(json.loads(lineups.OUTPUT.read_text(encoding="utf-8"))["lineups"]["odds"]["weights"])
    held, fitted = A["held"], ~A["held"]
    H = {key: value[held] for key, value in A.items()}

    signs = [lineups.SIGNS[f] for f in lineups.FEATURES] + [lineups.EXTRA_SIGNS[f] for f in lineups.EXTRA_FEATURES]
    signs += [0] * len(lineups.agent_columns(lineup))
    started = time.perf_counter()
    refit = lineups.fit(A["X"][fitted], A["R"][fitted], A["alive"][fitted], A["y"][fitted], signs, 1e-4)
    print(f"refitted on {int(fitted.sum())} positions in {time.perf_counter() - started:.0f} s")
    report(
        "1. More data",
        {
            "shipped": lineups.predict(shipped, H["X"], H["R"], H["alive"]),
            "refit": lineups.predict(refit, H["X"], H["R"], H["alive"]),
        },
        H["shares"],
        H,
    )

    n, k = A["X"].shape[:2]
    inputs = np.concatenate([A["X"], np.broadcast_to(A["R"][:, None, :], (n, k, A["R"].shape[1]))], axis=2)
    seen = inputs[fitted][A["alive"][fitted]]
    inputs = (inputs - seen.mean(axis=0)) / (seen.std(axis=0) + 1e-6)
    base = np.einsum("nkf,nf->nk", A["X"], A["R"] @ shipped.T)
    net = Residual(inputs, base, A["alive"], args.hidden, args.l2)
    rng = np.random.default_rng(args.seed)
    rows = rng.choice(np.flatnonzero(fitted), size=min(args.sample, int(fitted.sum())), replace=False)
    theta = np.concatenate([rng.normal(0.0, 0.1, net.width * args.hidden), np.zeros(2 * args.hidden)])
    started = time.perf_counter()
    result = minimize(
        net.loss, theta, args=(rows, A["y"][rows]), jac=True, method="L-BFGS-B", options={"maxiter": args.iterations}
    )
    print(f"\nnetwork fitted on {len(rows)} positions, {result.nit} iterations, {time.perf_counter() - started:.0f} s")
    report(
        f"2. Another form ({args.hidden} tanh units added to the shipped utility)",
        {
            "shipped": net.predict(np.zeros_like(result.x), np.flatnonzero(held))[2],
            "network": net.predict(result.x, np.flatnonzero(held))[2],
        },
        H["shares"],
        H,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
