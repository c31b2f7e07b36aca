"""Issue 21: battles and odds tables side by side with the fastest peers and a compiled DP, in the same run.

``python bench/odds_speed.py [--quick]`` runs this part alone; ``make bench``
runs it among the rest.  Four parts, each printing ratios (the peer's time
over riskmath's: above 1 is riskmath faster):

1. **Battles again and again**, in this process: ``battle(n, n).win_probability``
   as riskmath serves it (from its cache of battles), recomputed (the cache
   cleared before each call), and by the two peers re-implemented in
   ``bench/peers.py`` (Minerva, sipolac/risk).  Every contender's final
   distribution is first checked against riskmath's (to 1e-12).  Medians over
   rounds in which the contenders take turns, so that the other load of a
   shared machine falls on all alike.
2. **The first battle of a fresh process**, import excluded: each contender
   imported in a new interpreter, then one call timed; medians of several
   processes, the contenders in turn.
3. **Odds tables against a compiled DP**: ``odds_table(n, n)`` (the DataFrame
   included) against ``bench/backward_dp.c`` built by the system compiler
   (``cc -O2``) into a temporary directory; skipped with a message when there
   is no compiler.  Three entries checked against riskmath's (to 1e-12).
4. **Memory**: the peak resident memory of ``battle(3000, 3000)`` over the
   imports, in fresh processes, with NumPy's huge pages on and off.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import peers

import riskmath as rm
from riskmath.odds.battles import clear_battle_cache

HERE = Path(__file__).parent
ROOT = HERE.parent


def _per_call(func: Callable[[], object], number: int) -> float:
    """Seconds per call, the best of three runs of ``number`` calls."""
    return min(timeit.repeat(func, number=number, repeat=3)) / number


def _check(name: str, ours: dict[tuple[int, int], float], theirs: dict[tuple[int, int], float]) -> float:
    worst = max(abs(ours.get(k, 0.0) - theirs.get(k, 0.0)) for k in ours.keys() | theirs.keys())
    if not worst <= 1e-12:
        raise AssertionError(f"{name} and riskmath differ by {worst:.3g}")
    return worst


def _outcomes(n: int) -> dict[tuple[int, int], float]:
    series = rm.battle(n, n).outcomes
    return {(int(a), int(d)): float(p) for (a, d), p in series.items()}


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def warm_battles(quick: bool) -> None:
    """Part 1: repeated and recomputed battles against Minerva and sipolac/risk."""
    sizes = (3, 5, 10, 30, 100, 300) if quick else (3, 5, 10, 30, 100, 300, 1000)
    rounds = 3 if quick else 5
    print("battle(n, n).win_probability, in this process (medians of interleaved rounds; ratio = peer / riskmath):")
    for n in sizes:
        contenders: dict[str, Callable[[], object]] = {}

        def recomputed(n: int = n) -> float:
            clear_battle_cache()
            return rm.battle(n, n).win_probability

        contenders["riskmath (cached)"] = lambda n=n: rm.battle(n, n).win_probability
        contenders["riskmath (recomputed)"] = recomputed
        worst = _check(f"Minerva {n}v{n}", _outcomes(n), peers.minerva_outcomes(n, n))
        contenders["Minerva"] = lambda n=n: peers.minerva_win(n, n)
        if n <= 100:
            worst = max(worst, _check(f"sipolac {n}v{n}", _outcomes(n), peers.sipolac_outcomes(n, n)))
            contenders["sipolac"] = lambda n=n: peers.sipolac_win(n, n)
        numbers = {name: max(1, int(0.02 / max(_per_call(f, 1), 1e-7))) for name, f in contenders.items()}
        samples: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(1 if n >= 1000 else rounds):
            for name, func in contenders.items():
                samples[name].append(_per_call(func, numbers[name]))
        medians = {name: statistics.median(times) for name, times in samples.items()}
        cold = medians["riskmath (recomputed)"]
        line = f"  {n:>4}v{n:<4} cached {medians['riskmath (cached)'] * 1e6:8.1f} us  recomputed {cold * 1e6:9.1f} us"
        minerva = medians["Minerva"]
        line += f"  Minerva {minerva * 1e6:10.1f} us ({minerva / cold:6.2f}x)"
        if "sipolac" in medians:
            line += f"  sipolac {medians['sipolac'] * 1e6:11.1f} us ({medians['sipolac'] / cold:7.1f}x)"
        target = 10.0 if n >= 30 else 1.0
        line += f"  [agree to {worst:.1e}; target >= {target:g}x Minerva: {_verdict(minerva / cold >= target)}]"
        print(line)


# A first call in a fresh interpreter: the import is done before the clock starts.
_FIRST_CALL = """
import sys, time
sys.path.insert(0, {bench!r})
which, n = sys.argv[1], int(sys.argv[2])
if which == "riskmath":
    import riskmath
    call = lambda: riskmath.battle(n, n).win_probability
