"""One battle's working set is O(A + D) (issue 21): measured, in fresh processes and with tracemalloc.

The anti-diagonal sweep used to allocate the whole ``(A + 1) x (D + 1)`` grid
with ``np.zeros``, though it only wrote the edges: 72 MB of address space at
3000 v 3000, of which NumPy's huge pages made 66 MiB resident (11 MiB with
them off).  It now keeps the edges in two small arrays and the bulk in one
diagonal.  The bounds below are far above what is measured (about 0.3 MiB
of resident memory and 0.25 MiB traced at 3000 v 3000), so that neither the
allocator nor the machine makes them flaky, and far below the whole grid,
so that a grid coming back fails them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import pytest

import riskmath as rm

MiB = 2**20

# Peak resident memory (VmHWM) over what the imports took, around one battle in a fresh interpreter.
_PEAK = """
import sys
import riskmath

def peak():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM"))

riskmath.battle(2, 2)  # the kernel and the code paths, so that only the sweep's memory is counted
before = peak()
riskmath.battle(int(sys.argv[1]), int(sys.argv[2])).win_probability
print(peak() - before)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmHWM from /proc (Linux)")
@pytest.mark.parametrize("huge_pages", ["0", "1"])
def test_a_3000_v_3000_battle_stays_within_24_mib_over_the_imports(huge_pages):
    # The bound, whatever NumPy's huge-page setting (NUMPY_MADVISE_HUGEPAGE, read when NumPy is imported).
    env = {**os.environ, "NUMPY_MADVISE_HUGEPAGE": huge_pages}
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, "3000", "3000"], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) <= 24 * MiB


def test_the_traced_peak_grows_with_a_plus_d_not_a_times_d():
    rm.battle(50, 50)  # the kernel and its arrays are built once, outside the measurement
    peaks = {}
    for n in (1500, 3000, 6000):
        tracemalloc.start()
        rm.battle(n, n)
        peaks[n] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    # Measured: about 80 bytes per army (the diagonal, the edges and the result's lists of Python floats).
    # The grid would be 8 * n * n bytes: 72 MB at 3000, 288 MB at 6000.
    for n, peak in peaks.items():
        assert peak <= 1000 * n, (n, peak)
    assert peaks[6000] <= 6 * peaks[1500]  # four times the armies: linear growth with room (a grid: 16 times)


@pytest.mark.parametrize(("attackers", "defenders", "stop_at"), [(3000, 3000, 0), (6000, 2000, 0), (2000, 6000, 40)])
def test_the_memory_estimate_bounds_the_traced_peak_and_follows_the_sweep(attackers, defenders, stop_at):
    # The estimate counted the whole grid for the anti-diagonal sweep too: battle(20_000, 20_000) was refused as
    # needing 3 GiB, and runs in 47 MiB (hostile odds review, 2026-12-03).  It now counts the sweep's edges and
    # diagonals: above the traced peak (what the sweep and the result allocate), and far below the grid.
    from riskmath.odds._sweeps import forward_cost

    rm.battle(50, 50)
    tracemalloc.start()
    rm.battle(attackers, defenders, stop_at=stop_at)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    estimate = forward_cost(attackers, defenders, stop_at, rm.CombatRules(), False)[0]
    assert peak <= estimate < 8 * (attackers + 1) * (defenders + 1) / 4
    rm.battle(20_000, 20_000)  # (under the default limits: half a second)
