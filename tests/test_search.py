"""The Monte Carlo search agent: legal, blind to the real game's dice, deterministic, and stronger than random."""

from __future__ import annotations

import random

import pytest
from game_helpers import Checked, check_invariants

import riskmath as rm
from riskmath.agents import RandomAgent
from riskmath.agents.odds import OddsAgent
from riskmath.agents.search import SearchAgent
from riskmath.errors import InvalidArgumentError


def attack_position(seed=2):
    """A mid-game state of a 3-player game, in the attack phase of some player."""
    game = rm.Game(3)
    state = game.new_initial_state(seed, auto_chance=True)
    agent, rng = OddsAgent(), random.Random(seed)
    while not (state.phase is rm.Phase.ATTACK and state.turn >= 9):
        state = state.apply(agent.act(state, rng))
    return state


def test_decisions_do_not_depend_on_the_real_games_dice():
    # The state's generator decides the real dice; the search must explore with its own.
    state = attack_position()
    agent = SearchAgent(budget=8)
    first = agent.act(state.reseeded(1), random.Random(5))
    assert agent.act(state.reseeded(2), random.Random(5)) == first
    assert state.is_legal(first)


def test_deterministic_given_its_generator_and_explores_several_moves():
    state = attack_position()
    agent = SearchAgent(budget=12, candidates=3)
    options = agent._candidates(state, OddsAgent().act(state, random.Random(0)))
    assert rm.EndPhase() in options
    assert len(options) >= 2
    assert all(state.is_legal(a) for a in options)
    assert agent.act(state, random.Random(9)) == agent.act(state, random.Random(9))


@pytest.mark.slow
def test_plays_legal_games_and_beats_random():
    table = rm.simulate(rm.Game(2, max_turns=120), [SearchAgent(budget=2, candidates=1), RandomAgent()], 2, seed=1)
    assert (table["winner"] == 0).all()
    # Through an untrusted wrapper, play() checks every action the search agent returns.
    record = rm.play(rm.Game(3, max_turns=12), [Checked(SearchAgent(budget=4)), RandomAgent(), OddsAgent()], seed=3)
    check_invariants(record.final)  # sound, and a living winner or a draw at exactly turn 12


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"budget": 0}, r"budget must be an integer >= 1, got 0"),
        ({"candidates": -1}, r"candidates must be an integer >= 0, got -1"),
        ({"horizon": 1.5}, r"horizon must be a non-negative integer or None, got 1\.5"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(InvalidArgumentError, match=message):
        SearchAgent(**kwargs)


def test_repr():
    assert repr(SearchAgent(budget=5)).startswith("SearchAgent(budget=5, candidates=3, horizon=None")
