"""A turn of play: reinforcements, set trading, fortification, drawing cards, the turn cap.

Positions are built by editing a state's JSON (tests/game_helpers.py).  Expected values are written out from
the public sources of docs/sources.rst (tags in comments) and the Japanese Wikipedia article (preset "article_ja").
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from game_helpers import BONUS, CONTINENTS, after_setup, build, card_total, data_of, edit, play_until

import riskmath as rm

NAMES = rm.Board.classic().territories


def turn_start(game: rm.Game, player: int = 0, phase: rm.Phase = rm.Phase.REINFORCE, **kwargs) -> rm.GameState:
    """The state that begins ``player``'s turn: the previous player ends a fortification phase."""
    before = build(game, phase="fortify", player=(player - 1) % game.players, **kwargs)
    state = before.apply(rm.EndPhase())
    assert (state.phase, state.current_player) == (phase, player)
    return state


def owning(player: int, *continents: str, extra: tuple[str, ...] = ()) -> dict[str, int]:
    """Owners: ``player`` holds the continents and ``extra``; the rest alternate between players 1 and 2."""
    mine = {t for c in continents for t in CONTINENTS[c]} | set(extra)
    others = [t for t in NAMES if t not in mine]
    owner = {t: player for t in mine}
    owner.update({t: 1 + k % 2 for k, t in enumerate(others)})
    return owner


# -- reinforcements (1993 rules [R1]) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("continents", "extra", "expected"),
    [
        # max(3, T // 3) + continent bonuses (Asia 7, North America 5, Europe 5, Africa 3, S. America 2, Australia 2)
        (("Asia",), (), 4 + 7),  # T = 12
        (("North America", "South America"), (), 4 + 5 + 2),  # T = 13
        (("Europe", "Africa"), (), 4 + 5 + 3),  # T = 13
        (("Australia",), (), 3 + 2),  # T = 4: the minimum of 3
        (("South America", "Australia"), ("Japan",), 3 + 2 + 2),  # T = 9
        ((), ("Alaska", "Japan"), 3),  # T = 2, no continent
        ((), CONTINENTS["Asia"][:11], 3),  # 11 of Asia's 12: no bonus
        (("Asia", "Europe", "Africa", "Australia"), ("Alaska",), 10 + 7 + 5 + 3 + 2),  # T = 30
    ],
)
def test_reinforcements_with_continents(continents, extra, expected):
    game = rm.Game(3)
    owner = owning(0, *continents, extra=extra)
    state = turn_start(game, 0, owner=owner)
    assert state.reinforcements(0) == expected
    assert state.pool == expected
    assert sum(BONUS[c] for c in continents) <= expected


def test_reinforcements_for_a_player_holding_all_but_two():
    game = rm.Game(3)
    owner = {t: 0 for t in NAMES} | {"Alaska": 1, "Peru": 2}
    state = turn_start(game, 0, owner=owner)
    # T = 40: 13, plus Asia 7, Europe 5, Africa 3, Australia 2 (not North or South America).
    assert state.pool == 13 + 7 + 5 + 3 + 2
    assert (state.reinforcements(1), state.reinforcements(2)) == (3, 3)


def test_reinforcements_without_minimum_and_rounded_up():
    owner = owning(0, extra=("Alaska", "Japan"))
    # Risiko: no minimum of 3 ([R13]): floor(2 / 3) = 0.  With nothing to place the turn goes on to the attacks.
    state = turn_start(rm.Game(3, rm.Rules.preset("risiko")), 0, rm.Phase.ATTACK, owner=owner)
    assert state.reinforcements(0) == 0
    assert state.pool == 0
    # Rounding up (Hasbro's 2008 FAQ [R9d]): 13 territories -> 5.
    owner = owning(0, "North America", "South America")
    assert turn_start(rm.Game(3, rm.Rules(rounding="ceil")), 0, owner=owner).pool == 5 + 5 + 2


