"""The odds layer at its edges (issue 19, item 5 and the odds part of item 7).

Five classes of case:

* float probabilities never leave [0, 1], and distributions sum to 1 within
  a stated tolerance, under every combat variant (the rounding errors of a
  roll's float probabilities need not cancel: ``CombatRules(1, 1)`` rounds
  both of its up, and a long battle used to end with a total of
  ``1 + 1e-15``);
* ``chain_win_probability`` answers every chain without unbounded recursion;
* every odds entry point whose cost grows with its arguments refuses a
  hostile size before the expensive work starts (checked by replacing that
  work with a function that fails the test if called);
* ``solve_matrix_game`` refuses non-finite payoffs and solves large games
  in bounded time;
* hostile arguments (bools, floats, NaN, infinities, huge and negative
  integers, strings, None, bad rules) end with a riskmath error naming the
  value, never a raw ``TypeError``, ``OverflowError``, ``KeyError``,
  ``StopIteration``, ``RecursionError`` or ``ZeroDivisionError``.
"""

from __future__ import annotations

import contextlib
import math
import signal
import time
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from odds_helpers import matrix_game_value
from strategies import combat_rules as rules

import riskmath as rm
import riskmath.odds._odds_grids as grids
import riskmath.odds.battles as battles
import riskmath.odds.conquests as conquests
import riskmath.odds.dice as dice
import riskmath.odds.matrix as matrix
import riskmath.odds.planning as planning
import riskmath.odds.plans as plans
import riskmath.odds.policy as policy
from riskmath.evaluate import chain_win_probability, win_probability

#: How far a float distribution's total (summed with math.fsum) may be from 1, as docs/limits.rst states.
SUM_TOLERANCE = 1e-12


def in_unit_interval(values) -> bool:
    array = np.asarray(values, dtype=float).ravel()
    return bool(np.all((array >= 0.0) & (array <= 1.0)))


def sums_to_one(values) -> bool:
    return abs(math.fsum(np.asarray(values, dtype=float).ravel()) - 1.0) <= SUM_TOLERANCE


@contextlib.contextmanager
def hang_guarded(seconds: int = 120):
    """Fail a call that runs far longer than it should (a generous guard against hangs, not a speed test)."""

    def expired(signum, frame):
        raise AssertionError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def hang_guard():
    with hang_guarded():
        yield


# -- class 1: probabilities in [0, 1] ------------------------------------------------------


def test_the_issue_example_stays_in_the_unit_interval():
    one_die = rm.CombatRules(1, 1)
    result = rm.battle(200, 7, rules=one_die)
    assert 1.0 - 1e-15 <= result.win_probability <= 1.0  # was 1.0000000000000013; exactly it is 1 - 8e-39
    assert sums_to_one(result.outcomes)
    assert rm.conquest(200, [7, 3], rules=one_die).win_probability <= 1.0


def test_a_hundred_random_battles_under_one_die_a_side():
    generator = np.random.default_rng(19)
    one_die = rm.CombatRules(1, 1)
    for _ in range(100):
        attackers, defenders = int(generator.integers(1, 400)), int(generator.integers(1, 40))
        result = rm.battle(attackers, defenders, rules=one_die)
        assert 0.0 <= result.win_probability <= 1.0
        assert in_unit_interval(result.outcomes)
        assert in_unit_interval(result.defenders_left_distribution)
        assert sums_to_one(result.outcomes)


@given(
    combat=rules,
    attackers=st.integers(0, 300),
    defenders=st.integers(1, 40),
    stop_at=st.sampled_from([0, 0, 1, 3]),
)
def test_battle_probabilities(combat, attackers, defenders, stop_at):
    result = rm.battle(attackers, defenders, stop_at=stop_at, rules=combat)
    assert 0.0 <= result.win_probability <= 1.0
    for distribution in (result.outcomes, result.attackers_left_distribution, result.defenders_left_distribution):
        assert in_unit_interval(distribution)
        assert sums_to_one(distribution)
    table = rm.odds_table(min(attackers, 60) + stop_at + 1, defenders, stop_at=stop_at, rules=combat)
    assert in_unit_interval(table.to_numpy())
    assert 0.0 <= win_probability(attackers, defenders, combat) <= 1.0


