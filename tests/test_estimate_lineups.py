"""The win estimate's line-up variants: the shipped weights, the keyword, the rules they read, and their outcomes."""

from __future__ import annotations

import json
import math
import random
from functools import lru_cache
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath.agents import AGENTS
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate import _features, _rule_features, estimate_victory_probabilities, victory_chances_over
from riskmath.evaluate.estimate import LINEUPS, victory_list
from riskmath.game.game import GameState

PRESETS = rm.Rules.presets()


def game_for(preset: str, players: int) -> rm.Game:
    """A game of ``preset``; Secret Mission RISK is for 3 to 6 players, so 2 become 3 there."""
    rules = rm.Rules.preset(preset)
    if rules.missions != "none":
        players = max(players, 3)
    return rm.Game(players, rules, max_turns=200)


@lru_cache(maxsize=64)
def states_of(preset: str, players: int, seed: int, lineup: str) -> tuple[GameState, ...]:
    """The start of every player-turn of one game of ``lineup``'s agents under ``preset`` (copies)."""
    game = game_for(preset, players)
    agents = LINEUPS[lineup]
    seats = [AGENTS[agents[p % len(agents)]]() for p in range(game.players)]
    rngs = [random.Random(seed * 10 + p) for p in range(game.players)]
    state = game.new_initial_state(seed=seed, auto_chance=True)
    out = []
    turn = 0
    while not state.is_terminal():
        if state.turn != turn and state.turn >= 1 and -1 not in state.position.owner:
            turn = state.turn
            out.append(state)
        state = state.apply(seats[state.current_player].act(state, rngs[state.current_player]))
    out.append(state)
    return tuple(out)


def with_armies(state: GameState, territory: int, extra: int) -> GameState:
    """The same position with ``extra`` more armies on ``territory`` (a what-if, not a legal move)."""
    pos = state.position.copy()
    pos.armies[territory] += extra
    return GameState(state.game, pos, auto_chance=state.auto_chance)


# -- the shipped weights ------------------------------------------------------------------------


def test_the_shipped_variants_load_and_match_the_features():
    text = resources.files("riskmath.evaluate").joinpath("data", "lineups.json").read_text(encoding="utf-8")
    shipped = json.loads(text)
    assert shipped["features"] == [*_features.FEATURES, *_rule_features.EXTRA_FEATURES]
    assert shipped["rule_features"] == list(_rule_features.RULE_FEATURES)
    assert {name: tuple(entry["agents"]) for name, entry in shipped["lineups"].items()} == LINEUPS
    assert set(LINEUPS) >= {"odds", "aggressive", "mixed", "planner"}
    signs = {**_features.SIGNS, **_rule_features.EXTRA_SIGNS}
    for name, agents in LINEUPS.items():
        assert all(agent in AGENTS for agent in agents), name
        agent_columns = [f"agent_{a}" for a in dict.fromkeys(agents)]
        columns = shipped["lineups"][name]["columns"]
        assert columns == [*shipped["features"], *agent_columns]
        weights = shipped["lineups"][name]["weights"]
        assert len(weights) == len(columns)
        for feature, row in zip(columns, weights, strict=True):
            assert len(row) == 1 + len(_rule_features.RULE_FEATURES)
            assert all(math.isfinite(w) for w in row), (name, feature)
            # Every rule feature is at least 0, so a weight and its rule terms of one sign keep that sign.
            sign = signs.get(feature, 0)
            assert all(w * sign >= 0 for w in row), f"{name}: {feature} has weights {row}, against its sign"


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 6])
def test_rule_features_are_defined_and_at_least_zero(preset, players):
    values = _rule_features.rule_features(game_for(preset, players))
    assert len(values) == len(_rule_features.RULE_FEATURES)
    assert all(math.isfinite(v) and v >= 0 for v in values)


