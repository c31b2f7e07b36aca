"""Print and plot an odds table, and summarise one big battle.

Run:  python examples/odds_table.py [--size 10] [--big 1000] [--output odds_heatmap.png]

This is what ``make demo`` runs.  ``attackers`` counts armies able to attack:
the attacking territory holds one more.
"""

from __future__ import annotations

import argparse
import time

import matplotlib

matplotlib.use("Agg")  # write files, never open a window
import matplotlib.pyplot as plt

import riskmath as rm
from riskmath.plots import odds_heatmap


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10, help="table size (attackers and defenders)")
    parser.add_argument("--big", type=int, default=1000, help="armies per side in the big battle")
    parser.add_argument("--output", default="odds_heatmap.png", help="where to write the heatmap")
    args = parser.parse_args(argv)

    table = rm.odds_table(args.size, args.size)
    print(f"P(attacker wins), attackers 1..{args.size} (rows) v defenders 1..{args.size} (columns):")
    print(rm.format_table(table, "text", precision=3))

    start = time.perf_counter()
    big = rm.battle(args.big, args.big)
    elapsed = time.perf_counter() - start
    print(f"\n{big!r}: full distribution of {len(big.outcomes)} end states in {elapsed * 1000:.1f} ms")
    for name, value in big.summary().items():
        print(f"  {name:<32} {value:.6f}")

    fig, ax = plt.subplots(figsize=(7, 6))
    odds_heatmap(table, ax=ax, title="P(attacker wins), classic 1993 rules")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    plt.close(fig)
    print(f"\nheatmap written to {args.output}")


if __name__ == "__main__":
    main()
