"""Hostile sizes for the odds layer (issue 11, classes 1 and 7).

Class 1: every odds entry point estimates its memory and time from the
arguments before allocating, and refuses what cannot fit with
:class:`riskmath.ResourceLimitError` naming the call, the estimate and the
limit; ``tracemalloc`` proves that a refused call allocated (almost) nothing.
Calls just inside a limit still work, and within their estimate.

Class 7: NumPy numbers are accepted wherever Python numbers are, bools are
not numbers, and an error message never quotes a huge value in full.
"""

from __future__ import annotations

import math
import time
import tracemalloc
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from game_helpers import build, tiered
from hypothesis import given, settings
from hypothesis import strategies as st
from threads import in_threads

import riskmath as rm
from riskmath.odds._sweeps import backward_cost, forward_cost

MiB = 2**20

#: Sizes from "too big for any machine" to "far too big to print": 10**7 .. 10**5000.
huge = st.one_of(st.integers(10**7, 10**15), st.integers(10**15, 10**300), st.just(10**5000))

#: Every odds entry point whose cost grows with a size ``n``; all refuse once ``n`` is huge (those linear in
#: ``n`` take ``1000 * n``: a battle of ten million attackers on three defenders fits in 2 GiB).
HOSTILE = {
    "battle n v n": lambda n: rm.battle(n, n),
    "battle n v 3 (columns)": lambda n: rm.battle(1000 * n, 3),
    "battle 3 v n": lambda n: rm.battle(3, n),
    "battle stop_at": lambda n: rm.battle(n, n, stop_at=n - 1),
    "battle exact": lambda n: rm.battle(n, n, exact=True),
    "battle_statistics": lambda n: rm.battle_statistics(n, 3, rm.STATISTICS),
    "odds_table": lambda n: rm.odds_table(3, n),
    "odds_table exact": lambda n: rm.odds_table(n, n, exact=True),
    "battle_chain": lambda n: rm.battle_chain(n, 2),
    "conquest": lambda n: rm.conquest(1000 * n, [3, 2]),
    "conquest huge defenders": lambda n: rm.conquest(5, [2, 1000 * n]),
    "conquest exact": lambda n: rm.conquest(n, 3, exact=True),
    "armies_needed": lambda n: rm.armies_needed(n, 0.9),
    "combined_attack": lambda n: rm.combined_attack([1000 * n, 2], 3),
    "success_curve": lambda n: rm.success_curve(3, n),
    "success_curve defenders": lambda n: rm.success_curve(n, 5),
    "plan_conquest": lambda n: rm.plan_conquest(n, rm.Target(3, then=[rm.Target(2), rm.Target(1)])),
    "defence_allocations": lambda n: rm.defence_allocations(1000 * n, 4, 2),
    "optimal_policy": lambda n: rm.optimal_policy(n, 2),
    "optimal_policy exact": lambda n: rm.optimal_policy(n, n, exact=True),
}


