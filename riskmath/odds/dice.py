"""Exact odds of a single roll of the dice, and the combat rules that shape them.

One roll of a RISK battle: the attacker throws ``attacker_dice`` dice, the
defender ``defender_dice``; both sort their dice from high to low and compare
them pair by pair, as many pairs as the smaller hand has dice.  Each pair
costs the loser one army; a tied pair goes to the defender under the classic
rules (``ties="defender"``) or to the attacker (``ties="attacker"``).

:func:`roll_odds` gives the exact distribution of ``(attacker_losses,
defender_losses)`` as :class:`fractions.Fraction` values.  It counts outcomes
with a dynamic programme over face values instead of listing all
``sides ** dice`` throws, so ten dice a side with 100-sided dice take a
fraction of a second (see :func:`count_pair_wins` for the method).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Literal

from riskmath._validation import check_choice, check_cost, check_int, shown
from riskmath.errors import InvalidArgumentError, RulesError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EDITIONS",
    "MAX_DICE",
    "MAX_SIDES",
    "CombatRules",
    "RollOdds",
    "count_pair_wins",
    "resolve_rules",
    "roll_odds",
]

#: Largest number of dice a side may throw in one roll.
MAX_DICE = 20
#: Largest number of faces a die may have.
MAX_SIDES = 1000

Ties = Literal["defender", "attacker"]
_TIES = ("defender", "attacker")


#: Seconds per unit of :func:`count_pair_wins_seconds`, measured (20 v 20 dice with 1000 sides: 51 s).
_COUNT_RATE = 3e-7


def count_pair_wins_seconds(attacker_dice: int, defender_dice: int, attacker_sides: int, defender_sides: int) -> float:
    """Estimated seconds of :func:`count_pair_wins` (``sides * m**3 * (dice_a + dice_d)`` steps on big integers)."""
    m = min(attacker_dice, defender_dice)
    return _COUNT_RATE * max(attacker_sides, defender_sides) * m**3 * (attacker_dice + defender_dice)


@functools.lru_cache(maxsize=1024)  # (a few KB each; a fuzzer's thousands of variants must not pile up)
def count_pair_wins(
    attacker_dice: int,
    defender_dice: int,
    attacker_sides: int = 6,
    defender_sides: int = 6,
    attacker_wins_ties: bool = False,
) -> tuple[int, ...]:
    """Count throws by the number of pairs the attacker wins.

    Returns a tuple ``counts`` of length ``m + 1``, ``m = min(attacker_dice,
    defender_dice)``, where ``counts[w]`` is the number of the
    ``attacker_sides**attacker_dice * defender_sides**defender_dice`` ordered
    throws in which the attacker wins exactly ``w`` of the ``m`` compared
    pairs (so the defender loses ``w`` armies and the attacker ``m - w``).

    Notes
    -----
    The dice are compared by rank: the attacker's ``r``-th highest die against
    the defender's ``r``-th highest, for ``r = 1..m``.  The programme scans
    the face values ``v`` from high to low and, at each ``v``, decides how many
    of the still unplaced dice of each side show exactly ``v``.  Its state is
    ``(A, D)``, the numbers of attacker and defender dice already placed (all
    showing more than the current value), together with a vector of counts
    indexed by the pairs won so far.  Placing ``k`` of the ``n`` unplaced dice
    of a side at ``v`` can be done in ``C(n, k)`` ways, which turns counts of
    sorted throws into counts of ordered throws.

    When defender dice of ranks ``D+1 .. D+k`` are placed at ``v``, the
    attacker wins pair ``r`` exactly when its ``r``-th die is already placed,
    i.e. ``r <= A``.  Placing the defender's dice first at each value makes a
    tie count for the defender; placing the attacker's first makes it count for
    the attacker.

    Two shortcuts keep the state small: once the defender has placed ``m``
    dice the result is settled and the remaining dice may show any lower
    value (a power of the number of lower faces), and once the attacker has
    placed ``m`` dice its remaining dice are settled the same way.  The cost is
    ``O(sides * m**2 * (attacker_dice + defender_dice) * m)`` integer operations,
    independent of the number of throws.

    Examples
    --------
    >>> count_pair_wins(3, 2)          # 3 v 2 with six-sided dice
    (2275, 2611, 2890)
    >>> sum(count_pair_wins(3, 2)) == 6**5
    True
    """
    na, nd, sa, sd = attacker_dice, defender_dice, attacker_sides, defender_sides
    m = min(na, nd)
    final = [0] * (m + 1)
    live: dict[tuple[int, int], list[int]] = {(0, 0): [1] + [0] * m}

    def place_defender(states: dict[tuple[int, int], list[int]]) -> dict[tuple[int, int], list[int]]:
        out: dict[tuple[int, int], list[int]] = {}
        for (a, d), vec in states.items():
            free = nd - d
            for k in range(free + 1):
                won = max(0, min(d + k, m, a) - d)
                weight = math.comb(free, k)
                target = out.setdefault((a, d + k), [0] * (m + 1))
                for w in range(m + 1 - won):
                    if vec[w]:
                        target[w + won] += weight * vec[w]
        return out

    def place_attacker(states: dict[tuple[int, int], list[int]]) -> dict[tuple[int, int], list[int]]:
        out: dict[tuple[int, int], list[int]] = {}
        for (a, d), vec in states.items():
            free = na - a
            for k in range(free + 1):
                weight = math.comb(free, k)
                target = out.setdefault((a + k, d), [0] * (m + 1))
                for w in range(m + 1):
                    target[w] += weight * vec[w]
        return out

    for v in range(max(sa, sd), 0, -1):
        if attacker_wins_ties:
            if v <= sa:
                live = place_attacker(live)
            if v <= sd:
                live = place_defender(live)
        else:
            if v <= sd:
                live = place_defender(live)
            if v <= sa:
                live = place_attacker(live)
        # Settle what can no longer change: every remaining die shows < v.
        lower_a, lower_d = min(v - 1, sa), min(v - 1, sd)
        settled: dict[tuple[int, int], list[int]] = {}
        for (a, d), vec in live.items():
            if d >= m:
                factor = lower_a ** (na - a) * lower_d ** (nd - d)
                for w in range(m + 1):
                    final[w] += factor * vec[w]
                continue
            if m <= a < na:
                factor = lower_a ** (na - a)
                vec = [factor * c for c in vec]
                a = na
            target = settled.setdefault((a, d), [0] * (m + 1))
            for w in range(m + 1):
                target[w] += vec[w]
        live = settled
    return tuple(final)


#: The names of the edition presets of :class:`riskmath.Rules` (:meth:`riskmath.Rules.presets`, in its order),
#: whose dice :meth:`riskmath.CombatRules.edition` gives; ``tests/test_rules.py`` holds the two lists together.
EDITIONS = (
    "us_1993",
    "us_1993_experts",
    "us_1993_secret_mission",
    "us_1993_capital",
    "us_1959",
    "us_1963",
    "euro_2003",
    "risiko",
    "french_1957",
    "anniversary_1999",
    "article_ja",
)
#: The editions whose defender throws up to three dice: the 1957 French original and the Italian *Risiko!*.
_THREE_DEFENDER_DICE = frozenset({"french_1957", "risiko"})


@dataclass(frozen=True, slots=True)
class CombatRules:
    """The rules of a single roll: dice maxima, dice sides and ties.

    The attacker throws ``min(attacker_max_dice, attackers)`` dice and the
    defender ``min(defender_max_dice, defenders)``, where ``attackers`` counts
    the armies able to attack (the attacking territory holds one more).

    Parameters
    ----------
    attacker_max_dice, defender_max_dice : int
        Most dice a side may throw (1..MAX_DICE).  Classic: 3 and 2.
    attacker_sides, defender_sides : int
        Faces per die (2..MAX_SIDES).  Classic: 6 and 6.
    ties : {"defender", "attacker"}
        Who wins a tied pair.  Classic: the defender.

    Raises
    ------
    RulesError
        If a value is out of range.

    Notes
    -----
    Editions differ: the 1993 US rules (the default) give the defender at most
    2 dice; the 1957 French original and the Italian *Risiko!* let the
    defender throw 3 (:meth:`three_defender_dice`).  Ties go to the defender in
    every edition in docs/sources.rst; ``ties="attacker"`` is a house rule.

    Examples
    --------
    >>> CombatRules()
    CombatRules(attacker_max_dice=3, defender_max_dice=2, attacker_sides=6, defender_sides=6, ties='defender')
    >>> CombatRules.three_defender_dice().defender_max_dice
    3
    """

    attacker_max_dice: int = 3
    defender_max_dice: int = 2
    attacker_sides: int = 6
    defender_sides: int = 6
    ties: Ties = "defender"

    def __post_init__(self) -> None:
        for name, low, high in (
            ("attacker_max_dice", 1, MAX_DICE),
            ("defender_max_dice", 1, MAX_DICE),
            ("attacker_sides", 2, MAX_SIDES),
            ("defender_sides", 2, MAX_SIDES),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= int(value) <= high:
                raise RulesError(f"CombatRules.{name} must be an integer in {low}..{high}, got {shown(value)}")
            object.__setattr__(self, name, int(value))  # a NumPy integer is stored as a Python int
        if not isinstance(self.ties, str) or self.ties not in _TIES:
            raise RulesError(f"CombatRules.ties must be 'defender' or 'attacker', got {shown(self.ties)}")

    @classmethod
    def classic(cls) -> CombatRules:
        """The 1993 US rules: 3 attacking dice, 2 defending, d6, ties to the defender."""
        return cls()

    @classmethod
    def three_defender_dice(cls) -> CombatRules:
        """The defender may throw up to 3 dice (1957 French original, Italian *Risiko!*)."""
        return cls(defender_max_dice=3)

    @classmethod
    def edition(cls, name: str) -> CombatRules:
        """The dice of an edition preset of :class:`riskmath.Rules`, by its name (one of
        :data:`riskmath.odds.dice.EDITIONS`).

        The presets' combat rules are made here (``Rules.preset(name).combat == CombatRules.edition(name)``),
        so that every ``rules=`` argument of the odds also takes a preset's name: ``rm.battle(10, 10,
        rules="risiko")``.  Only the 1957 French and the Italian editions differ from the classic dice: their
        defender throws up to three (see the editions page).

        Raises
        ------
        RulesError
            For a name that is not a preset's, listing the presets.

        Examples
        --------
        >>> CombatRules.edition("risiko").defender_max_dice, CombatRules.edition("us_1993") == CombatRules()
        (3, True)
        """
        if not isinstance(name, str) or name not in EDITIONS:
            raise RulesError(f"unknown rules preset {shown(name)}; presets are {', '.join(EDITIONS)}")
        return cls.three_defender_dice() if name in _THREE_DEFENDER_DICE else cls()

    def attacker_dice(self, attackers: int) -> int:
        """Dice thrown by ``attackers`` armies able to attack."""
        return min(self.attacker_max_dice, attackers)

    def defender_dice(self, defenders: int) -> int:
        """Dice thrown by ``defenders`` defending armies."""
        return min(self.defender_max_dice, defenders)

    def roll_odds(self, attacker_dice: int, defender_dice: int) -> RollOdds:
        """:func:`roll_odds` for these rules' sides and tie rule."""
        return RollOdds(
            attacker_dice,
            defender_dice,
            attacker_sides=self.attacker_sides,
            defender_sides=self.defender_sides,
            ties=self.ties,
        )


