"""Whole battles as absorbing Markov chains.

A battle between ``attackers`` armies able to attack (the attacking territory
holds one more, which never fights) and ``defenders`` armies is the Markov
chain on states ``(a, d)`` described in :mod:`riskmath.odds.dice`: each roll
removes ``min(dice_a, dice_d)`` armies.  The attacker stops when its armies
able to attack fall to ``stop_at`` or fewer (``stop_at=0``: fight to the
last); the defender is beaten when ``d`` reaches 0.

:func:`battle` returns a :class:`Battle` holding the exact distribution of
the final state.  :func:`battle_statistics` evaluates statistics for every
start state of a grid in one sweep (it backs :func:`riskmath.odds_table`).
The sparse matrix view of the same chain is :class:`riskmath.BattleChain`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import check_choice, check_int
from riskmath.errors import InvalidArgumentError, UndefinedStatisticError
from riskmath.odds._sweeps import backward_exact, backward_float, forward_exact, forward_float, kernel
from riskmath.odds.dice import CombatRules, resolve_rules

if TYPE_CHECKING:
    import pandas as pd

    from riskmath.odds.matrix import BattleChain

__all__ = ["STATISTICS", "Battle", "battle", "battle_statistics"]

Number = float | Fraction

#: Statistics that :func:`battle_statistics` and :func:`riskmath.odds_table` know.
STATISTICS = (
    "win_probability",
    "expected_attackers_left",
    "expected_defenders_left",
    "expected_attacker_losses",
    "expected_defender_losses",
    "std_attacker_losses",
    "std_defender_losses",
    "expected_attackers_left_if_won",
    "expected_rolls",
)


class Battle:
    """One battle fought to the end, as an absorbing Markov chain.

    Build it with :func:`battle` (same arguments).  The final-state
    distribution is computed once, on construction; every statistic is
    derived from it lazily and cached.

    Parameters
    ----------
    attackers : int
        Armies able to attack, ``>= 0``; the attacking territory holds
        ``attackers + 1``.
    defenders : int
        Defending armies, ``>= 1``.
    stop_at : int, default 0
        The attacker stops when its armies able to attack fall to ``stop_at``
        or fewer.  If ``attackers <= stop_at`` no die is rolled.
    exact : bool, default False
        Return :class:`~fractions.Fraction` values instead of floats.
    rules : CombatRules or object with ``.combat``, optional
        Combat variant; the classic 1993 rules by default.

    Notes
    -----
    Float results agree with the exact ones to about 1e-13.  A probability
    below the smallest float64 (about 1e-308) underflows to 0; the conditional
    statistic :attr:`expected_attackers_left_if_won` then raises
    :class:`UndefinedStatisticError` instead of dividing 0 by 0 (use
    ``exact=True``).

    Examples
    --------
    >>> b = Battle(5, 3)
    >>> b
    Battle(5, 3)
    >>> round(b.win_probability, 4), round(b.expected_attackers_left, 4)
    (0.7694, 2.8206)
    >>> round(Battle(5, 3, stop_at=2).win_probability, 4)
    0.6279
    """

    def __init__(
        self,
        attackers: int,
        defenders: int,
        *,
        stop_at: int = 0,
        exact: bool = False,
        rules: object = None,
    ) -> None:
        self._attackers = check_int("attackers", attackers, minimum=0)
        self._defenders = check_int("defenders", defenders, minimum=1)
        self._stop_at = check_int("stop_at", stop_at, minimum=0)
        if not isinstance(exact, bool):
            raise InvalidArgumentError(f"exact must be True or False, got {exact!r}")
        self._exact = exact
        self._rules = resolve_rules(rules)
        kern = kernel(self._rules)
        A, D, k = self._attackers, self._defenders, self._stop_at
        if exact:
            win, stop, rolls = forward_exact(A, D, k, kern)
            self._win: Sequence[Number] = win
            self._stop: Sequence[Sequence[Number]] = stop
            self._rolls: Number = rolls
        else:
            win_f, stop_f, rolls_f = forward_float(A, D, k, kern)
            self._win, self._stop, self._rolls = win_f.tolist(), stop_f.tolist(), rolls_f

    # -- the inputs ---------------------------------------------------------
    @property
    def attackers(self) -> int:
        """Armies able to attack at the start (the territory holds one more)."""
        return self._attackers

    @property
    def defenders(self) -> int:
        """Defending armies at the start."""
        return self._defenders

    @property
    def stop_at(self) -> int:
        """Retreat threshold: the attacker stops at this many attackers or fewer."""
        return self._stop_at

    @property
    def exact(self) -> bool:
        """Whether results are Fractions."""
        return self._exact

    @property
    def rules(self) -> CombatRules:
        """The combat rules in force."""
        return self._rules

    def _repr_html_(self) -> str | None:
        """Rich display in notebooks (renderers in :mod:`riskmath.plots.notebook`)."""
        from riskmath._html import render

        return render(self)

    def __repr__(self) -> str:
        options = []
        if self._stop_at:
            options.append(f"stop_at={self._stop_at}")
        if self._exact:
            options.append("exact=True")
        if self._rules != CombatRules():
            options.append(f"rules={self._rules!r}")
        args = ", ".join([str(self._attackers), str(self._defenders), *options])
        return f"Battle({args})"

    # -- distributions ------------------------------------------------------
    @cached_property
    def _final_states(self) -> list[tuple[int, int, Number]]:
        """``(attackers_left, defenders_left, probability)``, positive only, sorted."""
        states = [(a, 0, p) for a, p in enumerate(self._win) if p > 0]
        states += [(a, d, p) for a, row in enumerate(self._stop) for d, p in enumerate(row) if p > 0]
        return sorted(states)

    @cached_property
    def outcomes(self) -> pd.Series:
        """Probability of each final state.

        A :class:`pandas.Series` indexed by ``(attackers, defenders)`` left at
        the end, sorted, summing to 1.  Wins are the states with
        ``defenders == 0``; the others are the states where the attacker
        stopped (``attackers <= stop_at``).  States of probability zero are
        left out.  Object dtype holding Fractions when ``exact``.
        """
        import pandas as pd

        index = pd.MultiIndex.from_tuples([(a, d) for a, d, _ in self._final_states], names=["attackers", "defenders"])
        values = [p for _, _, p in self._final_states]
        return pd.Series(values, index=index, name="probability", dtype=object if self._exact else float)

    def _marginal(self, axis: int, name: str) -> pd.Series:
        import pandas as pd

        totals: dict[int, Number] = {}
        for a, d, p in self._final_states:
            key = (a, d)[axis]
            totals[key] = totals.get(key, 0) + p
        keys = sorted(totals)
        return pd.Series(
            [totals[k] for k in keys],
            index=pd.Index(keys, name=name),
            name="probability",
            dtype=object if self._exact else float,
        )

    @cached_property
    def attackers_left_distribution(self) -> pd.Series:
        """Distribution of the attackers left at the end, indexed by that count."""
        return self._marginal(0, "attackers")

    @cached_property
    def defenders_left_distribution(self) -> pd.Series:
        """Distribution of the defenders left at the end, indexed by that count."""
        return self._marginal(1, "defenders")

    # -- statistics ---------------------------------------------------------
    def _expect(self, f: Any) -> Number:
        zero: Number = Fraction(0) if self._exact else 0.0
        return sum((p * f(a, d) for a, d, p in self._final_states), zero)

    @cached_property
    def win_probability(self) -> Number:
        """Probability that the defender is wiped out."""
        return self._expect(lambda a, d: 1 if d == 0 else 0)

    @cached_property
    def expected_attackers_left(self) -> Number:
        """Mean armies able to attack left at the end (won or stopped)."""
        return self._expect(lambda a, d: a)

    @cached_property
    def expected_defenders_left(self) -> Number:
        """Mean defending armies left at the end (0 when the attacker wins)."""
        return self._expect(lambda a, d: d)

    @cached_property
    def expected_attacker_losses(self) -> Number:
        """Mean armies the attacker loses."""
        return self._attackers - self.expected_attackers_left

    @cached_property
    def expected_defender_losses(self) -> Number:
        """Mean armies the defender loses."""
        return self._defenders - self.expected_defenders_left

    @cached_property
    def variance_attacker_losses(self) -> Number:
        """Variance of the attacker's losses (exact when ``exact``)."""
        mean = self.expected_attackers_left
        return self._expect(lambda a, d: (a - mean) ** 2)

    @cached_property
    def variance_defender_losses(self) -> Number:
        """Variance of the defender's losses (exact when ``exact``)."""
        mean = self.expected_defenders_left
        return self._expect(lambda a, d: (d - mean) ** 2)

    @cached_property
    def std_attacker_losses(self) -> float:
        """Standard deviation of the attacker's losses (a float even when ``exact``)."""
        return math.sqrt(self.variance_attacker_losses)

    @cached_property
    def std_defender_losses(self) -> float:
        """Standard deviation of the defender's losses (a float even when ``exact``)."""
        return math.sqrt(self.variance_defender_losses)

    @cached_property
    def expected_attackers_left_if_won(self) -> Number:
        """Mean attackers left, given that the attacker wins.

        Raises
        ------
        UndefinedStatisticError
            If the win probability is zero (or underflows float64).
        """
        win = self.win_probability
        if not win > 0:
            raise UndefinedStatisticError(
                f"expected_attackers_left_if_won is undefined for {self!r}: "
                f"the win probability is {win}" + ("" if self._exact else " in float64; try exact=True")
            )
        return self._expect(lambda a, d: a if d == 0 else 0) / win

    @cached_property
    def expected_rolls(self) -> Number:
        """Mean number of rolls until the battle ends."""
        return self._rolls

    def summary(self) -> pd.Series:
        """Every scalar statistic in one :class:`pandas.Series`.

        ``expected_attackers_left_if_won`` is left out when the battle cannot
        be won.
        """
        import pandas as pd

        names = [name for name in STATISTICS if name != "expected_attackers_left_if_won" or self.win_probability > 0]
        return pd.Series(
            {name: getattr(self, name) for name in names},
            name=repr(self),
            dtype=object if self._exact else float,
        )

    @cached_property
    def chain(self) -> BattleChain:
        """The same battle as an explicit sparse absorbing chain (Q and R)."""
        from riskmath.odds.matrix import BattleChain

        return BattleChain(self._attackers, self._defenders, stop_at=self._stop_at, rules=self._rules)


def battle(
    attackers: int,
    defenders: int,
    *,
    stop_at: int = 0,
    exact: bool = False,
    rules: object = None,
) -> Battle:
    """The whole battle of ``attackers`` against ``defenders`` as a :class:`Battle`.

    Parameters
    ----------
    attackers : int
        Armies able to attack (``>= 0``): the attacking territory holds
        ``attackers + 1``.  The attacker throws ``min(3, attackers)`` dice.
    defenders : int
        Defending armies (``>= 1``); they throw ``min(2, defenders)`` dice.
    stop_at : int, default 0
        Retreat threshold: the attacker stops once its armies able to attack
        are ``stop_at`` or fewer; those stop states appear in ``outcomes``.
    exact : bool, default False
        Fractions instead of floats.
    rules : CombatRules, optional
        Combat variant (dice maxima, sides, ties); classic 1993 by default.

    Returns
    -------
    Battle

    Raises
    ------
    InvalidArgumentError
        If an army count is negative or not an integer, or ``defenders`` is 0.

    Notes
    -----
    The distribution of the final state is computed in ``O(A * D)``
    operations, vectorised over anti-diagonals ``a + d = const`` (every roll
    in which both sides throw their maximum dice removes the same number of
    armies); see :doc:`/theory`.  A 1000 v 1000 battle takes a few
    milliseconds.

    Examples
    --------
    >>> b = battle(10, 10)
    >>> round(b.win_probability, 4)
    0.5676
    >>> round(float(b.outcomes.sum()), 12)
    1.0
    >>> battle(3, 2, exact=True).win_probability
    Fraction(6610505, 10077696)
    """
    return Battle(attackers, defenders, stop_at=stop_at, exact=exact, rules=rules)


