"""Tournaments: the table, its intervals, and the ordering the issue asks for (odds > aggressive > random).

The ordering tests play fixed seeds, so they are deterministic; the margins are chosen so that the claims
would also hold, with high probability, for other seeds: each asserts that the lower end of the 95 % Wilson
interval clears the bar (a clear majority: above one half), not merely the point estimate.
"""

from __future__ import annotations

import pytest

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent
from riskmath.agents.odds import OddsAgent
from riskmath.errors import InvalidArgumentError
from riskmath.tournament import tournament, wilson_interval


@pytest.mark.parametrize(
    ("k", "n", "expected"),
    [
        # Wilson (1927) score interval, z = 1.959964; values as tabulated by Newcombe (1998), Table I.
        (81, 263, (0.2553, 0.3662)),
        (15, 148, (0.0624, 0.1605)),
        (0, 20, (0.0, 0.1611)),
        (1, 29, (0.0061, 0.1718)),
    ],
)
def test_wilson_interval_reference_values(k, n, expected):
    low, high = wilson_interval(k, n)
    assert (round(low, 4), round(high, 4)) == expected


def test_wilson_interval_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="successes"):
        wilson_interval(5, 4)
    with pytest.raises(InvalidArgumentError, match="confidence must be a float in"):
        wilson_interval(1, 4, confidence=1.0)


def test_rotations_and_columns():
    table = tournament(rm.Game(3, max_turns=40), [[AggressiveAgent(), RandomAgent(), RandomAgent()]], 7, seed=2)
    assert list(table.columns) == [
        "lineup", "agent", "seats", "games", "wins", "draws", "win_rate", "ci_low", "ci_high",
    ]  # fmt: skip
    assert table["lineup"].tolist() == ["aggressive,random,random"] * 2
    assert table["seats"].tolist() == [1, 2]
    assert table["wins"].sum() + table["draws"].iloc[0] == 7
    again = tournament(rm.Game(3, max_turns=40), [[AggressiveAgent(), RandomAgent(), RandomAgent()]], 7, seed=2)
    assert table.equals(again)


def test_bad_arguments():
    game = rm.Game(2, max_turns=20)
    with pytest.raises(InvalidArgumentError, match="one agent per player"):
        tournament(game, [[RandomAgent()]], 4)
    with pytest.raises(InvalidArgumentError, match="at least one line-up"):
        tournament(game, [], 4)
    with pytest.raises(InvalidArgumentError, match="n_games must be at least the number of rotations"):
        tournament(game, [[RandomAgent(), RandomAgent()]], 1)


def share(table, agent):
    row = table[table["agent"] == agent].iloc[0]
    return row["win_rate"], row["ci_low"]


@pytest.mark.slow
def test_odds_beats_aggressive_in_two_player_games():
    table = tournament(rm.Game(2, max_turns=500), [[OddsAgent(), AggressiveAgent()]], 120, seed=11, n_jobs=2)
    rate, low = share(table, "odds")
    assert rate >= 0.6
    assert low > 0.5


@pytest.mark.slow
def test_odds_beats_aggressive_in_four_player_games():
    lineups = [[OddsAgent(), AggressiveAgent(), OddsAgent(), AggressiveAgent()]]
    table = tournament(rm.Game(4, max_turns=500), lineups, 60, seed=12, n_jobs=2)
    rate, low = share(table, "odds")  # two seats each: half the games is parity
    assert rate >= 0.75
    assert low > 0.5


@pytest.mark.slow
@pytest.mark.parametrize("agent", [OddsAgent(), AggressiveAgent()], ids=["odds", "aggressive"])
def test_both_beat_random(agent):
    table = tournament(rm.Game(2, max_turns=500), [[agent, RandomAgent()]], 60, seed=13, n_jobs=2)
    rate, low = share(table, agent.name)
    assert rate >= 0.95
    assert low > 0.8
