"""Play without cards (``Rules(cards="none")``): no card is ever in a hand, nothing to trade, saves round-trip.

Every built-in agent plays 2 to 6 players under the option to the end or the turn cap, and every state of the
game (replayed from its record) is checked: every hand empty, the deck and the discard pile empty once the set-up
is over, no trade legal (nor a trade id in the integer codec's mask) and the state sound.  The set-ups that deal
the territory cards (the 1959 deal, the 1993 two-player piles, Secret Mission) still deal them.
"""

from __future__ import annotations

import random

import pytest

import riskmath as rm
from riskmath.agents import AGENTS, SearchAgent
from riskmath.envs import ActionCodec
from riskmath.errors import InvalidArgumentError
from tests.game_helpers import random_action

NO_CARDS = rm.Rules(cards="none")
SETUP = {phase for phase in rm.Phase if phase.value.startswith("setup")}


def agent(name: str) -> object:
    """A built-in agent with defaults (the search agent with a small budget, to stay quick)."""
    return SearchAgent(budget=2) if name == "search" else AGENTS[name]()


def states_of(game: rm.Game, record: rm.GameRecord) -> list[rm.GameState]:
    """Every state of a played game, replayed from its record."""
    state = game.new_initial_state(record.seed, auto_chance=True)
    states = [state]
    for action in record.actions:
        state = state.apply(action)
        states.append(state)
    assert state == record.final
    return states


def check_no_cards(game: rm.Game, states: list[rm.GameState]) -> None:
    codec = ActionCodec(game)
    trades = codec.layout["trade"]
    for state in states:
        assert all(state.cards(p) == () for p in range(game.players)), state
        position = state.position
        if state.phase in SETUP:
            assert not position.discard
        else:
            assert position.deck == []
            assert position.discard == []
        if not state.is_terminal() and not state.is_chance_node():
            assert not any(isinstance(a, rm.TradeCards) for a in state.legal_actions())
            assert not codec.mask(state)[trades].any()
        assert state.phase is not rm.Phase.DRAW
    assert states[-1].problems() == []


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", list(AGENTS))
def test_every_agent_plays_without_a_card_in_a_hand(name, players):
    game = rm.Game(players, NO_CARDS, max_turns=8 if name == "search" else 60)
    record = rm.play(game, [agent(name) for _ in range(players)], seed=players)
    assert record.final.is_terminal()
    states = states_of(game, record)
    check_no_cards(game, states)
    captures = sum(1 for state in states if state.phase is rm.Phase.OCCUPY)
    assert captures > 0  # captures happened, and none drew a card


def test_an_elimination_passes_no_cards_and_the_game_is_won():
    game = rm.Game(3, NO_CARDS, max_turns=200)
    record = rm.play(game, [AGENTS["odds"]() for _ in range(3)], seed=4)
    states = states_of(game, record)
    check_no_cards(game, states)
    eliminated = [s for s in states if sum(s.position.alive) == 2]
    assert eliminated
    assert record.final.winner is not None


@pytest.mark.parametrize(
    "changes",
    [
        {"setup": "deal", "starting_armies_rule": "territories_dealt", "two_player": "none"},  # 1959
        {"two_player": "neutral_1993"},  # the 1993 two-player piles, dealt from the cards
        {"setup": "deal", "missions": "us_1993_12"},  # Secret Mission: the mission cards are not territory cards
        {"capital": "all"},  # the headquarters are chosen, no card needed
        {"setup": "random"},
    ],
)
@pytest.mark.parametrize("players", [2, 3])
def test_set_ups_that_deal_the_territory_cards_still_deal_them(changes, players):
    rules = NO_CARDS.replace(**changes)
    if rules.missions != "none" and players == 2:
        pytest.skip("Secret Mission RISK is for 3 to 6 players")
    game = rm.Game(players, rules, max_turns=40)
    record = rm.play(game, [AGENTS["aggressive"]() for _ in range(players)], seed=11)
    states = states_of(game, record)
    check_no_cards(game, states)
    assert sorted(game.new_initial_state(11).position.deck) == sorted(game.board.territories)  # dealt from these
    played = [s for s in states if s.phase not in SETUP]
    assert played
    assert all(s.owner(t) is not None for t in game.board.territories for s in played)


def test_the_option_is_off_by_default_and_refused_when_unknown():
    assert rm.Rules().cards == "territory"
    assert all(rm.Rules.preset(name).cards == "territory" for name in rm.Rules.presets())
    with pytest.raises(rm.RulesError, match=r"Rules.cards must be one of 'territory', 'none'; got 'no'"):
        rm.Rules(cards="no")


def test_a_state_round_trips_through_json():
    game = rm.Game(4, NO_CARDS, max_turns=60)
    record = rm.play(game, [AGENTS["aggressive"]() for _ in range(4)], seed=2)
    for state in states_of(game, record)[::97]:
        back = rm.GameState.from_json(state.to_json())
        assert back == state
        assert back.game.rules.cards == "none"


def test_a_position_by_hand_takes_no_cards():
    game = rm.Game(3, NO_CARDS)
    names = game.board.territories
    owners = {t: i % 3 for i, t in enumerate(names)}
    armies = dict.fromkeys(names, 2)
    with pytest.raises(InvalidArgumentError, match="these rules play without cards"):
        game.position(owners, armies, cards={0: ["Alaska"]})
    state = game.position(owners, armies, cards={0: []}, seed=1)
    assert state.position.deck == []
    assert state.problems() == []
    rng = random.Random(0)
    for _ in range(200):  # plays on: a capture ends the turn with no card drawn
        if state.is_terminal():
            break
        state = state.apply(random_action(state, rng))
        assert all(state.cards(p) == () for p in range(3))
