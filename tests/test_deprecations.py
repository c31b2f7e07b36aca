"""The old names of issue 18's renaming still work: each warns once, naming the new one, and gives what it gave.

A *win* is a battle's (also a whole conquest's, plan's or combined attack's), a *victory* the game's.  The old
names stay (never removed in this change): ``Conquest.success_probability`` and
``expected_final_armies_if_success``, ``PlanResult.success_probability``, ``CombinedAttack.capture_probability``,
``evaluate.chain_success``, ``win_probabilities`` (``riskmath``, ``riskmath.sim``, ``riskmath.sim.rollouts``),
``evaluate.estimate_win_probabilities``, ``evaluate.win_chances_over`` and ``evaluate.estimate.win_list``.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

import riskmath as rm
from riskmath.agents import AggressiveAgent, OddsAgent

GAME = rm.Game(3, max_turns=120)
NAMES = GAME.board.territories


def once(use: Callable[[], Any], new: str) -> Any:
    """``use()``'s value, checking that it warned exactly one DeprecationWarning, naming ``new``, from this file."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = use()
    assert [w.category for w in caught] == [DeprecationWarning], [str(w.message) for w in caught]
    assert f"is deprecated: use {new}" in str(caught[0].message)
    assert caught[0].filename == __file__  # the warning points at the user's line, not at riskmath
    return value


def won_position(seed: int = 1) -> rm.GameState:
    """Player 0 holds everything with 5 armies but Kamchatka, player 1's with 1 army; player 2 is out."""
    owners = dict.fromkeys(NAMES, 0) | {"Kamchatka": 1}
    armies = dict.fromkeys(NAMES, 5) | {"Kamchatka": 1}
    return GAME.position(owners, armies, seed=seed)


def midgame() -> rm.GameState:
    """Ten turns into a three-player game between odds agents, player 1 to place (as in estimate's docstring)."""
    state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    agent, rng = OddsAgent(), random.Random(0)
    while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
        state = state.apply(agent.act(state, rng))
    return state


# -- A battle's word: win ------------------------------------------------------------------------


@pytest.mark.parametrize("exact", [False, True])
def test_conquest_success_probability(exact):
    c = rm.conquest(12, [3, 2, 2], exact=exact)
    old = once(lambda: c.success_probability, "Conquest.win_probability")
    assert old == c.win_probability
    assert type(old) is type(c.win_probability)
    with pytest.warns(DeprecationWarning, match=r"Conquest\.success_probability is deprecated"):
        assert rm.conquest(12, [3, 2, 2]).success_probability == pytest.approx(0.8387, abs=1e-4)


@pytest.mark.parametrize("exact", [False, True])
def test_conquest_expected_final_armies_if_success(exact):
    c = rm.conquest(12, [3, 2, 2, 2], exact=exact)
    old = once(lambda: c.expected_final_armies_if_success, "Conquest.expected_final_armies_if_won")
    assert old == c.expected_final_armies_if_won
    assert round(float(old), 3) == 4.423


def test_plan_result_success_probability():
    plan = rm.Target(2, "Peru", then=[rm.Target(1, "Argentina")])
    result = rm.plan_conquest(6, plan)
    old = once(lambda: result.success_probability, "PlanResult.win_probability")
    assert old == result.win_probability
    assert round(old, 4) == 0.8396
    exact = rm.plan_conquest(6, plan, exact=True)
    assert once(lambda: exact.success_probability, "PlanResult.win_probability") == exact.win_probability


def test_combined_attack_capture_probability():
    attack = rm.combined_attack([3, 3], 5)
    old = once(lambda: attack.capture_probability, "CombinedAttack.win_probability")
    assert old == attack.win_probability
    assert round(old, 4) == 0.5409
    exact = rm.combined_attack([6], 5, exact=True)
    assert (
        once(lambda: exact.capture_probability, "CombinedAttack.win_probability")
        == rm.battle(6, 5, exact=True).win_probability
    )


def test_chain_success_under_every_old_import_path():
    from riskmath.evaluate import chain_success, chain_win_probability
    from riskmath.evaluate.outlook import chain_success as from_outlook
    from riskmath.odds._odds_grids import chain_success as from_grids

    assert chain_success is from_outlook is from_grids
    combat = rm.CombatRules()
    new = chain_win_probability(12, (3, 2, 2), combat)
    assert once(lambda: chain_success(12, (3, 2, 2), combat), "riskmath.evaluate.chain_win_probability") == new
    assert once(lambda: chain_success(5, (3,)), "riskmath.evaluate.chain_win_probability") == pytest.approx(
        rm.battle(5, 3).win_probability, abs=1e-12
    )
    assert new == pytest.approx(rm.conquest(12, [3, 2, 2]).win_probability, abs=1e-12)


# -- A game's word: victory ---------------------------------------------------------------------


