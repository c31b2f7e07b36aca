"""The integer action codec of riskmath.envs: round trips, exact masks, fixed sizes, chance ids, errors.

Every action the built-in agents choose in seeded games under every rules preset must come back from its ids;
the mask must be true exactly for the ids that decode to legal actions (checked against ``legal_actions()``,
whose length each mask reproduces), including pools and stacks of a billion armies; chance-outcome ids must
reproduce the outcomes and their probabilities, and a big blitz resolved in pieces must have the exact battle
distribution (Monte Carlo, fixed seed, stated tolerance).
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import riskmath as rm
from riskmath.agents import make_agent
from riskmath.envs import (
    BATTLE_ATTACKERS,
    BATTLE_DEFENDERS,
    COUNT_BITS,
    ActionCodec,
    BattleChance,
    CountChoice,
)
from riskmath.envs.chance_ids import ChanceIds
from riskmath.envs.codec import _count_steps
from riskmath.errors import IllegalActionError, InvalidArgumentError
from riskmath.game.checked import to_action
from riskmath.game.legality import check_action, enumerate_actions, legal_ranges
from tests.game_helpers import build, play_until, random_action, spread, tiered

PRESETS = rm.Rules.presets()


def canonical(state: rm.GameState, action: object) -> object:
    """The action as the codec gives it back: territory names canonical, a trade's cards in the listed order."""
    back = to_action(state.game, check_action(state.game, state.position, action))
    if isinstance(back, rm.TradeCards):
        index = {name: k for k, name in enumerate((*state.game.board.territories, "wild"))}
        back = rm.TradeCards(tuple(sorted(back.cards, key=index.__getitem__)))  # type: ignore[arg-type]
    return back


def round_trip(codec: ActionCodec, state: rm.GameState, action: object) -> None:
    ids = codec.steps(state, action)
    assert ids[0] == codec.encode(state, action)
    assert codec.mask(state)[ids[0]]
    node: object = state
    for index in ids:
        assert codec.mask(node)[index], (action, codec.describe(index))  # type: ignore[arg-type]
        node = codec.decode(node, index)  # type: ignore[arg-type]
    assert node == canonical(state, action)
    assert codec.play(state, ids) == node


def check_mask(codec: ActionCodec, state: rm.GameState, *, every_id: bool = False) -> None:
    """The mask's ids decode to legal actions or count choices whose whole range is legal, and together they
    stand for exactly the actions of ``legal_actions()`` (which lists blitzes with ``stop_at=0`` only)."""
    mask = codec.mask(state)
    assert mask.dtype == bool
    assert mask.shape == (codec.num_actions,)
    legal = state.legal_actions()
    total = 0
    for index in np.flatnonzero(mask):
        node = codec.decode(state, int(index))
        if isinstance(node, CountChoice):
            assert node.low < node.high
            for count in (node.low, node.high, (node.low + node.high) // 2):
                assert state.is_legal(node.action(count))
            for count in (node.low - 1, node.high + 1):
                if count >= 0:
                    assert not state.is_legal(node.action(count))
            total += 1 if node.kind == "blitz" else node.high - node.low + 1
        else:
            assert state.is_legal(node), node
            total += 1
    assert total == len(legal)
    rng = random.Random(len(legal))
    picks = range(len(legal)) if len(legal) <= 3000 else [rng.randrange(len(legal)) for _ in range(1000)]
    for i in picks:  # a pool of a billion lists a billion placements: a sample of them
        assert mask[codec.encode(state, legal[i])]
    if every_id:
        for index in np.flatnonzero(~mask):
            with pytest.raises(IllegalActionError, match="not legal"):
                codec.decode(state, int(index))


# -- sizes ----------------------------------------------------------------------------------------------------


def test_layout_covers_the_ids_exactly():
    for preset in PRESETS:
        codec = ActionCodec(rm.Game(3, rm.Rules.preset(preset)))
        blocks = list(codec.layout.values())
        assert blocks[0].start == 0
        assert blocks[-1].stop == codec.num_actions
        assert all(a.stop == b.start for a, b in itertools.pairwise(blocks))
        chance = list(codec.chance_layout.values())
        assert chance[0].start == 0
        assert chance[-1].stop == codec.num_chance_outcomes
        assert all(a.stop == b.start for a, b in itertools.pairwise(chance))


def test_classic_sizes():
    # 42 territories, 83 borders (166 directed), 3 attacking and 2 defending dice, 14 cards of each symbol
    # ([C4]-[C6]), 2 wilds: 3 C(14,3) + 14**3 + C(42,2) + 42 = 4739 sets.
    codec = ActionCodec(rm.Game(4))
    sizes = {name: block.stop - block.start for name, block in codec.layout.items()}
    assert sizes == {
        "place": 42,
        "attack": 166 * 3,
        "blitz": 166,
        "fortify": 166,
        "occupy": 1,
        "defend": 2,
        "trade": 4739,
        "capital": 42,
        "pile": 3,
        "end": 1,
        "count": COUNT_BITS + 2,
    }
    assert ActionCodec(rm.Game(4, rm.Rules(fortify="connected"))).layout["fortify"] == slice(
        706, 706 + 42 * 41
    )  # after place, attack, blitz
    chance = {name: block.stop - block.start for name, block in codec.chance_layout.items()}
    assert chance == {
        "first_player": 4,
        "card": 43,
        "mission": 0,
        "setup_place": 42,
        "roll": 12,
        "rolls": 33,  # 0..32 attacker losses in 16 rolls of 3 dice against 2
        "battle": (BATTLE_ATTACKERS + 1) * (BATTLE_DEFENDERS + 1),
    }


def test_num_actions_depends_only_on_the_game():
    game = rm.Game(3, max_turns=6)
    sizes = {ActionCodec(game).num_actions}
    rng = random.Random(0)
    state = game.new_initial_state(seed=0)
    codec = ActionCodec(game)
    for step in range(300):
        if state.is_terminal():
            break
        if step % 50 == 0:
            sizes.add(ActionCodec(game).num_actions)
        if not state.is_chance_node():
            sizes.add(len(codec.mask(state)))
        state = state.apply(random_action(state, rng))
    assert sizes == {ActionCodec(rm.Game(3)).num_actions}


# -- round trips ----------------------------------------------------------------------------------------------


AGENT_CASES = [(preset, agent) for agent in ("random", "aggressive", "odds") for preset in PRESETS]


# The fast tier: every preset, with one of the agents in turn.
@pytest.mark.parametrize(("preset", "agent"), tiered(AGENT_CASES, spread(AGENT_CASES)))
def test_agents_actions_round_trip(preset, agent):
    players = 2 if preset in ("us_1993", "euro_2003", "article_ja") else 3
    game = rm.Game(players, rm.Rules.preset(preset), max_turns=3 if agent == "odds" else 6)
    codec = ActionCodec(game)
    agents = [make_agent(agent) for _ in range(players)]
    rng = random.Random(preset)
    state = game.new_initial_state(seed=len(preset), auto_chance=True)
    decisions = 0
    while not state.is_terminal():
        action = agents[state.current_player].act(state, rng)
        round_trip(codec, state, action)
        if decisions % 13 == 0:
            check_mask(codec, state)
        decisions += 1
        state = state.apply(action)
    assert decisions > 20


sampled_actions = given(seed=st.integers(0, 10**6), steps=st.integers(0, 400), pick=st.floats(0, 1, exclude_max=True))


@settings(max_examples=15, deadline=None)
@sampled_actions
def test_sampled_legal_actions_round_trip(seed, steps, pick):
    check_sampled_action(seed, steps, pick)


@pytest.mark.slow  # a game played up to 400 steps an example: about 0.7 s in all
@settings(max_examples=40, deadline=None)
@sampled_actions
def test_sampled_legal_actions_round_trip_in_more_games(seed, steps, pick):
    check_sampled_action(seed, steps, pick)


def check_sampled_action(seed: int, steps: int, pick: float) -> None:
    game = rm.Game(2 + seed % 5, max_turns=30)
    codec = ActionCodec(game)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, auto_chance=True)
    for _ in range(steps):
        if state.is_terminal():
            return
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    legal = state.legal_actions()
    action = legal[int(pick * len(legal))]
    if isinstance(action, rm.Blitz):  # the listing has stop_at=0 only: draw any legal stop
        able = state.armies(action.source) - 1
        action = rm.Blitz(action.source, action.target, int(pick * 7919) % able)
    round_trip(codec, state, action)
    check_mask(codec, state)


