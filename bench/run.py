"""Benchmarks: riskmath against straightforward pure-Python code, timed in the same run.

Run with ``make bench`` (or ``python bench/run.py [--quick]``).  Each line
prints the best of several repeats for both sides and their ratio; the
targets are those of the issue that introduced each capability.  Nothing
here asserts on time: the figures are for people (see bench/README.md).
"""

from __future__ import annotations

import argparse
import platform
import sys
import timeit
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import scipy

sys.path.insert(0, str(Path(__file__).parent))

import baselines

import riskmath as rm
from riskmath.dice import count_pair_wins


def best(func: Callable[[], object], repeat: int) -> float:
    """Best wall time of ``repeat`` single calls, in seconds."""
    func()  # warm up (imports, caches of the rules kernel, allocator)
    return min(timeit.repeat(func, number=1, repeat=repeat))


def peak_memory(func: Callable[[], object]) -> int:
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def report(name: str, ours: float, baseline: float, target: float | None) -> None:
    ratio = baseline / ours
    verdict = "" if target is None else f"  (target >= {target:g}x: {'met' if ratio >= target else 'NOT met'})"
    print(f"{name:<50} riskmath {ours * 1e3:9.2f} ms   baseline {baseline * 1e3:9.1f} ms   {ratio:7.1f}x{verdict}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else 7
    slow_repeat = 1 if args.quick else 3
    print(
        f"riskmath {rm.__version__}, Python {platform.python_version()}, numpy {np.__version__}, "
        f"scipy {scipy.__version__}, {platform.machine()}"
    )

    n = 1000
    ours = best(lambda: rm.battle(n, n).outcomes, repeat)
    base = best(lambda: baselines.forward_battle(n, n), slow_repeat)
    report(f"battle({n}, {n}) with its outcome distribution", ours, base, 30)

    ours = best(lambda: rm.odds_table(n, n), repeat)
    base = best(lambda: baselines.backward_table(n, n), slow_repeat)
    report(f"odds_table({n}, {n})", ours, base, 20)
    table_bytes = peak_memory(lambda: rm.odds_table(n, n))
    per_cell = table_bytes / (n * n)
    print(f"{'':<50} peak memory {table_bytes / 2**20:.1f} MiB for {n * n} cells ({per_cell:.0f} bytes/cell)")

    ours = best(lambda: rm.odds_table(200, 200), repeat)
    base = best(lambda: baselines.backward_table(200, 200), repeat)
    report("odds_table(200, 200)", ours, base, None)

    ours = best(lambda: count_pair_wins.__wrapped__(3, 3, 6, 6, False), repeat)
    base = best(lambda: baselines.roll_table(3, 3), slow_repeat)
    report("roll_odds(3, 3) by counting v listing 6^6 throws", ours, base, None)
    ours = best(lambda: count_pair_wins.__wrapped__(10, 10, 100, 100, False), slow_repeat)
    name = "roll_odds(10, 10) with 100-sided dice"
    print(f"{name:<50} riskmath {ours * 1e3:9.2f} ms   (listing 100^20 throws: infeasible)")

    m = 60
    ours = best(lambda: rm.battle(m, m, exact=True).win_probability, slow_repeat)
    base = best(lambda: baselines.forward_battle_exact(m, m), slow_repeat)
    report(f"battle({m}, {m}, exact=True) v Fraction DP", ours, base, None)


if __name__ == "__main__":
    main()
