"""A single-agent Gymnasium environment for RISK: one seat against built-in riskmath agents (``riskmath[gymnasium]``).

:class:`RiskEnv` plays seat ``seat`` (0 by default) of a game whose other
seats are played by riskmath agents (``opponents``, names for
:func:`riskmath.agents.make_agent` or agent objects), in seat order after
the learner's.  Observations and actions are those of
:mod:`riskmath.envs.pettingzoo`: a dict with the float32 ``"observation"``
vector of :func:`riskmath.envs.observation` for the seat and an int8
``"action_mask"``, and ``Discrete(num_actions)`` action ids of
:class:`~riskmath.envs.ActionCodec` (a count chosen in
:class:`~riskmath.envs.CountChoice` steps, as there).  Chance nodes and
the opponents' moves happen inside :meth:`RiskEnv.step`, so that every step
waits for the seat's next decision.

Reward ``+1`` for a win and ``-1`` for a loss (another player wins, or the
seat is eliminated), both with ``terminated``; ``0`` on every other step,
and at the turn cap, which ends the episode with ``truncated``.  That is
the default, ``zero_sum=None``: the seat against the table.  ``zero_sum``
True or False gives the seat the rewards of the OpenSpiel game and the
PettingZoo environment under the same option: with True a loss is
``-1/(players-1)`` and the turn cap pays the seat its share of what the
eliminated players lost (0 if nobody was); with False a loss is 0.  With
two players True and the default agree.

**Illegal ids.**  By default (``illegal_action="raise"``) an id whose mask
entry is 0 raises :class:`riskmath.IllegalActionError` and changes nothing.
Gymnasium's own checker (``gymnasium.utils.env_checker.check_env``) steps
with unmasked samples from the action space, so ``illegal_action="lose"``
instead ends the episode as a loss (reward ``-1``, ``terminated``, the id
in ``info["illegal_action"]``), as PettingZoo's classic games do with an
illegal move.

:func:`register` registers the id ``"riskmath/Risk-v0"``.

Examples
--------
>>> import gymnasium, numpy as np
>>> from riskmath.envs.gymnasium import register
>>> register()
>>> env = gymnasium.make("riskmath/Risk-v0", opponents=["aggressive"], max_turns=6)
>>> obs, info = env.reset(seed=2)
>>> rng, done = np.random.default_rng(2), False
>>> while not done:
...     action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> terminated, truncated, reward, env.unwrapped.state_now.turn
(False, True, 0.0, 6)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from riskmath._validation import check_int, shown
from riskmath.agents import make_agent
from riskmath.envs.codec import ActionCodec, CountChoice
from riskmath.envs.observations import Observer, observation_string
from riskmath.envs.pettingzoo import check_render_mode, make_game, observation_space
from riskmath.errors import IllegalActionError, InvalidArgumentError
from riskmath.game import Board, GameState, Rules

__all__ = ["ENV_ID", "RiskEnv", "register"]

#: The id :func:`register` gives the environment.
ENV_ID = "riskmath/Risk-v0"

_RENDER_MODES = ("ansi",)


class RiskEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of a game of RISK against riskmath agents (see the module docstring).

    Parameters
    ----------
    opponents : sequence of str or agents, default ("odds", "aggressive")
        The other seats' agents: names for :func:`riskmath.agents.make_agent`
        or objects with an ``act(state, rng)`` method; the game has
        ``len(opponents) + 1`` players.
    seat : int, default 0
        The learner's player id.
    rules : Rules, optional
        The 1993 US rules by default.
    max_turns : int or None, default 200
        The turn cap (player-turns): the episode is truncated there.
    board : Board or str, optional
        By default the board named by the rules; a name is read by
        :meth:`riskmath.Board.load` (e.g. ``"south_america_africa"``, a small board for learning).
    illegal_action : {"raise", "lose"}, default "raise"
        What an id outside the mask does (see the module docstring).
    render_mode : {None, "ansi"}
    zero_sum : bool or None, default None
        The rewards: None ``+1`` a win, ``-1`` a loss; True ``+1`` a win,
        ``-1/(players-1)`` a loss, a share of the eliminated players' losses
        at the turn cap; False ``1`` a win, ``0`` anything else (True and
        False as in the OpenSpiel game and the PettingZoo environment).

    Raises
    ------
    InvalidArgumentError
        For a bad argument (an unknown agent name among them), naming it.

    Attributes
    ----------
    game : Game
    codec : ActionCodec
    state_now : GameState or None
        The current state (None before :meth:`reset`).
    """

    metadata = {"render_modes": list(_RENDER_MODES), "render_fps": 4}  # noqa: RUF012 (gymnasium.Env declares it so)

    def __init__(
        self,
        opponents: Sequence[Any] = ("odds", "aggressive"),
        seat: int = 0,
        rules: Rules | None = None,
        max_turns: int | None = 200,
        board: Board | str | None = None,
        illegal_action: str = "raise",
        render_mode: str | None = None,
        zero_sum: bool | None = None,
    ) -> None:
        if isinstance(opponents, str) or not isinstance(opponents, Sequence) or not 1 <= len(opponents) <= 5:
            raise InvalidArgumentError(f"opponents must be a list of 1 to 5 agents, got {shown(opponents)}")
        agents = [make_agent(o) if isinstance(o, str) else o for o in opponents]
        for agent in agents:
            if not callable(getattr(agent, "act", None)):
                raise InvalidArgumentError(
                    f"an opponent must be an agent name or have act(state, rng), got {shown(agent)}"
                )
        self.game = make_game(len(agents) + 1, rules, max_turns, board)
        self.seat = check_int("seat", seat, minimum=0, maximum=self.game.players - 1)
        if illegal_action not in ("raise", "lose"):
            raise InvalidArgumentError(f"illegal_action must be 'raise' or 'lose', got {shown(illegal_action)}")
        self.illegal_action = illegal_action
        self.render_mode = check_render_mode(render_mode, _RENDER_MODES)
        if zero_sum is not None and not isinstance(zero_sum, bool):
            raise InvalidArgumentError(f"zero_sum must be None, True or False, got {shown(zero_sum)}")
        self.zero_sum = zero_sum
        players = self.game.players
        self._loss = -1.0 if zero_sum is None else -1.0 / (players - 1) if zero_sum else 0.0
        self.codec = ActionCodec(self.game)
        self._observer = Observer(self.game)  # the seat's vector, updated in place (copied out)
        others = [p for p in range(self.game.players) if p != self.seat]
        self._opponents = dict(zip(others, agents, strict=True))
        self.observation_space = observation_space(self.game, self.codec)
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self.state_now: GameState | None = None
        self._node: GameState | CountChoice | None = None
        self._rngs: dict[int, random.Random] = {}
        self._over = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a new game and play the opponents up to the seat's first decision."""
        super().reset(seed=seed)
        draws = self.np_random.integers(1 << 63, size=len(self._opponents) + 1)
        self._rngs = {p: random.Random(int(draw)) for p, draw in zip(self._opponents, draws[1:], strict=True)}
        state = self.game.new_initial_state(seed=int(draws[0]), auto_chance=True)
        self.state_now = self._node = self._play_opponents(state)
        self._over = self.state_now.is_terminal() or not self.state_now.alive(self.seat)
        return self._observe(), {}

    def _play_opponents(self, state: GameState) -> GameState:
        while not state.is_terminal() and state.current_player != self.seat and state.alive(self.seat):
            player = state.current_player
            state = state.apply(self._opponents[player].act(state, self._rngs[player]))
        return state

    def _observe(self) -> dict[str, Any]:
        assert self._node is not None
        if self._over or self._node.current_player != self.seat:
            mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        else:
            mask = self.codec._legal(self._node).view(np.int8).copy()  # the codec's own array: copied out
        return {"observation": self._observer.view(self._node, self.seat).copy(), "action_mask": mask}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Take action id ``action``; the opponents then play up to the seat's next decision or the end."""
        if self._node is None or self.state_now is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        if self._over:
            raise InvalidArgumentError("the episode is over: call reset() first")
        try:
            result = self.codec.decode(self._node, action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            return self._observe(), self._loss, True, False, {"illegal_action": int(action)}
        if isinstance(result, CountChoice):
            self._node = result
            return self._observe(), 0.0, False, False, {}
        state = self._play_opponents(self.state_now.apply(result, check=False))  # decode() returns legal actions
        self.state_now = self._node = state
        self._over = state.is_terminal() or not state.alive(self.seat)
        if not state.alive(self.seat):
            return self._observe(), self._loss, True, False, {}
        if state.is_terminal():
            if state.winner is None:
                return self._observe(), self._draw_share(state), False, True, {}
            return self._observe(), 1.0 if state.winner == self.seat else self._loss, True, False, {}
        return self._observe(), 0.0, False, False, {}

    def _draw_share(self, state: GameState) -> float:
        """The seat's reward at the turn cap: with ``zero_sum=True`` its share of the eliminated players' losses."""
        if not self.zero_sum:
            return 0.0
        players, alive = self.game.players, sum(state.position.alive)
        return (players - alive) / (players - 1) / alive

    def render(self) -> str | None:
        """The state as text from the seat's side (``"ansi"``)."""
        if self.render_mode is None or self._node is None or self.state_now is None:
            return None
        return f"{self.state_now!r}\n" + observation_string(self._node, self.seat)  # type: ignore[arg-type]


def register() -> None:
    """Register :class:`RiskEnv` with Gymnasium as ``"riskmath/Risk-v0"`` (again is harmless).

    Then ``gymnasium.make("riskmath/Risk-v0", opponents=[...], ...)`` takes
    :class:`RiskEnv`'s parameters.
    """
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="riskmath.envs.gymnasium:RiskEnv")
