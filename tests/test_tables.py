"""Odds tables: one sweep over the grid, checked cell by cell against single battles."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import combat_rules

import riskmath as rm


@pytest.mark.parametrize("statistic", rm.STATISTICS)
@pytest.mark.parametrize("stop_at", [0, 2])
def test_every_statistic_matches_single_battles(statistic, stop_at):
    table = rm.odds_table(12, 9, statistic=statistic, stop_at=stop_at)
    assert table.index.name == "attackers"
    assert table.columns.name == "defenders"
    assert list(table.index) == list(range(stop_at + 1, 13))
    assert list(table.columns) == list(range(1, 10))
    for a in table.index:
        for d in table.columns:
            expected = getattr(rm.battle(a, d, stop_at=stop_at), statistic)
            assert table.loc[a, d] == pytest.approx(expected, abs=1e-12, rel=1e-12), (a, d)


@given(rules=combat_rules, stop_at=st.integers(0, 3))
def test_variants_match_single_battles(rules, stop_at):
    table = rm.odds_table(stop_at + 8, 7, statistic="expected_attackers_left_if_won", stop_at=stop_at, rules=rules)
    for a in (stop_at + 1, stop_at + 4, stop_at + 8):
        for d in (1, 3, 7):
            expected = rm.battle(a, d, stop_at=stop_at, rules=rules).expected_attackers_left_if_won
            assert table.loc[a, d] == pytest.approx(expected, rel=1e-12)


def test_exact_table_is_fractions_and_agrees():
    exact = rm.odds_table(8, 8, exact=True)
    approx = rm.odds_table(8, 8)
    assert all(isinstance(v, Fraction) for v in exact.to_numpy().ravel())
    np.testing.assert_allclose(exact.to_numpy(dtype=float), approx.to_numpy(), atol=1e-14)
    assert exact.loc[3, 2] == rm.battle(3, 2, exact=True).win_probability


def test_battle_statistics_several_at_once():
    stats = rm.battle_statistics(20, 20, ["win_probability", "expected_rolls", "std_defender_losses"])
    assert set(stats) == {"win_probability", "expected_rolls", "std_defender_losses"}
    assert stats["expected_rolls"].shape == (20, 20)
    assert stats["win_probability"][9, 9] == pytest.approx(rm.battle(10, 10).win_probability)


def test_large_table_corner():
    table = rm.odds_table(200, 200)
    assert table.shape == (200, 200)
    assert table.loc[200, 200] == pytest.approx(rm.battle(200, 200).win_probability, abs=1e-12)


class TestFormats:
    def test_text(self):
        text = rm.format_table(rm.odds_table(3, 3), "text", precision=3)
        lines = text.splitlines()
        assert lines[0].split() == ["attackers\\defenders", "1", "2", "3"]
        assert lines[3].split() == ["3", "0.916", "0.656", "0.470"]

    def test_csv(self):
        lines = rm.format_table(rm.odds_table(2, 2), "csv").splitlines()
        assert lines == ["attackers,1,2", "1,0.4167,0.1061", "2,0.7542,0.3627"]

    def test_markdown(self):
        lines = rm.format_table(rm.odds_table(2, 2), "markdown").splitlines()
        assert lines[0] == "| attackers\\defenders | 1 | 2 |"
        assert lines[1] == "|---:|---:|---:|"
        assert lines[2] == "| 1 | 0.4167 | 0.1061 |"

    def test_latex(self):
        text = rm.format_table(rm.odds_table(2, 2), "latex")
        assert text.startswith("\\begin{tabular}{r|rr}")
        assert "2 & 0.7542 & 0.3627 \\\\" in text
        assert text.endswith("\\end{tabular}")

    def test_json_exact(self):
        document = json.loads(rm.format_table(rm.odds_table(2, 2, exact=True), "json"))
        assert document["statistic"] == "win_probability"
        assert document["attackers"] == [1, 2]
        assert document["values"][0][0] == "5/12"

    def test_unknown_format(self):
        with pytest.raises(rm.InvalidArgumentError, match=r"^fmt must be one of .*; got 'html'"):
            rm.format_table(rm.odds_table(2, 2), "html")


class TestBadInput:
    def test_unknown_statistic(self):
        with pytest.raises(rm.InvalidArgumentError, match=r"statistic must be one of .*; got 'win'"):
            rm.odds_table(3, 3, statistic="win")

    def test_sizes(self):
        with pytest.raises(rm.InvalidArgumentError, match="max_attackers must be >= 1, got 0"):
            rm.odds_table(0, 3)
        with pytest.raises(rm.InvalidArgumentError, match="max_defenders must be >= 1, got -4"):
            rm.odds_table(3, -4)
        with pytest.raises(rm.InvalidArgumentError, match="max_attackers must be >= 4, got 3"):
            rm.odds_table(3, 3, stop_at=3)

    def test_conditional_statistic_underflow_is_an_error_not_nan(self):
        with pytest.raises(rm.UndefinedStatisticError, match="attackers=1, defenders=5"):
            rm.odds_table(2, 700, statistic="expected_attackers_left_if_won")


def _bulk_one_diagonal_at_a_time(values, lo, md, p, costs):
    """The bulk of the backward sweep as it was before issue 21's goal 3: one ``np.correlate`` per anti-diagonal,
    on a skewed copy holding each diagonal contiguous (the reference the interleaved rows must equal bit for bit)."""
    A, D = values.shape[0] - 1, values.shape[1] - 1
    pairs = len(p) - 1
    skew = np.zeros((len(costs), A + D + 1, A + 1))
    for a in range(lo - pairs, lo):
        skew[:, a : a + D + 1, a] = values[a].T
    rows = np.arange(lo, A + 1)
    for d in range(md - pairs, md):
        skew[:, rows + d, rows] = values[lo:, d].T
    for x, cost in enumerate(costs):
        diagonals = skew[x]
        for s in range(lo + md, A + D + 1):
            a0, a1 = max(lo, s - D), min(A, s - md)
            out = np.correlate(diagonals[s - pairs, a0 - pairs : a1 + 1], p[::-1].copy(), "valid")
            if cost:
                out += cost
            diagonals[s, a0 : a1 + 1] = out
        for a in range(lo, A + 1):
            values[a, md:, x] = diagonals[a + md : a + D + 1, a]


@given(
    attackers=st.integers(1, 70),
    defenders=st.integers(1, 70),
    stop_at=st.integers(0, 3),
    rules=combat_rules,
    moments=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_backward_sweep_bit_for_bit_as_one_correlation_per_diagonal(
    attackers, defenders, stop_at, rules, moments, seed
):
    # The bulk computes P anti-diagonals per np.correlate (P = the pairs a roll compares: 1 to 3 here), which must
    # leave every float as one correlation per diagonal made it: the agents' grids read them, and a last-bit
    # difference can change a decision.  Random boundary values and costs, as the plans pass them.
    from riskmath.odds import _backward, _sweeps

    stop_at = min(stop_at, attackers - 1)
    rng = np.random.default_rng(seed)
    win = rng.random((attackers + 1, moments))
    stop = rng.random((stop_at + 1, defenders + 1, moments))
    cost = rng.integers(0, 2, moments).astype(float)
    kern = _sweeps.kernel(rules)
    ours = _backward.backward_float(attackers, defenders, stop_at, kern, win, stop, cost)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_backward, "_backward_bulk", _bulk_one_diagonal_at_a_time)
        reference = _backward.backward_float(attackers, defenders, stop_at, kern, win, stop, cost)
    assert np.array_equal(ours, reference)


@pytest.mark.parametrize("three_pairs", [False, True])
def test_a_kept_bulk_plan_gives_the_same_floats_as_a_fresh_sweep(three_pairs):
    # The bulk keeps its buffer and its rows' views per shape (one plan per thread): a second grid of a shape, with
    # other boundary values, after grids of other shapes, must come out as the reference sweep makes it, bit for
    # bit.  Three pairs a roll put edge cells inside the rows' ranges (written back after each row); one and two
    # statistics; with and without a cost per roll.
    from riskmath.odds import _backward, _sweeps

    rules = rm.CombatRules(attacker_max_dice=4, defender_max_dice=3) if three_pairs else rm.CombatRules()
    kern = _sweeps.kernel(rules)
    rng = np.random.default_rng(21)
    for attackers, defenders, moments in [(40, 30, 2), (25, 40, 1), (40, 30, 2), (25, 40, 1), (40, 30, 2)]:
        win = rng.random((attackers + 1, moments))
        stop = rng.random((1, defenders + 1, moments))
        cost = np.array([1.0, 0.0][:moments])
        ours = _backward.backward_float(attackers, defenders, 0, kern, win, stop, cost)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_backward, "_backward_bulk", _bulk_one_diagonal_at_a_time)
            reference = _backward.backward_float(attackers, defenders, 0, kern, win, stop, cost)
        assert np.array_equal(ours, reference), (attackers, defenders, moments)


def test_statistics_are_not_views_of_the_kept_grid():
    # battle_statistics sweeps into a grid the thread keeps for the next call of the shape; what it returns (means
    # are views of that grid before the copy) must not change when the next grid is swept.
    first = rm.battle_statistics(30, 20, ("expected_rolls", "win_probability", "expected_attackers_left"))
    saved = {name: values.copy() for name, values in first.items()}
    rm.battle_statistics(30, 20, ("expected_rolls", "win_probability", "expected_attackers_left"), stop_at=5)
    rm.odds_table(30, 20, statistic="expected_rolls", rules=rm.CombatRules(attacker_sides=8))
    for name, values in first.items():
        assert np.array_equal(values, saved[name]), name


def test_kept_bulk_plans_are_bounded_and_per_thread():
    import threading

    from riskmath.odds import _backward

    for n in range(20, 140, 10):  # more shapes than are kept
        rm.odds_table(n, n)
    kept = _backward._KEPT.kept
    assert 0 < len(kept) <= _backward._KEPT_COUNT
    assert sum(nbytes for nbytes, _ in kept.values()) <= _backward._KEPT_BYTES
    rm.odds_table(1500, 1500)  # a plan or grid too big to keep is used for its call alone
    assert all(1500 not in key for key in _backward._KEPT.kept)
    # Threads sweeping the same shape at once each use their own buffer: every table as the one made alone.
    expected = {n: rm.odds_table(n, 60).to_numpy() for n in (50, 70)}
    results: list[bool] = []

    def sweep(n: int) -> None:
        results.extend(np.array_equal(rm.odds_table(n, 60).to_numpy(), expected[n]) for _ in range(30))

    threads = [threading.Thread(target=sweep, args=(n,)) for n in (50, 70, 50, 70)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True] * 120


@given(
    attackers=st.integers(1, 60),
    defenders=st.integers(1, 60),
    rules=combat_rules,
    cells=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=4),
)
def test_win_probability_table_matches_single_battles(attackers, defenders, rules, cells):
    # Tables large enough for many interleaved rows, under every kind of dice, against battles swept forward.
    table = rm.odds_table(attackers, defenders, rules=rules)
    for x, y in cells:
        a, d = 1 + round(x * (attackers - 1)), 1 + round(y * (defenders - 1))
        assert table.loc[a, d] == pytest.approx(rm.battle(a, d, rules=rules).win_probability, abs=1e-12, rel=1e-12)


@pytest.mark.parametrize(
    ("args", "kwargs", "shape"),
    [
        ((np.uint8(255), 3), {}, (255, 3)),
        ((300, 3), {"stop_at": np.uint8(255)}, (45, 3)),
        ((np.int8(127), 2), {}, (127, 2)),
    ],
)
def test_numpy_small_integers_at_their_largest_make_the_whole_table(args, kwargs, shape):
    # The index was built from the arguments as given: np.uint8(255) + 1 wrapped round to 0 (hostile odds review).
    table = rm.odds_table(*args, **kwargs)
    assert table.shape == shape
    assert table.index[-1] == int(args[0])
    assert table.index[0] == int(kwargs.get("stop_at", 0)) + 1


def test_an_exact_table_of_numbers_over_4300_digits_is_written_whole():
    # Python's str refuses an int of over 4,300 digits: format_table of odds_table(1, 3500, exact=True) raised
    # "Exceeds the limit (4300 digits) for integer string conversion" from inside (hostile odds review, 2026-12-03).
    import sys

    from riskmath.odds.tables import fraction_text

    table = rm.odds_table(1, 1900, exact=True)  # (about a second)
    last = table.iloc[0, -1]
    assert last.denominator.bit_length() > 4300 * 3.33
    csv_text = rm.format_table(table, "csv")
    document = json.loads(rm.format_table(table, "json"))
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert csv_text.splitlines()[1].split(",")[-1] == str(last)
        assert document["values"][0][-1] == str(last)
        for value in (Fraction(-(3**9000), 2**20000), Fraction(7**9000), Fraction(5, 12)):
            assert fraction_text(value) == str(value)
        assert Fraction(document["values"][0][-1]) == last  # (Fraction reads back what was written)
    finally:
        sys.set_int_max_str_digits(limit)


def test_the_digits_of_an_exact_table_are_counted_before_they_are_written():
    table = rm.odds_table(1, 1200, exact=True)
    with rm.set_limits(max_seconds=0.05), pytest.raises(rm.ResourceLimitError, match="format_table of a 1 x 1200"):
        rm.format_table(table, "json")


def test_format_table_refuses_an_empty_table_and_writes_standard_json():
    # An empty DataFrame raised max()'s ValueError; a NaN cell became JSON's non-standard NaN (hostile odds review).
    import pandas as pd

    with pytest.raises(rm.InvalidArgumentError, match=r"table has no cells \(shape \(0, 0\)\)"):
        rm.format_table(pd.DataFrame())
    table = rm.odds_table(2, 2)
    table.iloc[0, 0] = np.nan
    document = json.loads(rm.format_table(table, "json"), parse_constant=lambda name: pytest.fail(name))
    assert document["values"][0] == [None, 0.1061]


# -- the precision the docstrings state (2026-12-04: an independent review found the old bound too optimistic) ------
def test_grid_deviations_and_losses_are_as_precise_as_documented():
    # A standard deviation s of armies x is off by about 1e-16 * (x / s)**2 relative; an expected loss by about
    # 1e-16 times the start in absolute terms.  Both cases below are from the review, against battle()'s values.
    rules = rm.CombatRules(attacker_max_dice=1)
    table = rm.odds_table(30, 30, statistic="std_attacker_losses", stop_at=5, rules=rules).loc[8, 21]
    exact = float(rm.battle(8, 21, stop_at=5, rules=rules, exact=True).std_attacker_losses)
    assert abs(table - exact) / exact < 10 * 1e-16 * (8 / exact) ** 2
    rules = rm.CombatRules(attacker_sides=2, defender_sides=100)
    table = rm.odds_table(3, 1000, statistic="expected_defender_losses", rules=rules).loc[1, 1000]
    exact = float(rm.battle(1, 1000, rules=rules, exact=True).expected_defender_losses)
    assert abs(table - exact) < 10 * 1e-16 * 1000
    assert rm.battle(1, 1000, rules=rules).expected_defender_losses == pytest.approx(exact, rel=1e-15)
