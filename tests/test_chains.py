"""The private sweeps: every implementation against the exact one."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import combat_rules

from riskmath import CombatRules
from riskmath.odds._sweeps import _forward_diagonals, forward_columns, forward_exact, forward_exact_from, kernel


def assert_forward_equal(result, exact):
    win, stop, rolls = result
    np.testing.assert_allclose(win, np.array(exact[0], dtype=float), atol=1e-13)
    np.testing.assert_allclose(stop, np.array(exact[1], dtype=float), atol=1e-13)
    assert abs(rolls - float(exact[2])) < 1e-12


@given(attackers=st.integers(0, 14), defenders=st.integers(1, 14), stop_at=st.integers(0, 4), rules=combat_rules)
def test_column_and_diagonal_sweeps_match_exact(attackers, defenders, stop_at, rules):
    kern = kernel(rules)
    exact = forward_exact(attackers, defenders, stop_at, kern)
    mass = np.zeros((attackers + 1, defenders + 1))
    mass[attackers, defenders] = 1.0
    assert_forward_equal(forward_columns(mass, stop_at, kern), exact)
    assert_forward_equal(_forward_diagonals(attackers, defenders, stop_at, kern), exact)


@given(
    weights=st.lists(st.integers(0, 5), min_size=2, max_size=12),
    defenders=st.integers(1, 6),
    stop_at=st.integers(0, 2),
    rules=combat_rules,
)
def test_sweeps_of_a_distribution(weights, defenders, stop_at, rules):
    if sum(weights) == 0:
        weights[-1] = 1
    kern = kernel(rules)
    total = sum(weights)
    initial = {(a, defenders): Fraction(w, total) for a, w in enumerate(weights) if w}
    # Fractions with other denominators than powers of 1/K are out of scope
    # for the exact sweep; use dyadic-free weights by scaling to K's powers.
    initial = {s: Fraction(round(p * kern.scale**3), kern.scale**3) for s, p in initial.items()}
    norm = sum(initial.values())
    exact = forward_exact_from(initial, stop_at, kern, shape=(len(weights) - 1, defenders))
    mass = np.zeros((len(weights), defenders + 1))
    for (a, d), p in initial.items():
        mass[a, d] = float(p)
    win, stop, rolls = forward_columns(mass, stop_at, kern)
    assert_forward_equal((win, stop, rolls), exact)
    assert abs(win.sum() + stop.sum() - float(norm)) < 1e-12


def test_scale_exponent_rejects_foreign_denominators():
    kern = kernel(CombatRules())
    with pytest.raises(ValueError, match="1/7 is not a multiple of a power of 1/7776"):
        forward_exact_from({(3, 2): Fraction(1, 7)}, 0, kern)
