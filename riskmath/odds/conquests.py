"""Chained conquests: one stack taking a path of territories, and planning queries.

A conquest starts with ``attackers`` armies able to attack (the starting
territory holds one more, which stays).  It attacks the territories of a path
in order.  After each capture every surviving attacker moves in, ``leave`` of
them stay to hold the territory, and the rest attack the next one; with
``leave=1`` (the default) that is exactly the RISK convention, the armies able
to attack being those in the territory minus the one that must stay.  The
conquest stops when the stack is beaten or has nobody left to send on.

The distribution of the moving stack is propagated exactly: each battle is a
sweep of the battle chain started from the whole distribution of attackers
(see :mod:`riskmath.odds._sweeps`), so a 40-territory path with 1000 attackers takes
milliseconds.  The planning queries built on it live in
:mod:`riskmath.odds.planning`, tree plans in :mod:`riskmath.odds.plans`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import (
    SIZE_CAP,
    USE_FLOATS,
    capped,
    check_cost,
    check_int,
    is_sequence,
    shown,
    warn_deprecated,
)
from riskmath.errors import InvalidArgumentError, UndefinedStatisticError
from riskmath.odds._sweeps import (
    Kernel,
    columns_cost,
    conditioning_defined,
    forward_columns,
    forward_cost,
    forward_exact_from,
    kernel,
    scale_bits,
    unit_interval,
)
from riskmath.odds.dice import CombatRules, resolve_rules

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Conquest", "conquest"]

Number = float | Fraction
Vector = np.ndarray  # float64, or object holding Fractions in exact mode


def check_exact(exact: object) -> bool:
    """The ``exact`` argument, checked (layer-internal: the odds modules share it).

    Returns
    -------
    bool
        ``exact`` itself.

    Raises
    ------
    InvalidArgumentError
        If ``exact`` is not a bool.
    """
    if not isinstance(exact, bool):
        raise InvalidArgumentError(f"exact must be True or False, got {shown(exact)}")
    return exact


def plain_number(value: Any, exact: bool) -> Number:
    """A plain Python number: Fraction when exact, float otherwise (never a NumPy scalar).

    Layer-internal: the odds modules return their numbers through it.
    """
    return Fraction(value) if exact else float(value)


def plain_probability(value: Any, exact: bool) -> Number:
    """:func:`plain_number` for a probability: a float is clipped to ``[0, 1]`` (round-off; layer-internal)."""
    return Fraction(value) if exact else unit_interval(float(value))


def zero_vector(n: int, exact: bool) -> Vector:
    """A :data:`Vector` of ``n`` zeros: object Fractions when exact, float64 otherwise (layer-internal)."""
    return np.array([Fraction(0)] * n, dtype=object) if exact else np.zeros(n)


def sweep(initial: np.ndarray, stop_at: int, kern: Kernel, exact: bool) -> tuple[Vector, np.ndarray]:
    """Fight the battles of an initial distribution over states ``(a, d)``.

    ``initial`` has shape ``(A + 1, D + 1)`` (float, or object of Fractions).
    Returns ``(win, stop)``: ``win[a]`` the probability of capturing with ``a``
    left, ``stop[a, d]`` of being stopped at ``a <= stop_at`` with ``d``
    defenders left.  Mass starting in an absorbing state stays where it is.
    """
    if not exact:
        win, stop, _ = forward_columns(np.array(initial, dtype=float), stop_at, kern)
        return win, stop
    A, D = initial.shape[0] - 1, initial.shape[1] - 1
    start = {(a, d): Fraction(p) for (a, d), p in np.ndenumerate(initial) if p}
    if not start:
        return zero_vector(A + 1, True), np.full((min(stop_at, A) + 1, D + 1), Fraction(0), dtype=object)
    win_list, stop_list, _ = forward_exact_from(start, stop_at, kern, shape=(A, D))
    return np.array(win_list, dtype=object), np.array(stop_list, dtype=object)


def attack_with(force: Vector, defenders: int, kern: Kernel, exact: bool) -> Vector:
    """Capture distribution of a territory with ``defenders`` armies.

    ``force[x]`` is the probability that ``x`` armies able to attack arrive
    (the entries need not sum to 1).  Returns ``win[y]``, the probability of
    capturing it with ``y`` armies left.
    """
    return attack_and_lose(force, defenders, kern, exact)[0]


def attack_and_lose(force: Vector, defenders: int, kern: Kernel, exact: bool) -> tuple[Vector, Number]:
    """:func:`attack_with`'s capture distribution and the probability that the attack fails (every attacker lost),
    the second summed from the battles' own losing ends rather than taken as ``force`` minus the captures (which
    leaves a small failure probability only its absolute accuracy, about 1e-16, in floats)."""
    initial = np.zeros((len(force), defenders + 1), dtype=object if exact else float)
    if exact:
        initial[:] = Fraction(0)
    initial[1:, defenders] = force[1:]
    won, stop = sweep(initial, 0, kern, exact)
    return won, sum(stop[0, 1:]) if exact else float(stop[0, 1:].sum())


def _move_on(won: Vector, keep: int, exact: bool) -> Vector:
    """The force that moves on from a captured territory, ``keep`` armies staying.

    ``won[y]`` is the probability of holding it with ``y``; the result is the
    distribution of ``max(y - keep, 0)`` armies able to attack the next one.
    """
    force = zero_vector(len(won), exact)
    if keep + 1 < len(won):
        force[1 : len(won) - keep] = won[keep + 1 :]
    force[0] = sum(won[: keep + 1])  # y <= keep: nobody able to go on (won[keep] was once counted twice here)
    return force


def armies_given(joint: Vector, total: Number, exact: bool) -> pd.Series:
    """``joint[y] / total`` over the armies ``y >= 1`` of positive probability, as a Series indexed by ``armies``."""
    import pandas as pd

    armies = [y for y in range(1, len(joint)) if joint[y] > 0]
    return pd.Series(
        [unit_interval(joint[y] / total) for y in armies],
        index=pd.Index(armies, name="armies"),
        name="probability",
        dtype=object if exact else float,
    )


def mean_sd(distribution: Vector) -> tuple[Number, float]:
    """Mean and standard deviation of a (normalized) distribution over 0..n (layer-internal).

    The mean is exact for a distribution of Fractions; the standard deviation is a float.
    """
    values = np.arange(len(distribution))
    mean = sum(distribution * values)
    variance = sum(distribution * (values - mean) ** 2)
    return mean, math.sqrt(max(float(variance), 0.0))


#: Seconds of Python overhead per battle of a conquest (one forward sweep), and per state of an exact one;
#: per start state of an exact sweep, per level of its denominator and kilobit of the numbers (measured: a
#: conquest of 100 attackers along 30 territories of 3, exact, takes about 0.5 s, mostly there).
_STEP_SECONDS = 5e-5
_EXACT_STATE_SECONDS = 5e-7
_SCALE_STEP_SECONDS = 5e-7


def battles_cost(
    starts: Sequence[tuple[int, int]], rules: CombatRules, exact: bool, kept: int = 0
) -> tuple[float, float]:
    """``(bytes, seconds)`` of fighting one forward sweep per ``(attackers, defenders)`` in ``starts``.

    The sweeps run one after the other, so memory is the largest one's, plus
    ``kept`` vectors of length ``attackers + 1`` held for the result; time adds up.
    An exact sweep from a distribution also finds, for each of its start
    states, the power of ``K`` its probability's denominator divides (one
    small multiplication per level, on numbers that grow with the armies
    lost in the battles before it): this dominates long exact paths.
    """
    memory = seconds = 0.0
    largest = 0
    if not exact:
        for (a, d), count in Counter(starts).items():  # a long path repeats its sizes: each estimated once
            a, d = capped(a, d)
            m, t = columns_cost(a, d, 0, rules)
            memory, largest = max(memory, m + 16.0 * (a + 1) * (d + 1)), max(largest, a)  # and the start, copied
            seconds += count * (t + _STEP_SECONDS)
        return memory + kept * (largest + 1) * 8, seconds
    bits = scale_bits(rules)
    before = 0
    for a, d in starts:
        a, d = capped(a, d)
        m, t = forward_cost(a, d, 0, rules, True)
        cells = (a + 1) * (d + 1)
        level = min(a + d + before, SIZE_CAP)  # armies lost before the battle ends, at most
        scaling = _SCALE_STEP_SECONDS * (a + 1) * level * max(level * bits / 1000, 1.0)
        seconds += t + _STEP_SECONDS + _EXACT_STATE_SECONDS * cells + scaling
        memory, largest = max(memory, m + 16.0 * cells), max(largest, a)
        before = min(before + d, SIZE_CAP)
        if seconds > 1e30:  # refused whatever the rest adds; a path of millions is not summed to its end
            break
    return memory + kept * (largest + 1) * (8 + 100 + (largest + 1) * 2), seconds


def describe_path(path: Sequence[int]) -> str:
    """``defenders=...`` for an error message: the number, or the length and largest of a long path."""
    if len(path) == 1:
        return f"defenders={shown(path[0])}"
    if len(path) <= 5 and max(path) < 10**9:
        return f"defenders={list(path)}"
    return f"defenders=<path of {len(path)} territories, at most {shown(max(path))} defenders>"


def check_steps(name: str, value: int | Sequence[int], n: int, minimum: int) -> tuple[int, ...]:
    """A per-territory argument such as ``leave``, checked: one int for every step, or one per territory.

    Layer-internal.  Returns ``n`` ints, each ``>= minimum``.

    Raises
    ------
    InvalidArgumentError
        For a value that is not an integer, is below ``minimum``, or a sequence not of length ``n``.
    """
    if is_sequence(value):
        values = tuple(check_int(f"{name}[{i}]", v, minimum=minimum) for i, v in enumerate(value))
        if len(values) != n:
            raise InvalidArgumentError(f"{name} must have one value per territory ({n}), got {len(values)}")
        return values
    return (check_int(name, value, minimum=minimum),) * n


def check_path(defenders: int | Sequence[int]) -> tuple[int, ...]:
    """The ``defenders`` of a path, checked: an int (one territory) or a non-empty sequence (layer-internal).

    Raises
    ------
    InvalidArgumentError
        For an empty path, or defenders that are not integers ``>= 1``.
    """
    if is_sequence(defenders):
        path = tuple(check_int(f"defenders[{i}]", d, minimum=1) for i, d in enumerate(defenders))
        if not path:
            raise InvalidArgumentError("defenders must name at least one territory, got an empty sequence")
        return path
    if isinstance(defenders, Iterable) and not isinstance(defenders, (str, bytes)):  # a set, a generator: no order
        raise InvalidArgumentError(
            f"defenders must be an army count or a sequence of them (a list, a tuple, a 1-d array, in the path's "
            f"order), got {shown(defenders)}"
        )
    return (check_int("defenders", defenders, minimum=1),)


class Conquest:
    """One stack taking a path of territories; build it with :func:`conquest`.

    The distributions are computed on construction; statistics are derived
    lazily.  Step ``k`` (1-based) is the attack on the ``k``-th territory.

    Attributes
    ----------
    attackers : int
        Armies able to attack at the start.
    defenders : tuple of int
        Defending armies of the territories, in order.
    leave : tuple of int
        Armies left to hold each captured territory (the value for the last
        territory is not used: the stack stops there).
    forces : list of numpy.ndarray
        ``forces[k - 1][x]``: probability that step ``k`` is fought with ``x``
        armies able to attack (unconditional, so it sums to the probability
        of reaching the step).
    captures : list of numpy.ndarray
        ``captures[k - 1][y]``: probability of taking territory ``k`` with
        ``y`` armies left.

    Examples
    --------
    >>> c = Conquest(8, [2, 3])
    >>> c
    Conquest(8, [2, 3])
    >>> round(c.win_probability, 4), round(float(c.captures[-1].sum()), 4)
    (0.7636, 0.7636)
    """

    def __init__(
        self,
        attackers: int,
        defenders: int | Sequence[int],
        *,
        leave: int | Sequence[int] = 1,
        exact: bool = False,
        rules: object = None,
    ) -> None:
        self.attackers = check_int("attackers", attackers, minimum=0)
        self.defenders = check_path(defenders)
        self.leave = check_steps("leave", leave, len(self.defenders), minimum=0)
        self.exact = check_exact(exact)
        self.rules: CombatRules = resolve_rules(rules)
        X = self.attackers
        starts = [(X, d) for d in self.defenders]
        memory, seconds = battles_cost(starts, self.rules, self.exact, 2 * len(starts))
        check_cost(
            lambda: (
                f"conquest(attackers={shown(X)}, {describe_path(self.defenders)}{', exact=True' if self.exact else ''})"
            ),
            memory=memory,
            seconds=seconds,
            hint=USE_FLOATS if self.exact else "",
        )
        kern = kernel(self.rules)
        force = zero_vector(X + 1, self.exact)
        force[X] = 1
        self.forces: list[Vector] = []
        self.captures: list[Vector] = []
        self._stops: list[Number] = []  # P(the conquest stops at step k): nobody left to attack, or the attack lost
        for k, d in enumerate(self.defenders):
            stopped = force[0]
            force[0] = 0  # nobody left to attack with: the conquest has stopped
            self.forces.append(force)
            won, lost = attack_and_lose(force, d, kern, self.exact)
            self.captures.append(won)
            self._stops.append(stopped + lost)
            force = _move_on(won, self.leave[k], self.exact)

    def _repr_html_(self) -> str | None:
        """Rich display in notebooks (renderers in :mod:`riskmath.plots.notebook`)."""
        from riskmath._html import render

        return render(self)

    def __eq__(self, other: object) -> bool:
        """Conquests of the same arguments are equal (their numbers are determined by them): the attackers, the
        path, the armies left behind in each capture but the last (which is not used), ``exact`` and the combat
        rules (``rules=None`` is the classic rules), as for :class:`~riskmath.Battle`."""
        if not isinstance(other, Conquest):
            return NotImplemented
        return self._arguments() == other._arguments()

    def __hash__(self) -> int:
        return hash(self._arguments())

    def _arguments(self) -> tuple[int, tuple[int, ...], tuple[int, ...], bool, CombatRules]:
        return (self.attackers, tuple(self.defenders), tuple(self.leave[:-1]), self.exact, self.rules)

    def __repr__(self) -> str:
        path = list(self.defenders)
        options = [] if set(self.leave) == {1} else [f"leave={list(self.leave)}"]
        if self.exact:
            options.append("exact=True")
        if self.rules != CombatRules():
            options.append(f"rules={self.rules!r}")
        return f"Conquest({', '.join([str(self.attackers), str(path), *options])})"

    @cached_property
    def reach_probabilities(self) -> pd.Series:
        """P(at least ``k`` territories captured), indexed by ``k = 1..n``."""
        import pandas as pd

        values = [plain_probability(sum(won), self.exact) for won in self.captures]
        index = pd.RangeIndex(1, len(values) + 1, name="captured")
        return pd.Series(values, index=index, name="probability", dtype=object if self.exact else float)

    @cached_property
    def captured_distribution(self) -> pd.Series:
        """P(exactly ``k`` territories captured), indexed by ``k = 0..n``; sums to 1."""
        import pandas as pd

        # P(exactly k) is the probability of stopping at step k + 1, summed directly (not P(>= k) - P(>= k + 1),
        # whose float difference loses a small probability's relative accuracy); the last, P(all), is the win's.
        values = [plain_probability(stop, self.exact) for stop in self._stops]
        values.append(self.win_probability)
        index = pd.RangeIndex(0, len(values), name="captured")
        return pd.Series(values, index=index, name="probability", dtype=object if self.exact else float)

    @cached_property
    def win_probability(self) -> Number:
        """Probability that every territory of the path is captured (the conquest is won)."""
        return plain_probability(sum(self.captures[-1]), self.exact)

    @property
    def success_probability(self) -> Number:
        """Deprecated: the same number as :attr:`win_probability`, with a ``DeprecationWarning``."""
        warn_deprecated("Conquest.success_probability", "Conquest.win_probability")
        return self.win_probability

    @cached_property
    def final_distribution(self) -> pd.Series:
        """Armies in the last territory, given that the conquest is won; indexed by that count.

        Raises
        ------
        UndefinedStatisticError
            If winning is impossible (or its probability underflows float64).
        """

        total = self.win_probability
        if not conditioning_defined(total, self.exact):
            below = "" if self.exact or not total > 0 else " (below the smallest normal float64; try exact=True)"
            raise UndefinedStatisticError(
                f"final_distribution is undefined for {self!r}: the win probability is {total}{below}"
            )
        # Given success: normalised by the captures' own sum (the success probability before clipping).
        return armies_given(self.captures[-1], sum(self.captures[-1]), self.exact)

    @cached_property
    def expected_final_armies_if_won(self) -> Number:
        """Mean armies in the last territory, given that every territory falls."""
        distribution = self.final_distribution
        return plain_number(sum(distribution * distribution.index), self.exact)

    @property
    def expected_final_armies_if_success(self) -> Number:
        """Deprecated: the same number as :attr:`expected_final_armies_if_won`, with a ``DeprecationWarning``."""
        warn_deprecated("Conquest.expected_final_armies_if_success", "Conquest.expected_final_armies_if_won")
        return self.expected_final_armies_if_won

    def step_table(self) -> pd.DataFrame:
        """One row per step.

        Columns: ``defenders``, ``leave``, ``reach_probability`` (the step is
        fought), ``expected_attackers`` and ``std_attackers`` (the force that
        fights it, given that it is fought; armies able to attack),
        ``capture_probability`` (unconditional) and
        ``capture_probability_if_reached``.  Unreachable steps have no
        conditional values: they are missing there (``pd.isna`` is true:
        ``None`` in a column of Fractions, ``NaN`` in a column of floats).
        """
        import pandas as pd

        rows: list[dict[str, Any]] = []
        for k, (force, won) in enumerate(zip(self.forces, self.captures, strict=True)):
            reach = sum(force)
            row: dict[str, Any] = {
                "defenders": self.defenders[k],
                "leave": self.leave[k],
                "reach_probability": plain_probability(reach, self.exact),
                "expected_attackers": None,
                "std_attackers": None,
                "capture_probability": plain_probability(sum(won), self.exact),
                "capture_probability_if_reached": None,
            }
            if reach > 0:
                mean, sd = mean_sd(force / reach)
                row.update(
                    expected_attackers=mean,
                    std_attackers=sd,
                    capture_probability_if_reached=plain_probability(sum(won) / reach, self.exact),
                )
            rows.append(row)
        return pd.DataFrame(rows, index=pd.RangeIndex(1, len(rows) + 1, name="step"))


def conquest(
    attackers: int,
    defenders: int | Sequence[int],
    *,
    leave: int | Sequence[int] = 1,
    exact: bool = False,
    rules: object = None,
) -> Conquest:
    """One stack attacking a path of territories in order.

    Parameters
    ----------
    attackers : int
        Armies able to attack from the starting territory (it holds one more,
        which stays).
    defenders : int or sequence of int
        Defending armies of each territory of the path, in order (an int is a
        path of one territory).
    leave : int or sequence of int, default 1
        Armies that stay in each captured territory; the rest attack the next
        one.  One value for every step, or one per territory.
    exact : bool, default False
        Fractions instead of floats.
    rules : CombatRules, optional
        Combat variant; classic by default.

    Returns
    -------
    Conquest

    Raises
    ------
    InvalidArgumentError
        For negative or non-integer armies, an empty path, or a ``leave``
        sequence of the wrong length.

    Examples
    --------
    Twelve armies against Indonesia (3), New Guinea (2) and Eastern
    Australia (2):

    >>> c = conquest(12, [3, 2, 2])
    >>> round(c.win_probability, 4)
    0.8387
    >>> c.reach_probabilities.round(4).tolist()
    [0.9935, 0.9556, 0.8387]
    >>> from riskmath import battle
    >>> conquest(5, 3, exact=True).win_probability == battle(5, 3, exact=True).win_probability
    True
    """
    return Conquest(attackers, defenders, leave=leave, exact=exact, rules=rules)
