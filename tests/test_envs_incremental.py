"""The environments' cached and in-place observations never go stale, and what they hand out is the caller's.

The PettingZoo environment keeps each player's observation vector in a buffer that it rewrites only where
the node changed (riskmath.envs.observations.Observer), and reads the codec's cached mask.  These tests
play seeded random masked games through the environment and compare, at every step, what ``observe``
returns against ``observation(node, player, scaled=True)`` and ``codec.mask(node)`` computed from scratch; the agents
observed each step are a random subset, so a buffer also has to catch up over several nodes at once.
The sweeps cover presets with cards, missions and capitals, 2 to 6 players, and the events that change
many sections at once: trades, captures, eliminations, chance (every battle) and the turn cap; each
sweep asserts that those events happened, so it cannot pass by never reaching them.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from game_helpers import TOY, tiered

import riskmath as rm
from riskmath.envs import ActionCodec, CountChoice, information_state, observation
from riskmath.envs.observations import Observer
from riskmath.envs.pettingzoo import RiskAECEnv, env, raw_env
from riskmath.game.phase import Phase


def checked_rollout(aec: RiskAECEnv, seed: int, max_steps: int = 4000) -> dict[str, int]:
    """A random masked rollout checking every observation handed out against one built from scratch, and
    every move the environment applies (unchecked) against the same move applied with the legality check.

    Returns counts of the events seen: decisions, count steps, trades, captures, eliminations, truncations.
    """
    raw = aec.unwrapped
    codec = raw.codec
    trade = codec.layout["trade"]
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = dict.fromkeys(("decisions", "counts", "trades", "captures", "eliminated", "truncated"), 0)
    for agent in aec.agent_iter(max_iter=max_steps):
        node = raw.node
        # a random subset of the others first (so their buffers skip nodes), then the agent to step
        others = [a for a in aec.agents if a != agent and rng.random() < 0.3]
        for name in [*others, agent]:
            obs = aec.observe(name)
            player = raw.possible_agents.index(name)
            assert np.array_equal(obs["observation"], observation(node, player, scaled=True)), (seed, name, node)
            to_move = name == agent and not (aec.terminations[name] or aec.truncations[name])
            expected = codec.mask(node) if to_move else np.zeros(codec.num_actions, dtype=bool)
            assert obs["action_mask"].dtype == np.int8
            assert np.array_equal(obs["action_mask"], expected.astype(np.int8)), (seed, name, node)
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            seen["truncated" if truncated else "eliminated"] += 1
            aec.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        seen["decisions"] += 1
        seen["counts"] += isinstance(node, CountChoice)
        seen["trades"] += trade.start <= action < trade.stop
        before, result = raw.state_now, codec.decode(node, action)
        aec.step(action)
        if not isinstance(result, CountChoice):  # the env applies unchecked: the checked path must agree
            assert raw.state_now == before.apply(result, check=True), (seed, result)
        seen["captures"] += raw.state_now.phase is Phase.OCCUPY and raw.node is raw.state_now
    return seen


CLASSIC = [("us_1993", 2), ("us_1993_secret_mission", 3), ("us_1993_capital", 4), ("euro_2003", 5), ("us_1993", 6)]


@pytest.mark.parametrize(("preset", "players"), tiered(CLASSIC, [("us_1993", 2), ("us_1993_capital", 4)]))
def test_observations_and_masks_match_from_scratch_on_the_classic_board(preset, players):
    aec = env(players=players, rules=rm.Rules.preset(preset), max_turns=40)
    seen = checked_rollout(aec, seed=players)
    assert seen["decisions"] > 500
    assert seen["counts"] > 0
    assert seen["captures"] > 0
    assert seen["trades"] > 0  # 40 player-turns of random play trade cards in every one of these games
    assert aec.agents == []


def test_eliminations_wins_and_the_turn_cap_on_the_toy_board():
    # Toy board, 3 players, 10 turns: games that end by a win, by the cap, and with a player eliminated first.
    ends = {"won": 0, "cap": 0, "eliminated before the end": 0}
    for seed in range(8):
        aec = env(players=3, board=TOY, max_turns=10)
        seen = checked_rollout(aec, seed)
        assert seen["eliminated"] + seen["truncated"] == 3
        state = aec.unwrapped.state_now
        ends["won" if state.winner is not None else "cap"] += 1
        ends["eliminated before the end"] += state.winner is None and seen["eliminated"] > 0
    assert all(ends.values()), ends


def test_the_raw_env_checks_the_same():
    seen = checked_rollout(raw_env(players=4, max_turns=12), seed=11)
    assert seen["decisions"] > 100


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_long_games_on_every_preset(seed):
    presets = rm.Rules.presets()
    preset = presets[seed % len(presets)]
    players = 2 + seed % 5
    if preset == "us_1993_secret_mission" and players < 3:
        players = 3
    seen = checked_rollout(env(players=players, rules=rm.Rules.preset(preset), max_turns=120), seed, 60_000)
    assert seen["decisions"] > 0


def test_returned_arrays_are_the_callers():
    aec = env(players=3, max_turns=8)
    aec.reset(seed=2)
    agent = aec.agent_selection
    first = aec.observe(agent)
    kept = {key: value.copy() for key, value in first.items()}
    again = aec.observe(agent)  # the same node: equal, but not the same arrays
    assert again["observation"] is not first["observation"]
    assert again["action_mask"] is not first["action_mask"]
    first["observation"][:] = 7.0  # the caller may write to what it got ...
    first["action_mask"][:] = 1
    third = aec.observe(agent)  # ... without changing what the environment hands out next
    assert np.array_equal(third["observation"], kept["observation"])
    assert np.array_equal(third["action_mask"], kept["action_mask"])
    rng = np.random.default_rng(2)
    for _ in range(50):  # and later steps do not change arrays handed out before
        legal = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
        aec.step(int(rng.choice(legal)))
    assert np.array_equal(again["observation"], kept["observation"])
    assert np.array_equal(again["action_mask"], kept["action_mask"])


OBSERVERS = [
    (information, *game)
    for information in (False, True)
    for game in [("us_1993", 3, True), ("us_1993_capital", 4, False)]
]


@pytest.mark.parametrize(
    ("information", "preset", "players", "defender_decides"),
    tiered(OBSERVERS, [(False, "us_1993", 3, True), (True, "us_1993_capital", 4, False)]),
)
def test_observer_matches_from_scratch_through_the_codec(information, preset, players, defender_decides):
    # The observer directly, in games the environment does not make (the defender choosing its dice),
    # and in its information-state form; every player views every node, in a shuffled order.
    game = rm.Game(players, rm.Rules.preset(preset), defender_decides=defender_decides, max_turns=30)
    codec, observer = ActionCodec(game), Observer(game, information=information)
    scratch = information_state if information else observation
    rng = np.random.default_rng(players)
    state = game.new_initial_state(seed=players, auto_chance=True)
    defends = 0
    while not state.is_terminal():
        node: object = state
        defends += state.phase is Phase.DEFEND
        while node is state or isinstance(node, CountChoice):
            for player in rng.permutation(players)[: rng.integers(1, players + 1)]:
                expected = scratch(node, int(player))  # type: ignore[arg-type]
                if rng.random() < 0.5:  # the float list too (kept per player, read again where view rewrote)
                    assert same_bits(observer.values(node, int(player)), expected)  # type: ignore[arg-type]
                assert np.array_equal(observer.view(node, int(player)), expected)  # type: ignore[arg-type]
            legal = np.flatnonzero(codec.mask(node))  # type: ignore[arg-type]
            node = codec.decode(node, int(legal[rng.integers(len(legal))]))  # type: ignore[arg-type]
        player = int(rng.integers(players))  # back from the count steps to the state itself: no choice left over
        assert np.array_equal(observer.view(state, player), scratch(state, player))
        state = state.apply(node)
    assert defends > 0 or not defender_decides


def same_bits(values: list[float], expected: np.ndarray) -> bool:
    """Whether the list holds ``expected``'s float32 values exactly (bit for bit, as OpenSpiel reads them)."""
    return np.array_equal(np.array(values, dtype=np.float32).view(np.uint32), expected.view(np.uint32))


