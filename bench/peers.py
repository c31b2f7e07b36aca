"""Two public pure-Python RISK battle calculators, re-implemented here as baselines for ``make bench`` (issue 21).

No code of either project is copied: each function below is written for
this bench from the published description of the peer's algorithm (its
README and the structure of its public source), with the peer's data
layout and its order of work, so that timing it measures what running the
peer would.  ``bench/run.py`` checks every number against riskmath's before
timing anything.

* **Minerva** (kalgynirae/Minerva, ``calculate_invasion``): the fastest
  pure-Python battle DP we know of.  A forward pass: a grid of Python numbers
  over ``(attackers, defenders)`` holding the probability of reaching each
  state, the start state set to 1, the grid walked by anti-diagonals from
  the start; each state's mass is split over the outcomes of one roll, which
  a helper returns as a tuple of ``(attackers, defenders, probability)``
  built per state from a nested table of the six dice match-ups (losses and
  probabilities written as float literals); final states (a side at zero)
  go into a dictionary of outcomes.
* **sipolac/risk** (``calc_battle_probs``): exact in the sense of no
  simulation, by memoised recursion.  A function of the state, memoised
  with ``functools.lru_cache`` created afresh for each call, returns the
  distribution of the final state as a dictionary; a transient state
  combines its successors' dictionaries, each scaled by the roll's
  probability, into a new dictionary.  Its counts are of the armies on the
  attacking territory (one more than riskmath's armies able to attack), and
  it stops when the attacker is down to ``stop`` armies there (``stop=1``:
  fight to the last).

Both use the classic rules (three attacking dice, two defending, six sides,
ties to the defender).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from functools import cache

# One roll of the classic dice: (attacker dice, defender dice) -> ((attacker losses, defender losses, p), ...).
# The numbers are riskmath's (count_pair_wins), as the peers write them: float divisions of the counts.
_ROLL = {
    (1, 1): ((0, 1, 15 / 36), (1, 0, 21 / 36)),
    (1, 2): ((0, 1, 55 / 216), (1, 0, 161 / 216)),
    (2, 1): ((0, 1, 125 / 216), (1, 0, 91 / 216)),
    (2, 2): ((0, 2, 295 / 1296), (2, 0, 581 / 1296), (1, 1, 420 / 1296)),
    (3, 1): ((0, 1, 855 / 1296), (1, 0, 441 / 1296)),
    (3, 2): ((0, 2, 2890 / 7776), (2, 0, 2275 / 7776), (1, 1, 2611 / 7776)),
}
# Minerva's nested layout: [attacker dice - 1][defender dice - 1].
_NESTED = tuple(tuple(_ROLL[c, e] for e in (1, 2)) for c in (1, 2, 3))


def _minerva_roll(attackers: int, defenders: int, chance: float) -> tuple[tuple[int, int, float], ...]:
    """The states one roll leads to from ``(attackers, defenders)``, each with ``chance`` times its probability."""
    losses = _NESTED[min(attackers, 3) - 1][min(defenders, 2) - 1]
    return tuple((attackers - lost_a, defenders - lost_d, p * chance) for lost_a, lost_d, p in losses)


def minerva_outcomes(attackers: int, defenders: int) -> dict[tuple[int, int], float]:
    """Minerva's forward pass: ``{(attackers left, defenders left): probability}`` of the final states."""
    grid: list[list[float]] = [[0 for _ in range(defenders + 1)] for _ in range(attackers + 1)]
    grid[attackers][defenders] = 1
    outcomes: dict[tuple[int, int], float] = {}
    for distance in range(attackers + defenders + 1):  # anti-diagonals, from the start state down
        x_start = max(0, attackers - distance)
        y_start = min(defenders, defenders - (distance - attackers))
        for x, y in zip(range(x_start, attackers + 1), range(y_start, -1, -1), strict=False):
            mass = grid[x][y]
            if not mass:
                continue
            if x == 0 or y == 0:
                outcomes[(x, y)] = mass
                continue
            for a, d, p in _minerva_roll(x, y, mass):
                grid[a][d] += p
    return outcomes


def minerva_win(attackers: int, defenders: int) -> float:
    """P(the attacker wins) by :func:`minerva_outcomes`."""
    return sum(p for (_, d), p in minerva_outcomes(attackers, defenders).items() if d == 0)


def sipolac_outcomes(attackers: int, defenders: int) -> dict[tuple[int, int], float]:
    """sipolac/risk's memoised recursion; ``attackers`` able to attack (its count is one more), to the last."""
    stop = 1

    @cache
    def final(a: int, d: int) -> dict[tuple[int, int], float]:
        if a <= stop or d == 0:
            return {(a, d): 1.0}
        parts = []
        for lost_a, lost_d, p in _ROLL[min(3, a - 1), min(2, d)]:
            parts.append({state: q * p for state, q in final(a - lost_a, d - lost_d).items()})
        combined: defaultdict[tuple[int, int], float] = defaultdict(float)
        for part in parts:
            for state, q in part.items():
                combined[state] += q
        return dict(combined)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * (attackers + defenders) + 100))
    try:
        result = final(attackers + 1, defenders)
    finally:
        sys.setrecursionlimit(limit)
    return {(a - 1, d): p for (a, d), p in result.items()}


def sipolac_win(attackers: int, defenders: int) -> float:
    """P(the attacker wins) by :func:`sipolac_outcomes`."""
    return sum(p for (_, d), p in sipolac_outcomes(attackers, defenders).items() if d == 0)