@pytest.mark.slow  # every id at many nodes of a game: about 1.5 s (one attack node's ids stay in the fast tier)
def test_masks_are_exact_on_every_id():
    game = rm.Game(3, rm.Rules(fortify="connected"), max_turns=6)
    codec = ActionCodec(game)
    rng = random.Random(5)
    state = game.new_initial_state(seed=5, auto_chance=True)
    seen = set()
    while not state.is_terminal():
        if state.phase not in seen or rng.random() < 0.02:
            seen.add(state.phase)
            check_mask(codec, state, every_id=True)
        state = state.apply(rng.choice(state.legal_actions()))
    assert {rm.Phase.SETUP_CLAIM, rm.Phase.REINFORCE, rm.Phase.ATTACK, rm.Phase.FORTIFY} <= seen


def test_big_pools_and_stacks():
    game = rm.Game(3)
    codec = ActionCodec(game)
    billion = 10**9 + 7
    state = build(game, phase="reinforce", pool=billion, armies={"Alaska": 5})
    check_mask(codec, state)
    room = game.cap - 5  # an uncapped territory holds up to game.cap (10**9) armies
    for armies in (1, 2, 12345, 2**29 + 3, room - 1, room):
        round_trip(codec, state, rm.PlaceArmies("Alaska", armies))
    assert len(codec.steps(state, rm.PlaceArmies("Alaska", room))) == 2  # the move, then "most"
    # An attack from a stack of a billion: any stop_at, a fortification of any size.
    stacks = {"Alaska": game.cap, "Kamchatka": 3, "Northwest Territory": 4}
    owners = {"Alaska": 0, "Kamchatka": 1, "Northwest Territory": 0}
    attack = build(game, phase="attack", armies=stacks, owner=owners)
    check_mask(codec, attack)
    for stop in (0, 1, 77, game.cap - 2):
        round_trip(codec, attack, rm.Blitz("Alaska", "Kamchatka", stop))
    fortify = build(game, phase="fortify", armies=stacks, owner=owners)
    check_mask(codec, fortify)
    for armies in (1, 2**29 + 1, game.cap - 4 - 1):  # the target holds 4 of at most game.cap
        round_trip(codec, fortify, rm.Fortify("Alaska", "Northwest Territory", armies))
    capture = build(
        game, phase="occupy", armies={**stacks, "Kamchatka": 0}, owner={**owners, "Kamchatka": 0},
        occupy=[0, game.board.index("Kamchatka"), 3],
    )  # fmt: skip
    check_mask(codec, capture)
    for armies in (3, 4, 500_000_000, game.cap - 1):
        round_trip(codec, capture, rm.Occupy(armies))


@settings(max_examples=200, deadline=None)
@given(
    low=st.integers(0, 3),
    span=st.integers(1, 2**40),
    fraction=st.floats(0, 1),
    start=st.floats(0, 1),
)
def test_count_steps_reach_every_count(low, span, fraction, start):
    high = low + span
    count = low + int(fraction * span)
    chosen = int(start * count)  # a choice already under way
    ids = _count_steps(0, chosen, low, high, count)
    total, done = chosen, None
    for index in ids:
        assert done is None
        if index < COUNT_BITS:
            total += 1 << index
            assert total <= high
        else:
            done = total if index == COUNT_BITS else high
            assert done >= low
    assert done == count
    assert len(ids) <= COUNT_BITS + 1 + (count >> (COUNT_BITS - 1))


def test_int8_masks_equal_the_bool_masks_and_are_new_arrays():
    """``mask(node, np.int8)`` (what the environments hand out) is the bool mask as 0/1 bytes, made fresh each call
    (before and after the bool mask is kept with the codec's table), at states and count choices alike."""
    game = rm.Game(3, max_turns=8)
    codec = ActionCodec(game)
    rng = random.Random(11)
    state = game.new_initial_state(seed=11, auto_chance=True)
    checked = 0
    while not state.is_terminal():
        nodes: list[object] = [state]
        first = codec.legal_ids(state)[0]
        opened = codec.decode(state, first)
        if isinstance(opened, CountChoice):
            nodes.append(opened)
        for node in nodes:
            small = codec.mask(node, np.int8)  # before the bool mask is made and kept
            assert small.dtype == np.int8
            assert small.flags.writeable
            assert np.array_equal(small.view(bool), codec.mask(node))
            again = codec.mask(node, np.dtype("int8"))  # after it
            assert np.array_equal(again, small)
            assert again is not small
            small[:] = 0  # the caller's to change: the codec's next answer is whole
            assert np.array_equal(codec.mask(node, np.int8).view(bool), codec.mask(node))
            checked += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 50
    for bad in (np.float32, "int64", int, object()):
        with pytest.raises(InvalidArgumentError, match=r"dtype must be bool or numpy\.int8"):
            codec.mask(state, bad)


def test_count_choice_masks():
    game = rm.Game(3)
    codec = ActionCodec(game)
    state = build(game, phase="reinforce", pool=37)
    choice = codec.decode(state, codec.layout["place"].start)
    assert isinstance(choice, CountChoice)
    assert (choice.low, choice.high, choice.chosen) == (1, 37, 0)
    count = codec.layout["count"]
    mask = codec.mask(choice)
    assert np.flatnonzero(mask).tolist() == [*range(count.start, count.start + 6), count.stop - 1]  # 1..32, most
    choice = codec.decode(choice, count.start + 5)  # add 32
    mask = codec.mask(choice)
    assert np.flatnonzero(mask).tolist() == [*range(count.start, count.start + 3), count.stop - 2, count.stop - 1]
    assert codec.decode(choice, count.stop - 2) == rm.PlaceArmies("Alaska", 32)
    with pytest.raises(IllegalActionError, match="not legal"):
        codec.decode(choice, count.start + 3)  # 32 + 8 > 37
    with pytest.raises(IllegalActionError, match="not legal"):
        codec.decode(choice, 0)  # not a count step
    assert codec.encode(choice, rm.PlaceArmies("Alaska", 37)) == count.stop - 1
    with pytest.raises(IllegalActionError, match="cannot be reached"):
        codec.encode(choice, rm.PlaceArmies("Alaska", 3))  # below what is chosen
    with pytest.raises(IllegalActionError, match="cannot be reached"):
        codec.encode(choice, rm.PlaceArmies("Egypt", 33))


# -- chance outcomes ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["us_1993", "us_1993_secret_mission", "risiko", "us_1959"])
def test_chance_outcome_ids(preset):
    rules = rm.Rules.preset(preset)
    if preset == "us_1959":
        rules = rules.replace(setup="random")  # its placements are chance outcomes
    game = rm.Game(3, rules, defender_decides=True, max_turns=8)
    codec = ActionCodec(game)
    rng = random.Random(1)
    state = game.new_initial_state(seed=3)
    kinds = set()
    while not state.is_terminal():
        if state.is_chance_node():
            pairs = codec.chance_outcomes(state)
            ids = [i for i, _ in pairs]
            assert len(set(ids)) == len(ids)
            assert all(0 <= i < codec.num_chance_outcomes for i in ids)
            assert sum(p for _, p in pairs) == pytest.approx(1.0, abs=1e-12)
            exact = dict(state.chance_outcomes()) if state.phase is not rm.Phase.BLITZ else None
            outcome = state.sample_chance()
            if exact is not None or codec._battle_start(state) is None:
                index = codec.encode_outcome(state, outcome)
                assert codec.decode_outcome(state, index) == outcome
                if exact is not None:
                    assert dict(pairs)[index] == pytest.approx(float(exact[outcome]))
            kinds.add(type(outcome).__name__)
            state = state.apply(outcome)
        else:
            state = state.apply(random_action(state, rng))
    assert {"FirstPlayer", "DrawCard", "RollOutcome"} <= kinds


