"""Pictures of games and simulations draw exactly what their tables hold."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent
from riskmath.errors import InvalidArgumentError
from riskmath.plots.games import game_timeline, tournament
from riskmath.plots.style import NEUTRAL_COLORS, OWNER_COLORS
from riskmath.tournament import tournament as play_tournament
from riskmath.tournament import wilson_interval


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def record():
    return rm.play(rm.Game(3, max_turns=30), [AggressiveAgent(), RandomAgent(), RandomAgent()], seed=1)


@pytest.fixture(scope="module")
def simulated():
    return rm.simulate(rm.Game(2, max_turns=60), [AggressiveAgent(), RandomAgent()], 10, seed=0)


@pytest.fixture(scope="module")
def league():
    return play_tournament(rm.Game(2, max_turns=60), [[AggressiveAgent(), RandomAgent()]], 4, seed=0)


def _error_extents(ax):
    """The (low, high) of each horizontal error bar, in bar order."""
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    segments = bars.errorbar.lines[2][0].get_segments()
    return [(float(seg[0][0]), float(seg[1][0])) for seg in segments]


# -- game_timeline ----------------------------------------------------------


def test_timeline_draws_one_line_per_owner_with_the_history(record):
    history = record.history()
    axes = game_timeline(record)
    assert len(axes) == 3
    for ax, column in zip(axes, ["territories", "armies", "cards"], strict=True):
        lines = ax.get_lines()
        assert len(lines) == 3
        for owner, line in enumerate(lines):
            np.testing.assert_array_equal(line.get_xdata(), history.index.to_numpy())
            np.testing.assert_array_equal(line.get_ydata(), history[f"{column}_{owner}"].to_numpy())
            assert line.get_label() == f"player {owner}"
    assert [ax.get_ylabel() for ax in axes] == ["territories", "armies", "cards in hand"]
    assert axes[-1].get_xlabel() == "turn"


def test_timeline_colours_and_legend(record):
    axes = game_timeline(record)
    colors = [[line.get_color() for line in ax.get_lines()] for ax in axes]
    assert colors[0] == colors[1] == colors[2] == list(OWNER_COLORS[:3])  # the board's colors
    legend = axes[0].get_legend()
    assert [text.get_text() for text in legend.get_texts()] == ["player 0", "player 1", "player 2"]
    assert legend.get_title().get_text() == "a draw after 30 turns"


def test_timeline_neutral_owner_has_no_cards_line():
    record = rm.play(rm.Game(2, max_turns=30), [AggressiveAgent(), RandomAgent()], seed=1)
    axes = game_timeline(record)
    assert [len(ax.get_lines()) for ax in axes] == [3, 3, 2]
    assert axes[0].get_lines()[2].get_label() == "neutral"
    assert axes[0].get_lines()[2].get_color() == NEUTRAL_COLORS[0]  # gray, as on the board
    np.testing.assert_array_equal(axes[1].get_lines()[2].get_ydata(), record.history()["armies_2"].to_numpy())


def test_timeline_names_the_winner():
    record = rm.play(rm.Game(2, max_turns=150), [AggressiveAgent(), RandomAgent()], seed=1)
    assert record.winner is not None
    title = game_timeline(record)[0].get_legend().get_title().get_text()
    assert title == f"won by player {record.winner} on turn {record.final.turn}"


def test_timeline_draws_on_given_axes(record):
    _, given = plt.subplots(1, 3)
    returned = game_timeline(record, axes=given)
    assert list(returned) == list(given)
    assert all(len(ax.get_lines()) == 3 for ax in given)


def test_timeline_rejects_wrong_axes_and_missing_history(record):
    _, given = plt.subplots(1, 2)
    with pytest.raises(InvalidArgumentError, match="3 matplotlib Axes"):
        game_timeline(record, axes=given)
    bare = rm.play(rm.Game(2, max_turns=10), [AggressiveAgent(), RandomAgent()], seed=1, record_history=False)
    with pytest.raises(InvalidArgumentError, match="record_history"):
        game_timeline(bare)
    for bad_axes in (5, "abc"):
        with pytest.raises(InvalidArgumentError, match="3 matplotlib Axes"):
            game_timeline(record, axes=bad_axes)
    for bad in (None, record.final, [record]):
        with pytest.raises(InvalidArgumentError, match=r"game_timeline needs a riskmath\.GameRecord"):
            game_timeline(bad)


# -- tournament: the table of riskmath.tournament.tournament ------------------


def test_tournament_table_bars_are_win_rates_with_the_intervals(league):
    (ax,) = tournament(league)
    assert [float(bar.get_width()) for bar in ax.patches] == league["win_rate"].tolist()
    np.testing.assert_allclose(_error_extents(ax), league[["ci_low", "ci_high"]].to_numpy())
    assert [label.get_text() for label in ax.get_yticklabels()] == ["aggressive", "random"]
    assert ax.get_xlabel() == "win rate"
    assert ax.get_title() == "tournament: 4 games per line-up"


def test_tournament_table_with_several_lineups_names_them(league):
    other = league.assign(lineup="random,aggressive")
    table = pd.concat([league, other], ignore_index=True)
    _, ax = plt.subplots()
    (returned,) = tournament(table, axes=ax)
    assert returned is ax
    assert len(ax.patches) == 4
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert labels[0] == "aggressive (aggressive,random)"
    assert labels[3] == "random (random,aggressive)"


def test_tournament_table_takes_no_seat_names(league):
    with pytest.raises(InvalidArgumentError, match="agents="):
        tournament(league, agents=["a", "b"])


# -- tournament: the table of riskmath.simulate ----------------------------------


def test_simulate_table_win_rates_by_seat(simulated):
    rates, _ = tournament(simulated, agents=["aggressive", "random"])
    n = len(simulated)
    wins = [int((simulated["winner"] == seat).fillna(False).sum()) for seat in (0, 1)]
    assert [float(bar.get_width()) for bar in rates.patches] == [w / n for w in wins]
    np.testing.assert_allclose(_error_extents(rates), [wilson_interval(w, n) for w in wins])
    assert [label.get_text() for label in rates.get_yticklabels()] == ["seat 0: aggressive", "seat 1: random"]
    draws = int(simulated["draw"].sum())
    assert rates.get_title() == f"{n} games, {draws} draws; 95% Wilson intervals"


def test_simulate_table_histogram_of_game_lengths(simulated):
    _, lengths = tournament(simulated)
    counts = [bar.get_height() for bar in lengths.patches]
    assert sum(counts) == len(simulated)
    edges = [bar.get_x() for bar in lengths.patches]
    assert min(edges) <= simulated["turns"].min()
    assert lengths.get_xlabel() == "game length (turns)"


def test_simulate_table_counts_draws_and_takes_agents(simulated):
    table = simulated.copy()
    table.loc[:3, "winner"] = pd.NA
    table.loc[:3, "draw"] = True
    rates, _ = tournament(table, agents=[AggressiveAgent(), RandomAgent()], confidence=0.9)
    n = len(table)
    wins = int((table["winner"] == 0).fillna(False).sum())
    assert float(rates.patches[0].get_width()) == wins / n
    np.testing.assert_allclose(_error_extents(rates)[0], wilson_interval(wins, n, 0.9))
    assert rates.get_title() == f"{n} games, 4 draws; 90% Wilson intervals"
    assert rates.get_yticklabels()[0].get_text() == "seat 0: aggressive"


def test_simulate_table_unlabelled_seats_and_given_axes(simulated):
    _, given = plt.subplots(1, 2)
    returned = tournament(simulated, axes=given)
    assert list(returned) == list(given)
    assert [label.get_text() for label in given[0].get_yticklabels()] == ["seat 0", "seat 1"]


def test_simulate_table_rejects_bad_agents_and_axes(simulated):
    with pytest.raises(InvalidArgumentError, match="2 seats"):
        tournament(simulated, agents=["only one"])
    _, ax = plt.subplots()
    with pytest.raises(InvalidArgumentError, match="2 matplotlib Axes"):
        tournament(simulated, axes=ax)


# -- tournament: neither table -----------------------------------------------------


def test_unknown_table_names_the_missing_columns():
    with pytest.raises(InvalidArgumentError, match="missing columns") as info:
        tournament(pd.DataFrame({"seed": [1], "agent": ["x"]}))
    message = str(info.value)
    for column in ("lineup", "win_rate", "ci_low", "ci_high", "winner", "draw", "turns"):
        assert column in message


def test_not_a_dataframe_or_empty(simulated):
    with pytest.raises(InvalidArgumentError, match="DataFrame"):
        tournament([1, 2, 3])
    with pytest.raises(InvalidArgumentError, match="no rows"):
        tournament(simulated.iloc[:0])


def test_tournament_table_by_seat_names_the_seats():
    seats = play_tournament(rm.Game(2, max_turns=30), [[RandomAgent(), AggressiveAgent()]], 2, seed=1, by_seat=True)
    assert (seats["games"] == 0).any()  # a seat never held: a NaN rate, drawn as no bar
    (ax,) = tournament(seats)
    labels = [label.get_text() for label in ax.get_yticklabels()]
    assert labels == ["random, seat 0", "random, seat 1", "aggressive, seat 0", "aggressive, seat 1"]


def test_win_chances_of_a_game_played_on_from_a_position():
    import matplotlib.pyplot as plt

    from riskmath.agents import AggressiveAgent

    game = rm.Game(3, max_turns=60)
    names = game.board.territories
    start = game.position({t: k % 3 for k, t in enumerate(names)}, dict.fromkeys(names, 3), seed=2)
    record = rm.play(game, [AggressiveAgent()] * 3, seed=8, start=start)
    ax = rm.plots.win_chances(record)  # replayed from a new game, it raised IllegalActionError
    assert ax.get_xlabel()
    plt.close("all")
