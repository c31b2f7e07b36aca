"""Position evaluation against hand-computed small positions."""

from __future__ import annotations

import pandas as pd
import pytest
from game_helpers import build

import riskmath as rm
from riskmath.evaluate import reinforcement_outlook, threats


def position(**kwargs):
    # Player 0 holds Australia; player 1 holds Siam (8 armies) and the rest of Asia; player 2 the rest.
    game = rm.Game(3)
    owner = {t: 0 for t in game.board.continents["Australia"].territories}
    owner.update({t: 1 for t in game.board.continents["Asia"].territories})
    return build(game, owner=owner, default_owner=2, armies={"Siam": 8, "Indonesia": 3}, default_armies=2, **kwargs)


def test_threat_is_the_battle_of_the_strongest_neighbour():
    state = position()
    table = threats(state)
    row = table.loc["Indonesia"]
    assert (row["owner"], row["armies"], row["attacker"], row["attacker_owner"], row["attackers"]) == (
        0,
        3,
        "Siam",
        1,
        7,
    )
    assert row["fall_probability"] == pytest.approx(rm.battle(7, 3).win_probability, abs=1e-12)
    # Interior territories have no enemy neighbour.
    assert pd.isna(table.loc["Eastern Australia", "attacker"])
    assert table.loc["Eastern Australia", "fall_probability"] == 0.0
    # Mongolia borders only Asian territories, all player 1's: no threat.
    assert table.loc["Mongolia", "fall_probability"] == 0.0


def test_threat_with_reinforcements():
    state = position()
    plain = threats(state).loc["Indonesia", "fall_probability"]
    table = threats(state, reinforcements=True)
    assert state.reinforcements(1) == 12 // 3 + 7  # Asia's 12 territories and its bonus
    assert table.loc["Indonesia", "attackers"] == 7 + 11
    assert table.loc["Indonesia", "fall_probability"] > plain


def test_reinforcement_outlook():
    state = position(hands=[["wild", "Alaska", "Peru"], ["Siam"], []], sets_traded=3)
    table = reinforcement_outlook(state)
    assert table.loc[0, "territories"] == 4
    assert table.loc[0, "territory_armies"] == 3
    assert table.loc[0, "continent_bonus"] == 2
    assert table.loc[0, "continents"] == ("Australia",)
    assert table.loc[0, "holds_set"]
    assert table.loc[0, "next_set_value"] == 10  # the 4th set under the 1993 schedule
    assert not table.loc[1, "holds_set"]
    for p in range(3):
        assert table.loc[p, "total"] == state.reinforcements(p)
