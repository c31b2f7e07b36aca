"""The agent protocol: what an agent keeps between decisions does not reach into the next game."""

from __future__ import annotations

import random

import pytest

import riskmath as rm
from riskmath.agents import AGENTS, SearchAgent


def fresh(name):
    """A built-in agent with defaults (the search agent with a small budget, to stay quick)."""
    return SearchAgent(budget=2) if name == "search" else AGENTS[name]()


def actions_of(game, agent, seed):
    """Every action of a game whose every seat ``agent`` plays, asked directly (no copy, as an outside client)."""
    state, rng, actions = game.new_initial_state(seed, auto_chance=True), random.Random(seed), []
    while not state.is_terminal():
        action = agent.act(state, rng)
        actions.append(action)
        state = state.apply(action)
    return actions


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name", list(AGENTS))
def test_a_reused_agent_decides_as_a_fresh_one(name, players):
    """Game A then game B with one agent object, against game B with a fresh agent: the same actions.

    Game B starts at a turn game A also reached, so an agent whose memory was keyed
    by the turn alone, and not dropped, would be caught here (the odds agent's plan
    is keyed by ``state.turn`` and checked against the pool and the owners).
    """
    game = rm.Game(players, max_turns=30)
    reused = fresh(name)
    first = actions_of(game, reused, seed=1)
    again = actions_of(game, reused, seed=2)
    assert len(first) > 50
    assert again == actions_of(game, fresh(name), seed=2)


def test_play_and_simulate_play_every_game_with_fresh_copies():
    """What makes the above hold inside riskmath whatever an agent keeps: each game gets deep copies."""
    from riskmath.agents import OddsAgent

    game = rm.Game(2, max_turns=30)
    agent = OddsAgent()
    rm.play(game, [agent, agent], seed=1)
    assert agent._plans == {}  # the caller's agent is never the one that played


def _placements_at_turn_one(count):
    """Positions built by hand, all at turn 1 with player 0 to place the same pool, their armies drawn at random."""
    game = rm.Game(3)
    names = game.board.territories
    owners = {t: i % 3 for i, t in enumerate(names)}
    draw = random.Random(7)
    return [
        game.position(owners, {t: draw.randint(1, 9) for t in names}, current_player=0, seed=k) for k in range(count)
    ]


@pytest.mark.parametrize("name", list(AGENTS))
def test_positions_that_do_not_follow_one_another_are_decided_as_by_a_fresh_agent(name):
    """A client asking one agent about unrelated positions (the same turn and seat) and the same position twice.

    Memory keyed by the turn and the seat alone took the second position for a later placement of the first
    one's turn: the search agent did not search it, and the odds agent could follow the first one's plan.
    """
    states = _placements_at_turn_one(6)
    assert len({s.turn for s in states}) == 1
    assert len({s.pool for s in states}) == 1
    reused = fresh(name)
    for k, state in enumerate(states):
        asked = reused.act(state, random.Random(k))
        assert asked == fresh(name).act(state, random.Random(k))
        assert reused.act(state, random.Random(k)) == asked  # the same state and generator, the same answer