def test_the_classic_rules_with_three_players_have_no_rule_terms():
    assert _rule_features.rule_features(rm.Game(3)) == (0.0,) * len(_rule_features.RULE_FEATURES)
    assert _rule_features.rule_features(rm.Game(3, rm.Rules.preset("us_1993"))) == (0.0,) * len(
        _rule_features.RULE_FEATURES
    )
    named = dict(zip(_rule_features.RULE_FEATURES, _rule_features.rule_features(rm.Game(2)), strict=True))
    assert named["two_players"] == 1.0
    assert named["neutral"] == 1.0
    risiko = dict(zip(_rule_features.RULE_FEATURES, _rule_features.rule_features(game_for("risiko", 3)), strict=True))
    assert risiko["defender_dice"] == 1.0
    assert risiko["no_least_income"] == 1.0
    assert risiko["slow_cards"] == 1 - 12 / 25  # a fixed table: its best set, against the 8th set's 25
    assert risiko["fast_cards"] == 0.0
    article = dict(
        zip(_rule_features.RULE_FEATURES, _rule_features.rule_features(game_for("article_ja", 3)), strict=True)
    )
    assert article["fast_cards"] == pytest.approx(30 / 25 - 1)  # 4, 6, 8, 10, then 5 more each: 30
    no_cards = _rule_features.rule_features(rm.Game(3, rm.Rules(cards="none")))
    assert dict(zip(_rule_features.RULE_FEATURES, no_cards, strict=True))["slow_cards"] == 1.0


# -- the keyword ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["nobody", "Odds", "", 3, ("odds",)])
def test_an_unknown_lineup_is_refused_by_name(bad):
    state = states_of("us_1993", 3, 1, "odds")[5]
    with pytest.raises(InvalidArgumentError, match="lineup must be None or one of 'odds'") as info:
        estimate_victory_probabilities(state, lineup=bad)
    assert repr(bad) in str(info.value) or str(bad) in str(info.value)
    with pytest.raises(InvalidArgumentError, match="lineup must be"):
        victory_list(state, lineup=bad)
    with pytest.raises(InvalidArgumentError, match="lineup must be"):
        victory_chances_over([state], lineup=bad)


def test_weights_and_a_lineup_together_are_refused():
    state = states_of("us_1993", 3, 1, "odds")[5]
    with pytest.raises(InvalidArgumentError, match="not both"):
        victory_list(state, [0.0] * len(_features.FEATURES), lineup="odds")


def test_no_lineup_is_the_default_estimate():
    state = states_of("us_1993", 3, 1, "odds")[5]
    assert estimate_victory_probabilities(state, lineup=None).tolist() == victory_list(state)


def test_chances_over_a_game_with_a_lineup():
    states = states_of("risiko", 3, 2, "aggressive")
    table = victory_chances_over(states, lineup="aggressive")
    assert table.index[-1] == states[-1].turn  # the final state replaces its player-turn's start
    assert table.loc[states[3].turn, [0, 1, 2]].tolist() == victory_list(states[3], lineup="aggressive")
    assert table[[0, 1, 2]].iloc[-1].tolist() == [1.0 if p == states[-1].winner else 0.0 for p in range(3)]


# -- every variant, every preset ------------------------------------------------------------------

cases = given(
    preset=st.sampled_from(PRESETS),
    lineup=st.sampled_from(sorted(LINEUPS)),
    players=st.integers(2, 6),
    seed=st.integers(0, 2),
    pick=st.integers(0, 10**6),
)


def pick_state(preset: str, players: int, seed: int, lineup: str, pick: int) -> GameState:
    states = states_of(preset, players, seed, lineup)
    return states[pick % len(states)]


@settings(max_examples=12, deadline=None)
@cases
def test_every_variant_gives_a_probability_vector(preset, lineup, players, seed, pick):
    state = pick_state(preset, players, seed, lineup, pick)
    chances = estimate_victory_probabilities(state, lineup=lineup).to_numpy()
    n = state.game.players
    assert np.all((chances >= 0) & (chances <= 1))
    assert all(chances[p] == 0.0 for p in range(n) if not state.alive(p))
    if state.is_terminal() and state.winner is not None:
        assert chances.tolist() == [1.0 if p == state.winner else 0.0 for p in range(n)]
    elif not state.is_terminal():
        assert math.isclose(chances.sum(), 1.0, rel_tol=0, abs_tol=1e-12)
        assert all(chances[p] > 0 for p in range(n) if state.alive(p))


