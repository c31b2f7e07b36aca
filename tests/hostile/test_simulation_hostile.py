"""Hostile use of the simulation (issue 11, classes 2, 3 and 6): workers without limit, results lost, trusted
code paths that trust too much.

Generated families: ``n_jobs`` values, output paths that cannot be written, agents that raise at a random
decision, trusted agents returning stale or illegal actions, huge continent bonuses; plus Ctrl-C on a
parallel CLI run and the CLI piped into a reader that goes away.
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
import warnings
from concurrent.futures import Future, ThreadPoolExecutor

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath._validation import shown
from riskmath.agents import AggressiveAgent, OddsAgent, RandomAgent
from riskmath.sim.simulation import _workers, game_seeds
from riskmath.sim.tournaments import tournament

GAME = rm.Game(3, max_turns=40)
AGENTS = [AggressiveAgent(), RandomAgent(), AggressiveAgent()]
CLI = [sys.executable, "-c", "import sys; from riskmath.cli import main_exit; sys.argv[0] = 'riskmath'; main_exit()"]
SIMULATE = ["simulate", "--players", "3", "--agents", "aggressive,random,aggressive", "--max-turns", "40"]
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="looks for the processes left in /proc")


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
    with pytest.warns(RuntimeWarning, match=r"n_jobs=1000000000 is more than the \d+ CPUs?"):
        table = rm.simulate(GAME, AGENTS, 2, n_jobs=10**9)
    pd.testing.assert_frame_equal(table, rm.simulate(GAME, AGENTS, 2))


def test_the_worker_note_counts_in_good_english_and_names_the_games_when_they_are_fewer(monkeypatch):
    # "using 1 worker processes" for one game, which the note did not name (hostile CLI review, 2026-12-03).
    from riskmath.sim.simulation import _workers

    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    with pytest.warns(
        RuntimeWarning, match=r"^n_jobs=5 is more than the 4 CPUs and the 1 game: using 1 worker process$"
    ):
        assert _workers(5, 1) == 1
    with pytest.warns(RuntimeWarning, match=r"^n_jobs=9 is more than the 4 CPUs: using 4 worker processes$"):
        assert _workers(9, 100) == 4


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
    agents = [AggressiveAgent(), Flaky(8, 0.005), AggressiveAgent()]
    k, seed = _first_failure(agents, 40)
    assert k == 4  # the last game of the first chunk of 5: the four before it come back with the error
    with pytest.raises(rm.AgentError, match=f"agent 'flaky' in seat 1 \\(game seed {seed}\\)") as info:
        rm.simulate(GAME, agents, 40, n_jobs=2)
    kept = info.value.results
    assert seed not in set(kept["seed"])
    # Every game before the failing one is kept, as in one process: the chunks before its chunk, and the games of
    # its chunk before it (which come back with the error); games of later chunks may be kept too, if they finished.
    before = rm.simulate(GAME, agents, k) if k else kept.iloc[:0]
    common = kept[kept["seed"].isin(before["seed"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(common, before.reset_index(drop=True))
    assert kept["seed"].tolist() == [s for s in game_seeds(0, 40) if s in set(kept["seed"])]  # in seed order


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
    if k:
        assert len(pd.read_csv(out)) == k
    else:  # none finished: no file is made (an existing one is left as it was)
        assert f"{out} left as it was" in err
        assert not out.exists()


# A child started the way a terminal's shell starts a job in the foreground, whatever this process inherited: a
# background job of a non-interactive shell (`make test &` in a script, as CI may start the suite) ignores SIGINT,
# its children inherit that and Python then installs no KeyboardInterrupt handler, so a Ctrl-C sent to the child
# did nothing.  That was why this test timed out in full CI runs and passed alone (issue 19).  The child also dumps
# the stack of every thread on SIGUSR1, which the tests send before giving up on a child that hangs.
FOREGROUND = (
    "import faulthandler, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGTERM, signal.SIGHUP)]; "
    "faulthandler.register(signal.SIGUSR1, all_threads=True); "
    "from riskmath.cli import main_exit; sys.argv[0] = 'riskmath'; main_exit()"
)


@LINUX
@pytest.mark.slow
def test_ctrl_c_on_a_parallel_run_stops_promptly_and_writes_the_finished_games(tmp_path):
    out = tmp_path / "out.csv"
    argv = [*SIMULATE, "--games", "100000", "--jobs", "2", "--out", str(out)]
    status, err, left = run_and_stop(argv, signal.SIGINT, ready=lambda: _rows_in(out) >= 2)
    assert status == 130
    assert not left
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("riskmath: interrupted: kept the "), err
    kept = int(lines[0].split("kept the ")[1].split()[0])
    assert f"of 100000 games that finished, written to {out}" in lines[0]
    table = pd.read_csv(out)
    assert len(table) == kept
    assert set(table["seed"]) <= set(game_seeds(0, 100000))


def run_and_stop(arguments, signum, *, ready=None, foreground=True, hang=30):
    """Run the CLI with ``arguments`` in a child (in its own session), send it ``signum`` once its workers have
    played a little (or ``ready()`` is true), and return its exit status, its standard error and the processes of
    its group left a few seconds after it ended (none, with workers that end with their parent).

    ``foreground=False`` starts the child with the signal dispositions of this process.  A child that does not end
    within ``hang`` seconds (a hang check, not a speed test) dumps its threads' stacks (SIGUSR1; those that
    registered that) and fails the test with them.
    """
    argv = [sys.executable, "-c", FOREGROUND if foreground else CLI[2], *arguments]
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _wait_for_play(child.pid, ready)
        child.send_signal(signum)
        try:
            _, err = child.communicate(timeout=hang)
        except subprocess.TimeoutExpired:
            if foreground:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGUSR1)
                time.sleep(2)
            os.killpg(child.pid, signal.SIGKILL)
            _, err = child.communicate()
            pytest.fail(f"the child did not end within {hang} s of {signal.Signals(signum).name}; its stacks:\n{err}")
        return child.returncode, err, _left_in_group(child.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)  # the child and any worker left behind
        child.wait()
        if child.stderr is not None:
            child.stderr.close()


def _rows_in(path):
    """The lines of ``path`` so far (0 if it does not exist yet)."""
    try:
        return path.read_text().count("\n")
    except OSError:
        return 0


def _group(pgid):
    """The processes of group ``pgid`` that have not ended (zombies excluded): {pid: parent pid}."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as file:
                fields = file.read().rsplit(")", 1)[1].split()
        except OSError:  # (ended meanwhile)
            continue
        state, parent, group = fields[0], int(fields[1]), int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            found[int(name)] = parent
    return found


