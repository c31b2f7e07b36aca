"""Optimal policies: values re-derived independently, known games, findings."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from odds_helpers import matrix_game_value

import riskmath as rm
from riskmath.odds.policy import STOP


def evaluate(policy, u):
    """Value of following the policy's strategies (both sides), by plain recursion."""
    values = {}
    for s in range(0, policy.attackers + policy.defenders + 1):
        for a in range(0, policy.attackers + 1):
            d = s - a
            if d < 0 or d > policy.defenders:
                continue
            if a == 0 or d == 0:
                values[(a, d)] = Fraction(u(a, d))
                continue
            total = Fraction(0)
            for action, p in policy.action(a, d).items():
                if action == STOP:
                    total += p * u(a, d)
                    continue
                for e, q in policy.defense(a, d).items():
                    odds = policy.rules.roll_odds(action, e)
                    total += p * q * sum(r * values[(a - i, d - j)] for (i, j), r in odds.items())
            values[(a, d)] = total
    return values


@pytest.mark.parametrize(
    ("objective", "kwargs"),
    [
        ("win", {}),
        ("win_with", {"min_left": 3}),
        (lambda a, d: (d == 0) - (a < 3), {}),
        (lambda a, d: (d == 0) - (a < 3), {"two_sided": True}),
        (lambda a, d: a - 2 * d, {"allow_stop": False, "two_sided": True}),
    ],
)
def test_value_is_the_value_of_the_policy(objective, kwargs):
    policy = rm.optimal_policy(9, 8, objective, exact=True, **kwargs)
    u = policy._u
    values = evaluate(policy, u)
    for (a, d), row in policy.table().iterrows():
        assert values[(a, d)] == row["value"]
    assert policy.value >= policy.max_dice_value


def test_max_dice_is_optimal_for_conquest():
    for rules in (rm.CombatRules(), rm.CombatRules.three_defender_dice()):
        policy = rm.optimal_policy(15, 15, exact=True, rules=rules)
        assert policy.deviations().empty
        assert policy.value == policy.max_dice_value == rm.battle(15, 15, exact=True, rules=rules).win_probability


def test_the_defender_should_throw_two_dice_for_conquest():
    policy = rm.optimal_policy(15, 15, two_sided=True, exact=True)
    assert policy.defender_deviations().empty
    assert policy.value == rm.battle(15, 15, exact=True).win_probability


def test_one_die_pays_when_losing_two_armies_is_costly():
    policy = rm.optimal_policy(10, 10, lambda a, d: (d == 0) - (a < 3), exact=True)
    deviations = policy.deviations()
    assert sorted(deviations.index) == [(3, d) for d in range(3, 11)] + [(4, d) for d in range(3, 11)]
    assert all(policy.action(4, d) == {1: 1} for d in range(3, 11))
    assert all(policy.action(3, d) == {STOP: 1} for d in range(3, 11))
    assert policy.action(4, 2) == {3: 1}
    assert policy.value > policy.max_dice_value


def test_float_policy_matches_exact():
    objective = lambda a, d: (d == 0) - (a < 4)  # noqa: E731
    exact = rm.optimal_policy(12, 12, objective, exact=True)
    approx = rm.optimal_policy(12, 12, objective)
    assert list(approx.deviations().index) == list(exact.deviations().index)
    np.testing.assert_allclose(approx.table()["value"].astype(float), exact.table()["value"].astype(float), atol=1e-12)


@pytest.mark.parametrize("scale", [1e-20, 1e-14, 1e-6, 1e6, 1e20])
@pytest.mark.parametrize("two_sided", [False, True])
def test_a_custom_objective_gives_the_same_policy_at_any_scale(scale, two_sided):
    """Ties are judged relative to the objective's largest value: with an absolute 1e-12, an objective near 1e-14
    made every choice a tie (always maximum dice) and lost the one-die and stop deviations (hostile review)."""
    objective = lambda a, d: (d == 0) - (a < 3)  # noqa: E731
    size = 8 if two_sided else 12
    base = rm.optimal_policy(size, size, objective, two_sided=two_sided, exact=not two_sided)
    scaled = rm.optimal_policy(size, size, lambda a, d: scale * objective(a, d), two_sided=two_sided)
    for a in range(1, size + 1):
        for d in range(1, size + 1):
            assert scaled.action(a, d).keys() == base.action(a, d).keys(), (a, d)
    assert len(scaled.deviations()) == len(base.deviations()) > 0
    assert scaled.value == pytest.approx(scale * float(base.value), rel=1e-9)