@settings(max_examples=12, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    lineup=st.sampled_from(sorted(LINEUPS)),
    players=st.integers(2, 6),
    seed=st.integers(0, 2),
    pick=st.integers(0, 10**6),
    extra=st.integers(1, 40),
    choice=st.integers(0, 10**6),
)
def test_more_armies_never_lower_a_players_chance_in_any_variant(preset, lineup, players, seed, pick, extra, choice):
    # The weights of every feature that rises with armies, and their rule terms, are held to the sign that makes
    # this hold (_features.SIGNS and EXTRA_SIGNS; the rule features are at least 0).
    state = pick_state(preset, players, seed, lineup, pick)
    if state.is_terminal():
        return
    player = state.turn_player
    mine = [t for t, o in enumerate(state.position.owner) if o == player]
    territory = mine[choice % len(mine)]
    before = victory_list(state, lineup=lineup)
    after = victory_list(with_armies(state, territory, extra), lineup=lineup)
    assert after[player] >= before[player] - 1e-12
    rivals = [p for p in range(state.game.players) if p != player]
    assert sum(after[p] for p in rivals) <= sum(before[p] for p in rivals) + 1e-12


def test_mission_progress_and_capitals_read_the_rules():
    state = states_of("us_1993_secret_mission", 4, 0, "odds")[6]
    rows = _rule_features.extra_features(state, [state.alive(p) for p in range(4)])
    assert all(0.0 <= row[0] <= 1.0 and row[1] == 0.0 for row in rows)
    assert any(row[0] > 0 for row in rows)
    state = states_of("us_1993_capital", 4, 0, "odds")[4]
    rows = _rule_features.extra_features(state, [state.alive(p) for p in range(4)])
    capitals = [row[1] for row in rows]
    assert all(row[0] == 0.0 for row in rows)
    assert math.isclose(sum(capitals), 1.0)  # every headquarters is held by somebody
    state = states_of("us_1993", 4, 0, "odds")[4]
    assert _rule_features.extra_features(state, [True] * 4) == [[0.0, 0.0]] * 4


# -- against outcomes (slow: plays games) -----------------------------------------------------------


def held_out_briers(lineup: str, preset: str, players: int, seeds: range) -> tuple[float, float, int]:
    """Mean Brier scores of the variant and of territory share at player-turns 8-40 of fresh games, and the count."""
    variant, share = [], []
    for seed in seeds:
        states = states_of(preset, players, seed, lineup)
        final = states[-1]
        if final.winner is None:
            continue
        won = np.array([p == final.winner for p in range(players)], dtype=float)
        for state in states[:-1]:
            if not 8 <= state.turn <= 40:
                continue
            owners = state.position.owner
            counts = np.array([owners.count(p) for p in range(players)], dtype=float)
            variant.append(((np.array(victory_list(state, lineup=lineup)) - won) ** 2).sum())
            share.append(((counts / counts.sum() - won) ** 2).sum())
    return float(np.mean(variant)), float(np.mean(share)), len(variant)


@pytest.mark.slow
@pytest.mark.parametrize("lineup", sorted(LINEUPS))
def test_each_variant_beats_territory_share_on_fresh_games_of_its_lineup(lineup):
    # Games the fit never saw: bench/estimate_lineups.py's seeds are 63-bit numbers from a SeedSequence, these are
    # 1000-1029.  Three players under the classic rules and under risiko, positions at player-turns 8-40.
    for preset in ("us_1993", "risiko"):
        variant, share, count = held_out_briers(lineup, preset, 3, range(1000, 1030))
        assert count > 100, (lineup, preset, count)
        # Measured with the shipped weights (variant / territory share): odds 0.70 and 0.56, aggressive 0.86 and
        # 0.64, mixed 0.41 and 0.43, planner 0.80 and 0.79 (us_1993 and risiko); the margin asks only for 3 % better
        # than territory share.
        assert variant < 0.97 * share, (lineup, preset, variant, share, variant / share)


@pytest.mark.parametrize(
    ("mission", "progress"),
    [("occupy_18_2", [0.778, 0.583, 0.667]), ("destroy_0", [0.583, 0.583, 0.667])],
)
def test_mission_progress_features_read_the_card_text(mission, progress):
    # Found by a mutation test: "18 territories with at least 2 armies each" counted 2-army territories (all of
    # them here: 14 of 18 -> 0.778, a mutant with > gave 0); a destroy mission naming its holder is read as
    # occupy 24 (14 of 24 -> 0.583; a mutant gave the destroy reading 0.667).  Every territory holds 2 armies.
    game = rm.Game(3, rm.Rules.preset("us_1993_secret_mission"))
    names = game.board.territories
    owners = {n: i % 3 for i, n in enumerate(names)}
    state = game.position(
        owners, dict.fromkeys(names, 2), seed=1, missions={0: mission, 1: "occupy_24", 2: "destroy_1"}
    )
    assert [round(row[0], 3) for row in _rule_features.extra_features(state, [True] * 3)] == progress
