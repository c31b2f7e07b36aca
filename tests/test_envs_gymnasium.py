"""riskmath.envs.gymnasium: Gymnasium's own env checker, registration, masked episodes against built-in agents."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from game_helpers import TOY
from gymnasium.utils.env_checker import check_env

import riskmath as rm
from riskmath.envs import ActionCodec, observation
from riskmath.envs.gymnasium import ENV_ID, RiskEnv, register
from riskmath.errors import IllegalActionError, InvalidArgumentError


def episode(env, seed: int) -> tuple[list[float], bool, bool, int]:
    """A random masked episode: the rewards, how it ended, the steps taken."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: list[float] = []
    for _ in range(100_000):
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        rewards.append(reward)
        if terminated or truncated:
            assert not obs["action_mask"].any()
            return rewards, terminated, truncated, len(rewards)
    pytest.fail("the episode did not end")


def test_check_env_passes():
    # check_env steps with unmasked samples of the action space: illegal_action="lose" makes those a loss.
    check_env(RiskEnv(opponents=["aggressive"], max_turns=6, illegal_action="lose"), skip_render_check=True)


def test_check_env_through_make_with_render_modes():
    register()
    env = gymnasium.make(ENV_ID, opponents=["aggressive"], max_turns=6, illegal_action="lose", render_mode="ansi")
    check_env(env.unwrapped)


def test_register_is_idempotent_and_make_takes_the_opponents():
    register()
    register()
    env = gymnasium.make(ENV_ID, opponents=["odds", "aggressive"], max_turns=5)
    inner = env.unwrapped
    assert isinstance(inner, RiskEnv)
    assert inner.game.players == 3
    assert [agent.name for agent in inner._opponents.values()] == ["odds", "aggressive"]
    assert inner.action_space.n == ActionCodec(inner.game).num_actions


def test_first_observation_is_the_seats():
    env = RiskEnv(opponents=["aggressive"], seat=1, max_turns=5)
    obs, info = env.reset(seed=4)
    assert info == {}
    assert obs in env.observation_space
    state = env.state_now
    assert state.current_player == 1
    assert np.array_equal(obs["observation"], observation(state, 1))
    assert np.array_equal(obs["action_mask"].astype(bool), env.codec.mask(state))
    again, _ = env.reset(seed=4)
    assert np.array_equal(again["observation"], obs["observation"])


def test_a_masked_episode_against_aggressive_ends():
    # Classic board, 2 players (a neutral), 30 turns, seed 5: the seat loses to the aggressive agent at
    # turn 23 (found by running it; random play rarely lasts).
    env = RiskEnv(opponents=["aggressive"], max_turns=30)
    rewards, terminated, truncated, _ = episode(env, seed=5)
    assert terminated
    assert not truncated
    assert rewards[-1] == -1.0
    assert set(rewards[:-1]) == {0.0}
    assert env.state_now.winner == 1
    assert env.state_now.turn == 23


def test_the_turn_cap_truncates_with_reward_zero():
    env = RiskEnv(opponents=["aggressive"], max_turns=4)
    rewards, terminated, truncated, _ = episode(env, seed=1)
    assert truncated
    assert not terminated
    assert set(rewards) == {0.0}
    assert env.state_now.draw


def test_a_win_pays_one():
    # Toy board against the random agent, seed 4: the seat wins at turn 44 (found by running it).
    env = RiskEnv(opponents=["random"], board=TOY, rules=rm.Rules(two_player="none"), max_turns=100)
    rewards, terminated, truncated, _ = episode(env, seed=4)
    assert env.state_now.winner == 0
    assert env.state_now.turn == 44
    assert (rewards[-1], terminated, truncated) == (1.0, True, False)
    assert set(rewards[:-1]) == {0.0}


def test_illegal_ids_raise_by_default_and_lose_on_request():
    env = RiskEnv(opponents=["aggressive"], max_turns=5)
    obs, _ = env.reset(seed=0)
    state = env.state_now
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match=f"action id {illegal}"):
        env.step(illegal)
    assert env.state_now is state
    losing = RiskEnv(opponents=["aggressive"], max_turns=5, illegal_action="lose")
    losing.reset(seed=0)
    _, reward, terminated, truncated, info = losing.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": illegal})
    with pytest.raises(InvalidArgumentError, match="episode is over"):
        losing.step(0)


def test_bad_arguments_are_named():
    with pytest.raises(InvalidArgumentError, match="'greedy'"):
        RiskEnv(opponents=["greedy"])
    with pytest.raises(InvalidArgumentError, match="opponents"):
        RiskEnv(opponents="odds")
    with pytest.raises(InvalidArgumentError, match="seat"):
        RiskEnv(opponents=["odds"], seat=2)
    with pytest.raises(InvalidArgumentError, match="'skip'"):
        RiskEnv(illegal_action="skip")


#: Three seats on the toy board against two random agents, 12 turns (found by running them): seed 1 the seat
#: wins, seed 2 it is eliminated, seed 0 the cap comes after player 2 was eliminated, seed 26 nobody was.
REWARD_CASES = {
    1: ("win", (True, False), {None: 1.0, True: 1.0, False: 1.0}),
    2: ("eliminated", (True, False), {None: -1.0, True: -0.5, False: 0.0}),
    0: ("cap after an elimination", (False, True), {None: 0.0, True: 0.25, False: 0.0}),
    26: ("cap", (False, True), {None: 0.0, True: 0.0, False: 0.0}),
}


@pytest.mark.parametrize("zero_sum", [None, True, False])
@pytest.mark.parametrize("seed", list(REWARD_CASES))
def test_the_rewards_of_each_zero_sum_option(seed, zero_sum):
    """The table on the "Learning agents" page: the default (None) +1 / -1 and 0 at the cap; True and False
    as in the OpenSpiel game and the PettingZoo environment (True: a loss -1/(n-1), at the cap the seat's share
    of the eliminated players' losses; False: 1 a win, 0 anything else)."""
    _, ending, rewards_by_option = REWARD_CASES[seed]
    env = RiskEnv(opponents=["random", "random"], board=TOY, max_turns=12, zero_sum=zero_sum)
    rewards, terminated, truncated, _ = episode(env, seed)
    assert (terminated, truncated) == ending
    assert rewards[-1] == rewards_by_option[zero_sum]
    assert set(rewards[:-1]) == {0.0}


def test_an_illegal_id_loses_the_options_loss():
    for zero_sum, loss in [(None, -1.0), (True, -0.5), (False, 0.0)]:
        env = RiskEnv(opponents=["random", "random"], max_turns=5, illegal_action="lose", zero_sum=zero_sum)
        obs, _ = env.reset(seed=0)
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        assert env.step(illegal)[1:4] == (loss, True, False)


def test_zero_sum_must_be_none_or_a_bool():
    for bad in (0, 1, "yes", 1.0):
        with pytest.raises(InvalidArgumentError, match=f"zero_sum must be None, True or False, got {bad!r}"):
            RiskEnv(opponents=["odds"], zero_sum=bad)