def old_table(table: pd.DataFrame) -> pd.DataFrame:
    """victory_probabilities' table as win_probabilities gave it."""
    old = table.rename(columns={"victory": "win", "victory_low": "win_low", "victory_high": "win_high"})
    old.attrs = dict(table.attrs)
    return old


def test_top_level_win_probabilities_warns_on_look_up_and_gives_the_old_table():
    state = won_position()
    assert "win_probabilities" not in rm.__all__
    assert "victory_probabilities" in rm.__all__
    old_function = once(lambda: rm.win_probabilities, "riskmath.victory_probabilities")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # looking the name up has warned: calling it does not warn again
        table = old_function(state, "aggressive", 20, seed=1)
    new = rm.victory_probabilities(state, "aggressive", 20, seed=1)
    assert list(table.columns) == ["win", "win_low", "win_high", "games"]
    assert list(new.columns) == ["victory", "victory_low", "victory_high", "games"]
    pd.testing.assert_frame_equal(table, old_table(new))
    assert table.attrs == new.attrs
    # The table win_probabilities' docstring showed before the renaming.
    assert table.round(3).to_dict() == {
        "win": {0: 1.0, 1: 0.0, 2: 0.0},
        "win_low": {0: 0.839, 1: 0.0, 2: 0.0},
        "win_high": {0: 1.0, 1: 0.161, 2: 0.161},
        "games": {0: 20, 1: 20, 2: 20},
    }


def test_from_riskmath_import_win_probabilities_warns_once():
    def use():
        from riskmath import win_probabilities

        return win_probabilities(won_position(), "aggressive", 2, seed=3)

    table = once(use, "riskmath.victory_probabilities")
    assert list(table.columns) == ["win", "win_low", "win_high", "games"]


def test_from_riskmath_import_fraction_warns_once_too():
    # importlib looks a name up before the import does (is it a submodule?): only the import's look-up warns.
    import fractions

    def use():
        from riskmath import Fraction

        return Fraction

    assert once(use, "fractions.Fraction") is fractions.Fraction


@pytest.mark.parametrize("module", ["riskmath.sim", "riskmath.sim.rollouts"])
def test_win_probabilities_of_the_submodules_warn_on_each_call(module):
    import importlib

    old_function = importlib.import_module(module).win_probabilities  # (looking it up there does not warn)
    state = won_position(seed=5)
    for _ in range(2):
        table = once(lambda: old_function(state, [AggressiveAgent()] * 3, 4, seed=2), "riskmath.victory_probabilities")
        pd.testing.assert_frame_equal(table, old_table(rm.victory_probabilities(state, "aggressive", 4, seed=2)))


def test_estimate_win_probabilities_is_the_series_named_win():
    from riskmath.evaluate import estimate_victory_probabilities, estimate_win_probabilities

    state = midgame()
    old = once(lambda: estimate_win_probabilities(state), "riskmath.evaluate.estimate_victory_probabilities")
    new = estimate_victory_probabilities(state)
    assert old.name == "win"
    assert new.name == "victory"
    pd.testing.assert_series_equal(old, new.rename("win"))
    assert old.round(3).tolist() == [0.082, 0.573, 0.344]


def test_win_chances_over_is_the_same_table():
    from riskmath.evaluate import victory_chances_over, win_chances_over

    game = rm.Game(2, max_turns=30)
    record = rm.play(game, [AggressiveAgent(), AggressiveAgent()], seed=1)

    def replay():
        state = game.new_initial_state(record.seed, auto_chance=True)
        yield state
        for action in record.actions:
            state = state.apply(action)
            yield state

    old = once(lambda: win_chances_over(replay()), "riskmath.evaluate.victory_chances_over")
    pd.testing.assert_frame_equal(old, victory_chances_over(replay()))
    assert list(old.columns) == ["player", 0, 1]


def test_win_list_is_victory_list():
    from riskmath.evaluate.estimate import victory_list, win_list

    state = midgame()
    assert once(lambda: win_list(state), "riskmath.evaluate.estimate.victory_list") == victory_list(state)


def test_the_old_functions_keep_their_signatures_and_say_what_replaces_them():
    import inspect

    from riskmath import evaluate, sim
    from riskmath.evaluate import estimate

    pairs = [
        (sim.win_probabilities, sim.victory_probabilities),
        (evaluate.estimate_win_probabilities, evaluate.estimate_victory_probabilities),
        (evaluate.win_chances_over, evaluate.victory_chances_over),
        (evaluate.chain_success, evaluate.chain_win_probability),
        (estimate.win_list, estimate.victory_list),
    ]
    for old, new in pairs:
        assert inspect.signature(old) == inspect.signature(new), old.__name__
        assert old.__doc__.startswith("Deprecated"), old.__name__
        assert new.__name__ in old.__doc__, old.__name__
