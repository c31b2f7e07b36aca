"""Seeded random playouts of every preset: invariants after every action, JSON and replay."""

from __future__ import annotations

import random

import pytest
from game_helpers import check_ending, check_invariants, spread, tiered

import riskmath as rm

CASES = [(p, preset) for preset in rm.Rules.presets() for p in (2, 3, 4, 6) if not (p < 3 and "mission" in preset)]


@pytest.mark.parametrize(("players", "preset"), tiered(CASES, spread(CASES, at=1)))
def test_random_playout(players, preset):
    game = rm.Game(players, rm.Rules.preset(preset), max_turns=40)
    state = game.new_initial_state(seed=players)
    rng = random.Random(players)
    record = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = state.sample_chance()
        else:
            legal = state.legal_actions()
            action = rng.choice(legal)
            assert action in legal
        record.append(action)
        after = state.apply(action)
        check_invariants(after, state, full=len(record) % 4 == 0 or after.is_terminal())
        state = after
    assert state.turn <= 40
    check_ending(state)  # a living winner, or a draw at exactly turn 40
    assert rm.GameState.from_json(state.to_json()) == state
    assert game.replay(record, seed=players) == state


def test_same_seed_same_game():
    game = rm.Game(4, max_turns=30)
    a = game.new_initial_state(seed=7, auto_chance=True)
    b = game.new_initial_state(seed=7, auto_chance=True)
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not a.is_terminal():
        a = a.apply(rng_a.choice(a.legal_actions()))
        b = b.apply(rng_b.choice(b.legal_actions()))
    assert a == b
    assert a.to_json() == b.to_json()