def blitz_node(game: rm.Game, attackers: int, defenders: int, stop_at: int = 0) -> rm.GameState:
    """The BLITZ chance node of Alaska (``attackers`` able to attack) on Kamchatka (``defenders``)."""
    armies = {"Alaska": attackers + 1, "Kamchatka": defenders}
    state = build(game, phase="attack", armies=armies, owner={"Alaska": 0, "Kamchatka": 1})
    return state.apply(rm.Blitz("Alaska", "Kamchatka", stop_at))


def resolve_in_pieces(codec: ActionCodec, state: rm.GameState, rng: np.random.Generator) -> rm.BattleOutcome:
    node: object = state
    pieces = 0
    while not isinstance(node, rm.BattleOutcome):
        pairs = codec.chance_outcomes(node)  # type: ignore[arg-type]
        assert 0 < len(pairs) <= codec.num_chance_outcomes
        ids, probabilities = zip(*pairs, strict=True)
        node = codec.decode_outcome(node, int(rng.choice(ids, p=np.array(probabilities) / sum(probabilities))))  # type: ignore[arg-type]
        pieces += 1
        assert pieces < 10_000
    return node


@pytest.mark.slow
def test_a_big_blitz_in_pieces_has_the_battle_distribution():
    game = rm.Game(3)
    codec = ActionCodec(game)
    state = blitz_node(game, 80, 20, stop_at=5)
    assert isinstance(codec.decode_outcome(state, codec.chance_outcomes(state)[0][0]), (BattleChance, rm.BattleOutcome))
    with pytest.raises(IllegalActionError, match="no outcome id"):
        codec.encode_outcome(state, rm.BattleOutcome(80, 0))  # too big for one id: it goes in pieces
    rng = np.random.default_rng(2024)
    samples = 3000
    ends = [resolve_in_pieces(codec, state, rng) for _ in range(samples)]
    for end in ends:
        assert state.apply(end)  # a legal outcome of the node
    exact = rm.battle(80, 20, stop_at=5)
    wins = sum(end.defenders_left == 0 for end in ends) / samples
    # 4.5 standard errors of a proportion: a false alarm about once in 150,000 runs at this fixed seed.
    se = (exact.win_probability * (1 - exact.win_probability) / samples) ** 0.5
    assert abs(wins - exact.win_probability) < 4.5 * se + 1e-9
    mean_left = np.mean([end.attackers_left for end in ends])
    std = exact.std_attacker_losses
    assert abs(mean_left - exact.expected_attackers_left) < 4.5 * std / samples**0.5


@pytest.mark.slow  # a sampled distribution: about 1 s
def test_a_blitz_in_blocks_of_rolls_has_the_battle_distribution():
    game = rm.Game(3)
    codec = ActionCodec(game)
    state = blitz_node(game, 120, 100)
    first = {index for index, _ in codec.chance_outcomes(state)}
    assert first == set(range(codec.chance_layout["rolls"].start, codec.chance_layout["rolls"].stop))
    rng = np.random.default_rng(7)
    samples = 1500
    ends = [resolve_in_pieces(codec, state, rng) for _ in range(samples)]
    exact = rm.battle(120, 100)
    wins = sum(end.defenders_left == 0 for end in ends) / samples
    se = (exact.win_probability * (1 - exact.win_probability) / samples) ** 0.5
    assert abs(wins - exact.win_probability) < 4.5 * se + 1e-9  # 4.5 standard errors, fixed seed
    mean_left = np.mean([end.defenders_left for end in ends])
    assert abs(mean_left - exact.expected_defenders_left) < 4.5 * exact.std_defender_losses / samples**0.5


