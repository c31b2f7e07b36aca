"""The odds-driven agent: its decisions in small positions, and legal play in every rule variant."""

from __future__ import annotations

import random

import pytest
from game_helpers import (
    VARIANTS,
    Checked,
    build,
    check_every_decision,
    check_invariants,
    rules_or_skip,
    spread,
    tiered,
    tiny_game,
)

import riskmath as rm
import riskmath.agents.odds as oddsagent
from riskmath.agents import RandomAgent
from riskmath.agents.odds import OddsAgent
from riskmath.evaluate import plan_continent
from riskmath.game.actions import Blitz, EndPhase, Fortify, Occupy, PlaceArmies

# S - B - C - D in a line (Line = B, C, D, bonus 3); W, player 0's, sits next to S only.
LINE = tiny_game("WSBCD", ["WS", "SB", "BC", "CD"], [("Home", 1, "WS"), ("Line", 3, "BCD")])


def line(armies, owner, **kwargs):
    return build(
        LINE, owner=dict(zip("WSBCD", owner, strict=True)), armies=dict(zip("WSBCD", armies, strict=True)), **kwargs
    )


def test_reinforcements_go_to_the_source_of_the_best_continent_plan():
    state = line([1, 6, 2, 1, 2], [0, 0, 1, 1, 1], phase="reinforce", pool=5)
    plan = plan_continent(state, 0, "Line", 5)
    assert plan.probability > 0.35
    action = OddsAgent().act(state, random.Random(0))
    assert action == PlaceArmies("S", 5)


def test_attacks_follow_the_route_then_stop():
    agent = OddsAgent()
    state = line([1, 6, 2, 1, 2], [0, 0, 1, 1, 1], phase="reinforce", pool=5)
    state = state.apply(agent.act(state, random.Random(0)))
    assert state.phase is rm.Phase.ATTACK
    assert agent.act(state, random.Random(0)) == Blitz("S", "B", 0)
    # Nothing left to attack with: end the phase.
    weak = line([1, 1, 2, 1, 2], [0, 0, 1, 1, 1])
    assert agent.act(weak, random.Random(0)) == EndPhase()


def test_without_a_capture_a_card_is_worth_an_even_chance():
    # 3 attackers against 2: P(win) = 0.656, below the opportunistic 0.75, above the card threshold 0.5.
    agent = OddsAgent(take_threshold=1.0)
    state = line([1, 4, 2, 9, 9], [0, 0, 1, 1, 1])
    action = agent.act(state, random.Random(0))
    assert action == Blitz("S", "B", 1)  # the stop threshold: a third of the stack
    assert OddsAgent(take_threshold=1.0, card_threshold=0.7).act(state, random.Random(0)) == EndPhase()


def test_occupation_moves_on_along_the_route_and_stays_back_when_threatened():
    agent = OddsAgent()
    state = line([1, 12, 1, 1, 2], [0, 0, 1, 1, 1], phase="reinforce", pool=3)
    while state.phase is not rm.Phase.OCCUPY:
        state = state.apply(state.sample_chance() if state.is_chance_node() else agent.act(state, random.Random(0)))
    legal = state.legal_actions()
    assert agent.act(state, random.Random(0)) == Occupy(legal[-1].armies)  # C and D lie ahead: everything
    # A captured territory with no enemy next to it takes the least.
    game = tiny_game("ABX", ["AB", "AX"], [("All", 1, "ABX")], players=2)
    state = build(game, owner={"A": 0, "B": 1, "X": 1}, armies={"A": 9, "B": 1, "X": 9})
    state = state.apply(Blitz("A", "B", 0))
    assert state.capture is None  # the battle is not yet fought
    state = state.apply(state.sample_chance())
    assert state.phase is rm.Phase.OCCUPY
    assert state.capture == ("A", "B", 3)  # what the public board shows: who captured what, and the least to move
    assert OddsAgent().act(state, random.Random(0)) == Occupy(state.legal_actions()[0].armies)


def test_fortify_moves_an_interior_stack_to_the_most_threatened_border():
    # I is interior (next to M only); M faces E (player 1, 8 armies); N is safe.
    game = tiny_game("IMNE", ["IM", "IN", "ME"], [("All", 1, "IMNE")])
    state = build(
        game, owner={"I": 0, "M": 0, "N": 0, "E": 1}, armies={"I": 7, "M": 2, "N": 1, "E": 8}, phase="fortify"
    )
    assert OddsAgent().act(state, random.Random(0)) == Fortify("I", "M", 6)


