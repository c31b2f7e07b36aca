"""Start-up cost: ``import riskmath`` and ``riskmath odds 10 10`` against ``import numpy``, in fresh processes.

Each command runs ``runs`` times in a new interpreter (the same one as this
script) and the median wall time is kept; the three commands take turns, so
that the machine's load falls on all of them alike.  The ratios to the NumPy
baseline measured in the same run are the figures to compare (the targets:
2x for both since issue 21; issue 14 asked for 2.5x and 3x).  ``python bench/imports.py``
runs this part alone.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

#: (name, arguments of the interpreter, target ratio to the baseline or None for the baseline).
COMMANDS: tuple[tuple[str, tuple[str, ...], float | None], ...] = (
    ("python -c 'import numpy'", ("-c", "import numpy"), None),
    ("python -c 'import riskmath'", ("-c", "import riskmath"), 2.0),
    ("python -m riskmath odds 10 10", ("-m", "riskmath", "odds", "10", "10"), 2.0),
)


def _wall(arguments: tuple[str, ...]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def start_up_times(runs: int = 7) -> dict[str, float]:
    """Median wall time in seconds of each command of :data:`COMMANDS`, by name."""
    for _, arguments, _ in COMMANDS:  # warm the file cache (and any .pyc to write) first
        _wall(arguments)
    samples: dict[str, list[float]] = {name: [] for name, _, _ in COMMANDS}
    for _ in range(runs):
        for name, arguments, _ in COMMANDS:
            samples[name].append(_wall(arguments))
    return {name: statistics.median(times) for name, times in samples.items()}


def report(runs: int = 7) -> None:
    """Print the median of each command and its ratio to the ``import numpy`` baseline."""
    medians = start_up_times(runs)
    baseline = medians[COMMANDS[0][0]]
    for name, _, target in COMMANDS:
        line = f"{name:<50} {medians[name] * 1e3:9.0f} ms (median of {runs} processes)"
        if target is not None:
            ratio = medians[name] / baseline
            line += f"   {ratio:5.2f}x import numpy  (target <= {target:g}x: {'met' if ratio <= target else 'NOT met'})"
        print(line)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per command (default 7)")
    report(parser.parse_args(argv).runs)


if __name__ == "__main__":
    main()
