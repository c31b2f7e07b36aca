"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import riskmath as rm

armies = st.integers(min_value=1, max_value=40)
small_armies = st.integers(min_value=1, max_value=12)

combat_rules = st.builds(
    rm.CombatRules,
    attacker_max_dice=st.integers(1, 4),
    defender_max_dice=st.integers(1, 3),
    attacker_sides=st.integers(2, 8),
    defender_sides=st.integers(2, 8),
    ties=st.sampled_from(["defender", "attacker"]),
)


def board_data(draw: st.DrawFn, n: int, bonus: Callable[[], int]) -> dict[str, Any]:
    """The data of a small connected board of ``n`` territories (a random spanning tree plus a few borders) in 1 to
    3 continents, each continent's bonus from ``bonus()``; for ``riskmath.Board.from_dict``."""
    names = [f"T{i}" for i in range(n)]
    borders = {frozenset((names[i], names[draw(st.integers(0, i - 1))])) for i in range(1, n)}
    for _ in range(draw(st.integers(0, n))):
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if a != b:
            borders.add(frozenset((names[a], names[b])))
    k = draw(st.integers(1, min(3, n)))
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), min_size=k - 1, max_size=k - 1))) if k > 1 else []
    groups = [names[i:j] for i, j in zip([0, *cuts], [*cuts, n], strict=True)]
    continents = [{"name": f"C{c}", "bonus": bonus(), "territories": g} for c, g in enumerate(groups)]
    return {"name": f"random{n}", "continents": continents, "borders": [sorted(b) for b in borders]}
