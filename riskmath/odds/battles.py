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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar, cast, overload

import numpy as np

from riskmath._validation import USE_FLOATS, check_choice, check_cost, check_int, shown
from riskmath.errors import InvalidArgumentError, UndefinedStatisticError
from riskmath.odds._backward import backward_exact, backward_float
from riskmath.odds._battle_cache import CLASSIC, forget, held, lookup, remember
from riskmath.odds._sweeps import (
    PlainForward,
    backward_cost,
    conditioning_defined,
    exact_weighted_sum,
    forward_cost,
    forward_exact,
    forward_float,
    forward_small,
    kernel,
    prefer_small,
    unit_interval,
    unit_interval_array,
)
from riskmath.odds.dice import CombatRules, resolve_rules

if TYPE_CHECKING:
    import pandas as pd

    from riskmath.odds.matrix import BattleChain

__all__ = [
    "BATTLE_CACHE_BYTES",
    "STATISTICS",
    "Battle",
    "battle",
    "battle_cache_info",
    "battle_statistics",
    "clear_battle_cache",
]

Number = float | Fraction

# -- the statistics, defined once --------------------------------------------
#
# Every statistic is a function of expectations over the final state (a, d) of
# the battle ("a" and "d" being the armies left at the end).  The same
# definition serves a single battle, whose final distribution is known
# (:class:`_FinalMoments`), and a whole grid of start states, whose moments
# come from one backward sweep (:class:`_GridMoments`).

#: The functions of the final state ``(a, d)`` whose expectations the statistics use;
#: ``"rolls"`` is not one: it counts one per roll (see :func:`battle_statistics`).
#: Written with arithmetic only, so that they take NumPy arrays as well as ints (a bool times an int is an int).
_MOMENTS: dict[str, Callable[[Any, Any], Any]] = {
    "win": lambda a, d: (d == 0) * 1,
    "a": lambda a, d: a,
    "a2": lambda a, d: a * a,
    "d": lambda a, d: d,
    "d2": lambda a, d: d * d,
    "a_win": lambda a, d: a * (d == 0),
}
_ROLLS = "rolls"


class _Moments(Protocol):
    """What a statistic is computed from: expectations over the final state."""

    @property
    def attackers(self) -> Any:
        """Armies able to attack at the start (an int, or a column of the grid)."""

    @property
    def defenders(self) -> Any:
        """Defending armies at the start (an int, or a row of the grid)."""

    def mean(self, moment: str) -> Any:
        """``E[f(a, d)]`` for ``f = _MOMENTS[moment]``, or the expected rolls."""

    def variance(self, moment: str) -> Any:
        """``Var[f(a, d)]``."""

    def losses(self, side: str) -> Any:
        """Mean armies lost by ``side`` (``"a"`` or ``"d"``): the start less the mean left."""

    def sqrt(self, value: Any) -> Any:
        """Square root, as float."""

    def given_win(self, moment: str, statistic: str) -> Any:
        """``E[f(a, d) | the attacker wins]``, raising :class:`UndefinedStatisticError` where nobody wins."""


@dataclass(frozen=True)
class _Statistic:
    """One statistic: its docs, the moments the grid sweep needs for it, and how it follows from them."""

    doc: str
    needs: tuple[str, ...]
    compute: Callable[[_Moments], Any]
    tabulated: bool = True  # listed in STATISTICS: an attribute of Battle, a column of odds_table
    probability: bool = False  # a float value is clipped to [0, 1] (round-off; see riskmath.odds._sweeps)

    def value(self, moments: _Moments) -> Any:
        """The statistic from ``moments``: a number, or an array over a grid."""
        result = self.compute(moments)
        if self.probability:
            return unit_interval_array(result) if isinstance(result, np.ndarray) else unit_interval(result)
        return result


_IF_WON_DOC = """Mean attackers left, given that the attacker wins.

        Raises
        ------
        UndefinedStatisticError
            If the win probability is zero (or underflows float64).
        """

