"""Optimal attack policies: the battle as a Markov decision process.

:func:`riskmath.battle` lets both sides throw their maximum dice until the
end.  The rules allow more: before each roll the attacker may throw fewer dice
(1 .. ``min(3, attackers)``) or stop, and the defender may throw one die
instead of two.  With a value ``u(a, d)`` on the final state (1 for a
conquest, say), the best the attacker can do from ``(a, d)`` satisfies

.. math::

    V(a, d) = \\max\\Bigl(u(a, d),\\; \\max_{c} \\sum_{i} p_{c,e}(i)\\,
              V\\bigl(a - i, d - (\\min(c, e) - i)\\bigr)\\Bigr),

and since every roll removes an army the states can be solved in order of
``a + d`` (backward induction), no iteration needed.  In the two-sided
version both players announce their dice at the same time (1993 rules), so
each state is a small zero-sum matrix game (rows: the attacker's dice or
"stop"; columns: the defender's dice), solved exactly, mixed strategies
included.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import USE_FLOATS, capped, check_cost, check_int, is_sequence, shown
from riskmath.errors import InvalidArgumentError, ResourceLimitError
from riskmath.odds._sweeps import Kernel, kernel, unit_interval
from riskmath.odds.dice import CombatRules, resolve_rules

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "OBJECTIVES",
    "SUPPORT_PAIRS",
    "Policy",
    "optimal_policy",
    "solve_game",
    "solve_matrix_game",
    "support_pairs",
]

Number = Any  # float or Fraction: the code below is written for both

#: Named objectives of :func:`optimal_policy`.
OBJECTIVES = ("win", "win_with")

STOP = "stop"


def solve_matrix_game(
    payoff: Sequence[Sequence[Number]], *, tolerance: float = 0
) -> tuple[Number, tuple[Number, ...], tuple[Number, ...]]:
    """Value and optimal mixed strategies of a zero-sum matrix game.

    The row player maximizes ``x^T M y``, the column player minimizes it.
    A pure saddle point is found first.  Otherwise a small game is solved
    by support enumeration (Shapley-Snow): for each pair of equal-size row
    and column supports, the equalizing strategies are computed and kept if
    they are feasible and optimal.  Its cost grows exponentially with the
    size, so a game with more than ``SUPPORT_PAIRS`` (500) pairs of supports
    (from about 7 x 6 up) is solved as a linear programme instead, by the
    simplex method with Bland's rule, whose cost is polynomial in practice
    (a 12 x 12 game takes milliseconds).  Exact with Fractions (and integers,
    taken as Fractions); for floats, ``tolerance`` absorbs round-off in the
    checks of the first two methods, and the simplex's results are optimal
    to round-off.  A float table is solved scaled to entries of at most 1 in
    size (the value scaled back, ``tolerance`` with it), so that payoffs of
    any magnitude are solved alike.  Float strategies are probabilities: in
    [0, 1], summing to 1.

    Parameters
    ----------
    payoff : sequence of sequences, or a 2-d NumPy array
        ``payoff[r][c]``: the row player's gain, a finite real number.
    tolerance : float, default 0
        Slack for the optimality checks, finite and ``>= 0``; keep the
        integer 0 for Fractions (a float is taken exactly, as a Fraction).

    Returns
    -------
    (value, row_strategy, column_strategy)

    Raises
    ------
    InvalidArgumentError
        If ``payoff`` is not a non-empty rectangular table of finite real
        numbers (the message names the first bad entry), or ``tolerance`` is
        not a finite number ``>= 0``.
    ResourceLimitError
        If the game is too large for the limits of :func:`riskmath.set_limits`.

    Examples
    --------
    Matching pennies:

    >>> solve_matrix_game([[Fraction(1), Fraction(-1)], [Fraction(-1), Fraction(1)]])
    (Fraction(0, 1), (Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    """
    table, exact = _checked_payoff(payoff)
    slack = _checked_tolerance(tolerance, exact)
    scale = max(abs(v) for row in table for v in row) if not exact else 0
    if not exact and scale > 0 and scale != 1.0:
        # Floats are solved on the table scaled to at most 1 in size: the methods' own cut-offs (a pivot taken
        # as 0, the simplex's shift) are absolute, and a game of payoffs near 1e-13 fell under them.  The
        # strategies do not change with the scale, and the value scales with it.
        value, rows, columns = solve_game([[v / scale for v in row] for row in table], slack / scale, exact)
        return value * scale, rows, columns
    return solve_game(table, slack, exact)


def solve_game(
    payoff: list[list[Number]], tolerance: Number, exact: bool
) -> tuple[Number, tuple[Number, ...], tuple[Number, ...]]:
    """:func:`solve_matrix_game` of a checked table (all Fractions if ``exact``, else all floats; layer-internal)."""
    m, n = len(payoff), len(payoff[0])
    # A pure saddle point settles most states at once.
    lower = [min(row) for row in payoff]
    upper = [max(payoff[r][c] for r in range(m)) for c in range(n)]
    # The first row (column) within the tolerance of the best: ties keep the earlier one.
    best_lower, best_upper = max(lower), min(upper)
    r_best = next(r for r in range(m) if lower[r] >= best_lower - tolerance)
    c_best = next(c for c in range(n) if upper[c] <= best_upper + tolerance)
    if upper[c_best] - lower[r_best] <= 2 * tolerance:
        return lower[r_best], _unit(m, r_best, payoff), _unit(n, c_best, payoff)
    if support_pairs(m, n) <= SUPPORT_PAIRS:
        found = _enumerate_supports(payoff, tolerance)
        if found is not None:
            return found
    return _simplex(payoff, exact)


#: Games with more pairs of equal-size supports than this are solved by the simplex method (see
#: :func:`solve_matrix_game`): 431 for 6 x 5, 1,715 for 7 x 6, 2.7 million for 12 x 12.
SUPPORT_PAIRS = 500


def support_pairs(rows: int, columns: int) -> int:
    """Pairs of equal-size supports of two or more strategies: what support enumeration tries at most."""
    total = 0
    for size in range(2, min(rows, columns) + 1):
        total += math.comb(rows, size) * math.comb(columns, size)
        if total > SUPPORT_PAIRS:
            break  # enough to know
    return total


def _checked_payoff(payoff: object) -> tuple[list[list[Number]], bool]:
    """The payoff table as lists, all Fractions (every entry rational) or all floats; and whether exact."""
    if getattr(payoff, "ndim", None) == 2 and hasattr(payoff, "tolist"):
        payoff = payoff.tolist()
    if not is_sequence(payoff) or not len(payoff):
        raise InvalidArgumentError(f"payoff must be a non-empty table of numbers (rows), got {shown(payoff)}")
    rows: list[Sequence[object]] = []
    for r, row in enumerate(payoff):
        if not is_sequence(row) or not len(row):
            raise InvalidArgumentError(f"payoff[{r}] must be a non-empty row of numbers, got {shown(row)}")
        if len(row) != len(payoff[0]):
            raise InvalidArgumentError(
                f"payoff must be rectangular: payoff[{r}] has {len(row)} entries, payoff[0] has {len(payoff[0])}"
            )
        rows.append(row)
    m, n = len(rows), len(rows[0])

    def cost(exact: bool) -> None:
        check_cost(
            lambda: f"solve_matrix_game of a {m} x {n} game{'' if exact else ' of floats'}",
            memory=(200.0 if exact else 40.0) * (m + 1) * (m + n + 1),
            seconds=_simplex_seconds(m, n, exact) + 1e-6 * m * n,
        )

    cost(False)  # before the entries are read one by one: the cheaper kind of game, by its size alone
    exact = True
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not _finite(value):
                raise InvalidArgumentError(f"payoff[{r}][{c}] must be a finite real number, got {shown(value)}")
            exact = exact and isinstance(value, numbers.Rational)
    if exact:
        cost(True)
    if exact:
        return [[_fraction(v) for v in row] for row in rows], True
    table: list[list[Number]] = []
    for r, row in enumerate(rows):
        table.append([])
        for c, value in enumerate(row):
            try:
                table[-1].append(float(value))  # type: ignore[arg-type]
            except OverflowError:  # an integer beyond the floats, in a game of floats
                raise InvalidArgumentError(
                    f"payoff[{r}][{c}] is too large for a game of floats, got {shown(value)}"
                ) from None
    return table, False


def _fraction(value: Any) -> Fraction:
    """A real number as an exact Fraction (a float exactly, a NumPy integer as a Python one)."""
    if isinstance(value, numbers.Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    return Fraction(float(value))


def _finite(value: numbers.Real) -> bool:
    """Whether a real number is finite (a rational always is, however large: no float conversion)."""
    return isinstance(value, numbers.Rational) or math.isfinite(value)


def _fits_float(value: numbers.Real) -> bool:
    """Whether a finite real number converts to a finite float (a huge integer or Fraction does not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _checked_tolerance(tolerance: object, exact: bool) -> Number:
    """``tolerance``: a finite real ``>= 0``; exact (an int or a Fraction) for an exact game."""
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, numbers.Real)
        or not _finite(tolerance)
        or tolerance < 0
    ):
        raise InvalidArgumentError(f"tolerance must be a finite number >= 0, got {shown(tolerance)}")
    if exact:
        return 0 if tolerance == 0 else _fraction(tolerance)
    try:
        return float(tolerance)
    except OverflowError:
        raise InvalidArgumentError(f"tolerance is too large for a game of floats, got {shown(tolerance)}") from None


def _enumerate_supports(
    payoff: list[list[Number]], tolerance: Number
) -> tuple[Number, tuple[Number, ...], tuple[Number, ...]] | None:
    """Support enumeration (Shapley-Snow), smallest supports first; None if round-off hid every equilibrium."""
    m, n = len(payoff), len(payoff[0])
    for size in range(2, min(m, n) + 1):
        for rows in itertools.combinations(range(m), size):
            for cols in itertools.combinations(range(n), size):
                solved = _equalize(payoff, rows, cols)
                if solved is None:
                    continue
                value, x, y = solved
                row_mix = [0 * value] * m
                col_mix = [0 * value] * n
                for r, p in zip(rows, x, strict=True):
                    row_mix[r] = p
                for c, q in zip(cols, y, strict=True):
                    col_mix[c] = q
                if all(sum(row_mix[r] * payoff[r][c] for r in range(m)) >= value - tolerance for c in range(n)) and all(
                    sum(col_mix[c] * payoff[r][c] for c in range(n)) <= value + tolerance for r in range(m)
                ):
                    return value, tuple(row_mix), tuple(col_mix)
    return None


#: Seconds per entry of the simplex tableau per pivot (floats in NumPy; Fractions, whose sizes grow: measured, a
#: 40 x 40 game of small integers takes about 8 s, a 200 x 200 game of floats about 4 s), and the
#: pivots estimated: about twice the rows and columns; Bland's rule never cycles, and a game still unsolved after
#: many times that many pivots is refused rather than left to run.
_PIVOT_FLOAT = 6e-8
_PIVOT_EXACT = 3e-6


def _simplex_seconds(m: int, n: int, exact: bool) -> float:
    per_entry = _PIVOT_EXACT * (1 + (m + n) / 20) if exact else _PIVOT_FLOAT  # Fractions grow with the game
    return 2.0 * (m + n) * (m + 1) * (m + n + 1) * per_entry


def _simplex(payoff: list[list[Number]], exact: bool) -> tuple[Number, tuple[Number, ...], tuple[Number, ...]]:
    """The game as the linear programme ``max 1.w  s.t.  M' w <= 1, w >= 0``, by the simplex method (Bland's rule).

    ``M'`` is the payoff shifted to entries >= 1 (and, for floats, scaled to at most 1), so that its value
    ``v'`` is positive; then ``v' = 1 / sum(w)``, the column strategy is ``w v'`` and the row strategy the
    duals (the objective row under the slack columns) times ``v'``.
    """
    m, n = len(payoff), len(payoff[0])
    low = min(min(row) for row in payoff)
    shift = 1 - low
    table = np.array(payoff, dtype=object if exact else float) + shift
    scale = table.max() if not exact else 1
    if not exact:
        table = table / scale
    one = Fraction(1) if exact else 1.0
    tableau = np.zeros((m + 1, n + m + 1), dtype=object if exact else float)
    if exact:
        tableau[:] = Fraction(0)
    tableau[:m, :n] = table
    for i in range(m):
        tableau[i, n + i] = one
        tableau[i, -1] = one
    tableau[m, :n] = -one
    eps = 0 if exact else 1e-12
    basis = list(range(n, n + m))
    for _ in range(50 * (m + n) + 100):
        entering = np.nonzero(tableau[m, :-1] < -eps)[0]
        if not entering.size:
            break
        j = int(entering[0])  # Bland: the first improving column
        leaving = _leaving_row(tableau[:m], j, basis, eps)
        pivot_row = tableau[leaving] / tableau[leaving, j]
        tableau -= np.outer(tableau[:, j], pivot_row)  # every row, the pivot's too (to zero) ...
        tableau[leaving] = pivot_row  # ... which is then put back
        basis[leaving] = j
    else:
        pivots = 50 * (m + n) + 100
        raise ResourceLimitError(f"solve_matrix_game of a {m} x {n} game did not converge in {pivots} pivots")
    w = [one * 0] * n
    for i, b in enumerate(basis):
        if b < n:
            w[b] = tableau[i, -1]
    duals = [tableau[m, n + i] for i in range(m)]
    total = sum(w)
    value_shifted = one / total
    x = [u * value_shifted for u in duals]
    y = [v * value_shifted for v in w]
    if exact:
        return value_shifted - shift, tuple(x), tuple(y)
    return float(value_shifted * scale - shift), _distribution(x), _distribution(y)


def _leaving_row(rows: np.ndarray, j: int, basis: list[int], eps: float) -> int:
    """Bland's ratio test: the row of least ``rhs / entry`` over positive entries of column ``j``, ties to the
    row whose basic variable comes first.  There is one: every entry of the shifted payoff is positive."""
    leaving, best = -1, None
    for i in range(rows.shape[0]):
        if rows[i, j] > eps:
            ratio = rows[i, -1] / rows[i, j]
            if best is None or ratio < best or (ratio == best and basis[i] < basis[leaving]):
                leaving, best = i, ratio
    return leaving


def _distribution(weights: list[Any]) -> tuple[float, ...]:
    """Float weights as probabilities: round-off below 0 clipped, then normalised to sum 1."""
    clipped = [max(float(w), 0.0) for w in weights]
    total = math.fsum(clipped)
    return tuple(w / total for w in clipped)


def _unit(n: int, k: int, payoff: Sequence[Sequence[Number]]) -> tuple[Number, ...]:
    one = payoff[0][0] * 0 + 1
    return tuple(one if i == k else one * 0 for i in range(n))


def _equalize(
    payoff: Sequence[Sequence[Number]], rows: Sequence[int], cols: Sequence[int]
) -> tuple[Number, list[Number], list[Number]] | None:
    """Strategies on the supports making the opponent indifferent, or None."""
    k = len(rows)
    sub = [[payoff[r][c] for c in cols] for r in rows]
    # Column player's y: sub @ y = v 1, sum y = 1.  Row player's x: x @ sub = v 1, sum x = 1.
    y = _solve([[*sub[i], -1] for i in range(k)] + [[1] * k + [0]], [0] * k + [1])
    x = _solve([[*(sub[i][j] for i in range(k)), -1] for j in range(k)] + [[1] * k + [0]], [0] * k + [1])
    if x is None or y is None:
        return None
    if any(p < 0 for p in x[:k]) or any(q < 0 for q in y[:k]):
        return None
    return x[k], x[:k], y[:k]


def _solve(matrix: list[list[Number]], rhs: list[Number]) -> list[Number] | None:
    """Gaussian elimination with partial pivoting; None if singular."""
    n = len(matrix)
    a = [[*row, b] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        size = abs(a[pivot][col])
        if size == 0 or (isinstance(size, float) and size < 1e-14):  # singular (exactly, or to round-off)
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                factor = a[r][col] / a[col][col]
                a[r] = [u - factor * v for u, v in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


class _Win:
    """The utility of ``"win"`` (``min_left`` 0) and ``"win_with"``: 1 for a conquest with at least ``min_left``
    armies able to attack left, else 0 (a class, not a closure, so that a Policy pickles)."""

    __slots__ = ("min_left", "one", "zero")

    def __init__(self, min_left: int, exact: bool) -> None:
        self.min_left = min_left
        self.one: Number = Fraction(1) if exact else 1.0
        self.zero: Number = 0 * self.one

    def __call__(self, a: int, d: int) -> Number:
        return self.one if d == 0 and a >= self.min_left else self.zero

    def __getstate__(self) -> tuple[int, Number, Number]:
        return self.min_left, self.one, self.zero

    def __setstate__(self, state: tuple[int, Number, Number]) -> None:
        self.min_left, self.one, self.zero = state


def _utility(objective: str | Callable[[int, int], Number], min_left: int, exact: bool) -> Callable[[int, int], Any]:
    if callable(objective):
        return objective
    if objective == "win":
        return _Win(0, exact)
    if objective == "win_with":
        return _Win(min_left, exact)
    raise InvalidArgumentError(
        f"objective must be one of {', '.join(map(repr, OBJECTIVES))} or a function u(a, d), got {shown(objective)}"
    )


class Policy:
    """An optimal attack policy and its value; build it with :func:`optimal_policy`.

    Attributes
    ----------
    attackers, defenders : int
        The largest state solved (every smaller state is solved too).
    value : float or Fraction
        The optimal value from ``(attackers, defenders)``.
    max_dice_value : float or Fraction
        The value of the plain battle: both sides always throw their maximum
        dice and the attacker never stops.
    tolerance : float
        In floats, how close two values must be to count as a tie (ties keep
        the maximum dice), relative to the objective's scale: the tie
        threshold is ``tolerance`` times the largest ``|u(a, d)|`` of the
        states solved (1 for ``"win"`` and ``"win_with"``), so that a custom
        objective gives the same policy at any scale (``u`` and ``1e-15 * u``
        alike).  Mixed strategies' weights at or below ``tolerance`` are
        dropped.  0 with ``exact=True``.

    Examples
    --------
    >>> policy = Policy(5, 3)
    >>> policy
    Policy(5, 3, objective='win', two_sided=False)
    >>> round(policy.value, 4), round(policy.max_dice_value, 4), policy.action(5, 3)
    (0.7694, 0.7694, {3: 1})
    """

    def __init__(
        self,
        attackers: int,
        defenders: int,
        *,
        objective: str | Callable[[int, int], Number] = "win",
        min_left: int | None = None,
        allow_stop: bool = True,
        two_sided: bool = False,
        exact: bool = False,
        rules: object = None,
        tolerance: float = 1e-12,
    ) -> None:
        self.attackers = check_int("attackers", attackers, minimum=1)
        self.defenders = check_int("defenders", defenders, minimum=1)
        if min_left is not None and not (isinstance(objective, str) and objective == "win_with"):
            raise InvalidArgumentError(
                f"min_left={shown(min_left)} is the threshold of objective='win_with' and means nothing to "
                f"objective={shown(objective)}: pass objective='win_with' (or leave min_left out)"
            )
        self.min_left = 1 if min_left is None else check_int("min_left", min_left, minimum=0)
        for name, flag in (("allow_stop", allow_stop), ("two_sided", two_sided), ("exact", exact)):
            if not isinstance(flag, bool):
                raise InvalidArgumentError(f"{name} must be True or False, got {shown(flag)}")
        self.objective = objective
        self.allow_stop, self.two_sided, self.exact = allow_stop, two_sided, exact
        checked = float(_checked_tolerance(tolerance, False))  # a finite number >= 0, whatever ``exact``
        self.tolerance: float = 0 if exact else checked  # an int 0 keeps Fractions exact
        self.rules: CombatRules = resolve_rules(rules)
        A, D = capped(self.attackers, self.defenders)
        states = A * D
        # Measured per state (bench figures in the report on issue 11), rounded up; with many dice a two-sided
        # state's game is solved by the simplex method (see solve_matrix_game).
        per_state = 6e-5 if not exact else 3.5e-4 * (1 + (A + D) / 400)
        rows, columns = self.rules.attacker_max_dice + 1, self.rules.defender_max_dice
        if two_sided and support_pairs(rows, columns) > SUPPORT_PAIRS:
            per_state += _simplex_seconds(rows, columns, exact)
        check_cost(
            lambda: (
                f"optimal_policy(attackers={shown(self.attackers)}, defenders={shown(self.defenders)}"
                f"{', two_sided=True' if two_sided else ''}{', exact=True' if exact else ''}): "
                f"{shown(self.attackers * self.defenders)} states"
            ),
            memory=states * (900.0 if not exact else 900.0 + 4 * (A + D)),
            seconds=states * per_state * (2 if two_sided else 1),
            hint=USE_FLOATS if exact else "",
        )
        self._u = _utility(objective, self.min_left, exact)
        kern = kernel(self.rules)
        self._solve(kern)

    def _roll_value(self, kern: Kernel, values: list[list[Number]], a: int, d: int, c: int, e: int) -> Number:
        pairs = min(c, e)
        if self.exact:
            return sum(p * values[a - i][d - pairs + i] for i, p in enumerate(kern.exact[c][e]))
        return float(sum(p * values[a - i][d - pairs + i] for i, p in enumerate(kern.prob[c][e])))

    def _solve(self, kern: Kernel) -> None:
        A, D, u, tolerance = self.attackers, self.defenders, self._u, self.tolerance
        ma, md = kern.max_a, kern.max_d
        value: list[list[Number]] = [[u(a, d) for d in range(D + 1)] for a in range(A + 1)]
        if callable(self.objective):  # a user's function: its values must be numbers the sums can use
            for a, row in enumerate(value):
                for d, v in enumerate(row):
                    if not isinstance(v, numbers.Real) or not _finite(v):
                        raise InvalidArgumentError(
                            f"objective({a}, {d}) must return a finite real number, got {shown(v)}"
                        )
                    if not self.exact and not _fits_float(v):
                        raise InvalidArgumentError(
                            f"objective({a}, {d}) returned {shown(v)}, beyond the range of a float "
                            "(exact=True takes any rational number)"
                        )
        # Every value is an expectation of u over final states, so the largest |u| is the scale of them all:
        # ties are judged relative to it (a custom objective near 1e-15, or 1e20, plays as one near 1).
        scale = max((abs(v) for row in value for v in row), default=0) if tolerance else 0
        tol = tolerance * float(scale) if scale else tolerance
        plain: list[list[Number]] = [row[:] for row in value]
        self._attacker: dict[tuple[int, int], dict[Any, Number]] = {}
        self._defender: dict[tuple[int, int], dict[int, Number]] = {}
        for s in range(2, A + D + 1):
            for a in range(max(1, s - D), min(A, s - 1) + 1):
                d = s - a
                c_max, e_max = min(ma, a), min(md, d)
                plain[a][d] = self._roll_value(kern, plain, a, d, c_max, e_max)
                actions: list[Any] = list(range(c_max, 0, -1))  # max dice first: ties keep it
                defenses = list(range(e_max, 0, -1)) if self.two_sided else [e_max]
                payoff = [[self._roll_value(kern, value, a, d, c, e) for e in defenses] for c in actions]
                if self.allow_stop:
                    actions.append(STOP)
                    payoff.append([u(a, d)] * len(defenses))
                if len(defenses) == 1:
                    column = [row[0] for row in payoff]
                    best = column[0]
                    choice = 0
                    for i, v in enumerate(column[1:], start=1):
                        if v > best + tol:
                            best, choice = v, i
                    value[a][d] = best
                    self._attacker[(a, d)] = {actions[choice]: 1}
                    self._defender[(a, d)] = {e_max: 1}
                else:
                    game_value, x, y = solve_game(payoff, tol, self.exact)
                    value[a][d] = game_value
                    # (probabilities: their tolerance is not scaled)
                    self._attacker[(a, d)] = {act: p for act, p in zip(actions, x, strict=True) if p > tolerance}
                    self._defender[(a, d)] = {e: q for e, q in zip(defenses, y, strict=True) if q > tolerance}
        self._value, self._plain = value, plain

    def __repr__(self) -> str:
        name = self.objective if isinstance(self.objective, str) else "custom"
        options = [f"objective={name!r}"]
        if name == "win_with":
            options.append(f"min_left={self.min_left}")
        options.append(f"two_sided={self.two_sided}")
        if not self.allow_stop:
            options.append("allow_stop=False")
        if self.exact:
            options.append("exact=True")
        if self.rules != CombatRules():
            options.append(f"rules={self.rules!r}")
        return f"Policy({self.attackers}, {self.defenders}, {', '.join(options)})"

    @property
    def value(self) -> Number:
        """Optimal value from the largest state."""
        return self._shown(self._value[self.attackers][self.defenders])

    @property
    def max_dice_value(self) -> Number:
        """Value from the largest state when both sides always throw maximum dice."""
        return self._shown(self._plain[self.attackers][self.defenders])

    def _shown(self, value: Number) -> Number:
        """A value as reported: a probability (the named objectives) clipped to [0, 1] against round-off."""
        return value if callable(self.objective) else unit_interval(value)

    def action(self, attackers: int, defenders: int) -> dict[Any, Number]:
        """The attacker's optimal action at a state: ``{dice or "stop": probability}``."""
        return dict(self._attacker[self._state(attackers, defenders)])

    def defence(self, attackers: int, defenders: int) -> dict[int, Number]:
        """The defender's optimal dice at a state: ``{dice: probability}``."""
        return dict(self._defender[self._state(attackers, defenders)])

    def _state(self, attackers: int, defenders: int) -> tuple[int, int]:
        """A solved state ``(attackers, defenders)``, checked."""
        a = check_int("attackers", attackers, minimum=1, maximum=self.attackers)
        d = check_int("defenders", defenders, minimum=1, maximum=self.defenders)
        return a, d

    #: The same method as :meth:`defence`, spelled the US way (the project's spelling).
    defense = defence

    @cached_property
    def _table(self) -> pd.DataFrame:
        import pandas as pd

        rows = []
        index = []
        for (a, d), strategy in sorted(self._attacker.items()):
            defense = self._defender[(a, d)]
            pure = len(strategy) == 1
            rows.append(
                {
                    "action": next(iter(strategy)) if pure else "mixed",
                    "attacker_strategy": strategy,
                    "defender_dice": next(iter(defense)) if len(defense) == 1 else "mixed",
                    "defender_strategy": defense,
                    "value": self._shown(self._value[a][d]),
                    "max_dice_value": self._shown(self._plain[a][d]),
                    "max_dice": min(self.rules.attacker_max_dice, a),
                }
            )
            index.append((a, d))
        table = pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["attackers", "defenders"]))
        table["gain"] = table["value"] - table["max_dice_value"]
        return table

    def table(self) -> pd.DataFrame:
        """Every state ``1..attackers x 1..defenders`` with its optimal play.

        Columns: ``action`` (the attacker's dice, ``"stop"`` or ``"mixed"``),
        ``attacker_strategy`` (``{action: probability}``), ``defender_dice``
        and ``defender_strategy``, ``value``, ``max_dice_value`` (always
        maximum dice, never stopping), ``max_dice`` and ``gain``
        (``value - max_dice_value``).
        """
        return self._table.copy()

    def deviations(self) -> pd.DataFrame:
        """The states where the attacker's optimal play is not "maximum dice".

        These are the states where throwing fewer dice (or stopping, or
        mixing) is strictly better than the maximum, by more than the
        tolerance (ties keep the maximum).
        """
        table = self._table
        return table[table["action"] != table["max_dice"]].copy()

    def defender_deviations(self) -> pd.DataFrame:
        """The states where the defender's optimal play is not its maximum dice (two-sided only)."""
        table = self._table
        max_defense = [min(self.rules.defender_max_dice, d) for _, d in table.index]
        return table[table["defender_dice"] != max_defense].copy()


def optimal_policy(
    attackers: int,
    defenders: int,
    objective: str | Callable[[int, int], Number] = "win",
    *,
    min_left: int | None = None,
    allow_stop: bool = True,
    two_sided: bool = False,
    exact: bool = False,
    rules: object = None,
) -> Policy:
    """The attacker's best dice choices (and stops) for every state up to a start state.

    Parameters
    ----------
    attackers, defenders : int
        The start state; every smaller state is solved too.
    objective : "win", "win_with" or callable, default "win"
        ``"win"``: maximize P(conquest).  ``"win_with"``: maximize P(conquest
        with at least ``min_left`` armies able to attack).  A function
        ``u(a, d)``: maximize the expected value of ``u`` at the final state
        (``d == 0`` is a conquest; stopping at ``(a, d)`` ends there).
    min_left : int, optional
        Threshold of ``"win_with"`` (1 if left out); refused with another
        objective, which it would not change.
    allow_stop : bool, default True
        Whether the attacker may break off the battle.
    two_sided : bool, default False
        Let the defender choose its dice too (simultaneously, as in the 1993
        rules): each state becomes a zero-sum matrix game, solved exactly.
    exact : bool, default False
        Solve in Fractions (ties are then exact; in floats, values within
        1e-12 of each other, relative to the objective's largest ``|u|``,
        count as ties, and ties keep the maximum dice).
    rules : CombatRules, optional
        Combat variant.

    Returns
    -------
    Policy
        ``value``, ``max_dice_value``, ``table()``, ``deviations()``,
        ``action(a, d)``, and for ``two_sided`` ``defense(a, d)`` and
        ``defender_deviations()``.

    Examples
    --------
    For P(conquest) maximum dice is always best:

    >>> policy = optimal_policy(12, 12)
    >>> policy.value == policy.max_dice_value, len(policy.deviations())
    (True, 0)

    If falling below 3 armies able to attack costs as much as the conquest
    gains, one die pays at 4 attackers (it risks one army, three dice two):

    >>> policy = optimal_policy(10, 10, lambda a, d: (d == 0) - (a < 3), exact=True)
    >>> policy.action(4, 5), policy.action(10, 10), policy.action(3, 5)
    ({1: 1}, {3: 1}, {'stop': 1})
    """
    return Policy(
        attackers,
        defenders,
        objective=objective,
        min_left=min_left,
        allow_stop=allow_stop,
        two_sided=two_sided,
        exact=exact,
        rules=rules,
    )
