"""Kernels for the battle chain (private module).

A battle state is ``(a, d)``: ``a`` armies able to attack, ``d`` defending
armies.  From a transient state (``a > stop_at`` and ``d >= 1``) one roll of
``c = min(max_attacker_dice, a)`` against ``e = min(max_defender_dice, d)``
dice leads to ``(a - i, d - j)`` with ``i + j = min(c, e)``.  Every roll
removes at least one army, so the chain is acyclic and both directions below
are single sweeps over the grid, never linear solves:

* :func:`forward_float` / :func:`forward_exact` push probability mass from the
  start state and return the probability of ending in every absorbing state
  plus the expected number of rolls (the total mass that passes through
  transient states).
* ``backward_float`` / ``backward_exact`` (in :mod:`riskmath.odds._backward`,
  built on this module's kernels and solver) compute, for *every* start
  state of a grid at once, the expectation of a function of the final state
  (win indicator, survivors, their squares, ...), optionally plus a cost per
  roll (expected rolls).  Their costs are estimated here, with the forward
  sweeps' (``backward_cost``).

Vectorization.  Columns are processed one defender count ``d`` at a time.
Within a column the only same-column move is "the attacker loses every
compared pair", which, for rows throwing the maximum number of dice, is the
linear recurrence ``x[a] = f[a] + q * x[a - L]``: one call of
:func:`scipy.signal.lfilter` solves it for the whole column.  The few rows
with fewer than the maximum dice (``a < max_attacker_dice``) are handled by
scalar code.  The cost is ``O(A * D)`` flops in ``O(D)`` NumPy calls.

Exact arithmetic.  Let ``K = sides_a**max_a * sides_d**max_d``; every roll
probability ``p`` with ``L`` compared pairs makes ``p * K**L`` an integer.  A
mass that has lost ``n`` armies so far therefore has the denominator ``K**n``
and the exact kernels carry integer numerators only (no gcd per operation),
converting to :class:`~fractions.Fraction` at the end.
"""

from __future__ import annotations

import itertools
import math
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from riskmath._validation import capped, check_cost
from riskmath.odds._ordered import convolver
from riskmath.odds.dice import CombatRules, count_pair_wins_seconds

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class Kernel:
    """Per-roll transition data of a :class:`CombatRules`, in four number types.

    ``floats[c][e][i]`` is the probability that ``c`` attacking dice against
    ``e`` defending dice cost the attacker ``i`` armies (and the defender
    ``min(c, e) - i``), as Python floats; ``prob`` holds the same as NumPy
    arrays, ``exact`` as Fractions and ``weight`` as the integers
    ``p * K**min(c, e)``.  Only ``floats`` is built up front: the others are
    made on first use, so that the first float battle of a process builds
    no Fraction and no array.
    """

    rules: CombatRules
    scale: int
    floats: dict[int, dict[int, tuple[float, ...]]]

    @property
    def max_a(self) -> int:
        return self.rules.attacker_max_dice

    @property
    def max_d(self) -> int:
        return self.rules.defender_max_dice

    @cached_property
    def prob(self) -> dict[int, dict[int, FloatArray]]:
        return {c: {e: np.array(p) for e, p in row.items()} for c, row in self.floats.items()}

    @cached_property
    def exact(self) -> dict[int, dict[int, tuple[Fraction, ...]]]:
        return {c: {e: _by_loss(self.rules, c, e) for e in row} for c, row in self.floats.items()}

    @cached_property
    def weight(self) -> dict[int, dict[int, tuple[int, ...]]]:
        weight: dict[int, dict[int, tuple[int, ...]]] = {}
        for c, row in self.exact.items():
            weight[c] = {}
            for e, by_loss in row.items():
                scaled = [p * self.scale ** min(c, e) for p in by_loss]
                assert all(w.denominator == 1 for w in scaled)  # holds by the choice of scale
                weight[c][e] = tuple(int(w) for w in scaled)
        return weight


class BulkPowers:
    """``rows[n * width + x]``: the chance that ``n`` rolls of the bulk (both sides throwing their maximum dice)
    cost the attacker ``x`` armies, with no edge in the way: the ``n``-th convolution power of the roll, for
    ``n <= steps``; ``sums[n * (width + 1) + x]`` its running sums (the chance of losing fewer than ``x``).

    A property of the dice, not of a battle: a battle's bulk holds exactly these numbers on its anti-diagonals,
    cut to the part still in the bulk (a path that ends in the bulk never left it: both counts only fall), so
    :func:`forward_small` reads them instead of convolving each diagonal, and only works out the mass that
    leaves the bulk, a few cells a roll.  Built in one go (a convolution a roll, in the fixed order of
    :func:`~riskmath.odds._ordered.convolver`), never grown row by row: 64 rolls first (the classic table when
    riskmath is imported), then 128 or 256 (``POWERS_STEPS``) rolls for
    the first battle that needs more (flat arrays of doubles, about 2 MB for 256 rolls of the classic dice).
    """

    __slots__ = ("roll", "rows", "steps", "sums", "width")

    def __init__(self, roll: tuple[float, ...], steps: int) -> None:
        pairs = len(roll) - 1
        self.roll, self.steps, self.width = roll, steps, pairs * steps + 1
        table = np.zeros((steps + 1, self.width))
        table[0, 0] = 1.0
        by_roll = convolver(np.array(roll))
        for n in range(1, steps + 1):
            table[n, : pairs * n + 1] = by_roll(table[n - 1, : pairs * (n - 1) + 1])
        running = np.zeros((steps + 1, self.width + 1))
        np.cumsum(table, axis=1, out=running[:, 1:])
        self.rows = array("d", table.tobytes())
        self.sums = array("d", running.tobytes())


#: The most bulk rolls :class:`BulkPowers` keeps (``pairs * POWERS_STEPS**2`` doubles at most) ...
POWERS_STEPS = 256
#: ... and for how many combat variants at once (the first ones asked for: a fuzzer's thousands of variants
#: get none beyond these and convolve each diagonal instead).
POWERS_VARIANTS = 8
_POWERS: dict[CombatRules, BulkPowers] = {}


