"""The ``riskmath`` command line: parse arguments, call the library, print.

Subcommands::

    riskmath roll 3 2 [--attacker-sides 6] [--defender-sides 6] [--ties defender] [--json]
    riskmath odds 10 10 [--exact] [--stop-at K] [--json] [rule options]
    riskmath table --attackers 10 --defenders 10 [--stat win_probability]
                   [--format text|csv|markdown|latex|json] [--precision 4] [rule options]
    riskmath conquest 20 3 2 1 2 [--leave 1] [--exact] [--json] [rule options]
    riskmath need 3 2 2 --p 0.9 [--leave 1] [rule options]
    riskmath policy 10 10 [--objective win|win_with] [--min-left M] [--two-sided] [--exact]
    riskmath simulate --players 4 --agents aggressive,random,random,random --games 100
                      [--jobs 2] [--seed 0] [--max-turns 300] [--preset us_1993] [--out results.csv]
                      [--progress]
    riskmath outlook position.json [--agents odds] [--games 500] [--jobs 2] [--seed 0]
                     [--max-turns N] [--out table.csv] [--progress]

Bad input prints one line ``riskmath: error: ...`` on stderr and exits with
status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import warnings
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from riskmath import __version__
from riskmath._validation import shown
from riskmath.errors import AgentError, InvalidArgumentError, RiskmathError, SimulationInterrupted
from riskmath.odds.battles import STATISTICS, battle
from riskmath.odds.conquests import conquest
from riskmath.odds.dice import CombatRules, roll_odds
from riskmath.odds.planning import armies_needed
from riskmath.odds.policy import optimal_policy
from riskmath.odds.tables import FORMATS, format_table, odds_table

__all__ = ["main"]


class _UsageError(Exception):
    pass


class _InterruptedError(Exception):
    """Ctrl-C: the message says what was kept."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and never exit by themselves."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse quotes the bad text (an unknown choice, an extra argument): never echo a huge one in full.
        raise _UsageError(
            re.sub(r"\S{80,}", lambda match: f"{match.group()[:60]}... ({len(match.group())} characters)", message)
        )


#: Longest argument text parsed as a number: more digits than any count or probability could need.
_MAX_DIGITS = 400


def _probability(text: str) -> Fraction:
    """argparse type: a probability strictly between 0 and 1 (decimal or p/q)."""
    # Fraction("1e-999999999") would build a billion-digit power of ten: refuse long texts and big exponents.
    exponent = text.lower().partition("e")[2]
    if len(text) > _MAX_DIGITS or (exponent.lstrip("+-").isdigit() and len(exponent.lstrip("+-")) > 3):
        raise argparse.ArgumentTypeError(f"expected a probability such as 0.9 or 9/10, got {shown(text)}")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"expected a probability such as 0.9 or 9/10, got {shown(text)}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a probability strictly between 0 and 1, got {shown(text)}")
    return value


def _count(text: str) -> int:
    """argparse type: a non-negative integer, with the bad text in the message."""
    try:
        if len(text) > _MAX_DIGITS:
            raise ValueError(text)
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {shown(text)}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {shown(text)}")
    return value


