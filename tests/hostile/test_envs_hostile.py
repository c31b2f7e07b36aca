"""Issue 19, items 6 and 7 for the environments and the game API: clear errors, and tables estimated first.

* The PettingZoo environment raised a raw ``KeyError`` for an agent name it
  does not know (``observe``, ``observation_space``, ``action_space``), for
  ``last()`` and ``step()`` once every agent had left a finished game, and an
  ``AttributeError`` for ``step()`` before ``reset()``: each is now an
  ``InvalidArgumentError`` naming the value.  Where the frameworks specify the
  error, theirs is kept (PettingZoo's order-enforcing wrapper, Gymnasium's seed
  check), and the tests pin that too.
* A sweep of the game API with junk (``Game``, ``Rules.preset``,
  ``Game.position``, ``Game.replay``, ``GameState.apply`` in every phase,
  ``reseeded`` and the player queries): only riskmath's errors come out.
* ``ActionCodec`` on a 1,000-territory board ran out of memory after 17 s; it
  now counts the trade ids it would number (exactly, without listing them) and
  refuses at once.
* ``victory_probabilities`` from a drawn start said the games were stopped at a cap
  they never reached.
"""

from __future__ import annotations

import math
import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath.agents import AggressiveAgent
from riskmath.envs import ActionCodec
from riskmath.envs.codec import _deck_sets, trade_count
from riskmath.errors import IllegalActionError, InvalidArgumentError, ResourceLimitError, RiskmathError

#: Values no argument expects: wrong types, out-of-range numbers, unhashable containers, objects (and a NumPy
#: integer, which is an action id and a player id but no agent name).
JUNK = [
    None,
    -1,
    10**30,
    1.5,
    float("nan"),
    "nobody",
    "",
    True,
    [0],
    {},
    (),
    b"player_0",
    np.int64(1),
    object(),
    rm.EndPhase,
    ("place", 0, 1),
]


# -- PettingZoo ----------------------------------------------------------------------------------------------------


def finished(aec):
    """Play ``aec`` (reset) to the end with random masked actions, stepping every agent out."""
    rng = np.random.default_rng(0)
    for _ in aec.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert aec.agents == []
    return aec


@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("value", [*JUNK, "player_2", "Player_0", "player_0 "])
def test_an_unknown_agent_is_named(wrapped, value):
    pytest.importorskip("pettingzoo")
    from riskmath.envs.pettingzoo import env, raw_env

    aec = (env if wrapped else raw_env)(players=2, max_turns=4)
    aec.reset(seed=1)
    expected = r"unknown agent .*; the agents are player_0, player_1"
    for method in (aec.observe, aec.observation_space, aec.action_space):
        with pytest.raises(InvalidArgumentError, match=expected):
            method(value)


def test_the_raw_env_before_reset_and_after_everyone_left():
    pytest.importorskip("pettingzoo")
    from riskmath.envs.pettingzoo import raw_env

    aec = raw_env(players=2, max_turns=4)
    for call in (lambda: aec.step(0), lambda: aec.step(None), aec.last, lambda: aec.observe("player_0")):
        with pytest.raises(InvalidArgumentError, match=r"no game yet: call reset\(\) first"):
            call()
    aec.reset(seed=2)
    finished(aec)
    for call in (lambda: aec.step(None), lambda: aec.step(3), aec.last):
        with pytest.raises(InvalidArgumentError, match=r"the game is over .* every agent has left: call reset\(\)"):
            call()
    assert aec.observe("player_0")["action_mask"].sum() == 0  # an agent that left may still look
    aec.reset(seed=3)  # and a new game starts as usual
    assert aec.agents == ["player_0", "player_1"]


