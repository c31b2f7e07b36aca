"""The ``riskmath`` command's verbs (private to :mod:`riskmath.cli`): call the library, format its answer.

One function per verb (:data:`VERBS` maps each name to it) takes the parsed
arguments and returns the text to print.  The numbers come from the library
(:mod:`riskmath.odds`, :mod:`riskmath.sim`, :mod:`riskmath.evaluate`); a verb
only arranges them.  ``simulate`` and ``outlook`` write their ``--out`` files
and report interruptions through :mod:`riskmath.cli._output`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from riskmath.cli._output import (
    InterruptedRunError,
    OutFileError,
    check_out,
    interrupted_by,
    kept_elsewhere,
    named,
    notes,
    rows_to,
    save_table,
    shown,
)
from riskmath.cli._parser import UsageError
from riskmath.errors import (
    AgentError,
    InvalidArgumentError,
    SimulationInterrupted,
    StateError,
    UndefinedStatisticError,
    WorkerError,
)
from riskmath.odds.battles import STATISTICS, battle
from riskmath.odds.conquests import conquest
from riskmath.odds.dice import CombatRules, roll_odds
from riskmath.odds.planning import armies_needed
from riskmath.odds.policy import optimal_policy
from riskmath.odds.tables import format_table, odds_table

__all__ = ["VERBS"]


def _rules(args: argparse.Namespace) -> CombatRules:
    """The combat rules of the options: ``--preset``'s dice (the classic ones without it), changed by each of the
    other options given."""
    combat = CombatRules() if args.preset is None else CombatRules.edition(args.preset)
    names = ("attacker_max_dice", "defender_max_dice", "attacker_sides", "defender_sides", "ties")
    given = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    return dataclasses.replace(combat, **given) if given else combat


# Under other dice than the classic ones the outputs name them, so that a result of ``--preset risiko`` cannot be
# mistaken for the classic odds: a line of text, a "rules" object in JSON.
def _rules_lines(rules: CombatRules, indent: str = "  ") -> list[str]:
    """The text output's line naming ``rules`` (none for the classic ones)."""
    return [] if rules == CombatRules() else [f"{indent}under {rules!r}"]


def _add_rules(document: dict[str, object], rules: CombatRules) -> None:
    """``rules``' fields under ``"rules"`` in a JSON document (nothing for the classic ones)."""
    if rules != CombatRules():
        document["rules"] = dataclasses.asdict(rules)


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
    rules = _rules(args)
    result = battle(args.attackers, args.defenders, stop_at=args.stop_at, exact=args.exact, rules=rules)
    # The statistics of result.summary(), without building its pandas Series (importing pandas is most of the time);
    # None for one the battle leaves undefined (the mean left if won, where winning is impossible in float64).
    stats: dict[str, object] = {}
    for name in STATISTICS:
        try:
            stats[name] = getattr(result, name)
        except UndefinedStatisticError:
            stats[name] = None
    if args.json:  # (every key, null where undefined, as conquest --json writes its mean if won)
        document: dict[str, object] = {
            "attackers": args.attackers,
            "defenders": args.defenders,
            "stop_at": args.stop_at,
        }
        _add_rules(document, rules)
        document.update({name: None if value is None else _jsonable(value) for name, value in stats.items()})
        return json.dumps(document)
    stats = {name: value for name, value in stats.items() if value is not None}
    title = f"{args.attackers} attackers (armies able to attack) v {args.defenders} defenders"
    if args.stop_at:
        title += f", stopping at {args.stop_at}"
    lines = [title, *_rules_lines(rules)]
    lines += [f"  {name:<32} {_show(value)}" for name, value in stats.items()]
    return "\n".join(lines)


def _table(args: argparse.Namespace) -> str:
    if args.defenders < 1:  # (odds_table would name its own max_defenders, and max_attackers below)
        raise UsageError(f"--defenders must be at least 1, got {args.defenders}")
    if args.attackers <= args.stop_at:
        raise UsageError(
            f"--attackers {args.attackers} must be more than --stop-at {args.stop_at}: "
            f"the grid's rows are {args.stop_at + 1} to --attackers attackers"
        )
    rules = _rules(args)
    table = odds_table(
        args.attackers,
        args.defenders,
        statistic=args.stat,
        stop_at=args.stop_at,
        exact=args.exact,
        rules=rules,
    )
    text = format_table(table, args.format, precision=args.precision)
    if args.format == "text":  # (the other formats are read by programs: a line above would break them)
        text = "\n".join([*_rules_lines(rules, indent=""), text])
    return text