#: The battle statistics by name, in the order :meth:`Battle.summary` lists them.
_DEFINITIONS: dict[str, _Statistic] = {
    "win_probability": _Statistic(
        "Probability that the defender is wiped out.", ("win",), lambda m: m.mean("win"), probability=True
    ),
    "expected_attackers_left": _Statistic(
        "Mean armies able to attack left at the end (won or stopped).", ("a",), lambda m: m.mean("a")
    ),
    "expected_defenders_left": _Statistic(
        "Mean defending armies left at the end (0 when the attacker wins).", ("d",), lambda m: m.mean("d")
    ),
    "expected_attacker_losses": _Statistic("Mean armies the attacker loses.", ("a",), lambda m: m.losses("a")),
    "expected_defender_losses": _Statistic("Mean armies the defender loses.", ("d",), lambda m: m.losses("d")),
    "variance_attacker_losses": _Statistic(
        "Variance of the attacker's losses (exact when ``exact``).",
        ("a", "a2"),
        lambda m: m.variance("a"),
        tabulated=False,
    ),
    "variance_defender_losses": _Statistic(
        "Variance of the defender's losses (exact when ``exact``).",
        ("d", "d2"),
        lambda m: m.variance("d"),
        tabulated=False,
    ),
    "std_attacker_losses": _Statistic(
        "Standard deviation of the attacker's losses (a float even when ``exact``).",
        ("a", "a2"),
        lambda m: m.sqrt(m.variance("a")),
    ),
    "std_defender_losses": _Statistic(
        "Standard deviation of the defender's losses (a float even when ``exact``).",
        ("d", "d2"),
        lambda m: m.sqrt(m.variance("d")),
    ),
    "expected_attackers_left_if_won": _Statistic(
        _IF_WON_DOC, ("win", "a_win"), lambda m: m.given_win("a_win", "expected_attackers_left_if_won")
    ),
    "expected_rolls": _Statistic("Mean number of rolls until the battle ends.", (_ROLLS,), lambda m: m.mean(_ROLLS)),
}

#: Statistics that :class:`Battle`, :func:`battle_statistics` and :func:`riskmath.odds_table` know.
STATISTICS = tuple(name for name, definition in _DEFINITIONS.items() if definition.tabulated)


_T = TypeVar("_T")


class _Lazy(cached_property[_T], Generic[_T]):
    """:class:`functools.cached_property` without its lock (Python 3.11 takes one on every first access).

    A first access costs a few microseconds less, a fair share of a small
    battle; two threads reading the same new attribute at once may both
    compute it, and store the same value.
    """

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> Self: ...

    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> _T: ...

    def __get__(self, instance: object, owner: type[Any] | None = None) -> Self | _T:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.attrname] = value  # type: ignore[index]  # set by __set_name__
        return value


def _statistic(name: str) -> cached_property[Number]:
    """The :class:`Battle` attribute ``name``, computed by its definition from the final distribution."""
    definition = _DEFINITIONS[name]

    def compute(self: Battle) -> Number:
        if name == "win_probability":  # the commonest question, without the moments: the same sum, clipped
            value: Number = unit_interval(sum(self._win, Fraction(0) if self._exact else 0.0))
        else:
            value = definition.value(self._moments)
        self._shared.values[name] = value  # for the next Battle of the same arguments
        return value

    compute.__name__ = name
    compute.__qualname__ = f"Battle.{name}"
    compute.__doc__ = definition.doc
    return _Lazy(compute)


def _float_statistic(name: str) -> cached_property[float]:
    """As :func:`_statistic`, for a statistic that is a float even when exact."""
    return cast("cached_property[float]", _statistic(name))


