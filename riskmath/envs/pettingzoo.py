"""A PettingZoo AEC environment for RISK over :class:`~riskmath.envs.ActionCodec` (extra ``riskmath[pettingzoo]``).

:func:`env` returns a :class:`RiskAECEnv`: agents ``"player_0"`` ..
``"player_{n-1}"`` take turns as the game asks them (an attacker's turn is
many steps; the defender throws the most dice the rules allow, unless
``defender_decides=True``: then the defender's agent chooses its dice in a
step of its own, as in ``Game(defender_decides=True)``).
Each agent observes a dict, as PettingZoo's classic games do:
``"observation"``, the float32 vector of :func:`riskmath.envs.observation`
for that agent (hidden information hidden), scaled into [0, 1] by default
(``scaled=False``: unscaled), and ``"action_mask"``, an int8
vector of length ``num_actions`` with 1 for the legal ids
(:meth:`~riskmath.envs.ActionCodec.mask`; all zero for an agent that is
not to move).  The action space is ``Discrete(num_actions)``.

- **Counts.**  An action with a free count takes more than one step: after
  the move the same agent chooses the count in
  :class:`~riskmath.envs.CountChoice` steps (the ``choice`` section of its
  observation shows the pending count).
- **Chance.**  Dice, cards and set-up draws are resolved inside the
  environment from the state's own generator, seeded by ``reset(seed=...)``
  (the same seed plays the same chance outcomes as
  ``game.new_initial_state(seed, auto_chance=True)``); agents only ever see
  decisions.
- **Rewards** come when a player's game ends.  With ``zero_sum=True``
  (the default) they are zero-sum: ``+1`` to the winner and ``-1/(n-1)``
  to each other player (the win shared as losses).  An eliminated player
  gets its ``-1/(n-1)`` when it is eliminated and is *terminated* (then
  removed from ``agents`` after its ``step(None)``, the PettingZoo way).
  The turn cap *truncates* every agent still in: a draw, 0 each when
  nobody was eliminated, else the survivors share equally what the
  eliminated lost, so every episode's rewards sum to 0.  With
  ``zero_sum=False`` a win pays 1 and everything else 0 (a loss, an
  elimination, a draw).  The option means the same in the OpenSpiel game
  and the Gymnasium environment.
- **Illegal ids** raise :class:`riskmath.IllegalActionError`, ids outside
  ``0 .. num_actions - 1`` :class:`riskmath.InvalidArgumentError` (the
  state is unchanged either way).

**Wrapping.**  :func:`env` returns the environment in PettingZoo's
``OrderEnforcingWrapper`` (which refuses ``step``, ``observe`` and the
like before ``reset``), as PettingZoo's classic games do; :func:`raw_env`
returns it bare (``env(...).unwrapped`` is the same class).  The classic
games' two other wrappers do not fit the policy above:
``TerminateIllegalWrapper`` would end the game on an illegal id instead of
raising, and ``AssertOutOfBoundsWrapper`` would turn the
``InvalidArgumentError`` into an ``AssertionError``.  The wrapper is a
subclass of the stock one that reads the attributes used on every step
(``agent_selection``, ``terminations``, ...) as properties instead of
through ``__getattr__``, with the same errors before ``reset``.

**Arrays.**  Every ``observe`` (and ``last()``) returns new arrays: the
caller may keep or change them.  The environment builds them from buffers
of its own that it updates in place from node to node (only the sections
of the vector that changed), then copies them out; PettingZoo's classic
games also return fresh arrays, and a copy of the small float32 vector and
the int8 mask costs far less than building them.

Only this module imports PettingZoo and Gymnasium; ``import riskmath.envs``
does not.

Examples
--------
>>> import numpy as np
>>> from riskmath.envs.pettingzoo import env
>>> aec = env(players=2, max_turns=4)
>>> aec.reset(seed=3)
>>> rng = np.random.default_rng(3)
>>> for agent in aec.agent_iter():
...     obs, reward, terminated, truncated, info = aec.last()
...     action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
...     aec.step(action)
>>> aec.agents, aec.state_now
([], <GameState turn 4, GAME_OVER, a draw>)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from riskmath._validation import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ModuleNotFoundError as error:
    raise missing_extra(error, "riskmath.envs.pettingzoo", "pettingzoo", "pettingzoo") from error

from riskmath._validation import check_bool, check_int, shown
from riskmath.envs.codec import ActionCodec, CountChoice, as_action_id
from riskmath.envs.observations import Observer, observation_string
from riskmath.envs.spaces import check_render_mode, make_game, observation_space
from riskmath.errors import InvalidArgumentError
from riskmath.game import Board, GameState, Rules

__all__ = ["RiskAECEnv", "env", "raw_env"]

_RENDER_MODES = ("ansi", "human")


class RiskAECEnv(AECEnv):  # type: ignore[misc]
    """A game of RISK as a PettingZoo AEC environment; build it with :func:`env`.

    Attributes
    ----------
    game : Game
        The rules model played.
    codec : ActionCodec
        The action ids (``codec.describe(id)`` names one).
    state_now : GameState or None
        The current state (None before :meth:`reset`); the pending count, if
        any, is in ``node``.
    node : GameState or CountChoice or None
        The decision waiting for ``agent_selection``.
    scaled : bool
        Whether observations are scaled into [0, 1] (see :func:`env`).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(_RENDER_MODES),
        "name": "riskmath_risk_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 3,
        rules: Rules | str | None = None,
        max_turns: int | None = 200,
        board: Board | str | None = None,
        render_mode: str | None = None,
        zero_sum: bool = True,
        *,
        scaled: bool = True,
        defender_decides: bool = False,
    ) -> None:
        super().__init__()
        self.game = make_game(players, rules, max_turns, board, defender_decides)
        self.zero_sum = check_bool("zero_sum", zero_sum)
        self.codec = ActionCodec(self.game)
        self.render_mode = check_render_mode(render_mode, _RENDER_MODES)
        self.scaled = check_bool("scaled", scaled)
        self.possible_agents = [f"player_{i}" for i in range(self.game.players)]
        self._player = {agent: i for i, agent in enumerate(self.possible_agents)}
        space = observation_space(self.game, self.codec, self.scaled)
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.codec.num_actions) for agent in self.possible_agents}
        self.state_now: GameState | None = None
        self.node: GameState | CountChoice | None = None
        self._seeds = np.random.default_rng()
        self._no_mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        self._observer = Observer(self.game, scaled=self.scaled)  # the vectors, updated in place node to node

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self._agent_name(agent)]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self._agent_name(agent)]

    def _agent_name(self, agent: object) -> str:
        """``agent`` if it is one of ``possible_agents``, else InvalidArgumentError naming it and them."""
        if isinstance(agent, str) and agent in self._player:
            return agent
        names = ", ".join(self.possible_agents)
        raise InvalidArgumentError(f"unknown agent {shown(agent)}; the agents are {names}")

    def _check_running(self) -> tuple[GameState | CountChoice, GameState]:
        """The node and the state; InvalidArgumentError before :meth:`reset` or once every agent has left the game."""
        node, state = self.node, self.state_now
        if node is None or state is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        if not self.agents:
            raise InvalidArgumentError(f"the game is over ({state!r}) and every agent has left: call reset()")
        return node, state

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``, with a clear error before :meth:`reset` and after every agent has left."""
        self._check_running()
        return super().last(observe)  # type: ignore[no-any-return]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: with ``seed`` its chance outcomes are those of ``new_initial_state(seed)``."""
        if seed is not None:
            seed = check_int("seed", seed, minimum=0)
            self._seeds = np.random.default_rng(seed)
        else:
            seed = int(self._seeds.integers(1 << 63))
        self.state_now = self.node = self.game.new_initial_state(seed=seed, auto_chance=True)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state_now.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.node is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        player = self._player[self._agent_name(agent)]
        to_move = agent == self.agent_selection and not self.terminations.get(agent, True)
        to_move = to_move and not self.truncations[agent]
        # The observer's vector is its own buffer (kept for the next node): the caller gets a copy to keep, and a
        # new int8 mask.
        mask = self.codec.mask(self.node, np.int8) if to_move else self._no_mask.copy()
        return {"observation": self._observer.copy(self.node, player), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Take action id ``action`` for ``agent_selection`` (None for an agent whose game has ended)."""
        node, state = self._check_running()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # (any form action_space().contains() takes: NumPy integers, 0-d arrays; InvalidArgumentError /
        # IllegalActionError on a bad id)
        result = self.codec.decode(node, as_action_id(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if isinstance(result, CountChoice):  # the same agent chooses the count next
            self.node = result
            return
        state = state.apply(result, check=False)  # decode() only returns legal actions
        self.state_now = self.node = state
        if self._settle(state):
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle(self, state: GameState) -> bool:
        """Rewards, terminations and truncations after a move; the next agent to step.  True if a game ended."""
        players = self.game.players
        loss = -1.0 / (players - 1) if self.zero_sum else 0.0
        if state.is_terminal():
            winner = state.winner
            if winner is not None:
                for agent in self.agents:
                    self.rewards[agent] = 1.0 if self._player[agent] == winner else loss
                    self.terminations[agent] = True
            else:  # the turn cap: a draw; the survivors share what the eliminated lost
                share = (players - len(self.agents)) / (players - 1) / len(self.agents) if self.zero_sum else 0.0
                for agent in self.agents:
                    self.rewards[agent] = share
                    self.truncations[agent] = True
            self.agent_selection = self.agents[0]
            return True
        self.agent_selection = self.possible_agents[state.current_player]
        alive, player = state.position.alive, self._player
        out = [agent for agent in self.agents if not alive[player[agent]]]
        for agent in out:
            self.rewards[agent] = loss
            self.terminations[agent] = True
        if out:
            self._deads_step_first()
        return bool(out)

    def render(self) -> str | None:
        """The state as text from the mover's side (``"ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None or self.node is None or self.state_now is None:
            return None
        mover = self.state_now.current_player
        text = f"{self.state_now!r}\n" + observation_string(self.node, mover if mover >= 0 else 0)  # type: ignore[arg-type]
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def _forwarded(name: str, checked: bool) -> property:
    """A property reading (and writing) attribute ``name`` of the wrapped environment."""

    def get(self: Any) -> Any:
        if checked and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")  # the stock wrapper's error
        return getattr(self.env, name)

    def set_(self: Any, value: Any) -> None:
        setattr(self.env, name, value)

    return property(get, set_, doc=f"The wrapped environment's ``{name}``.")


class _OrderEnforcingWrapper(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, with the attributes read on every step forwarded directly.

    The stock wrapper reaches each attribute of the wrapped environment
    through ``__getattr__``: a failed lookup, then two Python calls.
    ``last()``, ``agent_iter`` and ``step`` read eight of them per step,
    about a sixth of a random agent's step in the stock wrapper (``make
    bench`` prints both).  These properties read them in one call, with
    the same checks: before ``reset()`` they raise the stock
    ``AttributeError``.  Everything else is the stock wrapper's.
    """

    agent_selection = _forwarded("agent_selection", True)
    agents = _forwarded("agents", True)
    rewards = _forwarded("rewards", True)
    terminations = _forwarded("terminations", True)
    truncations = _forwarded("truncations", True)
    infos = _forwarded("infos", True)
    _cumulative_rewards = _forwarded("_cumulative_rewards", False)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The stock ``last()``, once every agent has left a finished game a clear error (see RiskAECEnv.last).

        After ``reset()`` the environment's own ``last()`` answers (the same tuple: the stock one reads the
        same attributes and ``observe`` through the wrapper's layers, each a Python call).
        """
        if self._has_reset:
            return self.env.last(observe)  # type: ignore[no-any-return]
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        """The stock ``step``: after ``reset()`` and while agents are left, straight to the environment's."""
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)  # the stock error before reset, its warning once every agent has left