#: The first table built for a variant holds this many rolls (a tenth of a millisecond; the classic one is built
#: when riskmath is imported); a battle of more bulk rolls replaces it with one of twice or four times as many
#: (128 rolls: about 2 ms; 256: about 10 ms, much of it the fresh memory of 2 MB).
POWERS_FIRST = 64


def bulk_powers(kern: Kernel, steps: int) -> BulkPowers | None:
    """A :class:`BulkPowers` of ``kern``'s bulk roll holding ``steps`` rolls, or None past ``POWERS_VARIANTS``."""
    found = _POWERS.get(kern.rules)
    if found is not None and found.steps >= steps:
        return found
    if found is None and len(_POWERS) >= POWERS_VARIANTS:
        return None
    size = POWERS_FIRST
    while size < steps:  # doubled, at most log2(POWERS_STEPS / POWERS_FIRST) = 2 rebuilds a variant
        size *= 2
    found = _POWERS[kern.rules] = BulkPowers(kern.floats[kern.max_a][kern.max_d], size)
    return found


_KERNELS: dict[CombatRules, Kernel] = {}
_LAST: list[Kernel | None] = [None]  # the kernel asked for last

#: :func:`~riskmath.odds.dice.count_pair_wins` of six-sided dice with ties to the defender, for up to three dice a
#: side (the classic rules and the three-defender-dice variant): ``counts[(c, e)][w]`` throws of ``c`` against
#: ``e`` dice in which the attacker wins ``w`` pairs.  Written out so that the first battle of a process builds no
#: roll table (counting them takes a few milliseconds); ``tests/test_battle.py`` checks them against the counts.
CLASSIC_COUNTS: dict[tuple[int, int], tuple[int, ...]] = {
    (1, 1): (21, 15),
    (1, 2): (161, 55),
    (1, 3): (1071, 225),
    (2, 1): (91, 125),
    (2, 2): (581, 420, 295),
    (2, 3): (4816, 1981, 979),
    (3, 1): (441, 855),
    (3, 2): (2275, 2611, 2890),
    (3, 3): (17871, 12348, 10017, 6420),
}


def _by_loss(rules: CombatRules, c: int, e: int) -> tuple[Fraction, ...]:
    """The roll of ``c`` against ``e`` dice, by the attacker's losses ``0 .. min(c, e)``, as Fractions."""
    if _classic(rules, c, e):
        counts = CLASSIC_COUNTS[c, e]
        total = 6 ** (c + e)
        return tuple(Fraction(n, total) for n in reversed(counts))  # w pairs won: m - w armies lost
    odds = rules.roll_odds(c, e)
    pairs = min(c, e)
    return tuple(odds[(i, pairs - i)] for i in range(pairs + 1))


def _classic(rules: CombatRules, c: int, e: int) -> bool:
    """Whether :data:`CLASSIC_COUNTS` holds the roll of ``c`` against ``e`` dice under ``rules``."""
    return rules.attacker_sides == rules.defender_sides == 6 and rules.ties == "defender" and (c, e) in CLASSIC_COUNTS


def _float_by_loss(rules: CombatRules, c: int, e: int) -> tuple[float, ...]:
    """:func:`_by_loss` as floats; from the written-out counts without a Fraction where they hold it.

    ``n / total`` of two ints is the float nearest to the ratio, as is
    ``float(Fraction(n, total))``: the same bits.
    """
    if _classic(rules, c, e):
        total = 6 ** (c + e)
        return tuple(n / total for n in reversed(CLASSIC_COUNTS[c, e]))
    return tuple(float(p) for p in _by_loss(rules, c, e))


def check_kernel_cost(rules: CombatRules) -> None:
    """Refuse (ResourceLimitError) combat rules whose roll tables would take longer than the limits allow.

    What :func:`kernel` checks before building them; a game checks it when it is made, so that a game
    under such rules is refused at once rather than at its first battle.  Free for a kernel already built.
    """
    if rules in _KERNELS:
        return
    seconds = sum(
        count_pair_wins_seconds(c, e, rules.attacker_sides, rules.defender_sides)
        for c in range(1, rules.attacker_max_dice + 1)
        for e in range(1, rules.defender_max_dice + 1)
    )
    check_cost(lambda: f"the roll tables of {rules!r}", seconds=seconds, hint="use fewer dice or sides; ")


def kernel(rules: CombatRules) -> Kernel:
    """The (cached) :class:`Kernel` of ``rules``."""
    last = _LAST[0]
    if last is not None and rules is last.rules:  # the same object as last time: no hash of the rules
        return last
    cached = _KERNELS.get(rules)
    if cached is not None:
        _LAST[0] = cached
        return cached
    check_kernel_cost(rules)
    scale = rules.attacker_sides**rules.attacker_max_dice * rules.defender_sides**rules.defender_max_dice
    floats: dict[int, dict[int, tuple[float, ...]]] = {}
    for c in range(1, rules.attacker_max_dice + 1):
        floats[c] = {e: _float_by_loss(rules, c, e) for e in range(1, rules.defender_max_dice + 1)}
    result = Kernel(rules, scale, floats)
    if len(_KERNELS) >= _KERNELS_KEPT:  # (2 to 80 KB each: a fuzzer's thousands of variants must not pile up)
        _KERNELS.clear()
    _KERNELS[rules] = _LAST[0] = result
    return result


#: Kernels kept, one per combat variant (all forgotten when full).
_KERNELS_KEPT = 256