def test_repr_and_parameters():
    agent = OddsAgent(attack_threshold=0.8)
    assert repr(agent).startswith("OddsAgent(take_threshold=0.35")
    assert "attack_threshold=0.8" in repr(agent)
    assert agent.name == "odds"


def test_the_wrapper_is_checked_and_the_agent_trusted():
    assert OddsAgent.trusted is True
    assert getattr(Checked(OddsAgent()), "trusted", False) is False


@pytest.mark.parametrize(("preset", "players"), tiered(VARIANTS, spread(VARIANTS)))
def test_legal_in_every_variant_and_falls_back_only_where_expected(preset, players, monkeypatch):
    rules = rules_or_skip(preset, players)
    fallbacks = []
    original = oddsagent._fallback

    def spy(state, rng):
        fallbacks.append(state.phase)
        return original(state, rng)

    monkeypatch.setattr(oddsagent, "_fallback", spy)
    for defender_decides in (False, True):
        game = rm.Game(players, rules, max_turns=40, defender_decides=defender_decides)
        # play() checks every action of an untrusted agent: an illegal one would raise.
        record = rm.play(game, [Checked(OddsAgent())] + [RandomAgent()] * (players - 1), seed=players)
        check_invariants(record.final)  # sound, and a living winner or a draw at exactly turn 40
    # Choosing a pile, placing a neutral's armies and experts' one-move-per-territory fortification are
    # left to the fallback; everything else is the agent's own choice.
    assert set(fallbacks) <= {rm.Phase.SETUP_PILE, rm.Phase.SETUP_PLACE, rm.Phase.FORTIFY}
    if rules.fortify != "experts":
        assert rm.Phase.FORTIFY not in fallbacks


@pytest.mark.parametrize(("preset", "players"), [("us_1993", 2), ("us_1993_capital", 3), ("french_1957", 2)])
def test_a_set_up_placement_left_to_chance_draws_as_the_legal_actions_would(preset, players):
    # _fallback places a neutral's army (and any set-up army the agent leaves) without listing the legal
    # actions: the same draw from the generator and the same action as rng.choice(state.legal_actions()).
    game = rm.Game(players, rules_or_skip(preset, players))
    compared = 0
    for seed in range(4):
        state, rng = game.new_initial_state(seed=seed, auto_chance=True), random.Random(seed)
        while state.phase in (rm.Phase.SETUP_PILE, rm.Phase.SETUP_CLAIM, rm.Phase.SETUP_PLACE, rm.Phase.SETUP_CAPITAL):
            if state.phase is rm.Phase.SETUP_PLACE:
                draw = rng.randrange(2**32)
                ours, theirs = random.Random(draw), random.Random(draw)
                assert oddsagent._fallback(state, ours) == theirs.choice(state.legal_actions())
                assert ours.random() == theirs.random()  # as many draws taken
                compared += 1
            state = state.apply(RandomAgent().act(state, rng))
    assert compared > 100


# The fast tier: every fourth preset (the test above plays every preset).
@pytest.mark.parametrize(("preset", "players"), tiered(VARIANTS, spread(VARIANTS)[::4]))
def test_every_decision_of_the_fast_path_is_legal(preset, players, monkeypatch):
    # simulate() takes the agent's checked form (OddsAgent._decide), which is not checked in the phases whose
    # actions are legal by construction (oddsagent._LEGAL_BY_CONSTRUCTION).  Check every decision here instead,
    # in every rule variant, and that those phases were played.
    rules = rules_or_skip(preset, players)
    phases, refused = check_every_decision(monkeypatch, OddsAgent)
    for defender_decides in (False, True):
        game = rm.Game(players, rules, max_turns=40, defender_decides=defender_decides)
        rm.simulate(game, [OddsAgent()] * players, 2, seed=players)
    assert {rm.Phase.ATTACK, rm.Phase.OCCUPY, rm.Phase.REINFORCE} <= set(phases)
    assert refused == []


# -- found by a mutation test (2026-12-03): what no test held -------------------------------------------------------
AUSTRALIA = ["Indonesia", "New Guinea", "Eastern Australia", "Western Australia"]


def _siam_and(k: int) -> rm.GameState:
    """Two players; player 0 holds Siam (6 armies) and ``k`` territories outside Australia, player 1 the rest."""
    game = SHARED_GAME
    names = game.board.territories
    others = [n for n in names if n not in [*AUSTRALIA, "Siam"]]
    owners = dict.fromkeys(names, 1) | {"Siam": 0} | dict.fromkeys(others[:k], 0)
    return game.position(owners, dict.fromkeys(names, 2) | {"Siam": 6}, seed=1)