class RollOdds(Mapping[tuple[int, int], Fraction]):
    """Exact distribution of one roll: ``(attacker_losses, defender_losses) -> Fraction``.

    Build it with :func:`roll_odds`.  The keys run over every split of the
    ``min(attacker_dice, defender_dice)`` compared pairs, in order of
    increasing attacker losses; all of them have positive probability.

    Examples
    --------
    >>> odds = RollOdds(3, 2)
    >>> odds[(0, 2)], odds[(1, 1)], odds[(2, 0)]
    (Fraction(1445, 3888), Fraction(2611, 7776), Fraction(2275, 7776))
    >>> odds.expected_defender_losses
    Fraction(2797, 2592)
    """

    __slots__ = ("_probabilities", "attacker_dice", "attacker_sides", "defender_dice", "defender_sides", "ties")

    def __init__(
        self,
        attacker_dice: int,
        defender_dice: int,
        *,
        attacker_sides: int = 6,
        defender_sides: int = 6,
        ties: Ties = "defender",
    ) -> None:
        self.attacker_dice = check_int("attacker_dice", attacker_dice, minimum=1, maximum=MAX_DICE)
        self.defender_dice = check_int("defender_dice", defender_dice, minimum=1, maximum=MAX_DICE)
        self.attacker_sides = check_int("attacker_sides", attacker_sides, minimum=2, maximum=MAX_SIDES)
        self.defender_sides = check_int("defender_sides", defender_sides, minimum=2, maximum=MAX_SIDES)
        self.ties: Ties = check_choice("ties", ties, _TIES)  # type: ignore[assignment]
        check_cost(
            lambda: f"{self!r}",
            seconds=count_pair_wins_seconds(
                self.attacker_dice, self.defender_dice, self.attacker_sides, self.defender_sides
            ),
        )
        counts = count_pair_wins(
            self.attacker_dice,
            self.defender_dice,
            self.attacker_sides,
            self.defender_sides,
            self.ties == "attacker",
        )
        total = self.attacker_sides**self.attacker_dice * self.defender_sides**self.defender_dice
        m = len(counts) - 1
        # counts[w]: attacker wins w pairs, so it loses m - w; list by attacker losses.
        self._probabilities = {(m - w, w): Fraction(counts[w], total) for w in range(m, -1, -1)}

    @property
    def comparisons(self) -> int:
        """Number of compared pairs: ``min(attacker_dice, defender_dice)``."""
        return min(self.attacker_dice, self.defender_dice)

    @property
    def expected_attacker_losses(self) -> Fraction:
        """Mean armies the attacker loses in this roll."""
        return sum((p * a for (a, _), p in self.items()), Fraction(0))

    @property
    def expected_defender_losses(self) -> Fraction:
        """Mean armies the defender loses in this roll."""
        return sum((p * d for (_, d), p in self.items()), Fraction(0))

    def __getitem__(self, key: tuple[int, int]) -> Fraction:
        return self._probabilities[key]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._probabilities)

    def __len__(self) -> int:
        return len(self._probabilities)

    def __repr__(self) -> str:
        options = []
        if self.attacker_sides != 6:
            options.append(f"attacker_sides={self.attacker_sides}")
        if self.defender_sides != 6:
            options.append(f"defender_sides={self.defender_sides}")
        if self.ties != "defender":
            options.append(f"ties={self.ties!r}")
        args = ", ".join([str(self.attacker_dice), str(self.defender_dice), *options])
        return f"RollOdds({args})"

    def __str__(self) -> str:
        lines = [f"{self!r}: attacker_losses, defender_losses -> probability"]
        lines += [f"  ({a}, {d}) -> {p} ~ {float(p):.6f}" for (a, d), p in self.items()]
        return "\n".join(lines)

    def to_frame(self, *, exact: bool = False) -> pd.DataFrame:
        """The distribution as a DataFrame.

        Parameters
        ----------
        exact : bool
            If true the ``probability`` column holds :class:`~fractions.Fraction`
            objects, otherwise float64.

        Returns
        -------
        pandas.DataFrame
            Index ``(attacker_losses, defender_losses)``, one column ``probability``.
        """
        import pandas as pd

        index = pd.MultiIndex.from_tuples(list(self), names=["attacker_losses", "defender_losses"])
        values = list(self.values()) if exact else [float(p) for p in self.values()]
        return pd.DataFrame({"probability": pd.Series(values, index=index, dtype=object if exact else float)})