def test_a_block_of_rolls_has_the_exact_loss_distribution():
    # 16 independent rolls of 3 dice against 2: the attacker loses 0, 1 or 2 a roll with 2890/7776, 2611/7776 and
    # 2275/7776 (the 1993 odds, [R1]); the block's distribution is their 16-fold convolution.
    codec = ActionCodec(rm.Game(3))
    block = np.array(codec._block)
    one = np.array([2890, 2611, 2275]) / 7776
    expected = np.array([1.0])
    for _ in range(16):
        expected = np.convolve(expected, one)
    assert np.allclose(block, expected, rtol=1e-12, atol=0)
    assert block @ np.arange(33) == pytest.approx(16 * (one @ np.arange(3)), rel=1e-12)


def test_a_huge_blitz_needs_no_big_table():
    game = rm.Game(3)
    codec = ActionCodec(game)
    state = blitz_node(game, 3000, 3000)  # 4,931 outcomes as one chance node (issue 13); in pieces of at most 33
    assert len(codec.chance_outcomes(state)) == 33  # a block of 16 rolls of 3 dice against 2
    end = resolve_in_pieces(codec, state, np.random.default_rng(0))
    assert end.attackers_left == 0 or end.defenders_left == 0
    state.apply(end)


# -- errors ---------------------------------------------------------------------------------------------------


def test_errors():
    game = rm.Game(3)
    codec = ActionCodec(game)
    state = game.new_initial_state(seed=1, auto_chance=True)
    with pytest.raises(InvalidArgumentError, match="Game"):
        ActionCodec("classic")  # type: ignore[arg-type]
    other = rm.Game(4).new_initial_state(seed=1, auto_chance=True)
    for call in (codec.mask, lambda s: codec.decode(s, 0), lambda s: codec.encode(s, rm.PlaceArmies("Alaska"))):
        with pytest.raises(InvalidArgumentError, match="belongs to"):
            call(other)
    assert codec.mask(rm.Game(3).new_initial_state(seed=1, auto_chance=True)).any()  # an equal game is fine
    for index in (-1, codec.num_actions, 2**70):
        with pytest.raises(InvalidArgumentError, match=f"0..{codec.num_actions - 1}, got {index}"):
            codec.decode(state, index)
    for index in (1.0, True, "3", None):
        with pytest.raises(InvalidArgumentError, match="integer"):
            codec.decode(state, index)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="GameState"):
        codec.mask("state")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not legal"):
        codec.decode(state, codec.layout["end"].start)
    with pytest.raises(IllegalActionError, match="illegal"):
        codec.encode(state, rm.EndPhase())
    with pytest.raises(IllegalActionError, match="not a decision node"):
        codec.encode(game.new_initial_state(seed=1), rm.EndPhase())
    with pytest.raises(InvalidArgumentError, match="outcome index"):
        codec.decode_outcome(game.new_initial_state(seed=1), codec.num_chance_outcomes)
    with pytest.raises(IllegalActionError, match="not an outcome"):
        codec.decode_outcome(game.new_initial_state(seed=1), codec.chance_layout["card"].start)
    with pytest.raises(IllegalActionError, match="end before"):
        codec.play(build(game, phase="reinforce", pool=5), [0])
    with pytest.raises(IllegalActionError, match="go on after"):
        codec.play(state, [0, 0])
    rolling = build(game, phase="attack", armies={"Alaska": 9, "Kamchatka": 5}, owner={"Alaska": 0, "Kamchatka": 1})
    rolling = rolling.apply(rm.Attack("Alaska", "Kamchatka", 3))
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        codec.encode_outcome(rolling, rm.RollOutcome(0, 0))  # three dice against two lose two armies in all
    with pytest.raises(IllegalActionError, match="no outcome id"):
        codec.encode_outcome(rolling, rm.FirstPlayer(0))
    assert codec.mask(game.new_initial_state(seed=1)).sum() == 0  # a chance node has no legal action
    assert codec.chance_outcomes(state) == []