def _wait_for_play(pid, ready=None, seconds=120):
    """Wait until process ``pid`` has started its workers (two children) and ``ready()`` is true (by default, for a
    second more)."""
    deadline = time.monotonic() + seconds
    while sum(parent == pid for parent in _group(pid).values()) < 2 or (ready is not None and not ready()):
        if time.monotonic() > deadline:
            pytest.fail(f"the child started no workers in {seconds} s, or was not ready")
        time.sleep(0.05)
    if ready is None:
        time.sleep(1)


def _left_in_group(pgid, seconds=5):
    """The processes of group ``pgid`` still there ``seconds`` after it lost its leader (fewer if they end)."""
    deadline = time.monotonic() + seconds
    while (left := _group(pgid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


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
    if n_jobs == 2:  # chunks of 5 games: the whole chunk whose row failed is kept (whichever came back first), not
        assert len(kept) >= 5  # only the rows before it


@pytest.mark.parametrize("where", ["on_game", "agent"])
def test_a_system_exit_keeps_the_finished_games(where):
    # Only Exception was caught: SystemExit (or any BaseException but KeyboardInterrupt) left with no results.
    seen: list[dict] = []

    def exits_at_the_fourth(row):
        if len(seen) == 3:
            sys.exit(7)
        seen.append(row)

    if where == "on_game":
        with pytest.raises(SystemExit) as info:
            rm.simulate(GAME, AGENTS, 10, on_game=exits_at_the_fourth)
        assert info.value.code == 7
        assert len(info.value.results) == 4  # type: ignore[attr-defined]
        return

    class Exits:
        name = "exits"

        def act(self, state, rng):
            if len(seen) == 3:
                sys.exit(7)
            return rng.choice(state.legal_actions())

    with pytest.raises(SystemExit) as info:
        rm.simulate(GAME, [Exits(), *AGENTS[1:]], 10, on_game=seen.append)
    assert info.value.code == 7
    assert list(info.value.results["seed"]) == [row["seed"] for row in seen]  # type: ignore[attr-defined]


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
    # The game whose row did not fit is finished too: all of them are copied to the temporary folder (which the file
    # size limit of this child refuses as well, and the line says so).
    assert f"; the games that finished ({k + 1}) could not be kept elsewhere either (File too large)" in lines[0]
    assert out.read_bytes().endswith(b"\n")
    table = pd.read_csv(out)
    assert len(table) == k
    expected = rm.simulate(GAME, AGENTS, k)  # serial: the rows came in seed order
    pd.testing.assert_frame_equal(table, expected, check_dtype=False)


# -- issue 19: runs that survive signals ------------------------------------------------------------------------------
# A parallel run stops on SIGINT, SIGTERM and SIGHUP within seconds, writes the finished games, leaves no process
# behind and exits with 128 + the signal's number; its workers end with it even when it is killed.
@LINUX
@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_a_parallel_run_like_ctrl_c(signum, tmp_path):
    out = tmp_path / "out.csv"
    argv = [*SIMULATE, "--games", "100000", "--jobs", "2", "--out", str(out)]
    status, err, left = run_and_stop(argv, signum, ready=lambda: _rows_in(out) >= 2)
    assert status == 128 + signum
    assert not left
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"riskmath: interrupted by {signum.name}: kept the "), err
    kept = int(lines[0].split("kept the ")[1].split()[0])
    table = pd.read_csv(out)
    assert len(table) == kept > 0
    seeds = game_seeds(0, 100000)
    assert set(table["seed"]) <= set(seeds)
    order = {seed: k for k, seed in enumerate(seeds)}
    assert list(table["seed"]) == sorted(table["seed"], key=order.__getitem__)  # rewritten in seed order


@LINUX
@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_outlook_in_parallel_stops_on_a_signal_and_leaves_no_worker(signum, tmp_path):
    position = tmp_path / "position.json"
    position.write_text(rm.Game(3, max_turns=40).new_initial_state(seed=3, auto_chance=True).to_json())
    argv = ["outlook", str(position), "--agents", "aggressive", "--games", "100000", "--jobs", "2"]
    status, err, left = run_and_stop(argv, signum)
    assert status == 128 + signum
    assert not left
    by = "" if signum == signal.SIGINT else f" by {signum.name}"
    assert err.strip() == f"riskmath: interrupted{by}: no table (the shares need every game)"


@LINUX
@pytest.mark.slow
def test_workers_end_with_their_parent_when_it_is_killed(tmp_path):
    out = tmp_path / "out.csv"
    argv = [*SIMULATE, "--games", "100000", "--jobs", "2", "--out", str(out)]
    status, _, left = run_and_stop(argv, signal.SIGKILL, ready=lambda: _rows_in(out) >= 2)
    assert status == -signal.SIGKILL
    assert not left  # without PR_SET_PDEATHSIG they went on playing, their parent now init, for over a minute
    assert _rows_in(out) >= 2  # the rows appended as they finished are there


@LINUX
@pytest.mark.slow
def test_a_run_started_with_ctrl_c_ignored_ignores_it_and_stops_on_sigterm(tmp_path):
    # As a background job of a script (`riskmath simulate ... &`): Ctrl-C is ignored by the shell's choice, and kept
    # ignored (nothing is written); SIGTERM still stops the run cleanly.
    out = tmp_path / "out.csv"
    argv = [sys.executable, "-c", CLI[2], *SIMULATE, "--games", "100000", "--jobs", "2", "--out", str(out)]
    child = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        _wait_for_play(child.pid, lambda: _rows_in(out) >= 2)
        child.send_signal(signal.SIGINT)
        time.sleep(1)
        assert child.poll() is None  # still playing
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        if child.stderr is not None:
            child.stderr.close()
    assert child.returncode == 143
    assert err.startswith("riskmath: interrupted by SIGTERM: kept the "), err
    assert not _left_in_group(child.pid)


class Signaller(AggressiveAgent):
    """In a worker, in its ``after``-th game there, sends ``signum`` to its parent once (the first to create
    ``marker``), then plays on."""

    name = "signaller"
    games = 0  # in this process (the agent is copied for every game)

    def __init__(self, signum: int, marker: str, parent: int, after: int = 1) -> None:
        super().__init__()
        self.signum, self.marker, self.parent, self.after = signum, marker, parent, after
        self.started = False

    def _decide(self, state, rng):
        if os.getpid() != self.parent:
            if not self.started:
                self.started = True
                Signaller.games += 1
            if Signaller.games >= self.after:
                with contextlib.suppress(FileExistsError):
                    os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
                    os.kill(os.getppid(), self.signum)
        return super()._decide(state, rng)


def test_sigterm_in_a_parallel_run_raises_simulation_interrupted_with_the_finished_games(tmp_path):
    # 200 games in chunks of 25: a worker's first chunk is back well before its 40th game.
    signaller = Signaller(signal.SIGTERM, str(tmp_path / "sent"), os.getpid(), after=40)
    agents = [signaller, AggressiveAgent(), AggressiveAgent()]
    with pytest.raises(rm.SimulationInterrupted) as info:
        rm.simulate(GAME, agents, 200, n_jobs=2)
    stop = info.value
    assert stop.signum == signal.SIGTERM
    assert "simulation interrupted by SIGTERM: " in str(stop)
    assert pickle.loads(pickle.dumps(stop)).signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # the handler was the run's only
    kept = stop.results
    assert 25 <= len(kept) < 200
    seeds = game_seeds(0, 200)
    last = max(seeds.index(seed) for seed in kept["seed"])
    expected = rm.simulate(GAME, agents, last + 1)  # (serial: no signal is sent from this process)
    pd.testing.assert_frame_equal(kept, expected[expected["seed"].isin(kept["seed"])].reset_index(drop=True))


@pytest.mark.slow
@pytest.mark.parametrize("disposition", ["ignored", "own handler"])
def test_a_signal_the_program_ignores_or_handles_is_left_to_it(disposition, tmp_path):
    seen = []
    handler = signal.SIG_IGN if disposition == "ignored" else (lambda signum, frame: seen.append(signum))
    previous = signal.signal(signal.SIGHUP, handler)
    try:
        agents = [Signaller(signal.SIGHUP, str(tmp_path / "sent"), os.getpid()), AggressiveAgent(), AggressiveAgent()]
        table = rm.simulate(GAME, agents, 40, n_jobs=2)  # plays to the end
        assert signal.getsignal(signal.SIGHUP) is handler
    finally:
        signal.signal(signal.SIGHUP, previous)
    assert len(table) == 40
    assert (tmp_path / "sent").exists()
    assert seen == ([] if disposition == "ignored" else [signal.SIGHUP])


def test_the_stop_signals_are_handled_only_during_a_run_in_the_main_thread():
    import threading

    from riskmath.sim._workers import Stopped, stop_signals

    # What the handlers were before (SIGHUP is ignored, not default, under ``nohup``): restored after the run.
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    with stop_signals():
        assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None)
        with pytest.raises(Stopped) as info:
            os.kill(os.getpid(), signal.SIGTERM)  # (the handler raises as soon as the call returns)
        assert info.value.signum == signal.SIGTERM
        assert isinstance(info.value, KeyboardInterrupt)
        os.kill(os.getpid(), signal.SIGHUP)  # a second signal while the run stops: ignored
        time.sleep(0.01)
    assert signal.getsignal(signal.SIGTERM) == before[signal.SIGTERM]
    assert signal.getsignal(signal.SIGHUP) == before[signal.SIGHUP]
    found = []

    def in_a_thread():
        with stop_signals():
            found.append(signal.getsignal(signal.SIGTERM))

    thread = threading.Thread(target=in_a_thread)
    thread.start()
    thread.join()
    assert found == [before[signal.SIGTERM]]  # (a thread cannot set handlers: they stay as they were)


