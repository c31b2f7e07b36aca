"""Instructions per player-turn of agents' self-play, counted by valgrind: the odds agent's cost without the noise.

Issue 20 asks for the odds agent at 0.2x the aggressive agent's player-turns per
second.  Process time on the project's shared machines moves by about 10 % from
one run to the next and from one day to the next (bench/README.md, "The odds
agent"), more than most single changes to the agent, so a change of a few per
cent cannot be seen in ``make bench``.  The instructions a run executes do not
depend on the load: this script counts them.

Each measurement runs a fresh interpreter under ``valgrind --tool=callgrind``
twice, with ``PYTHONHASHSEED=0`` (the same dict and set orders every run): once
playing ``games`` seeded games of self-play after two warm-up games, once the
warm-up alone; the difference, over the player-turns played, is the figure
(start-up and imports cancel).  Two runs of one tree agree to about 1 %.

Instructions are not time.  The odds agent's work is NumPy calls, dicts and
caches more than plain bytecode, so it runs fewer instructions per second than
the aggressive agent: on 2026-12-03 it was at 0.239x the aggressive agent by
instructions (3.04M against 0.727M per two-player player-turn) and at 0.18x
by process time.  Use this to tell whether a change saves work, and
``make bench`` for the issue's ratio.

``python bench/instructions.py`` (about four minutes: the games run some fifty
times slower under valgrind); ``--games``, ``--players`` and ``--agents`` change
the measurement.  Needs valgrind (``apt install valgrind``); not part of
``make bench`` or ``make test``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

#: The seeds of the warm-up games and of the counted games (those of ``bench/playouts.py``).
WARM_SEED, SEED = 20_000, 30_000
#: The cap on player-turns of every game (as the paired ratio of ``make bench``).
MAX_TURNS = 200

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def play(name: str, players: int, games: int) -> int:
    """Two warm-up games of self-play of agent ``name``, then ``games`` more (none if 0): their player-turns."""
    import riskmath as rm
    from riskmath.agents import make_agent

    game = rm.Game(players, max_turns=MAX_TURNS)
    agents = [make_agent(name) for _ in range(players)]
    rm.simulate(game, agents, 2, seed=WARM_SEED)
    if not games:
        return 0
    return int(rm.simulate(game, agents, games, seed=SEED)["turns"].sum())


def collected(log: str) -> int:
    """The instructions callgrind reports in its log ("Collected : N")."""
    found = _COLLECTED.search(log)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{log[-2000:]}")
    return int(found.group(1))


def count(name: str, players: int, games: int) -> tuple[int, int]:
    """Instructions of a run under callgrind (the interpreter's whole life) and the player-turns it played."""
    with tempfile.TemporaryDirectory() as work:
        result = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={os.path.join(work, 'callgrind.out')}",
                sys.executable,
                __file__,
                "--child",
                name,
                str(players),
                str(games),
            ],
            env={**os.environ, "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=False,
        )
    if result.returncode != 0:
        raise RuntimeError(f"the run of {name} under valgrind failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return collected(result.stderr), int(result.stdout.split()[-1])


def per_turn(name: str, players: int, games: int) -> tuple[float, int]:
    """Instructions per player-turn of ``games`` games (the warm-up's run subtracted), and the player-turns."""
    total, turns = count(name, players, games)
    base, _ = count(name, players, 0)
    if turns <= 0:
        raise RuntimeError(f"{games} games of {name} played no player-turn")
    return (total - base) / turns, turns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games counted per agent (default 60)")
    parser.add_argument("--players", type=int, default=2, choices=range(2, 7), help="players (default 2)")
    parser.add_argument(
        "--agents", nargs="+", default=["odds", "aggressive"], help="agent names (default: odds aggressive)"
    )
    parser.add_argument("--child", nargs=3, metavar=("AGENT", "PLAYERS", "GAMES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        name, players, games = args.child
        print(play(name, int(players), int(games)))
        return 0
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt install valgrind): nothing counted", file=sys.stderr)
        return 1
    from riskmath.agents import AGENTS

    unknown = [name for name in args.agents if name not in AGENTS]
    if unknown:
        parser.error(f"unknown agent(s) {unknown}: the names are {', '.join(AGENTS)}")
    print(f"{args.players} players, {args.games} games of self-play per agent, cap {MAX_TURNS}, PYTHONHASHSEED=0")
    figures = {}
    for name in args.agents:
        figures[name], turns = per_turn(name, args.players, args.games)
        print(
            f"  {name:<12} {figures[name] / 1e6:8.3f}M instructions per player-turn ({turns} player-turns)", flush=True
        )
    first = args.agents[0]
    for name in args.agents[1:]:
        print(
            f"  {first} v {name}: {figures[name] / figures[first]:.3f}x by instructions (player-turns per instruction)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