SHARED_GAME = rm.Game(2)


def test_remembered_plans_are_kept_apart_by_the_pool():
    # One region, two pools (3 and 25 armies to place): a plan cache keyed without the pool answered the second
    # from the first (0.2649 for 0.9998).
    oddsagent._PLANS.clear()
    small, big = _siam_and(5), _siam_and(30)
    assert (small.pool, big.pool) == (3, 25)
    for state in (small, big):
        remembered = oddsagent._plan_continent(state, 0, "Australia", state.pool, -1.0)
        assert remembered == plan_continent(state, 0, "Australia", armies=state.pool)
    assert round(oddsagent._plan_continent(big, 0, "Australia", big.pool, -1.0).probability, 4) == 0.9998


def test_a_route_goes_on_at_exactly_the_continue_threshold():
    # "at least continue_threshold" (the class docstring): a chance equal to the threshold still follows the route
    # (a mutant comparing with > stopped one army short).
    game = SHARED_GAME
    names = game.board.territories
    owners = dict.fromkeys(names, 1) | dict.fromkeys(names[:12], 0) | {"Siam": 0}
    state = game.position(owners, dict.fromkeys(names, 1) | {"Siam": 2}, seed=1)
    agent, rng = OddsAgent(), random.Random(0)
    while state.phase is rm.Phase.REINFORCE:
        state = state.apply(agent.act(state, rng))
    route = agent._plans[0][2][0]
    able = state.armies(route[0]) - 1
    agent.continue_threshold = oddsagent.chain_odds(able, tuple(state.armies(t) for t in route[1:]), game.rules.combat)
    assert agent.act(state, rng) == Blitz(names[route[0]], names[route[1]], stop_at=0)


# -- the one-stack guess (2026-12-04): a plan is skipped only where the guess is well below its floor ---------------
def test_a_plan_the_one_stack_guess_rules_out_is_not_made(monkeypatch):
    # Siam's 5 able armies and 3 to place against Australia's four territories of 2: one stack of 8 takes them,
    # strongest first, with the chance the guess gives; a floor above it by the margin skips the plan unasked.
    oddsagent._PLANS.clear()
    state = _siam_and(5)
    members = state.game.board.continents["Australia"].ids
    guess = oddsagent._one_stack_odds(state, 0, members, state.pool)
    assert guess == rm.evaluate.chain_win_probability(8, [2, 2, 2, 2])
    plan = plan_continent(state, 0, "Australia", armies=state.pool)
    assert plan.probability <= guess
    asked = []
    monkeypatch.setattr(oddsagent, "plan_continent_above", lambda *args: asked.append(args))
    assert oddsagent._plan_continent(state, 0, "Australia", state.pool, guess + oddsagent.ONE_STACK_MARGIN) is None
    assert asked == []
    oddsagent._PLANS.clear()
    oddsagent._plan_continent(state, 0, "Australia", state.pool, guess + oddsagent.ONE_STACK_MARGIN / 2)
    assert len(asked) == 1  # (within the margin: the plan is made)
    oddsagent._PLANS.clear()


@pytest.mark.parametrize(("preset", "players"), [("us_1993", 2), ("risiko", 4), ("us_1959", 3)])
def test_the_one_stack_guess_is_above_every_plan_by_more_than_the_margin(preset, players):
    # The guess is not a proven bound (odds.py, _one_stack_odds): held here against the plans of positions the odds
    # agent reaches, every continent not held by the player to move (bench/one_stack_guess.py measures more).
    game = rm.Game(players, rm.Rules.preset(preset), max_turns=40)
    agent, checked, closest = OddsAgent(), 0, -1.0
    for seed in range(2):
        state, rng = game.new_initial_state(seed=seed, auto_chance=True), random.Random(seed)
        while not state.is_terminal():
            if state.phase is rm.Phase.REINFORCE and state.pool:
                me = state.current_player
                for name, continent in game.board.continents.items():
                    if all(state.owner(t) == me for t in continent.ids):
                        continue
                    plan = plan_continent(state, me, name, armies=state.pool)
                    guess = oddsagent._one_stack_odds(state, me, continent.ids, state.pool)
                    closest = max(closest, plan.probability - guess)
                    checked += 1
            state = state.apply(agent.act(state, rng))
    assert checked > 100
    assert closest < oddsagent.ONE_STACK_MARGIN