# -- cost estimates, checked against riskmath.set_limits before anything is allocated --------
#
# Seconds per unit of work of the exact sweeps, measured on the project's 2-core machine
# (bench figures in the report on issue 11), rounded up: a unit is one cell of the grid
# times the size in bits of the largest integer numerator (``(A + D) * log2 K``).
_FORWARD_EXACT_RATE = 1e-9
#: The float sweeps: one Python step per column or anti-diagonal, and a little per cell.
_FLOAT_STEP = 1e-5
_FLOAT_CELL = 1e-8
_COLUMN_CELL = 7e-8
_BACKWARD_EXACT_RATE = 1.5e-8
#: Bytes per Python float held in a list, per Python int/Fraction beyond its digits.
_PYFLOAT = 32
_PYNUMBER = 100
#: Seconds per (kilobit)**2 of turning one integer numerator of an exact sweep into a Fraction (a gcd, quadratic
#: in the size of the numbers), averaged over the states of a grid, whose numerators grow with ``a + d``:
#: measured, about 4e-6 for the largest numerator and a third of that on average.  It dominates long thin grids
#: (``battle(3, 3000, exact=True)``: about 6 s, of which the sweep itself is a tenth).
_FRACTION_RATE = 1.5e-6


def _fractions_seconds(count: float, attackers: int, defenders: int, bits: float) -> float:
    """Seconds to turn ``count`` exact numerators of a sweep over ``attackers x defenders`` into Fractions."""
    kilobits = (attackers + defenders) * bits / 1000
    return count * _FRACTION_RATE * kilobits * kilobits


def _numerator_bytes(attackers: int, defenders: int, kern_scale_bits: float) -> float:
    """Bytes of the largest integer numerator an exact sweep over ``A x D`` carries."""
    return (attackers + defenders + 1) * kern_scale_bits / 8


def scale_bits(rules: CombatRules) -> float:
    """``log2 K`` for ``K = sides_a**max_a * sides_d**max_d``, without building the kernel."""
    return rules.attacker_max_dice * math.log2(rules.attacker_sides) + rules.defender_max_dice * math.log2(
        rules.defender_sides
    )


def forward_cost(attackers: int, defenders: int, stop_at: int, rules: CombatRules, exact: bool) -> tuple[float, float]:
    """``(bytes, seconds)`` that :func:`forward_float` / :func:`forward_exact` need, from the sizes alone."""
    A, D, stop_at = capped(attackers, defenders, stop_at)
    stopped = (min(stop_at, A) + 1) * (D + 1)
    if not exact:
        # The win vector and stop matrix, as arrays and as Python lists, and the sweep's working memory: the
        # column sweep (a tall grid) allocates the (A + 1) x (D + 1) grid, the anti-diagonal sweep (most battles)
        # only its edges and a diagonal, O(A + D) (issue 21).  Until 2026-12-03 the whole grid was counted for
        # both: battle(20_000, 20_000) was refused as needing 3 GiB, and runs in 47 MiB.
        columns = _COLUMN_COST * D < A + D  # (as forward_float picks its sweep)
        if columns:
            working = 8.0 * (A + 1) * (D + 1)
        else:  # _forward_diagonals: the rows below lo, the columns below the defender's dice, three diagonals
            lo = min(max(rules.attacker_max_dice, stop_at + 1), A + 1)
            working = 8.0 * (lo * (D + 1) + rules.defender_max_dice * (A + 1) + 3 * (min(A, D) + 1))
        memory = working + (8 + _PYFLOAT) * ((A + 1) + stopped)
        if columns:
            # Each column's filter and copies cost 35-70 ns a cell on a grid of tens of millions of cells, by the
            # page faults of its fresh memory (measured 2026-12-02 on 10^6 x 40, 3 x 10^6 x 40, 10^6 x 80 and
            # 3 x 10^5 x 200), 70 taken to stay cautious; the diagonal sweep's 10 ns was 2-3 times too low here.
            return memory, _FLOAT_STEP * _COLUMN_COST * D + _COLUMN_CELL * (A + 1) * (D + 1) + 4e-7 * A
        return memory, _FLOAT_STEP * (A + D) + _FLOAT_CELL * (A + 1) * (D + 1) + 4e-7 * A
    bits = scale_bits(rules)
    number = _numerator_bytes(A, D, bits) + _PYNUMBER
    live = (A + 1) * (rules.defender_max_dice + 2)  # the numerators of the columns being swept
    memory = number * (live + 2 * (A + 1) + 2 * stopped)
    absorbing = (A + 1) + stopped
    return memory, _FORWARD_EXACT_RATE * A * D * (A + D) * bits + _fractions_seconds(absorbing, A, D, bits)


def backward_cost(
    attackers: int, defenders: int, stop_at: int, moments: int, rules: CombatRules, exact: bool
) -> tuple[float, float]:
    """``(bytes, seconds)`` that ``_backward.backward_float`` / ``backward_exact`` need for ``moments`` values."""
    A, D, S = capped(attackers, defenders, moments)
    stop_at = min(stop_at, A)
    boundary = (min(stop_at, A) + 1) * (D + 1) * (64 + 32 * S)  # the boundary values as Python lists
    if not exact:
        # ``values`` (A + 1) x (D + 1) x S and the interleaved copy of the diagonals, S x (A + D + P) x (A + P) floats
        # at most for P <= 3 pairs a roll, counted as S x (A + D + 1) x (A + 1): a few cells more a row, which matter
        # only for grids too small for their bytes to matter.
        memory = 8.0 * S * (A + 1) * ((D + 1) + (A + D + 1)) + boundary
        # Per diagonal a few steps; per cell of the grid, and twice per cell of the skewed copy (fresh memory,
        # zeroed then written): the copy dominates a tall grid such as 3000 x 3.
        return memory, S * (_FLOAT_STEP * (A + D) + _FLOAT_CELL * A * D + 2 * _FLOAT_CELL * (A + 1) * (A + D + 1))
    bits = scale_bits(rules)
    number = _numerator_bytes(A, D, bits) + _PYNUMBER
    memory = (A + 1) * (D + 1) * (S * (2 * number + 8) + 64) + boundary  # integers, then Fractions
    cells = (A + 1) * (D + 1) * S
    return memory, _BACKWARD_EXACT_RATE * S * A * D * (A + D) * bits + _fractions_seconds(cells, A, D, bits)


#: :func:`forward_columns`, per column: a fixed cost (slices, an lfilter call), a scalar step per outcome of each
#: row throwing fewer than the maximum dice, and per cell of the rows throwing the maximum, per outcome (strided
#: column access, slower once the grid outgrows the caches); measured on the project's machine, rounded up.
_COLUMN_STEP = 3e-5
_SCALAR_STEP = 4e-6
_COLUMN_CELL = 7e-8


def columns_cost(attackers: int, defenders: int, stop_at: int, rules: CombatRules) -> tuple[float, float]:
    """``(bytes, seconds)`` of :func:`forward_columns` over an ``(attackers + 1) x (defenders + 1)`` grid.

    The sweep that conquests, combined attacks and plans run from a whole
    distribution of starts: one column at a time whatever the shape, unlike
    :func:`forward_float`, which picks the cheaper direction for a single start.
    """
    A, D, k = capped(attackers, defenders, stop_at)
    ma, md = rules.attacker_max_dice, rules.defender_max_dice
    outcomes = min(ma, md) + 1
    scalar_rows = max(0, min(max(ma, k + 1) - 1, A) - k)  # rows with fewer than the maximum dice
    bulk_rows = max(0, A + 1 - max(ma, k + 1))
    per_column = _COLUMN_STEP + _SCALAR_STEP * scalar_rows * outcomes + _COLUMN_CELL * bulk_rows * (outcomes + 1)
    stopped = (min(k, A) + 1) * (D + 1)
    memory = 8.0 * (A + 1) * (D + 1) + 8.0 * ((A + 1) + stopped)  # the grid, and the copies returned
    return memory, D * per_column


# -- float probabilities, kept in [0, 1] ---------------------------------------------------------
#
# Each float roll probability is the correctly rounded value of an exact one, but the rounding errors of a
# roll's outcomes need not cancel: under ``CombatRules(1, 1)`` both 5/12 and 7/12 round up, so every roll of
# a float sweep creates about 1e-16 of probability, and a battle of a few hundred rolls ends with a total
# mass of 1 + 1e-15.  The public results therefore normalise a distribution where that is cheap and clip a
# probability that round-off put outside [0, 1] back to the boundary; values inside are left bit for bit
# (the agents' grids read them).  Exact results are Fractions and need neither.


def unit_interval(value: Any) -> Any:
    """A float probability with round-off outside ``[0, 1]`` put back on the boundary; anything else as is.

    Examples
    --------
    >>> unit_interval(1.0000000000000013), unit_interval(-1e-17), unit_interval(0.25)
    (1.0, 0.0, 0.25)
    >>> unit_interval(Fraction(1, 3))
    Fraction(1, 3)
    """
    if isinstance(value, float):  # NumPy float64 too
        return 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
    return value


#: The smallest normal float64 (about 2.2e-308).  A float probability below it is subnormal: its digits are lost
#: one by one, and so are those of the terms that summed to it, so that a mean given that event (divided by it)
#: can be wrong from the fourth digit on.  Such a mean is refused in float64 (``exact=True`` computes it).
SMALLEST_NORMAL = sys.float_info.min


def conditioning_defined(probability: Any, exact: bool) -> Any:
    """Whether a mean given an event of ``probability`` can be given: above 0 exactly, a normal float64 in floats.

    A bool for a number; for an array of them (a grid's), an array of bools.

    Examples
    --------
    >>> conditioning_defined(1e-300, False), conditioning_defined(1e-310, False)
    (True, False)
    >>> conditioning_defined(Fraction(1, 10**400), True)
    True
    >>> conditioning_defined(np.array([1e-300, 1e-310, 0.0]), False).tolist()
    [True, False, False]
    """
    return probability > 0 if exact else probability >= SMALLEST_NORMAL


def unit_interval_array(values: Any) -> Any:
    """:func:`unit_interval` for every entry of a float array (a new array); object arrays of Fractions as they are."""
    array = np.asarray(values)
    if array.dtype == object:
        return values
    return np.clip(array, 0.0, 1.0)


def feedback(pairs: int, q: float) -> FloatArray:
    """Denominator of ``y[n] = x[n] + q * y[n - pairs]`` for lfilter."""
    coefficients = np.zeros(pairs + 1)
    coefficients[0] = 1.0
    coefficients[pairs] = -q
    return coefficients


# Recurrences of at most this many numbers are solved in plain Python: faster than an lfilter call below about 32
# (measured).  Longer ones go to lfilter once scipy.signal is loaded; until then, up to ``_NO_SCIPY`` numbers are
# solved in Python too (about 0.1 us a number), so that no battle of up to thousands of armies a side imports
# scipy.signal (about 0.75 s, which the first such battle of a process paid before).
_SHORT = 32
_NO_SCIPY = 1 << 16


def signal_loaded() -> bool:
    """Whether scipy.signal is loaded already (its lfilter then costs no import)."""
    return "scipy.signal" in sys.modules


def lfilter(b: list[float], a: FloatArray, x: FloatArray, axis: int = -1) -> FloatArray:
    """``scipy.signal.lfilter(b, a, x, axis)`` for ``b = [1.0]`` and ``a = feedback(pairs, q)``, bit for bit.

    ``y[n] = x[n] + q * y[n - pairs]`` along ``axis`` (the last axis of a
    vector, the first of a matrix).  Short inputs, and inputs of up to
    ``_NO_SCIPY`` numbers while scipy.signal is not loaded, take the same
    product and sum per number in Python floats as lfilter's loop in C; longer
    ones go to scipy, imported on first use.
    """
    pairs = len(a) - 1
    if (x.size <= _SHORT or (x.size <= _NO_SCIPY and not signal_loaded())) and (x.ndim == 1 or axis == 0):
        q = float(-a[pairs])
        if x.ndim == 1:
            y = x.tolist()
            for n in range(pairs, len(y)):
                y[n] += q * y[n - pairs]
            return np.array(y, dtype=np.float64)
        columns = x.T.tolist()  # each column is its own recurrence
        for column in columns:
            for n in range(pairs, len(column)):
                column[n] += q * column[n - pairs]
        return np.array(columns, dtype=np.float64).reshape(x.shape[::-1]).T.copy()
    from scipy.signal import lfilter as scipy_lfilter

    result: FloatArray = scipy_lfilter(b, a, x, axis=axis)
    return result


Forward = tuple[FloatArray, FloatArray, float]


def forward_float(attackers: int, defenders: int, stop_at: int, kern: Kernel) -> Forward:
    """Absorption probabilities and expected rolls from ``(attackers, defenders)``.

    Returns ``(win, stop, expected_rolls)``: ``win[a]`` (shape ``(A + 1,)``)
    is the probability of ending with the defender wiped out and ``a``
    attackers left; ``stop[a, d]`` (shape ``(min(stop_at, A) + 1, D + 1)``)
    the probability of ending with ``a <= stop_at`` attackers and ``d >= 1``
    defenders.  Needs ``defenders >= 1``.

    Picks the cheaper sweep: one call per column (:func:`forward_columns`)
    when there are few defenders, one per anti-diagonal otherwise.
    """
    A, D = attackers, defenders
    if _COLUMN_COST * D < A + D:
        mass = np.zeros((A + 1, D + 1))
        mass[A, D] = 1.0
        return forward_columns(mass, stop_at, kern)
    return _forward_diagonals(A, D, stop_at, kern)


#: Battles of at most this many armies in all are swept in Python floats by :func:`forward_small` (see
#: :func:`prefer_small`): the bulk read from :class:`BulkPowers` (a few steps a roll), its edges one cell at a
#: time, no NumPy call; the NumPy sweep pays a few microseconds a call, one call or more per anti-diagonal.
SMALL_ARMIES = 500


def prefer_small(attackers: int, defenders: int) -> bool:
    """Whether a float battle is swept faster by :func:`forward_small` than by :func:`forward_float`.

    Battles of up to ``SMALL_ARMIES`` armies in all, unless :func:`forward_float`
    would sweep them by columns (a tall thin battle, a few NumPy calls in all)
    and they are not tiny (measured: the Python sweep about 1.6 times faster
    at 200 v 200, 4 to 10 times at 10 v 10 to 30 v 30).
    """
    if (attackers + 1) * (defenders + 1) <= _TINY:
        return True
    return attackers + defenders <= SMALL_ARMIES and _COLUMN_COST * defenders >= attackers + defenders


PlainForward = tuple[list[float], list[list[float]], float]


def forward_small(attackers: int, defenders: int, stop_at: int, kern: Kernel) -> PlainForward:
    """:func:`forward_float` in Python floats and lists, for small battles (no NumPy call at all).

    Returns ``(win, stop, expected_rolls)`` as :func:`forward_float` does, as
    lists.  The same products of the same roll probabilities, summed in
    another order: the results agree with :func:`forward_float` to a few
    units in the last place, not bit for bit (a test compares them).

    The plan of the NumPy sweep, in ``O(A + D)`` memory: the bulk (both sides
    throwing their maximum dice) from :class:`BulkPowers`, which leaves only
    the mass that leaves it to compute; then the edges, held as ``low[a][d]``
    for the rows ``a < lo`` and ``side[d][a]`` for the columns ``d < max_d``
    (``a >= lo``): first the columns, from the most defenders and each from
    the most attackers down, then the rows from the top, so that every state
    is final before its mass moves on.
    """
    A, D, k = attackers, defenders, stop_at
    floats, ma, md = kern.floats, kern.max_a, kern.max_d
    if (A + 1) * (D + 1) <= _TINY:
        return _forward_tiny(A, D, k, kern)
    lo = max(ma, k + 1)  # the first row throwing the maximum dice
    low = [[0.0] * (D + 1) for _ in range(min(lo, A + 1))]
    side = [[0.0] * (A + 1) for _ in range(md)]  # side[d][a] for a >= lo only
    rolls = 0.0
    if lo <= A and md <= D:
        steps = (A + D - lo - md) // min(ma, md) + 1  # the most rolls the bulk can last, and one
        powers = bulk_powers(kern, steps) if steps <= POWERS_STEPS else None
        if powers is not None:
            rolls = _bulk_by_powers(A, D, lo, md, powers, low, side)
        else:
            rolls = _small_bulk(A, D, lo, md, floats[ma][md], low, side)
    elif lo > A:  # the start is an edge cell
        low[A][D] = 1.0
    else:
        side[D][A] = 1.0
    for d in range(min(md - 1, D), 0, -1):  # the columns the defender throws fewer dice in, rows a >= lo
        column = side[d]
        p = floats[ma][d]
        base = d + 1 - len(p)  # losing j attackers leaves the defender base + j
        if len(p) == 2:  # one pair compared: the defender loses it (to d - 1) or the attacker does (to a - 1)
            p0, p1 = p
            lose_none = side[d - 1]
            for a in range(A, lo, -1):
                m = column[a]
                if m:
                    rolls += m
                    lose_none[a] += p0 * m
                    column[a - 1] += p1 * m
            m = column[lo] if lo <= A else 0.0
            if m:  # the last row throwing the maximum dice: losing its pair leaves it in the rows below
                rolls += m
                lose_none[lo] += p0 * m
                low[lo - 1][d] += p1 * m
            continue
        for a in range(A, lo - 1, -1):
            m = column[a]
            if m:
                rolls += m
                for j, q in enumerate(p):
                    if a - j < lo:
                        low[a - j][base + j] += q * m
                    else:
                        side[base + j][a - j] += q * m
    for a in range(min(lo - 1, A), k, -1):  # the rows the attacker throws fewer dice in, from the top
        row, by_defence = low[a], floats[a]
        p = by_defence[md]
        if len(p) == 3 and a >= 2:  # two pairs compared while the defender throws its maximum: unrolled
            p0, p1, p2 = p
            one_less, two_less = low[a - 1], low[a - 2]
            for d in range(D, md - 1, -1):
                m = row[d]
                if m:
                    rolls += m
                    row[d - 2] += p0 * m
                    one_less[d - 1] += p1 * m
                    two_less[d] += p2 * m
            first = min(md - 1, D)
        else:
            first = D
        for d in range(first, 0, -1):
            m = row[d]
            if m:
                rolls += m
                p = by_defence[d if d < md else md]
                base = d + 1 - len(p)
                for j, q in enumerate(p):
                    low[a - j][base + j] += q * m
    win = [row[0] for row in low] + side[0][len(low) :]
    return win, low[: min(k, A) + 1], rolls