_WATCHED = """
import os, sys, time
from riskmath.sim._workers import {function}
owner = os.getpid()
gone = os.fork()  # a process that has ended: an owner gone before the worker starts (not init, which the
if gone == 0:  # worker's parent becomes if this one ends first)
    os._exit(0)
os.waitpid(gone, 0)
child = os.fork()
if child == 0:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # (the parent's reader sees the end of its output when the parent ends)
    os.dup2(devnull, 2)
    {call}
    time.sleep(60)
    os._exit(0)
print(child, flush=True)
os._exit(0)
"""


@LINUX
@pytest.mark.parametrize(
    ("function", "call"),
    [
        ("watch_parent", "watch_parent(owner)"),  # where the kernel cannot end a worker with its parent
        ("start_worker", "start_worker(owner)"),  # a worker, as a pool starts it
        ("start_worker", "start_worker(gone)"),  # a worker whose owner ended before it started: it leaves at once
    ],
)
def test_a_worker_ends_when_its_parent_has(function, call):
    code = _WATCHED.format(function=function, call=call)
    parent = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    orphan = int(parent.stdout)
    deadline = time.monotonic() + 10
    while _alive(orphan) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = _alive(orphan)
    if alive:
        os.kill(orphan, signal.SIGKILL)
    assert not alive


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as file:
            return file.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