def test_reinforcements_in_a_seeded_game():
    for seed, players in [(1, 3), (2, 4), (3, 5)]:
        state = after_setup(rm.Game(players), seed)
        player = state.current_player
        count = len(state.territories_of(player))
        bonus = sum(b for c, b in BONUS.items() if all(state.owner(t) == player for t in CONTINENTS[c]))
        assert state.pool == state.reinforcements(player) == max(3, count // 3) + bonus


def test_placing_reinforcements():
    state = turn_start(rm.Game(3), 0, owner=owning(0, "Australia"))  # pool 5
    with pytest.raises(rm.IllegalActionError, match=r"armies must be in 1\.\.5, got 6"):
        state.apply(rm.PlaceArmies("Indonesia", 6))
    with pytest.raises(rm.IllegalActionError, match="Siam is not yours"):
        state.apply(rm.PlaceArmies("Siam", 1))
    with pytest.raises(rm.IllegalActionError, match="5 armies are still to be placed"):
        state.apply(rm.EndPhase())
    after = state.apply(rm.PlaceArmies("Indonesia", 3))
    assert (after.phase, after.pool, after.armies("Indonesia")) == (rm.Phase.REINFORCE, 2, 6)
    after = after.apply(rm.PlaceArmies("New Guinea", 2))
    assert (after.phase, after.pool, after.armies("New Guinea")) == (rm.Phase.ATTACK, 0, 5)


def test_experts_cap_loses_armies_that_cannot_be_placed():
    # 1993 rules [R1] [R2e]: at most 12 armies per territory; armies that cannot be placed are lost.
    game = rm.Game(3, rm.Rules.preset("us_1993_experts"))
    owner = owning(0, "Australia")
    state = turn_start(game, 0, owner=owner, armies={t: 11 for t in CONTINENTS["Australia"]})
    assert state.pool == 5
    with pytest.raises(rm.IllegalActionError, match="room for only 1 more"):
        state.apply(rm.PlaceArmies("Indonesia", 2))
    for t in CONTINENTS["Australia"]:
        state = state.apply(rm.PlaceArmies(t, 1))
    assert state.phase is rm.Phase.ATTACK  # the fifth army is lost
    assert [state.armies(t) for t in CONTINENTS["Australia"]] == [12] * 4


# -- set trading (1993 rules [R1] [R2a]) -----------------------------------------------------------------------

# Mapping B ([C4]-[C6]): Alaska, Venezuela, Peru, Argentina, Iceland, Egypt are infantry; Greenland, Alberta,
# Ontario, Quebec are cavalry; Northwest Territory, Western and Eastern United States, Central America, Brazil
# are artillery.


@pytest.mark.parametrize(
    ("preset", "sets_traded", "value"),
    [
        ("us_1993", 0, 4),
        ("us_1993", 1, 6),
        ("us_1993", 4, 12),
        ("us_1993", 5, 15),
        ("us_1993", 6, 20),  # 1993 rules [R1] [R2a]: 15 + 5 (n - 6)
        ("us_1993", 13, 55),
        ("article_ja", 4, 15),  # the article: 4, 6, 8, 10, then 15, 20, 25
        ("article_ja", 6, 25),
        ("us_1993_experts", 7, 11),  # 1993 rules [R1] [R2e]: 4, 5, 6, ...
    ],
)
def test_set_value_follows_the_global_count(preset, sets_traded, value):
    game = rm.Game(3, rm.Rules.preset(preset))
    hands = [["Egypt", "Peru", "Argentina"], [], []]
    state = turn_start(game, 0, hands=hands, sets_traded=sets_traded, owner=owning(0, "Australia"))
    after = state.apply(rm.TradeCards(("Egypt", "Peru", "Argentina")))
    assert after.pool == 5 + value
    assert after.sets_traded == sets_traded + 1
    assert after.cards(0) == ()
    assert data_of(after)["discard"] == ["Egypt", "Peru", "Argentina"]


def test_two_trades_in_a_turn_and_the_count_is_shared():
    game = rm.Game(3)
    hands = [["Egypt", "Peru", "Argentina", "Greenland", "Alberta", "Ontario"], [], []]
    state = turn_start(game, 0, hands=hands, owner=owning(0, "Australia"))
    state = state.apply(rm.TradeCards(("Egypt", "Peru", "Argentina"))).apply(
        rm.TradeCards(("Greenland", "Alberta", "Ontario"))
    )
    assert (state.pool, state.sets_traded) == (5 + 4 + 6, 2)
    # The next player's first set is the game's third: 8.
    hands = [[], ["Quebec", "Iceland", "Brazil"], []]
    state = turn_start(game, 1, hands=hands, sets_traded=state.sets_traded, owner=owning(0, "Australia"))
    state = state.apply(rm.TradeCards(("Quebec", "Iceland", "Brazil")))
    assert (state.current_player, state.pool) == (1, state.reinforcements(1) + 8)


@pytest.mark.parametrize(
    ("trade", "value"),
    [
        (("wild", "Egypt", "Greenland"), 4),  # two cards and a wild
        (("Egypt", "Greenland", "Brazil"), 4),  # one of each
        (("wild", "wild", "Egypt"), 4),
    ],
)
def test_sets_with_wilds_and_mixed(trade, value):
    hands = [["wild", "wild", "Egypt", "Greenland", "Brazil"][:5], [], []]
    state = turn_start(rm.Game(3), 0, hands=hands, owner=owning(0, "Australia"))
    assert state.apply(rm.TradeCards(trade)).pool == 5 + value


def test_fixed_table_values_the_cards():
    # Table F2 (Risiko; [R4a], [R13]): 3 artillery 4, 3 infantry 6, 3 cavalry 8, one of each 10, whatever the count.
    game = rm.Game(3, rm.Rules.preset("risiko"))
    hands = [["Egypt", "Peru", "Argentina", "Greenland", "Alberta", "Ontario", "Brazil", "Iceland", "Quebec"], [], []]
    state = turn_start(game, 0, hands=hands, owner=owning(0, "Australia"), sets_traded=9)
    base = state.pool  # 1 + 2: no minimum of 3
    assert base == 3
    assert state.apply(rm.TradeCards(("Egypt", "Peru", "Argentina"))).pool == base + 6
    assert state.apply(rm.TradeCards(("Greenland", "Alberta", "Ontario"))).pool == base + 8
    assert state.apply(rm.TradeCards(("Brazil", "Iceland", "Quebec"))).pool == base + 10


def test_forced_trade_at_five_cards():
    # 1993 rules [R1] [R2a]: starting a turn with 5 or 6 cards you must trade before placing.
    hands = [["Egypt", "Peru", "Argentina", "Greenland", "Alberta"], [], []]
    state = turn_start(rm.Game(3), 0, hands=hands, owner=owning(0, "Australia"))
    assert not any(isinstance(a, rm.PlaceArmies) for a in state.legal_actions())
    assert all(isinstance(a, rm.TradeCards) for a in state.legal_actions())
    with pytest.raises(rm.IllegalActionError, match="holding 5 cards, a set must be traded first"):
        state.apply(rm.PlaceArmies("Indonesia", 1))
    after = state.apply(rm.TradeCards(("Egypt", "Peru", "Argentina")))
    assert after.apply(rm.PlaceArmies("Indonesia", 1)).pool == after.pool - 1
    # With 4 cards the trade is optional.
    state = turn_start(rm.Game(3), 0, hands=[hands[0][:4], [], []], owner=owning(0, "Australia"))
    assert state.is_legal(rm.PlaceArmies("Indonesia", 5))
    assert state.is_legal(rm.TradeCards(("Egypt", "Peru", "Argentina")))
    # Without a card limit (Risiko) 5 cards force nothing.
    state = turn_start(rm.Game(3, rm.Rules.preset("risiko")), 0, hands=hands, owner=owning(0, "Australia"))
    assert state.is_legal(rm.PlaceArmies("Indonesia", 1))


def test_territory_bonus_once_per_turn_1993():
    # 1993 rules [R1]: +2 armies on a traded card's territory that the player occupies, placed there; at most 2 a turn.
    hands = [["Alaska", "Venezuela", "Peru", "Greenland", "Alberta", "Ontario"], [], []]
    owner = owning(0, "Australia", extra=("Alaska", "Venezuela", "Greenland"))
    state = turn_start(rm.Game(3), 0, hands=hands, owner=owner)
    pool = state.pool
    after = state.apply(rm.TradeCards(("Alaska", "Venezuela", "Peru")))
    assert after.pool == pool + 4  # the set; the bonus is not in the pool
    gained = {t: after.armies(t) - state.armies(t) for t in ("Alaska", "Venezuela")}
    assert sorted(gained.values()) == [0, 2]  # one territory only, even with two matching cards
    second = after.apply(rm.TradeCards(("Greenland", "Alberta", "Ontario")))
    assert second.pool == pool + 4 + 6
    assert second.armies("Greenland") == state.armies("Greenland")  # no second bonus this turn


def test_territory_bonus_per_matching_territory_1963():
    # SMG's edition history [R4a]: 1963/1968, 2 armies per occupied territory shown.
    game = rm.Game(3, rm.Rules.preset("us_1963"))
    hands = [["Alaska", "Venezuela", "Peru"], [], []]
    owner = owning(0, "Australia", extra=("Alaska", "Venezuela", "Peru"))
    state = turn_start(game, 0, hands=hands, owner=owner)
    after = state.apply(rm.TradeCards(("Alaska", "Venezuela", "Peru")))
    assert after.pool == state.pool + 4
    assert [after.armies(t) - state.armies(t) for t in ("Alaska", "Venezuela", "Peru")] == [2, 2, 2]


def test_no_territory_bonus_2003():
    game = rm.Game(3, rm.Rules.preset("euro_2003"))
    hands = [["Alaska", "Venezuela", "Peru"], [], []]
    owner = owning(0, "Australia", extra=("Alaska", "Venezuela", "Peru"))
    state = turn_start(game, 0, hands=hands, owner=owner)
    after = state.apply(rm.TradeCards(("Alaska", "Venezuela", "Peru")))
    assert after.pool == state.pool + 4
    assert [after.armies(t) - state.armies(t) for t in ("Alaska", "Venezuela", "Peru")] == [0, 0, 0]


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (("Egypt", "Peru", "Greenland"), "do not form a set"),  # two infantry and a cavalry
        (("Egypt", "Peru", "Japan"), "card 'Japan' is not in the hand"),
        (("Egypt", "Egypt", "Peru"), "card 'Egypt' is not in the hand"),
        (("wild", "Egypt", "Peru"), "card 'wild' is not in the hand"),
        (("Egypt", "Peru"), "exactly three cards"),
        (("Egypt", "Peru", 3), "exactly three cards"),
        (["Egypt", "Peru", "Argentina"], "exactly three cards"),
        (("Egypt", "Peru", "Atlantis"), "unknown territory 'Atlantis'"),
    ],
)
def test_bad_trades_raise(cards, reason):
    hands = [["Egypt", "Peru", "Argentina", "Greenland"], [], []]
    state = turn_start(rm.Game(3), 0, hands=hands, owner=owning(0, "Australia"))
    before = state.to_json()
    with pytest.raises(rm.IllegalActionError, match=reason):
        state.apply(rm.TradeCards(cards))
    assert state.to_json() == before


