"""Backward sweeps of the battle chain: expectations from every start state of a grid at once (private module).

:func:`backward_float` and :func:`backward_exact` compute, for *every* start
state ``(a, d)`` of a grid, the expectation of a function of the final state
(win indicator, survivors, their squares, ...), optionally plus a cost per
roll (expected rolls): the grids behind ``battle_table`` and the success
functions of plans.  They share the kernels, the linear-recurrence
solver and the exact scaling of :mod:`riskmath.odds._sweeps` (whose
docstring describes the chain, the vectorisation and the exact arithmetic);
their costs are estimated there too (``backward_cost``), beside the forward
sweeps', so that every refusal reads one table of rates.

The float sweep does the edge rows and columns (fewer than the maximum dice)
by recurrences along them, then the bulk by anti-diagonals, ``P`` of them
at a time for ``P`` compared pairs a roll (:func:`_backward_bulk`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from riskmath.odds._sweeps import FloatArray, Kernel, feedback, lfilter, scale_exponent

__all__ = ["backward_exact", "backward_float"]


def backward_float(
    attackers: int,
    defenders: int,
    stop_at: int,
    kern: Kernel,
    win_value: FloatArray,
    stop_value: FloatArray,
    step_cost: FloatArray,
    *,
    keep: bool = False,
) -> FloatArray:
    """Expected values of final-state functions from every start state.

    Parameters
    ----------
    win_value : array, shape (attackers + 1, S)
        Value of ending in ``(a, 0)``.
    stop_value : array, shape (stop_at + 1, defenders + 1, S)
        Value of ending in ``(a, d)`` with ``a <= stop_at``.
    step_cost : array, shape (S,)
        Added once per roll (1 for "expected rolls", else 0).
    keep : bool, default False
        Return a grid this thread keeps and reuses at the next call of the
        same shape (see ``_KEPT_BYTES``), for a caller that copies what it
        keeps of it before then.

    Returns
    -------
    array, shape (attackers + 1, defenders + 1, S)
        ``V[a, d, s]``: expected value of statistic ``s`` from ``(a, d)``.
        Absorbing entries hold the boundary values themselves.
    """
    A, D, k = attackers, defenders, stop_at
    S = step_cost.shape[0]
    shape = (A + 1, D + 1, S)
    values: FloatArray
    if keep:
        values = _kept(("grid", *shape), 8 * (A + 1) * (D + 1) * S, lambda: np.empty(shape))
        values[...] = 0.0
    else:
        values = np.zeros(shape)
    values[k + 1 :, 0] = win_value[k + 1 :]
    stopped = min(k, A) + 1
    values[:stopped, 1:] = stop_value[:stopped, 1:]
    ma, md = kern.max_a, kern.max_d
    lo = max(ma, k + 1)

    # Edge rows (a < max_a), bottom up; along a row the recurrence is
    # V[a, d] = f[d] + p0 * V[a, d - pairs].
    for a in range(k + 1, min(lo - 1, A) + 1):
        for d in range(1, min(md - 1, D) + 1):
            pairs = min(a, d)
            p = kern.prob[a][d]
            total = step_cost.copy()
            for i in range(pairs + 1):
                total += p[i] * values[a - i, d - pairs + i]
            values[a, d] = total
        if md <= D:
            pairs = min(a, md)
            p = kern.prob[a][md]
            forcing = np.empty((D + 1 - md, S))
            forcing[:] = step_cost
            for i in range(1, pairs + 1):
                forcing += p[i] * values[a - i, md - pairs + i : D + 1 - pairs + i]
            known = min(pairs, D + 1 - md)
            forcing[:known] += p[0] * values[a, md - pairs : md - pairs + known]
            values[a, md:] = lfilter([1.0], feedback(pairs, p[0]), forcing, axis=0)

    # Edge columns (d < max_d), left to right; along a column the recurrence
    # is V[a, d] = f[a] + q * V[a - pairs, d].
    for d in range(1, min(md - 1, D) + 1):
        if lo > A:
            break
        pairs = min(ma, d)
        p = kern.prob[ma][d]
        forcing = np.empty((A + 1 - lo, S))
        forcing[:] = step_cost
        for i in range(pairs):
            forcing += p[i] * values[lo - i : A + 1 - i, d - pairs + i]
        known = min(pairs, A + 1 - lo)
        forcing[:known] += p[pairs] * values[lo - pairs : lo - pairs + known, d]
        values[lo:, d] = lfilter([1.0], feedback(pairs, p[pairs]), forcing, axis=0)

    if lo <= A and md <= D:
        _backward_bulk(values, lo, md, kern.prob[ma][md], step_cost.tolist())
    return values


class _BulkPlan:
    """What :func:`_backward_bulk` needs that depends on the grid's shape alone, not on its values.

    Built once per shape ``(A, D, lo, md, pairs, S)`` and kept (see :func:`_bulk_plan`): the interleaved buffer
    ``inter``, where the edge cells the bulk reads go, and per statistic the rows' views (the slice of the row
    before that a row is computed from, and the slice it fills) and the views that read the bulk back.  Reusing
    the buffer is safe: every call writes the edge cells and every row before anything reads them, and the
    positions neither covers hold zeros that nothing ever writes.
    """

    __slots__ = ("edge_a", "edge_at", "edge_d", "fix_a", "fix_d", "inter", "readback", "rows")

    @staticmethod
    def shape(A: int, D: int, pairs: int, S: int) -> tuple[int, int, int]:
        """The shape of ``inter``: per statistic, a row per ``P`` anti-diagonals, ``P (A + P)`` positions a row."""
        return S, (A + D) // pairs + 1, pairs * (A + pairs)

    def __init__(self, A: int, D: int, lo: int, md: int, pairs: int, S: int) -> None:
        span = pairs * pairs
        _, rows, width = size = self.shape(A, D, pairs, S)
        inter = np.zeros(size)
        self.inter = inter

        def position(a: Any, s: Any) -> Any:
            """The position of the cell ``(a, s - a)`` in its row ``s // P`` of ``inter``."""
            c = s % pairs
            return pairs * (a - c + pairs - 1) + c

        # The edge cells the bulk reads: the rows lo - P .. lo - 1 (every d) and the columns md - P .. md - 1
        # (a >= lo).
        a_edge = np.concatenate((np.repeat(np.arange(lo - pairs, lo), D + 1), np.tile(np.arange(lo, A + 1), pairs)))
        d_edge = np.concatenate((np.tile(np.arange(D + 1), pairs), np.repeat(np.arange(md - pairs, md), A + 1 - lo)))
        s_edge = a_edge + d_edge
        self.edge_a, self.edge_d, self.edge_at = a_edge, d_edge, (s_edge // pairs, position(a_edge, s_edge))
        # Row m computes the positions start .. stop - 1, which hold the bulk cells of its diagonals P m + c: in
        # units u = P m - d + P - 1 (position P u + c), from max(P m - D, lo - c) + P - 1 (d <= D, a >= lo) to
        # min(P m - md, A - c) + P - 1 (d >= md, a <= A).
        m_all = np.arange((lo + md) // pairs, rows)
        c_all = np.arange(pairs)[:, None]
        low = np.maximum(pairs * m_all - D, lo - c_all) + pairs - 1
        high = np.minimum(pairs * m_all - md, A - c_all) + pairs - 1
        some = low <= high
        starts = np.where(some, pairs * low + c_all, width).min(axis=0)
        stops = np.where(some, pairs * high + c_all + 1, 0).max(axis=0)
        # The edge cells the bulk reads among the other positions of that range, written back after the row.
        fixes: dict[int, list[tuple[int, int]]] = {}  # row -> [(position, index into fix_a / fix_d)]
        fix_a: list[int] = []
        fix_d: list[int] = []
        for c in range(pairs):
            first, last = -(-(starts - c) // pairs), (stops - 1 - c) // pairs
            bulk_low, bulk_high = np.where(some[c], low[c], last + 1), np.where(some[c], high[c], last)
            for below, above in ((first, bulk_low - 1), (bulk_high + 1, last)):
                count = np.maximum(above - below + 1, 0)
                if not count.any():
                    continue
                which = np.repeat(np.arange(len(m_all)), count)
                u = below[which] + np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
                m = m_all[which]
                a = u - (pairs - 1) + c
                d = pairs * m + c - a
                row_edge = (lo - pairs <= a) & (a < lo) & (d >= 0) & (d <= D)
                column_edge = (md - pairs <= d) & (d < md) & (lo <= a) & (a <= A)
                edge = row_edge | column_edge
                for row, at, ea, ed in zip(
                    m[edge].tolist(), (pairs * u + c)[edge].tolist(), a[edge].tolist(), d[edge].tolist(), strict=True
                ):
                    fixes.setdefault(row, []).append((at, len(fix_a)))
                    fix_a.append(ea)
                    fix_d.append(ed)
        self.fix_a, self.fix_d = np.array(fix_a, dtype=np.intp), np.array(fix_d, dtype=np.intp)
        self.rows = []
        for x in range(S):
            grid = list(inter[x])  # the rows as views: indexing a list is cheaper than a 2-D array
            self.rows.append(
                [
                    (grid[m - 1][start - span : stop], grid[m][start:stop], grid[m], fixes.get(m, ()))
                    for m, start, stop in zip(m_all.tolist(), starts.tolist(), stops.tolist(), strict=True)
                    if start < stop
                ]
            )
        # Back to (a, d), a strided view of ``inter`` per residue of a and d: a = lo + i0 + P i and
        # d = md + j0 + P j lie in row s0 // P + i + j (s0 = lo + md + i0 + j0), at the position of (lo + i0, s0)
        # plus P * P i.
        item = inter.itemsize
        self.readback = []
        for i0 in range(pairs):
            for j0 in range(pairs):
                s0 = lo + md + i0 + j0
                shape = (len(range(lo + i0, A + 1, pairs)), len(range(md + j0, D + 1, pairs)))
                if not shape[0] or not shape[1]:
                    continue
                offset = (s0 // pairs * width + position(lo + i0, s0)) * item
                strides = ((width + span) * item, width * item)
                views = [
                    np.ndarray(shape, inter.dtype, buffer=inter[x], offset=offset, strides=strides) for x in range(S)
                ]
                self.readback.append((slice(lo + i0, None, pairs), slice(md + j0, None, pairs), views))


#: What is kept per thread (each thread its own buffers), the most recently used last: the bulk plans of
#: :class:`_BulkPlan` and the grids of ``backward_float(..., keep=True)``, at most ``_KEPT_COUNT`` of them and
#: ``_KEPT_BYTES`` of buffers; a bigger one is made for its call alone.  Besides the work a plan saves, a kept
#: buffer is memory the process already has: a fresh grid of a megabyte is mapped anew and faulted in page by page
#: whenever the allocator has given the last one back to the system (measured: that doubled a 300 x 300 table).
_KEPT_COUNT = 8
_KEPT_BYTES = 8 * 2**20
_KEPT = threading.local()


def _kept(key: tuple[Any, ...], nbytes: int, make: Callable[[], Any]) -> Any:
    """The object kept under ``key`` in this thread, made by ``make`` (of ``nbytes``) when there is none."""
    kept: dict[tuple[Any, ...], tuple[int, Any]] | None = getattr(_KEPT, "kept", None)
    if kept is None:
        kept = _KEPT.kept = {}
    entry = kept.pop(key, None)
    if entry is None:
        if nbytes > _KEPT_BYTES // 2:
            return make()
        entry = (nbytes, make())
        while kept and (len(kept) >= _KEPT_COUNT or sum(n for n, _ in kept.values()) + nbytes > _KEPT_BYTES):
            del kept[next(iter(kept))]
    kept[key] = entry
    return entry[1]


def _bulk_plan(A: int, D: int, lo: int, md: int, pairs: int, S: int) -> _BulkPlan:
    """The plan of a shape, kept for the next call of the same shape (in this thread)."""
    nbytes = 8 * math.prod(_BulkPlan.shape(A, D, pairs, S))
    plan: _BulkPlan = _kept(("plan", A, D, lo, md, pairs, S), nbytes, lambda: _BulkPlan(A, D, lo, md, pairs, S))
    return plan


def _backward_bulk(values: FloatArray, lo: int, md: int, p: FloatArray, costs: list[float]) -> None:
    """The bulk of :func:`backward_float` (rows ``a >= lo``, columns ``d >= md``), in place, once its edges are done.

    A roll in the bulk compares ``P = len(p) - 1`` pairs, so the state ``(a, d)`` on the anti-diagonal
    ``s = a + d`` depends on the diagonal ``s - P`` only: ``V[a, d] = sum_i p[i] V[a - i, d - P + i]``, and the
    ``P`` diagonals ``P m .. P m + P - 1`` are independent of one another.  They are computed together, by one
    :func:`numpy.correlate` of the ``P`` diagonals before them: row ``m`` of ``inter`` holds them interleaved,
    the cell ``(a, d)`` of diagonal ``P m + c`` at the position ``P (P m - d + P - 1) + c`` (by ``d``, so that
    the columns the defender throws fewer dice in start at the same place on every diagonal), and a row is one
    convolution of the row before it with the roll, whose taps stand ``P`` apart (zeros between them).  Each
    cell is the sum of the same products in the same order as with one correlation per diagonal (the zero taps
    add exact zeros): the same floats to the last bit, in ``P`` times fewer NumPy calls.

    :func:`numpy.correlate` hands each cell's dot product to BLAS, whose kernels round as they please (see
    :mod:`riskmath.odds._ordered`, which the forward sweeps use instead).  This one is a contiguous dot of at
    most ten taps, and it gave the same floats under all eleven OpenBLAS kernels tried (``OPENBLAS_CORETYPE``,
    Prescott to CooperLake, for one, two and three pairs a roll); ``tests/test_ordered.py`` checks the tables
    under every kernel the processor runs.  Summed in a fixed order with element-wise operations instead, a
    table took 25 to 40 % longer (``odds_table(300, 300)`` past five times a C loop's).

    The positions a row computes cover every bulk cell of its ``P`` diagonals, and also cells off the grid
    (``a > A`` or ``d > D``), which nothing in the grid reads; with three pairs a roll, also an edge cell of a
    row the attacker throws fewer dice in, whose value is written back at once (none with one or two pairs).
    Where those cells are, and the views of the rows, depend on the shape alone: :class:`_BulkPlan`, kept per
    shape, so that a second grid of a shape spends its time in the rows only.
    """
    A, D = values.shape[0] - 1, values.shape[1] - 1
    pairs = len(p) - 1
    plan = _bulk_plan(A, D, lo, md, pairs, len(costs))
    inter = plan.inter
    inter[:, plan.edge_at[0], plan.edge_at[1]] = values[plan.edge_a, plan.edge_d].T
    fixed = values[plan.fix_a, plan.fix_d].T.tolist() if len(plan.fix_a) else [[]] * len(costs)
    # The roll reversed (as np.convolve passes it to np.correlate), with P - 1 zeros between the taps.
    taps = np.zeros(pairs * pairs + 1)
    taps[::pairs] = p[::-1]
    correlate = np.correlate
    for x, cost in enumerate(costs):
        fix_values = fixed[x]
        for before, into, row, fix in plan.rows[x]:
            out = correlate(before, taps, "valid")
            if cost:  # a cost of 0 is not added (the same floats)
                out += cost
            into[...] = out
            for at, i in fix:
                row[at] = fix_values[i]
    for rows, columns, views in plan.readback:
        for x, view in enumerate(views):
            values[rows, columns, x] = view


def backward_exact(
    attackers: int,
    defenders: int,
    stop_at: int,
    kern: Kernel,
    win_value: Sequence[Sequence[int | Fraction]],
    stop_value: Sequence[Sequence[Sequence[int | Fraction]]],
    step_cost: Sequence[int],
) -> list[list[list[Fraction]]]:
    """Exact counterpart of :func:`backward_float`.

    Boundary values may be integers or Fractions whose denominators divide a
    power of ``K``.  Internally ``U[a][d] = V[a][d] * K**(extra + a + d)`` is
    an integer, ``extra`` being the power of ``K`` the boundary values need.
    """
    A, D, k = attackers, defenders, stop_at
    S = len(step_cost)
    ma, md, K = kern.max_a, kern.max_d, kern.scale
    boundary = [Fraction(v) for a in range(k + 1, A + 1) for v in win_value[a]]
    boundary += [Fraction(v) for a in range(min(k, A) + 1) for d in range(1, D + 1) for v in stop_value[a][d]]
    extra = max([scale_exponent(v, K) for v in boundary], default=0)
    powers = [K ** (extra + n) for n in range(A + D + 1)]
    scaled: list[list[list[int]]] = [[[0] * S for _ in range(D + 1)] for _ in range(A + 1)]
    for a in range(k + 1, A + 1):
        scaled[a][0] = [int(v * powers[a]) for v in win_value[a]]
    for a in range(min(k, A) + 1):
        for d in range(1, D + 1):
            scaled[a][d] = [int(v * powers[a + d]) for v in stop_value[a][d]]
    for d in range(1, D + 1):
        e = min(md, d)
        for a in range(k + 1, A + 1):
            c = min(ma, a)
            pairs = min(c, e)
            total = [cost * powers[a + d] for cost in step_cost]
            for i, w in enumerate(kern.weight[c][e]):
                source = scaled[a - i][d - (pairs - i)]
                for s in range(S):
                    total[s] += w * source[s]
            scaled[a][d] = total
    return [[[Fraction(u, powers[a + d]) for u in scaled[a][d]] for d in range(D + 1)] for a in range(A + 1)]