#: Battles of at most this many states go through :func:`_forward_tiny`: fewer steps of Python than the plan of
#: :func:`forward_small` for a battle of a few rolls (measured: about even at 10 v 10).
_TINY = 150


def _forward_tiny(A: int, D: int, k: int, kern: Kernel) -> PlainForward:
    """:func:`forward_small` for a tiny battle: one plain pass over the grid, each state's mass moved on in turn."""
    floats, ma, md = kern.floats, kern.max_a, kern.max_d
    mass = [[0.0] * (D + 1) for _ in range(A + 1)]
    mass[A][D] = 1.0
    rolls = 0.0
    for d in range(D, 0, -1):
        e = d if d < md else md
        for a in range(A, k, -1):  # from the most attackers down: every state is final before its mass moves
            m = mass[a][d]
            if m:
                rolls += m
                p = floats[a if a < ma else ma][e]
                base = d + 1 - len(p)  # losing j attackers leaves the defender d - pairs + j
                for j, q in enumerate(p):
                    mass[a - j][base + j] += q * m
    return [row[0] for row in mass], mass[: min(k, A) + 1], rolls


def _bulk_by_powers(
    A: int, D: int, lo: int, md: int, powers: BulkPowers, low: list[list[float]], side: list[list[float]]
) -> float:
    """The bulk of :func:`forward_small` from :class:`BulkPowers`: only the mass leaving it is computed.

    After ``n`` rolls the bulk holds, at ``a`` attackers, row ``n`` at ``A - a`` for
    ``a`` in the window ``a0 .. a1`` of anti-diagonal ``s = A + D - n * pairs``
    still in the bulk.  A roll moves it to the next diagonal; the cells there
    outside the next window (the attacker below ``lo`` or the defender below
    ``md``) take what reaches them from the window, and are written to
    ``low`` or ``side``.  Returns the rolls made in the bulk (its mass summed over the
    windows, from the running sums).
    """
    roll, rows, sums, width = powers.roll, powers.rows, powers.sums, powers.width
    pairs = len(roll) - 1
    a0 = a1 = A
    rolls = 0.0
    for n in itertools.count():
        row, running = n * width + A, n * (width + 1) + A  # the offsets of x = A - a in row n
        rolls += sums[running - a0 + 1] - sums[running - a1]
        s = A + D - pairs * (n + 1)  # the next diagonal, and its window (comparisons: cheaper than min and max)
        b0 = s - D if s - D > lo else lo
        b1 = s - md if s - md < A else A
        if b0 > b1:  # nothing stays in the bulk: every cell reached leaves
            leaving: Sequence[int] = range(a0 - pairs, a1 + 1)
        else:
            leaving = [*range(a0 - pairs, b0 if b0 < a1 + 1 else a1 + 1), *range(b1 + 1, a1 + 1)]
        for a in leaving:  # from (a + j) of the window, the attacker losing j
            m = 0.0
            for j in range(a0 - a if a0 > a else 0, (a1 - a if a1 - a < pairs else pairs) + 1):
                m += roll[j] * rows[row - a - j]
            if a < lo:
                low[a][s - a] = m
            else:
                side[s - a][a] = m
        if b0 > b1:
            return rolls
        a0, a1 = b0, b1
    raise AssertionError("unreachable")  # pragma: no cover


def _small_bulk(
    A: int, D: int, lo: int, md: int, p: tuple[float, ...], low: list[list[float]], side: list[list[float]]
) -> float:
    """:func:`_bulk_by_powers` for a bulk of more rolls than :class:`BulkPowers` keeps: each diagonal convolved."""
    pairs = len(p) - 1
    step = p[::-1]  # step[i]: the attacker loses pairs - i armies
    current, base = [1.0], A  # anti-diagonal s holds rows base .. base + len - 1
    rolls = 0.0
    for s in range(A + D, lo + md - pairs - 1, -pairs):
        a0, a1 = max(lo, s - D), min(A, s - md)
        top = base + len(current) - 1
        if a0 > a1:  # nothing left in the bulk: the whole diagonal leaves
            a0, a1 = top + 1, top
        for a in [*range(base, min(a0, top + 1)), *range(max(a1 + 1, base), top + 1)]:
            if a < lo:
                low[a][s - a] = current[a - base]
            else:
                side[s - a][a] = current[a - base]
        if a0 > a1:
            break
        window = current[a0 - base : a1 + 1 - base]
        rolls += sum(window)
        if pairs == 2:
            s0, s1, s2 = step
            padded = [0.0, 0.0, *window, 0.0, 0.0]
            current = [s0 * z + s1 * y + s2 * x for x, y, z in zip(padded, padded[1:], padded[2:], strict=False)]
        elif pairs == 1:
            s0, s1 = step
            padded = [0.0, *window, 0.0]
            current = [s0 * y + s1 * x for x, y in itertools.pairwise(padded)]
        else:
            current = [
                sum(step[i] * window[j - i] for i in range(pairs + 1) if 0 <= j - i < len(window))
                for j in range(len(window) + pairs)
            ]
        base = a0 - pairs
    return rolls


# One column sweep step (an lfilter call and a few slices) costs about as much
# as this many anti-diagonal steps (one convolution each); measured in bench/.
_COLUMN_COST = 12