@given(
    combat=rules,
    attackers=st.integers(0, 300),
    path=st.lists(st.integers(1, 12), min_size=1, max_size=5),
    second=st.integers(0, 60),
)
def test_conquest_plan_and_combined_attack_probabilities(combat, attackers, path, second):
    result = rm.conquest(attackers, path, rules=combat)
    assert 0.0 <= result.win_probability <= 1.0
    assert in_unit_interval(result.reach_probabilities)
    assert in_unit_interval(result.captured_distribution)
    assert sums_to_one(result.captured_distribution)
    if result.win_probability > 0:
        assert in_unit_interval(result.final_distribution)
        assert sums_to_one(result.final_distribution)
    steps = result.step_table()
    for column in ("reach_probability", "capture_probability", "capture_probability_if_reached"):
        assert in_unit_interval(steps[column].dropna().astype(float))
    assert in_unit_interval(rm.success_curve(path, attackers, rules=combat))
    assert 0.0 <= chain_win_probability(attackers, tuple(path), combat) <= 1.0

    plan = rm.Target.path(path)
    planned = rm.plan_conquest(attackers, plan, rules=combat)
    assert 0.0 <= planned.win_probability <= 1.0
    nodes = planned.node_table()
    for column in ("attack_probability", "capture_probability", "subtree_success_probability"):
        assert in_unit_interval(nodes[column])

    attack = rm.combined_attack([attackers, second], path[0], rules=combat)
    assert 0.0 <= attack.win_probability <= 1.0
    assert in_unit_interval(attack.captured_by())
    assert in_unit_interval(attack.defenders_left_distribution)
    assert sums_to_one(attack.defenders_left_distribution)
    for stack in (0, 1):
        assert in_unit_interval(attack.survivors(stack))
        assert sums_to_one(attack.survivors(stack))


@settings(max_examples=20)
@given(combat=rules, attackers=st.integers(1, 30), defenders=st.integers(1, 30))
def test_matrix_view_and_policy_probabilities(combat, attackers, defenders):
    chain = rm.battle_chain(attackers, defenders, rules=combat)
    distribution = chain.absorption_distribution()
    assert in_unit_interval(distribution)
    assert sums_to_one(distribution)
    result = rm.optimal_policy(attackers, defenders, rules=combat)
    assert 0.0 <= result.value <= 1.0
    assert in_unit_interval(result.table()["value"].astype(float))


def test_exact_results_stay_exact():
    assert rm.battle(200, 7, rules=rm.CombatRules(1, 1), exact=True).win_probability < 1
    exact = rm.conquest(30, [3, 2], exact=True)
    assert isinstance(exact.win_probability, Fraction)
    assert all(isinstance(p, Fraction) for p in exact.reach_probabilities)
    assert sum(exact.captured_distribution) == 1


# -- class 2: chain_win_probability never recurses without bound --------------------------------------


HOSTILE_CHAINS = {
    "the issue example": (5, (1, 1024, 1024)),
    "long chain of ones": (5, (1,) * 3000),
    "long chain, many attackers": (5000, (1,) * 3000),
    "a million territories": (3, (1,) * 10**6),
    "zeros": (300, (0, 5, 0)),
    "zeros, small": (30, (0, 5, 0, 0)),
    "only zeros": (3, (0, 0)),
    "huge stacks": (10**400, (10**400, 5)),
    "huge defenders": (3, (10**400, 10**400)),
    "huge everything": (10**400, (10**400,) * 3),
    "just over the largest grid": (2049, (1, 1, 2047)),
    "rounding up": (3000, (1,) * 1500 + (1500,)),
    "numpy": (np.int64(40), np.array([3, 2, 2])),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_CHAINS))
def test_hostile_chains_end(name, hang_guard):
    attackers, defenders = HOSTILE_CHAINS[name]
    result = chain_win_probability(attackers, defenders)
    assert isinstance(result, float)
    assert 0.0 <= result <= 1.0


