"""Rich (HTML) display in notebooks: the numbers shown, escaping, and short plain reprs."""

from __future__ import annotations

import re

import pytest
from game_helpers import tiered

import riskmath as rm
from riskmath import _html
from riskmath.agents import AggressiveAgent, RandomAgent
from riskmath.odds.dice import CombatRules
from riskmath.plots.notebook import CHART_LIMIT, battle_html, conquest_html, outcome_chart, state_header


def _cells(html: str) -> list[str]:
    """The text of every table cell, headers included, in order."""
    return re.findall(r"<t[dh][^>]*>([^<]*)</t[dh]>", html)


# -- Battle -----------------------------------------------------------------------


def test_battle_html_shows_the_odds():
    b = rm.battle(10, 10)
    html = b._repr_html_()
    assert isinstance(html, str)
    assert html == battle_html(b)
    cells = _cells(html)
    shown = dict(zip(cells[::2], cells[1::2], strict=True))
    assert shown == {
        "armies able to attack": "10",
        "defenders": "10",
        "win probability": f"{b.win_probability:.4f}",
        "expected attackers left": f"{b.expected_attackers_left:.2f}",
        "expected defenders left": f"{b.expected_defenders_left:.2f}",
        "expected rolls": f"{b.expected_rolls:.2f}",
    }
    assert shown["win probability"] == "0.5676"
    assert "<code>Battle(10, 10)</code>" in html


def test_battle_html_exact_and_stop_at():
    b = rm.battle(5, 3, stop_at=1, exact=True)
    cells = _cells(b._repr_html_())
    shown = dict(zip(cells[::2], cells[1::2], strict=True))
    assert shown["attacker stops at"] == "1"
    assert shown["win probability"] == f"{float(b.win_probability):.4f}"


def test_battle_outcome_chart_has_one_bar_per_final_state():
    b = rm.battle(10, 10)
    svg = outcome_chart(b)
    assert svg.startswith("<svg")
    assert svg.count("<rect") == len(b.outcomes)
    wins = (b.outcomes.index.get_level_values("defenders") == 0).sum()
    assert len(re.findall(r'<rect [^>]*fill="#2ca02c"', svg)) == wins
    assert svg in b._repr_html_()
    assert outcome_chart(rm.battle(CHART_LIMIT, CHART_LIMIT)) == ""


def test_battle_html_escapes_text():
    b = rm.battle(3, 2, rules=CombatRules(ties="attacker"))
    html = b._repr_html_()
    assert "ties=&#x27;attacker&#x27;" in html
    assert "ties='attacker'" not in html


# -- Conquest ---------------------------------------------------------------------


def test_conquest_html_shows_each_step_and_the_win():
    c = rm.conquest(12, [3, 2, 2])
    html = c._repr_html_()
    assert html == conquest_html(c)
    steps = c.step_table()
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    assert len(rows) == 1 + len(steps) + 1  # header, one per territory, the win
    for row, (step, values) in zip(rows[1:-1], steps.iterrows(), strict=True):
        assert _cells(row) == [
            str(step),
            str(int(values["defenders"])),
            f"{values['reach_probability']:.4f}",
            f"{values['capture_probability']:.4f}",
            f"{values['expected_attackers']:.2f}",
        ]
    assert _cells(rows[-1]) == [
        "win probability",
        "0.8387",
        f"{c.expected_final_armies_if_won:.2f}",
    ]


def test_conquest_html_impossible_win_and_escaping():
    html = rm.conquest(0, [3], rules=CombatRules(ties="attacker"))._repr_html_()
    assert _cells(re.findall(r"<tr>(.*?)</tr>", html)[-1]) == ["win probability", "0.0000", "-"]
    assert "&#x27;attacker&#x27;" in html


# -- GameState ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def states():
    game = rm.Game(2, max_turns=150)
    start = game.new_initial_state(seed=1)
    record = rm.play(game, [AggressiveAgent(), RandomAgent()], seed=1)
    replayed = game.replay(record.actions[:60], record.seed, auto_chance=True)
    return start, replayed, record.final


def test_state_header_says_who_moves(states):
    start, middle, final = states
    assert state_header(start) == "<p><b>turn 0 · SETUP_ORDER · chance to move</b></p>"
    name = middle.game.owner_name(middle.current_player)
    assert state_header(middle) == f"<p><b>turn {middle.turn} · {middle.phase.name} · {name} to move</b></p>"
    assert final.winner is not None
    assert state_header(final) == f"<p><b>turn {final.turn} · GAME_OVER · won by player {final.winner}</b></p>"


# Each state draws the whole map (about half a second): the fast tier draws the one in mid-game.
@pytest.mark.parametrize("which", tiered([0, 1, 2], [1]))
def test_state_html_holds_the_header_and_the_board(states, which):
    state = states[which]
    html = state._repr_html_()
    assert html.startswith('<div class="riskmath-state">' + state_header(state))
    assert "<svg" in html
    assert "<?xml" not in html
    assert "<!DOCTYPE" not in html
    assert html.endswith("</svg></div>")


# -- plain reprs and the registry ------------------------------------------------------


def test_plain_reprs_stay_short_and_pasteable(states):
    assert repr(rm.battle(10, 10)) == "Battle(10, 10)"
    assert repr(rm.conquest(12, [3, 2, 2])) == "Conquest(12, [3, 2, 2])"
    assert repr(states[0]) == "<GameState turn 0, SETUP_ORDER, chance to move>"
    for obj in (rm.battle(10, 10), rm.conquest(12, [3, 2, 2]), *states):
        assert len(repr(obj)) < 80


def test_objects_without_a_renderer_give_none():
    class Plain:
        pass

    assert _html.render(Plain()) is None
    assert _html.render(3) is None


def test_subclasses_use_the_renderer_of_their_base():
    class MyBattle(rm.Battle):
        pass

    b = MyBattle(3, 2)
    assert b._repr_html_() == battle_html(b)


def test_registry_is_filled_on_import():
    assert {"Battle", "Conquest", "GameState"} <= set(_html.RENDERERS)