def forward_columns(mass: FloatArray, stop_at: int, kern: Kernel) -> Forward:
    """Sweep an arbitrary initial distribution over the states, column by column.

    ``mass[a, d]`` (shape ``(A + 1, D + 1)``) is the initial probability of
    each state; it is overwritten with visit probabilities.  Returns
    ``(win, stop, expected_rolls)`` as :func:`forward_float`; mass that starts
    in an absorbing state stays there.  Each column costs one
    :func:`scipy.signal.lfilter` call: the only same-column move, "the attacker
    loses every compared pair", is the recurrence ``x[a] += q * x[a + pairs]``.
    """
    A, D = mass.shape[0] - 1, mass.shape[1] - 1
    k = stop_at
    ma, md = kern.max_a, kern.max_d
    lo = max(ma, k + 1)  # first transient row throwing the maximum dice
    for d in range(D, 0, -1):
        e = min(md, d)
        col = mass[:, d]
        if lo <= A:
            pairs = min(ma, e)
            p = kern.prob[ma][e]
            col[lo:] = lfilter([1.0], feedback(pairs, p[pairs]), col[lo:][::-1])[::-1]
            for s in range(lo, min(A, lo + pairs - 1) + 1):
                col[s - pairs] += p[pairs] * col[s]
            for i in range(pairs):
                mass[lo - i : A + 1 - i, d - (pairs - i)] += p[i] * col[lo:]
        for a in range(min(lo - 1, A), k, -1):  # rows with fewer dice, top down
            pairs = min(a, e)
            p = kern.prob[a][e]
            for i in range(pairs + 1):
                mass[a - i, d - pairs + i] += p[i] * col[a]
    expected_rolls = float(mass[k + 1 :, 1:].sum())
    return mass[:, 0].copy(), mass[: min(k, A) + 1].copy(), expected_rolls


def _forward_diagonals(attackers: int, defenders: int, stop_at: int, kern: Kernel) -> Forward:
    """:func:`forward_float` by anti-diagonals, for a start in one state, in ``O(A + D)`` memory.

    The bulk (both sides throwing their maximum dice) lives in one diagonal
    buffer; the edges in two small arrays: ``low[a, d]`` the rows ``a < lo``
    (the attacker throws fewer dice, or has stopped) and ``side[d, a]`` the
    columns ``d < max_d`` for ``a >= lo``, each column contiguous.  No grid of
    the whole battle is allocated (it made a 3000 v 3000 battle take 66 MiB
    where NumPy backs large arrays with huge pages).  The arithmetic is
    that of the grid it replaces, number for number: every probability is
    the same float.
    """
    A, D, k = attackers, defenders, stop_at
    if k >= A:
        mass = np.zeros((A + 1, D + 1))
        mass[A, D] = 1.0
        return mass[:, 0].copy(), mass, 0.0
    ma, md = kern.max_a, kern.max_d
    lo = max(ma, k + 1)
    low = np.zeros((min(lo, A + 1), D + 1))
    side = np.zeros((md, A + 1))  # side[d, a] for a >= lo only (the rest stays 0 and is never read)
    low_flat, side_flat = low.ravel(), side.ravel()

    def put(s: int, first: int, last: int, values: FloatArray) -> None:
        """Write ``values`` to the edge cells ``(a, s - a)``, ``a = first .. last``, each in its array."""
        split = min(max(lo, first), last + 1)
        if first < split:  # low[a, s - a] is low_flat[s + a * D]
            low_flat[s + first * D : s + (split - 1) * D + 1 : D] = values[: split - first]
        if split <= last:  # side[s - a, a] is side_flat[s * (A + 1) - a * A]
            start, stop = s * (A + 1) - split * A, s * (A + 1) - last * A
            side_flat[start : stop - 1 if stop > 0 else None : -A] = values[split - first :]

    bulk_rolls = 0.0
    if lo <= A and md <= D:
        pairs = min(ma, md)
        step = kern.prob[ma][md][::-1]
        by_roll = convolver(step)  # (riskmath.odds._ordered: the same floats on every machine)
        current, base = np.ones(1), A  # diagonal s holds rows base .. base + len - 1
        for s in range(A + D, lo + md - pairs - 1, -pairs):
            a0, a1 = max(lo, s - D), min(A, s - md)
            top = base + len(current) - 1
            if a0 > a1:  # nothing left in the bulk: the whole diagonal leaves
                a0, a1 = top + 1, top
            leaving = 0.0
            if base < a0:
                put(s, base, a0 - 1, current[: a0 - base])
                leaving += current[: a0 - base].sum()
            if top > a1:
                put(s, a1 + 1, top, current[a1 + 1 - base :])
                leaving += current[a1 + 1 - base :].sum()
            bulk_rolls += leaving * (A + D - s) / pairs
            if a0 > a1:
                break
            current, base = by_roll(current[a0 - base : a1 + 1 - base]), a0 - pairs
    elif lo > A:  # the start is an edge cell
        low[A, D] = 1.0
    else:
        side[D, A] = 1.0

    # Edge columns: the defender throws fewer than its maximum (d < max_d), rows a >= lo.
    for d in range(min(md - 1, D), 0, -1):
        if lo > A:
            break
        col = side[d]
        pairs = min(ma, d)
        p = kern.prob[ma][d]
        col[lo:] = lfilter([1.0], feedback(pairs, p[pairs]), col[lo:][::-1])[::-1]
        for s in range(lo, min(A, lo + pairs - 1) + 1):
            low[s - pairs, d] += p[pairs] * col[s]
        for i in range(pairs):  # rows lo - i .. A - i of column d - (pairs - i): those below lo low, the rest side
            target, below = d - (pairs - i), min(lo, A + 1 - i)
            low[lo - i : below, target] += p[i] * col[lo : below + i]
            side[target, lo : A + 1 - i] += p[i] * col[lo + i :]

    # Edge rows: the attacker throws fewer than its maximum (a < max_a).
    for a in range(min(lo - 1, A), k, -1):
        row = low[a]
        if md <= D:
            pairs = min(a, md)
            p = kern.prob[a][md]
            row[md:] = lfilter([1.0], feedback(pairs, p[0]), row[md:][::-1])[::-1]
            for d in range(md, min(D, md + pairs - 1) + 1):
                row[d - pairs] += p[0] * row[d]
            for i in range(1, pairs + 1):
                low[a - i, md - pairs + i : D + 1 - pairs + i] += p[i] * row[md:]
        for d in range(min(md - 1, D), 0, -1):
            pairs = min(a, d)
            p = kern.prob[a][d]
            for i in range(pairs + 1):
                low[a - i, d - pairs + i] += p[i] * row[d]

    # Every transient edge cell now holds the probability of visiting it, i.e. of one roll from there.
    edge_rolls = low[k + 1 : lo, 1:].sum() + side[1:md, lo:].sum()
    win = np.concatenate((low[:, 0], side[0, lo:]))
    return win, low[: k + 1].copy(), bulk_rolls + float(edge_rolls)


