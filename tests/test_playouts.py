"""Seeded random playouts of every preset: invariants after every action, JSON and replay."""

from __future__ import annotations

import random

import pytest
from game_helpers import check_ending, play_until, spread, tiered

import riskmath as rm

CASES = [(p, preset) for preset in rm.Rules.presets() for p in (2, 3, 4, 6) if not (p < 3 and "mission" in preset)]


# The fast tier plays two presets (every preset plays there in tests/test_seeded_games.py and test_agents.py).
@pytest.mark.parametrize(("players", "preset"), tiered(CASES, spread(CASES, at=1)[::6]))
def test_random_playout(players, preset):
    game = rm.Game(players, rm.Rules.preset(preset), max_turns=40)
    record: list = []
    start = game.new_initial_state(seed=players)
    state = play_until(start, rm.GameState.is_terminal, random.Random(players), check_every=4, record=record)
    assert state.turn <= 40
    check_ending(state)  # a living winner, or a draw at exactly turn 40
    assert rm.GameState.from_json(state.to_json()) == state
    assert game.replay(record, seed=players) == state


def test_same_seed_same_game():
    game = rm.Game(4, max_turns=30)
    a, b = (
        play_until(game.new_initial_state(seed=7, auto_chance=True), rm.GameState.is_terminal, random.Random(1))
        for _ in range(2)
    )
    assert a == b
    assert a.to_json() == b.to_json()