def test_the_wrapped_env_keeps_pettingzoos_own_order_checks():
    """PettingZoo's OrderEnforcingWrapper defines these: an AssertionError before reset, a warning for a step
    after the end.  ``last()`` after the end is ours (the stock one raised KeyError)."""
    pytest.importorskip("pettingzoo")
    from riskmath.envs.pettingzoo import env

    aec = env(players=2, max_turns=4)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before step"):
        aec.step(0)
    with pytest.raises(AssertionError, match=r"reset\(\) needs to be called before observe"):
        aec.observe("player_0")
    from pettingzoo.utils.env_logger import EnvLogger

    aec.reset(seed=4)
    finished(aec)
    logged = len(EnvLogger.mqueue)
    aec.step(None)  # PettingZoo logs a warning and does nothing
    assert any("step() called after all agents are terminated" in m for m in EnvLogger.mqueue[logged:])
    with pytest.raises(InvalidArgumentError, match="every agent has left"):
        aec.last()


#: Junk as an action id (an integer in range is an id).
NOT_IDS = [value for value in JUNK if not isinstance(value, np.integer)]


@pytest.mark.parametrize("value", NOT_IDS)
def test_junk_actions_in_the_pettingzoo_env_are_refused_and_change_nothing(value):
    pytest.importorskip("pettingzoo")
    from riskmath.envs.pettingzoo import raw_env

    aec = raw_env(players=3, max_turns=4)
    aec.reset(seed=5)
    before = aec.state_now
    with pytest.raises((InvalidArgumentError, IllegalActionError)):
        aec.step(value)
    assert aec.state_now is before


@pytest.mark.parametrize("value", NOT_IDS)
def test_the_gymnasium_env_refuses_junk(value):
    gymnasium = pytest.importorskip("gymnasium")
    from riskmath.envs.gymnasium import RiskEnv

    for mode in ("raise", "lose"):
        env = RiskEnv(opponents=["random"], max_turns=4, illegal_action=mode)
        with pytest.raises(InvalidArgumentError, match=r"no game yet: call reset\(\) first"):
            env.step(0)
        env.reset(seed=1)
        with pytest.raises((InvalidArgumentError, IllegalActionError)):
            env.step(value)
    if value is not None and not (isinstance(value, int) and value >= 0):  # (Gymnasium takes True as 1)
        with pytest.raises(gymnasium.error.Error, match="Seed must be"):  # Gymnasium's own check of the seed
            env.reset(seed=value)


# -- the game API ------------------------------------------------------------------------------------------------


GAME = rm.Game(3, defender_decides=True, max_turns=30)


