"""Simulation: reproducible across workers, legal agents, records that replay, clear errors."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent, make_agent
from riskmath.simulate import game_seeds, play, simulate

GAME = rm.Game(3, max_turns=80)
AGENTS = [AggressiveAgent(), RandomAgent(), RandomAgent()]


def test_same_table_serial_parallel_and_on_an_executor():
    serial = simulate(GAME, AGENTS, 6, seed=3)
    assert list(serial["seed"]) == game_seeds(3, 6)
    assert serial.equals(simulate(GAME, AGENTS, 6, seed=3, n_jobs=2))
    with ThreadPoolExecutor(2) as pool:
        assert serial.equals(simulate(GAME, AGENTS, 6, seed=3, executor=pool))
    assert not serial.equals(simulate(GAME, AGENTS, 6, seed=4))


def test_columns_and_consistency():
    table = simulate(GAME, AGENTS, 5, seed=0)
    assert list(table.columns) == ["seed", "winner", "draw", "turns"] + [
        f"{kind}_{seat}" for seat in range(3) for kind in ("territories", "armies")
    ]
    assert table["turns"].between(1, 80).all()
    assert (table["draw"] == table["winner"].isna()).all()
    won = table.dropna(subset=["winner"])
    for _, row in won.iterrows():
        assert row[f"territories_{int(row['winner'])}"] >= 1


def test_records_replay_and_history():
    record = play(GAME, AGENTS, 11)
    assert GAME.replay(record.actions, 11, auto_chance=True) == record.final
    history = record.history()
    assert list(history.index) == list(range(1, record.final.turn + 1))
    totals = history[[f"territories_{k}" for k in range(3)]].sum(axis=1)
    assert (totals == 42).all()


@pytest.mark.parametrize("agent", [RandomAgent(), AggressiveAgent()])
def test_agents_only_play_legal_actions(agent):
    # play() applies every action with checking on, so an illegal one would raise.
    for seed in range(4):
        record = play(rm.Game(4, max_turns=60), [agent] * 4, seed, record_history=False)
        assert record.final.is_terminal()


def test_aggressive_beats_random():
    table = simulate(rm.Game(2, max_turns=200), [AggressiveAgent(), RandomAgent()], 20, seed=7)
    assert (table["winner"] == 0).sum() >= 15


def test_bad_arguments():
    with pytest.raises(rm.InvalidArgumentError, match="n_games must be >= 1, got 0"):
        simulate(GAME, AGENTS, 0)
    with pytest.raises(rm.InvalidArgumentError, match=r"need one agent per player \(3\), got 2"):
        simulate(GAME, AGENTS[:2], 3)
    with pytest.raises(rm.InvalidArgumentError, match="is not an agent"):
        simulate(GAME, [AggressiveAgent(), RandomAgent(), "random"], 3)
    with pytest.raises(rm.InvalidArgumentError, match="unknown agent 'genius'; agents are random, aggressive"):
        make_agent("genius")
    with pytest.raises(rm.InvalidArgumentError, match="n_jobs must be >= 1, got 0"):
        simulate(GAME, AGENTS, 2, n_jobs=0)


def test_an_illegal_agent_is_named():
    class Cheater:
        name = "cheater"

        def act(self, state, rng):
            return rm.PlaceArmies("Alaska", 99)

    with pytest.raises(rm.IllegalActionError, match="agent 'cheater' in seat"):
        play(GAME, [Cheater(), Cheater(), Cheater()], 1)


def test_a_local_dask_cluster_gives_the_same_table():
    # riskmath[distributed]: a client's executor runs the same games, in 2 worker processes.
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        on_dask = simulate(GAME, AGENTS, 6, seed=3, executor=client.get_executor())
    assert on_dask.equals(simulate(GAME, AGENTS, 6, seed=3))