def forward_exact(
    attackers: int, defenders: int, stop_at: int, kern: Kernel
) -> tuple[list[Fraction], list[list[Fraction]], Fraction]:
    """Exact counterpart of :func:`forward_float`, with lists of Fractions."""
    return forward_exact_from({(attackers, defenders): Fraction(1)}, stop_at, kern)


def exact_weighted_sum(terms: Sequence[tuple[Fraction, int]]) -> Fraction:
    """``sum(p * k)`` for Fractions ``p`` and ints ``k``, over one common denominator.

    Adding Fractions term by term reduces every partial sum with a gcd of
    ever larger numbers: the statistics of ``battle(1, 2500, exact=True)``
    took 19 s that way, summing 2,500 probabilities with denominators of
    thousands of digits.  The probabilities of a sweep are multiples of
    powers of ``1 / K``, so that the largest denominator is usually a
    multiple of all the others: the sum is taken over it in integers and
    reduced once.

    Examples
    --------
    >>> exact_weighted_sum([(Fraction(1, 6), 2), (Fraction(1, 36), 3), (Fraction(1, 4), 1)])
    Fraction(2, 3)
    """
    common = 1
    for denominator in sorted({p.denominator for p, k in terms if k}, key=int.bit_length, reverse=True):
        if common % denominator:
            common = common // math.gcd(common, denominator) * denominator
    return Fraction(sum(p.numerator * k * (common // p.denominator) for p, k in terms if k), common)


def scale_exponent(probability: Fraction, K: int) -> int:
    """Smallest ``n`` with ``probability * K**n`` an integer (K's primes only)."""
    rest = probability.denominator
    while (common := math.gcd(rest, K)) > 1:
        rest //= common
    if rest != 1:
        raise ValueError(f"{probability} is not a multiple of a power of 1/{K}")
    n, power = 0, 1
    while power % probability.denominator:
        n, power = n + 1, power * K
    return n


def forward_exact_from(
    initial: dict[tuple[int, int], Fraction],
    stop_at: int,
    kern: Kernel,
    shape: tuple[int, int] | None = None,
) -> tuple[list[Fraction], list[list[Fraction]], Fraction]:
    """Exact sweep of an initial distribution ``{(a, d): probability}``.

    The probabilities must be multiples of powers of ``1 / K`` (as every
    probability this module produces is).  Returns ``(win, stop,
    expected_rolls)`` like :func:`forward_float`, for states up to
    ``shape = (A, D)`` (default: the largest ``a`` and ``d`` in ``initial``).
    """
    A, D = shape if shape is not None else (max(a for a, _ in initial), max(d for _, d in initial))
    k = stop_at
    ma, md, K = kern.max_a, kern.max_d, kern.scale
    # numer[(a, d)] / K**(extra + A - a + D - d) is the probability of visiting
    # (a, d): every roll that removes n armies multiplies by an integer / K**n.
    extra = max(scale_exponent(p, K) - (A - a + D - d) for (a, d), p in initial.items())
    extra = max(extra, 0)
    numer: dict[tuple[int, int], int] = {}
    for (a, d), p in initial.items():
        scaled = p * K ** (extra + A - a + D - d)
        numer[(a, d)] = numer.get((a, d), 0) + int(scaled)
    transient_by_level: dict[int, int] = {}
    for d in range(D, 0, -1):
        e = min(md, d)
        for a in range(A, k, -1):
            n = numer.pop((a, d), 0)
            if not n:
                continue
            level = extra + A - a + D - d
            transient_by_level[level] = transient_by_level.get(level, 0) + n
            c = min(ma, a)
            pairs = min(c, e)
            for i, w in enumerate(kern.weight[c][e]):
                target = (a - i, d - (pairs - i))
                numer[target] = numer.get(target, 0) + n * w
    zero = Fraction(0)
    win = [zero] * (A + 1)
    stop = [[zero] * (D + 1) for _ in range(min(k, A) + 1)]
    for (a, d), n in numer.items():  # only absorbing states are left
        if not n:
            continue
        p = Fraction(n, K ** (extra + A - a + D - d))
        if d == 0:
            win[a] += p
        else:
            stop[a][d] += p
    if not transient_by_level:
        return win, stop, zero
    top = max(transient_by_level)
    total = sum(n * K ** (top - level) for level, n in transient_by_level.items())
    return win, stop, Fraction(total, K**top)


# The classic rules' kernel and first bulk powers are built with the module (the kernel from the counts written
# out above, floats only: about 70 us; the powers of 64 rolls about 0.2 ms and 130 kB), so that the first
# battle of a process finds them ready.
#: The classic rules, the object whose kernel is built here: a caller passing this very object (as the cache of
#: battles does for ``rules=None``) finds its kernel by identity, without a hash of the rules.
CLASSIC = CombatRules()
bulk_powers(kernel(CLASSIC), POWERS_FIRST)