# -- issue 19: a dead worker ----------------------------------------------------------------------------------------
class Doomed(RandomAgent):
    """From ``after`` player-turns on, at a random decision: in a worker, kills its own process with ``signum`` (as
    the out-of-memory killer would); in the parent, raises (so that a serial run finds the game)."""

    name = "doomed"

    def __init__(self, after: int, chance: float, parent: int, signum: int = signal.SIGKILL) -> None:
        self.after, self.chance, self.parent, self.signum = after, chance, parent, signum

    def act(self, state, rng):
        if state.turn >= self.after and rng.random() < self.chance:
            if os.getpid() != self.parent:
                os.kill(os.getpid(), self.signum)
                time.sleep(10)
            raise ZeroDivisionError("doomed")
        return super().act(state, rng)


@pytest.mark.parametrize("signum", [signal.SIGKILL, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)])
def test_a_worker_that_dies_is_a_worker_error_that_keeps_the_finished_games(signum):
    agents = [AggressiveAgent(), Doomed(6, 0.01, os.getpid(), signum), AggressiveAgent()]
    k, seed = _first_failure(agents, 40)
    assert k is not None
    with pytest.raises(rm.WorkerError) as info:
        rm.simulate(GAME, agents, 40, n_jobs=2)
    error = info.value
    assert isinstance(error, RuntimeError)
    assert not isinstance(error, ValueError)
    assert type(error.__cause__).__name__ == "BrokenProcessPool"
    assert f"a worker process was killed by {signum.name}" in str(error)
    assert seed in error.lost_seeds
    assert f"{seed}" in str(error) or len(error.lost_seeds) > 3
    seeds = game_seeds(0, 40)
    assert error.lost_seeds == [seeds[g] for g in error.lost_games]
    kept = error.results
    assert not set(kept["seed"]) & set(error.lost_seeds)
    assert len(kept) + len(error.lost_games) <= 40
    order = {s: g for g, s in enumerate(seeds)}
    assert list(kept["seed"]) == sorted(kept["seed"], key=order.__getitem__)
    for row in kept.head(3).to_dict("records"):  # the games that finished are those played one by one
        assert rm.play(GAME, agents, row["seed"], record_history=False).final.turn == row["turns"]