def test_observer_values_after_many_views_and_after_a_failed_view():
    # More views without values() than the list keeps track of, then a list made whole again; and a view
    # that fails half way (a card the game does not know, put in a copy of the position by hand) leaves
    # nothing stale behind: the next views and lists are those computed from scratch.
    game = rm.Game(3, max_turns=60)
    observer = Observer(game)
    rng = np.random.default_rng(5)
    state = game.new_initial_state(seed=5, auto_chance=True)
    states = []
    while not state.is_terminal() and len(states) < 900:
        states.append(state)
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.integers(len(legal)))])
    assert len(states) > 400  # more than 256 views below without a list
    assert same_bits(observer.values(states[0], 0), observation(states[0], 0))
    for node in states[1:-50]:
        observer.view(node, 0)
    for node in states[-50:]:
        assert same_bits(observer.values(node, 0), observation(node, 0))
    bad = rm.GameState(game, states[-1].position.copy())
    bad.position.hands[0].append("Atlantis")
    with pytest.raises(KeyError):
        observer.view(bad, 0)
    for player in (0, 1):
        for node in (states[3], states[-2]):
            assert same_bits(observer.values(node, player), observation(node, player))
            assert np.array_equal(observer.view(node, player), observation(node, player))


def test_observer_refuses_a_state_of_another_game():
    observer = Observer(rm.Game(3))
    other = rm.Game(3).new_initial_state(seed=0, auto_chance=True)
    with pytest.raises(rm.InvalidArgumentError, match="not to this observer's"):
        observer.view(other, 0)


def test_the_gymnasium_env_observes_from_scratch_too():
    pytest.importorskip("gymnasium")
    from riskmath.envs.gymnasium import RiskEnv

    gym_env = RiskEnv(opponents=["aggressive", "random"], max_turns=12, seat=1)
    obs, _ = gym_env.reset(seed=4)
    rng, done, steps = np.random.default_rng(4), False, 0
    while not done:
        node = gym_env.node
        assert np.array_equal(obs["observation"], observation(node, 1, scaled=True))
        assert np.array_equal(obs["action_mask"], gym_env.codec.mask(node).astype(np.int8))
        kept = obs["observation"].copy()
        obs, _, terminated, truncated, _ = gym_env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done, steps = terminated or truncated, steps + 1
    assert steps > 30
    assert not np.array_equal(obs["observation"], kept)  # the last two differ, and neither changed the other
