"""Straightforward pure-Python dynamic programmes, the yardstick for ``make bench``.

They use lists of floats and the classic rules only (3 attacking dice,
2 defending, six-sided dice, ties to the defender).  They are written the way
a careful programmer would write them without NumPy: one pass over the
states in an order where every state is final before it is used.
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