# -- fortification (1993 rules [R1]) ---------------------------------------------------------------------------


def fortify_state(preset: str, **kwargs) -> rm.GameState:
    game = rm.Game(3, rm.Rules.preset(preset))
    owner = {
        "Alaska": 0,
        "Northwest Territory": 0,
        "Greenland": 0,
        "Alberta": 1,
        "Kamchatka": 0,
        "Iceland": 2,
        "Argentina": 0,  # cut off from the others
    }
    armies = {"Alaska": 5, "Northwest Territory": 4, "Greenland": 1, "Kamchatka": 3}
    return build(game, phase="fortify", owner=owner, armies=armies, default_owner=lambda t: 1 + t % 2, **kwargs)


def test_fortify_adjacent_1993_one_move_then_the_turn_ends():
    state = fortify_state("us_1993")
    after = state.apply(rm.Fortify("Alaska", "Northwest Territory", 4))
    assert (after.armies("Alaska"), after.armies("Northwest Territory")) == (1, 8)
    assert (after.phase, after.current_player, after.turn) == (rm.Phase.REINFORCE, 1, 2)
    # Greenland is reached only through Northwest Territory: not adjacent to Alaska.
    with pytest.raises(rm.IllegalActionError, match="Alaska does not border Greenland"):
        state.apply(rm.Fortify("Alaska", "Greenland", 1))
    assert not state.is_legal(rm.Fortify("Alaska", "Greenland", 1))
    listed = {(a.source, a.target) for a in state.legal_actions() if isinstance(a, rm.Fortify)}
    assert listed == {
        ("Alaska", "Northwest Territory"),
        ("Alaska", "Kamchatka"),
        ("Northwest Territory", "Alaska"),
        ("Northwest Territory", "Greenland"),
        ("Kamchatka", "Alaska"),
    }


