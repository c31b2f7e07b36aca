"""Seeded random playouts of every preset: invariants after every action, JSON and replay."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from game_helpers import spread, tiered

import riskmath as rm


def conserved_armies(before: rm.GameState, after: rm.GameState) -> None:
    """Armies change only by placements (reinforcements, set-up) and combat losses."""
    if before.phase.name.startswith("SETUP") or after.phase.name.startswith("SETUP"):
        return
    total = lambda s: sum(s.armies(t) for t in s.game.board.territories)  # noqa: E731
    change = total(after) - total(before)
    if before.phase in (rm.Phase.ROLL, rm.Phase.BLITZ):
        assert change <= 0
    elif before.phase in (rm.Phase.REINFORCE, rm.Phase.TRADE_DOWN):
        assert change >= 0
    else:
        assert change == 0, (before.phase, change)


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
        if not after.phase.name.startswith("SETUP"):
            assert after.problems() == []
            cards = Counter(c for p in range(players) for c in after.cards(p))
            assert sum(cards.values()) + after.deck_size <= len(game.full_deck)
        conserved_armies(state, after)
        state = after
    assert state.turn <= 40
    assert state.winner is not None or state.draw
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
