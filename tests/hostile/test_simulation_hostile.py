"""Hostile use of the simulation (issue 11, classes 2, 3 and 6): workers without limit, results lost, trusted
code paths that trust too much.

Generated families: ``n_jobs`` values, output paths that cannot be written, agents that raise at a random
decision, trusted agents returning stale or illegal actions, huge continent bonuses; plus Ctrl-C on a
parallel CLI run and the CLI piped into a reader that goes away.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import warnings

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath.agents import AggressiveAgent, OddsAgent, RandomAgent
from riskmath.sim.simulation import _workers, game_seeds

GAME = rm.Game(3, max_turns=40)
AGENTS = [AggressiveAgent(), RandomAgent(), AggressiveAgent()]
CLI = [sys.executable, "-c", "import sys; from riskmath.cli import main_exit; sys.argv[0] = 'riskmath'; main_exit()"]
SIMULATE = ["simulate", "--players", "3", "--agents", "aggressive,random,aggressive", "--max-turns", "40"]


# -- class 2: workers ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n_jobs", [0, -2, -(10**9), 1.5, 2.0, True, False, "2", None, [2]])
def test_absurd_n_jobs_are_refused_naming_the_value(n_jobs):
    with pytest.raises(rm.InvalidArgumentError, match="n_jobs") as info:
        rm.simulate(GAME, AGENTS, 2, n_jobs=n_jobs)
    assert repr(n_jobs) in str(info.value) or str(n_jobs) in str(info.value)


@given(jobs=st.one_of(st.just(-1), st.integers(1, 10**12)), games=st.integers(1, 10**6))
@settings(max_examples=200)
def test_workers_never_exceed_the_cpus_or_the_games(jobs, games):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        workers = _workers(jobs, games)
    assert 1 <= workers <= min(games, os.cpu_count() or 1)
    if jobs != -1:
        assert workers <= jobs


def test_more_jobs_than_cpus_warns_and_two_games_start_no_crowd():
    with pytest.warns(RuntimeWarning, match=r"n_jobs=1000000000 is more than the \d+ CPUs"):
        table = rm.simulate(GAME, AGENTS, 2, n_jobs=10**9)
    pd.testing.assert_frame_equal(table, rm.simulate(GAME, AGENTS, 2))


@pytest.mark.slow
@pytest.mark.parametrize("n_jobs", [2, 3, -1, 10**9])
def test_the_table_is_the_same_for_any_n_jobs(n_jobs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        table = rm.simulate(GAME, AGENTS, 9, seed=4, n_jobs=n_jobs)
    pd.testing.assert_frame_equal(table, rm.simulate(GAME, AGENTS, 9, seed=4))


def test_the_cli_caps_the_workers_in_one_line(capsys):
    assert rm_main([*SIMULATE, "--games", "2", "--jobs", "1000000000"]) == 0
    err = capsys.readouterr().err
    assert "riskmath: note: n_jobs=1000000000 is more than" in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("jobs", ["0", "-2", "1.5", "many"])
def test_the_cli_refuses_absurd_jobs(jobs, capsys):
    assert rm_main([*SIMULATE, "--games", "2", "--jobs", jobs]) == 2
    assert repr(jobs) in capsys.readouterr().err


def rm_main(argv):
    from riskmath.cli import main

    return main(argv)


# -- class 3: results lost ------------------------------------------------------------------------------------------
def _bad_outputs(tmp_path):
    a_file = tmp_path / "a_file.csv"
    a_file.write_text("x\n")
    paths = {
        "missing folder": (str(tmp_path / "missing" / "out.csv"), "does not exist"),
        "a directory": (str(tmp_path), "is a directory"),
        "under a file": (str(a_file / "out.csv"), "does not exist"),
        "under /proc": ("/proc/riskmath-out.csv", "cannot be written"),
    }
    if os.geteuid() != 0:  # root writes anyway
        locked = tmp_path / "locked"
        locked.mkdir()
        read_only = tmp_path / "read_only.csv"
        read_only.write_text("")
        read_only.chmod(0o444)
        paths["read-only folder"] = (str(locked / "out.csv"), "cannot be written")
        paths["read-only file"] = (str(read_only), "cannot be written")
        locked.chmod(0o555)
    return paths


@pytest.mark.parametrize(
    "kind", ["missing folder", "a directory", "under a file", "under /proc", "read-only folder", "read-only file"]
)
def test_a_bad_out_is_refused_before_any_game(kind, tmp_path, capsys):
    paths = _bad_outputs(tmp_path)
    if kind not in paths:
        pytest.skip("root can write anywhere")
    path, reason = paths[kind]
    start = time.perf_counter()
    assert rm_main([*SIMULATE, "--games", "1000000", "--out", path]) == 2  # a million games: none is played
    assert time.perf_counter() - start < 10
    err = capsys.readouterr().err
    assert err.startswith("riskmath: error: --out")
    assert reason in err
    assert len(err.strip().splitlines()) == 1


class Flaky(RandomAgent):
    """Raises at a random decision (from its per-game generator) after ``after`` player-turns."""

    name = "flaky"

    def __init__(self, after: int, chance: float) -> None:
        self.after, self.chance = after, chance

    def act(self, state, rng):
        if state.turn >= self.after and rng.random() < self.chance:
            raise ZeroDivisionError("flaky fails")
        return super().act(state, rng)


def _first_failure(agents, n):
    """Index and seed of the first game where an agent raises (by playing them one by one)."""
    for k, seed in enumerate(game_seeds(0, n)):
        try:
            rm.play(GAME, agents, seed, record_history=False)
        except rm.AgentError:
            return k, seed
    return None, None


flaky_runs = given(after=st.integers(1, 30), chance=st.sampled_from([0.002, 0.01, 0.05]), seat=st.integers(0, 2))


@flaky_runs
@settings(max_examples=3, deadline=None)
def test_an_agent_that_raises_is_named_and_the_finished_games_kept(after, chance, seat):
    check_flaky_agent(after, chance, seat)


@pytest.mark.slow  # about 0.15 s a run
@flaky_runs
@settings(max_examples=8, deadline=None)
def test_an_agent_that_raises_is_named_and_the_finished_games_kept_in_more_runs(after, chance, seat):
    check_flaky_agent(after, chance, seat)


def check_flaky_agent(after: int, chance: float, seat: int) -> None:
    agents = [AggressiveAgent(), AggressiveAgent(), AggressiveAgent()]
    agents[seat] = Flaky(after, chance)
    k, seed = _first_failure(agents, 12)
    if k is None:
        assert len(rm.simulate(GAME, agents, 12)) == 12
        return
    with pytest.raises(rm.AgentError) as info:
        rm.simulate(GAME, agents, 12)
    error = info.value
    assert (error.agent, error.seat, error.seed) == ("flaky", seat, seed)
    assert f"agent 'flaky' in seat {seat} (game seed {seed})" in str(error)
    assert isinstance(error.__cause__, ZeroDivisionError)
    if k == 0:
        assert len(error.results) == 0
    else:
        pd.testing.assert_frame_equal(error.results, rm.simulate(GAME, agents, k))


@pytest.mark.slow
def test_an_agent_that_raises_in_a_pool_keeps_the_other_chunks():
    agents = [AggressiveAgent(), Flaky(5, 0.01), AggressiveAgent()]
    k, seed = _first_failure(agents, 40)
    assert k is not None
    with pytest.raises(rm.AgentError, match=f"agent 'flaky' in seat 1 \\(game seed {seed}\\)") as info:
        rm.simulate(GAME, agents, 40, n_jobs=2)
    kept = info.value.results
    assert seed not in set(kept["seed"])
    if k:
        before = rm.simulate(GAME, agents, k)
        common = kept[kept["seed"].isin(before["seed"])].reset_index(drop=True)
        pd.testing.assert_frame_equal(common, before[before["seed"].isin(common["seed"])].reset_index(drop=True))


def test_the_cli_writes_the_finished_games_when_an_agent_fails(tmp_path, capsys, monkeypatch):
    from riskmath import agents as agents_module

    flaky = Flaky(8, 0.02)
    monkeypatch.setitem(agents_module.AGENTS, "flaky", lambda: flaky)
    k, seed = _first_failure([AggressiveAgent(), flaky, AggressiveAgent()], 20)
    assert k is not None
    out = tmp_path / "out.csv"
    argv = ["simulate", "--players", "3", "--agents", "aggressive,flaky,aggressive", "--max-turns", "40"]
    assert rm_main([*argv, "--games", "20", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"seat 1 (game seed {seed})" in err
    assert f"kept the {k} games that finished" in err
    assert len(err.strip().splitlines()) == 1
    assert len(pd.read_csv(out)) == k  # (a header alone when none finished)


@pytest.mark.slow
@pytest.mark.xfail(
    strict=False,
    reason="known, not understood: in full fresh-clone runs of the suite (4 of 4 on 2026-11-30) the interrupted "
    "child did not exit within 30 s; alone, with the hostile directory or with the whole collection it passes "
    "(see the session note of issue 12/13)",
)
def test_ctrl_c_on_a_parallel_run_stops_promptly_and_writes_the_finished_games(tmp_path):
    out = tmp_path / "out.csv"
    argv = [*CLI, *SIMULATE, "--games", "100000", "--jobs", "2", "--out", str(out)]
    # In its own session, so that the workers of a child that hangs can be ended with it below.
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() and time.monotonic() < deadline:  # the output is checked (created) before playing
            time.sleep(0.1)
        time.sleep(6)
        child.send_signal(signal.SIGINT)
        start = time.monotonic()
        _, err = child.communicate(timeout=30)  # a hang check, not a speed test
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)  # the child and any worker left behind
        child.wait()
        if child.stderr is not None:
            child.stderr.close()
    assert time.monotonic() - start < 30
    assert child.returncode == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("riskmath: interrupted: kept the "), err
    kept = int(lines[0].split("kept the ")[1].split()[0])
    assert f"of 100000 games that finished, written to {out}" in lines[0]
    table = pd.read_csv(out)
    assert len(table) == kept
    assert set(table["seed"]) <= set(game_seeds(0, 100000))


def test_simulation_interrupted_carries_the_finished_games(monkeypatch):
    import riskmath.sim.simulation as simulation

    played = []
    real = simulation._row

    def interrupted_after_three(game, agents, seed, start=None):
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(seed)
        return real(game, agents, seed, start)

    monkeypatch.setattr(simulation, "_row", interrupted_after_three)
    with pytest.raises(KeyboardInterrupt) as info:
        rm.simulate(GAME, AGENTS, 10)
    assert isinstance(info.value, rm.SimulationInterrupted)
    assert "3 of 10 games finished" in str(info.value)
    monkeypatch.setattr(simulation, "_row", real)
    pd.testing.assert_frame_equal(info.value.results, rm.simulate(GAME, AGENTS, 3))


@pytest.mark.slow  # a CLI run in a child process: about 2 s
def test_piping_into_a_reader_that_goes_away_gives_no_traceback():
    child = subprocess.Popen(
        [*CLI, *SIMULATE, "--games", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    child.stdout.close()  # as `| head -0` would
    _, err = child.communicate(timeout=120)
    assert "Traceback" not in err
    assert "BrokenPipeError" not in err


# -- class 6: trusted code paths --------------------------------------------------------------------------------------
BAD_ACTIONS = [("place", 0, 0), ("fortify", 0, 0, 0), ("place", 10**6, 1), ("defend", 0), ("nonsense",)]


class Stale(AggressiveAgent):
    """A trusted agent that, from some player-turn on, returns a fixed stale or illegal action."""

    name = "stale"

    def __init__(self, action, after):
        super().__init__()
        self.bad, self.after = action, after

    def _decide(self, state, rng):
        if state.turn >= self.after and state.position.phase is rm.Phase.ATTACK:
            return self.bad
        return super()._decide(state, rng)


# The fast tier: an illegal placement and an action of no kind (each action is one tuple, so not ``tiered``).
@pytest.mark.parametrize(
    "action",
    [a if a in (BAD_ACTIONS[0], BAD_ACTIONS[-1]) else pytest.param(a, marks=pytest.mark.slow) for a in BAD_ACTIONS],
)
@given(after=st.integers(1, 12), seed=st.integers(0, 2**32))
@settings(max_examples=10, deadline=None)
def test_a_trusted_agent_returning_an_illegal_action_cannot_hang_the_run(action, after, seed):
    start = time.perf_counter()
    failure = None
    try:
        rm.play(GAME, [AggressiveAgent(), Stale(action, after), AggressiveAgent()], seed, record_history=False)
    except rm.AgentError as error:
        failure = error
    if failure is not None:
        assert (failure.agent, failure.seat, failure.seed) == ("stale", 1, seed)
        assert "agent 'stale' in seat 1" in str(failure)
    assert time.perf_counter() - start < 30  # ends (the turn cap or the error), whatever the action


def test_an_action_that_changes_nothing_is_caught():
    with pytest.raises(rm.AgentError, match=r"agent 'stale' in seat 1 \(game seed 3\) makes no progress"):
        rm.play(GAME, [AggressiveAgent(), Stale(("place", 0, 0), 1), AggressiveAgent()], 3)


def _bonus_game(bonus: int, players: int = 3) -> rm.Game:
    data = rm.Board.classic().to_dict()
    for continent in data["continents"]:
        continent["bonus"] = bonus
    return rm.Game(players, board=rm.Board.from_dict(data), max_turns=20)


@pytest.mark.slow
@pytest.mark.parametrize("bonus", [10**3, 10**6, 10**9])
@pytest.mark.parametrize("agent", [OddsAgent, AggressiveAgent, RandomAgent])
def test_a_huge_continent_bonus_costs_no_time_per_army(agent, bonus):
    start = time.perf_counter()
    rm.play(_bonus_game(bonus), [agent(), agent(), agent()], 1, record_history=False)
    assert time.perf_counter() - start < 60  # a hang check: a placement per army took hours


def test_the_odds_agent_places_a_huge_pool_in_one_decision():
    state = _bonus_game(10**7).new_initial_state(seed=2, auto_chance=True)
    agents = [OddsAgent(), OddsAgent(), OddsAgent()]
    import random

    rng = random.Random(0)
    while state.phase is not rm.Phase.REINFORCE:
        state = state.apply(agents[state.current_player].act(state, rng))
    start = time.perf_counter()
    placements = 0
    while state.phase is rm.Phase.REINFORCE and state.pool > 0:
        action = agents[state.current_player].act(state, rng)
        state = state.apply(action)
        placements += isinstance(action, rm.PlaceArmies)
    assert placements <= len(state.game.board)
    assert time.perf_counter() - start < 20


# -- class 3: rows written as they come -----------------------------------------------------------------------------
@pytest.mark.parametrize("n_jobs", [1, 2])
def test_on_game_sees_every_row_as_it_finishes(n_jobs):
    seen: list[dict] = []
    table = rm.simulate(GAME, AGENTS, 6, n_jobs=n_jobs, on_game=seen.append)
    assert len(seen) == 6
    by_seed = {row["seed"]: row for row in seen}
    for record in table.to_dict("records"):
        row = by_seed[record["seed"]]
        assert row["turns"] == record["turns"]
        assert row["winner"] == (None if pd.isna(record["winner"]) else record["winner"])


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_failing_on_game_stops_the_run_and_keeps_what_finished(n_jobs):
    seen: list[dict] = []

    def fails_at_the_fourth(row):
        if len(seen) == 3:
            raise OSError(28, "No space left on device")
        seen.append(row)

    with pytest.raises(OSError, match="No space left") as info:
        rm.simulate(GAME, AGENTS, 40, n_jobs=n_jobs, on_game=fails_at_the_fourth)
    kept = info.value.results  # type: ignore[attr-defined]
    assert len(kept) >= 3
    assert {row["seed"] for row in seen} <= set(kept["seed"])


def test_on_game_must_be_callable():
    with pytest.raises(rm.InvalidArgumentError, match="on_game must be a callable"):
        rm.simulate(GAME, AGENTS, 2, on_game="out.csv")


def _limit_file_size(size: int):  # pragma: no cover -- runs in the child
    def limit() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


@pytest.mark.slow  # a CLI run in a child process under a file size limit: about 3 s
@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs POSIX file size limits")
def test_a_disk_that_fills_mid_run_keeps_every_finished_game(tmp_path):
    # The file may grow to 700 bytes (a header and a dozen rows): the run stops at the game that does not fit, with
    # one line naming the file and the count, and the file holds exactly those games, whole rows only.
    out = tmp_path / "out.csv"
    argv = [*CLI, *SIMULATE, "--games", "60", "--out", str(out)]
    child = subprocess.run(
        argv, capture_output=True, text=True, timeout=300, preexec_fn=_limit_file_size(700), check=False
    )
    assert child.returncode == 2, child.stderr
    lines = child.stderr.strip().splitlines()
    assert len(lines) == 1, child.stderr
    assert lines[0].startswith(f"riskmath: error: --out {str(out)!r} could not be written after "), lines[0]
    k = int(lines[0].split("written after ")[1].split()[0])
    assert 0 < k < 60
    assert out.read_bytes().endswith(b"\n")
    table = pd.read_csv(out)
    assert len(table) == k
    expected = rm.simulate(GAME, AGENTS, k)  # serial: the rows came in seed order
    pd.testing.assert_frame_equal(table, expected, check_dtype=False)