def test_fortify_connected_2003_along_a_chain():
    state = fortify_state("euro_2003")
    after = state.apply(rm.Fortify("Kamchatka", "Greenland", 2))  # Kamchatka - Alaska - NWT - Greenland
    assert (after.armies("Kamchatka"), after.armies("Greenland")) == (1, 3)
    assert after.current_player == 1  # still one move
    with pytest.raises(rm.IllegalActionError, match="no chain of your territories joins Alaska to Argentina"):
        state.apply(rm.Fortify("Alaska", "Argentina", 1))
    cut = edit(
        state,
        owner=[1 if n == "Northwest Territory" else o for n, o in zip(NAMES, data_of(state)["owner"], strict=True)],
    )
    with pytest.raises(rm.IllegalActionError, match="no chain of your territories joins Alaska to Greenland"):
        cut.apply(rm.Fortify("Alaska", "Greenland", 1))


def test_fortify_experts_several_moves_each_territory_once():
    state = fortify_state("us_1993_experts")
    after = state.apply(rm.Fortify("Kamchatka", "Greenland", 2))
    assert (after.phase, after.current_player) == (rm.Phase.FORTIFY, 0)
    for source, target in [("Greenland", "Alaska"), ("Alaska", "Kamchatka"), ("Alaska", "Greenland")]:
        with pytest.raises(rm.IllegalActionError, match="already moved from or to"):
            after.apply(rm.Fortify(source, target, 1))
    after = after.apply(rm.Fortify("Alaska", "Northwest Territory", 4))
    assert [after.armies(t) for t in ("Alaska", "Northwest Territory", "Greenland", "Kamchatka")] == [1, 8, 3, 1]
    assert [a for a in after.legal_actions()] == [rm.EndPhase()]
    after = after.apply(rm.EndPhase())
    assert (after.phase, after.current_player) == (rm.Phase.REINFORCE, 1)


