"""A hypothesis state machine: random legal actions, chance outcomes and random (mostly illegal) actions.

Illegal actions must raise IllegalActionError and leave the state exactly as it was; after every step the
state is sound (``problems() == []``), every territory is held with at least one army once the set-up is
over, the 44 cards are all somewhere (deck, discard pile, hands) and players marked alive hold territory.
The project's hypothesis profile is derandomized, so every run checks the same games.
"""

from __future__ import annotations

import random

import pytest
from game_helpers import aggressive, check_invariants, play_until, random_action
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import riskmath as rm

NAMES = rm.Board.classic().territories
CARDS = [*NAMES, "wild"]

territories = st.one_of(
    st.sampled_from(NAMES),
    st.integers(-3, 45),
    st.sampled_from(["Atlantis", "", "alaska", "  Eastern   canada ", "wild"]),
    st.none(),
    st.booleans(),
)
counts = st.one_of(st.integers(-2, 30), st.booleans(), st.floats(allow_nan=False, allow_infinity=False), st.none())
cards = st.one_of(st.sampled_from(CARDS), st.sampled_from(["Narnia", "WILD"]), st.integers(0, 3))
actions = st.one_of(
    st.builds(rm.PlaceArmies, territories, counts),
    st.builds(rm.Attack, territories, territories, counts),
    st.builds(rm.Blitz, territories, territories, counts),
    st.builds(rm.Fortify, territories, territories, counts),
    st.builds(rm.Occupy, counts),
    st.builds(rm.Defend, counts),
    st.builds(rm.ChooseCapital, territories),
    st.builds(rm.TradeCards, st.tuples(cards, cards, cards) | st.lists(cards, max_size=4).map(tuple)),
    st.just(rm.EndPhase()),
    st.builds(rm.RollOutcome, counts, counts),
    st.builds(rm.BattleOutcome, counts, counts),
    st.builds(rm.DrawCard, cards),
    st.builds(rm.FirstPlayer, st.integers(-1, 6)),
    st.sampled_from([None, 0, "EndPhase", (1, 2)]),
)

GAMES = [
    ("us_1993", 2),
    ("us_1993", 3),
    ("us_1993", 5),
    ("us_1993_experts", 4),
    ("us_1993_secret_mission", 4),
    ("us_1993_capital", 3),
    ("euro_2003", 2),
    ("article_ja", 2),
    ("risiko", 6),
    ("us_1963", 3),
]


pytestmark = pytest.mark.slow  # 150 hypothesis games of 40 steps: about 20 s

RARE = frozenset({rm.Phase.SETUP_CAPITAL, rm.Phase.SETUP_MISSION, rm.Phase.TRADE_DOWN})


class Playout(RuleBasedStateMachine):
    state: rm.GameState

    @initialize(
        game=st.sampled_from(GAMES),
        seed=st.integers(0, 2**32),
        defender_decides=st.booleans(),
        ahead=st.sampled_from([0, 60, 150, 400, 1500]),
        policy=st.sampled_from([random_action, aggressive]),
    )
    def start(self, game, seed, defender_decides, ahead, policy):
        preset, players = game
        self.game = rm.Game(players, rm.Rules.preset(preset), defender_decides=defender_decides, max_turns=60)
        self.state = self.game.new_initial_state(seed=seed)
        self.rng = random.Random(seed)
        self.policy = policy
        self.run(ahead)

    def run(self, steps: int) -> None:
        """Play ``steps`` actions of the machine's policy (random, or attacking with everything).

        Stops early at the rarer phases, so that the other rules get to try actions there.
        """
        stop = lambda s: s.is_terminal() or s.phase in RARE  # noqa: E731
        self.state = play_until(self.state, stop, self.rng, choose=self.policy, limit=steps, must_stop=False)

    @precondition(lambda self: not self.state.is_terminal())
    @rule(pick=st.integers(0, 10**6))
    def legal_action_or_outcome(self, pick):
        state = self.state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes
            assert abs(sum(float(p) for _, p in outcomes) - 1) < 1e-9
            action = outcomes[pick % len(outcomes)][0]
        else:
            legal = state.legal_actions()
            assert len(legal) > 0, state
            action = legal[pick % len(legal)]
            assert state.is_legal(action)
        self.state = state.apply(action)

    @precondition(lambda self: not self.state.is_terminal())
    @rule()
    def sampled_outcome_or_action(self):
        self.state = self.state.apply(random_action(self.state, self.rng))

    @rule(steps=st.integers(1, 80))
    def run_ahead(self, steps):
        self.run(steps)

    @rule(action=actions)
    def any_action(self, action):
        state = self.state
        before = state.to_json()
        legal = not state.is_chance_node() and state.is_legal(action)
        assert (action in state.legal_actions()) is legal
        try:
            after = state.apply(action)
        except rm.IllegalActionError as error:
            message = str(error)
            refused = True
        else:
            refused = False
        if refused:
            assert not legal, (state, action, message)
            assert message.startswith(f"{action!r} is illegal in {state.phase.name} for "), message
            assert state.to_json() == before
            return
        if not state.is_chance_node():
            assert legal, (state, action)
        self.state = after

    @invariant()
    def sound(self):
        check_invariants(self.state)


Playout.TestCase.settings = settings(settings.default, max_examples=150, stateful_step_count=40)
TestPlayout = Playout.TestCase
