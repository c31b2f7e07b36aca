"""bench/instructions.py, instructions per player-turn under valgrind: its parts, without valgrind.

The script is not part of the package; it is loaded from its file.  The counting itself runs the games some
fifty times slower under valgrind, so it is not run here: the child's games, the parsing of valgrind's
report and the refusals are.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import riskmath as rm
from riskmath.agents import AggressiveAgent

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def instructions():
    spec = importlib.util.spec_from_file_location("bench_instructions", BENCH / "instructions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_child_plays_the_seeded_games_after_the_warm_up(instructions):
    assert instructions.play("aggressive", 2, 0) == 0  # the warm-up alone: nothing counted
    game = rm.Game(2, max_turns=instructions.MAX_TURNS)
    expected = int(rm.simulate(game, [AggressiveAgent(), AggressiveAgent()], 3, seed=instructions.SEED)["turns"].sum())
    assert instructions.play("aggressive", 2, 3) == expected > 0


def test_the_count_is_read_from_callgrinds_report(instructions):
    report = (
        "==123== Callgrind, a call-graph generating cache profiler\n"
        "==123== Events    : Ir\n"
        "==123== Collected : 3525655082\n"
    )
    assert instructions.collected(report) == 3525655082
    with pytest.raises(RuntimeError, match="no instruction count"):
        instructions.collected("==123== killed by a signal\n")


def test_bad_arguments_and_a_missing_valgrind_are_refused(instructions, monkeypatch, capsys):
    with pytest.raises(SystemExit):
        instructions.main(["--games", "0"])
    assert "--games must be at least 1, got 0" in capsys.readouterr().err
    monkeypatch.setattr(instructions.shutil, "which", lambda name: "/usr/bin/valgrind")
    with pytest.raises(SystemExit):
        instructions.main(["--agents", "odds", "greedy"])
    assert "unknown agent(s) ['greedy']" in capsys.readouterr().err
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    assert instructions.main([]) == 1
    assert "valgrind is not installed" in capsys.readouterr().err