class _FinalMoments:
    """:class:`_Moments` of one battle, from its final distribution."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.attackers = battle.attackers
        self.defenders = battle.defenders
        self._means: dict[str, Number] = {}

    def _expect(self, f: Callable[[int, int], Number]) -> Number:
        if self.battle.exact:  # (f gives ints: one common denominator, one gcd, not one per term)
            return exact_weighted_sum([(p, f(a, d)) for a, d, p in self.battle._final_states])  # type: ignore[misc]
        return sum((p * f(a, d) for a, d, p in self.battle._final_states), 0.0)

    def mean(self, moment: str) -> Number:
        if moment not in self._means:
            f = _MOMENTS.get(moment)
            if f is None:
                self._means[moment] = self.battle._rolls
            elif moment == "win":  # the wins in the order of _final_states (the other terms add zeros): no sort
                zero: Number = Fraction(0) if self.battle.exact else 0.0
                self._means[moment] = sum(self.battle._win, zero)
            else:
                self._means[moment] = self._expect(f)
        return self._means[moment]

    def variance(self, moment: str) -> Number:
        key = f"variance {moment}"  # (remembered: the standard deviation asks for it again)
        if key not in self._means:
            mean, f = self.mean(moment), _MOMENTS[moment]
            if self.battle.exact:  # E[f**2] - E[f]**2 has no round-off to cancel when exact, and stays in ints
                self._means[key] = self._expect(lambda a, d: f(a, d) ** 2) - mean**2
            else:
                self._means[key] = self._expect(lambda a, d: (f(a, d) - mean) ** 2)  # centered: no cancellation
        return self._means[key]

    def losses(self, side: str) -> Number:
        # Summed as losses, small numbers, not as the start less the mean left: with a million attackers that
        # difference kept about ten digits (the same value when exact).
        start, left = (self.attackers if side == "a" else self.defenders), _MOMENTS[side]
        return self._expect(lambda a, d: start - left(a, d))

    def sqrt(self, value: Number) -> float:
        return math.sqrt(value)

    def given_win(self, moment: str, statistic: str) -> Number:
        win = self.mean("win")
        if not conditioning_defined(win, self.battle.exact):
            if self.battle.exact or not win > 0:
                why = f"the win probability is {win}" + ("" if self.battle.exact else " in float64; try exact=True")
            else:
                why = f"the win probability, {win:.3g}, is below the smallest normal float64; try exact=True"
            raise UndefinedStatisticError(f"{statistic} is undefined for {self.battle!r}: {why}")
        return self.mean(moment) / win


def _normalised(win: list[float], stop: list[list[float]], rolls: float) -> PlainForward:
    """A small battle's distribution divided by its total mass (1 up to round-off), as :meth:`Battle._sweep` does."""
    total = sum(win) + sum(map(sum, stop))
    if total > 0 and total != 1.0:
        win = [p / total for p in win]
        stop = [[p / total for p in row] for row in stop]
    return win, stop, rolls


# -- the shared cache of results (kept by riskmath.odds._battle_cache) -----------
#
# Every Battle computed is remembered by its arguments, and a Battle of the
# same arguments is served from there; this module keeps the public side:
# the budget, clearing the cache and reporting on it.

#: Bytes the shared cache of battle results may hold (an estimate from the sizes of the numbers kept).
BATTLE_CACHE_BYTES = 32 * 2**20


def clear_battle_cache() -> None:
    """Forget every remembered battle (see :class:`Battle`); the next calls compute afresh.

    Examples
    --------
    >>> clear_battle_cache()
    >>> battle_cache_info()["entries"]
    0
    """
    forget()