else:
    import peers
    call = lambda: getattr(peers, which + "_win")(n, n)
start = time.perf_counter()
call()
print(time.perf_counter() - start)
"""


def first_call(which: str, n: int) -> float:
    """Seconds of the first ``n`` v ``n`` battle in a fresh interpreter, the import excluded."""
    code = _FIRST_CALL.format(bench=str(HERE))
    done = subprocess.run(
        [sys.executable, "-c", code, which, str(n)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return float(done.stdout)


def cold_battles(quick: bool) -> None:
    """Part 2: the first battle of a fresh process."""
    runs = 5 if quick else 9
    print(f"the first battle of a fresh process, import excluded (medians of {runs} processes each, in turn):")
    for n in (3, 10, 30, 100, 300):
        names = ["riskmath", "minerva"] + (["sipolac"] if n <= 30 else [])
        samples: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(runs):
            for name in names:
                samples[name].append(first_call(name, n))
        medians = {name: statistics.median(times) for name, times in samples.items()}
        ours, minerva = medians["riskmath"], medians["minerva"]
        line = f"  {n:>4}v{n:<4} riskmath {ours * 1e3:8.3f} ms"
        line += f"  Minerva {minerva * 1e3:8.3f} ms ({minerva / ours:5.2f}x)"
        if "sipolac" in medians:
            line += f"  sipolac {medians['sipolac'] * 1e3:8.3f} ms ({medians['sipolac'] / ours:5.2f}x)"
        target = 0.5 if n < 10 else 1.0
        print(line + f"  [target >= {target:g}x Minerva: {_verdict(minerva / ours >= target)}]")


def compiled(quick: bool) -> None:
    """Part 3: odds_table against the compiled backward DP."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        print("odds_table v a compiled DP: skipped (no C compiler: cc, gcc or clang)")
        return
    with tempfile.TemporaryDirectory() as scratch:
        program = Path(scratch) / "backward_dp"
        built = subprocess.run(
            [compiler, "-O2", "-o", str(program), str(HERE / "backward_dp.c")], capture_output=True, text=True
        )
        if built.returncode:
            print(f"odds_table v a compiled DP: skipped (the compiler failed: {built.stderr.strip()[:200]})")
            return
        print(f"odds_table(n, n) v a plain backward DP in C ({Path(compiler).name} -O2), medians of rounds in turn:")
        for n in (300, 1000):
            table = rm.odds_table(n, n)
            out = subprocess.run([str(program), str(n), "1"], capture_output=True, text=True, check=True).stdout
            values = [float(v) for v in out.split()[1:]]
            ours = [float(table.loc[n, n]), float(table.loc[n // 2, n]), float(table.loc[n, n // 2])]
            worst = max(abs(a - b) for a, b in zip(values, ours, strict=True))
            if not worst <= 1e-12:
                raise AssertionError(f"the C table and odds_table({n}, {n}) differ by {worst:.3g}")
            mine, theirs = [], []
            for _ in range(3 if quick else 5):
                mine.append(_per_call(lambda n=n: rm.odds_table(n, n), 1))
                done = subprocess.run([str(program), str(n), "3"], capture_output=True, text=True, check=True)
                theirs.append(float(done.stdout.split()[0]))
            ours_s, c_s = statistics.median(mine), statistics.median(theirs)
            print(
                f"  odds_table({n}, {n}) {ours_s * 1e3:8.2f} ms   C {c_s * 1e3:7.3f} ms   {ours_s / c_s:5.1f}x slower"
                f"  [agree to {worst:.1e}; target <= 5x: {_verdict(ours_s / c_s <= 5)}]"
            )


_PEAK = """
import sys
import riskmath

def peak():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM"))

riskmath.battle(2, 2)
before = peak()
riskmath.battle(3000, 3000).win_probability
print(peak() - before)
"""


def memory() -> None:
    """Part 4: the peak resident memory of battle(3000, 3000) over the imports."""
    if not os.path.exists("/proc/self/status"):
        print("battle(3000, 3000) memory: skipped (reads VmHWM from /proc)")
        return
    for huge in ("1", "0"):
        env = {**os.environ, "NUMPY_MADVISE_HUGEPAGE": huge}
        done = subprocess.run(
            [sys.executable, "-c", _PEAK], capture_output=True, text=True, check=True, env=env, cwd=ROOT
        )
        used = int(done.stdout) / 2**20
        label = f"battle(3000, 3000) peak RSS over imports, huge pages {'on' if huge == '1' else 'off'}"
        print(f"{label:<60} {used:6.1f} MiB  (target <= 24 MiB: {_verdict(used <= 24)})")


def report(quick: bool = False) -> None:
    warm_battles(quick)
    cold_battles(quick)
    compiled(quick)
    memory()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and sizes")
    report(parser.parse_args(argv).quick)


if __name__ == "__main__":
    main()