def test_chain_success_small_cases_are_right():
    assert chain_win_probability(3, (1, 1, 1, 1)) == 0.0  # each territory keeps one army: three cannot take four
    assert chain_win_probability(5, (3,)) == win_probability(5, 3)
    assert chain_win_probability(12, (3, 2, 2)) == pytest.approx(rm.conquest(12, [3, 2, 2]).win_probability, abs=1e-12)
    # a territory of 0 defenders is taken without a fight and keeps one army, whichever method computes it
    assert chain_win_probability(10, (0, 3)) == pytest.approx(rm.conquest(9, [3]).win_probability, abs=1e-12)
    assert chain_win_probability(300, (0, 300)) == pytest.approx(rm.conquest(299, [300]).win_probability, abs=1e-12)


# -- class 3: the cost is estimated before the work ---------------------------------------------


def must_not_run(*args, **kwargs):
    raise AssertionError("the expensive work started before the cost was checked")


@pytest.fixture
def no_expensive_work(monkeypatch):
    """Replace every expensive kernel of the odds layer, wherever it is imported, by one that fails the test.

    The fixed grids of small battles that the agents' queries read (up to 64 a side, built once per process)
    are built first: they are not work whose cost depends on the call, and without them the result depended on
    the order the tests ran in (the chain below, run first in a process, failed).
    """
    win_probability(64, 64)
    for module, names in (
        (battles, ("forward_float", "forward_exact", "backward_float", "backward_exact")),
        (conquests, ("forward_columns", "forward_exact_from")),
        (plans, ("backward_float", "backward_exact", "success_functions")),
        (planning, ("Conquest", "sweep", "success_functions")),
        (grids, ("attack_with",)),
        (matrix, ("_sparse",)),
        (dice, ("count_pair_wins",)),
        (policy, ("_simplex", "_enumerate_supports")),
    ):
        for name in names:
            monkeypatch.setattr(module, name, must_not_run)
    monkeypatch.setattr(policy.Policy, "_solve", must_not_run)
    battles.clear_battle_cache()


#: One hostile size per entry point whose cost grows with its arguments: each must be refused up front.
TOO_COSTLY = {
    "armies_needed, the issue example": lambda: rm.armies_needed([10**6], 0.9),
    "armies_needed, a long path": lambda: rm.armies_needed([50] * 2000, 0.5),
    "armies_needed, exact near the threshold is still estimated": lambda: rm.armies_needed([10**4], 0.9),
    "battle": lambda: rm.battle(10**6, 10**5),
    "battle, few attackers": lambda: rm.battle(5, 10**8),
    "battle exact, thin": lambda: rm.battle(3, 30_000, exact=True),
    "battle_statistics": lambda: rm.battle_statistics(30_000, 3, rm.STATISTICS),
    "odds_table": lambda: rm.odds_table(10**5, 2),
    "odds_table exact": lambda: rm.odds_table(10_000, 3, exact=True),
    "battle_chain": lambda: rm.battle_chain(3000, 3000),
    "conquest, few attackers": lambda: rm.conquest(8, [10**7]),
    "conquest, a long path": lambda: rm.conquest(10**4, [3] * 10**5),
    "conquest exact, a long path": lambda: rm.conquest(500, [3] * 500, exact=True),
    "combined_attack": lambda: rm.combined_attack([10**4] * 1000, 5000),
    "success_curve": lambda: rm.success_curve([10**4] * 100, 10**4),
    "plan_conquest": lambda: rm.plan_conquest(10**5, rm.Target(10**4, then=[rm.Target(10**4)])),
    "defence_allocations": lambda: rm.defence_allocations(10**5, 60, 4),
    "optimal_policy": lambda: rm.optimal_policy(10**4, 10**4),
    "optimal_policy two-sided, many dice": lambda: rm.optimal_policy(
        3000, 3000, two_sided=True, rules=rm.CombatRules(8, 8)
    ),
    "roll_odds": lambda: rm.roll_odds(20, 20, attacker_sides=1000, defender_sides=1000),
    "chain_win_probability": lambda: chain_win_probability(10**7, (1,) * 10**6),
    "solve_matrix_game": lambda: rm.solve_matrix_game(np.ones((1000, 1000)).tolist()),
    "solve_matrix_game exact": lambda: rm.solve_matrix_game([[1] * 150] * 150),
}


