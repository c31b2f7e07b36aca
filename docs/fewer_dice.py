"""Would throwing fewer dice ever pay?  A numerical check for the theory page.

:func:`riskmath.battle` assumes that both sides always throw as many dice as
they may.  This script asks whether the attacker could do better by throwing
fewer dice for *one* roll and then going back to the maximum.  For a start
state ``(a, d)`` (``a`` armies able to attack, ``d`` defenders) and a hand of
``c`` attacking dice it computes

.. math::

    W_c(a, d) = \\sum_{(i, j)} P_{c,e}(i, j) \\, V(a - i, d - j),
    \\qquad e = \\min(2, d),

where ``P_{c,e}`` is :func:`riskmath.roll_odds` and ``V`` is the value of the
battle fought with maximum dice throughout (from
:func:`riskmath.battle_statistics`, with the boundary values set here), and
compares it with ``W_{min(3, a)}(a, d) = V(a, d)``.  Only the public API of
riskmath is used.

Run ``python docs/fewer_dice.py`` (options: ``--max-armies N``, ``--exact``)
to print the findings quoted in ``docs/theory.rst``;
``tests/test_theory_claims.py`` asserts them.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

import riskmath as rm

#: Objectives: statistic of :data:`riskmath.STATISTICS` -> +1 if larger is
#: better for the attacker, -1 if smaller is better.  Expected defender losses
#: from a fixed start ``(a, d)`` are ``d - E[defenders left]``, so maximising
#: them means minimising ``expected_defenders_left``.
OBJECTIVES = {
    "win_probability": 1,
    "expected_attackers_left": 1,
    "expected_defenders_left": -1,
}

Number = float | Fraction


def _sign(objective: str) -> int:
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; expected one of {sorted(OBJECTIVES)}")
    return OBJECTIVES[objective]


def boundary_value(objective: str, attackers: int, defenders: int) -> int:
    """Value of a finished battle: ``defenders == 0`` is a win, ``attackers == 0`` a loss."""
    _sign(objective)
    if objective == "win_probability":
        return int(defenders == 0)
    if objective == "expected_attackers_left":
        return attackers
    return defenders  # expected_defenders_left


def max_dice_values(max_armies: int, objective: str, *, exact: bool = False) -> np.ndarray:
    """``V[a, d]`` for ``0 <= a, d <= max_armies``: the objective under maximum dice.

    Row 0 and column 0 hold the boundary values of finished battles
    (:func:`boundary_value`); the rest comes from one call of
    :func:`riskmath.battle_statistics`.
    """
    _sign(objective)
    grid = rm.battle_statistics(max_armies, max_armies, (objective,), exact=exact)[objective]
    values = np.zeros((max_armies + 1, max_armies + 1), dtype=object if exact else float)
    values[1:, 1:] = grid
    for a in range(max_armies + 1):
        values[a, 0] = boundary_value(objective, a, 0)
    for d in range(1, max_armies + 1):
        values[0, d] = boundary_value(objective, 0, d)
    return values


def one_roll_then_max(values: np.ndarray, attackers: int, defenders: int, dice: int, *, exact: bool = False) -> Number:
    """Value of throwing ``dice`` attacking dice once, then maximum dice (the defender always throws its maximum)."""
    odds = rm.roll_odds(dice, min(2, defenders))
    zero: Number = Fraction(0) if exact else 0.0
    return sum(
        ((p if exact else float(p)) * values[attackers - i, defenders - j] for (i, j), p in odds.items()),
        zero,
    )


@dataclass(frozen=True)
class Deviation:
    """One state and a smaller hand, ``dice < min(3, attackers)``, thrown for one roll.

    ``gain`` is how much better the deviation is for the attacker than
    maximum dice, in the objective's direction: positive means fewer dice
    pay, negative means they cost.
    """

    attackers: int
    defenders: int
    dice: int
    max_dice_value: Number
    deviation_value: Number
    gain: Number


def all_deviations(max_armies: int = 30, objective: str = "win_probability", *, exact: bool = False) -> list[Deviation]:
    """Every one-step deviation for ``1 <= attackers, defenders <= max_armies``."""
    sign = _sign(objective)
    values = max_dice_values(max_armies, objective, exact=exact)
    result = []
    for a in range(1, max_armies + 1):
        for d in range(1, max_armies + 1):
            best = values[a, d]
            for c in range(1, min(3, a)):
                value = one_roll_then_max(values, a, d, c, exact=exact)
                result.append(Deviation(a, d, c, best, value, sign * (value - best)))
    return result


def one_step_deviations(
    max_armies: int = 30,
    objective: str = "win_probability",
    *,
    exact: bool = False,
    tolerance: float = 1e-12,
) -> list[Deviation]:
    """The deviations that beat maximum dice by more than ``tolerance`` (0 when ``exact``)."""
    threshold = 0 if exact else tolerance
    return [x for x in all_deviations(max_armies, objective, exact=exact) if x.gain > threshold]


def main(argv: Sequence[str] | None = None) -> None:
    """Print, for each objective, the deviations that pay, the closest call and the costliest one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-armies", type=int, default=30)
    parser.add_argument("--exact", action="store_true", help="exact fractions (no tolerance needed)")
    args = parser.parse_args(argv)
    n = args.max_armies
    for objective in OBJECTIVES:
        deviations = all_deviations(n, objective, exact=args.exact)
        paying = one_step_deviations(n, objective, exact=args.exact)
        closest = max(deviations, key=lambda x: x.gain)
        costliest = min(deviations, key=lambda x: x.gain)
        print(f"{objective} ({'better when larger' if OBJECTIVES[objective] > 0 else 'better when smaller'})")
        print(f"  states 1..{n} x 1..{n}, {len(deviations)} one-step deviations checked, {len(paying)} pay")
        for x in paying:
            print(f"  pays: a={x.attackers} d={x.defenders} c={x.dice} gain={float(x.gain):.3e}")
        for label, x in (("closest call", closest), ("costliest", costliest)):
            print(
                f"  {label}: a={x.attackers} d={x.defenders} c={x.dice}: max dice {float(x.max_dice_value):.6f}, "
                f"c dice {float(x.deviation_value):.6f}, gain {float(x.gain):.3e}"
            )


if __name__ == "__main__":
    main()