def battle_cache_info() -> dict[str, float]:
    """The shared cache of battles: ``entries``, estimated ``bytes`` held and the ``limit`` in bytes.

    Examples
    --------
    >>> clear_battle_cache()
    >>> _ = battle(10, 10), battle(10, 10), battle(10, 10, exact=True)
    >>> info = battle_cache_info()
    >>> info["entries"], info["bytes"] <= info["limit"]
    (2, True)
    """
    entries, nbytes = held()
    return {"entries": entries, "bytes": nbytes, "limit": float(BATTLE_CACHE_BYTES)}


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
    Float results agree with the exact ones to about 1e-13.  Float
    probabilities are never outside [0, 1] (round-off there is clipped) and
    the float outcomes are normalised to sum to 1 (within 1e-14, summed with
    ``math.fsum``).  A probability below the smallest float64 (about
    1e-308) underflows to 0, losing its digits on the way (below the
    smallest normal float64, 2.2e-308); the conditional statistic
    :attr:`expected_attackers_left_if_won` then raises
    :class:`UndefinedStatisticError` instead of dividing by it (use
    ``exact=True``): divided by a probability of 1e-323, the mean came out
    6 % wrong.

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
        values = lookup(attackers, defenders, stop_at, exact, rules)
        if values is not None:  # a hit needs no validation: it was validated when computed
            self.__dict__.update(values)
            return
        self._compute(attackers, defenders, stop_at, exact, rules)

    def _compute(self, attackers: int, defenders: int, stop_at: int, exact: bool, rules: object) -> None:
        """Validate, check the cost, sweep, and remember the result (see :mod:`riskmath.odds._battle_cache`)."""
        if (
            type(attackers) is int
            and type(defenders) is int
            and type(stop_at) is int
            and type(exact) is bool
            and attackers >= 0
            and defenders >= 1
            and stop_at >= 0
        ):  # the common case, valid as it is: the checks below would return the same
            A, D, k = attackers, defenders, stop_at
        else:
            A = check_int("attackers", attackers, minimum=0)
            D = check_int("defenders", defenders, minimum=1)
            k = check_int("stop_at", stop_at, minimum=0)
            if not isinstance(exact, bool):
                raise InvalidArgumentError(f"exact must be True or False, got {shown(exact)}")
        self._attackers, self._defenders, self._stop_at, self._exact = A, D, k, exact
        self._rules = CLASSIC if rules is None else resolve_rules(rules)
        if not exact and prefer_small(A, D):  # in Python floats: no NumPy call (its fixed costs dominate here)
            self._check(A, D, k, exact)
            self._win, self._stop, self._rolls = _normalised(*forward_small(A, D, k, kernel(self._rules)))
        else:
            self._sweep(A, D, k, exact)
        self._shared = remember(
            A,
            D,
            k,
            exact,
            self._rules,
            {"_attackers": A, "_defenders": D, "_stop_at": k, "_exact": exact, "_rules": self._rules}
            | {"_win": self._win, "_stop": self._stop, "_rolls": self._rolls},
            self._memory,
            self._seconds,
            BATTLE_CACHE_BYTES,
        )

    _memory, _seconds = 0.0, 0.0  # what the sweep was estimated to take; set by _sweep, kept by the cache
    _win: Sequence[Number]  # win[a]: the probability of winning with a armies able to attack left
    _stop: Sequence[Sequence[Number]]  # stop[a][d]: of stopping at a <= stop_at against d
    _rolls: Number  # the expected number of rolls

    def _check(self, A: int, D: int, k: int, exact: bool) -> None:
        """Check the estimated cost against the limits in force (the same estimate whichever sweep runs)."""
        memory, seconds = forward_cost(A, D, k, self._rules, exact)
        check_cost(
            lambda: (
                f"battle(attackers={shown(A)}, defenders={shown(D)}"
                f"{f', stop_at={shown(k)}' if k else ''}{', exact=True' if exact else ''})"
            ),
            memory=memory,
            seconds=seconds,
            hint=USE_FLOATS if exact else "use fewer armies; ",
        )
        self._memory, self._seconds = memory, seconds

    def _sweep(self, A: int, D: int, k: int, exact: bool) -> None:
        """Check the cost, then sweep with NumPy (floats) or integers (exact)."""
        self._check(A, D, k, exact)
        kern = kernel(self._rules)
        if exact:
            self._win, self._stop, self._rolls = forward_exact(A, D, k, kern)
        else:
            win_f, stop_f, rolls_f = forward_float(A, D, k, kern)
            # The sweep's total mass is 1 only up to round-off (about 1e-16 a roll; see riskmath.odds._sweeps):
            # normalised, the distribution sums to 1 within a few units in the last place however long the battle.
            total = float(win_f.sum() + stop_f.sum())
            if total > 0 and total != 1.0:
                win_f, stop_f = win_f / total, stop_f / total
            self._win, self._stop, self._rolls = win_f.tolist(), stop_f.tolist(), float(rolls_f)  # (not np.float64)

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

    def __eq__(self, other: object) -> bool:
        """Battles of the same arguments are equal (their numbers are determined by them): the attackers and
        defenders, ``stop_at``, ``exact`` and the combat rules (``rules=None`` is the classic rules)."""
        if not isinstance(other, Battle):
            return NotImplemented
        return self._arguments() == other._arguments()

    def __hash__(self) -> int:
        return hash(self._arguments())

    def _arguments(self) -> tuple[int, int, int, bool, CombatRules]:
        return (self._attackers, self._defenders, self._stop_at, self._exact, self._rules)

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
    @_Lazy
    def _final_states(self) -> list[tuple[int, int, Number]]:
        """``(attackers_left, defenders_left, probability)``, positive only, sorted."""
        states: list[tuple[int, int, Number]] = [(a, 0, p) for a, p in enumerate(self._win) if p > 0]
        states += [(a, d, p) for a, row in enumerate(self._stop) for d, p in enumerate(row) if p > 0]
        states.sort()
        self._shared.values["_final_states"] = states  # never changed: shared with later Battles
        return states

    @_Lazy
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
            [unit_interval(totals[k]) for k in keys],
            index=pd.Index(keys, name=name),
            name="probability",
            dtype=object if self._exact else float,
        )

    @_Lazy
    def attackers_left_distribution(self) -> pd.Series:
        """Distribution of the attackers left at the end, indexed by that count."""
        return self._marginal(0, "attackers")

    @_Lazy
    def defenders_left_distribution(self) -> pd.Series:
        """Distribution of the defenders left at the end, indexed by that count."""
        return self._marginal(1, "defenders")

    # -- statistics (defined in _DEFINITIONS) -----------------------------------
    @_Lazy
    def _moments(self) -> _FinalMoments:
        return _FinalMoments(self)

    win_probability = _statistic("win_probability")
    expected_attackers_left = _statistic("expected_attackers_left")
    expected_defenders_left = _statistic("expected_defenders_left")
    expected_attacker_losses = _statistic("expected_attacker_losses")
    expected_defender_losses = _statistic("expected_defender_losses")
    variance_attacker_losses = _statistic("variance_attacker_losses")
    variance_defender_losses = _statistic("variance_defender_losses")
    std_attacker_losses = _float_statistic("std_attacker_losses")
    std_defender_losses = _float_statistic("std_defender_losses")
    expected_attackers_left_if_won = _statistic("expected_attackers_left_if_won")
    expected_rolls = _statistic("expected_rolls")

    def summary(self) -> pd.Series:
        """Every scalar statistic in one :class:`pandas.Series`.

        ``expected_attackers_left_if_won`` is left out when the battle cannot
        be won.
        """
        import pandas as pd

        names = [
            name
            for name in STATISTICS
            if name != "expected_attackers_left_if_won" or conditioning_defined(self.win_probability, self._exact)
        ]
        return pd.Series(
            {name: getattr(self, name) for name in names},
            name=repr(self),
            dtype=object if self._exact else float,
        )

    @_Lazy
    def chain(self) -> BattleChain:
        """The same battle as an explicit sparse absorbing chain (Q and R).

        Raises
        ------
        InvalidArgumentError
            If the battle is over before its first roll (no more armies able
            to attack than ``stop_at``): its chain would have no transient
            state.
        """
        from riskmath.odds.matrix import BattleChain

        if self._attackers <= self._stop_at:
            raise InvalidArgumentError(
                f"battle({self._attackers}, {self._defenders}, stop_at={self._stop_at}) is over before its first "
                "roll (no more armies able to attack than stop_at): it has no chain of transient states"
            )
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
    operations, vectorized over anti-diagonals ``a + d = const`` (every roll
    in which both sides throw their maximum dice removes the same number of
    armies); see :doc:`/theory`.  A 1000 v 1000 battle takes about ten
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
    values = lookup(attackers, defenders, stop_at, exact, rules)
    result: Battle = object.__new__(Battle)  # without a call of __init__, which would look the cache up again
    if values is not None:  # remembered: a Battle with the same attributes
        result.__dict__.update(values)
    else:
        result._compute(attackers, defenders, stop_at, exact, rules)
    return result