def _conquest(args: argparse.Namespace) -> str:
    import pandas as pd

    rules = _rules(args)
    result = conquest(args.attackers, args.defenders, leave=args.leave, exact=args.exact, rules=rules)
    steps = result.step_table()
    won = result.win_probability
    try:
        final = result.expected_final_armies_if_won
    except UndefinedStatisticError:  # (winning impossible, or too unlikely for float64)
        final = None
    if args.json:
        final_json = None if final is None else _jsonable(final)
        document = {
            "attackers": args.attackers,
            "defenders": list(args.defenders),
            "leave": args.leave,
            "win_probability": _jsonable(won),
            "reach_probabilities": [_jsonable(p) for p in result.reach_probabilities],
            "expected_final_armies_if_won": final_json,
            # The keys before the new names, still written for scripts that read them (docs/cli.rst showed them).
            "success_probability": _jsonable(won),
            "expected_final_armies_if_success": final_json,
        }
        _add_rules(document, rules)
        return json.dumps(document)
    lines = [
        f"{args.attackers} attackers (armies able to attack) v path {list(args.defenders)}, leaving {args.leave}",
        *_rules_lines(rules),
        f"  win_probability              {_show(won)}",
    ]
    if final is not None:
        lines.append(f"  expected_final_armies_if_won {_show(final)}")
    lines.append("  step  defenders  P(reach)  E[attackers]  sd  P(capture)")
    for k, row in steps.iterrows():
        # A step never reached has no mean: None in its column, or NaN once pandas has made the column floats.
        mean = "-" if pd.isna(row["expected_attackers"]) else f"{float(row['expected_attackers']):.3f}"
        sd = "-" if pd.isna(row["std_attackers"]) else f"{float(row['std_attackers']):.3f}"
        lines.append(
            f"  {k:>4}  {int(row['defenders']):>9}  {float(row['reach_probability']):.6f}  {mean:>12}  {sd}"
            f"  {float(row['capture_probability']):.6f}"
        )
    return "\n".join(lines)


def _need(args: argparse.Namespace) -> str:
    rules = _rules(args)
    n = armies_needed(args.defenders, args.probability, leave=args.leave, rules=rules)
    achieved = conquest(n, args.defenders, leave=args.leave, rules=rules).win_probability
    if args.json:
        document: dict[str, object] = {
            "defenders": list(args.defenders),
            "probability": float(args.probability),
            "leave": args.leave,
            "attackers": n,  # armies able to attack: the territory holds one more
            "win_probability": float(achieved),
        }
        _add_rules(document, rules)
        return json.dumps(document)
    shown_achieved = f"{achieved:.6f}"
    if float(shown_achieved) >= 1.0 > achieved:  # (0.999999999999 is not "1.000000")
        shown_achieved = repr(float(achieved))
    elif achieved >= 1.0:  # (a chance short of 1 by less than a float's spacing: not certain)
        shown_achieved = "1.0 in float64 (within 1e-16 of 1)"
    asked = args.probability  # (a Fraction: one closer to 1 than a float can be is written as its distance)
    shown_asked = repr(float(asked)) if float(asked) < 1.0 else f"1 - {float(1 - asked):.3g}"
    answer = (
        f"{n} armies able to attack (the territory holds {n + 1}) take {list(args.defenders)} "
        f"with probability {shown_achieved} >= {shown_asked}"
    )
    return "\n".join([answer, *_rules_lines(rules)])


def _policy(args: argparse.Namespace) -> str:
    if args.min_left is not None and args.objective != "win_with":
        raise UsageError(
            f"--min-left {args.min_left} applies to --objective win_with only (the objective is {args.objective})"
        )
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


