"""Plan a sweep: how many armies take Australia or South America, and how to split them.

Run:  python examples/conquest_planning.py [--max-attackers 40] [--output conquest_curves.png]

``attackers`` counts armies able to attack: the starting territory holds one
more.  After each capture one army stays behind and the rest move on.
"""

from __future__ import annotations

import argparse

import matplotlib

matplotlib.use("Agg")  # write files, never open a window
import matplotlib.pyplot as plt
import pandas as pd

import riskmath as rm
from riskmath.plots import success_curves

# Australia from Siam: Indonesia, New Guinea, Eastern Australia, Western Australia (each borders the next).
AUSTRALIA = [3, 2, 2, 2]
# South America from Central America, as a path: Venezuela, Peru, Argentina, Brazil.
SOUTH_AMERICA = [2, 1, 1, 2]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-attackers", type=int, default=40)
    parser.add_argument("--output", default="conquest_curves.png")
    args = parser.parse_args(argv)

    sweep = rm.conquest(12, AUSTRALIA)
    print(f"{sweep!r}: P(all four) = {sweep.win_probability:.4f}")
    print(sweep.step_table().round(4).to_string())
    for p in (0.5, 0.75, 0.9, 0.99):
        print(f"  armies able to attack for {p:.0%}: {rm.armies_needed(AUSTRALIA, p)}")

    # The same four South American territories, as a path or as a tree that splits after Venezuela.
    tree = rm.Target(
        2, "Venezuela", then=[rm.Target(1, "Peru", then=[rm.Target(1, "Argentina")]), rm.Target(2, "Brazil")]
    )
    print("\nSouth America: path v split after Venezuela")
    for attackers in (6, 10, 14):
        path = rm.conquest(attackers, SOUTH_AMERICA).win_probability
        split = rm.plan_conquest(attackers, tree).win_probability
        print(f"  {attackers:>3} attackers: path {path:.4f}   split {split:.4f}")

    curves = pd.DataFrame(
        {
            "Australia [3, 2, 2, 2]": rm.success_curve(AUSTRALIA, args.max_attackers),
            "South America [2, 1, 1, 2]": rm.success_curve(SOUTH_AMERICA, args.max_attackers),
            "one territory of 10": rm.success_curve(10, args.max_attackers),
        }
    )
    fig, ax = plt.subplots(figsize=(7, 4.5))
    success_curves(curves, ax=ax, title="P(taking every territory), leaving one army in each")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    plt.close(fig)
    print(f"\ncurves written to {args.output}")


if __name__ == "__main__":
    main()