def test_legal_ranges_match_the_listing():
    game = rm.Game(4, max_turns=12)
    rng = random.Random(3)
    state = game.new_initial_state(seed=3, auto_chance=True)
    while not state.is_terminal():
        ranges = legal_ranges(game, state.position)
        count = 0
        for spec in ranges:
            kind = spec[0]
            if kind in ("place", "occupy", "defend", "fortify"):
                count += spec[-1] - spec[-2] + 1
            elif kind == "attack":
                count += len(spec[2]) * (spec[3] + 1)
            elif kind == "trade":
                count += len(spec[1])
            else:
                count += 1
        assert count == len(state.legal_actions())
        state = state.apply(rng.choice(state.legal_actions()))
    assert legal_ranges(game, game.new_initial_state(seed=0).position) == []


def test_no_framework_is_imported():
    code = "import sys, riskmath.envs; print(sorted({'pyspiel', 'pettingzoo', 'gymnasium'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_id_in_a_two_player_attack():
    game = rm.Game(2)
    state = play_until(game.new_initial_state(seed=0), lambda s: s.phase is rm.Phase.ATTACK, random.Random(0))
    check_mask(ActionCodec(game), state, every_id=True)


# The fast tier: every other preset.
@pytest.mark.parametrize("preset", tiered(list(PRESETS), list(PRESETS[::2])))
def test_masked_random_play_takes_only_legal_actions(preset):
    # Every id the mask allows, in every phase (defenders choosing dice too), decodes to an action that
    # apply() accepts after checking it; and its steps encode back to the ids taken.
    players = 2 if preset in ("us_1993", "euro_2003") else 3
    game = rm.Game(players, rm.Rules.preset(preset), defender_decides=True, max_turns=5)
    codec = ActionCodec(game)
    rng = np.random.default_rng(len(preset))
    state = game.new_initial_state(seed=len(preset), auto_chance=True)
    phases = set()
    while not state.is_terminal():
        node: object = state
        taken = []
        while node is state or isinstance(node, CountChoice):
            legal = np.flatnonzero(codec.mask(node))  # type: ignore[arg-type]
            taken.append(int(rng.choice(legal)))
            node = codec.decode(node, taken[-1])  # type: ignore[arg-type]
        assert codec.play(state, codec.steps(state, node)) == node
        assert codec.play(state, taken) == node
        phases.add(state.phase)
        state = state.apply(node)  # checked
    assert {rm.Phase.ATTACK, rm.Phase.DEFEND} <= phases


@pytest.mark.parametrize("players", [2, 4])
def test_the_battle_outcome_cache_answers_as_a_fresh_codec(players):
    """A roll's outcome ids are kept by the dice, a blitz's (or a piece's) by the armies and stop_at (issue 22
    part 6): at every chance node of random games the codec that has seen the game so far lists exactly what
    a new codec lists, and the rolls and blitzes met repeat keys (so the cache is read, not only filled)."""
    game = rm.Game(players, max_turns=12)
    codec = ActionCodec(game)
    rng = random.Random(players)
    keys: list[tuple[object, ...]] = []
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            node = state
            while True:  # a big blitz goes in pieces: each piece's ids too
                outcomes = codec.chance_outcomes(node)
                assert outcomes == ChanceIds(game).chance_outcomes(node)
                if not outcomes:
                    break
                if state.phase in (rm.Phase.ROLL, rm.Phase.BLITZ):
                    pos = state.position
                    keys.append((state.phase, pos.armies[pos.pending.source], pos.armies[pos.pending.target]))
                ids, probabilities = zip(*outcomes, strict=True)
                result = codec.decode_outcome(node, rng.choices(ids, probabilities)[0])
                if not isinstance(result, BattleChance):
                    state = state.apply(result)
                    break
                node = result
            if not state.is_terminal() and not state.is_chance_node():
                state = state.apply(rng.choice(list(state.legal_actions())))
    assert len(keys) > len(set(keys)) > 10


