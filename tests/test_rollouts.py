"""Who wins from here: simulate/play from a given state, and victory_probabilities with its intervals."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent
from riskmath.sim.simulation import game_seeds, play, simulate

GAME = rm.Game(3, max_turns=120)
NAMES = GAME.board.territories
AGENTS = [AggressiveAgent(), RandomAgent(), AggressiveAgent()]


def won_position(game: rm.Game = GAME, seed: int = 1) -> rm.GameState:
    """Player 0 holds everything with 5 armies but Kamchatka, player 1's with 1 army; player 2 is out."""
    owners = dict.fromkeys(NAMES, 0) | {"Kamchatka": 1}
    armies = dict.fromkeys(NAMES, 5) | {"Kamchatka": 1}
    return game.position(owners, armies, seed=seed)


def midgame(turns: int = 8) -> rm.GameState:
    """A state of a played game (aggressive v random v aggressive), at the start of a player-turn."""
    state = GAME.new_initial_state(11, auto_chance=True)
    for action in play(GAME, AGENTS, seed=11).actions:
        if state.turn >= turns:
            return state
        state = state.apply(action)
    raise AssertionError("the game ended early")


def test_a_won_position_is_won_and_the_interval_says_so():
    table = rm.victory_probabilities(won_position(), "aggressive", 30, seed=2)
    assert list(table.columns) == ["victory", "victory_low", "victory_high", "games"]
    assert list(table.index) == [0, 1, 2]
    assert table.index.name == "player"
    assert table.loc[0, "victory"] == 1.0
    assert table.loc[0, "victory_high"] == 1.0
    # Wilson's 95 % interval for 30 wins in 30: (0.8865, 1]; the losers' (0, 0.1135].
    assert table.loc[0, "victory_low"] == pytest.approx(0.88648, abs=1e-4)
    assert table.loc[1, "victory_high"] == pytest.approx(0.11352, abs=1e-4)
    assert (table["games"] == 30).all()
    assert table.attrs["draw"] == 0.0
    assert table.attrs["seed"] == 2
    assert table.attrs["n_games"] == 30


def test_shares_add_up_and_intervals_hold_the_shares():
    state = midgame()
    table = rm.victory_probabilities(state, AGENTS, 12, seed=4, max_turns=40)
    assert table["victory"].sum() + table.attrs["draw"] == pytest.approx(1.0)
    assert (table["victory_low"] <= table["victory"]).all()
    assert (table["victory"] <= table["victory_high"]).all()
    assert table.attrs["draw_low"] <= table.attrs["draw"] <= table.attrs["draw_high"]
    assert table.attrs["turn_cap"] == state.turn + 40


def test_the_states_own_dice_are_never_used():
    one, other = won_position(seed=1), won_position(seed=99)
    assert one.position.rng != other.position.rng
    state = midgame()
    assert rm.victory_probabilities(state, AGENTS, 8, seed=5).equals(
        rm.victory_probabilities(state.reseeded(12345), AGENTS, 8, seed=5)
    )
    assert rm.victory_probabilities(one, "random", 4, seed=5, max_turns=30).equals(
        rm.victory_probabilities(other, "random", 4, seed=5, max_turns=30)
    )


def test_same_table_serial_and_on_an_executor():
    state = midgame()
    serial = rm.victory_probabilities(state, AGENTS, 8, seed=3)
    with ThreadPoolExecutor(2) as pool:
        assert serial.equals(rm.victory_probabilities(state, AGENTS, 8, seed=3, executor=pool))


@pytest.mark.slow  # starting the worker processes takes seconds; test_simulate.py checks n_jobs in the fast tier
def test_same_table_serial_and_in_parallel():
    state = midgame()
    serial = rm.victory_probabilities(state, AGENTS, 8, seed=3)
    assert serial.equals(rm.victory_probabilities(state, AGENTS, 8, seed=3, n_jobs=2))


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_table():
    from distributed import Client, LocalCluster

    state = midgame()
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        on_dask = rm.victory_probabilities(state, AGENTS, 8, seed=3, executor=client.get_executor())
    assert on_dask.equals(rm.victory_probabilities(state, AGENTS, 8, seed=3))


def test_simulate_rows_are_play_records_from_the_reseeded_state():
    state = midgame()
    table = simulate(GAME, AGENTS, 4, seed=7, start=state)
    for seed, (_, row) in zip(game_seeds(7, 4), table.iterrows(), strict=True):
        record = play(GAME, AGENTS, seed, start=state)
        assert row["seed"] == seed
        assert row["turns"] == record.final.turn >= state.turn
        assert (pd.isna(row["winner"]) and record.winner is None) or row["winner"] == record.winner
        for seat in range(3):
            assert row[f"territories_{seat}"] == len(record.final.territories_of(seat))
        # the record replays, checked, from the reseeded state
        assert record.start is state
        replayed = record.start.reseeded(seed)
        replayed = rm.GameState(GAME, replayed.position, auto_chance=True)
        for action in record.actions:
            replayed = replayed.apply(action)
        assert replayed == record.final


def test_a_finished_state_gives_its_rows_at_once():
    final = play(GAME, AGENTS, seed=2).final
    table = simulate(GAME, AGENTS, 3, seed=0, start=final)
    assert (table["turns"] == final.turn).all()
    assert (table["winner"] == final.winner).all() if final.winner is not None else table["draw"].all()
    shares = rm.victory_probabilities(final, AGENTS, 3)
    if final.winner is not None:
        assert shares.loc[final.winner, "victory"] == 1.0