def test_fortify_none_skips_the_phase():
    game = rm.Game(3, rm.Rules(fortify="none"))
    state = build(game, phase="attack")
    after = state.apply(rm.EndPhase())
    assert (after.phase, after.current_player) == (rm.Phase.REINFORCE, 1)
    assert rm.Phase.FORTIFY not in {after.phase, state.phase}


def test_end_of_attacks_leads_to_fortify():
    state = build(rm.Game(3), phase="attack")
    assert state.apply(rm.EndPhase()).phase is rm.Phase.FORTIFY


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (rm.Fortify("Alaska", "Alberta", 1), "Alberta is not yours"),
        (rm.Fortify("Alberta", "Alaska", 1), "Alberta is not yours"),
        (rm.Fortify("Alaska", "Northwest Territory", 5), r"armies must be in 1\.\.4, got 5"),  # leaves 0
        (rm.Fortify("Alaska", "Northwest Territory", 0), r"armies must be in 1\.\.4, got 0"),
        (rm.Fortify("Alaska", "Northwest Territory", -1), r"armies must be in 1\.\.4, got -1"),
        (rm.Fortify("Alaska", "Northwest Territory", True), "armies must be an integer, got True"),
        (rm.Fortify("Alaska", "Northwest Territory", 1.0), "armies must be an integer, got 1.0"),
        (rm.Fortify("Alaska", "Alaska", 1), "same territory"),
        (rm.Fortify("Greenland", "Northwest Territory", 1), "Greenland has no army to spare"),
        (rm.Fortify("Alaska", "Narnia", 1), "unknown territory 'Narnia'"),
        (rm.Attack("Alaska", "Alberta", 1), "expected Fortify or EndPhase"),
    ],
)
def test_illegal_fortifications(action, reason):
    state = fortify_state("us_1993")
    before = state.to_json()
    with pytest.raises(rm.IllegalActionError, match=reason):
        state.apply(action)
    assert not state.is_legal(action)
    assert state.to_json() == before


