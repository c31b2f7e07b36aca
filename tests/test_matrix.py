"""The sparse matrix view against the fast sweeps."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import combat_rules

import riskmath as rm


def test_shapes_and_labels():
    chain = rm.battle_chain(4, 3)
    assert chain.Q.shape == (12, 12)
    assert chain.R.shape == (12, 7)  # (0, 1..3) and (1..4, 0)
    assert sp.issparse(chain.Q)
    assert sp.issparse(chain.R)
    assert list(chain.transient_states.names) == ["attackers", "defenders"]
    assert (0, 3) in chain.absorbing_states
    assert (4, 0) in chain.absorbing_states


@given(attackers=st.integers(1, 9), defenders=st.integers(1, 9), stop_at=st.integers(0, 3), rules=combat_rules)
def test_rows_are_distributions(attackers, defenders, stop_at, rules):
    if attackers <= stop_at:
        attackers = stop_at + 1
    chain = rm.battle_chain(attackers, defenders, stop_at=stop_at, rules=rules)
    row_sums = np.asarray(chain.Q.sum(axis=1)).ravel() + np.asarray(chain.R.sum(axis=1)).ravel()
    np.testing.assert_allclose(row_sums, 1.0, atol=1e-15)
    # Every roll removes an army, so Q is nilpotent: no transient state repeats.
    assert chain.Q.diagonal().max(initial=0) == 0


absorbing = given(
    attackers=st.integers(1, 10), defenders=st.integers(1, 10), stop_at=st.integers(0, 3), rules=combat_rules
)


@settings(max_examples=12)
@absorbing
def test_absorption_distribution_matches_battle(attackers, defenders, stop_at, rules):
    check_absorption(attackers, defenders, stop_at, rules)


@pytest.mark.slow  # the profile's 60 examples: about 1.5 s
@absorbing
def test_absorption_distribution_matches_battle_in_more_cases(attackers, defenders, stop_at, rules):
    check_absorption(attackers, defenders, stop_at, rules)


def check_absorption(attackers: int, defenders: int, stop_at: int, rules: rm.CombatRules) -> None:
    if attackers <= stop_at:
        attackers = stop_at + 1
    chain = rm.battle_chain(attackers, defenders, stop_at=stop_at, rules=rules)
    from_matrix = chain.absorption_distribution()
    fast = rm.battle(attackers, defenders, stop_at=stop_at, rules=rules).outcomes
    np.testing.assert_allclose(from_matrix.reindex(fast.index).to_numpy(), fast.to_numpy(), atol=1e-13)
    assert np.all(np.abs(from_matrix.drop(fast.index).to_numpy()) < 1e-13)  # nothing else is reachable


def test_whole_absorption_matrix_and_rolls_match_the_table():
    chain = rm.battle_chain(12, 10, stop_at=1)
    B = chain.absorption_probabilities()
    wins = B.loc[:, [s for s in B.columns if s[1] == 0]].sum(axis=1)
    table = rm.odds_table(12, 10, stop_at=1)
    rolls = rm.odds_table(12, 10, stop_at=1, statistic="expected_rolls")
    for (a, d), p in wins.items():
        assert p == pytest.approx(table.loc[a, d], abs=1e-13)
    for (a, d), t in chain.expected_rolls().items():
        assert t == pytest.approx(rolls.loc[a, d], abs=1e-12)


def test_fundamental_matrix_inverts_i_minus_q():
    chain = rm.battle_chain(5, 4)
    N = chain.fundamental_matrix().to_numpy()
    identity = np.eye(N.shape[0])
    np.testing.assert_allclose(N @ (identity - chain.Q.toarray()), identity, atol=1e-13)


def test_start_state_and_errors():
    chain = rm.battle_chain(6, 6)
    direct = rm.battle(4, 5).outcomes
    from_matrix = chain.absorption_distribution((4, 5)).reindex(direct.index)
    np.testing.assert_allclose(from_matrix.to_numpy(), direct.to_numpy(), atol=1e-13)
    with pytest.raises(rm.InvalidArgumentError, match=r"start \(0, 5\) is not a transient state"):
        chain.absorption_distribution((0, 5))
    with pytest.raises(rm.InvalidArgumentError, match="attackers must be >= 3, got 2"):
        rm.battle_chain(2, 2, stop_at=2)


def test_battle_chain_property():
    b = rm.battle(5, 5, stop_at=1)
    assert b.chain.stop_at == 1
    assert b.chain.Q.shape == (20, 20)
