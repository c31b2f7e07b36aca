"""Secret Mission RISK and Capital RISK: when a mission or the headquarters decide the game.

Sources (tags of docs/sources.rst): the 1993 Secret Mission rules [R1] [R3a] (the 12-card US deck, the destroy
cards, "if X is your own colour, your mission becomes: occupy 24", another player's kill completes the mission in
the 1993 example), Domination's ``risk.cards`` [C7] (the European card text's fallback), and the 1993 Capital RISK
rules [R1] [R3c] (all opposing headquarters while holding your own; the shorter game needs 2 of them with 4
players, 3 with 5 or 6).
"""

from __future__ import annotations

from game_helpers import CONTINENTS, build, edit

import riskmath as rm
from riskmath.game.missions import mission_text, missions_for

NAMES = rm.Board.classic().territories
MISSION = rm.Rules.preset("us_1993_secret_mission")


def mission_game(players: int = 3, **changes) -> rm.Game:
    return rm.Game(players, MISSION.replace(**changes))


def test_mission_decks():
    # [R1] [R3a]: 4 continent pairs, 2 occupation missions and one destroy card per colour in play (12 with 6 players).
    assert len(missions_for("us_1993_12", 6)) == 12
    assert missions_for("us_1993_12", 3) == (
        "asia+south_america",
        "asia+africa",
        "north_america+africa",
        "north_america+australia",
        "occupy_18_2",
        "occupy_24",
        "destroy_0",
        "destroy_1",
        "destroy_2",
    )
    assert len(missions_for("euro_14", 6)) == 14  # the European deck adds the two "+ a third continent" cards
    assert mission_text("asia+africa") == "Conquer the continents of ASIA and AFRICA."


def capture_position(game: rm.Game, missions: list[str], owner: dict[str, int], **kwargs) -> rm.GameState:
    """Player 0 about to capture Kamchatka (1 army) from Alaska (6 armies)."""
    owner = {"Alaska": 0, **owner}
    armies = {"Alaska": 6, "Kamchatka": 1} | kwargs.pop("armies", {})
    return build(game, owner=owner, armies=armies, missions=missions, **kwargs)


def capture(state: rm.GameState) -> rm.GameState:
    return state.apply(rm.Attack("Alaska", "Kamchatka", 3)).apply(rm.RollOutcome(0, 1))


def test_continent_pair_mission_wins_on_the_capture():
    # Player 0 holds North America and 3 of Australia's 4 territories, and captures the fourth.
    game = mission_game()
    owner = {t: 0 for t in CONTINENTS["North America"] + CONTINENTS["Australia"]}
    owner |= {"Eastern Australia": 1, "Western Australia": 0, "New Guinea": 0}
    state = build(
        game,
        owner=owner,
        default_owner=lambda t: 1 + t % 2,
        armies={"New Guinea": 5, "Eastern Australia": 1},
        missions=["north_america+australia", "occupy_24", "asia+africa"],
    )
    assert not state.mission_complete(0)
    state = state.apply(rm.Attack("New Guinea", "Eastern Australia", 3)).apply(rm.RollOutcome(0, 1))
    assert state.is_terminal()
    assert (state.winner, state.returns()) == (0, [1.0, 0.0, 0.0])
    assert state.armies("Eastern Australia") == 3  # the least move was made
    assert state.problems() == []


def test_continent_pair_needs_both():
    game = mission_game()
    owner = {t: 0 for t in CONTINENTS["North America"]}
    state = build(
        game,
        owner=owner,
        default_owner=lambda t: 1 + t % 2,
        missions=["north_america+africa", "asia+africa", "occupy_24"],
    )
    assert not state.mission_complete(0)


def test_occupy_24_mission():
    game = mission_game()
    mine = [t for t in NAMES if t not in ("Kamchatka",)][:23]
    owner = {t: 0 for t in mine} | {"Kamchatka": 1}
    state = capture_position(
        game, ["occupy_24", "asia+africa", "occupy_18_2"], owner, default_owner=lambda t: 1 + t % 2
    )
    assert len(state.territories_of(0)) == 23
    assert not state.mission_complete(0)
    state = capture(state)
    assert (state.winner, state.phase) == (0, rm.Phase.GAME_OVER)


