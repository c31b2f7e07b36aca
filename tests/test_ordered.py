"""The odds' convolutions are summed in a fixed order, so that every machine computes the same floats.

``numpy.convolve`` and ``numpy.correlate`` hand each output's dot product to BLAS, and OpenBLAS's kernels (chosen
per processor at run time) round differently: with the same NumPy wheel, the battles' distributions and the long
blitzes' tables differed in their last bits between the SkylakeX and Haswell kernels, and a seeded game draws from
them.  ``riskmath.odds._ordered`` adds the products one at a time; here it is held to plain Python arithmetic
(each product and sum rounded once, in the same order), number for number, and the sweeps, the tables and the
chance blocks to one digest under several OpenBLAS kernels (``OPENBLAS_CORETYPE``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from riskmath.odds import _ordered

ROOT = Path(__file__).resolve().parent.parent

probabilities = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def python_convolve(a: list[float], v: list[float]) -> list[float]:
    """The full convolution in Python floats: output k adds a[j] * v[k - j] for j from the smallest up, from 0.0."""
    if len(v) > len(a):
        a, v = v, a
    out = []
    for k in range(len(a) + len(v) - 1):
        total = 0.0
        for j in range(max(0, k - len(v) + 1), min(len(a), k + 1)):
            total += a[j] * v[k - j]
        out.append(total)
    return out


@given(st.lists(probabilities, min_size=1, max_size=40), st.lists(probabilities, min_size=1, max_size=5))
def test_convolve_is_plain_arithmetic_in_order(a, v):
    got = _ordered.convolve(np.array(a), np.array(v))
    assert got.tolist() == python_convolve(a, v)


def test_convolve_is_the_convolution():
    # The order aside, it is np.convolve's convolution (to rounding), for the roll of the classic dice.
    rng = np.random.default_rng(7)
    a, step = rng.random(300), np.array([2275, 2611, 2890]) / 7776
    assert np.allclose(_ordered.convolve(a, step), np.convolve(a, step), rtol=1e-15, atol=0)
    assert np.allclose(_ordered.convolve(step, a), np.convolve(a, step), rtol=1e-15, atol=0)  # the longer scanned


def python_self_convolve(a: list[float], block: int) -> list[float]:
    """:func:`_ordered.self_convolve` in Python floats: per block of rows, each output's products added row by
    row (from 0.0), then the block's sums added to the result in order."""
    n = len(a)
    out = [0.0] * (2 * n - 1)
    for start in range(0, n, block):
        sums = [0.0] * (2 * n - 1)
        for i in range(start, min(n, start + block)):
            for x in range(n):
                sums[i + x] += a[i] * a[x]
        lowest, highest = start, min(n, start + block) - 1 + n - 1
        for k in range(lowest, highest + 1):
            out[k] += sums[k]
    return out


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 150])
def test_self_convolve_is_plain_arithmetic_in_order(n):
    a = (np.random.default_rng(n).random(n) ** 3).tolist()
    assert _ordered.self_convolve(np.array(a)).tolist() == python_self_convolve(a, _ordered._BLOCK)


# Digests of what the sweeps, the tables and the chance nodes compute: forward sweeps (battles of hundreds a side,
# the diagonals that take a convolution each), backward tables (three dice variants), the long and huge blocks
# of a blitz of millions, the game's blitz tables, and the agents' chains.
_DIGEST = """
import hashlib
import riskmath as rm
from riskmath.game.chance import _huge_block, _long_block
from riskmath.odds._odds_grids import chain_win_probability
numbers = []
variants = [rm.CombatRules(), rm.CombatRules(defender_max_dice=3), rm.CombatRules(attacker_sides=8, defender_sides=6)]
for combat in variants:
    for a, d, stop in [(300, 300, 0), (700, 300, 20), (120, 400, 0)]:
        numbers.append(rm.battle(a, d, stop_at=stop, rules=combat).outcomes.to_numpy().tolist())
    numbers.append(rm.odds_table(80, 80, rules=combat).to_numpy().tolist())
    numbers.append(_long_block(combat)[0])
    numbers.append(chain_win_probability(25, (3, 1, 4, 1, 5), combat))
numbers.append(_huge_block(rm.CombatRules()))
game = rm.Game(3)
numbers.append([p for _, p in game.blitz_table(400, 350, 0).outcomes])
print(hashlib.sha256(repr(numbers).encode()).hexdigest())
"""


def _openblas_kernels() -> list[str]:
    """OpenBLAS kernels this processor can run, if NumPy uses an OpenBLAS that picks one at run time."""
    blas = np.show_config(mode="dicts").get("Build Dependencies", {}).get("blas", {})  # type: ignore[union-attr]
    if "DYNAMIC_ARCH" not in str(blas.get("openblas configuration", "")):
        return []
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        return []
    kernels = ["Prescott", "Nehalem"]  # (any x86-64 runs these two, which round apart on short dot products)
    if {"avx2", "fma"} <= flags:
        kernels.append("Haswell")
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"} <= flags:
        kernels.append("SkylakeX")
    return kernels


@pytest.mark.slow
def test_the_same_floats_under_every_openblas_kernel():
    kernels = _openblas_kernels()
    if not kernels:
        pytest.skip("NumPy's BLAS is not an OpenBLAS that chooses its kernel at run time on this x86-64 machine")
    digests = {}
    for kernel in kernels:
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", _DIGEST], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600
        )
        assert done.returncode == 0, done.stderr[-2000:]
        digests[kernel] = done.stdout.strip()
    assert len(set(digests.values())) == 1, digests