def test_a_worker_error_names_the_lost_games_and_their_seeds():
    from riskmath.sim.simulation import _lost

    seeds = game_seeds(5, 10)
    error = _lost("a worker process was killed by SIGKILL", [2, 4, 8], 2, seeds)
    assert error.lost_games == [2, 3, 4, 5, 8, 9]
    assert error.lost_seeds == [seeds[g] for g in error.lost_games]
    assert str(error) == (
        "a worker process was killed by SIGKILL; the 6 games in flight (being played or queued) were lost: "
        f"games 2-5, 8-9 of 10, counting from 0 (seeds {seeds[2]}, {seeds[3]}, {seeds[4]}, ...; all in .lost_seeds)"
    )


def test_the_cli_writes_the_finished_games_when_a_worker_dies(tmp_path, capsys, monkeypatch):
    from riskmath import agents as agents_module

    doomed = Doomed(6, 0.01, os.getpid())
    monkeypatch.setitem(agents_module.AGENTS, "doomed", lambda: doomed)
    out = tmp_path / "out.csv"
    argv = ["simulate", "--players", "3", "--agents", "aggressive,doomed,aggressive", "--max-turns", "40"]
    assert rm_main([*argv, "--games", "40", "--jobs", "2", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("riskmath: error: a worker process was killed by SIGKILL"), err
    kept = int(lines[0].split("(kept the ")[1].split()[0])
    if kept:
        assert lines[0].endswith(f"(kept the {kept} games that finished, written to {out})")
        assert len(pd.read_csv(out)) == kept
    else:  # none finished: no file is made (an existing one is left as it was)
        assert lines[0].endswith(f"(kept the 0 games that finished; {out} left as it was)")
        assert not out.exists()


class FailingExecutor(ThreadPoolExecutor):
    """A thread pool whose ``n``-th task fails with ``error`` instead of running (as a cluster losing a node)."""

    def __init__(self, n: int, error: BaseException) -> None:
        super().__init__(max_workers=2)
        self.n, self.error, self.count = n, error, 0

    def submit(self, fn, /, *args, **kwargs):
        self.count += 1
        if self.count != self.n:
            return super().submit(fn, *args, **kwargs)
        future: Future = Future()
        future.set_exception(self.error)
        return future


def test_an_executor_that_fails_on_a_chunk_keeps_the_finished_games():
    with (
        FailingExecutor(3, ConnectionError("the scheduler went away")) as executor,
        pytest.raises(rm.WorkerError) as info,
    ):
        rm.simulate(GAME, AGENTS, 16, executor=executor, n_jobs=2)
    error = info.value
    assert str(error).startswith(
        "the executor failed on a chunk of games (ConnectionError: the scheduler went away); the "
    )
    assert isinstance(error.__cause__, ConnectionError)
    assert error.lost_games[:2] == [4, 5]  # 16 games for 2 workers: chunks of 2, the third from game 4
    expected = rm.simulate(GAME, AGENTS, 16)
    kept = error.results
    assert set(kept["seed"]) >= set(expected["seed"][:4])  # every chunk before the failed one is waited for
    pd.testing.assert_frame_equal(kept, expected[expected["seed"].isin(kept["seed"])].reset_index(drop=True))


def test_an_error_of_ours_from_an_executor_is_raised_as_it_is_with_the_finished_games():
    with (
        FailingExecutor(2, rm.StateError("a state went bad")) as executor,
        pytest.raises(rm.StateError, match="a state went bad") as info,
    ):
        rm.simulate(GAME, AGENTS, 16, executor=executor, n_jobs=2)
    assert len(info.value.results) >= 2  # (the first chunk)


# -- issue 19: agents that never answer -----------------------------------------------------------------------------
class Stuck(RandomAgent):
    """From ``after`` player-turns on: never answers (``how="sleep"``), answers after ``seconds`` (``"slow"``),
    swallows every interruption for a second (``"swallow"``) or catches the first and answers (``"catch"``)."""

    name = "stuck"

    def __init__(self, after: int = 3, how: str = "sleep", seconds: float = 0.0) -> None:
        self.after, self.how, self.seconds = after, how, seconds

    def act(self, state, rng):
        if state.turn >= self.after:
            if self.how == "slow":
                time.sleep(self.seconds)
            elif self.how == "swallow":
                end = time.monotonic() + 1
                while time.monotonic() < end:
                    with contextlib.suppress(BaseException):  # the point of this agent
                        time.sleep(0.01)
            elif self.how == "catch":
                with contextlib.suppress(BaseException):
                    time.sleep(3600)
            else:
                time.sleep(3600)
        return super().act(state, rng)


def _stuck_game_error(error, seed):
    assert (error.agent, error.seat, error.seed) == ("stuck", 1, seed)
    assert f"agent 'stuck' in seat 1 (game seed {seed}) did not answer within move_time=0.2 s" in str(error)


@pytest.mark.parametrize("how", ["sleep", "swallow", "catch"])
def test_an_agent_that_never_answers_ends_its_game_within_move_time(how):
    start = time.monotonic()
    with pytest.raises(rm.AgentError) as info:
        rm.play(GAME, [AggressiveAgent(), Stuck(how=how), AggressiveAgent()], 5, move_time=0.2)
    assert time.monotonic() - start < 20  # a hang check
    _stuck_game_error(info.value, 5)
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@pytest.mark.parametrize("n_jobs", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_simulate_ends_a_stuck_game_naming_the_seat_and_the_seed(n_jobs):
    agents = [AggressiveAgent(), Stuck(after=30), AggressiveAgent()]
    finished = rm.simulate(GAME, [agents[0], RandomAgent(), agents[2]], 6)  # the same games, without sticking
    if (finished["turns"] < 30).all():  # (every game over before the agent would stick: nothing to test)
        pytest.skip("no game reaches the stuck turn")
    k = int((finished["turns"] >= 30).to_numpy().argmax())
    with pytest.raises(rm.AgentError) as info:
        rm.simulate(GAME, agents, 6, n_jobs=n_jobs, move_time=0.2)
    _stuck_game_error(info.value, finished["seed"][k])
    assert len(info.value.results) >= k if n_jobs > 1 else len(info.value.results) == k


def test_a_slow_decision_in_another_thread_fails_when_it_returns():
    import threading

    errors = []

    def play_in_a_thread():
        try:
            rm.play(GAME, [AggressiveAgent(), Stuck(how="slow", seconds=0.4), AggressiveAgent()], 5, move_time=0.2)
        except rm.AgentError as error:
            errors.append(error)

    thread = threading.Thread(target=play_in_a_thread)
    thread.start()
    thread.join(timeout=60)
    assert len(errors) == 1
    _stuck_game_error(errors[0], 5)
    assert "(it took 0.4" in str(errors[0])


def test_the_programs_own_alarm_is_left_alone():
    rang = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: rang.append(signum))
    try:
        with pytest.raises(rm.AgentError, match=r"did not answer within move_time=0\.2 s"):
            rm.play(GAME, [AggressiveAgent(), Stuck(how="slow", seconds=0.3), AggressiveAgent()], 5, move_time=0.2)
        assert signal.getsignal(signal.SIGALRM) is not previous
    finally:
        handler = signal.signal(signal.SIGALRM, previous)
    assert handler is not signal.SIG_DFL
    assert rang == []


def test_victory_probabilities_and_tournaments_take_a_move_time():
    state = GAME.new_initial_state(seed=2, auto_chance=True)
    with pytest.raises(rm.AgentError, match=r"did not answer within move_time=0\.2 s"):
        rm.victory_probabilities(state, [AggressiveAgent(), Stuck(), AggressiveAgent()], 2, move_time=0.2)
    with pytest.raises(rm.AgentError, match=r"did not answer within move_time=0\.2 s"):
        tournament(GAME, [[AggressiveAgent(), Stuck(), AggressiveAgent()]], 3, move_time=0.2)


@pytest.mark.parametrize("move_time", [0, -1, math.nan, math.inf, 10**7, "1", True, [1]])
def test_a_bad_move_time_is_refused_naming_it(move_time):
    with pytest.raises(rm.InvalidArgumentError, match="move_time must be") as info:
        rm.simulate(GAME, AGENTS, 2, move_time=move_time)
    assert shown(move_time) in str(info.value)
    with pytest.raises(rm.InvalidArgumentError, match="move_time must be"):
        rm.play(GAME, AGENTS, 2, move_time=move_time)


def test_the_cli_ends_a_stuck_game_with_move_time(tmp_path, capsys, monkeypatch):
    from riskmath import agents as agents_module

    monkeypatch.setitem(agents_module.AGENTS, "stuck", lambda: Stuck(after=30))
    out = tmp_path / "out.csv"
    argv = ["simulate", "--players", "3", "--agents", "aggressive,stuck,aggressive", "--max-turns", "40"]
    assert rm_main([*argv, "--games", "6", "--out", str(out), "--move-time", "0.2"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "agent 'stuck' in seat 1 (game seed " in err
    assert "did not answer within move_time=0.2 s" in err


@pytest.mark.parametrize("text", ["0", "-1", "nan", "inf", "soon"])
def test_the_cli_refuses_a_bad_move_time(text, capsys):
    assert rm_main([*SIMULATE, "--games", "2", "--move-time", text]) == 2
    err = capsys.readouterr().err
    assert err.startswith("riskmath: error: argument --move-time: expected a positive number of seconds")
    assert len(err.strip().splitlines()) == 1


def test_play_refuses_a_seed_its_record_could_not_replay():
    # A seed of 2**64 reached the dice as its low 64 bits (the game of seed 0), and game.replay(record.actions,
    # record.seed) then refused it: play takes what the game's generator takes, 0 to 2**64 - 1.
    with pytest.raises(rm.InvalidArgumentError, match="seed must be <= 18446744073709551615, got 18446744073709551616"):
        rm.play(GAME, AGENTS, 2**64)
    record = rm.play(GAME, AGENTS, 2**64 - 1)
    replayed = GAME.replay(record.actions, record.seed, auto_chance=True)
    assert replayed == record.final


class Unpicklable(RandomAgent):
    """A random agent holding a lock: it cannot be pickled, so it cannot go to a worker process."""

    name = "unpicklable"

    def __init__(self) -> None:
        self.lock = threading.Lock()

    def __deepcopy__(self, memo):  # (each game plays a fresh copy of its agents)
        return Unpicklable()


def test_an_agent_that_cannot_go_to_a_worker_is_refused_before_any_process_starts():
    # Found by a hostile-user review: the pool failed on the first chunk, blamed "a worker process", and a thread
    # of concurrent.futures printed a stray traceback.
    with pytest.raises(rm.InvalidArgumentError, match=r"the agent in seat 1 \(.*\) cannot be sent to worker processes"):
        rm.simulate(GAME, [AggressiveAgent(), Unpicklable(), RandomAgent()], 8, n_jobs=2)
    assert len(rm.simulate(GAME, [AggressiveAgent(), Unpicklable(), RandomAgent()], 2)) == 2  # one process: fine
