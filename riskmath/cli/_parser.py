"""The ``riskmath`` command's argument parser (private to :mod:`riskmath.cli`).

:func:`build_parser` declares every verb and option; the argparse types
here refuse a bad number in one line that names it, and :class:`Parser`
turns argparse's own errors into a :class:`UsageError` instead of printing
and exiting, so that :mod:`riskmath.cli._output` reports every error the
same way.  Nothing is computed here.
"""

from __future__ import annotations

import argparse
import math
import re
from fractions import Fraction

from riskmath import __version__
from riskmath._validation import shown
from riskmath.odds.battles import STATISTICS
from riskmath.odds.tables import FORMATS

__all__ = ["MAX_DIGITS", "Parser", "UsageError", "build_parser"]


class UsageError(Exception):
    """Arguments the parser refuses (printed as one ``riskmath: error:`` line, exit status 2)."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and never exit by themselves."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse quotes the bad text (an unknown choice, an extra argument): never echo a huge one in full.
        raise UsageError(
            re.sub(r"\S{80,}", lambda match: f"{match.group()[:60]}... ({len(match.group())} characters)", message)
        )


MOVE_TIME_HELP = "the most seconds an agent may take over one decision (default: no limit)"

#: Longest argument text parsed as a number: more digits than any count or probability could need.
MAX_DIGITS = 400


def _probability(text: str) -> Fraction:
    """argparse type: a probability strictly between 0 and 1 (decimal or p/q)."""
    # Fraction("1e-999999999") would build a billion-digit power of ten: refuse long texts and big exponents.
    exponent = text.lower().partition("e")[2]
    if len(text) > MAX_DIGITS or (exponent.lstrip("+-").isdigit() and len(exponent.lstrip("+-")) > 3):
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
        if len(text) > MAX_DIGITS:
            raise ValueError(text)
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {shown(text)}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {shown(text)}")
    return value


def _positive(text: str) -> int:
    """argparse type: a positive integer, with the bad text in the message."""
    try:
        value = _count(text)
    except argparse.ArgumentTypeError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {shown(text)}")
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


def _seconds(text: str) -> float:
    """argparse type: a positive, finite number of seconds."""
    try:
        value = float(text) if len(text) <= MAX_DIGITS else math.nan
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {shown(text)}")
    return value


#: The longest ``--move-time``: as :func:`riskmath.simulate`'s ``move_time`` takes it (about 11.6 days).
MOST_MOVE_SECONDS = 1e6


def _move_seconds(text: str) -> float:
    """argparse type: a move time, a number of seconds in (0, 10**6]."""
    value = _seconds(text)
    if value > MOST_MOVE_SECONDS:
        raise argparse.ArgumentTypeError(f"expected at most {MOST_MOVE_SECONDS:.0f} seconds, got {shown(text)}")
    return value


#: Units of ``--max-memory``: a bare K, M, G or T is binary (as ``KiB`` ...), ``KB`` ... decimal.
_BYTE_UNITS = {
    "": 1, "b": 1,
    "k": 2**10, "kib": 2**10, "kb": 10**3,
    "m": 2**20, "mib": 2**20, "mb": 10**6,
    "g": 2**30, "gib": 2**30, "gb": 10**9,
    "t": 2**40, "tib": 2**40, "tb": 10**12,
}  # fmt: skip


def _bytes(text: str) -> float:
    """argparse type: a positive amount of memory, in bytes or with a unit (``8GiB``, ``8G``, ``500MB``)."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]{1,3})?)\s*([A-Za-z]*)\s*", text[:MAX_DIGITS])
    unit = _BYTE_UNITS.get(match.group(2).lower()) if match else None
    value = float(match.group(1)) * unit if match and unit is not None else math.nan
    if len(text) > MAX_DIGITS or not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected an amount of memory such as 8GiB, 500MB or 2e9, got {shown(text)}")
    return value