@pytest.mark.parametrize("name", sorted(TOO_COSTLY))
def test_too_costly_calls_are_refused_before_the_work(name, no_expensive_work, hang_guard):
    with pytest.raises(rm.ResourceLimitError) as info:
        TOO_COSTLY[name]()
    message = str(info.value)
    assert "limit" in message
    assert "riskmath.set_limits" in message


def test_the_issue_example_says_what_it_would_search():
    with pytest.raises(rm.ResourceLimitError) as info:
        rm.armies_needed([10**6], 0.9)
    assert str(info.value).startswith("armies_needed(defenders=1000000, probability=0.9), a search among conquests")


def test_an_affordable_search_still_answers():
    assert rm.armies_needed([3, 2, 2], 0.75) == 11
    assert rm.armies_needed(300, 0.5) == rm.success_curve(300, 400).ge(0.5).idxmax()


# -- class 4: matrix games ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payoff", "match"),
    [
        ([[1.0, float("nan")], [0.0, 1.0]], r"payoff\[0\]\[1\] must be a finite real number, got nan"),
        ([[1.0, 0.0], [float("inf"), 1.0]], r"payoff\[1\]\[0\] must be a finite real number, got inf"),
        ([[1.0, 0.0], [-math.inf, 1.0]], r"payoff\[1\]\[0\] must be a finite real number, got -inf"),
        ([[True, 0], [0, 1]], r"payoff\[0\]\[0\] must be a finite real number, got True"),
        ([["1", 0], [0, 1]], r"payoff\[0\]\[0\] must be a finite real number, got '1'"),
        ([[None]], r"payoff\[0\]\[0\] must be a finite real number, got None"),
        ([], "payoff must be a non-empty table"),
        ([[]], r"payoff\[0\] must be a non-empty row"),
        ([[1, 2], [3]], r"payoff must be rectangular: payoff\[1\] has 1 entries"),
        ("game", "payoff must be a non-empty table"),
        ([[10**400, 1.0]], r"payoff\[0\]\[0\] is too large for a game of floats"),
    ],
)
def test_matrix_game_payoffs_are_checked(payoff, match):
    with pytest.raises(rm.InvalidArgumentError, match=match):
        rm.solve_matrix_game(payoff)


@pytest.mark.parametrize("tolerance", [-1, -1e-9, float("nan"), float("inf"), True, "0", None, 10**400])
def test_matrix_game_tolerance_is_checked(tolerance):
    # a negative or NaN tolerance let StopIteration escape from the saddle-point search
    with pytest.raises(rm.InvalidArgumentError, match="tolerance"):
        rm.solve_matrix_game([[1.0, -1.0], [-1.0, 1.0]], tolerance=tolerance)


@settings(max_examples=25)
@given(
    size=st.tuples(st.integers(1, 14), st.integers(1, 14)),
    seed=st.integers(0, 2**32 - 1),
    tolerance=st.sampled_from([0, 1e-12, 1e-9]),
)
def test_float_games_of_any_size_are_solved(size, seed, tolerance):
    payoff = np.random.default_rng(seed).normal(size=size)
    with hang_guarded():
        value, x, y = rm.solve_matrix_game(payoff.tolist(), tolerance=tolerance)
    assert value == pytest.approx(matrix_game_value(payoff), abs=1e-8)
    for strategy in (x, y):
        assert in_unit_interval(strategy)
        assert math.fsum(strategy) == pytest.approx(1.0, abs=1e-12)
    assert min(np.asarray(x) @ payoff) >= value - 1e-8
    assert max(payoff @ np.asarray(y)) <= value + 1e-8


@settings(max_examples=25)
@given(
    size=st.tuples(st.integers(2, 9), st.integers(2, 9)),
    seed=st.integers(0, 2**32 - 1),
    scale=st.sampled_from([1e-13, 1e-10, 1e-3, 1e5, 1e13]),
)
def test_float_games_are_solved_alike_at_any_scale(size, seed, scale):
    # Payoffs near 1e-13 fell under the methods' absolute cut-offs: a 2 x 2 game with a mixed solution came
    # back as a pure one, its value three times too large.
    payoff = np.random.default_rng(seed).normal(size=size)
    with hang_guarded():
        value, x, y = rm.solve_matrix_game((payoff * scale).tolist())
    assert value == pytest.approx(matrix_game_value(payoff) * scale, rel=1e-6, abs=1e-8 * scale)
    assert min(np.asarray(x) @ payoff) >= value / scale - 1e-8
    assert max(payoff @ np.asarray(y)) <= value / scale + 1e-8


