"""The ``riskmath`` command line: parse arguments, call the library, print.

Subcommands::

    riskmath roll 3 2 [--attacker-sides 6] [--defender-sides 6] [--ties defender] [--json]
    riskmath odds 10 10 [--exact] [--stop-at K] [--json] [rule options]
    riskmath table --attackers 10 --defenders 10 [--stat win_probability]
                   [--format text|csv|markdown|latex|json] [--precision 4] [rule options]

Bad input prints one line ``riskmath: error: ...`` on stderr and exits with
status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction

from riskmath import __version__
from riskmath.battle import STATISTICS, battle
from riskmath.dice import CombatRules, roll_odds
from riskmath.errors import RiskmathError
from riskmath.tables import FORMATS, format_table, odds_table

__all__ = ["main"]


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and never exit by themselves."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _count(text: str) -> int:
    """argparse type: a non-negative integer, with the bad text in the message."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


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
    return parser


def _show(value: object, exact: bool) -> str:
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
    stats = result.summary()
    if args.json:
        document = {"attackers": args.attackers, "defenders": args.defenders, "stop_at": args.stop_at}
        document.update({name: _jsonable(value) for name, value in stats.items()})
        return json.dumps(document)
    title = f"{args.attackers} attackers (armies able to attack) v {args.defenders} defenders"
    if args.stop_at:
        title += f", stopping at {args.stop_at}"
    lines = [title]
    lines += [f"  {name:<32} {_show(value, args.exact)}" for name, value in stats.items()]
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 on bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        handler = {"roll": _roll, "odds": _odds, "table": _table}[args.command]
        print(handler(args))
    except (_UsageError, RiskmathError) as error:
        print(f"riskmath: error: {error}", file=sys.stderr)
        return 2
    return 0


def main_exit() -> None:
    """Console-script entry point: run :func:`main` and exit with its status."""
    sys.exit(main())