# -- statistics over a grid of start states ---------------------------------

# The moments each statistic needs.  A moment is E[f(final state)] (+ a count
# of rolls); "a" and "d" are the armies left at the end.
_MOMENTS = ("win", "a", "a2", "d", "d2", "a_win", "rolls")
_NEEDS = {
    "win_probability": ("win",),
    "expected_attackers_left": ("a",),
    "expected_defenders_left": ("d",),
    "expected_attacker_losses": ("a",),
    "expected_defender_losses": ("d",),
    "std_attacker_losses": ("a", "a2"),
    "std_defender_losses": ("d", "d2"),
    "expected_attackers_left_if_won": ("win", "a_win"),
    "expected_rolls": ("rolls",),
}


def _moment_boundary(moment: str, a: int, d: int, won: bool) -> int:
    return {
        "win": int(won),
        "a": a,
        "a2": a * a,
        "d": d,
        "d2": d * d,
        "a_win": a if won else 0,
        "rolls": 0,
    }[moment]


def battle_statistics(
    max_attackers: int,
    max_defenders: int,
    statistics: Sequence[str] = ("win_probability",),
    *,
    stop_at: int = 0,
    exact: bool = False,
    rules: object = None,
) -> dict[str, np.ndarray]:
    """Statistics of the battle from every start state of a grid, in one sweep.

    Parameters
    ----------
    max_attackers, max_defenders : int
        The grid is ``attackers = stop_at + 1 .. max_attackers`` by
        ``defenders = 1 .. max_defenders``.
    statistics : sequence of str
        Names from :data:`STATISTICS`.
    stop_at, exact, rules
        As for :func:`battle`.

    Returns
    -------
    dict of str to numpy.ndarray
        One array of shape ``(max_attackers - stop_at, max_defenders)`` per
        statistic (float64, or object holding Fractions when ``exact``;
        standard deviations are always float).

    Raises
    ------
    InvalidArgumentError
        For a bad size or an unknown statistic.
    UndefinedStatisticError
        If ``expected_attackers_left_if_won`` is asked for where the win
        probability underflows float64.

    Examples
    --------
    Row ``i`` is ``i + 1`` attackers, column ``j`` is ``j + 1`` defenders:

    >>> stats = battle_statistics(3, 2, ("win_probability", "expected_rolls"))
    >>> stats["win_probability"].round(4)
    array([[0.4167, 0.1061],
           [0.7542, 0.3627],
           [0.9164, 0.656 ]])
    >>> round(float(stats["expected_rolls"][2, 1]), 4)
    1.8443
    """
    k = check_int("stop_at", stop_at, minimum=0)
    A = check_int("max_attackers", max_attackers, minimum=k + 1)
    D = check_int("max_defenders", max_defenders, minimum=1)
    if isinstance(statistics, str):
        statistics = (statistics,)
    names = [check_choice("statistic", name, STATISTICS) for name in statistics]
    if not isinstance(exact, bool):
        raise InvalidArgumentError(f"exact must be True or False, got {exact!r}")
    kern = kernel(resolve_rules(rules))
    moments = [m for m in _MOMENTS if any(m in _NEEDS[name] for name in names)]
    win = [[_moment_boundary(m, a, 0, True) for m in moments] for a in range(A + 1)]
    stop = [[[_moment_boundary(m, a, d, False) for m in moments] for d in range(D + 1)] for a in range(k + 1)]
    cost = [1 if m == "rolls" else 0 for m in moments]
    if exact:
        table = backward_exact(A, D, k, kern, win, stop, cost)
        grid = np.empty((A - k, D, len(moments)), dtype=object)
        for a in range(k + 1, A + 1):
            for d in range(1, D + 1):
                grid[a - k - 1, d - 1] = table[a][d]
    else:
        values = backward_float(
            A, D, k, kern, np.array(win, float), np.array(stop, float).reshape(k + 1, D + 1, -1), np.array(cost, float)
        )
        grid = values[k + 1 :, 1:]
    moment = {m: grid[:, :, i] for i, m in enumerate(moments)}
    attackers = np.arange(k + 1, A + 1)[:, None]
    defenders = np.arange(1, D + 1)[None, :]
    result: dict[str, np.ndarray] = {}
    for name in names:
        if name == "win_probability":
            result[name] = moment["win"]
        elif name == "expected_attackers_left":
            result[name] = moment["a"]
        elif name == "expected_defenders_left":
            result[name] = moment["d"]
        elif name == "expected_attacker_losses":
            result[name] = attackers - moment["a"]
        elif name == "expected_defender_losses":
            result[name] = defenders - moment["d"]
        elif name == "std_attacker_losses":
            result[name] = _std(moment["a2"], moment["a"])
        elif name == "std_defender_losses":
            result[name] = _std(moment["d2"], moment["d"])
        elif name == "expected_attackers_left_if_won":
            win_p = moment["win"]
            if not np.all(win_p > 0):
                a, d = np.argwhere(~(win_p > 0))[0]
                raise UndefinedStatisticError(
                    f"expected_attackers_left_if_won is undefined at attackers={a + k + 1}, "
                    f"defenders={d + 1}: the win probability underflows float64; use exact=True "
                    "or a smaller grid"
                )
            result[name] = moment["a_win"] / win_p
        else:  # expected_rolls
            result[name] = moment["rolls"]
    return result


def _std(second: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Standard deviation from raw moments, as float (round-off clipped at 0)."""
    variance = np.asarray(second - first * first, dtype=float)
    std: np.ndarray = np.sqrt(np.maximum(variance, 0.0))
    return std