def test_the_review_game_of_tiny_payoffs():
    value, x, y = rm.solve_matrix_game([[3e-13, -1e-13], [-2e-13, 4e-13]])
    assert value == pytest.approx(1e-13, rel=1e-9)
    assert x == pytest.approx((0.6, 0.4))
    assert y == pytest.approx((0.5, 0.5))


@pytest.mark.parametrize("tolerance", [-1.0, float("nan"), "x", True, None])
def test_policy_tolerance_is_checked(tolerance):
    # -1.0 made every state stop (value 0.0); NaN let StopIteration escape.
    with pytest.raises(rm.InvalidArgumentError, match="tolerance must be a finite number >= 0"):
        rm.Policy(6, 6, two_sided=True, tolerance=tolerance)


def test_an_objective_beyond_a_float_is_refused_by_name():
    with pytest.raises(rm.InvalidArgumentError, match=r"objective\(0, 0\) returned an integer of about 401 digits"):
        rm.optimal_policy(3, 3, lambda a, d: 10**400 * (d == 0))
    assert rm.optimal_policy(3, 3, lambda a, d: 10**400 * (d == 0), exact=True).value > 0


@pytest.mark.parametrize(
    "call",
    [
        lambda: rm.conquest(10, [3, 2], leave={0: 5, 1: 5}),
        lambda: rm.conquest(10, {3: "a", 2: "b"}),
        lambda: rm.combined_attack({5: None, 4: None}, 3),
    ],
)
def test_a_mapping_is_not_read_as_a_sequence_of_its_keys(call):
    with pytest.raises(rm.InvalidArgumentError):
        call()


def test_the_issue_game_is_quick_and_right(hang_guard):
    payoff = np.random.default_rng(12).normal(size=(12, 12))
    start = time.perf_counter()
    value, _, _ = rm.solve_matrix_game(payoff.tolist(), tolerance=1e-9)
    assert time.perf_counter() - start < 60  # a hang guard: it took minutes by support enumeration
    assert value == pytest.approx(matrix_game_value(payoff), abs=1e-8)


@settings(max_examples=15)
@given(payoff=st.lists(st.lists(st.integers(-9, 9), min_size=8, max_size=8), min_size=7, max_size=9))
def test_large_exact_games_are_exact(payoff):
    value, x, y = rm.solve_matrix_game(payoff)
    assert isinstance(value, Fraction)
    assert sum(x) == sum(y) == 1
    assert min(x) >= 0
    assert min(y) >= 0
    rows, cols = len(payoff), len(payoff[0])
    assert min(sum(x[r] * payoff[r][c] for r in range(rows)) for c in range(cols)) == value
    assert max(sum(y[c] * payoff[r][c] for c in range(cols)) for r in range(rows)) == value


def test_numpy_payoffs():
    assert rm.solve_matrix_game(np.array([[1, -1], [-1, 1]])) == (0, (Fraction(1, 2),) * 2, (Fraction(1, 2),) * 2)
    value, x, _ = rm.solve_matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert value == 0.0
    assert x == (0.5, 0.5)


# -- class 5: hostile arguments ---------------------------------------------------------------

#: Values no argument of the odds layer takes as they are (a few are right for some arguments: see below).
HOSTILE = {
    "True": True,
    "2.5": 2.5,
    "nan": math.nan,
    "inf": math.inf,
    "-inf": -math.inf,
    "10**400": 10**400,
    "-10**400": -(10**400),
    "-1": -1,
    "'3'": "3",
    "None": None,
    "[1, 2]": [1, 2],
    "object()": object(),
    "np.float64(2.0)": np.float64(2.0),
    "Fraction(1, 2)": Fraction(1, 2),
}

