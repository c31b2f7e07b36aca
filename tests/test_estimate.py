"""The fast win estimate: a probability vector over the players, its coefficients, its table and its pictures."""

from __future__ import annotations

import math
from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath import plots
from riskmath.agents import AggressiveAgent, OddsAgent, RandomAgent
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate import (
    _coefficients,
    _features,
    calibration_table,
    estimate_victory_probabilities,
    victory_chances_over,
)
from riskmath.game.game import GameState


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def replay(record: rm.GameRecord) -> list[GameState]:
    """Every state of a recorded game, through the public API."""
    state = record.final.game.new_initial_state(record.seed, auto_chance=True)
    states = [state]
    for action in record.actions:
        state = state.apply(action)
        states.append(state)
    return states


@lru_cache(maxsize=64)
def played(players: int, seed: int, lineup: str) -> tuple[rm.GameRecord, tuple[GameState, ...]]:
    agents = {"aggressive": AggressiveAgent, "random": RandomAgent, "odds": OddsAgent}
    kinds = lineup.split(",")
    record = rm.play(rm.Game(players, max_turns=200), [agents[kinds[p % len(kinds)]]() for p in range(players)], seed)
    return record, tuple(replay(record))


def past_setup(states) -> list[GameState]:
    return [s for s in states if s.turn >= 1]


def with_armies(state: GameState, territory: int, extra: int) -> GameState:
    """The same position with ``extra`` more armies on ``territory`` (a what-if, not a legal move)."""
    pos = state.position.copy()
    pos.armies[territory] += extra
    return GameState(state.game, pos, auto_chance=state.auto_chance)


lineups = st.sampled_from(["aggressive", "random,aggressive", "aggressive,random"])


# -- the probability vector -----------------------------------------------------------


vectors = given(players=st.integers(2, 6), seed=st.integers(0, 2**20), lineup=lineups, pick=st.integers(0, 10**6))


@settings(max_examples=2)
@vectors
def test_a_probability_vector_over_the_players_in_the_game(players, seed, lineup, pick):
    check_probability_vector(players, seed, lineup, pick)


@pytest.mark.slow  # 30 examples, most of them playing games: about 4 s
@settings(max_examples=30)
@vectors
def test_a_probability_vector_over_the_players_in_more_games(players, seed, lineup, pick):
    check_probability_vector(players, seed, lineup, pick)


def check_probability_vector(players: int, seed: int, lineup: str, pick: int) -> None:
    _, states = played(players, seed % 3, lineup)  # a few games, many of their states (mid-turn ones too)
    running = past_setup(states)
    state = running[pick % len(running)]
    chances = estimate_victory_probabilities(state)
    assert chances.name == "victory"
    assert chances.index.name == "player"
    assert chances.index.tolist() == list(range(players))
    values = chances.to_numpy()
    assert np.all(np.isfinite(values))
    assert np.all((values >= 0) & (values <= 1))
    for p in range(players):
        if not state.alive(p):
            assert values[p] == 0.0
    if state.is_terminal() and state.winner is not None:
        assert values.tolist() == [1.0 if p == state.winner else 0.0 for p in range(players)]
    else:
        assert math.isclose(values.sum(), 1.0, rel_tol=0, abs_tol=1e-12)
        assert all(values[p] > 0 for p in range(players) if state.alive(p))


@pytest.mark.parametrize("players", [2, 4])
def test_the_winner_gets_one_and_the_rest_zero(players):
    record, states = played(players, 3, "aggressive")
    assert record.winner is not None
    chances = estimate_victory_probabilities(states[-1])
    expected = [1.0 if p == record.winner else 0.0 for p in range(players)]
    assert chances.tolist() == expected


def test_after_a_draw_nobody_can_win():
    record = rm.play(rm.Game(3, max_turns=4), [RandomAgent(), RandomAgent(), RandomAgent()], seed=1)
    assert record.final.draw
    assert estimate_victory_probabilities(record.final).tolist() == [0.0, 0.0, 0.0]


