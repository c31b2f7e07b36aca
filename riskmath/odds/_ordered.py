"""Convolutions in a fixed order of operations: the same floats on every machine (private module).

:func:`numpy.convolve` takes each output as a dot product of float64s, which
NumPy hands to BLAS (``ddot``, with the kernel reversed: a strided dot).
OpenBLAS picks a kernel for the processor at run time, and its kernels add
in orders of their own, so the last bits of a convolution depended on the
machine: with the same NumPy 2.4 wheel, the distributions of battles of a
hundred or more armies a side and the tables of long blitzes differed
between OpenBLAS's Haswell, SkylakeX, Nehalem and Prescott kernels
(``OPENBLAS_CORETYPE``), and a seeded game draws from those tables.  Here
every product is rounded on its own and the products are added one at a
time, each output's in the order of increasing index of the longer input,
with NumPy's element-wise ``multiply`` and ``add``, which round every
operation once on any IEEE machine: for a short kernel, the floats the
Haswell kernel gave.  ``tests/test_ordered.py`` holds the functions to plain
Python arithmetic, number for number, and the sweeps, tables and chance
blocks to one digest under every OpenBLAS kernel the processor runs.  (The
backward tables keep :func:`numpy.correlate`: a contiguous dot of a few taps,
the same under every kernel tried, and a quarter faster; see
``riskmath.odds._backward``.)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

__all__ = ["convolve", "convolver", "self_convolve"]

#: Rows of the outer product :func:`self_convolve` forms at a time (a block of this many times the input's length).
_BLOCK = 64


def convolve(a: FloatArray, v: FloatArray) -> FloatArray:
    """``numpy.convolve(a, v)`` (its "full" mode), summed in a fixed order: see the module docstring.

    Output ``k`` is the sum of ``a[j] * v[k - j]`` over the ``j`` in range,
    added from the smallest index of the longer of the two up (the shorter
    is the kernel, as in :func:`numpy.convolve`).  Meant for a short kernel
    (a roll's few outcomes): a product and a sum over the whole input per
    tap of the kernel.  :func:`convolver` makes the same function for one
    kernel, cheaper per call.
    """
    if len(v) > len(a):
        a, v = v, a
    return convolver(v)(a)


def convolver(v: FloatArray) -> Callable[[FloatArray], FloatArray]:
    """``lambda a: convolve(a, v)`` for a fixed kernel ``v``, with its taps made once (a sweep's many diagonals)."""
    last = len(v) - 1
    taps = [np.array(tap) for tap in v.tolist()]  # (0-d arrays: a ufunc takes them faster than floats)
    first = taps[last]
    multiply, add = np.multiply, np.add

    def convolve_with(a: FloatArray) -> FloatArray:
        n = len(a)
        if n < last + 1:  # the kernel is the longer one: it is scanned, as numpy.convolve does
            return convolve(v, a)
        out: FloatArray = np.empty(n + last)
        # The terms in order of increasing index of a are those of decreasing index of v: the last tap's product
        # is the first term of the outputs it reaches (the others start from 0), then each tap's is added in turn.
        multiply(a, first, out[last:])
        out[:last] = 0.0
        if last:
            product = multiply(a, taps[last - 1])
            reached = out[last - 1 : last - 1 + n]
            add(reached, product, reached)
            for t in range(last - 2, -1, -1):
                multiply(a, taps[t], product)
                reached = out[t : t + n]
                add(reached, product, reached)
        return out

    return convolve_with


def self_convolve(a: FloatArray) -> FloatArray:
    """``numpy.convolve(a, a)`` in a fixed order, for long inputs (the distributions of many rolls).

    The outer product is formed :data:`_BLOCK` rows at a time, each row
    shifted to its place in a zeroed block; a block's rows are summed in
    order (row ``i`` is ``a[i] * a``), and the blocks' sums are added to the
    result in order.  Every term of a distribution is positive, so the
    relative error of every output stays within a few hundred ulps whatever
    the order; this one is the same on every machine.
    """
    n = len(a)
    out = np.zeros(2 * n - 1)
    width = n + _BLOCK - 1
    block = np.zeros((_BLOCK, width))
    for start in range(0, n, _BLOCK):
        rows = min(_BLOCK, n - start)
        if rows < _BLOCK:
            block = np.zeros((rows, n + rows - 1))
            width = n + rows - 1
        # Row i of the block starts at column i: a view whose rows step one column further each.
        skewed = np.ndarray((rows, n), np.float64, buffer=block, strides=((width + 1) * 8, 8))
        np.multiply(a[start : start + rows, None], a[None, :], out=skewed)
        out[start : start + width] += np.add.reduce(block, axis=0)
    return out