def test_occupy_18_with_two_armies_each_counts_after_the_move():
    game = mission_game()
    mine = ["Alaska", *[t for t in NAMES if t not in ("Alaska", "Kamchatka")][:16]]  # 17 territories
    owner = {t: 0 for t in mine} | {"Kamchatka": 1}
    state = capture_position(
        game, ["occupy_18_2", "asia+africa", "occupy_24"], owner, default_owner=lambda t: 1 + t % 2, armies={}
    )
    state = capture(state)
    assert state.phase is rm.Phase.OCCUPY  # Kamchatka holds no army yet: 17 territories with 2
    assert not state.mission_complete(0)
    assert state.apply(rm.Occupy(3)).winner == 0  # Alaska 3, Kamchatka 3: 18 with at least 2


def test_occupy_18_with_one_army_short():
    game = mission_game()
    mine = [t for t in NAMES if t != "Kamchatka"][:18]
    owner = {t: 0 for t in mine}
    armies = {t: 2 for t in mine} | {mine[-1]: 1}
    state = build(
        game,
        owner=owner,
        default_owner=lambda t: 1 + t % 2,
        armies=armies,
        missions=["occupy_18_2", "asia+africa", "occupy_24"],
    )
    assert not state.mission_complete(0)
    full = build(
        game,
        owner=owner,
        default_owner=lambda t: 1 + t % 2,
        armies=2,
        missions=["occupy_18_2", "asia+africa", "occupy_24"],
    )
    assert full.mission_complete(0)


def test_occupy_18_completed_by_placing_reinforcements():
    # Engine fix: with mission_check="immediate" a mission completed by placing armies wins at once (before,
    # it was only checked after a capture).
    game = mission_game()
    mine = [t for t in NAMES if t != "Kamchatka"][:18]
    owner = {t: 0 for t in mine}
    armies = {t: 2 for t in mine} | {mine[-1]: 1}
    state = build(
        game,
        owner=owner,
        default_owner=lambda t: 1 + t % 2,
        armies=armies,
        phase="reinforce",
        pool=6,
        missions=["occupy_18_2", "asia+africa", "occupy_24"],
    )
    after = state.apply(rm.PlaceArmies(mine[0], 1))
    assert not after.is_terminal()
    after = state.apply(rm.PlaceArmies(mine[-1], 1))
    assert (after.is_terminal(), after.winner) == (True, 0)


def test_occupy_18_completed_by_fortifying():
    game = mission_game()
    mine = ["Alaska", "Northwest Territory", *[t for t in NAMES if t not in ("Alaska", "Northwest Territory")][:16]]
    owner = {t: 0 for t in mine}
    armies = {t: 2 for t in mine} | {"Alaska": 4, "Northwest Territory": 1}
    state = build(
        game,
        owner=owner,
        default_owner=lambda t: 1 + t % 2,
        armies=armies,
        phase="fortify",
        missions=["occupy_18_2", "asia+africa", "occupy_24"],
    )
    assert not state.mission_complete(0)
    after = state.apply(rm.Fortify("Alaska", "Northwest Territory", 2))
    assert (after.is_terminal(), after.winner) == (True, 0)


def elimination_position(game: rm.Game, missions: list[str], attacker: int = 0) -> rm.GameState:
    """``attacker`` (from Alaska) about to eliminate player 1 (Kamchatka only); 4 players, so play goes on."""
    others = [p for p in range(game.players) if p not in (1, attacker)]
    return build(
        game,
        owner={"Alaska": attacker, "Kamchatka": 1},
        default_owner=lambda t: others[t % len(others)] if t % 3 else attacker,
        armies={"Alaska": 6, "Kamchatka": 1},
        missions=missions,
        player=attacker,
    )


def test_destroy_mission_by_the_holder():
    game = mission_game(4)
    state = capture(elimination_position(game, ["destroy_1", "occupy_24", "asia+africa", "occupy_18_2"]))
    assert not state.alive(1)
    assert (state.winner, state.returns()) == (0, [1.0, 0.0, 0.0, 0.0])


def test_destroy_mission_completed_by_another_player_1993():
    # [R1], its example: if another player removes the last armies of your target, you have completed it.
    game = mission_game(4)
    state = elimination_position(game, ["destroy_1", "occupy_24", "asia+africa", "occupy_18_2"], attacker=2)
    state = capture(state)
    assert (state.winner, state.returns()) == (0, [1.0, 0.0, 0.0, 0.0])