def raw_env(
    players: int = 3,
    rules: Rules | str | None = None,
    max_turns: int | None = 200,
    board: Board | str | None = None,
    render_mode: str | None = None,
    zero_sum: bool = True,
    *,
    scaled: bool = True,
    defender_decides: bool = False,
) -> RiskAECEnv:
    """The environment of :func:`env` without PettingZoo's order-enforcing wrapper (arguments as there)."""
    return RiskAECEnv(
        players, rules, max_turns, board, render_mode, zero_sum, scaled=scaled, defender_decides=defender_decides
    )


def env(
    players: int = 3,
    rules: Rules | str | None = None,
    max_turns: int | None = 200,
    board: Board | str | None = None,
    render_mode: str | None = None,
    zero_sum: bool = True,
    *,
    scaled: bool = True,
    defender_decides: bool = False,
) -> Any:
    """A PettingZoo AEC environment playing RISK (see the module docstring), wrapped as PettingZoo's classic
    games are: in ``OrderEnforcingWrapper`` (``env(...).unwrapped`` is the :class:`RiskAECEnv`).

    Parameters
    ----------
    players : int, default 3
        2 to 6; agents ``"player_0"`` .. ``"player_{players-1}"``.
    rules : Rules or str, optional
        The 1993 US rules by default; a name is :meth:`riskmath.Rules.preset` of it.
    max_turns : int or None, default 200
        The turn cap (player-turns) after which every agent is truncated;
        None keeps the rules' own cap (none for most presets).
    board : Board or str, optional
        By default (or ``""``, as the OpenSpiel game's parameter) the board named by the rules; a name is read
        by :meth:`riskmath.Board.load` (e.g. ``"south_america_africa"``, a small board for learning).
    render_mode : {None, "ansi", "human"}
    zero_sum : bool, default True
        The rewards: zero-sum (``+1`` a win, ``-1/(players-1)`` a loss or an
        elimination, a share of the eliminated players' losses at the turn
        cap), or with False ``1`` a win and ``0`` anything else (see the
        module docstring; the same option as in the OpenSpiel game and the
        Gymnasium environment).
    scaled : bool, default True
        True: the observation vector is ``observation(state, player, scaled=True)``, every entry in [0, 1]
        (a ``Box(0, 1)``), for a network's input.  False: the unscaled ``observation(state, player)``
        (counts as they are, ``log(1 + armies)``; bounded only by the largest float32).
    defender_decides : bool, default False
        True: the defender of every ``Attack`` (one roll; a blitz is fought
        out with the most dice) chooses how many dice it throws
        (``Game(defender_decides=True)``; the 1993 rulebook leaves the choice
        to the defender), an agent's step in the attacker's turn; the mask
        then holds the ``defend`` ids.  False: the defender throws the most
        dice the rules allow, as most engines play it.

    Returns
    -------
    pettingzoo.AECEnv
        A :class:`RiskAECEnv` in a subclass of PettingZoo's ``OrderEnforcingWrapper`` (see the module
        docstring); :func:`raw_env` gives it bare.

    Raises
    ------
    InvalidArgumentError
        For a bad argument, naming it.
    RulesError, BoardError
        For rules that cannot be played, or a board that cannot hold them
        (``ValueError`` subclasses too, naming the problem).
    """
    return _OrderEnforcingWrapper(
        raw_env(
            players, rules, max_turns, board, render_mode, zero_sum, scaled=scaled, defender_decides=defender_decides
        )
    )