class TestMatrixGames:
    def test_known_games(self):
        F = Fraction
        value, x, y = rm.solve_matrix_game([[F(1), F(-1)], [F(-1), F(1)]])
        assert (value, x, y) == (0, (F(1, 2), F(1, 2)), (F(1, 2), F(1, 2)))
        rps = [[F(0), F(-1), F(1)], [F(1), F(0), F(-1)], [F(-1), F(1), F(0)]]
        value, x, y = rm.solve_matrix_game(rps)
        assert value == 0
        assert x == y == (F(1, 3),) * 3
        value, x, y = rm.solve_matrix_game([[F(3), F(5)], [F(1), F(4)]])  # saddle point at (0, 0)
        assert (value, x, y) == (3, (1, 0), (1, 0))

    @given(payoff=st.lists(st.lists(st.integers(-9, 9), min_size=3, max_size=3), min_size=2, max_size=4))
    def test_against_linear_programming(self, payoff):
        value, x, y = rm.solve_matrix_game([[Fraction(v) for v in row] for row in payoff])
        rows, cols = len(payoff), len(payoff[0])
        assert float(value) == pytest.approx(matrix_game_value(payoff), abs=1e-9)
        assert sum(x) == 1
        assert sum(y) == 1
        assert min(sum(x[r] * payoff[r][c] for r in range(rows)) for c in range(cols)) == value
        assert max(sum(y[c] * payoff[r][c] for c in range(cols)) for r in range(rows)) == value


class TestBadInput:
    def test_rejects(self):
        with pytest.raises(rm.InvalidArgumentError, match="objective must be one of 'win', 'win_with'"):
            rm.optimal_policy(5, 5, "lose")
        with pytest.raises(rm.InvalidArgumentError, match="attackers must be >= 1, got 0"):
            rm.optimal_policy(0, 5)
        with pytest.raises(rm.InvalidArgumentError, match="two_sided must be True or False, got 'yes'"):
            rm.optimal_policy(5, 5, two_sided="yes")


@pytest.mark.parametrize(("objective", "min_left", "exact"), [("win", None, False), ("win_with", 3, True)])
def test_a_policy_pickles(objective, min_left, exact):
    # The built-in objectives were closures: pickle.dumps(optimal_policy(5, 3)) failed, unlike every other result.
    import pickle

    policy = rm.optimal_policy(6, 5, objective, min_left=min_left, exact=exact)
    again = pickle.loads(pickle.dumps(policy))
    assert again.value == policy.value
    assert again.action(6, 5) == policy.action(6, 5)


# -- found by a mutation test (2026-12-03): what no test held -------------------------------------------------------
def test_with_three_defending_dice_rolling_all_three_is_no_deviation():
    # defender_deviations lists states where the best defence differs from "the most dice allowed": with a
    # 3-dice defence the most is 3, so rolling 3 at 4 v 4 is not one (a mutant reading the 2 of the classic rules
    # flagged 8 rows).
    policy = rm.optimal_policy(4, 4, two_sided=True, rules=rm.CombatRules(defender_max_dice=3))
    deviations = policy.defender_deviations()
    assert len(deviations) == 0
    assert (deviations.columns == rm.optimal_policy(4, 4, two_sided=True).defender_deviations().columns).all()


def test_win_with_leaves_one_army_able_to_attack_unless_told():
    # The documented default ("1 if left out"): the values alone cannot tell it from 0 (a conquest always leaves one
    # army able to attack), the attribute and the repr can.
    policy = rm.optimal_policy(5, 3, "win_with")
    assert policy.min_left == 1
    assert repr(policy) == "Policy(5, 3, objective='win_with', min_left=1, two_sided=False)"