#: Each public function of the odds layer (and evaluate's odds helpers), with arguments that work.
CALLS = {
    "battle": (rm.battle, [5, 3], {"stop_at": 0, "exact": False, "rules": None}),
    "battle_statistics": (
        rm.battle_statistics,
        [5, 3],
        {"statistics": ("win_probability",), "stop_at": 0, "exact": False, "rules": None},
    ),
    "odds_table": (rm.odds_table, [5, 3], {"statistic": "win_probability", "stop_at": 0, "exact": False}),
    "battle_chain": (rm.battle_chain, [5, 3], {"stop_at": 0, "rules": None}),
    "conquest": (rm.conquest, [5, [3, 2]], {"leave": 1, "exact": False, "rules": None}),
    "armies_needed": (rm.armies_needed, [[3, 2], 0.9], {"leave": 1, "rules": None, "max_attackers": 1000}),
    "combined_attack": (rm.combined_attack, [[3, 3], 5], {"stop_at": 0, "exact": False, "rules": None}),
    "success_curve": (rm.success_curve, [[3, 2], 10], {"leave": 1, "exact": False, "rules": None}),
    "plan_conquest": (rm.plan_conquest, [10, rm.Target(2, then=[rm.Target(1)])], {"exact": False, "rules": None}),
    "defence_allocations": (rm.defence_allocations, [8, 6, 2], {"leave": 1, "exact": False, "rules": None}),
    "optimal_policy": (
        rm.optimal_policy,
        [5, 3, "win_with"],
        {"min_left": 1, "allow_stop": True, "two_sided": False, "exact": False, "rules": None},
    ),
    "roll_odds": (rm.roll_odds, [3, 2], {"attacker_sides": 6, "defender_sides": 6, "ties": "defender"}),
    "solve_matrix_game": (rm.solve_matrix_game, [[[1.0, -1.0], [-1.0, 1.0]]], {"tolerance": 0}),
    "format_table": (rm.format_table, [rm.odds_table(2, 2), "text"], {"precision": 4}),
    "CombatRules": (rm.CombatRules, [3, 2, 6, 6, "defender"], {}),
    "Target": (rm.Target, [3], {"name": None, "leave": 1, "then": (), "split": "even"}),
    "win_probability": (win_probability, [5, 3, None], {}),
    "chain_win_probability": (chain_win_probability, [5, (3, 2), None], {}),
    "set_limits": (rm.set_limits, [], {"max_memory": 2**30, "max_seconds": 60}),
}


def cases():
    for name, (_, args, keywords) in CALLS.items():
        slots = [*range(len(args)), *keywords]
        for slot in slots:
            for value in HOSTILE:
                yield name, slot, value


def call_with(name, slot, value):
    function, args, keywords = CALLS[name]
    args, keywords = list(args), dict(keywords)
    if isinstance(slot, int):
        args[slot] = HOSTILE[value]
    else:
        keywords[slot] = HOSTILE[value]
    result = function(*args, **keywords)
    if isinstance(result, rm.set_limits):
        result.__exit__(None, None, None)
    for attribute in ("win_probability", "value"):
        getattr(result, attribute, None)  # computed lazily: computed here
    return result


ALL_CASES = list(cases())


@pytest.mark.parametrize(("name", "slot", "value"), ALL_CASES[::23], ids=str)
def test_hostile_arguments_end_with_a_riskmath_error_or_an_answer(name, slot, value, hang_guard):
    # Anything but a riskmath error (TypeError, OverflowError, KeyError, StopIteration, RecursionError, ...)
    # fails the test.
    try:
        call_with(name, slot, value)
    except rm.RiskmathError as error:
        message = str(error)
    else:
        message = ""
    assert len(message) < 400  # never a 400-digit number quoted in full