def states_of_every_phase() -> list[rm.GameState]:
    """One state of each phase (and chance node) a seeded random game of ``GAME`` passes through."""
    rng = random.Random(0)
    state, seen, found = GAME.new_initial_state(seed=3), set(), []
    while not state.is_terminal():
        key = (state.phase, state.is_chance_node())
        if key not in seen:
            seen.add(key)
            found.append(state)
        state = state.apply(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    return [*found, state]


STATES = states_of_every_phase()
ACTIONS = [
    *JUNK,
    rm.PlaceArmies("Alaska", 10**30),
    rm.PlaceArmies(["Alaska"], 1),
    rm.PlaceArmies(-1, 1),
    rm.Attack("Alaska", "Alaska", 3),
    rm.Blitz("Alaska", "Peru", -5),
    rm.Occupy(None),
    rm.Fortify("Alaska", "Kamchatka", 1.5),
    rm.TradeCards(("Alaska", "Peru")),
    rm.TradeCards(("wild", "wild", "wild")),
    rm.Defend(0),
    rm.ChoosePile(7),
    rm.ChooseCapital({}),
    ("blitz", 0, 1, 0),
    rm.game.actions.RollOutcome(5, 5),
    rm.game.actions.BattleOutcome(-1, 0),
]


def test_the_sweep_saw_every_phase_of_play():
    phases = {state.phase for state in STATES}
    assert {rm.Phase.REINFORCE, rm.Phase.ATTACK, rm.Phase.OCCUPY, rm.Phase.FORTIFY, rm.Phase.DEFEND} <= phases


@pytest.mark.parametrize("index", range(len(STATES)))
def test_junk_applied_in_every_phase_is_refused_and_changes_nothing(index):
    state = STATES[index]
    before = state.to_json()
    for action in ACTIONS:
        if state.is_terminal() or action not in state.legal_actions():
            with pytest.raises(RiskmathError):
                state.apply(action)
            assert state.is_legal(action) in (False, True)
    assert state.to_json() == before


@settings(max_examples=40)
@given(value=st.sampled_from(JUNK), where=st.integers(0, 12))
def test_junk_arguments_to_the_game_api_give_riskmath_errors(value, where):
    names = GAME.board.territories
    owners = {name: k % 3 for k, name in enumerate(names)}
    armies = dict.fromkeys(names, 2)
    state = GAME.new_initial_state(seed=1, auto_chance=True)
    calls = [
        lambda: rm.Game(value),
        lambda: rm.Game(3, value),
        lambda: rm.Game(3, None, value),
        lambda: rm.Game(3, max_turns=value),
        lambda: rm.Rules.preset(value),
        lambda: rm.Rules.describe_preset(value),
        lambda: GAME.replay(value),
        lambda: GAME.replay([value]),
        lambda: state.reseeded(value),
        lambda: GAME.position(owners, armies, current_player=value),
        lambda: GAME.position(owners | {"Alaska": value}, armies),
        lambda: GAME.position(owners, armies | {"Alaska": value}),
        lambda: GAME.position(owners, armies, cards={0: [value]}),
    ]
    try:
        calls[where]()
    except RiskmathError as error:
        message = str(error)
    else:
        return  # a value some call accepts (np.int64(1) for a player) is fine
    assert message


def test_reseeded_takes_any_integer_and_nothing_else():
    state = GAME.new_initial_state(seed=1)
    assert state.reseeded(np.int64(7)) == state.reseeded(7)
    assert state.reseeded(-1).position.rng == 2**64 - 1
    for bad in (1.5, "7", None, True):
        with pytest.raises(InvalidArgumentError, match=r"seed must be an integer, got"):
            state.reseeded(bad)


# -- the codec's size ---------------------------------------------------------------------------------------------


def line(n: int) -> rm.Board:
    names = [f"T{i}" for i in range(n)]
    return rm.Board.from_dict(
        {
            "name": f"line{n}",
            "continents": [{"name": "All", "bonus": 1, "territories": names}],
            "borders": [[names[i - 1], names[i]] for i in range(1, n)],
        }
    )


@settings(max_examples=20)
@given(n=st.integers(3, 40), wilds=st.integers(0, 5), symbols=st.sampled_from(["B", "A", "C"]))
def test_the_trade_count_is_the_number_of_trade_ids(n, wilds, symbols):
    rules = rm.Rules(wild_cards=wilds, card_symbols=symbols, two_player="none", starting_armies={2: 100})
    game = rm.Game(2, rules, line(n), max_turns=5)
    assert trade_count(game) == len(_deck_sets(game))


def test_the_classic_trade_count():
    assert trade_count(rm.Game(3)) == len(_deck_sets(rm.Game(3))) == 4739


@pytest.mark.parametrize("fortify", ["adjacent", "connected"])
def test_a_codec_too_big_is_refused_before_it_is_built(fortify):
    game = rm.Game(3, rm.Rules(starting_armies={3: 10_000}, fortify=fortify), line(1000), max_turns=10)
    start = time.perf_counter()
    with pytest.raises(ResourceLimitError, match=r"ActionCodec of a game on board 'line1000' \(1000 territories, "):
        ActionCodec(game)
    assert time.perf_counter() - start < 30  # a generous hang check: the refusal is a count, not a build
    with pytest.raises(ResourceLimitError):
        rm.envs.pettingzoo.raw_env(players=3, rules=game.rules, board=game.board)


def test_a_codec_within_the_limits_is_built():
    with rm.set_limits(max_seconds=math.inf):
        codec = ActionCodec(rm.Game(2, rm.Rules(two_player="none"), line(60), max_turns=5))
    assert len(codec.layout) == 11
    assert codec.layout["trade"].stop - codec.layout["trade"].start == 13250


# -- rollouts from a finished start ------------------------------------------------------------------------------


def test_the_turn_cap_of_rollouts_from_a_finished_start_is_its_own():
    drawn = rm.play(rm.Game(2, max_turns=3), [AggressiveAgent(), AggressiveAgent()], seed=1).final
    assert drawn.draw
    for more in (None, 5, 100):
        table = rm.victory_probabilities(drawn, "aggressive", 3, max_turns=more)
        assert table.attrs["draw"] == 1.0
        assert table.attrs["turn_cap"] == 3  # where the games stopped: not 3 + 5 or 3 + 100
    won = rm.play(rm.Game(2, max_turns=300), [AggressiveAgent(), AggressiveAgent()], seed=1).final
    assert won.winner is not None
    assert rm.victory_probabilities(won, "aggressive", 2, max_turns=5).attrs["turn_cap"] == 300
    game = rm.Game(2, rm.Rules(two_player="none"))  # no cap: a start won by player 0 says None
    names = game.board.territories
    start = game.position(dict.fromkeys(names, 0) | {"Peru": 1}, dict.fromkeys(names, 5) | {"Peru": 1})
    blitz = start.apply(rm.PlaceArmies("Brazil", start.pool)).apply(rm.Blitz("Brazil", "Peru"))
    over = blitz.apply(next(o for o, _ in blitz.chance_outcomes() if o.defenders_left == 0))
    assert over.winner == 0
    assert rm.victory_probabilities(over, "aggressive", 2).attrs["turn_cap"] is None


# -- issue 22, parts 4 and 5: resampling and the reward option ---------------------------------------------------


@pytest.mark.parametrize("value", JUNK)
def test_junk_for_zero_sum_is_named(value):
    pytest.importorskip("pettingzoo")
    from riskmath.envs.gymnasium import RiskEnv
    from riskmath.envs.pettingzoo import env

    if not isinstance(value, bool):
        with pytest.raises(InvalidArgumentError, match="zero_sum must be True or False, got"):
            env(players=2, zero_sum=value)
    if value is not None and not isinstance(value, bool):
        with pytest.raises(InvalidArgumentError, match="zero_sum must be None, True or False, got"):
            RiskEnv(opponents=["random"], zero_sum=value)


@pytest.mark.parametrize("value", JUNK)
def test_junk_for_resampling_is_named(value):
    pytest.importorskip("pyspiel")
    import pyspiel

    from riskmath.envs.hidden import resample_hidden, view_string
    from riskmath.envs.openspiel import register

    register()
    state = pyspiel.load_game("python_risk", {"players": 2, "board": "south_america_africa"}).new_initial_state()
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or not 0 <= value < 2:
        with pytest.raises(InvalidArgumentError, match=r"player_id must be a player id in 0\.\.1"):
            state.resample_from_infostate(value, lambda: 0.5)
        with pytest.raises(InvalidArgumentError, match=r"player must be a player id in 0\.\.1"):
            view_string(state.risk_state, value)
    with pytest.raises(InvalidArgumentError, match=r"probability_sampler\(\) must return a number in \[0, 1\]"):
        state.resample_from_infostate(0, lambda: value if not isinstance(value, np.integer) else 7)
    with pytest.raises(InvalidArgumentError, match="expected a GameState"):
        resample_hidden(value, 0, 0)
    if not isinstance(value, int) or isinstance(value, bool):
        with pytest.raises(InvalidArgumentError, match="seed must be an integer"):
            resample_hidden(state.risk_state, 0, value)


# -- the third hostile review (2026-12-03): the environments' public helpers --------------------------------


def _reinforcing() -> rm.GameState:
    game = rm.Game(2, board="south_america_africa")
    state, rng, agent = game.new_initial_state(seed=1, auto_chance=True), random.Random(0), AggressiveAgent()
    while state.phase is not rm.Phase.REINFORCE:
        state = state.apply(agent.act(state, rng))
    return state


def test_a_count_choice_built_wrong_is_refused_by_the_codec():
    """A hand-built CountChoice past its range, with a wrong range, an unknown kind or territory had a mask that
    disagreed with decode (and decoded to an illegal action); the codec now names it."""
    from riskmath.envs import CountChoice

    state = _reinforcing()
    codec = ActionCodec(state.game)
    mine = next(t for t in range(len(state.game.board)) if state.position.owner[t] == state.current_player)
    pool, add_one = state.pool, codec.layout["count"].start
    for bad in [
        CountChoice(state, "place", mine, -1, 1, pool + 1, 0),  # a range past the pool
        CountChoice(state, "place", mine, -1, 1, pool, pool + 5),  # a count past the range
        CountChoice(state, "place", mine, -1, 1, pool, -1),
        CountChoice(state, "nonsense", mine, -1, 1, pool),
        CountChoice(state, "place", 99, -1, 1, pool),
        CountChoice(state, "fortify", mine, mine, 1, pool),
    ]:
        for call in (codec.mask, codec.legal_ids, lambda node: codec.decode(node, add_one)):
            with pytest.raises(InvalidArgumentError, match="is not a count choice of its state"):
                call(bad)
    good = CountChoice(state, "place", mine, -1, 1, pool)
    assert codec.legal_ids(good)[0] == add_one
    assert codec.decode(good, add_one) == CountChoice(state, "place", mine, -1, 1, pool, 1)


def test_the_public_helpers_name_bad_arguments():
    from riskmath.envs import information_state, observation

    state = _reinforcing()
    for call in (observation, information_state):
        with pytest.raises(InvalidArgumentError, match="scaled must be True or False, got 'no'"):
            call(state, 0, scaled="no")
    with pytest.raises(InvalidArgumentError, match="ids must be a sequence of action ids"):
        ActionCodec(state.game).play(state, 3)
    for seed in (2**64, -(2**63) - 1, 1.5, True):
        with pytest.raises(InvalidArgumentError, match="seed must be"):
            state.reseeded(seed)
    assert state.reseeded(np.int64(7)).position.rng == 7
    assert state.reseeded(-1).position.rng == 2**64 - 1


def test_openspiel_observer_and_resampler_name_bad_arguments():
    pyspiel = pytest.importorskip("pyspiel")
    from riskmath.envs.openspiel import register

    register()
    game = pyspiel.load_game("python_risk", {"players": 3, "board": "south_america_africa_europe", "max_turns": 5})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer = game.make_py_observer()
    for bad in (-1, 3, True, 1.0, "0"):
        with pytest.raises(InvalidArgumentError, match=r"player must be a player id in 0\.\.2"):
            observer.set_from(state, bad)
    observer.set_from(state, np.int64(2))  # a NumPy id is an id
    np.testing.assert_array_equal(observer.tensor, rm.envs.observation(state.node, 2))
    with pytest.raises(InvalidArgumentError, match="probability_sampler must be a callable"):
        state.resample_from_infostate(0, 0.5)


def test_victory_probabilities_at_the_last_turn_a_game_may_reach():
    """A state built near the rules' last turn: the default cap stops there (it once named ``max_turns``, which
    the caller never passed); at the last turn itself the error says so."""
    from riskmath.game.rules import MAX_OPTION

    game = rm.Game(2)
    names = game.board.territories
    owners = {n: i % 2 for i, n in enumerate(names)}
    near = game.position(owners, dict.fromkeys(names, 2), turn=MAX_OPTION - 10, seed=1)
    assert rm.victory_probabilities(near, "random", n_games=2)["games"].tolist() == [2, 2]
    last = game.position(owners, dict.fromkeys(names, 2), turn=MAX_OPTION, seed=1)
    with pytest.raises(InvalidArgumentError, match="no turn is left to play"):
        rm.victory_probabilities(last, "random", n_games=2)
