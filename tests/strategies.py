"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

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