# -- cards after a turn (1993 rules [R1] [R2a]) ----------------------------------------------------------------


def test_exactly_one_card_after_a_turn_with_captures():
    game = rm.Game(3)
    state = build(game, phase="fortify", captured=True, hands=[["Japan"], [], []])
    assert state.deck_size == 43
    state = state.apply(rm.EndPhase())
    assert state.phase is rm.Phase.DRAW
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert {o.card for o, _ in outcomes} == set(NAMES) - {"Japan"} | {"wild"}
    probability = dict((o.card, p) for o, p in outcomes)
    assert probability["wild"] == Fraction(2, 43)
    assert probability["Alaska"] == Fraction(1, 43)
    after = state.apply(rm.DrawCard("Alaska"))
    assert after.cards(0) == ("Japan", "Alaska")
    assert after.deck_size == 42
    assert (after.phase, after.current_player) == (rm.Phase.REINFORCE, 1)
    with pytest.raises(rm.IllegalActionError, match="not a possible outcome"):
        state.apply(rm.DrawCard("Japan"))


def test_two_captures_in_a_turn_still_earn_one_card():
    # 1993 rules [R1]: "draw exactly one card, however many territories you captured".
    game = rm.Game(3)
    owner = {"Alaska": 0, "Kamchatka": 1, "Alberta": 2, "Northwest Territory": 0}
    state = build(game, owner=owner, armies={"Alaska": 9, "Kamchatka": 1, "Alberta": 1})
    for target in ("Kamchatka", "Alberta"):
        state = state.apply(rm.Attack("Alaska", target, 3)).apply(rm.RollOutcome(0, 1)).apply(rm.Occupy(3))
    assert (state.owner("Kamchatka"), state.owner("Alberta"), state.armies("Alaska")) == (0, 0, 3)
    state = state.apply(rm.EndPhase()).apply(rm.EndPhase())
    assert (state.phase, state.deck_size) == (rm.Phase.DRAW, 44)
    state = state.apply(state.sample_chance())
    assert (state.phase, state.current_player, state.deck_size, len(state.cards(0))) == (rm.Phase.REINFORCE, 1, 43, 1)


def test_no_card_without_a_capture():
    state = build(rm.Game(3), phase="fortify", captured=False)
    after = state.apply(rm.EndPhase())
    assert (after.phase, after.deck_size, after.cards(0)) == (rm.Phase.REINFORCE, 44, ())


def test_adjacent_fortify_after_a_capture_draws():
    state = fortify_state("us_1993", captured=True)
    after = state.apply(rm.Fortify("Alaska", "Northwest Territory", 1))
    assert after.phase is rm.Phase.DRAW