def _add_limit_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("limits (riskmath.set_limits; a bigger job is refused before it starts)")
    group.add_argument(
        "--max-memory",
        type=_bytes,
        metavar="SIZE",
        help="the memory a computation may take, e.g. 8GiB (default 2 GiB, at most a quarter of the machine's)",
    )
    group.add_argument(
        "--max-seconds", type=_seconds, metavar="S", help="the estimated time a computation may take (default 60)"
    )


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "combat rules (default: classic 1993; an option given changes the preset's dice in that one respect)"
    )
    group.add_argument(
        "--preset", metavar="NAME", help="an edition's dice, e.g. risiko (a name of riskmath.Rules.presets())"
    )
    group.add_argument("--attacker-max-dice", type=_count, metavar="N", help="(classic: 3)")
    group.add_argument("--defender-max-dice", type=_count, metavar="N", help="(classic: 2)")
    group.add_argument("--attacker-sides", type=_count, metavar="N", help="(classic: 6)")
    group.add_argument("--defender-sides", type=_count, metavar="N", help="(classic: 6)")
    group.add_argument("--ties", choices=("defender", "attacker"), help="who wins a tied pair (classic: defender)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``riskmath`` command."""
    parser = Parser(prog="riskmath", description="Exact odds for the board game RISK.")
    parser.add_argument("--version", action="version", version=f"riskmath {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)

    roll = commands.add_parser("roll", help="odds of one roll of the dice")
    _add_limit_options(roll)
    roll.add_argument("attacker_dice", type=_count)
    roll.add_argument("defender_dice", type=_count)
    roll.add_argument("--attacker-sides", type=_count, default=6, metavar="N")
    roll.add_argument("--defender-sides", type=_count, default=6, metavar="N")
    roll.add_argument("--ties", choices=("defender", "attacker"), default="defender")
    roll.add_argument("--json", action="store_true", help="print JSON")

    odds = commands.add_parser("odds", help="a whole battle: win probability, survivors, losses")
    _add_limit_options(odds)
    odds.add_argument("attackers", type=_count, help="armies able to attack (the territory holds one more)")
    odds.add_argument("defenders", type=_count)
    odds.add_argument("--stop-at", type=_count, default=0, metavar="K", help="retreat at K attackers or fewer")
    odds.add_argument("--exact", action="store_true", help="exact fractions")
    odds.add_argument("--json", action="store_true", help="print JSON")
    _add_rules_options(odds)

    table = commands.add_parser("table", help="a statistic for every start state of a grid")
    _add_limit_options(table)
    table.add_argument("--attackers", type=_count, default=10, metavar="A")
    table.add_argument("--defenders", type=_count, default=10, metavar="D")
    table.add_argument("--stat", choices=STATISTICS, default="win_probability")
    table.add_argument("--format", choices=FORMATS, default="text")
    table.add_argument("--precision", type=_count, default=4, metavar="N")
    table.add_argument("--stop-at", type=_count, default=0, metavar="K")
    table.add_argument("--exact", action="store_true")
    _add_rules_options(table)

    chain = commands.add_parser("conquest", help="one stack taking a path of territories")
    _add_limit_options(chain)
    chain.add_argument("attackers", type=_count, help="armies able to attack (the territory holds one more)")
    chain.add_argument("defenders", type=_count, nargs="+", help="defending armies of each territory, in order")
    chain.add_argument("--leave", type=_count, default=1, metavar="N", help="armies left in each captured territory")
    chain.add_argument("--exact", action="store_true")
    chain.add_argument("--json", action="store_true", help="print JSON")
    _add_rules_options(chain)

    need = commands.add_parser("need", help="fewest attackers that take a path with a given probability")
    _add_limit_options(need)
    need.add_argument("defenders", type=_count, nargs="+", help="defending armies of each territory, in order")
    need.add_argument("--p", dest="probability", type=_probability, required=True, metavar="P")
    need.add_argument("--leave", type=_count, default=1, metavar="N")
    need.add_argument("--json", action="store_true", help="print JSON")
    _add_rules_options(need)

    policy = commands.add_parser("policy", help="where an optimal attacker (or defender) throws fewer dice")
    _add_limit_options(policy)
    policy.add_argument("attackers", type=_count, help="armies able to attack (the territory holds one more)")
    policy.add_argument("defenders", type=_count, help="defending armies")
    policy.add_argument("--objective", choices=("win", "win_with"), default="win")
    policy.add_argument(
        "--min-left", type=_count, metavar="M", help="for --objective win_with: at least M armies left (default 1)"
    )
    policy.add_argument("--no-stop", action="store_true", help="the attacker may not break off")
    policy.add_argument("--two-sided", action="store_true", help="the defender chooses its dice too")
    policy.add_argument("--exact", action="store_true")
    _add_rules_options(policy)

    sim = commands.add_parser("simulate", help="play many games between agents and summarise them")
    _add_limit_options(sim)
    sim.add_argument("--players", type=_count, default=4, help="players in each game (default 4)")
    sim.add_argument(
        "--agents",
        required=True,
        help="one agent for every seat, or comma-separated, one per seat: random, aggressive, odds, search, planner",
    )
    sim.add_argument("--games", type=_count, default=100, help="games to play (default 100)")
    sim.add_argument(
        "--jobs", type=_jobs, default=1, help="worker processes, -1 for one per CPU (at most one per CPU and game)"
    )
    sim.add_argument("--seed", type=_count, default=0, help="the seed the games' seeds are drawn from (default 0)")
    sim.add_argument(
        "--max-turns", type=_count, default=300, metavar="N", help="a draw after N player-turns (default 300)"
    )
    sim.add_argument(
        "--preset", default="us_1993", help="the rules, a name of riskmath.Rules.presets() (default us_1993)"
    )
    sim.add_argument("--out", default=None, metavar="CSV", help="also write one row per game to this CSV file")
    sim.add_argument("--progress", action="store_true", help="show a progress bar on stderr (needs tqdm)")
    sim.add_argument("--move-time", type=_move_seconds, default=None, metavar="SECONDS", help=MOVE_TIME_HELP)

    outlook = commands.add_parser("outlook", help="who wins from a saved position: games played on from it")
    _add_limit_options(outlook)
    outlook.add_argument("position", help="a saved GameState (GameState.to_json), or - for standard input")
    outlook.add_argument(
        "--agents", default="odds", help="one agent for every seat, or comma-separated, one per seat (default odds)"
    )
    outlook.add_argument("--games", type=_count, default=500, help="games played on from the position (default 500)")
    outlook.add_argument(
        "--jobs", type=_jobs, default=1, help="worker processes, -1 for one per CPU (at most one per CPU and game)"
    )
    outlook.add_argument("--seed", type=_count, default=0, help="the seed the games' seeds are drawn from (default 0)")
    outlook.add_argument(
        "--max-turns", type=_positive, default=None, metavar="N", help="at most N more player-turns from the position"
    )
    outlook.add_argument("--out", default=None, metavar="CSV", help="also write the table to this CSV file")
    outlook.add_argument("--progress", action="store_true", help="show a progress bar on stderr (needs tqdm)")
    outlook.add_argument("--move-time", type=_move_seconds, default=None, metavar="SECONDS", help=MOVE_TIME_HELP)
    outlook.add_argument(
        "--estimate",
        action="store_true",
        help="also show the calibrated fast estimate (riskmath.evaluate.estimate_victory_probabilities)",
    )
    return parser
