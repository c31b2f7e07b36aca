"""Many seeded playouts across every preset and player count, with cheap invariants after every action.

tests/test_playouts.py plays one long game per preset and player count with full checks; this file plays a few
hundred shorter ones (a random policy and an attacking one), and a slow set that plays games to their end.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from game_helpers import aggressive, random_action, spread, tiered

import riskmath as rm

NAMES = rm.Board.classic().territories
FULL = len(NAMES) + 2
IDS = range(len(NAMES))  # territory ids are quicker to look up than names

CASES = [
    (preset, players)
    for preset in rm.Rules.presets()
    for players in range(2, 7)
    if not (players < 3 and "mission" in preset)
]


def check(state: rm.GameState, before: rm.GameState, full: bool) -> None:
    """The engine's own consistency check after every action; the rest when ``full``."""
    game = state.game
    assert state.problems() == []
    if not full or state.phase.name.startswith("SETUP"):
        return
    held = Counter(state.owner(t) for t in IDS)
    assert -1 not in held
    assert all(state.alive(p) == (held[p] > 0) for p in range(game.players))
    hands = sum(len(state.cards(p)) for p in range(game.players))
    assert hands + state.deck_size <= FULL
    assert state.turn >= before.turn
    if not before.phase.name.startswith("SETUP") and before.phase not in (
        rm.Phase.ROLL,
        rm.Phase.BLITZ,
        rm.Phase.REINFORCE,
        rm.Phase.TRADE_DOWN,
    ):
        total = lambda s: sum(s.armies(t) for t in IDS)  # noqa: E731
        assert total(state) == total(before), (before.phase, state.phase)  # only combat and placement change it


def playout(preset: str, players: int, seed: int, policy, max_turns: int) -> rm.GameState:
    game = rm.Game(players, rm.Rules.preset(preset), defender_decides=seed % 3 == 0, max_turns=max_turns)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        after = state.apply(policy(state, rng))
        step += 1
        check(after, state, full=step % 5 == 0 or after.is_terminal())
        state = after
    assert state.winner is not None or state.draw
    assert state.turn <= max_turns
    assert sum(state.returns()) == (0 if state.draw else 1)
    return state


@pytest.mark.parametrize(("preset", "players"), tiered(CASES, spread(CASES)))
def test_seeded_playouts(preset, players):
    ends = Counter()
    for seed in range(100, 104):
        policy = aggressive if seed % 2 else random_action
        state = playout(preset, players, seed, policy, max_turns=24)
        ends["draw" if state.draw else "win"] += 1
    assert sum(ends.values()) == 4


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