def test_a_state_at_a_chance_node_goes_on():
    state = won_position(rm.Game(3, max_turns=120))
    state = rm.GameState(state.game, state.position, auto_chance=False)
    state = state.apply(rm.PlaceArmies("Alaska", state.pool)).apply(rm.Blitz("Alaska", "Kamchatka"))
    assert state.is_chance_node()
    table = rm.victory_probabilities(state, "aggressive", 5, seed=1)
    assert table.loc[0, "victory"] == 1.0


def test_a_game_without_a_cap_gets_one():
    state = won_position(rm.Game(3))
    assert state.game.max_turns is None
    table = rm.victory_probabilities(state, "random", 2, seed=1, max_turns=5)
    assert table.attrs["turn_cap"] == state.turn + 5
    table = rm.victory_probabilities(state, "aggressive", 2, seed=1)
    assert table.attrs["turn_cap"] == state.turn + rm.sim.rollouts.DEFAULT_MORE_TURNS


def test_a_start_of_another_game_is_refused_naming_the_difference():
    state = won_position()
    with pytest.raises(rm.InvalidArgumentError, match="another kind of game: 4 players, not 3"):
        simulate(GAME, AGENTS, 1, start=won_position(rm.Game(4)))
    experts = rm.Game(3, rm.Rules.preset("us_1993_experts"))
    with pytest.raises(rm.InvalidArgumentError, match=r"rules differ in .*fortify"):
        simulate(GAME, AGENTS, 1, start=won_position(experts))
    with pytest.raises(rm.InvalidArgumentError, match="defender_decides"):
        simulate(rm.Game(3, max_turns=120, defender_decides=True), AGENTS, 1, start=state)
    late = GAME.position(dict.fromkeys(NAMES, 0) | {"Peru": 1}, dict.fromkeys(NAMES, 1), turn=100)
    with pytest.raises(rm.InvalidArgumentError, match="past the turn cap"):
        simulate(GAME, AGENTS, 1, start=late, max_turns=50)
    with pytest.raises(rm.InvalidArgumentError, match="start must be a GameState"):
        simulate(GAME, AGENTS, 1, start="state.json")


def test_bad_arguments_are_refused():
    state = won_position()
    with pytest.raises(rm.InvalidArgumentError, match="state must be a GameState"):
        rm.victory_probabilities(state.to_json(), "random", 1)
    with pytest.raises(rm.InvalidArgumentError, match="one agent per player"):
        rm.victory_probabilities(state, ["random", "random"], 1)
    with pytest.raises(rm.InvalidArgumentError, match="unknown agent 'greedy'"):
        rm.victory_probabilities(state, "greedy", 1)
    with pytest.raises(rm.InvalidArgumentError, match="n_games"):
        rm.victory_probabilities(state, "random", 0)
    with pytest.raises(rm.InvalidArgumentError, match="max_turns"):
        rm.victory_probabilities(state, "random", 1, max_turns=0)
    with pytest.raises(rm.InvalidArgumentError, match="agents must be"):
        rm.victory_probabilities(state, 3, 1)


def test_one_agent_means_a_copy_in_every_seat():
    state = midgame()
    agent = AggressiveAgent()
    assert rm.victory_probabilities(state, agent, 4, seed=1).equals(
        rm.victory_probabilities(state, [AggressiveAgent() for _ in range(3)], 4, seed=1)
    )


def test_a_drawn_final_state_stays_a_draw_whatever_the_cap():
    short = rm.Game(3, max_turns=6)
    final = play(short, AGENTS, seed=1).final
    assert final.draw
    table = rm.victory_probabilities(final, AGENTS, 3, max_turns=50)
    assert table.attrs["draw"] == 1.0
    assert (table["victory"] == 0).all()
    assert simulate(rm.Game(3, max_turns=3), AGENTS, 2, start=final)["draw"].all()


def test_an_inconsistent_start_is_refused_naming_the_problem():
    state = won_position()
    broken = state.position.copy()
    broken.armies[NAMES.index("Peru")] = 0
    with pytest.raises(rm.StateError, match="Peru is held with 0 armies"):
        simulate(GAME, AGENTS, 1, start=rm.GameState(GAME, broken))
    with pytest.raises(rm.StateError, match="Peru is held with 0 armies"):
        rm.victory_probabilities(rm.GameState(GAME, broken), "random", 1)


def test_the_intervals_confidence_is_an_argument():
    # Fixed at 95 % before, while tournament took confidence=.
    won = midgame()
    wide = rm.victory_probabilities(won, "random", 10, seed=2, max_turns=4)
    narrow = rm.victory_probabilities(won, "random", 10, seed=2, max_turns=4, confidence=0.5)
    assert (narrow["victory"] == wide["victory"]).all()
    assert (narrow["victory_high"] - narrow["victory_low"] < wide["victory_high"] - wide["victory_low"]).all()
    assert narrow.attrs["draw_high"] - narrow.attrs["draw_low"] < wide.attrs["draw_high"] - wide.attrs["draw_low"]
    with pytest.raises(rm.InvalidArgumentError, match="confidence must be strictly between 0 and 1, got 95"):
        rm.victory_probabilities(won, "random", 10, confidence=95)