def test_eliminated_players_get_zero():
    _, states = played(4, 3, "aggressive")
    out = [s for s in past_setup(states) if not all(s.alive(p) for p in range(4)) and not s.is_terminal()]
    assert out, "the game should eliminate somebody before it ends"
    for state in out[:: max(1, len(out) // 20)]:
        chances = estimate_victory_probabilities(state)
        dead = [p for p in range(4) if not state.alive(p)]
        assert (chances[dead] == 0.0).all()
        assert math.isclose(chances.sum(), 1.0, abs_tol=1e-12)


more_armies = given(
    seed=st.integers(0, 7), pick=st.integers(0, 10**6), extra=st.integers(1, 30), choice=st.integers(0, 10**6)
)


@settings(max_examples=2)
@more_armies
def test_more_armies_never_lower_a_players_chance(seed, pick, extra, choice):
    check_more_armies(seed, pick, extra, choice)


@pytest.mark.slow  # the profile's 60 examples, eight games: about 1.5 s
@more_armies
def test_more_armies_never_lower_a_players_chance_in_more_states(seed, pick, extra, choice):
    check_more_armies(seed, pick, extra, choice)


def check_more_armies(seed: int, pick: int, extra: int, choice: int) -> None:
    # Every feature that depends on armies has a weight of the sign that makes this hold (_features.SIGNS).
    _, states = played(3, seed, "aggressive,random")
    running = [s for s in past_setup(states) if not s.is_terminal()]
    state = running[pick % len(running)]
    player = state.turn_player
    mine = [t for t, o in enumerate(state.position.owner) if o == player]
    territory = mine[choice % len(mine)]
    before = estimate_victory_probabilities(state)
    after = estimate_victory_probabilities(with_armies(state, territory, extra))
    assert after[player] >= before[player] - 1e-12
    rivals = [p for p in range(3) if p != player]
    assert after[rivals].sum() <= before[rivals].sum() + 1e-12


def test_the_same_state_gives_the_same_numbers():
    _, states = played(3, 1, "aggressive")
    state = past_setup(states)[20]
    assert estimate_victory_probabilities(state).tolist() == estimate_victory_probabilities(state).tolist()


def test_a_much_larger_army_wins_more_often():
    _, states = played(3, 5, "aggressive")
    state = next(s for s in states if s.turn == 6)
    player = state.turn_player
    territory = next(t for t, o in enumerate(state.position.owner) if o == player)
    before = estimate_victory_probabilities(state)[player]
    after = estimate_victory_probabilities(with_armies(state, territory, 200))[player]
    assert after > before + 0.05


@pytest.mark.parametrize("bad", [None, 3, "state", rm.Game(3)])
def test_refuses_what_is_not_a_state(bad):
    with pytest.raises(InvalidArgumentError, match="state must be a GameState"):
        estimate_victory_probabilities(bad)


def test_refuses_a_state_in_the_setup():
    state = rm.Game(3).new_initial_state(seed=0, auto_chance=True)
    with pytest.raises(InvalidArgumentError, match="past the set-up"):
        estimate_victory_probabilities(state)


# -- the shipped coefficients -------------------------------------------------------------


def test_coefficients_match_the_features():
    assert _coefficients.FEATURES == _features.FEATURES
    assert len(_coefficients.COEFFICIENTS) == len(_features.FEATURES)
    assert set(_features.SIGNS) == set(_features.FEATURES)
    for name, weight in zip(_coefficients.FEATURES, _coefficients.COEFFICIENTS, strict=True):
        assert math.isfinite(weight), name
        assert weight * _features.SIGNS[name] >= 0, f"{name} has weight {weight}, against its sign"


def test_features_are_one_row_per_player():
    _, states = played(4, 2, "aggressive")
    state = past_setup(states)[10]
    rows, alive = _features.player_features(state)
    assert len(rows) == 4
    assert all(len(row) == len(_features.FEATURES) for row in rows)
    # Shares of the table: the territory shares of the players still in add up to 1.
    index = _features.FEATURES.index("log_territories")
    assert math.isclose(sum(math.exp(row[index]) for row, a in zip(rows, alive, strict=False) if a), 1.0)
    assert [row[_features.FEATURES.index("to_move")] for row in rows].count(1.0) == 1


def test_the_docs_page_examples_run():
    from docs_pages import run_page_examples

    assert run_page_examples("estimate.rst").failed == 0


# -- over a game ------------------------------------------------------------------------------


def test_win_chances_over_a_game():
    record, states = played(3, 4, "aggressive")
    table = victory_chances_over(states)
    assert table.index.name == "turn"
    assert table.index.is_monotonic_increasing
    assert table.index.is_unique
    assert table.index[0] == 1
    assert table.index[-1] == record.final.turn
    assert list(table.columns) == ["player", 0, 1, 2]
    assert np.allclose(table[[0, 1, 2]].sum(axis=1), 1.0)
    assert table[[0, 1, 2]].iloc[-1].tolist() == [1.0 if p == record.winner else 0.0 for p in range(3)]
    # Each row is the estimate at the first state of that turn.
    first = next(s for s in states if s.turn == 5)
    assert table.loc[5, [0, 1, 2]].tolist() == estimate_victory_probabilities(first).tolist()
    assert table.loc[5, "player"] == first.turn_player
    assert table["player"].iloc[-1] == -1  # the result's row: nobody's turn


def test_win_chances_over_a_draw_and_an_unfinished_game():
    """A draw by the turn cap ends on zeros for everyone; a sequence cut short ends on its last player-turn's
    estimate, with that turn's player (the docstring's promise)."""
    game = rm.Game(2, max_turns=30)
    record = rm.play(game, [AggressiveAgent(), AggressiveAgent()], seed=3)
    assert record.winner is None
    assert record.final.turn == 30
    table = victory_chances_over(record.states())
    assert table.iloc[-1].tolist() == [-1.0, 0.0, 0.0]
    states = list(record.states())
    middle = [s for s in states if s.turn <= 10]
    cut = victory_chances_over(middle)
    assert cut.index[-1] == 10
    assert cut["player"].iloc[-1] == next(s for s in states if s.turn == 10).turn_player
    assert np.isclose(cut[[0, 1]].iloc[-1].sum(), 1.0)


def test_win_chances_over_refuses_bad_sequences():
    _, states = played(3, 4, "aggressive")
    with pytest.raises(InvalidArgumentError, match="at least one state past the set-up"):
        victory_chances_over(states[:3])
    with pytest.raises(InvalidArgumentError, match="must be GameStates"):
        victory_chances_over([*states[:50], "nope"])
    with pytest.raises(InvalidArgumentError, match="turn order"):
        victory_chances_over([states[-1], states[len(states) // 2]])
    other = played(4, 4, "aggressive")[1]
    with pytest.raises(InvalidArgumentError, match="one game"):
        victory_chances_over([states[-1], other[-1]])


# -- calibration table ---------------------------------------------------------------------------


def test_calibration_table_counts_every_prediction():
    rng = np.random.default_rng(0)
    predicted = rng.random(1000)
    outcomes = rng.random(1000) < predicted  # calibrated by construction
    table = calibration_table(predicted, outcomes, bins=5)
    assert table["count"].sum() == 1000
    assert table["events"].sum() == outcomes.sum()
    assert (table["predicted"] >= table["low"]).all()
    assert (table["predicted"] <= table["high"]).all()
    # 200 predictions per bin: the observed frequency within 4 standard errors of the mean prediction.
    assert (abs(table["observed"] - table["predicted"]) < 4 * np.sqrt(0.25 / table["count"])).all()


def test_calibration_table_edges_and_empty_bins():
    table = calibration_table([0.0, 1.0, 1.0], [0, 1, 0], bins=4)
    assert table.index.tolist() == [0, 3]  # empty bins left out; 1.0 in the last bin
    assert table["count"].tolist() == [1, 2]
    assert table["observed"].tolist() == [0.0, 0.5]


@pytest.mark.parametrize(
    ("predicted", "outcomes", "bins", "match"),
    [
        ([0.5, 1.5], [0, 1], 10, "probabilities in"),
        ([0.5, float("nan")], [0, 1], 10, "probabilities in"),
        ([0.5, 0.2], [0, 2], 10, "0 or 1"),
        ([0.5, 0.2], ["a", "b"], 10, "0 or 1"),
        ([0.5], [0, 1], 10, "same positive length"),
        ([], [], 10, "same positive length"),
        ([0.5], [1], 0, "bins"),
        ([0.5], [1], 2.5, "bins"),
    ],
)
def test_calibration_table_refuses_bad_input(predicted, outcomes, bins, match):
    with pytest.raises(InvalidArgumentError, match=match):
        calibration_table(predicted, outcomes, bins=bins)


# -- the pictures ------------------------------------------------------------------------


def test_calibration_plot_draws_the_bins():
    rng = np.random.default_rng(1)
    predicted = rng.random(500)
    outcomes = (rng.random(500) < predicted).astype(int)
    _fig, ax = plt.subplots()
    returned = plots.calibration(predicted, outcomes, bins=5, ax=ax, label="model")
    assert returned is ax
    table = calibration_table(predicted, outcomes, bins=5)
    diagonal, points = ax.get_lines()[:2]
    assert diagonal.get_xydata().tolist() == [[0.0, 0.0], [1.0, 1.0]]
    np.testing.assert_allclose(points.get_xdata(), table["predicted"])
    np.testing.assert_allclose(points.get_ydata(), table["observed"])
    assert [t.get_text() for t in ax.texts] == [f"n={n}" for n in table["count"]]
    # The error bars are the Wilson intervals of the bins.
    bars = ax.collections[0].get_segments()
    for segment, events, count in zip(bars, table["events"], table["count"], strict=True):
        low, high = rm.tournament.wilson_interval(int(events), int(count))
        np.testing.assert_allclose(sorted(segment[:, 1]), [low, high])
    assert "model" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_calibration_plot_without_counts_and_bad_axes():
    ax = plots.calibration([0.2, 0.7], [0, 1], counts=False)
    assert len(ax.texts) == 0
    with pytest.raises(InvalidArgumentError, match="Axes"):
        plots.calibration([0.2], [1], ax="axes")


@pytest.mark.parametrize("stacked", [True, False])
def test_win_chances_plot_draws_the_estimate_per_turn(stacked):
    record, states = played(3, 4, "aggressive")
    table = victory_chances_over(states)
    ax = plots.win_chances(record, stacked=stacked)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["player 0", "player 1", "player 2"]
    assert ax.get_legend().get_title().get_text() == f"won by player {record.winner} on turn {record.final.turn}"
    if stacked:
        assert len(ax.collections) == 3
        # The top of the last area is the sum of the chances: 1 at every turn.
        top = ax.collections[-1].get_paths()[0].vertices[:, 1]
        assert np.allclose(top.max(), 1.0)
    else:
        lines = ax.get_lines()
        assert len(lines) == 3
        for p, line in enumerate(lines):
            np.testing.assert_allclose(line.get_xdata(), table.index.to_numpy())
            np.testing.assert_allclose(line.get_ydata(), table[p].to_numpy())
            assert line.get_color() == plots.OWNER_COLORS[p]


def test_win_chances_plot_refuses_what_is_not_a_record():
    with pytest.raises(InvalidArgumentError, match="GameRecord"):
        plots.win_chances(pd.DataFrame())


# -- against outcomes (slow: plays games) -----------------------------------------------------------


@pytest.mark.slow
def test_shipped_weights_beat_territory_share_on_fresh_games():
    # Games the fit never saw (seeds outside bench/fit_estimate.py's); positions at turns 10-40.
    briers = {"estimate": [], "territory share": []}
    for players in (3, 4, 5):
        for seed in range(10_000, 10_012):
            record = rm.play(rm.Game(players, max_turns=300), [OddsAgent() for _ in range(players)], seed)
            if record.winner is None:
                continue
            starts = {}
            for state in replay(record):
                starts.setdefault(state.turn, state)  # the first state of every player-turn
            for turn, state in starts.items():
                if not 10 <= turn <= 40 or state.is_terminal():
                    continue
                won = np.array([p == record.winner for p in range(players)], dtype=float)
                owners = state.position.owner
                shares = np.array([owners.count(p) for p in range(players)], dtype=float)
                shares /= shares.sum()
                briers["estimate"].append(((estimate_victory_probabilities(state).to_numpy() - won) ** 2).sum())
                briers["territory share"].append(((shares - won) ** 2).sum())
    estimate, share = np.mean(briers["estimate"]), np.mean(briers["territory share"])
    assert len(briers["estimate"]) > 200
    # Measured with the shipped weights: 0.538 v 0.595 (ratio 0.904); the margin asks for at least 3 % better.
    assert estimate < 0.97 * share, (estimate, share)


def test_victory_list_checks_its_line_up_at_the_end_of_a_game_too():
    # victory_list(final, lineup="bogus") and with both weights and a line-up answered at the end of a game,
    # refused elsewhere (hostile review of the estimate, 2026-12-03).
    from riskmath.agents import RandomAgent
    from riskmath.evaluate.estimate import COEFFICIENTS, victory_list

    final = rm.play(rm.Game(3, max_turns=3), [RandomAgent()] * 3, 1).final
    assert victory_list(final) == [0.0, 0.0, 0.0]  # a draw at the turn cap
    with pytest.raises(rm.InvalidArgumentError, match="bogus"):
        victory_list(final, lineup="bogus")
    with pytest.raises(rm.InvalidArgumentError, match="give weights or lineup, not both"):
        victory_list(final, COEFFICIENTS, lineup="odds")
