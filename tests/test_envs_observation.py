"""Observations of riskmath.envs: layouts that cover the vector, hidden information hidden, values where they belong.

Two states that differ only in what a player may not see (an opponent's cards, the order of the deck, the
missions of others, the chance generator) must give that player the same observation, text and information
state; the opposite checks (the opponent itself sees the difference) make sure the tests can fail.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import riskmath as rm
from riskmath.envs import (
    ActionCodec,
    CountChoice,
    information_state,
    information_state_layout,
    observation,
    observation_layout,
    observation_string,
)
from riskmath.envs.observations import HAND_SCALE, LOG_BITS
from riskmath.errors import InvalidArgumentError
from riskmath.game.missions import mission_text, missions_for
from tests.game_helpers import INFANTRY, build, data_of, load

VIEWS = (observation, information_state, observation_string)


def same_view(a: rm.GameState, b: rm.GameState, player: int) -> bool:
    return bool(
        np.array_equal(observation(a, player), observation(b, player))
        and np.array_equal(information_state(a, player), information_state(b, player))
        and np.array_equal(observation(a, player, scaled=True), observation(b, player, scaled=True))
        and np.array_equal(information_state(a, player, scaled=True), information_state(b, player, scaled=True))
        and observation_string(a, player) == observation_string(b, player)
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("preset", ["us_1993", "us_1993_secret_mission", "us_1993_capital", "euro_2003"])
def test_layouts_cover_the_vector_exactly(players, preset):
    if preset == "us_1993_secret_mission" and players < 3:
        return
    game = rm.Game(players, rm.Rules.preset(preset), max_turns=3)
    state = game.new_initial_state(seed=players, auto_chance=True)
    for layout, view in ((observation_layout(game), observation), (information_state_layout(game), information_state)):
        blocks = list(layout.values())
        assert blocks[0].start == 0
        assert all(a.stop == b.start for a, b in itertools.pairwise(blocks))
        vector = view(state, 0)
        assert vector.dtype == np.float32
        assert vector.shape == (blocks[-1].stop,)
    assert observation_layout(state) == observation_layout(game)
    assert list(information_state_layout(game))[:-1] == list(observation_layout(game))
    n = len(game.board)
    sizes = {name: block.stop - block.start for name, block in observation_layout(game).items()}
    assert sizes["owner"] == n * (players + 1)
    assert sizes["capitals"] == n * players
    assert sizes["mission"] == (len(missions_for("us_1993_12", players)) if "mission" in preset else 0)


def test_values_along_a_game():
    game = rm.Game(3, max_turns=9)
    rng = random.Random(0)
    state = game.new_initial_state(seed=0, auto_chance=True)
    n = len(game.board)
    layout = observation_layout(game)
    while not state.is_terminal():
        for player in range(3):
            vector = observation(state, player)
            assert np.isfinite(vector).all()
            owner = vector[layout["owner"]].reshape(n, 4)
            for t, o in enumerate(state.owners):
                if o < 0:
                    assert not owner[t].any()
                else:
                    assert owner[t].sum() == 1
                    assert owner[t, (o - player) % 3 if o < 3 else 3] == 1
            assert np.allclose(np.expm1(vector[layout["armies"]]), state.army_counts, rtol=1e-6)
            assert vector[layout["hand"]].sum() == len(state.cards(player))
            sizes = vector[layout["hand_sizes"]]
            assert sizes.tolist() == [len(state.cards((player + k) % 3)) for k in range(3)]
            assert vector[layout["phase"]].argmax() == list(rm.Phase).index(state.phase)
            who = vector[layout["player"]]
            assert who.sum() == 1
            assert who[(state.current_player - player) % 3] == 1
            assert vector[layout["turn"]][0] == state.turn
            next_value = game.rules.set_values.value(state.sets_traded + 1)  # 4, 6, 8, ... ([R1])
            assert vector[layout["cards"]].tolist() == [state.sets_traded, next_value, state.deck_size]
        state = state.apply(rng.choice(state.legal_actions()))
    end = observation(state, 1)[layout["player"]]
    assert end.tolist() == [0, 0, 0, 0, 1]  # the end of the game


def test_an_opponents_cards_and_the_deck_order_are_hidden():
    game = rm.Game(3)
    a = build(game, phase="reinforce", pool=3, hands=[["Alaska"], ["Egypt", "Peru"], []])
    b = build(game, phase="reinforce", pool=3, hands=[["Alaska"], ["Congo", "wild"], []], seed=7)  # other rng too
    data = data_of(b)
    data["deck"] = list(reversed(data["deck"]))
    c = load(data)
    for state in (b, c):
        assert same_view(a, state, 0)
        assert same_view(a, state, 2)
        assert not same_view(a, state, 1)  # player 1 sees its own cards
    # The player's own cards are seen.
    mine = build(game, phase="reinforce", pool=3, hands=[["Iceland"], ["Egypt", "Peru"], []])
    assert not same_view(a, mine, 0)
    assert same_view(a, mine, 2)


def test_other_missions_are_hidden():
    game = rm.Game(4, rm.Rules.preset("us_1993_secret_mission"))
    missions = ["asia+africa", "occupy_24", "destroy_3", "occupy_18_2"]
    a = build(game, phase="attack", missions=missions)
    b = build(game, phase="attack", missions=[missions[0], missions[3], missions[2], missions[1]])
    assert same_view(a, b, 0)
    assert same_view(a, b, 2)
    assert not same_view(a, b, 1)
    assert not same_view(a, b, 3)
    layout = observation_layout(game)
    assert observation(a, 1)[layout["mission"]].sum() == 1
    assert f"your mission: {mission_text('occupy_24')}" in observation_string(a, 1)
    assert mission_text("occupy_24") not in observation_string(a, 0)


def test_the_discard_pile_is_public():
    game = rm.Game(3)
    cards = list(INFANTRY[:3])
    a = build(game, phase="reinforce", pool=3, discard=cards)
    b = build(game, phase="reinforce", pool=3)
    layout = information_state_layout(game)
    assert information_state(a, 0)[layout["discard"]].sum() == 3
    assert information_state(b, 0)[layout["discard"]].sum() == 0


def test_pending_battle_capture_and_count_choice():
    game = rm.Game(3)
    n = len(game.board)
    layout = observation_layout(game)
    owners = {"Alaska": 0, "Kamchatka": 1}
    state = build(game, phase="attack", armies={"Alaska": 10, "Kamchatka": 2}, owner=owners)
    rolling = state.apply(rm.Attack("Alaska", "Kamchatka", 3))
    battle = observation(rolling, 1)[layout["battle"]]
    alaska, kamchatka = game.board.index("Alaska"), game.board.index("Kamchatka")
    assert battle[alaska] == 1
    assert battle[n + kamchatka] == 1
    assert battle[2 * n] == 1
    assert battle[2 * n + 3] == 3
    assert "pending attack: Alaska -> Kamchatka" in observation_string(rolling, 1)
    blitz = observation(state.apply(rm.Blitz("Alaska", "Kamchatka", 2)), 0)[layout["battle"]]
    assert blitz[2 * n + 1] == 1
    assert blitz[2 * n + 3] == 2
    captured = rolling.apply(rm.RollOutcome(0, 2))
    assert captured.phase is rm.Phase.OCCUPY
    occupy = observation(captured, 0)[layout["battle"]]
    assert occupy[2 * n + 2] == 1
    assert occupy[2 * n + 3] == 3
    codec = ActionCodec(game)
    choice = codec.decode(captured, codec.layout["occupy"].start)
    assert isinstance(choice, CountChoice)
    section = observation(choice, 0)[layout["choice"]]
    assert section[3] == 1
    assert section[:3].sum() == 0
    assert np.allclose(np.expm1(section[-3:]), [0, 3, 9])
    assert not observation(captured, 0)[layout["choice"]].any()
    assert "choosing the count of occupy" in observation_string(choice, 0)


def log_scaled(count: float) -> float:
    """The documented scale of an unbounded count: ``log2(1 + x) / 10``, capped at 1."""
    return min(1.0, float(np.log2(1.0 + count)) / LOG_BITS)


@pytest.mark.parametrize(("preset", "max_turns"), [("us_1993", 9), ("risiko", None), ("us_1993_capital", 12)])
def test_scaled_values_along_a_game(preset, max_turns):
    # Every scaled entry in [0, 1], each section as the learning page's table says, from the unscaled vector.
    rules = rm.Rules.preset(preset)
    game = rm.Game(3, rules, max_turns=max_turns) if max_turns else rm.Game(3, rules, max_turns=None)
    rng = random.Random(1)
    state = game.new_initial_state(seed=1, auto_chance=True)
    layout, n = observation_layout(game), len(game.board)
    wilds, deck = game.full_deck.count("wild"), len(game.full_deck)
    for _ in range(400 if max_turns else 150):
        if state.is_terminal():
            break
        for player in range(3):
            raw, scaled = observation(state, player), observation(state, player, scaled=True)
            assert scaled.dtype == np.float32
            assert scaled.min() >= 0.0
            assert scaled.max() <= 1.0
            for name in ("owner", "alive", "phase", "player", "mission", "capitals", "moved"):
                assert np.array_equal(scaled[layout[name]], raw[layout[name]]), name
            expected_armies = [log_scaled(a) for a in state.army_counts]
            assert np.allclose(scaled[layout["armies"]], expected_armies, atol=1e-6)
            hand = scaled[layout["hand"]]
            assert np.array_equal(hand[:n], raw[layout["hand"]][:n])
            assert hand[n] == pytest.approx(state.cards(player).count("wild") / wilds)
            sizes = [min(1.0, len(state.cards((player + k) % 3)) / HAND_SCALE) for k in range(3)]
            assert np.allclose(scaled[layout["hand_sizes"]], sizes)
            traded, value, left = raw[layout["cards"]]
            assert np.allclose(scaled[layout["cards"]], [log_scaled(traded), log_scaled(value), left / deck])
            turn = scaled[layout["turn"]]
            assert turn[0] == pytest.approx(state.turn / max_turns if max_turns else log_scaled(state.turn))
            assert turn[1] == pytest.approx(log_scaled(state.pool), abs=1e-6)
            assert np.array_equal(turn[2:], raw[layout["turn"]][2:])
        state = state.apply(rng.choice(state.legal_actions()))


def test_scaled_counts_saturate_at_the_cap_and_stay_apart_below_it():
    game = rm.Game(3, max_turns=10)
    layout = observation_layout(game)
    armies = {"Alaska": 1022, "Kamchatka": 1023, "Peru": 10**9, "Egypt": 1, "Iceland": 2}
    state = build(game, phase="attack", armies=armies)
    section = observation(state, 0, scaled=True)[layout["armies"]]
    index = game.board.index
    assert section[index("Alaska")] < 1.0
    assert section[index("Kamchatka")] == section[index("Peru")] == 1.0
    assert section[index("Egypt")] == pytest.approx(0.1)
    assert section[index("Iceland")] == pytest.approx(np.log2(3) / 10)
    assert len(set(section[[index(t) for t in ("Egypt", "Iceland", "Alaska")]].tolist())) == 3


def test_scaled_battle_choice_and_discard():
    game = rm.Game(3, defender_decides=True)
    n = len(game.board)
    layout = information_state_layout(game)
    owners = {"Alaska": 0, "Kamchatka": 1}
    state = build(game, phase="attack", armies={"Alaska": 10, "Kamchatka": 2}, owner=owners, discard=["wild"])
    rolling = state.apply(rm.Attack("Alaska", "Kamchatka", 3)).apply(rm.Defend(2))
    vector = information_state(rolling, 1, scaled=True)
    battle = vector[layout["battle"]]
    assert battle[2 * n] == 1
    assert battle[2 * n + 3] == pytest.approx(log_scaled(3))  # the dice, a count on the log scale
    assert battle[2 * n + 4] == 1.0  # the defender's 2 dice of 2
    assert vector[layout["discard"]][n] == 0.5  # one wild of the deck's two
    codec = ActionCodec(game)
    captured = state.apply(rm.Attack("Alaska", "Kamchatka", 3)).apply(rm.Defend(2)).apply(rm.RollOutcome(0, 2))
    choice = codec.decode(captured, codec.layout["occupy"].start)
    section = observation(choice, 0, scaled=True)[layout["choice"]]
    assert np.allclose(section[-3:], [log_scaled(0), log_scaled(3), log_scaled(9)])


def test_bad_arguments():
    game = rm.Game(3)
    state = game.new_initial_state(seed=0, auto_chance=True)
    for view in VIEWS:
        for player in (-1, 3, True, "0", 1.0, None):
            with pytest.raises(InvalidArgumentError, match=r"player must be a player id in 0..2, got"):
                view(state, player)  # type: ignore[arg-type]
        with pytest.raises(InvalidArgumentError, match="GameState"):
            view("state", 0)  # type: ignore[arg-type]
    assert observation(state, np.int64(2)).shape == observation(state, 2).shape
    with pytest.raises(InvalidArgumentError, match="Game or a GameState"):
        observation_layout(3)  # type: ignore[arg-type]


def test_the_learning_page_examples_run():
    from tests.docs_pages import run_page_examples

    result = run_page_examples("learning.rst")
    assert result.failed == 0
    assert result.attempted >= 15


def test_the_piles_being_chosen_are_observed():
    """The 1993 two-player ``ChoosePile`` decision: two deals differ only in the piles, and the player choosing
    must see them, as OpenSpiel's information-state string always did (hostile review, 2026-12-03: every vector
    and the observation string were the same whatever the deal)."""
    from riskmath.envs import information_state, observation_layout, observation_string
    from riskmath.envs.hidden import view_string

    game = rm.Game(2, board="south_america_africa")
    assert game.chooses_piles
    first, second = (game.new_initial_state(seed=s, auto_chance=True) for s in (1, 2))
    assert first.phase is second.phase is rm.Phase.SETUP_PILE
    assert first.position.piles != second.position.piles
    player = first.current_player
    assert view_string(first, player) != view_string(second, player)
    for scaled in (False, True):
        assert not np.array_equal(observation(first, player, scaled=scaled), observation(second, player, scaled=scaled))
        assert not np.array_equal(information_state(first, player), information_state(second, player))
    assert observation_string(first, player) != observation_string(second, player)
    piles = observation_layout(game)["piles"]
    section = observation(first, player)[piles].reshape(-1, 3)
    assert section.sum(axis=1).tolist() == [1.0] * len(game.board)
    assert section.argmax(axis=1).tolist() == first.position.piles
    # A pile taken is zero (the others still shown while chosen); games without piles have no section.
    choice = first.legal_actions()[0]
    rows = observation(first.apply(choice), player)[piles].reshape(-1, 3)
    for t, pile in enumerate(first.position.piles):
        assert rows[t].sum() == (0.0 if pile == choice.pile else 1.0)
    three = observation_layout(rm.Game(3))["piles"]
    assert three.stop == three.start


def test_headquarters_chosen_in_the_open_show_as_they_are_chosen():
    # Capital RISK's headquarters are chosen in turn, in the open (docs/game.rst), and the information-state string
    # showed each choice; the vector showed none until the last, so a learner choosing later could not see what
    # the others took (hostile review of the environments, 2026-12-03).
    game = rm.Game(3, "us_1993_capital", board="south_america_africa_europe")
    state, rng = game.new_initial_state(seed=4, auto_chance=True), random.Random(0)
    while state.phase is not rm.Phase.SETUP_CAPITAL:
        state = state.apply(rng.choice(list(state.legal_actions())))
    layout = observation_layout(game)["capitals"]
    n = len(game.board)
    seen = 0
    while state.phase is rm.Phase.SETUP_CAPITAL:
        chooser = state.current_player
        state = state.apply(rng.choice(list(state.legal_actions())))
        seen += 1
        for viewer in range(game.players):
            section = observation(state, viewer, scaled=False)[layout].reshape(n, game.players)
            assert section.sum() == seen
            where = game.board.index(state.capital(chooser))
            assert section[where, (chooser - viewer) % game.players] == 1.0
    assert seen == game.players
