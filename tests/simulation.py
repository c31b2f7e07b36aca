"""Rolling real dice for the Monte Carlo checks (classic rules), shared by the tests."""

from __future__ import annotations

import numpy as np


def fight(attackers: int, defenders: int, rng: np.random.Generator) -> tuple[int, int]:
    """Roll 3 v 2 dice (fewer when short) until one side is out; the armies left on each side."""
    a, d = attackers, defenders
    while a > 0 and d > 0:
        attack = np.sort(rng.integers(1, 7, size=min(3, a)))[::-1]
        defend = np.sort(rng.integers(1, 7, size=min(2, d)))[::-1]
        for x, y in zip(attack, defend, strict=False):
            if x > y:
                d -= 1
            else:
                a -= 1
    return a, d