def refused_cheaply(call, *args, memory=8 * MiB, seconds=1.0):
    """Run ``call(*args)``, expecting ResourceLimitError; check it was quick and allocated little."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(rm.ResourceLimitError) as info:
            call(*args)
    finally:
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert elapsed < seconds, f"refusal took {elapsed:.2f} s"
    assert peak < memory, f"refusal allocated {peak / MiB:.1f} MiB"
    return str(info.value)


# The fast tier: every fourth call.
@pytest.mark.parametrize("name", tiered(sorted(HOSTILE), sorted(HOSTILE)[::4]))
@given(n=huge)
def test_huge_sizes_are_refused_before_allocating(name, n):
    message = refused_cheaply(HOSTILE[name], n)
    assert "limit" in message
    assert "riskmath.set_limits" in message
    assert len(message) < 400  # no 5000-digit number quoted in full


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_refused_is_an_invalid_argument_and_a_value_error(name):
    with pytest.raises(rm.InvalidArgumentError), rm.set_limits(max_memory=1024, max_seconds=1e-9):
        HOSTILE[name](10**6)
    with pytest.raises(ValueError, match="limit"), rm.set_limits(max_memory=1024, max_seconds=1e-9):
        HOSTILE[name](10**6)


def test_issue_examples():
    # The issue's battle(100_000, 100_000) was refused for the whole grid it was estimated at (74.5 GiB); the
    # estimate follows the anti-diagonal sweep since 2026-12-03 (memory growing as A + D), and the battle is
    # refused, as cheaply, for its time.
    message = refused_cheaply(rm.battle, 100_000, 100_000)
    assert message.startswith("battle(attackers=100000, defenders=100000) would take about 1e+02 s")
    assert "time limit" in message
    message = refused_cheaply(rm.battle, 10**7, 100)  # a tall battle, swept by columns, holds its whole grid
    assert "memory limit" in message
    refused_cheaply(rm.odds_table, 20_000, 20_000)
    refused_cheaply(rm.optimal_policy, 10**6, 10**6)
    refused_cheaply(lambda: rm.armies_needed(10**9, 0.9))


@pytest.mark.parametrize(
    "call",
    [
        lambda: rm.roll_odds(20, 20, attacker_sides=1000, defender_sides=1000),
        lambda: rm.battle(5, 5, rules=rm.CombatRules(20, 20, 1000, 1000)),
        lambda: rm.battle(5, 5, rules=rm.CombatRules(20, 20, 200, 200)),
    ],
    ids=["roll_odds", "battle with huge dice", "battle with many dice"],
)
def test_slow_dice_tables_are_refused_with_a_time_estimate(call):
    message = refused_cheaply(call)
    assert "would take about" in message
    assert "time limit of 60 s" in message


@settings(max_examples=30)
@given(
    a=st.integers(1, 2000),
    d=st.integers(1, 2000),
    budget=st.integers(MiB // 4, 16 * MiB),
)
def test_battle_memory_is_refused_exactly_past_the_estimate(a, d, budget):
    warm_up()
    estimate, _ = forward_cost(a, d, 0, rm.CombatRules(), False)
    with rm.set_limits(max_memory=budget):
        if estimate > budget:
            refused_cheaply(rm.battle, a, d)
        else:
            tracemalloc.start()
            result = rm.battle(a, d)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert 0 <= result.win_probability <= 1
            assert peak <= estimate + MiB  # the estimate is an upper bound (plus the kernel's small tables)


def warm_up():
    """Import what the sweeps import on first use (scipy.signal), so tracemalloc sees only the call."""
    import scipy.signal  # noqa: F401 (short sweeps no longer load it: a tall battle's first did, 35 MB traced)

    rm.battle(200, 200)
    rm.odds_table(100, 100)
    rm.conquest(40, [5, 5])


def largest_square(cost, budget):
    """Largest n with cost(n) <= budget (cost increasing)."""
    low, high = 1, 2
    while cost(high) <= budget:
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if cost(middle) <= budget else (low, middle)
    return low


@pytest.mark.parametrize("budget", tiered([16 * MiB, 64 * MiB], [16 * MiB]))
def test_calls_just_inside_the_limit_work_and_stay_within_it(budget):
    # A battle's memory grows with its whole grid only where it is swept by columns (a tall one: 40 defenders
    # here); a square one, swept by anti-diagonals, grows as A + D and meets the time limit first.
    classic = rm.CombatRules()
    n = largest_square(lambda n: forward_cost(n, 40, 0, classic, False)[0], budget)
    m = largest_square(lambda n: backward_cost(n, n, 0, 1, classic, False)[0] + 24.0 * n * n, budget)
    warm_up()
    with rm.set_limits(max_memory=budget):
        for call, size, other in ((rm.battle, n, 40), (rm.odds_table, m, None)):
            tracemalloc.start()
            call(size, size if other is None else other)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert peak <= budget + MiB
            refused_cheaply(call, size + 1, size + 1 if other is None else other)


def test_exact_battles_say_how_long_they_would_take():
    with rm.set_limits(max_seconds=0.5):
        rm.battle(100, 100, exact=True)  # about 0.03 s
        message = refused_cheaply(lambda: rm.battle(2000, 2000, exact=True))
    assert "would take about" in message
    assert "exact=True" in message
    assert "use exact=False" in message


def test_set_limits_is_a_context_manager_and_restores():
    before = rm.get_limits()
    with rm.set_limits(max_memory=MiB, max_seconds=1):
        assert rm.get_limits() == {"max_memory": MiB, "max_seconds": 1}
        with pytest.raises(rm.ResourceLimitError, match=r"memory limit of 1\.0 MiB"):
            rm.odds_table(1000, 1000)
    assert rm.get_limits() == before
    with rm.set_limits(max_memory=math.inf):
        assert rm.get_limits()["max_memory"] == math.inf
    assert rm.get_limits() == before
    for bad in (0, -1, True, "1G", float("nan")):
        with pytest.raises(rm.InvalidArgumentError, match="positive number"):
            rm.set_limits(max_memory=bad)
    assert rm.get_limits() == before


def test_set_limits_blocks_ending_in_any_order_in_any_thread_leave_the_calls_still_in_effect():
    # The limits belong to the process: overlapping blocks in several threads used to restore, each, what it
    # saw on entry, so that the limits stayed changed after every block had ended (max_seconds stuck at 1e-4).
    before = rm.get_limits()
    first, second = rm.set_limits(max_seconds=2), rm.set_limits(max_seconds=3)
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the older block ends first
    assert rm.get_limits()["max_seconds"] == 3
    second.__exit__(None, None, None)
    assert rm.get_limits() == before
    with rm.set_limits(max_seconds=4):
        rm.set_limits(max_memory=3 * MiB)  # a statement inside a block stays in effect after it
    assert rm.get_limits() == {**before, "max_memory": 3 * MiB}
    rm.set_limits(max_memory=before["max_memory"])

    def blocks(k: int) -> None:
        for n in range(200):
            with rm.set_limits(max_seconds=1 + k + n / 1000, max_memory=MiB * (k + 1)):
                pass

    in_threads(blocks, [(k,) for k in range(4)])
    assert rm.get_limits() == before


def test_default_limits():
    limits = rm.get_limits()
    assert 0 < limits["max_memory"] <= 2 * 2**30
    assert limits["max_seconds"] == 60


def test_format_table_refuses_a_huge_table_and_a_wrong_type():
    table = rm.odds_table(300, 300)
    with rm.set_limits(max_memory=MiB):
        refused_cheaply(rm.format_table, table)
    for bad in (None, [[0.5]], np.zeros((2, 2)), pd.Series([0.5]), "table"):
        with pytest.raises(rm.InvalidArgumentError, match="table must be a pandas DataFrame"):
            rm.format_table(bad)


def test_battle_chain_dense_views_are_refused():
    chain = rm.battle_chain(60, 60)
    with rm.set_limits(max_memory=MiB):
        refused_cheaply(chain.fundamental_matrix)
        refused_cheaply(chain.absorption_probabilities)


# -- the game: chance outcomes of a huge blitz -----------------------------------------


def duel(attackers, defenders):
    owner = {"Alaska": 0, "Kamchatka": 1, "Northwest Territory": 0, "Alberta": 2, "Japan": 1}
    armies = {"Alaska": attackers, "Kamchatka": defenders, "Northwest Territory": 1}
    return build(rm.Game(3), owner=owner, armies=armies)


@pytest.mark.parametrize(("attackers", "defenders"), [(10**9, 5), (10**7, 16), (3 * 10**8, 1)])
def test_huge_blitz_outcomes_are_refused_but_sampling_works(attackers, defenders):
    state = duel(attackers, defenders).apply(rm.Blitz("Alaska", "Kamchatka"))
    assert state.is_chance_node()
    message = refused_cheaply(state.chance_outcomes)
    assert "chance_outcomes() of a blitz" in message
    assert "sample_chance()" in message
    outcome = state.sample_chance()  # drawn in pieces, at any size
    assert outcome.defenders_left == 0 or outcome.attackers_left == 0


def test_small_blitz_outcomes_still_listed():
    state = duel(30, 20).apply(rm.Blitz("Alaska", "Kamchatka"))
    outcomes = state.chance_outcomes()
    assert math.isclose(sum(p for _, p in outcomes), 1.0)


# -- class 7: NumPy numbers, bools, huge values in messages ----------------------------


@given(
    sides=st.integers(2, 12),
    dice=st.integers(1, 4),
    kind=st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64]),
)
def test_combat_rules_accept_numpy_integers(sides, dice, kind):
    rules = rm.CombatRules(attacker_max_dice=kind(dice), attacker_sides=kind(sides), defender_sides=kind(sides))
    plain = rm.CombatRules(attacker_max_dice=dice, attacker_sides=sides, defender_sides=sides)
    assert rules == plain
    assert hash(rules) == hash(plain)
    assert type(rules.attacker_sides) is int
    assert rm.battle(5, 3, rules=rules).win_probability == rm.battle(5, 3, rules=plain).win_probability


def test_numpy_arguments_across_the_odds_layer():
    path = np.array([3, 2, 2])
    assert rm.conquest(np.int64(12), path).win_probability == rm.conquest(12, [3, 2, 2]).win_probability
    assert rm.conquest(12, path, leave=np.array([1, 2, 1])).win_probability == pytest.approx(
        rm.conquest(12, [3, 2, 2], leave=[1, 2, 1]).win_probability
    )
    p32 = np.float32(0.9)
    assert rm.armies_needed(10, p32) == rm.armies_needed(10, float(p32))
    assert rm.armies_needed(np.array([3, 2]), np.float64(0.75)) == rm.armies_needed([3, 2], 0.75)
    assert rm.armies_needed(10, Fraction(9, 10)) == rm.armies_needed(10, 0.9)
    assert rm.combined_attack(np.array([3, 3]), np.int32(5)).win_probability == pytest.approx(
        rm.combined_attack([3, 3], 5).win_probability
    )
    assert rm.success_curve(path, np.int64(12))[12] == pytest.approx(rm.conquest(12, [3, 2, 2]).win_probability)
    assert rm.roll_odds(np.int64(3), np.uint8(2), attacker_sides=np.int16(6)) == rm.roll_odds(3, 2)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: rm.battle(True, 3), "attackers must be an integer, got True"),
        (lambda: rm.battle(3, np.bool_(True)), "defenders must be an integer"),
        (lambda: rm.CombatRules(attacker_sides=True), "attacker_sides must be an integer in 2..1000, got True"),
        (lambda: rm.conquest(5, [True, 2]), r"defenders\[0\] must be an integer"),
        (lambda: rm.armies_needed(3, True), "probability must be a number, got True"),
        (lambda: rm.armies_needed(3, float("nan")), "strictly between 0 and 1, got nan"),
        (lambda: rm.armies_needed(3, np.float32("inf")), "strictly between 0 and 1"),
        (lambda: rm.armies_needed(3, "0.9"), "probability must be a number"),
        (lambda: rm.odds_table(3.0, 3), "max_attackers must be an integer, got 3.0"),
    ],
)
def test_bools_and_non_integers_are_refused(call, match):
    with pytest.raises((rm.InvalidArgumentError, rm.RulesError), match=match):
        call()


@given(digits=st.integers(300, 6000), sign=st.sampled_from([1, -1]))
def test_huge_numbers_are_never_quoted_in_full(digits, sign):
    n = sign * 10**digits
    for call in (
        lambda: rm.battle(n, 3),
        lambda: rm.roll_odds(n, 2),
        lambda: rm.CombatRules(attacker_sides=n),
        lambda: rm.conquest(5, [n]),
        lambda: rm.odds_table(3, 3, stop_at=n),
        lambda: rm.optimal_policy(3, n),
        lambda: rm.armies_needed(n, 0.9),
    ):
        with pytest.raises((rm.InvalidArgumentError, rm.RulesError)) as info:
            call()
        message = str(info.value)
        assert len(message) < 400
        assert "digits" in message


def test_long_strings_are_shortened_in_messages():
    with pytest.raises(rm.InvalidArgumentError) as info:
        rm.odds_table(3, 3, statistic="x" * 10_000)
    assert len(str(info.value)) < 400
    assert "(10000 characters)" in str(info.value)
