"""Long-running processes: nothing the library remembers keeps games alive or grows past its bound.

Found by the memory review of 2026-12-03: every game that rolled a die stayed in memory for the life of the
process (its chance tables were caches of its methods, keyed by the game), big blitzes' whole tables were kept
(2.6 MB each, up to 8,192), and the agents' win grids and the combat kernels had no bound in bytes or variants.
"""

from __future__ import annotations

import gc
import weakref

import pytest

import riskmath as rm
from riskmath.agents import AggressiveAgent, RandomAgent
from riskmath.game import context
from riskmath.odds import _odds_grids, _sweeps
from riskmath.odds.dice import CombatRules


def test_games_that_were_played_are_freed():
    refs = []
    for k, preset in enumerate(rm.Rules.presets()):
        game = rm.Game(3, rules=rm.Rules.preset(preset), max_turns=4)
        rm.play(game, [RandomAgent(), AggressiveAgent(), RandomAgent()], seed=k)
        refs.append(weakref.ref(game))
        del game
    gc.collect()
    assert [r() for r in refs if r() is not None] == []


def test_the_table_of_a_big_blitz_is_not_kept():
    game = rm.Game(2, max_turns=5)
    before = context._kept_blitz_table.cache_info().currsize
    table = game.blitz_table(300, 40, 0)  # beyond what play draws from (64 x 16): built for the call
    assert round(sum(p for _, p in table.outcomes), 9) == 1
    assert context._kept_blitz_table.cache_info().currsize == before
    game.blitz_table(10, 3, 0)
    assert context._kept_blitz_table.cache_info().currsize <= before + 1


def test_the_agents_win_grids_stay_within_their_budget(monkeypatch):
    monkeypatch.setattr(_odds_grids, "_GRIDS_BYTES", 3 * 2**20)
    for sides in range(4, 10):
        variant = CombatRules(attacker_sides=sides, defender_sides=sides)
        p = _odds_grids.win_probability(300, 290, variant)  # a grid of 512 (2 MiB)
        assert p == pytest.approx(rm.battle(300, 290, rules=variant).win_probability, abs=1e-12)
        assert sum(grid.nbytes for grid in _odds_grids._GRIDS.values()) <= 3 * 2**20
        assert (variant, 512) in _odds_grids._GRIDS  # the grid just made is kept


def test_combat_kernels_are_bounded(monkeypatch):
    monkeypatch.setattr(_sweeps, "_KERNELS_KEPT", 5)
    for sides in range(2, 20):
        rm.battle(3, 2, rules=CombatRules(attacker_sides=sides, defender_sides=sides + 1))
        assert len(_sweeps._KERNELS) <= 5


def test_games_of_the_odds_agent_and_of_the_observations_set_values_are_freed():
    # The odds agent's remembered plans and regions, and the observations' next set values, held their games
    # (up to 8,192, 64 and 1,024 of them): a process that played many games kept about a thousand alive.
    # (The observations' layouts keep the last 64 games' layouts, and so those games: bounded.)
    from riskmath.agents import OddsAgent
    from riskmath.envs.observations import _next_set_value

    refs = []
    for k in range(3):
        game = rm.Game(2, max_turns=8)
        rm.play(game, [OddsAgent(), OddsAgent()], seed=k)
        assert _next_set_value(game, 0) == 4
        refs.append(weakref.ref(game))
        del game
    gc.collect()
    assert [r() for r in refs if r() is not None] == []
