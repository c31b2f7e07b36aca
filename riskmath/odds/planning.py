"""Planning queries on top of chained conquests.

* :func:`armies_needed`: the fewest attackers that take a path with a given
  probability (bisection on the success probability, exact at the threshold).
* :func:`combined_attack`: several stacks attacking one territory in turn, the
  defender's surviving distribution carrying over.
* :func:`defense_allocations` (also spelled :func:`defence_allocations`):
  every way to spread a number of defending armies along a path, ranked by
  the attacker's success probability.
* :func:`success_curve`: the success probability of a path for every number
  of attackers at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import (
    USE_FLOATS,
    capped,
    check_cost,
    check_int,
    check_probability,
    is_sequence,
    shown,
    warn_deprecated,
)
from riskmath.errors import InvalidArgumentError
from riskmath.odds._sweeps import kernel, unit_interval_array
from riskmath.odds.conquests import (
    Conquest,
    Number,
    Vector,
    battles_cost,
    check_exact,
    check_path,
    check_steps,
    describe_path,
    plain_probability,
    sweep,
    zero_vector,
)
from riskmath.odds.dice import CombatRules, resolve_rules
from riskmath.odds.plans import Target, plan_cost, success_functions

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "CombinedAttack",
    "armies_needed",
    "combined_attack",
    "defence_allocations",
    "defense_allocations",
    "success_curve",
]


def armies_needed(
    defenders: int | Sequence[int],
    probability: float | Fraction,
    *,
    leave: int | Sequence[int] = 1,
    rules: object = None,
    max_attackers: int = 100_000,
) -> int:
    """The fewest armies able to attack that take the path with a given probability.

    Parameters
    ----------
    defenders : int or sequence of int
        The path, as for :func:`conquest` (an int is one territory).
    probability : float or Fraction
        Required success probability, strictly between 0 and 1.  A float is
        taken at its exact binary value, as Python compares it: ``0.45`` is
        a little above ``9/20``, so where a success probability is exactly
        ``9/20`` (dice with sides divisible by 5; never with six-sided dice)
        ``0.45`` asks for one army more than ``Fraction(9, 20)``.
    leave : int or sequence of int, default 1
        As for :func:`conquest`.
    rules : CombatRules, optional
        Combat variant.
    max_attackers : int, default 100000
        Give up above this many.

    Returns
    -------
    int
        The smallest ``attackers`` with ``conquest(attackers, ...)`` succeeding
        with probability ``>= probability``.

    Notes
    -----
    The success probability grows with the number of attackers, so the
    answer is found by doubling and then bisection, ``O(log n)`` conquests.
    Near the threshold (within 1e-9) the comparison is redone in exact
    arithmetic, so the answer is exact: ``n - 1`` armies fall short and ``n``
    do not.

    The cost of the whole search is estimated before the first conquest,
    from a rough guess of the answer: the armies left behind, plus what
    killing every defender costs on average (the attacker's expected losses
    per defender killed, in a roll of the most dice on both sides).  A
    search that would not fit in the limits of :func:`riskmath.set_limits`
    (a path of a million defenders, say) is refused at once with
    :class:`~riskmath.ResourceLimitError`.

    Examples
    --------
    >>> armies_needed(10, 0.9)
    16
    >>> armies_needed([3, 2, 2], 0.75)
    11
    """
    path = check_path(defenders)
    leaves = check_steps("leave", leave, len(path), minimum=0)
    wanted = check_probability("probability", probability)
    limit = check_int("max_attackers", max_attackers, minimum=1)
    combat = resolve_rules(rules)
    target = Fraction(wanted)
    likely = min(_armies_likely(path, leaves, combat), limit)

    def check_search(n: int, exact: bool, times: float, what: Callable[[], str], hint: str) -> None:
        """Refuse the search if ``times`` conquests of ``n`` attackers (exact or not) would not fit the limits."""
        memory, seconds = battles_cost([(n, d) for d in path], combat, exact, 2 * len(path))
        check_cost(
            lambda: f"armies_needed({describe_path(path)}, probability={_probability_text(probability)})" + what(),
            memory=memory,
            seconds=seconds * times,
            hint=hint,
        )

    shorter = "ask for a lower probability or a shorter path; "
    # Doubling up to the answer, then a bisection.
    check_search(
        likely,
        False,
        math.log2(max(likely, 2)) + 2,
        lambda: f", a search among conquests of about {shown(likely)} attackers,",
        shorter,
    )

    def enough(n: int) -> bool:
        # A bisection of conquests this size follows.
        check_search(n, False, math.log2(max(n, 2)), lambda: f" trying attackers={shown(n)}", shorter)
        p = Conquest(n, path, leave=leaves, rules=combat).win_probability
        if abs(p - float(target)) > 1e-9:
            return p > float(target)
        # Too close to call in floats: decided exactly, if that fits (refused in this search's own words: the
        # exact conquest's refusal named a call the user never made and suggested exact=False, which this takes not).
        check_search(
            n,
            True,
            1.0,
            lambda: (
                f": {n} attackers win with probability {p!r} in float64, within 1e-9 of the one asked, "
                "and deciding it exactly"
            ),
            f"ask for a probability further from the odds of {n} attackers; ",
        )
        return Conquest(n, path, leave=leaves, exact=True, rules=combat).win_probability >= target

    low, high = 0, 1  # enough(low) is False (no armies take nothing); find enough(high)
    while not enough(high):
        low, high = high, 2 * high
        if high > limit:
            if enough(limit):
                high = limit
                break
            raise InvalidArgumentError(
                f"no number of attackers up to max_attackers={limit} reaches probability "
                f"{_probability_text(probability)}"
            )
    while high - low > 1:
        middle = (low + high) // 2
        if enough(middle):
            high = middle
        else:
            low = middle
    return high


def _armies_likely(path: Sequence[int], leaves: Sequence[int], rules: CombatRules) -> int:
    """A rough guess of :func:`armies_needed`'s answer, for the cost of its search.

    The armies left behind, plus what killing every defender costs on
    average: the expected attacker losses per defender killed in a roll of
    the most dice on both sides, which a long battle mostly throws.  Near
    the answer for a long path and any likely success (a very unlikely one
    needs fewer), and an estimate of the cost is all it is for.
    """
    by_loss = kernel(rules).prob[rules.attacker_max_dice][rules.defender_max_dice]
    pairs = len(by_loss) - 1
    ratio = sum(i * p for i, p in enumerate(by_loss)) / sum((pairs - i) * p for i, p in enumerate(by_loss))
    (defenders,) = capped(sum(path))
    return sum(leaves[:-1]) + 1 + math.floor(float(ratio) * defenders)


class CombinedAttack:
    """Several stacks attacking one territory in turn; see :func:`combined_attack`.

    Attributes
    ----------
    stacks : tuple of int
        Armies able to attack of each stack, in the order they attack.
    defenders : int
        Defending armies at the start.

    Examples
    --------
    A stack of 4 attacks 5 defenders; a stack of 3 attacks whatever is left:

    >>> attack = CombinedAttack([4, 3], 5)
    >>> round(attack.win_probability, 4)
    0.658
    >>> attack.captured_by().round(4).tolist()
    [0.3586, 0.2994]
    """

    def __init__(
        self,
        stacks: Sequence[int],
        defenders: int,
        *,
        stop_at: int = 0,
        exact: bool = False,
        rules: object = None,
    ) -> None:
        if not is_sequence(stacks) or not len(stacks):
            raise InvalidArgumentError(f"stacks must be a non-empty sequence of army counts, got {shown(stacks)}")
        self.stacks = tuple(check_int(f"stacks[{i}]", s, minimum=0) for i, s in enumerate(stacks))
        self.defenders = check_int("defenders", defenders, minimum=1)
        self.stop_at = check_int("stop_at", stop_at, minimum=0)
        self.exact = check_exact(exact)
        self.rules: CombatRules = resolve_rules(rules)
        D = self.defenders
        memory, seconds = battles_cost([(a, D) for a in self.stacks], self.rules, self.exact, 2 * len(self.stacks))
        check_cost(
            lambda: (
                f"combined_attack(stacks=<{len(self.stacks)} stacks, at most {shown(max(self.stacks))} armies>, "
                f"defenders={shown(D)}{', exact=True' if self.exact else ''})"
            ),
            memory=memory,
            seconds=seconds,
            hint=USE_FLOATS if self.exact else "",
        )
        kern = kernel(self.rules)
        left = zero_vector(D + 1, self.exact)  # defenders left; index 0 = captured
        left[D] = 1
        self._survivors: list[Vector] = []
        self._captured_by: list[Number] = []
        for a in self.stacks:
            initial = np.zeros((a + 1, D + 1), dtype=object if self.exact else float)
            if self.exact:
                initial[:] = Fraction(0)
            initial[a, 1:] = left[1:]
            win, stop = sweep(initial, self.stop_at, kern, self.exact)
            survivors = win.copy()
            survivors[: stop.shape[0]] += stop.sum(axis=1)
            survivors[a] += left[0]  # the territory had already fallen: this stack keeps its armies
            self._survivors.append(survivors)
            self._captured_by.append(sum(win))
            new_left = zero_vector(D + 1, self.exact)
            new_left[0] = left[0] + sum(win)
            new_left[1:] = stop.sum(axis=0)[1:]
            left = new_left
        self._left = left

    def __repr__(self) -> str:
        options = [] if self.stop_at == 0 else [f"stop_at={self.stop_at}"]
        if self.exact:
            options.append("exact=True")
        if self.rules != CombatRules():
            options.append(f"rules={self.rules!r}")
        return f"CombinedAttack({', '.join([str(list(self.stacks)), str(self.defenders), *options])})"

    @property
    def win_probability(self) -> Number:
        """Probability that one of the stacks takes the territory (the combined attack is won)."""
        return plain_probability(self._left[0], self.exact)

    @property
    def capture_probability(self) -> Number:
        """Deprecated: the same number as :attr:`win_probability`, with a ``DeprecationWarning``."""
        warn_deprecated("CombinedAttack.capture_probability", "CombinedAttack.win_probability")
        return self.win_probability

    def captured_by(self) -> pd.Series:
        """P(stack ``j`` makes the capture), indexed by ``j = 0..``; sums to the win probability."""
        import pandas as pd

        return pd.Series(
            [plain_probability(p, self.exact) for p in self._captured_by],
            index=pd.RangeIndex(len(self.stacks), name="stack"),
            name="probability",
            dtype=object if self.exact else float,
        )

    @cached_property
    def defenders_left_distribution(self) -> pd.Series:
        """Defending armies left after every stack has had its turn (0 = captured)."""
        import pandas as pd

        return pd.Series(
            [plain_probability(p, self.exact) for p in self._left],
            index=pd.Index(range(self.defenders + 1), name="defenders"),
            name="probability",
            dtype=object if self.exact else float,
        )

    def survivors(self, stack: int) -> pd.Series:
        """Distribution of stack ``stack``'s armies able to attack at the end.

        A stack that never attacks (the territory fell before its turn) keeps
        all its armies.
        """
        import pandas as pd

        j = check_int("stack", stack, minimum=0, maximum=len(self.stacks) - 1)
        values = self._survivors[j]
        return pd.Series(
            [plain_probability(p, self.exact) for p in values],
            index=pd.Index(range(len(values)), name="attackers"),
            name="probability",
            dtype=object if self.exact else float,
        )


def combined_attack(
    stacks: Sequence[int],
    defenders: int,
    *,
    stop_at: int = 0,
    exact: bool = False,
    rules: object = None,
) -> CombinedAttack:
    """Several stacks attack one territory one after another.

    Parameters
    ----------
    stacks : sequence of int
        Armies able to attack of each stack (each from its own territory,
        which keeps one more), in the order they attack.
    defenders : int
        Defending armies.
    stop_at : int, default 0
        Each stack stops at ``stop_at`` armies able to attack or fewer.
    exact : bool, default False
        Fractions instead of floats.
    rules : CombatRules, optional
        Combat variant.

    Returns
    -------
    CombinedAttack
        With ``win_probability``, ``captured_by()``,
        ``defenders_left_distribution`` and ``survivors(j)``.

    Notes
    -----
    The defender's losses carry over: the second stack attacks whatever the
    first left, as a distribution.  A stack attacks only if the territory
    still stands.

    Examples
    --------
    >>> from riskmath import battle
    >>> attack = combined_attack([3, 3], 5)
    >>> round(attack.win_probability, 4)
    0.5409
    >>> round(battle(6, 5).win_probability, 4)    # one stack of 6 does better than 3 + 3
    0.6377
    """
    return CombinedAttack(stacks, defenders, stop_at=stop_at, exact=exact, rules=rules)


#: Refuse to enumerate more allocations than this (the count is C(total - 1, territories - 1)).
MAX_ALLOCATIONS = 200_000


def _compositions(total: int, parts: int) -> int:
    """``C(total - 1, parts - 1)``, or any number above :data:`MAX_ALLOCATIONS` once it is known to be above."""
    m, j = total - 1, min(parts - 1, total - parts)
    count = 1
    for i in range(1, j + 1):  # C(m, i) at least doubles while i <= m / 2: few steps before it is too many
        count = count * (m - i + 1) // i
        if count > MAX_ALLOCATIONS:
            return count
    return count


def defence_allocations(
    attackers: int,
    total: int,
    territories: int,
    *,
    leave: int | Sequence[int] = 1,
    exact: bool = False,
    rules: object = None,
) -> pd.DataFrame:
    """Every way to spread ``total`` defending armies along a path, ranked for the defender.

    The attacker, with ``attackers`` armies able to attack, must take the
    ``territories`` territories of the path in order (as in
    :func:`riskmath.conquest`); each territory holds at least one army.  All
    ``C(total - 1, territories - 1)`` allocations are evaluated exactly.

    Parameters
    ----------
    attackers : int
        Armies able to attack the first territory.
    total : int
        Defending armies to place, ``>= territories``.
    territories : int
        Length of the path, ``>= 1``.
    leave, exact, rules
        As for :func:`riskmath.conquest`.

    Returns
    -------
    pandas.DataFrame
        One row per allocation, best for the defender first: columns
        ``allocation`` (a tuple, first territory first) and
        ``success_probability`` (the attacker's), index ``rank`` from 1.
        Tied allocations are ranked by the allocation (the tuple's order),
        in floats as in Fractions: float probabilities within
        :data:`~riskmath.odds.planning.ALLOCATION_TIE` (``1e-12``) of each other count as a tie,
        so that both give the same ranking.

    Raises
    ------
    InvalidArgumentError
        For bad sizes, or more than :data:`~riskmath.odds.planning.MAX_ALLOCATIONS` allocations.

    Notes
    -----
    Glass and Neller (*Optimal Defensive Strategies in One-Dimensional RISK*,
    Mathematics Magazine 88(3), 2015, 217-230) study this question with a
    Markov chain model and simulations; their tables were not available to
    us, so the results here are not checked against theirs (see the docs).

    Examples
    --------
    Six armies on two territories against 8 attackers:

    >>> ranking = defense_allocations(8, 6, 2)    # also spelled defence_allocations
    >>> ranking["allocation"].tolist()
    [(2, 4), (4, 2), (3, 3), (1, 5), (5, 1)]
    """
    a = check_int("attackers", attackers, minimum=0)
    n = check_int("territories", territories, minimum=1)
    t = check_int("total", total, minimum=n)
    count = _compositions(t, n)
    if count > MAX_ALLOCATIONS:
        raise InvalidArgumentError(
            f"more than MAX_ALLOCATIONS={MAX_ALLOCATIONS} allocations of total={shown(t)} over territories={shown(n)}"
        )
    exact = check_exact(exact)
    combat = resolve_rules(rules)
    # Every allocation is one conquest of a path of n territories holding t armies in all.
    memory, seconds = battles_cost([(a, t - n + 1)], combat, exact, 2 * min(n, 2**100))
    seconds += min(n - 1, 2**100) * battles_cost([(a, 1)], combat, exact)[1]
    check_cost(
        lambda: (
            f"defence_allocations(attackers={shown(a)}, total={shown(t)}, territories={shown(n)}"
            f"{', exact=True' if exact else ''}): {count} conquests"
        ),
        memory=memory,
        seconds=seconds * count,
        hint=USE_FLOATS if exact else "",
    )
    leaves = check_steps("leave", leave, n, minimum=0)
    rows = []
    for cuts in combinations(range(1, t), n - 1):  # compositions of t into n positive parts
        bounds = (0, *cuts, t)
        allocation = tuple(bounds[i + 1] - bounds[i] for i in range(n))
        result = Conquest(a, allocation, leave=leaves, exact=exact, rules=combat)
        rows.append((allocation, result.win_probability))
    import pandas as pd

    rows.sort(key=lambda row: (row[1], row[0]))
    if not exact:
        rows = _ties_by_allocation(rows)
    table = pd.DataFrame(rows, columns=["allocation", "success_probability"])
    table.index = pd.RangeIndex(1, len(rows) + 1, name="rank")
    return table


#: How close two float success probabilities must be to rank as a tie in :func:`riskmath.defence_allocations` (their
#: round-off is about 1e-16 times the number of battle steps behind them).
ALLOCATION_TIE = 1e-12


def _ties_by_allocation(rows: list[tuple[tuple[int, ...], Any]]) -> list[tuple[tuple[int, ...], Any]]:
    """Rows sorted by probability, with each run of values within :data:`ALLOCATION_TIE` of its first ordered by
    allocation, as exact ties are: probabilities equal in Fractions can differ in a float's last bits (in 24 of
    325 small cases the float ranking of tied allocations differed from the exact one)."""
    ranked: list[tuple[tuple[int, ...], Any]] = []
    start = 0
    for end in range(1, len(rows) + 1):
        if end == len(rows) or rows[end][1] - rows[start][1] > ALLOCATION_TIE:
            ranked += sorted(rows[start:end]) if end - start > 1 else rows[start:end]
            start = end
    return ranked


#: The same function as :func:`defence_allocations`, spelled the US way (the project's spelling).
defense_allocations = defence_allocations


def success_curve(
    defenders: int | Sequence[int],
    max_attackers: int,
    *,
    leave: int | Sequence[int] = 1,
    exact: bool = False,
    rules: object = None,
) -> pd.Series:
    """P(the path falls) for every number of attackers ``0..max_attackers`` at once.

    The path is a plan without splits (:class:`~riskmath.odds.plans.Target`),
    so this is the backward pass of :func:`riskmath.plan_conquest`: one
    backward sweep of the battle chain per territory, last first.  With
    ``G(y)`` the probability of taking the rest of the path when ``y`` armies
    hold the territory just taken, the previous territory falls with
    probability ``F(x) = sum_y P(take it with y left | x) G(y - leave)``, for
    all ``x`` in one sweep.

    Parameters
    ----------
    defenders : int or sequence of int
        The path, as for :func:`riskmath.conquest`.
    max_attackers : int
        Largest number of armies able to attack.
    leave, exact, rules
        As for :func:`riskmath.conquest`.

    Returns
    -------
    pandas.Series
        Indexed by ``attackers`` ``0..max_attackers``.

    Examples
    --------
    >>> from riskmath import conquest
    >>> curve = success_curve([3, 2, 2], 20)
    >>> round(float(curve[12]), 4), round(conquest(12, [3, 2, 2]).win_probability, 4)
    (0.8387, 0.8387)
    >>> int((curve >= 0.9).idxmax())    # the same answer as armies_needed([3, 2, 2], 0.9)
    14
    """
    import pandas as pd

    path = check_path(defenders)
    X = check_int("max_attackers", max_attackers, minimum=0)
    leaves = check_steps("leave", leave, len(path), minimum=0)
    exact = check_exact(exact)
    plan: Target | None = None
    for d, keep in zip(reversed(path), reversed(leaves), strict=True):
        plan = Target(d, leave=keep, then=() if plan is None else (plan,))
    assert plan is not None
    combat = resolve_rules(rules)
    memory, seconds = plan_cost(plan, X, combat, exact, forward=False)
    check_cost(
        lambda: f"success_curve({describe_path(path)}, max_attackers={shown(X)}{', exact=True' if exact else ''})",
        memory=memory,
        seconds=seconds,
        hint=USE_FLOATS if exact else "use a smaller max_attackers; ",
    )
    curve = unit_interval_array(success_functions(plan, X, kernel(combat), exact)[id(plan)])
    return pd.Series(
        curve,
        index=pd.RangeIndex(0, X + 1, name="attackers"),
        name="success_probability",
        dtype=object if exact else float,
    )


def _probability_text(probability: object) -> str:
    """A probability in a message as the user wrote it: a Fraction as ``9/10`` (the CLI passes them exact)."""
    return str(probability) if isinstance(probability, Fraction) else shown(probability)
