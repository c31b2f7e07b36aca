"""bench/strength.py, the strength table: its rows add up, its pairings keep their games, its output parses.

The script is not part of the package; it is loaded from its file.  Small runs of the fast agents only (random
and aggressive, 2 to 8 games), so that the whole file takes seconds.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import riskmath as rm
from riskmath.agents import AGENTS, AggressiveAgent

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("bench_strength", BENCH / "strength.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_strength"] = module  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules["bench_strength"]


def run(strength, names, players, games=4):
    return strength.strength(
        names, players, games, 2, set(), preset="us_1993", seed=7, jobs=1, max_turns=60, quick=False, progress=False
    )


def test_two_player_pairs_are_read_from_both_sides(strength):
    rows = run(strength, ["random", "aggressive"], [2], games=6)
    assert [(r.agent, r.opponent) for r in rows] == [("random", "aggressive"), ("aggressive", "random")]
    one, other = rows
    assert one.games == other.games == 6
    assert one.wins + other.wins + one.draws == 6
    assert one.draws == other.draws
    assert one.seconds == other.seconds > 0
    for row in rows:
        assert len(row.seats) == 2
        assert sum(games for games, _, _, _ in row.seats) == 6
        assert sum(wins for _, wins, _, _ in row.seats) == row.wins
        assert row.low <= row.rate <= row.high
    # The two sides' seats are the same games: A in seat 0 is B in seat 1.
    assert one.seats[0][0] == other.seats[1][0]


def test_four_player_pairings_are_ordered_and_rotate_the_seat(strength):
    rows = run(strength, ["random", "aggressive"], [4], games=8)
    assert [(r.agent, r.opponent) for r in rows] == [("random", "aggressive"), ("aggressive", "random")]
    for row in rows:
        assert row.games == 8
        assert len(row.seats) == 4
        assert sum(games for games, _, _, _ in row.seats) == 8
        assert sum(wins for _, wins, _, _ in row.seats) == row.wins
    assert strength.cells(rows[0])[1] == "3 x aggressive"


def test_a_pairing_plays_the_same_games_whatever_else_is_in_the_table(strength):
    alone = run(strength, ["random", "aggressive"], [2])
    shuffled = run(strength, ["aggressive", "random"], [2])
    key = {(r.agent, r.opponent): (r.wins, r.draws, r.seats) for r in alone}
    assert {(r.agent, r.opponent): (r.wins, r.draws, r.seats) for r in shuffled} == key
    pair = ["random", "aggressive"]
    assert strength.pairing_seed(7, 2, pair) != strength.pairing_seed(7, 4, pair)


def test_slow_agents_play_fewer_games_and_quick_keeps_them_to_two_players(strength):
    common = {"preset": "us_1993", "seed": 1, "jobs": 1, "max_turns": 40, "progress": False}
    rows = strength.strength(["random", "aggressive"], [2, 4], 8, 2, {"random"}, quick=False, **common)
    assert [(r.players, r.games) for r in rows] == [(2, 2), (2, 2), (4, 4), (4, 4)]  # at least one per seat
    rows = strength.strength(["random", "aggressive"], [2, 4], 8, 3, {"random"}, slow_games_4=5, quick=False, **common)
    assert [(r.players, r.games) for r in rows] == [(2, 3), (2, 3), (4, 5), (4, 5)]
    rows = strength.strength(["random", "aggressive"], [2, 4], 8, 2, {"random"}, quick=True, **common)
    assert [(r.players, r.games) for r in rows] == [(2, 2), (2, 2)]


def test_an_agent_registered_later_is_in_the_table(strength, capsys):
    class Steady(AggressiveAgent):
        name = "steady"

    kept = dict(AGENTS)  # restored as it was, in its order (make_agent's doctest lists the names in order)
    try:
        for name in [n for n in AGENTS if n not in ("random", "aggressive")]:
            del AGENTS[name]  # (two fast agents only, whatever else is registered)
        AGENTS["steady"] = Steady
        strength.main(["--games", "2", "--players", "2", "--max-turns", "30", "--slow", ""])
    finally:
        AGENTS.clear()
        AGENTS.update(kept)
    rows = [line.split()[:2] for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert ["steady", "random"] in rows
    assert ["aggressive", "steady"] in rows
    assert len(rows) == 1 + 3 * 2  # the header, and each of three agents against the two others


def test_rst_output_parses_and_names_the_command(strength, tmp_path, capsys):
    docutils = pytest.importorskip("docutils.core")
    out = tmp_path / "table.rst"
    argv = ["--agents", "random,aggressive", "--games", "4", "--players", "2,4", "--max-turns", "30", "--slow", ""]
    strength.main([*argv, "--out", str(out)])
    capsys.readouterr()
    text = out.read_text()
    assert f"python bench/strength.py {' '.join(argv[:-1])} '' --out {out}" in text
    assert text.count(".. list-table::") == 2
    html = docutils.publish_string(text, writer="html", settings_overrides={"report_level": 2, "halt_level": 2})
    assert b"seat 3" in html
    assert b"3 x aggressive" in html


def test_bad_options_are_refused(strength, capsys):
    for argv in (["--agents", "odds"], ["--agents", "odds,nobody"], ["--players", "3"], ["--games", "0"]):
        with pytest.raises(SystemExit):
            strength.main(argv)
    assert "--agents needs two or more different names" in capsys.readouterr().err


def test_the_script_runs_as_a_script(tmp_path):
    import subprocess

    argv = ["--agents", "random,aggressive", "--games", "2", "--players", "2", "--max-turns", "20", "--slow", ""]
    done = subprocess.run(
        [sys.executable, str(BENCH / "strength.py"), *argv],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={"PYTHONPATH": str(Path(rm.__file__).parent.parent), "PATH": ""},
    )
    assert "2 players" in done.stdout
    assert "aggressive  random" in done.stdout