def roll_odds(
    attacker_dice: int,
    defender_dice: int,
    *,
    attacker_sides: int = 6,
    defender_sides: int = 6,
    ties: Ties = "defender",
) -> RollOdds:
    """Exact odds of one roll of ``attacker_dice`` against ``defender_dice`` dice.

    Parameters
    ----------
    attacker_dice, defender_dice : int
        Dice thrown by each side, 1..MAX_DICE.
    attacker_sides, defender_sides : int, default 6
        Faces per die, 2..MAX_SIDES.
    ties : {"defender", "attacker"}, default "defender"
        Who wins a tied pair (the defender under every published edition).

    Returns
    -------
    RollOdds
        Mapping ``(attacker_losses, defender_losses) -> Fraction``; use
        ``.to_frame()`` for a DataFrame.

    Raises
    ------
    InvalidArgumentError
        If a count is not an integer in range or ``ties`` is unknown.

    Examples
    --------
    >>> for losses, p in roll_odds(3, 2).items():
    ...     print(losses, p, round(float(p), 4))
    (0, 2) 1445/3888 0.3717
    (1, 1) 2611/7776 0.3358
    (2, 0) 2275/7776 0.2926
    >>> roll_odds(1, 1)[(0, 1)]    # the attacker's single die must be higher
    Fraction(5, 12)
    >>> roll_odds(1, 1, ties="attacker")[(0, 1)]
    Fraction(7, 12)
    """
    return RollOdds(
        attacker_dice,
        defender_dice,
        attacker_sides=attacker_sides,
        defender_sides=defender_sides,
        ties=ties,
    )


