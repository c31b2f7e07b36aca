"""Every script in examples/ runs (small sizes) and does what it says."""

from __future__ import annotations

import runpy
import sys
import types
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # end-to-end runs of the example scripts

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_odds_table_example(tmp_path, monkeypatch, capsys):
    output = tmp_path / "heatmap.png"
    monkeypatch.setattr(sys, "argv", ["odds_table.py", "--size", "6", "--big", "50", "--output", str(output)])
    runpy.run_path(str(EXAMPLES / "odds_table.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "0.417" in out  # 1 v 1
    assert "Battle(50, 50)" in out
    assert output.stat().st_size > 10_000
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_conquest_planning_example(tmp_path, monkeypatch, capsys):
    output = tmp_path / "curves.png"
    monkeypatch.setattr(sys, "argv", ["conquest_planning.py", "--max-attackers", "25", "--output", str(output)])
    runpy.run_path(str(EXAMPLES / "conquest_planning.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "armies able to attack for 90%:" in out
    assert "split" in out
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _run_random_game(monkeypatch, capsys, tmp_path, *args):
    monkeypatch.chdir(tmp_path)  # the script must write nothing: run it in an empty directory
    monkeypatch.setattr(sys, "argv", ["random_game.py", *args])
    runpy.run_path(str(EXAMPLES / "random_game.py"), run_name="__main__")
    assert not any(tmp_path.iterdir())
    return capsys.readouterr().out


def test_random_game_example(tmp_path, monkeypatch, capsys):
    args = ["--seed", "3", "--players", "3", "--max-turns", "150"]
    out = _run_random_game(monkeypatch, capsys, tmp_path, *args)
    lines = out.splitlines()
    assert lines[0] == "Game(players=3, rules='us_1993', board='classic', max_turns=150), seed 3, random players"
    assert "after 100 turns:" in lines
    assert lines[-1].startswith("draw: no winner after 150 turns") or " wins in turn " in lines[-1]
    # Every summary covers the three players and all 42 territories.
    for start in (i for i, line in enumerate(lines) if line.startswith("after ")):
        rows = lines[start + 1 : start + 4]
        assert [row.split()[:2] for row in rows] == [["player", str(p)] for p in range(3)]
        assert sum(int(row.split()[2]) for row in rows) == 42
    assert _run_random_game(monkeypatch, capsys, tmp_path, *args) == out  # the seed decides the whole game


def test_random_game_example_blitz_and_preset(tmp_path, monkeypatch, capsys):
    args = ["--seed", "1", "--players", "2", "--preset", "article_ja", "--max-turns", "40", "--blitz", "1"]
    out = _run_random_game(monkeypatch, capsys, tmp_path, *args)
    shown = "Game(players=2, rules='article_ja', board='classic', max_turns=40), seed 1, random players (blitz 1)"
    assert out.startswith(shown)
    assert "  neutral " in out  # the article's two-player game has a neutral owner
    assert out.rstrip().splitlines()[-1].startswith(("draw: no winner after 40 turns", "player "))


def test_tournament_example(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(
        sys, "argv", ["tournament.py", "--games", "4", "--search-games", "2", "--search-budget", "2", "--jobs", "1"]
    )
    runpy.run_path(str(EXAMPLES / "tournament.py"), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["players", "lineup", "agent", "seats", "games", "wins", "draws", "win_rate", "ci95"]
    rows = [line.split() for line in lines[1:]]
    assert len(rows) == 2 * 4 + 2 * 4  # two agents per line-up: four two-player line-ups, four four-player ones
    assert rows[6][:5] == ["2", "search,odds", "search", "1", "2"]
    assert all(row[-1].count("-") == 1 and row[-2].endswith("%") for row in rows)
    assert not any(tmp_path.iterdir())


def test_planner_example(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["planner.py", "--games", "4", "--four", "4"])
    runpy.run_path(str(EXAMPLES / "planner.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "player-turn 10: player 1 places 12 armies" in out  # after the trade of a set (seed 4)
    assert out.count("  all 12 on ") == 5
    assert "the planner (placement and the attack it plans, weighed together): PlaceArmies(" in out
    assert "planner v odds agent, 4 two-player games:" in out
    assert "planner v three odds agents, 4 four-player games:" in out


def test_maskable_ppo_example_shortened(tmp_path, monkeypatch, capsys):
    # The learning recipe (issue 22): needs riskmath[rl]; a few seconds of training, a few games.  The environments
    # raise on an illegal id, so a wrong mask anywhere in the run fails this test.
    pytest.importorskip("sb3_contrib")
    curve, plot = tmp_path / "curve.csv", tmp_path / "curve.png"
    argv = ["maskable_ppo.py", "--minutes", "0.1", "--eval-games", "4", "--curve", str(curve), "--plot", str(plot)]
    monkeypatch.setattr(sys, "argv", argv)
    runpy.run_path(str(EXAMPLES / "maskable_ppo.py"), run_name="__main__")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("trained ")
    assert " steps, " in lines[0]
    assert [line.split()[:2] for line in lines[2:4]] == [["seat", "0"], ["seat", "1"]]
    assert lines[4].startswith("all seats")
    assert lines[4].count("of 4") == 2
    assert curve.read_text().splitlines()[0] == "seconds,steps,games,won_last_100"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_maskable_ppo_example_checks_its_paths_before_training(tmp_path, monkeypatch, capsys):
    # Runs without sb3-contrib (a stand-in module passes the script's check that it is installed): the paths and
    # the board are refused before the training imports it.
    monkeypatch.setitem(sys.modules, "sb3_contrib", types.ModuleType("sb3_contrib"))
    namespace = runpy.run_path(str(EXAMPLES / "maskable_ppo.py"))
    with pytest.raises(SystemExit, match=r"--curve must end in \.csv"):
        namespace["main"](["--curve", str(tmp_path / "curve.txt")])
    with pytest.raises(SystemExit, match="--plot: no folder"):
        namespace["main"](["--plot", str(tmp_path / "missing" / "curve.png")])
    with pytest.raises(SystemExit) as refused:
        namespace["main"](["--board", "atlantis"])
    assert refused.value.code == 2  # argparse's status for bad arguments, with the board's message on stderr
    assert "atlantis" in capsys.readouterr().err


def test_examples_name_a_missing_extra_before_they_start(tmp_path, monkeypatch, capsys):
    # Without Dask's scheduler (or sb3-contrib), the scripts say what to install, after checking their
    # arguments and before any game is played (an entry of None in sys.modules hides an installed package).
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.setattr(sys, "argv", ["tournament.py", "--games", "4", "--dask"])
    with pytest.raises(SystemExit) as refused:
        runpy.run_path(str(EXAMPLES / "tournament.py"), run_name="__main__")
    assert refused.value.code == 2
    assert "--dask needs Dask's distributed scheduler: pip install 'dask[distributed]'" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    namespace = runpy.run_path(str(EXAMPLES / "maskable_ppo.py"))
    with pytest.raises(SystemExit) as refused:
        namespace["main"](["--steps", "10", "--curve", str(tmp_path / "curve.csv")])
    assert refused.value.code == 2
    assert "needs sb3-contrib (and PyTorch): pip install sb3-contrib" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == []
