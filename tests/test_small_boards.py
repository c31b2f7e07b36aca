"""Issue 22, part 1: boards for learning.  One way in the game layer to cut a board down to some continents
(``Board.restricted``, ``Board.load("classic:A+B")``), named small boards, accepted by name by ``Rules``,
``Game`` and every environment."""

from __future__ import annotations

import importlib.util

import pytest

import riskmath as rm
from riskmath.agents import make_agent
from riskmath.errors import BoardError, RulesError
from riskmath.game.board import SMALL_BOARDS

# Sizes counted on the classic map (rules-facts: South America 4 territories, Africa 6, Europe 7; the borders
# inside and between them): 5 + 8 + 2 = 15 and 15 + 13 + 2 (North Africa-Southern Europe, -Western Europe) = 30.
SIZES = {
    "south_america_africa": (10, 15, {"South America": 2, "Africa": 3}),
    "south_america_africa_europe": (17, 30, {"South America": 2, "Africa": 3, "Europe": 5}),
}


@pytest.mark.parametrize("name", list(SMALL_BOARDS))
def test_small_boards_have_their_sizes_and_bonuses(name):
    board = rm.Board.load(name)
    territories, borders, bonuses = SIZES[name]
    assert (board.name, len(board), len(board.borders)) == (name, territories, borders)
    assert {c: board.continents[c].bonus for c in board.continents} == bonuses
    assert name in rm.Board.names()
    classic = rm.Board.classic()
    for a, b in board.borders:  # exactly the classic borders between the territories kept
        assert classic.is_adjacent(a, b)
    kept = set(board.territories)
    assert sum(1 for a, b in classic.borders if a in kept and b in kept) == borders
    assert rm.Board.load(name) is board  # built once


def test_any_part_of_a_shipped_map_by_name():
    board = rm.Board.load("classic:Australia+Asia")
    assert (board.name, len(board)) == ("classic:Australia+Asia", 16)
    assert board == rm.Board.classic().restricted(["Australia", "Asia"])
    assert rm.Board.load("anniversary_1999:Africa+Asia").is_adjacent("East Africa", "Middle East") is False


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("classic:Atlantis", "'Atlantis' is not a continent of board 'classic'"),
        ("classic:South America+Australia", "not connected to each other"),
        ("classic:Africa+Africa", "'Africa' is named twice"),
        ("moon:Africa", "unknown board 'moon:Africa'"),
        ("small", "unknown board 'small'"),
    ],
)
def test_bad_parts_are_refused_naming_them(name, message):
    with pytest.raises(BoardError, match=message):
        rm.Board.load(name)
    with pytest.raises(RulesError, match=message if ":" in name else f"Rules.board must be one of .*got '{name}'"):
        rm.Rules(board=name)


def test_restricted_refuses_a_string_and_nothing():
    with pytest.raises(BoardError, match="list of continent names"):
        rm.Board.classic().restricted("Africa")
    for bad in (None, 3):
        with pytest.raises(BoardError, match=f"list of continent names, got {bad}"):
            rm.Board.classic().restricted(bad)
    with pytest.raises(BoardError, match="at least one continent"):
        rm.Board.classic().restricted([])


def test_rules_game_and_saves_take_the_name():
    rules = rm.Rules(board="south_america_africa")
    assert len(rm.Game(3, rules).board) == 10
    cut = rm.Game(3, board="classic:South America+Africa").board  # the same map under its descriptive name
    assert (cut.territories, cut.borders) == (rm.Game(3, rules).board.territories, rm.Game(3, rules).board.borders)
    game = rm.Game(2, board="south_america_africa", max_turns=40)
    final = rm.play(game, [make_agent("odds"), make_agent("aggressive")], seed=5).final
    assert rm.GameState.from_json(final.to_json()) == final


@pytest.mark.parametrize("name", list(SMALL_BOARDS))
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("agent", ["aggressive", "odds", "planner"])
def test_agents_play_small_boards_to_an_end(name, players, agent):
    game = rm.Game(players, rm.Rules(board=name), max_turns=200)
    final = rm.play(game, [make_agent(agent) for _ in range(players)], seed=players).final
    assert final.is_terminal()
    assert final.problems() == []
    assert final.winner is not None  # short games: a winner well before the cap


@pytest.mark.skipif(importlib.util.find_spec("gymnasium") is None, reason="needs gymnasium")
def test_gymnasium_and_pettingzoo_take_the_name():
    from riskmath.envs.gymnasium import RiskEnv
    from riskmath.envs.pettingzoo import env

    gym = RiskEnv(["random"], board="south_america_africa")
    assert len(gym.game.board) == 10
    zoo = env(3, board="south_america_africa_europe")
    assert len(zoo.unwrapped.game.board) == 17


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="needs open_spiel")
def test_openspiel_takes_the_name():
    import pyspiel

    from riskmath.envs.openspiel import register

    register()

    game = pyspiel.load_game("python_risk", {"players": 2, "max_turns": 6, "board": "south_america_africa"})
    assert game.num_distinct_actions() > 0
    with pytest.raises(rm.errors.BoardError, match="'Atlantis' is not a continent"):
        pyspiel.load_game("python_risk", {"players": 2, "board": "classic:Atlantis"})