def test_deck_recycling_when_the_deck_is_empty():
    # Hands of 14 cards: no hand limit (forced trades and trade-downs off), or loading refuses them.
    unlimited = rm.Rules(forced_trade_at=None, elimination_trade_at=None)
    game = rm.Game(3, unlimited)
    names = list(NAMES)
    hands = [names[:14], names[14:28], names[28:39]]
    discard = [*names[39:], "wild", "wild"]
    state = build(game, phase="fortify", captured=True, hands=hands, discard=discard)
    assert state.deck_size == 0
    state = state.apply(rm.EndPhase())
    assert state.phase is rm.Phase.DRAW
    assert state.deck_size == 5  # the traded cards, shuffled into a new deck
    assert {o.card for o, _ in state.chance_outcomes()} == {*names[39:], "wild"}
    after = state.apply(rm.DrawCard("wild"))
    assert (after.deck_size, data_of(after)["discard"]) == (4, [])
    assert after.cards(0)[-1] == "wild"
    # Without recycling there is no card to draw.
    game = rm.Game(3, unlimited.replace(deck_recycle=False))
    state = build(game, phase="fortify", captured=True, hands=hands, discard=discard).apply(rm.EndPhase())
    assert (state.phase, state.current_player, len(state.cards(0))) == (rm.Phase.REINFORCE, 1, 14)
    assert card_total(state)["wild"] == 2


# -- turn cap ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cap", [1, 3, 7])
def test_turn_cap_ends_in_a_draw(cap):
    game = rm.Game(3, max_turns=cap)
    turns = set()

    def hasty(state: rm.GameState, rng: random.Random) -> Any:
        """A random action, or ending the phase three times in ten where it may."""
        turns.add(state.turn)
        legal = state.legal_actions()
        ends = [a for a in legal if isinstance(a, rm.EndPhase)]
        return ends[0] if ends and rng.random() < 0.3 else rng.choice(legal)

    start = game.new_initial_state(seed=cap, auto_chance=True)
    state = play_until(start, rm.GameState.is_terminal, random.Random(cap), choose=hasty, check_every=1)
    assert state.turn == cap
    assert max(turns) == cap
    assert (state.winner, state.draw) == (None, True)
    assert state.returns() == [0.0, 0.0, 0.0]
    assert state.current_player == -4
    assert list(state.legal_actions()) == []
    with pytest.raises(rm.IllegalActionError, match="GAME_OVER"):
        state.apply(rm.EndPhase())


def test_rules_turn_cap_and_override():
    assert rm.Game(3, rm.Rules(turn_cap=5)).max_turns == 5
    assert rm.Game(3, rm.Rules(turn_cap=5), max_turns=2).max_turns == 2
    with pytest.raises(rm.InvalidArgumentError, match="max_turns"):
        rm.Game(3, max_turns=0)


def test_a_turn_with_nothing_to_place_may_still_trade():
    # Risiko has no minimum of 3: with 2 territories a turn starts with 0 armies to place; holding a set, the
    # player may trade it (and place the armies) or end the reinforcement with EndPhase.
    game = rm.Game(3, rm.Rules.preset("risiko"))
    names = game.board.territories
    owner = {names[0]: 0, names[1]: 0}
    position = build(
        game,
        owner=owner,
        default_owner=lambda t: 1 + t % 2,
        hands=[["wild", names[5], names[6]], [], []],
        phase="attack",
        player=2,
    )
    # End player 2's turn to reach player 0's reinforcement.
    position = position.apply(rm.EndPhase())
    position = play_until(
        position,
        lambda s: s.current_player == 0 and s.phase is rm.Phase.REINFORCE,
        random.Random(0),
        choose=lambda s, _: s.sample_chance() if s.is_chance_node() else rm.EndPhase(),
    )
    assert position.pool == 0
    legal = list(position.legal_actions())
    assert rm.EndPhase() in legal
    assert any(isinstance(a, rm.TradeCards) for a in legal)
    ended = position.apply(rm.EndPhase())
    assert ended.phase is rm.Phase.ATTACK
    traded = position.apply(next(a for a in legal if isinstance(a, rm.TradeCards)))
    assert traded.pool > 0
    with pytest.raises(rm.IllegalActionError, match="armies are still to be placed"):
        traded.apply(rm.EndPhase())