def test_destroy_mission_falls_back_to_occupy_24_european():
    # Domination's risk.cards [C7], European text: the target destroyed by another player -> occupy 24 territories.
    game = mission_game(4, mission_target_killed_by_other="fallback_occupy_24")
    state = elimination_position(game, ["destroy_1", "occupy_24", "asia+africa", "occupy_18_2"], attacker=2)
    state = capture(state)
    assert state.phase is rm.Phase.OCCUPY
    assert state.winner is None
    assert not state.mission_complete(0)
    # ... and the holder still wins by killing the target itself.
    state = capture(elimination_position(game, ["destroy_1", "occupy_24", "asia+africa", "occupy_18_2"]))
    assert state.winner == 0


def test_destroy_own_colour_is_occupy_24():
    # 1993 Secret Mission rules [R1] [R3a]: "If X is your own colour, your mission becomes: occupy 24 territories."
    game = mission_game()
    owner = {t: 0 for t in NAMES[:24]}
    assert build(
        game, owner=owner, default_owner=lambda t: 1 + t % 2, missions=["destroy_0", "asia+africa", "occupy_18_2"]
    ).mission_complete(0)
    owner = {t: 0 for t in NAMES[:23]}
    assert not build(
        game, owner=owner, default_owner=lambda t: 1 + t % 2, missions=["destroy_0", "asia+africa", "occupy_18_2"]
    ).mission_complete(0)


def test_mission_checked_on_own_turn():
    game = mission_game(mission_check="own_turn")
    mine = [t for t in NAMES if t != "Kamchatka"][:23]
    owner = {t: 0 for t in mine} | {"Kamchatka": 1}
    state = capture(
        capture_position(game, ["occupy_24", "asia+africa", "occupy_18_2"], owner, default_owner=lambda t: 1 + t % 2)
    )
    assert state.mission_complete(0)
    assert state.phase is rm.Phase.OCCUPY  # not yet
    state = state.apply(rm.Occupy(3)).apply(rm.EndPhase()).apply(rm.EndPhase())
    assert state.phase is rm.Phase.DRAW
    state = state.apply(state.chance_outcomes()[0][0])
    for _ in range(2):  # players 1 and 2 play a turn
        assert state.winner is None
        while state.phase is rm.Phase.REINFORCE:
            state = state.apply(state.legal_actions()[-1])
        state = state.apply(rm.EndPhase()).apply(rm.EndPhase())
    assert (state.winner, state.turn) == (0, 4)  # at the start of player 0's turn


# -- Capital RISK (1993 Capital RISK rules [R1] [R3c]) ---------------------------------------------------------


def capital_position(players: int, capital: str, hq: list[str], owner: dict[str, int]) -> rm.GameState:
    game = rm.Game(players, rm.Rules.preset("us_1993_capital").replace(capital=capital))
    board = game.board
    return build(
        game,
        owner={"Alaska": 0, "Kamchatka": 1} | owner,
        default_owner=lambda t: 1 + t % (players - 1),
        armies={"Alaska": 6, "Kamchatka": 1},
        capitals=[board.index(t) for t in hq],
    )


def test_capital_win_needs_every_other_headquarters():
    # HQs: player 0 Alaska, player 1 Kamchatka, player 2 Japan (already taken by player 0).
    state = capital_position(3, "all", ["Alaska", "Kamchatka", "Japan"], {"Japan": 0})
    assert [state.capital(p) for p in range(3)] == ["Alaska", "Kamchatka", "Japan"]
    state = capture(state)
    assert state.alive(1)  # capturing a headquarters eliminates nobody by itself
    assert (state.winner, state.returns()) == (0, [1.0, 0.0, 0.0])


def test_capital_win_needs_the_own_headquarters():
    state = capital_position(3, "all", ["Siam", "Kamchatka", "Japan"], {"Japan": 0, "Siam": 2})
    state = capture(state)
    assert state.winner is None
    assert state.phase is rm.Phase.OCCUPY


