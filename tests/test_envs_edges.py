"""The environments at their edges: ids in odd forms, blitzes at the chance ids' bounds, observations kept in
place across episodes, the view and information-state strings, seeding, resampling, count choices out of range,
the end of a Gymnasium episode when the seat is eliminated.

Written from a mutation test of ``riskmath.envs`` (2026-12-03): each test fails on a plausible bug (named in its
docstring) that the rest of the suite let through, because the other tests see these behaviours only through
sampled games where the difference is too small or never arises.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from game_helpers import TOY, build

import riskmath as rm
from riskmath.envs import (
    BATTLE_ATTACKERS,
    BATTLE_DEFENDERS,
    ActionCodec,
    BattleChance,
    CountChoice,
    observation,
    observation_layout,
)
from riskmath.envs.codec import as_action_id
from riskmath.envs.hidden import resample_hidden, view_string
from riskmath.envs.observations import Observer, information_state, information_state_layout
from riskmath.errors import InvalidArgumentError

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from riskmath.envs.gymnasium import RiskEnv
from riskmath.envs.pettingzoo import env as aec_env

SMALL = "south_america_africa"


def blitz_node(game: rm.Game, attackers: int, defenders: int, stop_at: int = 0) -> rm.GameState:
    """The BLITZ chance node of Alaska (``attackers`` able to attack) on Kamchatka (``defenders``)."""
    armies = {"Alaska": attackers + 1, "Kamchatka": defenders}
    state = build(game, phase="attack", armies=armies, owner={"Alaska": 0, "Kamchatka": 1})
    return state.apply(rm.Blitz("Alaska", "Kamchatka", stop_at))


# -- action ids in the forms the spaces take ---------------------------------------------------------------------


def test_a_one_element_array_is_not_an_action_id():
    """Mutant C9 (``as_action_id`` without its ``shape == ()`` check, so a 1-element array became an int).

    ``as_action_id`` turns only 0-d integer arrays into ints (its docstring); Gymnasium's ``Discrete.contains``
    refuses ``np.array([k])``, and the environments step exactly what the space contains, so a 1-element array
    of a legal id is refused with InvalidArgumentError and changes nothing.
    """
    one = np.array([3])
    assert as_action_id(one) is one
    assert as_action_id(np.array(3)) == 3
    gym = RiskEnv(opponents=["random"], board=SMALL, max_turns=6)
    gym.reset(seed=5)
    legal = int(np.flatnonzero(gym.action_masks())[0])
    assert gym.action_space.contains(legal)
    assert not gym.action_space.contains(np.array([legal]))
    node = gym.node
    with pytest.raises(InvalidArgumentError):
        gym.step(np.array([legal]))
    assert gym.node is node
    aec = aec_env(players=2, board=SMALL, max_turns=6)
    aec.reset(seed=5)
    agent = aec.agent_selection
    legal = int(np.flatnonzero(aec.observe(agent)["action_mask"])[0])
    node = aec.unwrapped.node
    with pytest.raises(InvalidArgumentError):
        aec.step(np.array([legal]))
    assert aec.unwrapped.node is node
    assert aec.agent_selection == agent


# -- chance ids ----------------------------------------------------------------------------------------------------


def test_each_block_of_rolls_takes_its_losses_from_both_sides():
    """Mutant CH3 (a block's defender losses one short: ``span - k - 1`` instead of ``span - k``).

    120 armies blitzing 100 are far from both edges, so the first piece is a block of 16 rolls of 3 dice
    against 2: each roll costs the two sides 2 armies in all, so the block costs 32, and outcome ``k`` of the
    ``rolls`` block (``k`` attackers lost) leaves 120 - k attackers and 100 - (32 - k) defenders.  (The sampled
    distribution tests cannot see one defender a block at 120 v 100: the attacker wins nearly always.)
    """
    game = rm.Game(3)
    codec = ActionCodec(game)
    state = blitz_node(game, 120, 100)
    rolls = codec.chance_layout["rolls"]
    assert rolls.stop - rolls.start == 33
    assert [index for index, _ in codec.chance_outcomes(state)] == list(range(rolls.start, rolls.stop))
    for k in range(33):
        assert codec.decode_outcome(state, rolls.start + k) == BattleChance(state, 120 - k, 100 - (32 - k), 0)


def test_a_blitz_at_the_bounds_is_one_outcome_and_one_past_them_goes_in_pieces():
    """Mutant CH4 (``_battle_start`` with ``a < BATTLE_ATTACKERS``: a blitz of exactly the bound went in pieces).

    The chance ids number a blitz's end ``(attackers left, defenders left)`` for blitzes of *at most*
    ``BATTLE_ATTACKERS`` (64) attackers and ``BATTLE_DEFENDERS`` (16) defenders (module docstring).  At 64 v 16
    every outcome is in the ``battle`` block, the id of ``BattleOutcome(64, 0)`` (no attacker lost) is
    ``battle.start + 64 * 17 + 0``, and it decodes back; at 65 v 16 or 64 v 17 the first outcomes are pieces.
    """
    assert (BATTLE_ATTACKERS, BATTLE_DEFENDERS) == (64, 16)
    game = rm.Game(3)
    codec = ActionCodec(game)
    battle = codec.chance_layout["battle"]
    state = blitz_node(game, 64, 16)
    pairs = codec.chance_outcomes(state)
    assert all(battle.start <= index < battle.stop for index, _ in pairs)
    assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-12)
    index = codec.encode_outcome(state, rm.BattleOutcome(64, 0))
    assert index == battle.start + 64 * 17
    assert codec.decode_outcome(state, index) == rm.BattleOutcome(64, 0)
    for attackers, defenders in ((65, 16), (64, 17)):
        bigger = blitz_node(game, attackers, defenders)
        assert not any(battle.start <= index < battle.stop for index, _ in codec.chance_outcomes(bigger))


# -- observations kept in place across episodes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players", "board", "section"),
    [
        ("us_1993_secret_mission", 3, None, "mission"),
        ("us_1993_capital", 2, SMALL, "capitals"),
        ("us_1993", 2, SMALL, "piles"),
    ],
)
def test_observations_stay_exact_across_resets(preset, players, board, section):
    """Mutants O9, O11, O13 (the ``mission``, ``capitals`` or ``piles`` section not zeroed when the Observer
    rewrites it).

    The PettingZoo environment keeps its Observer (the in-place vectors) from one episode to the next, so a
    section written in one game must be cleared when the next game's value differs: a player's mission is
    dealt before the first decision and differs between seeds, headquarters and the 1993 two-player piles
    are set during the set-up.  Every agent's observation must equal ``observation(node, player,
    scaled=True)`` built from scratch at every step of three episodes in a row, and the section must have
    held something in some episode (so the test cannot pass by never writing it).
    """
    aec = aec_env(players=players, rules=rm.Rules.preset(preset), board=board, max_turns=2)
    raw = aec.unwrapped
    layout = observation_layout(raw.game)[section]
    written = 0
    for seed in range(3):
        aec.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in aec.agent_iter(max_iter=600):
            for player, name in enumerate(raw.possible_agents):
                expected = observation(raw.node, player, scaled=True)
                assert np.array_equal(aec.observe(name)["observation"], expected), (seed, name, raw.node)
                written += bool(expected[layout].any())
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            aec.step(int(legal[rng.integers(len(legal))]))
    assert written > 0


def test_the_gymnasium_observation_stays_exact_across_resets():
    """Mutant O9 (the ``mission`` section not zeroed when the Observer rewrites it), through Gymnasium.

    The environment's Observer outlives ``reset``; the seat's mission differs between seeds 0 and 1 of this
    game (checked), so the first observation of the second episode shows the old mission too unless the
    section is cleared.  Every observation must equal ``observation(node, seat, scaled=True)``.
    """
    gym = RiskEnv(opponents=["random", "random"], rules="us_1993_secret_mission", max_turns=2)
    missions = []
    for seed in range(3):
        obs, _ = gym.reset(seed=seed)
        missions.append(gym.state_now.mission(0))
        rng, done, steps = np.random.default_rng(seed), False, 0
        while not done and steps < 60:
            assert np.array_equal(obs["observation"], observation(gym.node, 0, scaled=True)), (seed, steps)
            obs, _, terminated, truncated, _ = gym.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done, steps = terminated or truncated, steps + 1
    assert len(set(missions)) > 1


# -- the view string and the information-state string --------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("captured", True),
        ("trade_down", True),
        ("moved", [0]),
        ("bonus_taken", 1),
        ("pool", 5),
        ("sets_traded", 2),
        ("turn", 7),
        ("first", 1),
        ("killed_by", [-1, -1, 0]),
    ],
)
def test_every_public_field_is_in_the_view_string(field, value):
    """Mutants H6 and H7 (``view_string`` without the ``captured`` or the ``moved`` field).

    ``view_string`` is the player's view "as one line: every public field" (its docstring lists them); OpenSpiel's
    information-state string is built on it, so two states that differ in one public field must give every
    player different strings, or an information-set search would merge them.  Each case changes one field of a
    mid-game Experts position (whose ``moved`` is read by the fortification rule) and nothing else.
    """
    game = rm.Game(3, rm.Rules.preset("us_1993_experts"))
    state = build(game, phase="attack")
    position = state.position.copy()
    assert getattr(position, field) != value
    setattr(position, field, value)
    other = rm.GameState(game, position)
    for player in range(3):
        assert view_string(other, player) != view_string(state, player), (field, player)


def test_the_view_string_of_a_count_choice_shows_the_count_so_far():
    """Mutant H9 (the pending count's ``chosen`` left out of ``view_string``).

    Two count choices of the same placement that differ only in the armies chosen so far are different
    decision points for the player (different legal count steps), so their view strings differ; the text
    ends with ``count place <source> -1 <low> <high> <chosen>``.
    """
    game = rm.Game(3)
    state = build(game, phase="reinforce", pool=5, player=0, owner={"Alaska": 0})
    codec = ActionCodec(game)
    first = codec.decode(state, codec.encode(state, rm.PlaceArmies("Alaska", 5)))
    assert isinstance(first, CountChoice)
    assert (first.low, first.high, first.chosen) == (1, 5, 0)
    second = codec.decode(first, codec.layout["count"].start + 1)  # add 2
    assert second.chosen == 2
    assert view_string(first, 0).endswith("|count place 0 -1 1 5 0")
    assert view_string(second, 0).endswith("|count place 0 -1 1 5 2")


def test_the_information_state_string_counts_the_decisions():
    """Mutant OS4 (the information-state string without its ``d<decisions>|`` prefix).

    The OpenSpiel information-state string is "the decisions taken so far and ``view_string``" (module
    docstring): ``d<k>|`` then the view.  At the first decision of a game no decision has been taken (``d0``),
    after one decision ``d1``; chance outcomes are not decisions.
    """
    pyspiel = pytest.importorskip("pyspiel")
    from riskmath.envs.openspiel import register

    register()
    game = pyspiel.load_game("python_risk", {"players": 2, "board": SMALL, "max_turns": 5})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    assert state.information_state_string(player) == "d0|" + view_string(state.node, player)
    state.apply_action(state.legal_actions()[0])
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for p in range(2):
        assert state.information_state_string(p) == "d1|" + view_string(state.node, p)


# -- seeding ---------------------------------------------------------------------------------------------------


def test_an_unseeded_reset_after_a_seeded_one_is_reproducible():
    """Mutant P4 (``reset(seed=...)`` no longer reseeding the generator that later unseeded resets draw from).

    As Gymnasium's ``reset`` does, a seed given once fixes the episodes that follow without one: two
    environments reset with seed 7 and then twice without a seed play the same games (the same initial
    states), and those differ from the seeded episode's.
    """
    one, two = aec_env(players=3, max_turns=5), aec_env(players=3, max_turns=5)
    states = []
    for aec in (one, two):
        aec.reset(seed=7)
        seeded = aec.unwrapped.state_now
        aec.reset()
        first = aec.unwrapped.state_now
        aec.reset()
        states.append((seeded, first, aec.unwrapped.state_now))
    assert states[0] == states[1]
    assert states[0][1] != states[0][0]


def test_the_information_observer_clears_a_discard_pile_that_shrinks():
    """Mutant O12 (the ``discard`` section of the information state not zeroed when the Observer rewrites it).

    OpenSpiel's states of one parameter set share one information-state Observer per thread, so the vector
    of a new game (empty discard pile) is written over the last game's.  Viewing a state with three cards
    discarded, then one with none, then one with a single other card, must give
    ``information_state(state, player)`` each time: the counts of cards no longer discarded back to 0.
    """
    first = build(rm.Game(3), phase="attack", discard=["Alaska", "Peru", "wild"])
    game = first.game
    observer = Observer(game, information=True)
    layout = information_state_layout(game)["discard"]
    states = [first]
    for discard in ([], ["Brazil"]):  # the discarded cards back in the deck, then one other card discarded
        position = first.position.copy()
        position.deck = [card for card in [*position.deck, *position.discard] if card not in discard]
        position.discard = list(discard)
        states.append(rm.GameState(game, position))
    assert [state.problems() for state in states] == [[], [], []]
    for state in states:
        for player in range(3):
            expected = information_state(state, player)
            assert np.array_equal(observer.view(state, player), expected)
    assert expected[layout].sum() == 1.0


# -- resampling ------------------------------------------------------------------------------------------------


def test_resampling_draws_the_other_players_missions_afresh():
    """Mutant H2 (``resample_hidden`` leaving the other players' missions as they were).

    The others' missions are hidden from player 0, so the resampler draws them again: over 30 seeds player 1
    and player 2 are each dealt more than one mission, never player 0's own (it is seen, so it is not in
    the pool), and player 0 keeps its mission every time.
    """
    game = rm.Game(3, rm.Rules.preset("us_1993_secret_mission"), max_turns=40)
    state = game.new_initial_state(seed=1, auto_chance=True)
    own = state.mission(0)
    drawn: dict[int, set[str]] = {1: set(), 2: set()}
    for seed in range(30):
        new = resample_hidden(state, 0, seed)
        assert new.mission(0) == own
        for q in (1, 2):
            assert new.mission(q) != own
            drawn[q].add(new.mission(q))
    assert len(drawn[1]) > 1
    assert len(drawn[2]) > 1


def test_resampling_draws_a_new_chance_generator():
    """Mutant H3 (``resample_hidden`` keeping the state's chance generator, so the dice to come are known).

    What the dice will roll is hidden (module docstring): each seed gives the resampled state a generator of
    its own, 64 bits drawn from the seeded ``random.Random``, so five seeds give five generators, none the
    original's, and the same seed the same one.
    """
    game = rm.Game(3, max_turns=40)
    state = game.new_initial_state(seed=4, auto_chance=True)
    generators = [resample_hidden(state, 0, seed).position.rng for seed in range(5)]
    assert len(set(generators)) == 5
    assert state.position.rng not in generators
    assert resample_hidden(state, 0, 3).position.rng == generators[3]


def test_a_count_choice_past_its_high_is_refused():
    """Mutant C13 (``_check_choice`` without its ``chosen <= high`` bound; tests/hostile catches it, the
    tests/test_envs_* files did not).

    A count choice of placing up to 5 on Alaska with 6 already chosen is no node the codec makes: its mask
    would allow "add" steps (``(5 - 6).bit_length()`` is 1) and "done" would decode to placing 6 of 5 armies.
    ``mask``, ``legal_ids`` and ``decode`` refuse it; with 5 chosen it is a node, and only "done" and
    "most" are legal.
    """
    game = rm.Game(3)
    state = build(game, phase="reinforce", pool=5, player=0, owner={"Alaska": 0})
    codec = ActionCodec(game)
    count = codec.layout["count"].start
    past = CountChoice(state, "place", 0, -1, 1, 5, 6)
    for call in (codec.mask, codec.legal_ids, lambda node: codec.decode(node, count + 32)):
        with pytest.raises(InvalidArgumentError):
            call(past)
    full = CountChoice(state, "place", 0, -1, 1, 5, 5)
    assert codec.legal_ids(full) == [count + 32, count + 33]
    assert codec.decode(full, count + 32) == rm.PlaceArmies("Alaska", 5)


# -- Gymnasium: the episode ends with the seat's elimination -----------------------------------------------------


def test_stepping_after_the_seat_is_eliminated_is_refused_while_the_others_play_on():
    """Mutant G7 (``RiskEnv.step`` sets ``_over`` only when the game is over, not when the seat is out).

    The toy board, three seats, the seat playing at random against two random agents, seed 2 (the "eliminated"
    case of test_envs_gymnasium's REWARD_CASES): the seat is eliminated at turn 5 and the episode ends there with
    ``terminated`` and -1, while players 1 and 2 play on (player 2 to move, occupying).  The module docstring:
    a loss ends the episode; so ``step`` must refuse any further id ("call reset() first") and change nothing,
    even an id legal for the player now to move.  On the mutant it would make player 2's move for the seat.
    """
    env = RiskEnv(opponents=["random", "random"], board=TOY, max_turns=12)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    terminated = truncated = False
    while not (terminated or truncated):
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.state_now
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert state.position.alive == [False, True, True]
    assert not state.is_terminal()
    assert state.current_player == 2
    assert not env.action_masks().any()
    assert not obs["action_mask"].any()
    other = int(np.flatnonzero(env.codec.mask(state))[0])  # legal for player 2, never for the seat
    with pytest.raises(InvalidArgumentError, match="the episode is over"):
        env.step(other)
    assert env.state_now is state
    assert env.node is state


# -- riskmath.envs.hidden: the missions a resampled state may deal -----------------------------------------------


def test_resampled_missions_are_never_already_complete():
    """Mutant H5 (``_resample_missions`` without the check against missions already complete).

    Secret Mission RISK, three players, missions checked at once (``mission_check="immediate"``).  Player 1
    holds all of Asia and Africa (18 territories, 2 armies each); players 0 and 2 split the other 24 (1 army
    each).  Dealt: player 0 "asia+south_america", player 1 "north_america+australia", player 2
    "north_america+africa"; none is complete, so the state is sound.  Resampled for player 0 the others draw from
    the 9 cards of ``missions_for("us_1993_12", 3)`` less player 0's own: 8.  For player 1, "asia+africa" (it
    holds both) and "occupy_18_2" (18 territories with 2 armies) would already be complete, which under
    immediate checks would have ended the game (the hidden module's docstring), so it may get the other 6 only;
    player 2 holds neither continent nor 18 territories, so it may get all 8.  Over 300 seeds each allowed
    mission turns up (each is drawn about once in 6 or 8 seeds: missing one is as likely as 14 * (7/8)**300,
    about 5e-17, and the seeds are fixed), and never another.
    """
    game = rm.Game(3, rm.Rules.preset("us_1993_secret_mission"))
    held = [t for c in ("Asia", "Africa") for t in game.board.continents[c].territories]
    state = build(
        game,
        owner=dict.fromkeys(held, 1),
        default_owner=lambda t: t % 2 * 2,  # players 0 and 2, alternately
        armies=dict.fromkeys(held, 2),
        default_armies=1,
        missions=["asia+south_america", "north_america+australia", "north_america+africa"],
    )
    assert state.problems() == []
    assert not any(state.mission_complete(p) for p in range(3))
    drawn = [resample_hidden(state, 0, seed).position.missions for seed in range(300)]
    assert all(missions[0] == "asia+south_america" for missions in drawn)
    assert all(missions[1] != missions[2] for missions in drawn)
    others = {"north_america+africa", "north_america+australia", "occupy_24", "destroy_0", "destroy_1", "destroy_2"}
    assert set(Counter(missions[1] for missions in drawn)) == others
    assert set(Counter(missions[2] for missions in drawn)) == others | {"asia+africa", "occupy_18_2"}


# -- OpenSpiel: the sampler's number seeds the resampled world ---------------------------------------------------


def test_the_samplers_number_seeds_the_resampled_world():
    """Mutant OS6 (``resample_from_infostate`` seeding its draw with 0 whatever the sampler returns).

    The docstring: one number from ``probability_sampler`` seeds the generator that draws the other hands, the
    deck order, the others' missions and the chance generator, so the same number gives the same world and,
    for ISMCTS to see more than one world, different numbers give different ones.  Two-player game on the small
    board after 150 random decisions (seed 4), when player 1 holds cards that player 0 has not seen: five
    numbers give five different hidden parts (the new chance generator alone is a 64-bit draw), each the same
    on a second call, and all with player 0's view.
    """
    pytest.importorskip("pyspiel")
    import pyspiel

    from riskmath.envs.openspiel import register

    register()
    game = pyspiel.load_game("python_risk", {"players": 2, "max_turns": 40, "board": "classic:South America+Africa"})
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    decisions = 0
    while not (decisions >= 150 and state.current_player() == 0 and state.risk_state.position.hands[1]):
        assert not state.is_terminal()
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1

    def hidden(number: float) -> tuple[object, ...]:
        new = state.resample_from_infostate(0, lambda: number)
        assert new.information_state_string(0) == state.information_state_string(0)
        assert view_string(new.node, 0) == view_string(state.node, 0)
        pos = new.risk_state.position
        return (tuple(pos.hands[1]), tuple(pos.deck), pos.rng)

    numbers = (0.0, 0.125, 0.25, 0.5, 0.875)
    worlds = [hidden(number) for number in numbers]
    assert worlds == [hidden(number) for number in numbers]
    assert len(set(worlds)) == len(numbers)
