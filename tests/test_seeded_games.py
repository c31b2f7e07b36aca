"""Seeded games are part of the contract: the same seed, rules and agents give the same game.

``tests/reference/seeded_games.json`` holds a digest of every decision and of the final position for
games under every rules preset, for 2, 3 and 5 players and three line-ups of the built-in agents,
recorded with ``python tests/test_seeded_games.py``.  A change to the engine or to an agent that
changes a game must say so by regenerating the file in the same commit, with the reason.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from game_helpers import spread, tiered

import riskmath as rm
from riskmath.agents import AggressiveAgent, OddsAgent, RandomAgent

REFERENCE = Path(__file__).parent / "reference" / "seeded_games.json"
LINE_UPS = {
    "random": lambda n: [RandomAgent() for _ in range(n)],
    "aggressive": lambda n: [AggressiveAgent() for _ in range(n)],
    "mixed": lambda n: [OddsAgent(), AggressiveAgent(), RandomAgent(), OddsAgent(), RandomAgent()][:n],
}


def _cases() -> list[tuple[str, int, str]]:
    return [(preset, n, line_up) for preset in rm.Rules.presets() for n in (2, 3, 5) for line_up in LINE_UPS]


def digest(preset: str, players: int, line_up: str) -> str:
    try:
        game = rm.Game(players, rules=rm.Rules.preset(preset), max_turns=60)
    except ValueError as error:
        return f"refused: {type(error).__name__}"
    record = rm.play(game, LINE_UPS[line_up](players), seed=players * 7 + 3)
    final = record.final
    h = hashlib.sha256()
    for action in record.actions:
        h.update(repr(action).encode())
    names = game.board.territories
    h.update(repr([(final.owner(t), final.armies(t)) for t in names]).encode())
    h.update(repr([final.cards(p) for p in range(players)]).encode())
    return f"{h.hexdigest()[:20]} actions={len(record.actions)} turn={final.turn} winner={final.winner}"


@pytest.mark.parametrize(("preset", "players", "line_up"), tiered(_cases(), spread(_cases())))
def test_seeded_game_is_unchanged(preset, players, line_up):
    expected = json.loads(REFERENCE.read_text(encoding="utf-8"))[f"{preset}/{players}/{line_up}"]
    assert digest(preset, players, line_up) == expected


@pytest.mark.slow
@pytest.mark.skipif(platform.machine() != "x86_64", reason="OpenBLAS core types are named for x86-64 here")
@pytest.mark.parametrize("core", ["Prescott", "Nehalem"])
def test_seeded_games_do_not_depend_on_the_blas_kernel(core):
    # OpenBLAS picks a kernel for the processor, and kernels sum dot products in orders of their own.  Before the
    # odds agent's chain odds were summed in a fixed order, two pinned games differed between machines; forcing
    # an old kernel (one every x86-64 processor runs) must give the reference digests.
    cases = ["us_1993/5/mixed", "euro_2003/5/mixed", "us_1993/2/mixed", "us_1963/5/mixed"]
    code = (
        "import sys; sys.path.insert(0, 'tests'); from test_seeded_games import digest\n"
        f"for case in {cases!r}:\n    p, n, u = case.split('/'); print(digest(p, int(n), u))"
    )
    env = {**os.environ, "OPENBLAS_CORETYPE": core}
    root = Path(__file__).parent.parent
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True)
    expected = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert out.stdout.splitlines() == [expected[case] for case in cases]


if __name__ == "__main__":  # regenerate the reference file
    table = {f"{p}/{n}/{u}": digest(p, n, u) for p, n, u in _cases()}
    REFERENCE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(table)} digests to {REFERENCE}", file=sys.stderr)
