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
        with pytest.raises(rm.InvalidArgumentError, match=r"format must be one of .*; got 'html'"):
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
