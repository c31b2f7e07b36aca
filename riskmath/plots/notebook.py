"""Rich display of riskmath objects in notebooks (HTML, as python-chess shows boards).

Importing this module (the first rich display after ``import riskmath``
does) registers an HTML renderer for :class:`~riskmath.Battle`,
:class:`~riskmath.Conquest` and :class:`~riskmath.GameState` in :mod:`riskmath._html`, which their
``_repr_html_`` methods consult; their plain ``repr`` stays short and
pasteable.  The renderers are plain functions returning a string, so they
can also be called directly, e.g. to write a report.  Nothing heavy is
imported here: the board picture is drawn only when a state is shown.

Examples
--------
>>> import riskmath as rm
>>> html = rm.battle(10, 10)._repr_html_()
>>> "0.5676" in html
True
>>> repr(rm.battle(10, 10))
'Battle(10, 10)'
"""

from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any

from riskmath._html import RENDERERS
from riskmath.plots.style import LOSS_COLOR, WIN_COLOR

if TYPE_CHECKING:
    from riskmath.game.state import GameState
    from riskmath.odds.battles import Battle
    from riskmath.odds.conquests import Conquest

__all__ = ["battle_html", "conquest_html", "state_html"]

_TABLE = 'style="border-collapse: collapse; font-variant-numeric: tabular-nums"'
_CELL = 'style="padding: 1px 8px; text-align: right"'
_HEAD = 'style="padding: 1px 8px; text-align: left"'

#: Battles with more final states than this are shown without the outcome chart.
CHART_LIMIT = 300


def _number(value: Any, digits: int) -> str:
    """A float with ``digits`` decimals (Fractions too); a dash for a missing value (None, or NaN: a step of a
    conquest that is never reached has no expected armies, and the table's float column holds NaN there)."""
    if value is None:
        return "-"
    number = float(value)
    return "-" if math.isnan(number) else f"{number:.{digits}f}"


def _rows(rows: list[tuple[str, str]]) -> str:
    return "".join(f"<tr><th {_HEAD}>{escape(name)}</th><td {_CELL}>{escape(value)}</td></tr>" for name, value in rows)


def _caption(obj: object) -> str:
    return f'<caption style="text-align: left"><code>{escape(repr(obj))}</code></caption>'


def outcome_chart(battle: Battle, *, width: int = 360, height: int = 70) -> str:
    """An inline SVG bar chart of a battle's final states (empty for more than :data:`CHART_LIMIT`).

    The bars run from the defender's best outcome (most defenders left, on
    the left, red) to the attacker's (most attackers left after a win, on
    the right, green); each bar's tooltip gives its state and probability.
    """
    outcomes = battle.outcomes
    if len(outcomes) > CHART_LIMIT:
        return ""
    states = sorted(
        ((int(a), int(d), float(p)) for (a, d), p in outcomes.items()), key=lambda s: (s[1] == 0, s[0] - s[1], s[0])
    )
    top = max(p for _, _, p in states) or 1.0
    step = width / len(states)
    bars = []
    for i, (a, d, p) in enumerate(states):
        tall = p / top * (height - 14)
        color = WIN_COLOR if d == 0 else LOSS_COLOR
        tip = escape(f"{a} attackers, {d} defenders left: {p:.4f}")
        bars.append(
            f'<rect x="{i * step:.2f}" y="{height - 14 - tall:.2f}" width="{max(step - 1, 0.5):.2f}" '
            f'height="{tall:.2f}" fill="{color}"><title>{tip}</title></rect>'
        )
    labels = (
        f'<text x="0" y="{height - 2}" font-size="10" fill="{LOSS_COLOR}">defender holds</text>'
        f'<text x="{width}" y="{height - 2}" font-size="10" fill="{WIN_COLOR}" text-anchor="end">attacker wins</text>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img"><title>final states of {escape(repr(battle))}</title>'
        f"{''.join(bars)}{labels}</svg>"
    )