def _run_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options ``simulate`` and ``outlook`` pass on to the games: seed, workers, progress bar, move time."""
    return {"seed": args.seed, "n_jobs": args.jobs, "progress": args.progress, "move_time": args.move_time}


def _simulate(args: argparse.Namespace) -> str:
    from riskmath.agents import make_agent
    from riskmath.game.game import Game
    from riskmath.game.rules import Rules
    from riskmath.sim.simulation import simulate

    names = [name.strip() for name in args.agents.split(",")]
    game = Game(args.players, Rules.preset(args.preset), max_turns=args.max_turns)
    if len(names) == 1:  # one name: that agent in every seat (as ``outlook --agents`` and simulate() take it)
        names *= game.players
    if len(names) != game.players:  # (--players has a default, which the message must show)
        raise UsageError(
            f"--agents names {len(names)} agents, but --players is {game.players}: give one agent for every seat, "
            "or one name for all"
        )
    agents = [make_agent(name) for name in names]
    out = None if args.out is None else check_out(args.out)
    columns = ["seed", "winner", "draw", "turns"]
    columns += [f"{kind}_{seat}" for seat in range(game.players) for kind in ("territories", "armies")]
    writer = rows_to(out, columns)  # (rows as they come into a regular file; into anything else at the end)
    try:
        with warnings.catch_warnings(record=True) as caught:  # (the worker cap) one line each, not a source line
            warnings.simplefilter("always", RuntimeWarning)
            table = simulate(game, agents, args.games, on_game=writer, **_run_options(args))
    except (AgentError, WorkerError, SimulationInterrupted) as stop:
        notes(caught)
        kept = stop.results
        count = 0 if kept is None else len(kept)  # type: ignore[arg-type]
        where = ""
        if out is not None and kept is not None and count:  # (with none finished, an existing file is kept)
            failed = save_table(kept, out, writer)
            where = f", written to {args.out}" if failed is None else f"; {failed}"
        elif out is not None and (writer is None or not writer.written):
            where = f"; {args.out} left as it was"
        if isinstance(stop, SimulationInterrupted):
            raise InterruptedRunError(
                f"{interrupted_by(stop.signum)}: kept the {count} of {args.games} games that finished{where}",
                status=128 + stop.signum,
            ) from None
        raise type(stop)(f"{stop} (kept the {count} games that finished{where})") from stop
    except OutFileError as error:  # the --out file filled the disk (or went away) mid-run: the games kept elsewhere
        assert writer is not None
        writer.close()
        raise InvalidArgumentError(f"{error}{kept_elsewhere(getattr(error, 'results', None))}") from None
    notes(caught)
    failed = None if out is None else save_table(table, out, writer)
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
    return shown("\n".join(lines), failed)


def _read_position(path: str) -> Any:
    """The saved state at ``path`` (``-``: standard input), refused in one line if unreadable or inconsistent."""
    from riskmath.game.serialize import MAX_TEXT
    from riskmath.game.state import GameState

    if path == "-":
        text = sys.stdin.read(MAX_TEXT + 1)
    else:
        if os.path.isdir(path):
            raise InvalidArgumentError(f"position {named(path)} is a directory, not a saved state")
        try:
            if os.path.getsize(path) > 4 * MAX_TEXT:  # (at most 4 bytes a character in UTF-8)
                raise InvalidArgumentError(f"position {named(path)} is larger than a saved state may be")
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_TEXT + 1)
        except OSError as error:
            raise InvalidArgumentError(f"position {named(path)} cannot be read: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise InvalidArgumentError(f"position {named(path)} is not UTF-8 text (a saved state is JSON)") from None
    try:
        return GameState.from_json(text)
    except StateError as error:  # (not JSON, not a state, an inconsistent state): which file it was
        where = "standard input" if path == "-" else named(path)
        raise StateError(f"position {where}: {error}") from None


def _outlook(args: argparse.Namespace) -> str:
    from riskmath.sim.rollouts import victory_probabilities

    out = None
    if args.out is not None:
        stdin = args.position == "-"
        out = check_out(args.out, inputs=[] if stdin else [args.position], reads_stdin=stdin)
    state = _read_position(args.position)
    guess = None
    if args.estimate:  # (computed first: a position the estimate refuses is refused before the games)
        from riskmath.evaluate.estimate import estimate_victory_probabilities

        try:
            guess = estimate_victory_probabilities(state)
        except InvalidArgumentError as error:
            raise InvalidArgumentError(f"--estimate: {error}") from None
    names = [name.strip() for name in args.agents.split(",")]
    agents: str | list[str] = names[0] if len(names) == 1 else names
    try:
        with warnings.catch_warnings(record=True) as caught:  # (the worker cap) one line each, not a source line
            warnings.simplefilter("always", RuntimeWarning)
            table = victory_probabilities(state, agents, args.games, max_turns=args.max_turns, **_run_options(args))
    except SimulationInterrupted as stop:
        raise InterruptedRunError(
            f"{interrupted_by(stop.signum)}: no table (the shares need every game)", status=128 + stop.signum
        ) from None
    notes(caught)
    if guess is not None:
        table["estimate"] = guess
    failed = None if out is None else save_table(table, out, index=True)
    seats = names if len(names) > 1 else names * state.game.players
    attrs = table.attrs
    lines = [
        f"{state!r}: {args.games} games played on, seed {args.seed}, stopped at player-turn {attrs['turn_cap']}",
        "  player  agent       victory  (95% interval)" + ("     estimate" if args.estimate else ""),
    ]
    for player, row in table.iterrows():
        who = seats[int(player)]
        gone = "" if state.is_terminal() or state.alive(int(player)) else "  (eliminated)"
        guess = f"  {row['estimate']:11.1%}" if args.estimate else ""
        lines.append(
            f"  {player:>6}  {who:<11} {row['victory']:6.1%}  ({row['victory_low']:5.1%} to {row['victory_high']:5.1%})"
            f"{guess}{gone}"
        )
    lines.append(f"  draws (turn cap) {attrs['draw']:6.1%}  ({attrs['draw_low']:5.1%} to {attrs['draw_high']:5.1%})")
    return shown("\n".join(lines), failed)


#: Each verb's function, by the name typed on the command line.
VERBS: dict[str, Callable[[argparse.Namespace], str]] = {
    "roll": _roll,
    "odds": _odds,
    "table": _table,
    "conquest": _conquest,
    "need": _need,
    "policy": _policy,
    "simulate": _simulate,
    "outlook": _outlook,
}
