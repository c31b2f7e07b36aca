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

Every verb takes ``--max-memory SIZE`` and ``--max-seconds S``: the limits of
:func:`riskmath.set_limits` for the run.  Bad input prints one line
``riskmath: error: ...`` on stderr and exits with status 2.

The command is three private modules and this entry point:
:mod:`~riskmath.cli._parser` (the arguments), :mod:`~riskmath.cli._verbs`
(one function per verb: call the library, format the answer) and
:mod:`~riskmath.cli._output` (``--out`` files written crash-safe, notes on
standard error, and the exit status of every way a run ends).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from riskmath._validation import set_limits
from riskmath.cli._output import announce_long_work, any_digits, leave, status_of
from riskmath.cli._parser import build_parser
from riskmath.cli._verbs import VERBS

__all__ = ["main"]


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

    def run() -> None:
        args = parser.parse_args(argv)
        handler = VERBS[args.command]
        given = {name: getattr(args, name) for name in ("max_memory", "max_seconds") if getattr(args, name) is not None}
        # Exact answers may have more than the 4300 digits Python prints by default (the arguments, parsed
        # above, were capped at MAX_DIGITS each, and the odds functions at riskmath.set_limits' time limit).
        with any_digits(), announce_long_work(), set_limits(**given) if given else contextlib.nullcontext():
            print(handler(args), flush=True)

    return status_of(run)


def main_exit() -> None:
    """Console-script entry point: run :func:`main` and exit with its status.

    An interrupted run leaves at once, without waiting for a process pool's
    threads (see :func:`riskmath.cli._output.leave`); ``python -m riskmath``
    comes here too.
    """
    leave(main())
