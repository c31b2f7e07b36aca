"""Odds tables as pandas DataFrames (no mathematics here: see :mod:`riskmath.odds.battles`)."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import TYPE_CHECKING

from riskmath._validation import check_choice, check_cost, check_int, shown
from riskmath.errors import InvalidArgumentError
from riskmath.odds.battles import STATISTICS, battle_statistics

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FORMATS", "STATISTICS", "format_table", "odds_table"]


def odds_table(
    max_attackers: int,
    max_defenders: int,
    *,
    statistic: str = "win_probability",
    stop_at: int = 0,
    exact: bool = False,
    rules: object = None,
) -> pd.DataFrame:
    """A statistic of the battle for every start state of a grid.

    Parameters
    ----------
    max_attackers, max_defenders : int
        Table size.  Rows are ``attackers`` = armies able to attack (the
        attacking territory holds one more), ``stop_at + 1 .. max_attackers``;
        columns are ``defenders`` = ``1 .. max_defenders``.
    statistic : str, default "win_probability"
        One of :data:`riskmath.STATISTICS`, each defined as the
        :class:`riskmath.Battle` attribute of that name (in float64 a
        standard deviation below about ``1e-6`` times the armies, and an
        expected loss far below the armies, are less precise than
        :func:`riskmath.battle`'s: see :func:`riskmath.battle_statistics`).
    stop_at : int, default 0
        Retreat threshold, as for :func:`riskmath.battle`.
    exact : bool, default False
        Fractions (object dtype) instead of float64; standard deviations stay
        float.
    rules : CombatRules, optional
        Combat variant; classic by default.

    Returns
    -------
    pandas.DataFrame
        Index named ``attackers``, columns named ``defenders``.

    Notes
    -----
    The whole grid comes from one backward sweep of the chain, not one
    battle per cell: one convolution per anti-diagonal ``a + d``, two at a
    time under the classic dice (see :doc:`/theory`, "Performance").  A
    300 x 300 table takes about 0.5 to 1 ms and a 1000 x 1000 one about
    10 ms.  The sweep's plan and working grid for a shape are kept per thread
    (at most 8 MiB), so a second table of the same shape skips that set-up.

    Examples
    --------
    >>> table = odds_table(3, 3)
    >>> table.round(4)
    defenders       1       2       3
    attackers
    1          0.4167  0.1061  0.0270
    2          0.7542  0.3627  0.2061
    3          0.9164  0.6560  0.4703
    """
    grid = battle_statistics(max_attackers, max_defenders, (statistic,), stop_at=stop_at, exact=exact, rules=rules)[
        statistic
    ]
    import pandas as pd

    # (checked by battle_statistics; as Python ints, so that a NumPy uint8 of 255 does not wrap round below)
    max_attackers, max_defenders, stop_at = int(max_attackers), int(max_defenders), int(stop_at)
    table = pd.DataFrame(
        grid,
        index=pd.RangeIndex(stop_at + 1, max_attackers + 1, name="attackers"),
        columns=pd.RangeIndex(1, max_defenders + 1, name="defenders"),
        # A fresh array that nothing else holds (the probabilities clipped to [0, 1]) is taken as it is: pandas
        # would copy it (about a millisecond at 1000 x 1000); a view of the sweep's moments is copied.
        copy=not (grid.base is None and grid.flags.c_contiguous),
    )
    table.attrs["statistic"] = statistic
    return table


#: Output formats of :func:`format_table`.
FORMATS = ("text", "csv", "markdown", "latex", "json")


def integer_text(n: int) -> str:
    """The decimal digits of ``n``, however many.

    ``str`` refuses an int of over 4,300 digits (Python 3.10.7 on, a guard
    against slow conversions; the numerators of an exact table of a few
    thousand armies have more): past about 3,900 digits the digits come from
    ``decimal.Decimal``, whose conversion is exact, unlimited and
    faster than ``str``'s on such numbers.

    Examples
    --------
    >>> integer_text(-42), len(integer_text(7**20_000)), integer_text(7**20_000)[:6]
    ('-42', 16902, '913692')
    """
    if n.bit_length() < 13_000:  # (under 3,914 digits: within the default limit)
        return str(n)
    import decimal

    return str(decimal.Decimal(n))


def fraction_text(value: Fraction) -> str:
    """``value`` as ``str`` writes it (``"p/q"``, or ``"p"`` for an integer), for numbers of any size."""
    if value.denominator == 1:
        return integer_text(value.numerator)
    return f"{integer_text(value.numerator)}/{integer_text(value.denominator)}"


def format_table(table: pd.DataFrame, fmt: str = "text", *, precision: int = 4) -> str:
    """Render an odds table as text, CSV, Markdown, LaTeX or JSON.

    Floats are written with ``precision`` decimals and Fractions as ``p/q``.
    CSV has a header ``attackers,1,2,...``.  JSON is an object with keys
    ``statistic``, ``attackers``, ``defenders`` and ``values``, where
    ``values[i][j]`` belongs to ``attackers[i]`` and ``defenders[j]``
    (Fractions as strings).

    Parameters
    ----------
    table : pandas.DataFrame
        A table of :func:`odds_table` (attackers by row, defenders by column).
    fmt : {"text", "csv", "markdown", "latex", "json"}, default "text"
        The output format (``riskmath.odds.tables.FORMATS``).
    precision : int, default 4
        Decimals of the floats.

    Returns
    -------
    str

    Raises
    ------
    InvalidArgumentError
        If ``fmt`` is not one of ``riskmath.odds.tables.FORMATS``.

    Examples
    --------
    >>> print(format_table(odds_table(2, 2), "csv", precision=2))
    attackers,1,2
    1,0.42,0.11
    2,0.75,0.36
    >>> print(format_table(odds_table(2, 2, exact=True), "csv").splitlines()[1])
    1,5/12,275/2592
    """
    import pandas as pd

    if not isinstance(table, pd.DataFrame):
        raise InvalidArgumentError(f"table must be a pandas DataFrame (from odds_table), got {shown(table)}")
    check_choice("fmt", fmt, FORMATS)
    check_int("precision", precision, minimum=0, maximum=17)
    if table.empty:
        raise InvalidArgumentError(f"table has no cells (shape {table.shape}): odds_table gives at least one")
    cells = table.shape[0] * table.shape[1]
    # Measured: about 80 bytes and 2 microseconds per cell (JSON twice that); the Fractions of an exact table cost
    # about 140 ns a digit (JSON twice that), and the text format pads every cell to the widest: a row of 3,500
    # exact odds has 25 million digits, written in 3.5 s as CSV, 100 MB as text.
    digits = widest = 0.0
    if any(dtype.kind == "O" for dtype in table.dtypes) and cells <= 10**7:
        sizes = [v.numerator.bit_length() + v.denominator.bit_length() for v in table.to_numpy().ravel()
                 if isinstance(v, Fraction)]  # fmt: skip
        digits, widest = sum(sizes) * 0.30103, max(sizes, default=0) * 0.30103
    characters = cells * widest if fmt == "text" else digits
    check_cost(
        lambda: f"format_table of a {table.shape[0]} x {table.shape[1]} table as {fmt}",
        memory=120.0 * cells + 2.0 * characters,
        seconds=(6e-6 if fmt == "json" else 3e-6) * cells + (2.8e-7 if fmt == "json" else 1.4e-7) * digits,
    )

    def cell(value: object) -> str:
        if isinstance(value, Fraction):
            return fraction_text(value)
        try:
            return f"{float(value):.{precision}f}"  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"table must hold numbers (as odds_table gives), got {shown(value)}") from None

    head = [str(c) for c in table.columns]
    labels = [str(i) for i in table.index]
    rows = [[cell(v) for v in row] for row in table.itertuples(index=False)]
    corner = f"{table.index.name}\\{table.columns.name}"
    if fmt == "text":
        width = max(len(x) for x in [*head, *(c for r in rows for c in r)])
        label_width = max(len(x) for x in [corner, *labels])
        lines = [" ".join([corner.rjust(label_width), *(h.rjust(width) for h in head)])]
        lines += [
            " ".join([lab.rjust(label_width), *(c.rjust(width) for c in r)])
            for lab, r in zip(labels, rows, strict=True)
        ]
    elif fmt == "csv":
        lines = [",".join([str(table.index.name), *head])]
        lines += [",".join([lab, *r]) for lab, r in zip(labels, rows, strict=True)]
    elif fmt == "markdown":
        lines = ["| " + " | ".join([corner, *head]) + " |", "|" + "---:|" * (len(head) + 1)]
        lines += ["| " + " | ".join([lab, *r]) + " |" for lab, r in zip(labels, rows, strict=True)]
    elif fmt == "latex":
        lines = ["\\begin{tabular}{r|" + "r" * len(head) + "}"]
        lines.append(" & ".join([f"{table.index.name} $\\backslash$ {table.columns.name}", *head]) + " \\\\")
        lines.append("\\hline")
        lines += [" & ".join([lab, *r]) + " \\\\" for lab, r in zip(labels, rows, strict=True)]
        lines.append("\\end{tabular}")
    else:  # json

        def plain(value: object) -> object:
            if isinstance(value, Fraction):
                return fraction_text(value)
            number = round(float(value), precision)  # type: ignore[arg-type]
            return number if math.isfinite(number) else None  # (JSON has no NaN: null, as the CLI writes it)

        document = {
            "statistic": table.attrs.get("statistic"),
            "attackers": [int(i) for i in table.index],
            "defenders": [int(c) for c in table.columns],
            "values": [[plain(v) for v in row] for row in table.itertuples(index=False)],
        }
        return json.dumps(document)
    return "\n".join(lines)