def battle_html(battle: Battle) -> str:
    """A battle as an HTML table (the odds and expectations) beside a chart of its outcomes.

    Examples
    --------
    >>> from riskmath import battle
    >>> html = battle_html(battle(3, 2))
    >>> html.count("<tr>"), "<svg" in html
    (6, True)
    """
    rows = [
        ("armies able to attack", str(battle.attackers)),
        ("defenders", str(battle.defenders)),
        *([("attacker stops at", str(battle.stop_at))] if battle.stop_at else []),
        ("win probability", _number(battle.win_probability, 4)),
        ("expected attackers left", _number(battle.expected_attackers_left, 2)),
        ("expected defenders left", _number(battle.expected_defenders_left, 2)),
        ("expected rolls", _number(battle.expected_rolls, 2)),
    ]
    table = f"<table {_TABLE}>{_caption(battle)}{_rows(rows)}</table>"
    return (
        '<div class="riskmath-battle" style="display: flex; gap: 1em; align-items: center">'
        f"{table}{outcome_chart(battle)}</div>"
    )


def conquest_html(conquest: Conquest) -> str:
    """A conquest as an HTML table: one row per territory of the path, then the win probability (all taken).

    Examples
    --------
    >>> from riskmath import conquest
    >>> html = conquest_html(conquest(12, [3, 2, 2]))
    >>> "0.8387" in html, html.count("<tr>")
    (True, 5)
    """
    steps = conquest.step_table()
    head = "".join(
        f"<th {_CELL}>{escape(name)}</th>"
        for name in ("step", "defenders", "reach probability", "capture probability", "expected attackers if reached")
    )
    body = "".join(
        f"<tr><td {_CELL}>{step}</td><td {_CELL}>{row.defenders}</td>"
        f"<td {_CELL}>{_number(row.reach_probability, 4)}</td>"
        f"<td {_CELL}>{_number(row.capture_probability, 4)}</td>"
        f"<td {_CELL}>{_number(row.expected_attackers, 2)}</td></tr>"
        for step, row in zip(steps.index, steps.itertuples(), strict=True)
    )
    won = conquest.win_probability
    final = _number(conquest.expected_final_armies_if_won, 2) if won > 0 else "-"
    foot = (
        f'<tr><th {_HEAD} colspan="3">win probability</th><td {_CELL}>{_number(won, 4)}</td>'
        f'<td {_CELL} title="expected armies in the last territory, given a win">{escape(final)}</td></tr>'
    )
    return f'<table class="riskmath-conquest" {_TABLE}>{_caption(conquest)}<tr>{head}</tr>{body}{foot}</table>'


def state_header(state: GameState) -> str:
    """The HTML header line of a state: turn, phase and who is to move (or how the game ended)."""
    game = state.game
    if state.is_terminal():
        winner = state.winner
        who = "a draw" if winner is None else f"won by {game.owner_name(winner)}"
    elif state.is_chance_node():
        who = "chance to move"
    else:
        who = f"{game.owner_name(state.current_player)} to move"
    parts = [f"turn {state.turn}", state.phase.name, who]
    return f"<p><b>{escape(' · '.join(parts))}</b></p>"


def state_html(state: GameState) -> str:
    """A state as an HTML header line and the board as inline SVG (``riskmath.plots.boardmap.board_svg``).

    The SVG document's XML declaration and doctype are left out: only its
    ``<svg>`` element goes into the HTML.

    Examples
    --------
    >>> import riskmath as rm
    >>> html = state_html(rm.Game(4).new_initial_state(seed=1, auto_chance=True))
    >>> html[:85]
    '<div class="riskmath-state"><p><b>turn 0 · SETUP_CLAIM · player 2 to move</b></p><svg'
    """
    from riskmath.plots.boardmap import board_svg

    svg = board_svg(state)
    return f'<div class="riskmath-state">{state_header(state)}{svg[svg.find("<svg") :].strip()}</div>'


RENDERERS.update(Battle=battle_html, Conquest=conquest_html, GameState=state_html)