def test_legal_ids_are_the_true_entries_of_the_mask():
    """``legal_ids`` (OpenSpiel's legal actions, made from the legal ranges without an array; issue 22 part 6) lists
    exactly the mask's true entries in increasing order, at every decision node of random games, count choices
    included; and the ranges made without listing the actions are the ranges made beside the listing."""
    game = rm.Game(4, rm.Rules(fortify="connected"), max_turns=10)
    codec = ActionCodec(game)
    rng = random.Random(7)
    kinds: set[str] = set()
    for seed in range(2):
        state = game.new_initial_state(seed=seed, auto_chance=True)
        node: rm.GameState | CountChoice = state
        while not state.is_terminal():
            if node is state:
                ranges: list[tuple[object, ...]] = []
                runs = enumerate_actions(game, state.position, ranges)
                assert legal_ranges(game, state.position) == ranges
                assert enumerate_actions(game, state.position, [], listing=False) == []
                assert sum(count for count, _ in runs) == len(state.legal_actions())
                kinds.update(str(spec[0]) for spec in ranges)
            ids = codec.legal_ids(node)
            assert ids == np.flatnonzero(codec.mask(node)).tolist()
            assert ids is not codec.legal_ids(node)  # a new list each time
            result = codec.decode(node, rng.choice(ids))
            if isinstance(result, CountChoice):
                node = result
                continue
            state = node = state.apply(result)
    assert {"place", "attack", "fortify", "end"} <= kinds


def test_card_draw_ids_are_the_rules_models_outcomes():
    """A card draw's outcome ids are listed without the rules model's outcome objects (issue 22 part 6): at every
    draw of random games they are the rules model's outcomes, in its order, with its probabilities as floats."""
    game = rm.Game(3, max_turns=30)
    codec = ActionCodec(game)
    draws = 0
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase in (rm.Phase.DRAW, rm.Phase.SETUP_DEAL):
                listed = [(codec.encode_outcome(state, o), float(p)) for o, p in state.chance_outcomes()]
                assert codec.chance_outcomes(state) == listed
                draws += 1
            if state.is_chance_node():
                state = state.apply(state.sample_chance())
            else:
                state = state.apply(rng.choice(list(state.legal_actions())))
    assert draws > 20


def test_a_trade_whose_order_moves_the_bonus_is_refused_by_encode_not_swapped():
    # The 1993 +2 goes on the first traded card that shows a territory of the player's, in the order given; the
    # codec has one id per set of cards and plays the listed order, and encode/steps turned another order into it
    # silently (hostile review of the environments, 2026-12-03).
    game = rm.Game(3)
    names = game.board.territories
    owners = {name: i % 3 for i, name in enumerate(names)} | {"China": 0, "Western Australia": 0}
    state = game.position(owners, dict.fromkeys(names, 2), cards={0: ["China", "Western Australia", "wild"]}, seed=1)
    codec = ActionCodec(game)
    listed = next(a for a in state.legal_actions() if isinstance(a, rm.TradeCards))
    other = rm.TradeCards((*reversed([c for c in listed.cards if c != "wild"]), "wild"))
    assert state.is_legal(other)
    assert state.apply(other) != state.apply(listed)  # the bonus on the other territory
    assert codec.play(state, codec.steps(state, listed)) == listed
    with pytest.raises(rm.IllegalActionError, match="puts the territory-card bonus elsewhere than"):
        codec.encode(state, other)


def test_a_count_choice_with_numpy_territories_is_refused_for_that():
    # A CountChoice like the codec's own but with source=np.int64(1) was refused as "the legal range of 'place'
    # from 1 to -1 is None", where the range is there and the type is the cause (hostile review, 2026-12-03).
    import dataclasses

    game = rm.Game(3)
    codec = ActionCodec(game)
    state = game.new_initial_state(seed=1, auto_chance=True)
    while state.phase is not rm.Phase.REINFORCE:
        state = state.apply(state.legal_actions()[0])
    node = codec.decode(state, codec.legal_ids(state)[0])
    assert isinstance(node, CountChoice)
    with pytest.raises(rm.InvalidArgumentError, match=r"source must be a territory id, a plain int, got np.int64"):
        codec.mask(dataclasses.replace(node, source=np.int64(node.source)))
    assert codec.mask(node).any()
