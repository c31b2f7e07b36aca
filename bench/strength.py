"""The strength table: every built-in agent against every other, per seat, with Wilson intervals and seconds per game.

Run with ``python bench/strength.py [options]``; ``make bench`` runs the
short version (``--quick``).  The agents are those of
:data:`riskmath.agents.AGENTS` at run time, so an agent registered there
later is in the next table without a change here.  Two tables:

- **2 players**: agent A against agent B in ``Game(2)`` (the rules' neutral
  owner is not a seat), from :func:`riskmath.sim.tournaments.tournament`,
  which alternates the two seats; each pair is played once and read from
  both sides.
- **4 players**: agent A against three of agent B, A's seat rotated; an even
  share is 25 %.

Each row gives A's win rate with its 95 % Wilson interval, then the same per
seat in the order of play (seat 0 takes the first turn; who that is is drawn
in every game, so a seat's game count varies around its share), the games
stopped by the turn cap (``--max-turns``, counted as draws: no one won them),
and the wall time per game.  Agents slower than ``SLOW_RATE`` player-turns per
second (measured on a short game first, or named with ``--slow``) play
``--slow-games`` games per pairing instead of ``--games`` (``--slow-games-4``
in four-player games, where three copies of a slow agent make a game cost
minutes): their intervals are wider, and the table prints them.  ``--quick`` plays few games, and slow
agents in two-player games only.

Every pairing has its own seed, made from ``--seed`` and the pairing's
names and number of players, so it plays the same games whatever else is in
the table.  That keeps the script's other role: comparing two versions of an
agent on the same games.  Run it on each tree
(``PYTHONPATH=/path/to/the/other/tree python bench/strength.py --agents odds,aggressive``)
and check that each win rate stays inside the other's interval or improves.

``--out FILE`` writes the tables as reStructuredText for the docs
(``docs/strength_table.rst``, included by the strategy page), headed by the
date, the machine, the games per pairing and the command that made it.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shlex
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from pathlib import Path

import riskmath as rm
from riskmath.agents import AGENTS, make_agent
from riskmath.sim.tournaments import tournament, wilson_interval

#: Below this many player-turns per second (process time, on a short calibration game) an agent is slow.
SLOW_RATE = 100.0
#: The default turn cap: a game still going after this many player-turns is stopped and counted as a draw.
MAX_TURNS = 300


@dataclass
class Row:
    """Agent ``agent`` against ``opponent`` (one of them in 2-player games, three in 4-player ones)."""

    players: int
    agent: str
    opponent: str
    games: int
    wins: int
    draws: int
    low: float
    high: float
    seats: list[tuple[int, int, float, float]]  # per seat in the order of play: games, wins, interval
    seconds: float  # wall time per game

    @property
    def rate(self) -> float:
        return self.wins / self.games


def pairing_seed(seed: int, players: int, names: Sequence[str]) -> int:
    """The seed of one pairing: from the root seed and the pairing alone, not from the rest of the table."""
    return seed * 1_000_003 + zlib.crc32(f"{players}:{','.join(names)}".encode())


def slow_agents(names: Sequence[str], preset: str, seed: int) -> dict[str, float]:
    """Each agent's player-turns per second (process time) over a short two-player game against itself.

    An agent that looks slow plays the game again and is timed on that: the first game of an agent fills its
    caches (the odds agent's battle tables), which would make a fast agent look slow.
    """
    game = rm.Game(2, rules=rm.Rules.preset(preset), max_turns=8)
    rates: dict[str, float] = {}
    for name in names:
        for _ in range(2):
            start = time.process_time()
            table = rm.simulate(game, [make_agent(name), make_agent(name)], 1, seed=seed)
            rates[name] = float(table["turns"].sum()) / max(time.process_time() - start, 1e-9)
            if rates[name] >= SLOW_RATE:
                break
    return rates


def play(
    players: int, names: Sequence[str], games: int, preset: str, seed: int, jobs: int, max_turns: int
) -> list[Row]:
    """One pairing: 2 players, ``names`` = (A, B), read from both sides; 4 players, A against three of B.

    A two-player pair is played in the order of its names' sorting, whichever order it is given in, so that
    it plays the same games in a table of other agents or in another order.
    """
    if players == 2:
        names = sorted(names)
    a, b = names
    game = rm.Game(players, rules=rm.Rules.preset(preset), max_turns=max_turns)
    lineup = [make_agent(a)] + [make_agent(b) for _ in range(players - 1)]
    table = tournament(game, [lineup], games, seed=pairing_seed(seed, players, names), n_jobs=jobs, by_seat=True)
    sides = [(a, b), (b, a)] if players == 2 else [(a, b)]
    rows = []
    for agent, opponent in sides:
        mine = table[table["agent"] == agent].sort_values("seat")
        wins = int(mine["wins"].sum())
        low, high = wilson_interval(wins, games)
        seats = [(int(r.games), int(r.wins), float(r.ci_low), float(r.ci_high)) for r in mine.itertuples(index=False)]
        # Every game fills each seat once, so a seat's draws summed over the seats are the games' draws per seat.
        draws = int(mine["draws"].sum()) // int(mine["seats"].iloc[0])
        seconds = float(table["seconds_per_game"].mul(table["games"]).sum() / table["games"].sum())
        rows.append(Row(players, agent, opponent, games, wins, draws, low, high, seats, seconds))
    return rows


def strength(
    names: Sequence[str],
    players_list: Sequence[int],
    games: int,
    slow_games: int,
    slow: set[str],
    *,
    slow_games_4: int | None = None,
    preset: str,
    seed: int,
    jobs: int,
    max_turns: int,
    quick: bool,
    progress: bool = True,
) -> list[Row]:
    """Every pairing of ``names`` in each number of players, in table order."""
    rows: list[Row] = []
    for players in players_list:
        pairs = list(combinations(names, 2)) if players == 2 else list(permutations(names, 2))
        for pair in pairs:
            is_slow = bool(slow & set(pair))
            if is_slow and quick and players > 2:
                continue
            count = games
            if is_slow:
                count = slow_games if players == 2 or slow_games_4 is None else slow_games_4
            count = max(players, count)  # at least one game per rotation
            start = time.perf_counter()
            rows += play(players, pair, count, preset, seed, jobs, max_turns)
            if progress:
                took = time.perf_counter() - start
                print(f"  {players} players: {' v '.join(pair)}, {count} games, {took:.0f} s", file=sys.stderr)
    order = {name: k for k, name in enumerate(names)}
    rows.sort(key=lambda r: (r.players, order[r.agent], order[r.opponent]))
    return rows


def percent(wins: int, games: int, low: float, high: float) -> str:
    """``57 % [52, 63]``; a dash for no games."""
    if not games:
        return "-"
    return f"{100 * wins / games:.0f} % [{100 * low:.0f}, {100 * high:.0f}]"


def cells(row: Row) -> list[str]:
    """The row's cells: agent, opponent, games, win rate, one per seat, capped games, seconds per game."""
    seats = [f"{percent(won, n, low, high)} of {n}" if n else "-" for n, won, low, high in row.seats]
    return [
        row.agent,
        row.opponent if row.players == 2 else f"3 x {row.opponent}",
        str(row.games),
        percent(row.wins, row.games, row.low, row.high),
        *seats,
        str(row.draws),
        f"{row.seconds:.3g}",
    ]


def header(players: int) -> list[str]:
    seats = [f"seat {k}" + (" (first)" if k == 0 else "") for k in range(players)]
    return ["agent", "against", "games", "wins [95 % CI]", *seats, "capped", "s/game"]


def as_text(rows: Sequence[Row]) -> str:
    """The tables as aligned plain text, one per number of players."""
    out = []
    for players in sorted({r.players for r in rows}):
        lines = [header(players)] + [cells(r) for r in rows if r.players == players]
        widths = [max(len(line[k]) for line in lines) for k in range(len(lines[0]))]
        out.append(f"{players} players")
        out += ["  " + "  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in lines]
        out.append("")
    return "\n".join(out)


def as_rst(rows: Sequence[Row], preamble: Sequence[str]) -> str:
    """The tables as reStructuredText ``list-table`` directives, after ``preamble`` (lines of text)."""
    out = [".. This file is generated by bench/strength.py (--out); edit the script, not the file.", ""]
    out += [*preamble, ""]
    for players in sorted({r.players for r in rows}):
        title = f"{players} players" + (" (an even share is 25 %)" if players == 4 else "")
        out += [f".. list-table:: {title}", "   :header-rows: 1", ""]
        for line in [header(players)] + [cells(r) for r in rows if r.players == players]:
            out.append(f"   * - {line[0]}")
            out += [f"     - {cell}" for cell in line[1:]]
        out.append("")
    return "\n".join(out)


def machine() -> str:
    """The processor's model (where Linux says it), its architecture and the number of cores."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {platform.machine()}, {os.cpu_count()} cores, {platform.system()}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--slow-games", type=int, help="games per pairing with a slow agent (default a quarter)")
    parser.add_argument(
        "--slow-games-4", type=int, help="games per 4-player pairing with a slow agent (default --slow-games)"
    )
    parser.add_argument("--quick", action="store_true", help="few games; slow agents in 2-player games only")
    parser.add_argument("--agents", help="comma-separated names (default every agent of riskmath.agents.AGENTS)")
    parser.add_argument("--slow", help="comma-separated names of slow agents (default: measured)")
    parser.add_argument("--players", default="2,4", help="comma-separated numbers of players (default 2,4)")
    parser.add_argument(
        "--preset",
        default="us_1993",
        choices=rm.Rules.presets(),
        help="rules preset (default us_1993, the classic rules)",
    )
    parser.add_argument("--max-turns", type=int, default=MAX_TURNS, help=f"turn cap (default {MAX_TURNS})")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1, at most the cores)")
    parser.add_argument("--seed", type=int, default=2026, help="root seed (default 2026)")
    parser.add_argument("--out", help="also write the tables as reStructuredText to this file")
    args = parser.parse_args(argv)
    names = args.agents.split(",") if args.agents else list(AGENTS)
    unknown = [name for name in names if name not in AGENTS]
    if unknown or len(set(names)) != len(names) or len(names) < 2:
        parser.error(f"--agents needs two or more different names of {', '.join(AGENTS)}, got {args.agents!r}")
    players_list = [int(p) for p in args.players.split(",")]
    if any(p not in (2, 4) for p in players_list):
        parser.error(f"--players takes 2 and 4, got {args.players!r}")
    games = 12 if args.quick else args.games
    slow_games = 2 if args.quick else (args.slow_games if args.slow_games is not None else max(1, games // 4))
    slow_games_4 = None if args.quick else args.slow_games_4
    if games < 1 or slow_games < 1 or (slow_games_4 or 1) < 1 or args.max_turns < 1 or args.seed < 0:
        parser.error("--games, --slow-games, --slow-games-4 and --max-turns must be positive, --seed not negative")
    jobs = max(1, min(args.jobs, os.cpu_count() or 1))
    if args.slow is not None:
        slow = set(filter(None, args.slow.split(",")))
        measured = ""
    else:
        rates = slow_agents(names, args.preset, args.seed)
        slow = {name for name, rate in rates.items() if rate < SLOW_RATE}
        measured = ", ".join(f"{name} {rate:.0f}" for name, rate in rates.items())
    command = "python bench/strength.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    print(f"riskmath {rm.__version__} from {rm.__file__}")
    print(f"{command.strip()}")
    if measured:
        print(f"player-turns/s on a short game (slow below {SLOW_RATE:.0f}): {measured}")
    print(
        f"rules {args.preset}, cap {args.max_turns} player-turns (capped games are draws), seed {args.seed}, "
        f"{games} games per pairing, {slow_games} with a slow agent ({', '.join(sorted(slow)) or 'none'})"
        + (f", {slow_games_4} in 4-player games" if slow_games_4 is not None else "")
        + ("; --quick: slow agents in 2-player games only" if args.quick else "")
    )
    start = time.perf_counter()
    rows = strength(
        names,
        players_list,
        games,
        slow_games,
        slow,
        slow_games_4=slow_games_4,
        preset=args.preset,
        seed=args.seed,
        jobs=jobs,
        max_turns=args.max_turns,
        quick=args.quick,
    )
    elapsed = time.perf_counter() - start
    print(as_text(rows))
    print(f"{elapsed:.0f} s in all")
    if args.out:
        now = datetime.datetime.now(datetime.UTC)
        preamble = [
            f"Made on {now:%Y-%m-%d} with riskmath {rm.__version__}, Python {platform.python_version()}, "
            f"on {machine()} ({jobs} worker process{'es' if jobs > 1 else ''}, {elapsed / 60:.1f} minutes), by::",
            "",
            f"   {command.strip()}",
            "",
            f"Rules ``{args.preset}``; {games} games per pairing, {slow_games} for pairings with a slow agent "
            f"({', '.join(f'``{name}``' for name in sorted(slow)) or 'none'})"
            + (f", {slow_games_4} in four-player games" if slow_games_4 is not None else "")
            + f"; games capped at {args.max_turns} player-turns (a capped game is a draw, in the column *capped*); "
            f"root seed {args.seed}.",
        ]
        Path(args.out).write_text(as_rst(rows, preamble))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