def _jobs(text: str) -> int:
    """argparse type: a positive integer or -1 (every CPU)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer or -1, got {text!r}") from None
    if value == 0 or value < -1:
        raise argparse.ArgumentTypeError(f"expected a positive integer or -1, got {text!r}")
    return value


def _check_out(path: str) -> None:
    """Refuse an output file that cannot be written, before any game is played (creating it if need be)."""
    if os.path.isdir(path):
        raise InvalidArgumentError(f"--out {path!r} is a directory, not a file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise InvalidArgumentError(f"--out {path!r}: the folder {folder!r} does not exist")
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise InvalidArgumentError(f"--out {path!r} cannot be written: {error.strerror or error}") from None


def _write(table: Any, path: str, *, index: bool = False) -> None:
    """Write ``table`` to ``path`` whole, through a temporary file in its folder (a failure leaves the old file)."""
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        table.to_csv(temporary, index=index)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise InvalidArgumentError(f"--out {path!r} could not be written: {error.strerror or error}") from None


class _OutFileError(Exception):
    """The ``--out`` file failed in the middle of a run (stops the run; turned into a one-line error)."""


class _RowWriter:
    """Appends each finished game's row to the ``--out`` file as it comes, so that a run that dies keeps its games.

    The rows arrive in the order games finish; at the end of the run (or on
    Ctrl-C or an agent's failure) :func:`_write` rewrites the file in seed
    order.  If a row cannot be written (a full disk), the file is cut back
    to the last whole row and the run stops: the file holds every game
    finished until then, in the order they finished.
    """

    def __init__(self, path: str, columns: list[str]) -> None:
        self.path, self.columns, self.written, self.size = path, columns, 0, 0
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        except OSError as error:
            raise InvalidArgumentError(f"--out {path!r} cannot be written: {error.strerror or error}") from None
        self._append(columns)

    def _append(self, values: list[Any]) -> None:
        import csv
        import io

        line = io.StringIO()
        csv.writer(line).writerow(values)
        data = line.getvalue().encode("utf-8")
        try:
            done = 0
            while done < len(data):  # (os.write may write part of it)
                done += os.write(self.fd, data[done:])
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, self.size)  # no half row at the end
            raise _OutFileError(
                f"--out {self.path!r} could not be written after {self.written} games "
                f"({error.strerror or error}); the file holds those games, in the order they finished"
            ) from error
        self.size += len(data)

    def __call__(self, row: dict[str, Any]) -> None:
        self._append(["" if row[column] is None else row[column] for column in self.columns])
        self.written += 1

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)


def _notes(caught: list[warnings.WarningMessage]) -> None:
    for warning in caught:
        print(f"riskmath: note: {warning.message}", file=sys.stderr)


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("combat rules (default: classic 1993)")
    group.add_argument("--attacker-max-dice", type=_count, default=3, metavar="N")
    group.add_argument("--defender-max-dice", type=_count, default=2, metavar="N")
    group.add_argument("--attacker-sides", type=_count, default=6, metavar="N")
    group.add_argument("--defender-sides", type=_count, default=6, metavar="N")
    group.add_argument("--ties", choices=("defender", "attacker"), default="defender")


def _rules(args: argparse.Namespace) -> CombatRules:
    return CombatRules(
        attacker_max_dice=args.attacker_max_dice,
        defender_max_dice=args.defender_max_dice,
        attacker_sides=args.attacker_sides,
        defender_sides=args.defender_sides,
        ties=args.ties,
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``riskmath`` command."""
    parser = _Parser(prog="riskmath", description="Exact odds for the board game RISK.")
    parser.add_argument("--version", action="version", version=f"riskmath {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    roll = commands.add_parser("roll", help="odds of one roll of the dice")
    roll.add_argument("attacker_dice", type=_count)
    roll.add_argument("defender_dice", type=_count)
    roll.add_argument("--attacker-sides", type=_count, default=6, metavar="N")
    roll.add_argument("--defender-sides", type=_count, default=6, metavar="N")
    roll.add_argument("--ties", choices=("defender", "attacker"), default="defender")
    roll.add_argument("--json", action="store_true", help="print JSON")

    odds = commands.add_parser("odds", help="a whole battle: win probability, survivors, losses")
    odds.add_argument("attackers", type=_count, help="armies able to attack (the territory holds one more)")
    odds.add_argument("defenders", type=_count)
    odds.add_argument("--stop-at", type=_count, default=0, metavar="K", help="retreat at K attackers or fewer")
    odds.add_argument("--exact", action="store_true", help="exact fractions")
    odds.add_argument("--json", action="store_true", help="print JSON")
    _add_rules_options(odds)

    table = commands.add_parser("table", help="a statistic for every start state of a grid")
    table.add_argument("--attackers", type=_count, default=10, metavar="A")
    table.add_argument("--defenders", type=_count, default=10, metavar="D")
    table.add_argument("--stat", choices=STATISTICS, default="win_probability")
    table.add_argument("--format", choices=FORMATS, default="text")
    table.add_argument("--precision", type=_count, default=4, metavar="N")
    table.add_argument("--stop-at", type=_count, default=0, metavar="K")
    table.add_argument("--exact", action="store_true")
    _add_rules_options(table)

    chain = commands.add_parser("conquest", help="one stack taking a path of territories")
    chain.add_argument("attackers", type=_count, help="armies able to attack (the territory holds one more)")
    chain.add_argument("defenders", type=_count, nargs="+", help="defending armies of each territory, in order")
    chain.add_argument("--leave", type=_count, default=1, metavar="N", help="armies left in each captured territory")
    chain.add_argument("--exact", action="store_true")
    chain.add_argument("--json", action="store_true", help="print JSON")
    _add_rules_options(chain)

    need = commands.add_parser("need", help="fewest attackers that take a path with a given probability")
    need.add_argument("defenders", type=_count, nargs="+", help="defending armies of each territory, in order")
    need.add_argument("--p", dest="probability", type=_probability, required=True, metavar="P")
    need.add_argument("--leave", type=_count, default=1, metavar="N")
    _add_rules_options(need)

    policy = commands.add_parser("policy", help="where an optimal attacker (or defender) throws fewer dice")
    policy.add_argument("attackers", type=_count)
    policy.add_argument("defenders", type=_count)
    policy.add_argument("--objective", choices=("win", "win_with"), default="win")
    policy.add_argument("--min-left", type=_count, default=1, metavar="M", help="for --objective win_with")
    policy.add_argument("--no-stop", action="store_true", help="the attacker may not break off")
    policy.add_argument("--two-sided", action="store_true", help="the defender chooses its dice too")
    policy.add_argument("--exact", action="store_true")
    _add_rules_options(policy)

    sim = commands.add_parser("simulate", help="play many games between agents and summarise them")
    sim.add_argument("--players", type=_count, default=4)
    sim.add_argument("--agents", required=True, help="comma-separated, one per seat: random, aggressive")
    sim.add_argument("--games", type=_count, default=100)
    sim.add_argument(
        "--jobs", type=_jobs, default=1, help="worker processes, -1 for one per CPU (at most one per CPU and game)"
    )
    sim.add_argument("--seed", type=_count, default=0)
    sim.add_argument("--max-turns", type=_count, default=300, metavar="N")
    sim.add_argument("--preset", default="us_1993", help="rules preset (see the docs)")
    sim.add_argument("--out", default=None, metavar="CSV", help="also write one row per game to this CSV file")
    sim.add_argument("--progress", action="store_true", help="show a progress bar on stderr (needs tqdm)")

    outlook = commands.add_parser("outlook", help="who wins from a saved position: games played on from it")
    outlook.add_argument("position", help="a saved GameState (GameState.to_json), or - for standard input")
    outlook.add_argument(
        "--agents", default="odds", help="one agent for every seat, or comma-separated, one per seat (default odds)"
    )
    outlook.add_argument("--games", type=_count, default=500)
    outlook.add_argument(
        "--jobs", type=_jobs, default=1, help="worker processes, -1 for one per CPU (at most one per CPU and game)"
    )
    outlook.add_argument("--seed", type=_count, default=0)
    outlook.add_argument(
        "--max-turns", type=_count, default=None, metavar="N", help="at most N more player-turns from the position"
    )
    outlook.add_argument("--out", default=None, metavar="CSV", help="also write the table to this CSV file")
    outlook.add_argument("--progress", action="store_true", help="show a progress bar on stderr (needs tqdm)")
    outlook.add_argument(
        "--estimate",
        action="store_true",
        help="also show the calibrated fast estimate (riskmath.evaluate.estimate_win_probabilities)",
    )
    return parser


def _show(value: object) -> str:
    if isinstance(value, Fraction):
        return f"{value}  (~{float(value):.6f})"
    return f"{float(value):.6f}"  # type: ignore[arg-type]


def _jsonable(value: object) -> object:
    return str(value) if isinstance(value, Fraction) else float(value)  # type: ignore[arg-type]


def _roll(args: argparse.Namespace) -> str:
    odds = roll_odds(
        args.attacker_dice,
        args.defender_dice,
        attacker_sides=args.attacker_sides,
        defender_sides=args.defender_sides,
        ties=args.ties,
    )
    if args.json:
        rows = [
            {"attacker_losses": a, "defender_losses": d, "probability": str(p), "float": float(p)}
            for (a, d), p in odds.items()
        ]
        return json.dumps(rows)
    lines = [f"{args.attacker_dice} v {args.defender_dice} dice: attacker_losses defender_losses probability"]
    lines += [f"  {a} {d}  {p}  (~{float(p):.6f})" for (a, d), p in odds.items()]
    return "\n".join(lines)


def _odds(args: argparse.Namespace) -> str:
    result = battle(args.attackers, args.defenders, stop_at=args.stop_at, exact=args.exact, rules=_rules(args))
    # The statistics of result.summary(), without building its pandas Series (importing pandas is most of the time).
    stats = {
        name: getattr(result, name)
        for name in STATISTICS
        if name != "expected_attackers_left_if_won" or result.win_probability > 0
    }
    if args.json:
        document = {"attackers": args.attackers, "defenders": args.defenders, "stop_at": args.stop_at}
        document.update({name: _jsonable(value) for name, value in stats.items()})
        return json.dumps(document)
    title = f"{args.attackers} attackers (armies able to attack) v {args.defenders} defenders"
    if args.stop_at:
        title += f", stopping at {args.stop_at}"
    lines = [title]
    lines += [f"  {name:<32} {_show(value)}" for name, value in stats.items()]
    return "\n".join(lines)


def _table(args: argparse.Namespace) -> str:
    table = odds_table(
        args.attackers,
        args.defenders,
        statistic=args.stat,
        stop_at=args.stop_at,
        exact=args.exact,
        rules=_rules(args),
    )
    return format_table(table, args.format, precision=args.precision)


def _conquest(args: argparse.Namespace) -> str:
    result = conquest(args.attackers, args.defenders, leave=args.leave, exact=args.exact, rules=_rules(args))
    steps = result.step_table()
    success = result.success_probability
    final = result.expected_final_armies_if_success if success > 0 else None
    if args.json:
        document = {
            "attackers": args.attackers,
            "defenders": list(args.defenders),
            "leave": args.leave,
            "success_probability": _jsonable(success),
            "reach_probabilities": [_jsonable(p) for p in result.reach_probabilities],
            "expected_final_armies_if_success": None if final is None else _jsonable(final),
        }
        return json.dumps(document)
    lines = [
        f"{args.attackers} attackers (armies able to attack) v path {list(args.defenders)}, leaving {args.leave}",
        f"  success_probability              {_show(success)}",
    ]
    if final is not None:
        lines.append(f"  expected_final_armies_if_success {_show(final)}")
    lines.append("  step  defenders  P(reach)  E[attackers]  sd  P(capture)")
    for k, row in steps.iterrows():
        mean = "-" if row["expected_attackers"] is None else f"{float(row['expected_attackers']):.3f}"
        sd = "-" if row["std_attackers"] is None else f"{row['std_attackers']:.3f}"
        lines.append(
            f"  {k:>4}  {int(row['defenders']):>9}  {float(row['reach_probability']):.6f}  {mean:>12}  {sd}"
            f"  {float(row['capture_probability']):.6f}"
        )
    return "\n".join(lines)


def _need(args: argparse.Namespace) -> str:
    n = armies_needed(args.defenders, args.probability, leave=args.leave, rules=_rules(args))
    achieved = conquest(n, args.defenders, leave=args.leave, rules=_rules(args)).success_probability
    return (
        f"{n} armies able to attack (the territory holds {n + 1}) take {list(args.defenders)} "
        f"with probability {achieved:.6f} >= {float(args.probability):g}"
    )


def _policy(args: argparse.Namespace) -> str:
    policy = optimal_policy(
        args.attackers,
        args.defenders,
        args.objective,
        min_left=args.min_left,
        allow_stop=not args.no_stop,
        two_sided=args.two_sided,
        exact=args.exact,
        rules=_rules(args),
    )
    attacker = policy.deviations()
    lines = [
        f"{policy!r}",
        f"  optimal value      {_show(policy.value)}",
        f"  max-dice value     {_show(policy.max_dice_value)}",
        f"  states where the attacker should not throw maximum dice: {len(attacker)}",
    ]
    lines += [f"    {a} v {d}: {dict(row['attacker_strategy'])}" for (a, d), row in attacker.head(20).iterrows()]
    if args.two_sided:
        defender = policy.defender_deviations()
        lines.append(f"  states where the defender should not throw maximum dice: {len(defender)}")
        lines += [f"    {a} v {d}: {dict(row['defender_strategy'])}" for (a, d), row in defender.head(20).iterrows()]
    return "\n".join(lines)


def _simulate(args: argparse.Namespace) -> str:
    from riskmath.agents import make_agent
    from riskmath.game.game import Game
    from riskmath.game.rules import Rules
    from riskmath.sim.simulation import simulate

    names = [name.strip() for name in args.agents.split(",")]
    agents = [make_agent(name) for name in names]
    game = Game(args.players, Rules.preset(args.preset), max_turns=args.max_turns)
    writer = None
    if args.out:
        _check_out(args.out)
        columns = ["seed", "winner", "draw", "turns"]
        columns += [f"{kind}_{seat}" for seat in range(game.players) for kind in ("territories", "armies")]
        writer = _RowWriter(args.out, columns)
    try:
        with warnings.catch_warnings(record=True) as caught:  # (the worker cap) one line each, not a source line
            warnings.simplefilter("always", RuntimeWarning)
            table = simulate(
                game, agents, args.games, seed=args.seed, n_jobs=args.jobs, progress=args.progress, on_game=writer
            )
    except (AgentError, SimulationInterrupted) as stop:
        _notes(caught)
        kept = stop.results
        where = ""
        if writer is not None and kept is not None:
            writer.close()
            _write(kept, args.out)
            where = f", written to {args.out}"
        count = 0 if kept is None else len(kept)  # type: ignore[arg-type]
        if isinstance(stop, SimulationInterrupted):
            raise _InterruptedError(
                f"interrupted: kept the {count} of {args.games} games that finished{where}"
            ) from None
        raise AgentError(f"{stop} (kept the {count} games that finished{where})") from stop
    except _OutFileError as error:  # the --out file filled the disk (or went away) mid-run
        assert writer is not None
        writer.close()
        raise InvalidArgumentError(str(error)) from None
    _notes(caught)
    if writer is not None:
        writer.close()
        _write(table, args.out)
    lines = [
        f"{args.games} games, {args.players} players ({args.preset}), seed {args.seed}, cap {args.max_turns} turns"
    ]
    lines.append("  seat  agent        wins   share")
    for seat, name in enumerate(names):
        wins = int((table["winner"] == seat).sum())
        lines.append(f"  {seat:>4}  {name:<11} {wins:>5}  {wins / args.games:6.1%}")
    wins_by_agent: dict[str, int] = {}
    for seat, name in enumerate(names):
        wins_by_agent[name] = wins_by_agent.get(name, 0) + int((table["winner"] == seat).sum())
    lines.append("  by agent: " + ", ".join(f"{name} {wins}" for name, wins in wins_by_agent.items()))
    lines.append(f"  draws {int(table['draw'].sum())}, mean player-turns {table['turns'].mean():.1f}")
    return "\n".join(lines)


def _read_position(path: str) -> Any:
    """The saved state at ``path`` (``-``: standard input), refused in one line if unreadable or inconsistent."""
    from riskmath.game.serialize import MAX_TEXT
    from riskmath.game.state import GameState

    if path == "-":
        text = sys.stdin.read(MAX_TEXT + 1)
    else:
        if os.path.isdir(path):
            raise InvalidArgumentError(f"position {path!r} is a directory, not a saved state")
        try:
            if os.path.getsize(path) > 4 * MAX_TEXT:  # (at most 4 bytes a character in UTF-8)
                raise InvalidArgumentError(f"position {path!r} is larger than a saved state may be")
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_TEXT + 1)
        except OSError as error:
            raise InvalidArgumentError(f"position {path!r} cannot be read: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise InvalidArgumentError(f"position {path!r} is not UTF-8 text (a saved state is JSON)") from None
    return GameState.from_json(text)


def _outlook(args: argparse.Namespace) -> str:
    from riskmath.sim.rollouts import win_probabilities

    if args.out:
        _check_out(args.out)
    state = _read_position(args.position)
    names = [name.strip() for name in args.agents.split(",")]
    agents: str | list[str] = names[0] if len(names) == 1 else names
    if args.max_turns == 0:
        raise InvalidArgumentError("--max-turns must be at least 1 (more player-turns from the position)")
    try:
        with warnings.catch_warnings(record=True) as caught:  # (the worker cap) one line each, not a source line
            warnings.simplefilter("always", RuntimeWarning)
            table = win_probabilities(
                state,
                agents,
                args.games,
                seed=args.seed,
                n_jobs=args.jobs,
                max_turns=args.max_turns,
                progress=args.progress,
            )
    except SimulationInterrupted:
        raise _InterruptedError("interrupted: no table (the shares need every game)") from None
    _notes(caught)
    if args.estimate:
        from riskmath.evaluate.estimate import estimate_win_probabilities

        table["estimate"] = estimate_win_probabilities(state)
    if args.out:
        _write(table, args.out, index=True)
    seats = names if len(names) > 1 else names * state.game.players
    attrs = table.attrs
    lines = [
        f"{state!r}: {args.games} games played on, seed {args.seed}, stopped at player-turn {attrs['turn_cap']}",
        "  player  agent        win    (95% interval)" + ("     estimate" if args.estimate else ""),
    ]
    for player, row in table.iterrows():
        who = seats[int(player)]
        gone = "" if state.is_terminal() or state.alive(int(player)) else "  (eliminated)"
        guess = f"  {row['estimate']:11.1%}" if args.estimate else ""
        lines.append(
            f"  {player:>6}  {who:<11} {row['win']:6.1%}  ({row['win_low']:5.1%} to {row['win_high']:5.1%})"
            f"{guess}{gone}"
        )
    lines.append(f"  draws (turn cap) {attrs['draw']:6.1%}  ({attrs['draw_low']:5.1%} to {attrs['draw_high']:5.1%})")
    return "\n".join(lines)


@contextlib.contextmanager
def _announce_long_work() -> Iterator[None]:
    """Print the odds functions' notes (how long a long exact computation will take) on standard error."""
    import logging

    logger = logging.getLogger("riskmath")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("riskmath: note: %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


@contextlib.contextmanager
def _any_digits() -> Iterator[None]:
    """Lift Python's limit on printing long integers (3.10.7 and later) for the duration."""
    get, set_ = getattr(sys, "get_int_max_str_digits", None), getattr(sys, "set_int_max_str_digits", None)
    if get is None or set_ is None:
        yield
        return
    digits = get()
    set_(0)
    try:
        yield
    finally:
        set_(digits)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 on bad input).

    Examples
    --------
    >>> main(["odds", "3", "2"])  # doctest: +ELLIPSIS
    3 attackers (armies able to attack) v 2 defenders
      win_probability                  0.655954
    ...
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        handlers = {"roll": _roll, "odds": _odds, "table": _table, "conquest": _conquest, "need": _need}
        handler = {**handlers, "policy": _policy, "simulate": _simulate, "outlook": _outlook}[args.command]
        # Exact answers may have more than the 4300 digits Python prints by default (the arguments, parsed
        # above, were capped at _MAX_DIGITS each, and the odds functions at riskmath.set_limits' time limit).
        with _any_digits(), _announce_long_work():
            print(handler(args), flush=True)
    except (_UsageError, RiskmathError) as error:
        print(f"riskmath: error: {error}", file=sys.stderr)
        return 2
    except MemoryError:  # the estimates of riskmath.set_limits keep this rare; never a traceback
        print("riskmath: error: out of memory; try smaller numbers", file=sys.stderr)
        return 2
    except _InterruptedError as interrupted:
        print(f"riskmath: {interrupted}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("riskmath: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``riskmath ... | head -1``): no traceback, and none at exit either when Python
        # flushes stdout (https://docs.python.org/3/library/signal.html#note-on-sigpipe).
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return 0


def main_exit() -> None:
    """Console-script entry point: run :func:`main` and exit with its status.

    After an interruption the finished games are on file and the message is
    out; a process pool stopped mid-run may still have an internal thread
    waiting on a worker that was ended in the middle of a message, and
    Python would wait for that thread at exit.  So an interrupted run leaves
    at once (``os._exit`` after flushing the standard streams).
    """
    status = main()
    if status == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)