def test_capital_all_with_four_players_is_not_won_with_two():
    state = capital_position(4, "all", ["Alaska", "Kamchatka", "Japan", "Siam"], {"Japan": 0, "Siam": 3})
    assert capture(state).winner is None


def test_capital_short_game_with_four_players_needs_two():
    state = capital_position(4, "short", ["Alaska", "Kamchatka", "Japan", "Siam"], {"Japan": 0, "Siam": 3})
    assert capture(state).winner == 0


def test_capital_short_game_with_five_players_needs_three():
    hq = ["Alaska", "Kamchatka", "Japan", "Siam", "Peru"]
    assert capture(capital_position(5, "short", hq, {"Japan": 0, "Siam": 3, "Peru": 4})).winner is None
    assert capture(capital_position(5, "short", hq, {"Japan": 0, "Siam": 0, "Peru": 4})).winner == 0


def test_capital_choices_round_the_table_decide_the_right_winner():
    # Engine fix: headquarters chosen from a first player other than 0 belong to the players who chose them.
    # Short game, 4 players (own HQ and 2 others).  Choices from player 1: Kamchatka, Japan, Siam, then Peru.
    game = rm.Game(4, rm.Rules.preset("us_1993_capital").replace(capital="short"))
    hq = {1: "Kamchatka", 2: "Japan", 3: "Siam", 0: "Peru"}
    owner = {t: p for p, t in hq.items()} | {"Alaska": 0}
    setup_deck = list(game.territory_cards)  # a claimed set-up: the wild cards join once it ends
    state = build(  # (2 armies a territory: at most the 30 each player starts with)
        game, owner=owner, armies=2, phase="setup_capital", player=1, first=1, turn=0, capitals=[], deck=setup_deck
    )
    for player in (1, 2, 3, 0):
        assert state.current_player == player
        state = state.apply(rm.ChooseCapital(hq[player]))
    assert [state.capital(p) for p in range(4)] == [hq[p] for p in range(4)]
    assert (state.phase, state.current_player) == (rm.Phase.REINFORCE, 1)
    chosen = state

    def attack_kamchatka(changes: dict[str, int]) -> rm.GameState:
        owners = [changes.get(t, chosen.owner(t)) for t in NAMES]
        armies = [{"Alaska": 6, "Kamchatka": 1}.get(t, chosen.armies(t)) for t in NAMES]
        return capture(edit(chosen, owner=owners, armies=armies, phase="attack", player=0, pool=0))

    # Player 0 holds Japan and Siam but has lost Peru, its own HQ: taking Kamchatka does not win.
    assert attack_kamchatka({"Japan": 0, "Siam": 0, "Peru": 3}).winner is None
    # Holding Peru and Japan, taking Kamchatka wins.
    assert attack_kamchatka({"Japan": 0}).winner == 0


# -- found by a mutation test (2026-12-03): rules no test held ------------------------------------------------------
def test_the_european_fallback_needs_the_target_gone_first():
    # [C7] European text: "if that player is eliminated by someone else, occupy 24 territories".  While the target
    # is alive, 24 territories or more do not complete a destroy mission (a mutant read any living target as gone).
    game = mission_game(3, mission_target_killed_by_other="fallback_occupy_24")
    owner = {t: 0 for t in NAMES[:26]}
    state = build(
        game, owner=owner, default_owner=lambda t: 1 + t % 2, missions=["destroy_1", "asia+africa", "occupy_24"]
    )
    assert state.alive(1)
    assert not state.mission_complete(0)
    assert not state.is_terminal()


def test_a_third_continent_must_be_another_one():
    # European deck [C7]: "Conquer Europe and Australia and a third continent of your choice": holding only the
    # two named is not enough (a mutant counted one of them as the third); a third one completes it.
    game = mission_game(3, missions="euro_14")
    named = set(CONTINENTS["Europe"]) | set(CONTINENTS["Australia"])
    missions = ["europe+australia+1", "asia+africa", "occupy_24"]
    state = build(game, owner={t: 0 for t in named}, default_owner=lambda t: 1 + t % 2, missions=missions)
    assert not state.mission_complete(0)
    third = named | set(CONTINENTS["South America"])
    state = build(game, owner={t: 0 for t in third}, default_owner=lambda t: 1 + t % 2, missions=missions)
    assert state.mission_complete(0)
