"""Position evaluation against hand-computed small positions."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from game_helpers import build, tiny_game
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate import (
    VALUE_WEIGHTS,
    chain_win_probability,
    continent_outlook,
    hold_probability,
    outlook,
    plan_continent,
    position_value,
    reinforcement_outlook,
    threats,
    win_probability,
)


def position(**kwargs):
    # Player 0 holds Australia; player 1 holds Siam (8 armies) and the rest of Asia; player 2 the rest.
    game = rm.Game(3)
    owner = {t: 0 for t in game.board.continents["Australia"].territories}
    owner.update({t: 1 for t in game.board.continents["Asia"].territories})
    return build(game, owner=owner, default_owner=2, armies={"Siam": 8, "Indonesia": 3}, default_armies=2, **kwargs)


def test_threat_is_the_battle_of_the_strongest_neighbor():
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
    # Interior territories have no enemy neighbor.
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


# -- tiny boards, where the routes and the odds can be listed by hand ----------------------
def line_state(armies, owner, players=2, **kwargs):
    # S - B - C - D in a line; the continent "Line" is B, C, D (bonus 3), "Home" is S (bonus 1).
    game = tiny_game("SBCD", ["SB", "BC", "CD"], [("Home", 1, "S"), ("Line", 3, "BCD")], players)
    return build(
        game, owner=dict(zip("SBCD", owner, strict=True)), armies=dict(zip("SBCD", armies, strict=True)), **kwargs
    )


def test_continent_route_along_a_line():
    state = line_state([10, 2, 1, 3], [0, 1, 1, 1])
    plan = plan_continent(state, 0, "Line", 0)
    names = state.game.board.territories
    assert [[names[t] for t in route] for route in plan.routes] == [["S", "B", "C", "D"]]
    assert plan.attackers == [9]
    assert plan.placed == [0]
    assert plan.probability == pytest.approx(float(rm.conquest(9, [2, 1, 3]).win_probability), abs=1e-12)
    # Armies at hand are placed on the source.
    table = continent_outlook(state, 0, armies=4)
    assert table.loc["Line", "route"] == "S > B > C > D"
    assert table.loc["Line", "attackers"] == 13
    assert table.loc["Line", "probability"] == pytest.approx(rm.conquest(13, [2, 1, 3]).win_probability, abs=1e-12)
    assert not table.loc["Line", "held"]
    assert table.loc["Line", "enemy_territories"] == 3


def test_default_armies_at_hand_are_the_reinforcements():
    state = line_state([10, 2, 1, 3], [0, 1, 1, 1])
    assert state.reinforcements(0) == 3 + 1  # the minimum of 3 and the bonus of Home
    assert continent_outlook(state, 0).loc["Line", "attackers"] == 9 + 4
    # During the player's own reinforcement, the pool being placed.
    placing = line_state([10, 2, 1, 3], [0, 1, 1, 1], phase="reinforce", pool=6)
    assert continent_outlook(placing, 0).loc["Line", "attackers"] == 9 + 6


def test_a_part_no_territory_borders_cannot_be_taken():
    # H is a hub with leaves X and Y; player 0 holds only S, next to H.  No single path covers H, X, Y.
    game = tiny_game("SHXY", ["SH", "HX", "HY"], [("Out", 1, "S"), ("Star", 2, "HXY")])
    state = build(game, owner={"S": 0, "H": 1, "X": 1, "Y": 1}, armies={"S": 12, "H": 2, "X": 1, "Y": 1})
    assert plan_continent(state, 0, "Star").probability == 0.0
    assert continent_outlook(state, 0, armies=0).loc["Star", "route"] == ""


def test_two_stacks_when_no_path_covers_the_continent():
    # As above, plus T (player 0, 7 armies) next to Y: S takes H then X, T takes Y.
    game = tiny_game("STHXY", ["SH", "HX", "HY", "YT"], [("Out", 1, "ST"), ("Star", 2, "HXY")])
    state = build(
        game, owner={"S": 0, "H": 1, "X": 1, "Y": 1, "T": 0}, armies={"S": 12, "H": 2, "X": 1, "Y": 2, "T": 7}
    )
    plan = plan_continent(state, 0, "Star", 0)
    names = game.board.territories
    assert sorted("".join(names[t] for t in route) for route in plan.routes) == ["SHX", "TY"]
    expected = rm.conquest(11, [2, 1]).win_probability * rm.battle(6, 2).win_probability
    assert plan.probability == pytest.approx(expected, abs=1e-12)


def test_one_source_splits_its_stack_in_proportion_to_the_defenders():
    # S borders P and Q, which do not border each other: two routes from the same stack of 9 attackers.
    game = tiny_game("SPQ", ["SP", "SQ"], [("Out", 1, "S"), ("Pair", 2, "PQ")])
    state = build(game, owner={"S": 0, "P": 1, "Q": 1}, armies={"S": 10, "P": 2, "Q": 2})
    plan = plan_continent(state, 0, "Pair", 0)
    assert sorted(plan.attackers) == [4, 5]
    expected = rm.battle(5, 2).win_probability * rm.battle(4, 2).win_probability
    assert plan.probability == pytest.approx(expected, abs=1e-12)


def test_hold_probability_of_a_held_continent():
    # Player 0 holds the Line; player 1 holds S (8 armies) next to B.
    state = line_state([8, 2, 1, 3], [1, 0, 0, 0])
    income = state.reinforcements(1)
    assert income == 3 + 1
    expected = 1.0 - rm.battle(7 + income, 2).win_probability
    assert hold_probability(state, 0, "Line") == pytest.approx(expected, abs=1e-12)
    table = continent_outlook(state, 0)
    assert table.loc["Line", "held"]
    assert table.loc["Line", "probability"] == pytest.approx(expected, abs=1e-12)
    assert hold_probability(state, 1, "Line") == 0.0
    assert plan_continent(state, 0, "Line").probability == 1.0


def test_position_value_terms_by_hand():
    state = line_state([8, 2, 1, 3], [1, 0, 0, 0], hands=[["B", "C"], []])
    table = position_value(state)
    assert list(table.columns) == ["territories", "armies", "income", "exposure", "value"]
    assert table["territories"].tolist() == [0.75, 0.25]
    assert table["armies"].tolist() == [6 / 14, 8 / 14]
    # Income: player 0 gets 3 + 3 (Line) + two cards at a fifth of the first set (4) each; player 1 gets 3 + 1.
    income0, income1 = 6 + 2 * 4 / 5, 4
    assert table["income"].tolist() == pytest.approx([income0 / (income0 + income1), income1 / (income0 + income1)])
    fall_b = rm.battle(7 + 4, 2).win_probability  # player 1 reinforced with 4
    fall_s = rm.battle(1 + 6, 8).win_probability  # B (2 armies) reinforced with player 0's 6
    assert table["exposure"].tolist() == pytest.approx([fall_b / 4, fall_s / 4])
    w = VALUE_WEIGHTS
    for p in (0, 1):
        row = table.loc[p]
        value = (
            w["territories"] * row["territories"]
            + w["armies"] * row["armies"]
            + w["income"] * row["income"]
            - w["exposure"] * row["exposure"]
        )
        assert row["value"] == pytest.approx(value, abs=1e-12)
    only_armies = position_value(state, weights={"territories": 0, "armies": 1, "income": 0, "exposure": 0})
    assert only_armies["value"].tolist() == pytest.approx([6 / 14, 8 / 14])


def test_position_value_at_the_end_and_of_the_eliminated():
    state = line_state([8, 2, 1, 3], [0, 0, 0, 0], phase="game_over", winner=0, player=-1)
    assert position_value(state)["value"].tolist() == [1.0, 0.0]
    three = line_state([8, 2, 1, 3], [0, 0, 1, 1], players=3)
    assert position_value(three).loc[2].tolist() == [0.0] * 5


def test_cached_odds_match_the_battle_and_conquest():
    combat = rm.Rules().combat
    for a, d in [(1, 1), (3, 2), (40, 35), (70, 3)]:
        assert win_probability(a, d, combat) == pytest.approx(rm.battle(a, d).win_probability, abs=1e-12)
    assert win_probability(0, 3, combat) == 0.0
    assert win_probability(4, 0, combat) == 1.0
    assert chain_win_probability(12, (3, 2, 2), combat) == pytest.approx(rm.conquest(12, [3, 2, 2]).win_probability)


def test_bad_arguments_name_the_value():
    state = line_state([10, 2, 1, 3], [0, 1, 1, 1])
    with pytest.raises(InvalidArgumentError, match=r"player must be a seat 0\.\.1, got 5"):
        continent_outlook(state, 5)
    with pytest.raises(InvalidArgumentError, match="armies must be a non-negative integer, got -1"):
        continent_outlook(state, 0, armies=-1)
    with pytest.raises(InvalidArgumentError, match="weights must give"):
        position_value(state, weights={"armies": 1})
    with pytest.raises(InvalidArgumentError, match="weights must give"):
        position_value(state, weights={"territories": 0, "armies": -1, "income": 0, "exposure": 0})
    # From a hostile-user review: each was accepted (inf weights made every value inf, "no" added reinforcements,
    # -5 and True were armies to place) or raised a bare TypeError.
    with pytest.raises(InvalidArgumentError, match="weights must give finite"):
        position_value(state, weights={"territories": float("inf"), "armies": 0, "income": 0, "exposure": 0})
    with pytest.raises(InvalidArgumentError, match="reinforcements must be True or False"):
        rm.evaluate.threats(state, reinforcements="no")
    for armies in (-5, True, "3", 2.5):
        with pytest.raises(InvalidArgumentError, match="armies must be a non-negative integer"):
            rm.evaluate.plan_continent(state, 0, "Line", armies)


def test_numpy_seats_and_counts_are_taken():
    np = pytest.importorskip("numpy")
    state = line_state([10, 2, 1, 3], [0, 1, 1, 1])
    assert continent_outlook(state, np.int64(0), armies=np.int64(3)).equals(continent_outlook(state, 0, armies=3))
    plan = rm.evaluate.plan_continent(state, np.int64(0), "Line", np.int64(3))
    assert plan.probability == rm.evaluate.plan_continent(state, 0, "Line", 3).probability


def test_an_eliminated_player_receives_nothing():
    game = rm.Game(3)
    names = game.board.territories
    state = game.position({n: 0 if i < 30 else 1 for i, n in enumerate(names)}, dict.fromkeys(names, 2), seed=1)
    assert not state.alive(2)
    assert state.reinforcements(2) == 0  # (was 3, the minimum of a living player)
    row = rm.evaluate.reinforcement_outlook(state).loc[2]
    assert (row["territory_armies"], row["total"]) == (0, 0)


def test_huge_stacks_are_within_float_resolution_of_the_exact_odds():
    combat = rm.Rules().combat
    for a, d in [(300, 2), (900, 5), (500, 100)]:
        assert win_probability(a, d, combat) == pytest.approx(rm.battle(a, d).win_probability, abs=1e-12)
    exact = rm.conquest(700, [3, 1, 4, 1, 5]).win_probability
    assert chain_win_probability(700, (3, 1, 4, 1, 5), combat) == pytest.approx(exact, abs=1e-12)


def test_continents_are_named_in_any_case_as_the_board_takes_them():
    # plan_continent and hold_probability refused "africa" while Board.border_territories("africa") took it.
    game = rm.Game(3)
    names = game.board.territories
    state = game.position({t: i % 3 for i, t in enumerate(names)}, dict.fromkeys(names, 3), seed=1)
    assert game.board.continent_name("south AMERICA") == "South America"
    assert hold_probability(state, 0, "australia") == hold_probability(state, 0, "Australia")
    assert repr(plan_continent(state, 1, "africa")) == repr(plan_continent(state, 1, "Africa"))
    with pytest.raises(InvalidArgumentError, match="got 'atlantis'"):
        hold_probability(state, 0, "atlantis")


# -- found by a mutation test (2026-12-03): what no test held -------------------------------------------------------
def test_a_route_with_a_single_army_able_to_attack_is_fought():
    # One army able to attack (the stack holds 2) still has a chance: a mutant that needed 2 gave 0.
    game = rm.Game(2)
    names = game.board.territories
    owners = dict.fromkeys(names, 1) | {"Indonesia": 0, "New Guinea": 0, "Eastern Australia": 0, "Siam": 1}
    state = game.position(owners, dict.fromkeys(names, 1) | {"Eastern Australia": 2}, seed=1)
    plan = plan_continent(state, 0, "Australia", armies=0)
    assert plan.attackers == [1]
    assert plan.probability == rm.battle(1, 1).win_probability  # 5/12 under the classic dice


def test_an_outlook_for_a_seat_not_on_the_move_counts_its_own_reinforcements():
    # The pool on the board is the mover's: player 0's outlook used player 1's 8 armies (Africa 0.27 -> 0.92).
    from riskmath.agents.odds import OddsAgent

    state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    agent, rng = OddsAgent(), random.Random(0)
    while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
        state = state.apply(agent.act(state, rng))
    assert (state.current_player, state.pool, state.reinforcements(0)) == (1, 8, 3)
    default = continent_outlook(state, 0)["probability"]
    assert default.tolist() == continent_outlook(state, 0, armies=3)["probability"].tolist()
    assert default.tolist() != continent_outlook(state, 0, armies=8)["probability"].tolist()


def test_the_strongest_attacker_is_the_first_in_neighbor_order_on_ties():
    # Ukraine's neighbors list Ural before Afghanistan; both hold 4 (the docstring's tie rule, held by a test).
    game = rm.Game(3)
    names = game.board.territories
    owners = dict.fromkeys(names, 0) | {"Ural": 1, "Afghanistan": 2}
    state = game.position(owners, dict.fromkeys(names, 1) | {"Ural": 4, "Afghanistan": 4}, seed=1)
    row = threats(state).loc["Ukraine"]
    assert (row["attacker"], row["attacker_owner"], row["attackers"]) == ("Ural", 1, 3)


def test_a_hopeless_plan_keeps_the_first_of_equal_routes():
    # Every route has chance 0 here; "the first best" is the first candidate (a mutant with >= took the last).
    game = rm.Game(3)
    names = game.board.territories
    r = random.Random(9)
    owners = {n: r.randrange(3) for n in names}
    armies = {n: r.choice([1, 1, 2, 2, 3, 5]) for n in names}
    state = game.position(owners, armies, seed=1)
    plan = plan_continent(state, 0, "Australia", armies=0)
    assert plan.probability == 0
    assert [[names[t] for t in route] for route in plan.routes] == [["Siam", "Indonesia", "Western Australia"]]
    assert (plan.attackers, plan.placed) == ([1], [0])


def test_an_exact_integer_split_gives_the_extra_armies_to_the_first_on_ties():
    # Past 2**53 the split is made in integers, "the first on ties" (its comment): pinned at 2**53 in thirds.
    from riskmath.evaluate._routes import shares

    assert shares(2**53, [1, 1, 1]) == [3002399751580331, 3002399751580331, 3002399751580330]


@settings(max_examples=200, deadline=None)
@given(
    owners=st.lists(st.integers(0, 2), min_size=42, max_size=42),
    armies=st.lists(st.integers(1, 4), min_size=42, max_size=42),  # few values: many ties
    first=st.integers(0, 41),
)
def test_a_route_starts_from_the_biggest_neighboring_stack_lowest_id_on_ties(owners, armies, first):
    nbrs = rm.Game(3).neighbors
    mine = [u for u in nbrs[first] if owners[u] == 0]
    if not mine:
        with pytest.raises(ValueError, match="no territory next to"):
            outlook._source(nbrs, owners, armies, 0, first)
        return
    assert outlook._source(nbrs, owners, armies, 0, first) == max(sorted(mine), key=armies.__getitem__)


@settings(max_examples=200, deadline=None)
@given(falls=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=60), data=st.data())
def test_kept_probability_multiplies_in_order_as_numpy_does(falls, data):
    members = data.draw(st.lists(st.integers(0, len(falls) - 1), max_size=len(falls)))
    kept = outlook.kept_probability(members, falls)
    assert kept == float(np.prod([1.0 - falls[t] for t in members]))  # the same float, not just close
    assert outlook.kept_probability(members, np.array(falls)) == kept


@pytest.mark.parametrize(
    ("attackers", "defenders"),
    [(3.0, (2, 2)), (np.float64(3), (2, 2)), (Fraction(3), (2, 2)), (True, (1,)), (3, (2.0, 2)), (3, [2, True])],
)
def test_chain_odds_refuse_what_is_not_an_integer_whatever_was_asked_before(attackers, defenders):
    # The memo was read before the arguments were checked: 3.0 (or a bool, a float defender) hashes as 3 does, so
    # it was refused in a fresh process and answered after a call with ints (hostile odds review, 2026-12-03).
    plain = (int(attackers), tuple(int(d) for d in defenders))
    assert 0.0 <= chain_win_probability(*plain) <= 1.0  # the ints remembered first
    with pytest.raises(InvalidArgumentError, match="must be an integer"):
        chain_win_probability(attackers, defenders)