@pytest.mark.slow
@pytest.mark.parametrize(("name", "slot", "value"), ALL_CASES, ids=str)
def test_hostile_arguments_every_case(name, slot, value, hang_guard):
    test_hostile_arguments_end_with_a_riskmath_error_or_an_answer(name, slot, value, None)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: rm.battle_statistics(5, 3, 2.5),
            "a sequence of names from STATISTICS, got 2.5",
        ),
        (lambda: win_probability(2.5, 3), "attackers must be an integer, got 2.5"),
        (lambda: win_probability(5, math.nan), "defenders must be an integer, got nan"),
        (lambda: win_probability(True, 3), "attackers must be an integer, got True"),
        (lambda: chain_win_probability(5, None), "defenders must be a sequence of army counts, got None"),
        (lambda: chain_win_probability(5, (3, -1)), r"defenders\[1\] must be >= 0, got -1"),
        (lambda: chain_win_probability(5, ()), "at least one territory"),
        (lambda: chain_win_probability(5, [[1]]), r"defenders\[0\] must be an integer, got \[1\]"),
        (lambda: rm.success_curve([3, 2], 10, leave=10**400), None),  # accepted: everything stays behind
        (lambda: rm.Target(3, name=2.5), "Target.name must be a string or None, got 2.5"),
        (lambda: rm.Target(3, then=5), "Target.then must be a sequence of Targets, got 5"),
        (lambda: rm.Target(3, split=5), "Target.split must be 'even', a sequence or a function, got 5"),
        (lambda: rm.optimal_policy(5, 3, min_left=3), "min_left=3 is the threshold of objective='win_with'"),
        (lambda: rm.optimal_policy(5, 3, lambda a, d: a, min_left=3), "means nothing to objective=<function"),
        (lambda: rm.optimal_policy(5, 3).action(9, 3), "attackers must be <= 5, got 9"),
        (lambda: rm.optimal_policy(5, 3).defence(2, 0), "defenders must be >= 1, got 0"),
        (lambda: rm.optimal_policy(4, 3, lambda a, d: math.nan), r"objective\(0, 0\) must return a finite real number"),
        (lambda: rm.optimal_policy(4, 3, lambda a, d: "win"), r"objective\(0, 0\) must return a finite real number"),
        (lambda: rm.battle(5, 3, rules=rm.Rules), "rules must be a CombatRules"),
        # Found by the hostile-user review of 2026-12-02:
        (lambda: rm.battle(0, 3).chain, r"battle\(0, 3, stop_at=0\) is over before its first roll"),
        (lambda: rm.battle(3, 3, stop_at=5).chain, "no chain of transient states"),
        (lambda: rm.Target.path(3), "defenders must be a sequence of army counts, got 3"),
        (lambda: rm.Target(2, then=(rm.Target(1), rm.Target(1)), split={1, None}), "Target.split must be 'even'"),
        (lambda: rm.Target(2, then={rm.Target(1)}), "Target.then must be a sequence of Targets"),
    ],
)
def test_clear_messages(call, match):
    if match is None:
        assert call() is not None
        return
    with pytest.raises(rm.InvalidArgumentError, match=match):
        call()


def test_negative_and_empty_sides_keep_their_documented_answers():
    assert win_probability(-(10**400), 3) == 0.0  # no attackers: 0
    assert win_probability(5, -3) == 1.0  # no defenders: 1
    assert chain_win_probability(-1, (3,)) == 0.0


def test_huge_limits_mean_no_limit():
    before = rm.get_limits()
    with rm.set_limits(max_memory=10**400, max_seconds=10**400):
        assert rm.get_limits() == {"max_memory": math.inf, "max_seconds": math.inf}
    assert rm.get_limits() == before
    for bad in (-(10**400), Fraction(-1, 3)):
        with pytest.raises(rm.InvalidArgumentError, match="positive number"):
            rm.set_limits(max_seconds=bad)


def test_a_numpy_path_is_a_path_of_plain_ints():
    plan = rm.Target.path(np.array([3, 2]))
    assert [(type(t.defenders), t.defenders) for t in plan.walk()] == [(int, 3), (int, 2)]


def test_plots_refuse_what_is_not_a_table():
    plots = pytest.importorskip("riskmath.plots")
    import matplotlib.pyplot as plt

    for bad in (None, [[0.5]]):
        with pytest.raises(rm.InvalidArgumentError, match="table must be a non-empty DataFrame"):
            plots.odds_heatmap(bad)
    with pytest.raises(rm.InvalidArgumentError, match="curves must be a non-empty DataFrame"):
        plots.success_curves([1, 2])
    curve = rm.success_curve([2, 2], 10)
    with pytest.raises(rm.InvalidArgumentError, match="thresholds must be probabilities"):
        plots.success_curves(curve, thresholds=5)
    ax = plots.success_curves(curve, thresholds=0.5)  # a Series is one curve; one number one line
    assert len(ax.get_lines()) == 2
    plt.close("all")