def resolve_rules(rules: object) -> CombatRules:
    """The :class:`CombatRules` meant by a ``rules=`` argument.

    ``None`` means the classic rules; a :class:`CombatRules` is used as is;
    a string names an edition preset of :class:`riskmath.Rules`, whose dice
    it means (:meth:`CombatRules.edition`); any other object must carry one
    in a ``combat`` attribute (as the full rules model does).

    Raises
    ------
    InvalidArgumentError
        If ``rules`` is none of those (a string that names no preset included, with the presets listed).

    Examples
    --------
    >>> resolve_rules(None) == CombatRules()
    True
    >>> from riskmath.game.rules import Rules
    >>> resolve_rules(Rules()).defender_max_dice
    2
    >>> resolve_rules("risiko").defender_max_dice
    3
    >>> resolve_rules("classic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    riskmath.errors.InvalidArgumentError: rules must be a CombatRules, ... got 'classic'
    """
    if rules is None:
        return CombatRules()
    if isinstance(rules, CombatRules):
        return rules
    if isinstance(rules, str) and rules in EDITIONS:
        return CombatRules.edition(rules)
    combat = getattr(rules, "combat", None)
    if isinstance(combat, CombatRules):
        return combat
    raise InvalidArgumentError(
        "rules must be a CombatRules, rules carrying one as .combat (riskmath.Rules) or the name of a preset "
        f"({', '.join(EDITIONS)}), got {shown(rules)}"
    )
