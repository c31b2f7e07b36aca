"""Many seeded playouts across every preset and player count, with cheap invariants after every action.

tests/test_playouts.py plays one long game per preset and player count with full checks; this file plays a few
hundred shorter ones (a random policy and an attacking one), and a slow set that plays games to their end.
"""

from __future__ import annotations

import random

import pytest
from game_helpers import aggressive, check_ending, play_until, random_action, spread, tiered

import riskmath as rm

CASES = [
    (preset, players)
    for preset in rm.Rules.presets()
    for players in range(2, 7)
    if not (players < 3 and "mission" in preset)
]


def playout(preset: str, players: int, seed: int, policy, max_turns: int) -> rm.GameState:
    game = rm.Game(players, rm.Rules.preset(preset), defender_decides=seed % 3 == 0, max_turns=max_turns)
    start = game.new_initial_state(seed=seed)
    state = play_until(start, rm.GameState.is_terminal, random.Random(seed), choose=policy, limit=None, check_every=5)
    check_ending(state)  # a living winner, or a draw at exactly max_turns
    assert state.turn <= max_turns
    return state


# The fast tier plays one of these (tests/test_playouts.py plays two presets more); make test plays them all.
@pytest.mark.parametrize(("preset", "players"), tiered(CASES, spread(CASES)[1::12]))
def test_seeded_playouts(preset, players):
    finals = []
    for seed in range(100, 104):
        policy = aggressive if seed % 2 else random_action
        state = playout(preset, players, seed, policy, max_turns=24)
        assert rm.GameState.from_json(state.to_json()) == state
        finals.append(state.to_json())
    assert len(set(finals)) == 4  # the seeds (and policies) give four different games


@pytest.mark.slow
@pytest.mark.parametrize("preset", rm.Rules.presets())
def test_games_played_to_the_end(preset):
    """Attacking play until someone wins (or a generous cap), JSON round trip at the end."""
    wins = 0
    for seed, players in [(1, 3), (2, 4), (3, 5)]:
        state = playout(preset, players, seed, aggressive, max_turns=300)
        wins += state.winner is not None
        assert rm.GameState.from_json(state.to_json()) == state
    assert wins >= 2