# -- statistics over a grid of start states ---------------------------------


class _GridMoments:
    """:class:`_Moments` of every start state of a grid, from the backward sweep's moments."""

    def __init__(self, moments: dict[str, np.ndarray], stop_at: int, max_attackers: int, max_defenders: int) -> None:
        self._moments = moments
        self._stop_at = stop_at
        self.attackers = np.arange(stop_at + 1, max_attackers + 1)[:, None]
        self.defenders = np.arange(1, max_defenders + 1)[None, :]

    def mean(self, moment: str) -> np.ndarray:
        return self._moments[moment]

    def variance(self, moment: str) -> np.ndarray:
        # From the raw moments, E[x^2] - E[x]^2: in floats its absolute error is about 1e-16 times x^2, so a
        # variance far below that (a battle that nearly always ends the same way) is lost to round-off (see
        # battle_statistics).  Battle's are centred.
        first = self._moments[moment]
        variance: np.ndarray = self._moments[moment + "2"] - first * first
        return variance

    def losses(self, side: str) -> np.ndarray:
        start = self.attackers if side == "a" else self.defenders
        lost: np.ndarray = start - self._moments[side]
        return lost

    def sqrt(self, value: np.ndarray) -> np.ndarray:
        """As float, round-off below 0 clipped."""
        root: np.ndarray = np.sqrt(np.maximum(np.asarray(value, dtype=float), 0.0))
        return root

    def given_win(self, moment: str, statistic: str) -> np.ndarray:
        win = self._moments["win"]
        defined = conditioning_defined(win, win.dtype == object)
        if not np.all(defined):
            a, d = np.argwhere(~defined)[0]
            raise UndefinedStatisticError(
                f"{statistic} is undefined at attackers={a + self._stop_at + 1}, "
                f"defenders={d + 1}: the win probability underflows float64 (or is below its smallest normal "
                "number, where its digits are lost); use exact=True or a smaller grid"
            )
        given: np.ndarray = self._moments[moment] / win
        return given


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
        standard deviations are always float).  In float64 the standard
        deviations come from the sweep's raw moments, ``E[x^2] - E[x]^2``,
        whose round-off is about ``1e-16 * x^2`` (``x`` the armies left),
        so the relative error of a standard deviation ``s`` is about
        ``1e-16 * (x / s)**2``: 1e-4 at ``s = 1e-6 * x``, and a deviation
        far below that (a battle that nearly always ends the same way) may
        come out wrong, or 0.  Likewise the expected losses are the start
        less the mean left, exact to about ``1e-16`` times the start: an
        expected loss of 5e-5 from a start of 1,000 keeps 9 digits.
        :func:`battle` (centred sums, losses summed as losses) or
        ``exact=True`` gives them to full precision.

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
    try:
        requested = tuple(statistics)
    except TypeError:  # not iterable
        raise InvalidArgumentError(
            f"statistics must be a name or a sequence of names from STATISTICS, got {shown(statistics)}"
        ) from None
    names = [check_choice("statistic", name, STATISTICS) for name in requested]
    if not isinstance(exact, bool):
        raise InvalidArgumentError(f"exact must be True or False, got {shown(exact)}")
    combat = resolve_rules(rules)
    needed = {m for name in names for m in _DEFINITIONS[name].needs}
    moments = [m for m in (*_MOMENTS, _ROLLS) if m in needed]
    memory, seconds = backward_cost(A, D, k, len(moments), combat, exact)
    memory += 8.0 * 3 * min((A - k) * D, 2**200) * len(names)  # the statistics and their temporaries
    check_cost(
        lambda: (
            f"statistics of the {shown(A - k)} x {shown(D)} grid (max_attackers={shown(A)}, max_defenders={shown(D)}"
            f"{', exact=True' if exact else ''})"
        ),
        memory=memory,
        seconds=seconds,
        hint=USE_FLOATS if exact else "use a smaller grid; ",
    )
    kern = kernel(combat)

    cost = [1 if m == _ROLLS else 0 for m in moments]
    if exact:

        def boundary(a: int, d: int) -> list[int]:
            return [0 if m == _ROLLS else _MOMENTS[m](a, d) for m in moments]

        win = [boundary(a, 0) for a in range(A + 1)]
        stop = [[boundary(a, d) for d in range(D + 1)] for a in range(k + 1)]  # d = 0 there is never read
        table = backward_exact(A, D, k, kern, win, stop, cost)
        grid = np.empty((A - k, D, len(moments)), dtype=object)
        for a in range(k + 1, A + 1):
            for d in range(1, D + 1):
                grid[a - k - 1, d - 1] = table[a][d]
    else:  # the same boundary values, built over whole arrays (integers, exact as floats)
        a_range, d_range = np.arange(A + 1), np.arange(D + 1)
        win_f = np.zeros((A + 1, len(moments)))
        stop_f = np.zeros((k + 1, D + 1, len(moments)))
        for i, m in enumerate(moments):
            if m != _ROLLS:
                win_f[:, i] = _MOMENTS[m](a_range, 0)
                stop_f[:, :, i] = _MOMENTS[m](a_range[: k + 1, None], d_range[None, :])
        # A grid the thread keeps (no fresh megabytes to fault in): what is returned is copied out of it below.
        values = backward_float(A, D, k, kern, win_f, stop_f, np.array(cost, float), keep=True)
        grid = values[k + 1 :, 1:]
    grid_moments = _GridMoments({m: grid[:, :, i] for i, m in enumerate(moments)}, k, A, D)
    results = {name: _DEFINITIONS[name].value(grid_moments) for name in names}
    if not exact:
        results = {name: v.copy() if np.may_share_memory(v, values) else v for name, v in results.items()}
    return results
