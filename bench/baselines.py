"""Straightforward pure-Python dynamic programmes, the yardstick for ``make bench``.

They use lists of floats and the classic rules only (3 attacking dice,
2 defending, six-sided dice, ties to the defender).  They are written the way
a careful programmer would write them without NumPy: one pass over the
states in an order where every state is final before it is used.  The
chained conquests come in two versions: the obvious one (one battle per
possible incoming count) and a smarter one (the whole incoming distribution
through one pass per battle).  :func:`armies_needed_scan` alone calls
riskmath, to time a search strategy rather than a DP.
"""

from __future__ import annotations

from itertools import product

FACES = range(1, 7)


def roll_table(attacker_dice: int, defender_dice: int) -> list[float]:
    """P(attacker loses i armies), i = 0..min(dice), by listing every throw."""
    pairs = min(attacker_dice, defender_dice)
    counts = [0] * (pairs + 1)
    for throw in product(FACES, repeat=attacker_dice + defender_dice):
        attack = sorted(throw[:attacker_dice], reverse=True)
        defend = sorted(throw[attacker_dice:], reverse=True)
        counts[sum(x <= y for x, y in zip(attack, defend, strict=False))] += 1
    total = 6 ** (attacker_dice + defender_dice)
    return [c / total for c in counts]


TABLES = {(c, e): roll_table(c, e) for c in (1, 2, 3) for e in (1, 2)}


def forward_battle(attackers: int, defenders: int) -> tuple[list[float], list[float]]:
    """Distribution of the end of one battle: (P(win with a left), P(lose with d left))."""
    mass = [[0.0] * (defenders + 1) for _ in range(attackers + 1)]
    mass[attackers][defenders] = 1.0
    for d in range(defenders, 0, -1):
        for a in range(attackers, 0, -1):
            m = mass[a][d]
            if m == 0.0:
                continue
            table = TABLES[min(3, a), min(2, d)]
            pairs = len(table) - 1
            for i, p in enumerate(table):
                mass[a - i][d - pairs + i] += p * m
    wins = [mass[a][0] for a in range(attackers + 1)]
    losses = [mass[0][d] for d in range(defenders + 1)]
    return wins, losses


def backward_table(attackers: int, defenders: int) -> list[list[float]]:
    """P(win) for every start state 1..attackers x 1..defenders."""
    win = [[0.0] * (defenders + 1) for _ in range(attackers + 1)]
    for a in range(1, attackers + 1):
        win[a][0] = 1.0
    for a in range(1, attackers + 1):
        for d in range(1, defenders + 1):
            table = TABLES[min(3, a), min(2, d)]
            pairs = len(table) - 1
            win[a][d] = sum(p * win[a - i][d - pairs + i] for i, p in enumerate(table))
    return win


def forward_battle_exact(attackers: int, defenders: int) -> object:
    """:func:`forward_battle` with :class:`fractions.Fraction` arithmetic; returns P(win)."""
    from fractions import Fraction

    tables = {key: [Fraction(p).limit_denominator(7776) for p in table] for key, table in TABLES.items()}
    mass = [[Fraction(0)] * (defenders + 1) for _ in range(attackers + 1)]
    mass[attackers][defenders] = Fraction(1)
    for d in range(defenders, 0, -1):
        for a in range(attackers, 0, -1):
            m = mass[a][d]
            if not m:
                continue
            table = tables[min(3, a), min(2, d)]
            pairs = len(table) - 1
            for i, p in enumerate(table):
                mass[a - i][d - pairs + i] += p * m
    return sum(mass[a][0] for a in range(attackers + 1))


def _sweep(mass: list[list[float]], attackers: int, defenders: int) -> None:
    """The pass of :func:`forward_battle` over a grid already holding its initial mass."""
    for d in range(defenders, 0, -1):
        for a in range(attackers, 0, -1):
            m = mass[a][d]
            if m == 0.0:
                continue
            table = TABLES[min(3, a), min(2, d)]
            pairs = len(table) - 1
            for i, p in enumerate(table):
                mass[a - i][d - pairs + i] += p * m


def _move_on(won: list[float], leave: int) -> list[float]:
    """Armies able to attack the next territory: ``y - leave`` of ``y`` holding it (0 cannot attack)."""
    force = [0.0] * len(won)
    for y in range(leave + 1, len(won)):
        force[y - leave] = won[y]
    return force


def conquest_per_start(attackers: int, path: list[int], leave: int = 1) -> list[float]:
    """P(take every territory of ``path`` with ``y`` left), y = 0..attackers: the obvious chain.

    For each territory and each incoming count ``x`` with positive
    probability, one :func:`forward_battle` from ``(x, d)``; its win
    distribution, weighted by P(x), is accumulated.
    """
    force = [0.0] * (attackers + 1)
    force[attackers] = 1.0
    won = force
    for k, d in enumerate(path):
        if k:
            force = _move_on(won, leave)
        won = [0.0] * (attackers + 1)
        for x in range(1, attackers + 1):
            px = force[x]
            if px == 0.0:
                continue
            wins, _ = forward_battle(x, d)
            for y, w in enumerate(wins):
                won[y] += px * w
    return won


def conquest_columns(attackers: int, path: list[int], leave: int = 1) -> list[float]:
    """:func:`conquest_per_start`, pushing the whole incoming distribution through one pass per battle.

    The incoming distribution fills column ``d`` of the grid; one sweep over
    ``(a, d)`` then fights every start at once.
    """
    force = [0.0] * (attackers + 1)
    force[attackers] = 1.0
    won = force
    for k, d in enumerate(path):
        if k:
            force = _move_on(won, leave)
        mass = [[0.0] * (d + 1) for _ in range(attackers + 1)]
        for x in range(1, attackers + 1):
            mass[x][d] = force[x]
        _sweep(mass, attackers, d)
        won = [mass[a][0] for a in range(attackers + 1)]
    return won


def final_distribution(won: list[float]) -> dict[int, float]:
    """Armies in the last territory given success, from the capture distribution ``won``."""
    total = sum(won[1:])
    return {y: p / total for y, p in enumerate(won) if y and p > 0.0}


def armies_needed_scan(path: list[int], probability: float) -> int:
    """The fewest attackers taking ``path`` with ``probability``, trying 1, 2, 3, ... in turn.

    Unlike the functions above this one uses riskmath: each candidate is one
    :func:`riskmath.conquest`, so the comparison with
    :func:`riskmath.armies_needed` is of the search alone (a linear scan
    against doubling and bisection).
    """
    import riskmath

    attackers = 1
    while riskmath.conquest(attackers, path).win_probability < probability:
        attackers += 1
    return attackers
