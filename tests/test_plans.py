"""Tree plans: against paths, hand composition, Monte Carlo and bad plans."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from simulation import fight

import riskmath as rm
from riskmath import Target


@given(attackers=st.integers(1, 25), path=st.lists(st.integers(1, 5), min_size=1, max_size=4), leave=st.integers(0, 2))
def test_a_path_plan_is_a_conquest(attackers, path, leave):
    plan = rm.plan_conquest(attackers, Target.path(path, leave=leave), exact=True)
    chain = rm.conquest(attackers, path, leave=leave, exact=True)
    assert plan.win_probability == chain.win_probability
    if chain.win_probability > 0:
        leaf = plan.leaf_distribution(plan.leaves[0])
        assert dict(leaf.items()) == dict(chain.final_distribution.items())


def test_a_fork_by_hand():
    # Take a 1-army territory, leave 1, split the rest evenly between two
    # 1-army territories; both must fall.
    plan = Target(1, "hub", then=[Target(1, "left"), Target(1, "right")])
    result = rm.plan_conquest(6, plan, exact=True)
    hub = rm.battle(6, 1, exact=True)
    expected = 0
    for (y, d), p in hub.outcomes.items():
        if d:
            continue
        left, right = plan.shares(y - 1)
        if left and right:
            expected += (
                p * rm.battle(left, 1, exact=True).win_probability * rm.battle(right, 1, exact=True).win_probability
            )
    assert result.win_probability == expected
    for leaf in result.leaves:
        assert sum(result.leaf_distribution(leaf)) == 1
    table = result.node_table()
    assert table.loc["hub", "capture_probability"] == hub.win_probability
    assert table.loc["hub", "subtree_success_probability"] == expected


def test_exact_agrees_with_float_and_leaves_are_consistent():
    plan = Target(2, "Venezuela", then=[Target(1, "Peru", then=[Target(1, "Argentina")]), Target(2, "Brazil")])
    exact = rm.plan_conquest(12, plan, exact=True)
    approx = rm.plan_conquest(12, plan)
    assert approx.win_probability == pytest.approx(float(exact.win_probability), abs=1e-12)
    for leaf in ("Argentina", "Brazil"):
        np.testing.assert_allclose(
            approx.leaf_distribution(leaf).to_numpy(),
            exact.leaf_distribution(leaf).astype(float).to_numpy(),
            atol=1e-12,
        )
        # joint(leaf armies, everything falls) sums to the success probability for every leaf
        assert exact._leaf_joint[leaf].sum() == exact.win_probability


def test_splits():
    even = Target(1, then=[Target(1), Target(1), Target(1)])
    assert even.shares(7) == (3, 2, 2)
    fixed = Target(1, then=[Target(1), Target(1), Target(1)], split=(2, None, 1))
    assert fixed.shares(10) == (2, 7, 1)
    assert fixed.shares(2) == (2, 0, 0)
    keep = Target(1, then=[Target(1), Target(1)], split=(1, 2))
    assert keep.shares(10) == (1, 2)  # the rest stays
    rule = Target(1, then=[Target(1), Target(1)], split=lambda n: (n // 3, n - n // 3))
    assert rule.shares(9) == (3, 6)


@pytest.mark.slow
def test_monte_carlo_fork():
    rng = np.random.default_rng(2026)
    plan = Target(2, "hub", then=[Target(2, "a"), Target(1, "b")], split=(None, 2))

    def take(a, d):
        a, d = fight(a, d, rng)
        return a if d == 0 else None

    n = 20_000
    wins = 0
    for _ in range(n):
        y = take(9, 2)
        if y is None:
            continue
        first, second = plan.shares(y - 1)
        if first and second and take(first, 2) is not None and take(second, 1) is not None:
            wins += 1
    p = rm.plan_conquest(9, plan).win_probability
    assert abs(wins / n - p) < 4 * math.sqrt(p * (1 - p) / n)


class TestBadPlans:
    @pytest.mark.parametrize(
        ("kwargs", "fragment"),
        [
            ({"defenders": 0}, "Target.defenders must be >= 1, got 0"),
            ({"defenders": 2, "leave": -1}, "Target.leave must be >= 0, got -1"),
            ({"defenders": 2, "then": [3]}, "Target.then must hold Targets, got 3"),
            ({"defenders": 2, "then": [Target(1)], "split": (1, 2)}, r"one share per child \(1\), got 2"),
            ({"defenders": 2, "then": [Target(1), Target(1)], "split": (None, None)}, "at most one None"),
            ({"defenders": 2, "split": "odd"}, "Target.split must be 'even', a sequence or a function"),
        ],
    )
    def test_rejects(self, kwargs, fragment):
        with pytest.raises(rm.InvalidArgumentError, match=fragment):
            Target(**kwargs)

    def test_bad_split_function(self):
        plan = Target(1, "x", then=[Target(1), Target(1)], split=lambda n: (n, n))
        with pytest.raises(rm.InvalidArgumentError, match="split function of 'x' returned"):
            rm.plan_conquest(5, plan)

    def test_duplicate_names_and_unknown_leaf(self):
        with pytest.raises(rm.InvalidArgumentError, match=r"duplicates \['a'\]"):
            rm.plan_conquest(5, Target(1, "a", then=[Target(1, "a")]))
        result = rm.plan_conquest(5, Target(1, "a", then=[Target(1, "b")]))
        with pytest.raises(rm.InvalidArgumentError, match="'a' is not a leaf of the plan; leaves are"):
            result.leaf_distribution("a")
        with pytest.raises(rm.InvalidArgumentError, match="plan must be a Target"):
            rm.plan_conquest(5, [1, 2])


def test_a_path_of_thousands_of_territories_is_walked_without_recursion():
    # Target.walk, the labels and plan_conquest's forward pass recursed once per territory: a path of 1,000
    # raised RecursionError (success_curve, plan_conquest) where conquest answered.
    curve = rm.success_curve([1] * 1000, 10)
    assert curve.iloc[-1] == pytest.approx(rm.conquest(int(curve.index[-1]), [1] * 1000).win_probability, rel=1e-12)
    with rm.set_limits(max_seconds=600):
        plan = rm.plan_conquest(1150, rm.Target.path([1] * 1100))
    assert plan.win_probability == pytest.approx(rm.conquest(1150, [1] * 1100).win_probability, rel=1e-9)
    assert len(list(rm.Target.path([2] * 1500).walk())) == 1500


def test_the_labels_of_a_long_unnamed_path_are_counted_before_they_are_made(monkeypatch):
    # Unnamed targets are labelled by position ("1.1.1..."), as long as their depth: the labels of a path of 40,000
    # took 1.5 GiB and two seconds before the cost check refused the plan (hostile odds review, 2026-12-03).
    import riskmath.odds.plans as plans

    def made(*args):
        raise AssertionError("the labels were made before the cost was checked")

    monkeypatch.setattr(plans, "_labeled", made)
    with rm.set_limits(max_memory=100 * 2**20), pytest.raises(rm.ResourceLimitError, match=r"needs about 1\.\d GiB"):
        rm.plan_conquest(3, rm.Target.path([1] * 40_000))
    with pytest.raises(rm.ResourceLimitError, match=r"<100000 targets, .* needs about 9\.\d GiB.*name the targets"):
        rm.plan_conquest(3, rm.Target.path([1] * 100_000))  # (under the default limits: 9 GiB, 51 s before)
    monkeypatch.undo()
    # The count is the labels' own: every position string and name, as _labeled makes them.
    plan = rm.Target(2, "Peru", then=[rm.Target(1, then=[rm.Target(1), rm.Target(1, "x")]), rm.Target(3)])
    targets, _ = plans._label_cost(plan)
    labels = [label for label, _, _ in plans._labeled(plan)]
    assert (targets, labels) == (5, ["Peru", "1", "1.1", "x", "2"])
    deep = rm.Target.path([1] * 300)
    assert plans._label_cost(deep)[1] >= sum(len(label) for label, _, _ in plans._labeled(deep))


def test_deep_plans_compare_hash_and_print_without_recursion():
    # The dataclass's __eq__, __hash__ and __repr__ recursed once per level: a path of 3,000 targets raised
    # RecursionError in repr and hash (hostile odds review, 2026-12-03).
    one, two = rm.Target.path([1] * 3000), rm.Target.path([1] * 3000)
    assert one == two
    assert hash(one) == hash(two)
    assert one != rm.Target.path([1] * 2999 + [2])
    assert hash(one) != hash(rm.Target.path([1] * 2999 + [2]))
    assert repr(one).count("Target(") == 3000
    small = rm.Target(2, "Indonesia", then=[rm.Target(1, "New Guinea"), rm.Target(2)], split=(3, None))
    assert repr(small) == (
        "Target(defenders=2, name='Indonesia', leave=1, then=(Target(defenders=1, name='New Guinea', leave=1, "
        "then=(), split='even'), Target(defenders=2, name=None, leave=1, then=(), split='even')), split=(3, None))"
    )
    assert eval(repr(small), {"Target": rm.Target}) == small  # (the repr is the constructor call)
    assert small != rm.Target(2, "Indonesia", then=[rm.Target(1, "New Guinea"), rm.Target(2)], split=(2, None))
    assert {small, rm.Target(2, "Indonesia", then=[rm.Target(1, "New Guinea"), rm.Target(2)], split=(3, None))} == {
        small
    }
