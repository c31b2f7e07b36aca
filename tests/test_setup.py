"""Set-up methods: claiming in turn, dealing, random set-up, the two-player neutral games, missions, capitals.

Sources (tags of docs/sources.rst): the 1993 US rules [R1] (starting armies, set-up methods, two players, Secret
Mission and Capital RISK), SMG's edition history [R4a], the Risk FAQ [R5b], the 1959 rules [R6], a two-player page
[R12b], and the Japanese Wikipedia article's two-player game (preset "article_ja").
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from game_helpers import card_total, data_of

import riskmath as rm

# 1993 rules [R1].
STARTING_1993 = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}


def totals(state: rm.GameState) -> list[int]:
    """Armies of every owner (players, then neutrals)."""
    return [sum(state.armies(t) for t in state.territories_of(o)) for o in range(state.game.owners)]


def counts(state: rm.GameState) -> list[int]:
    return [len(state.territories_of(o)) for o in range(state.game.owners)]


def deal_all(state: rm.GameState) -> rm.GameState:
    while state.phase is rm.Phase.SETUP_DEAL:
        outcomes = state.chance_outcomes()
        # Each remaining card is equally likely (a shuffled deck without the wild cards).
        assert {p for _, p in outcomes} == {Fraction(1, state.deck_size)}
        assert all(o.card != "wild" for o, _ in outcomes)
        state = state.apply(state.sample_chance())
    return state


def check_first_turn(state: rm.GameState, first: int) -> None:
    # 1993 rules [R1]: the player who placed (was dealt) first takes the first turn; the wild cards go back.
    assert state.phase is rm.Phase.REINFORCE
    assert (state.current_player, state.turn) == (first, 1)
    # Capital RISK (1993 Capital RISK rules [R1] [R3c]): the headquarters cards stay out of the deck.
    headquarters = {state.capital(p) for p in range(state.game.players)} - {None}
    assert state.deck_size == 44 - len(headquarters)
    territories = [t for t in state.game.board.territories if t not in headquarters]
    assert card_total(state) == Counter({**{t: 1 for t in territories}, "wild": 2})
    assert state.pool == state.reinforcements(first)
    assert state.problems() == []


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("first", [0, 2])
def test_claim_in_turn_then_place_one_at_a_time(players, first):
    # 1993 rules [R1]: claim unoccupied territories one army at a time in turn, then place one army at a time.
    game = rm.Game(players)
    state = game.new_initial_state(seed=players)
    assert state.phase is rm.Phase.SETUP_ORDER
    assert state.chance_outcomes() == [(rm.FirstPlayer(p), Fraction(1, players)) for p in range(players)]
    state = state.apply(rm.FirstPlayer(first))
    rng = random.Random(first)
    claimers = []
    while state.phase is rm.Phase.SETUP_CLAIM:
        legal = list(state.legal_actions())
        assert len(legal) == 42 - len(claimers)  # every unclaimed territory, one army
        assert all(a.armies == 1 and state.owner(a.territory) == -1 for a in legal)
        claimers.append(state.current_player)
        state = state.apply(rng.choice(legal))
    assert claimers == [(first + k) % players for k in range(42)]
    expected = [42 // players + ((p - first) % players < 42 % players) for p in range(players)]
    assert counts(state) == expected
    assert all(state.armies(t) == 1 for t in game.board.territories)
    placers = []
    while state.phase is rm.Phase.SETUP_PLACE:
        legal = list(state.legal_actions())
        assert all(a.armies == 1 and state.owner(a.territory) == state.current_player for a in legal)
        placers.append(state.current_player)
        state = state.apply(rng.choice(legal))
    assert len(placers) == (STARTING_1993[players] * players) - 42
    assert placers[: 2 * players] == [(first + 42 + k) % players for k in range(2 * players)]
    assert totals(state) == [STARTING_1993[players]] * players
    check_first_turn(state, first)


def test_claim_refuses_claimed_territories_and_several_armies():
    state = rm.Game(3).new_initial_state(seed=0).apply(rm.FirstPlayer(0)).apply(rm.PlaceArmies("Alaska"))
    with pytest.raises(rm.IllegalActionError, match="Alaska is already claimed"):
        state.apply(rm.PlaceArmies("Alaska"))
    with pytest.raises(rm.IllegalActionError, match=r"armies must be in 1\.\.1"):
        state.apply(rm.PlaceArmies("Peru", 2))


def test_two_players_without_neutral_claim_40_each():
    game = rm.Game(2, rm.Rules(two_player="none"))
    state = game.new_initial_state(seed=3, auto_chance=True)
    assert state.phase is rm.Phase.SETUP_CLAIM
    rng = random.Random(3)
    while state.phase.name.startswith("SETUP"):
        state = state.apply(rng.choice(state.legal_actions()))
    assert counts(state) == [21, 21]
    assert totals(state) == [40, 40]


# 1993 rules [R1]: deal all 42 cards; with 4 or 5 players two players get one more (the first two dealt to).
@pytest.mark.parametrize(
    ("players", "first", "expected"),
    [
        (3, 1, [14, 14, 14]),
        (4, 0, [11, 11, 10, 10]),
        (4, 1, [10, 11, 11, 10]),
        (5, 3, [8, 8, 8, 9, 9]),
        (6, 5, [7, 7, 7, 7, 7, 7]),
    ],
)
def test_deal_territory_cards(players, first, expected):
    game = rm.Game(players, rm.Rules(setup="deal"))
    state = game.new_initial_state(seed=1).apply(rm.FirstPlayer(first))
    assert state.phase is rm.Phase.SETUP_DEAL
    assert state.deck_size == 42  # the wild cards are out during the deal
    state = deal_all(state)
    assert state.phase is rm.Phase.SETUP_PLACE
    assert counts(state) == expected
    assert all(state.armies(t) == 1 for t in game.board.territories)
    assert state.current_player == first
    rng = random.Random(players)
    while state.phase is rm.Phase.SETUP_PLACE:
        state = state.apply(rng.choice(state.legal_actions()))
    assert totals(state) == [STARTING_1993[players]] * players
    check_first_turn(state, first)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_setup_is_all_chance(players):
    game = rm.Game(players, rm.Rules(setup="random"))
    state = game.new_initial_state(seed=11)
    placements = 0
    while state.phase.name.startswith("SETUP"):
        assert state.is_chance_node()
        assert state.current_player == -1
        assert list(state.legal_actions()) == []
        if state.phase is rm.Phase.SETUP_PLACE:
            outcomes = state.chance_outcomes()
            owner = state.owner(outcomes[0][0].territory)
            # A uniformly random territory of the owner placing now.
            assert sorted(o.territory for o, _ in outcomes) == sorted(state.territories_of(owner))
            assert {p for _, p in outcomes} == {Fraction(1, len(outcomes))}
            placements += 1
        state = state.apply(state.sample_chance())
    start = STARTING_1993[players]
    assert totals(state)[:players] == [start] * players
    assert placements == sum(totals(state)) - 42
    check_first_turn(state, state.current_player)


def test_neutral_1993_two_player_setup():
    # [R1] [R3b]: the cards are dealt into three piles of 14; each player chooses a pile (the first player first),
    # the last pile is neutral; 1 army each; then each turn a player places 2 of their own armies on 1 or 2 of
    # their territories, then 1 neutral army; 40 each and 40 neutral.
    game = rm.Game(2)
    assert (game.neutrals, game.owners) == (1, 3)
    state = deal_all(game.new_initial_state(seed=5).apply(rm.FirstPlayer(1)))
    assert state.phase is rm.Phase.SETUP_PILE
    assert (state.current_player, list(state.legal_actions())) == (1, [rm.ChoosePile(k) for k in range(3)])
    state = state.apply(rm.ChoosePile(1))
    assert (state.current_player, list(state.legal_actions())) == (0, [rm.ChoosePile(0), rm.ChoosePile(2)])
    with pytest.raises(rm.IllegalActionError, match=r"pile must be one of the piles left, \[0, 2\]; got 1"):
        state.apply(rm.ChoosePile(1))
    state = state.apply(rm.ChoosePile(2))
    assert state.phase is rm.Phase.SETUP_PLACE
    assert counts(state) == [14, 14, 14]
    assert totals(state) == [14, 14, 14]
    turns = {0: 0, 1: 0}
    rng = random.Random(5)
    while state.phase is rm.Phase.SETUP_PLACE:
        player = state.current_player
        turns[player] += 1
        # Two own armies: on one territory, or one and one.
        legal = list(state.legal_actions())
        assert {a.armies for a in legal} == {1, 2}
        assert {state.owner(a.territory) for a in legal} == {player}
        first = rng.choice(legal)
        state = state.apply(first)
        if first.armies == 1:
            assert state.current_player == player
            assert {a.armies for a in state.legal_actions()} == {1}
            state = state.apply(rng.choice(state.legal_actions()))
        # Then one neutral army, placed by the same player; their own territories are refused.
        assert state.current_player == player
        legal = list(state.legal_actions())
        assert {a.armies for a in legal} == {1}
        assert {state.owner(a.territory) for a in legal} == {2}
        with pytest.raises(rm.IllegalActionError, match="not held by neutral"):
            state.apply(rm.PlaceArmies(state.territories_of(player)[0]))
        state = state.apply(rng.choice(legal))
    assert turns == {0: 13, 1: 13}  # 26 more armies each, 2 a turn
    assert totals(state) == [40, 40, 40]
    check_first_turn(state, 1)


def test_neutral_article_two_player_setup():
    # The article: claim one at a time, alternately, 14 each; the other 14 are neutral with 2 armies each
    # (28 in all); the rest of the 40 go one at a time on the players' own territories.
    game = rm.Game(2, rm.Rules.preset("article_ja"))
    state = game.new_initial_state(seed=2).apply(rm.FirstPlayer(0))
    rng = random.Random(2)
    claimers = []
    while state.phase is rm.Phase.SETUP_CLAIM:
        claimers.append(state.current_player)
        state = state.apply(rng.choice(state.legal_actions()))
    assert claimers == [0, 1] * 14
    assert counts(state) == [14, 14, 14]
    neutral = state.territories_of(2)
    assert [state.armies(t) for t in neutral] == [2] * 14
    placers = []
    while state.phase is rm.Phase.SETUP_PLACE:
        legal = list(state.legal_actions())
        assert all(a.armies == 1 and state.owner(a.territory) == state.current_player for a in legal)
        placers.append(state.current_player)
        state = state.apply(rng.choice(legal))
    assert placers == [0, 1] * 26
    assert totals(state) == [40, 40, 28]
    check_first_turn(state, 0)


@pytest.mark.parametrize("setup", ["deal", "random"])
def test_neutral_article_with_dealt_territories(setup):
    # Engine fix: dealing (or a random set-up) with the article's neutral gives 14 territories to each player and
    # 14 neutral territories of 2 armies each, as the claim set-up does (before, the neutral got nothing).
    game = rm.Game(2, rm.Rules.preset("article_ja").replace(setup=setup))
    state = game.new_initial_state(seed=4, auto_chance=True)
    rng = random.Random(4)
    while state.phase.name.startswith("SETUP"):
        state = state.apply(rng.choice(state.legal_actions()))
    assert counts(state) == [14, 14, 14]
    assert totals(state) == [40, 40, 28]
    assert [state.armies(t) for t in state.territories_of(2)] == [2] * 14
    check_first_turn(state, state.current_player)


def test_neutrals_2003_two_player_setup():
    # [R4a] [R12b]: 36 each and four neutrals of 24; deal 9 to each player and 6 to each neutral, 1 army each;
    # then players place 3 a turn and each neutral 1 a turn.
    game = rm.Game(2, rm.Rules.preset("euro_2003"))
    assert (game.neutrals, game.owners) == (4, 6)
    state = deal_all(game.new_initial_state(seed=8).apply(rm.FirstPlayer(0)))
    assert counts(state) == [9, 9, 6, 6, 6, 6]
    rng = random.Random(8)
    sequence = []  # (player to move, owner of the territory placed on, armies)
    while state.phase is rm.Phase.SETUP_PLACE:
        action = rng.choice(state.legal_actions())
        sequence.append((state.current_player, state.owner(action.territory), action.armies))
        state = state.apply(action)
    assert totals(state) == [36, 36, 24, 24, 24, 24]
    # Turn by turn: 3 own armies (possibly split), then one army on each neutral in order, placed by the player.
    turns: list[list[tuple[int, int]]] = []
    for player, owner, armies in sequence:
        if owner == player and (not turns or turns[-1][-1][0] != player):
            turns.append([])
        turns[-1].append((owner, armies))
    assert len(turns) == 18
    for k, turn in enumerate(turns):
        player = k % 2
        own = sum(a for o, a in turn if o == player)
        assert own == 3
        assert [o for o, _ in turn if o != player] == [2, 3, 4, 5]
        assert all(a == 1 for o, a in turn if o != player)
    check_first_turn(state, 0)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_secret_mission_setup_deals_missions(players):
    # [R1] [R3a]: missions first (the 12-card US deck without the destroy cards of absent colors; one each),
    # then the territories are dealt and the armies placed.
    game = rm.Game(players, rm.Rules.preset("us_1993_secret_mission"))
    state = game.new_initial_state(seed=players).apply(rm.FirstPlayer(0))
    assert state.phase is rm.Phase.SETUP_MISSION
    deck = {
        "asia+south_america",
        "asia+africa",
        "north_america+africa",
        "north_america+australia",
        "occupy_18_2",
        "occupy_24",
        *(f"destroy_{k}" for k in range(players)),
    }
    dealt = []
    while state.phase is rm.Phase.SETUP_MISSION:
        outcomes = state.chance_outcomes()
        assert {o.card for o, _ in outcomes} == deck - set(dealt)
        assert {p for _, p in outcomes} == {Fraction(1, len(deck) - len(dealt))}
        outcome = outcomes[len(dealt)][0]
        dealt.append(outcome.card)
        state = state.apply(outcome)
    assert [state.mission(p) for p in range(players)] == dealt
    assert len(set(dealt)) == players
    assert state.phase is rm.Phase.SETUP_DEAL
    state = deal_all(state)
    rng = random.Random(players)
    while state.phase is rm.Phase.SETUP_PLACE:
        state = state.apply(rng.choice(state.legal_actions()))
    assert totals(state) == [STARTING_1993[players]] * players
    check_first_turn(state, 0)


def test_secret_mission_needs_three_players():
    with pytest.raises(rm.RulesError, match="3 to 6 players"):
        rm.Game(2, rm.Rules.preset("us_1993_secret_mission"))


def test_capital_setup_chooses_headquarters_in_turn():
    # 1993 Capital RISK rules [R1] [R3c]: after deployment each player picks one of their territories as headquarters.
    game = rm.Game(3, rm.Rules.preset("us_1993_capital"))
    state = game.new_initial_state(seed=6, auto_chance=True)
    first = state.current_player
    rng = random.Random(6)
    while state.phase in (rm.Phase.SETUP_CLAIM, rm.Phase.SETUP_PLACE):
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.phase is rm.Phase.SETUP_CAPITAL
    assert first != 0  # the choices go round the table from the first player
    chosen = {}
    for k in range(3):
        player = (first + k) % 3
        assert state.current_player == player
        legal = list(state.legal_actions())
        assert legal == [rm.ChooseCapital(t) for t in state.territories_of(player)]
        other = state.territories_of((player + 1) % 3)[0]
        with pytest.raises(rm.IllegalActionError, match=f"{other} is not yours"):
            state.apply(rm.ChooseCapital(other))
        with pytest.raises(rm.IllegalActionError, match="expected ChooseCapital"):
            state.apply(rm.PlaceArmies(legal[0].territory))
        state = state.apply(legal[-1])
        chosen[player] = legal[-1].territory
        assert state.capital(player) == legal[-1].territory
    # Engine fix: the headquarters are indexed by player (they were stored in the order of choice).
    assert [state.capital(p) for p in range(3)] == [chosen[p] for p in range(3)]
    assert data_of(state)["capitals"] == [state.game.board.index(chosen[p]) for p in range(3)]
    check_first_turn(state, first)


def test_setup_cap_per_territory():
    # The Risk FAQ [R5b] (old UK rules): at most 4 armies on a territory during the set-up.
    game = rm.Game(3, rm.Rules(setup="deal", setup_cap_per_territory=4))
    state = deal_all(game.new_initial_state(seed=9).apply(rm.FirstPlayer(0)))
    territory = state.territories_of(0)[0]
    while state.phase is rm.Phase.SETUP_PLACE:
        legal = list(state.legal_actions())
        player = state.current_player
        mine = [a for a in legal if a.territory == territory]
        if player == 0 and state.armies(territory) == 4:
            assert mine == []
            with pytest.raises(rm.IllegalActionError, match="has room for only 0 more armies"):
                state.apply(rm.PlaceArmies(territory))
            state = state.apply(legal[0])
        else:
            state = state.apply(mine[0] if mine else legal[0])
    assert max(state.armies(t) for t in game.board.territories) == 4
    assert totals(state) == [35, 35, 35]


def test_setup_actions_before_the_first_player_is_known():
    state = rm.Game(3).new_initial_state(seed=0)
    with pytest.raises(rm.IllegalActionError, match="not a possible outcome"):
        state.apply(rm.PlaceArmies("Alaska"))
    with pytest.raises(rm.IllegalActionError, match="not a possible outcome"):
        state.apply(rm.FirstPlayer(3))


def test_1959_gives_one_army_per_dealt_territory_and_no_more():
    # The 1959 US rules [R6] [R5b]: the game dealt the territories, one army each, "no further starting armies".
    game = rm.Game(4, rm.Rules.preset("us_1959"))
    state = deal_all(game.new_initial_state(seed=4).apply(rm.FirstPlayer(1)))
    assert state.phase is rm.Phase.REINFORCE  # no placement round
    held = [len(state.territories_of(p)) for p in range(4)]
    assert sorted(held) == [10, 10, 11, 11]
    assert totals(state) == held


@pytest.mark.parametrize("two_player", ["neutral_1993", "neutrals_2003"])
def test_territories_dealt_gives_the_neutrals_no_more_armies_either(two_player):
    # Found by a rules review: under "one army on each territory received and nothing more" (1959) the players got
    # no more, but a two-player neutral still had its 40 (or 24) starting armies placed for it.
    game = rm.Game(2, rm.Rules.preset("us_1959").replace(two_player=two_player))
    state, rng = game.new_initial_state(seed=1, auto_chance=True), random.Random(1)
    while state.turn == 0:
        state = state.apply(rng.choice(state.legal_actions()))
    for owner in range(game.owners):
        held = state.territories_of(owner)
        assert held, owner
        assert all(state.armies(t) == 1 for t in held), (owner, two_player)
    assert state.problems() == []


@pytest.mark.parametrize("seed", range(5))
def test_a_random_set_up_keeps_the_set_up_cap(seed):
    # The cap of [R5b] held in the placed set-up only: the random set-up (a chance node) ignored it unseen (a
    # mutation test), and the invariants cannot tell, as after the set-up only the play cap holds.
    game = rm.Game(3, rm.Rules(setup="random", setup_cap_per_territory=4))
    state = game.new_initial_state(seed=seed, auto_chance=True)
    assert max(state.armies(t) for t in game.board.territories) <= 4
    assert totals(state) == [35, 35, 35]
    assert state.problems() == []


def test_a_board_too_small_names_the_two_player_rule_only_where_it_adds_owners():
    # With six players the message named Rules.two_player='neutral_1993', which plays no part (hostile review).
    with pytest.raises(rm.BoardError) as refused:
        rm.Game(6, "us_1993_capital", board="classic:Australia")
    assert str(refused.value) == "board 'classic:Australia' has 4 territories: 6 players need at least 6, one each"


# -- loaded set-up states (2026-12-04, a fuzz of saved states): armies come from the starting armies ---------------
def _setup_state(preset: str, phase: rm.Phase, players: int = 3) -> rm.GameState:
    state = rm.Game(players, rm.Rules.preset(preset)).new_initial_state(seed=0, auto_chance=True)
    while state.phase is not phase:
        state = state.apply(state.legal_actions()[0])
    return state


def _loaded(state: rm.GameState, **changes) -> rm.GameState:
    import json

    data = json.loads(state.to_json())
    for key, change in changes.items():
        data[key] = change(data[key])
    return rm.GameState.from_json(json.dumps(data))


def test_a_claim_without_the_armies_it_needs_is_refused():
    # setup_left [35, 2, 35] at the first claim loaded, and player 1's claims ran it to -12.
    state = _setup_state("us_1993", rm.Phase.SETUP_CLAIM)
    with pytest.raises(rm.StateError, match="player 1 has 0 armies on the board and 2 left to place during the set-up"):
        _loaded(state, setup_left=lambda left: [left[0], 2, left[2]])


@pytest.mark.parametrize(
    ("preset", "phase"), [("us_1993", rm.Phase.SETUP_PLACE), ("us_1993_capital", rm.Phase.SETUP_CAPITAL)]
)
def test_territories_handed_to_another_player_in_the_set_up_are_refused(preset, phase):
    # Player 0's territories given to player 1 loaded; in Capital RISK the player left without territories then had
    # no legal action in SETUP_CAPITAL (a non-terminal state with an empty legal_actions()).
    state = _setup_state(preset, phase)
    with pytest.raises(rm.StateError, match="player 0 holds no territory") as refused:
        _loaded(state, owner=lambda owner: [1 if o == 0 else o for o in owner])
    assert "player 1 has" in str(refused.value)


def test_every_set_up_state_keeps_its_armies():
    # The invariant holds where armies are capped on a small board (fewer placed than started with, never more).
    game = rm.Game(2, rm.Rules.preset("us_1993_experts"), "south_america_africa")
    state, rng = game.new_initial_state(seed=1, auto_chance=True), random.Random(1)
    while state.turn == 0:
        assert state.problems() == []
        state = state.apply(rng.choice(list(state.legal_actions())))


def test_a_deal_without_the_armies_it_needs_is_refused():
    # The fuzz's second case: a deal (us_1959) loaded with one player's armies gone; the deal then drove its count
    # below 0 at the first territory dealt to it.
    state = rm.Game(4, rm.Rules.preset("us_1959")).new_initial_state(seed=0)
    while state.phase is not rm.Phase.SETUP_DEAL:
        state = state.apply(state.sample_chance()) if state.is_chance_node() else state.apply(state.legal_actions()[0])
    with pytest.raises(rm.StateError, match="player 3 has 0 armies on the board and 0 left to place"):
        _loaded(state, setup_left=lambda left: [*left[:3], 0])
