"""A single-agent Gymnasium environment for RISK: one seat against built-in riskmath agents (``riskmath[gymnasium]``).

:class:`RiskEnv` plays seat ``seat`` (0 by default) of a game whose other
seats are played by riskmath agents (``opponents``, names for
:func:`riskmath.agents.make_agent` or agent objects), in seat order after
the learner's.  Actions are ``Discrete(num_actions)`` ids of
:class:`~riskmath.envs.ActionCodec` (a count chosen in
:class:`~riskmath.envs.CountChoice` steps, as in
:mod:`riskmath.envs.pettingzoo`).  Chance nodes and the opponents' moves
happen inside :meth:`RiskEnv.step`, so that every step waits for the seat's
next decision.

**Observations.**  By default a dict, as PettingZoo's classic games have it:
``"observation"``, the float32 vector of :func:`riskmath.envs.observation`
for the seat, *scaled* into [0, 1] (``observation(node, seat,
scaled=True)``, a ``Box(0, 1)``), and ``"action_mask"``, an int8 vector with
1 for the legal ids.  ``flat=True`` observes the vector alone (a ``Box``,
what most network policies take); the mask is then read from
:meth:`RiskEnv.action_masks`.  ``scaled=False`` gives the unscaled vector
(counts as they are; bounded only by the largest float32).

**Masks.**  :meth:`RiskEnv.action_masks` (the method sb3-contrib's
``MaskablePPO`` and its ``ActionMasker`` look for) is the bool mask of the
decision waiting for the seat, ``RiskEnv.node``: the state, or the
:class:`~riskmath.envs.CountChoice` while a count is being chosen (the
state underneath does not change until the count is complete, so a mask
built from ``state_now`` is wrong there).

**Actions.**  ``step`` takes what ``action_space.contains()`` takes: a Python
int, a NumPy integer, a 0-d NumPy integer array, and (duck-typed, by
``.item()``) a 0-d integer tensor of torch or JAX.  One exception: a bool,
which Gymnasium's ``Discrete`` takes for 0 or 1, is refused, as everywhere
in riskmath (it is more likely a bug than an id).  A value that is not an
id of the space raises :class:`riskmath.InvalidArgumentError` and changes
nothing, whatever the policy below.

Reward ``+1`` for a win and ``-1`` for a loss (another player wins, or the
seat is eliminated), both with ``terminated``; ``0`` on every other step,
and at the turn cap, which ends the episode with ``truncated``.  That is
the default, ``zero_sum=None``: the seat against the table.  ``zero_sum``
True or False gives the seat the rewards of the OpenSpiel game and the
PettingZoo environment under the same option: with True a loss is
``-1/(players-1)`` and the turn cap pays the seat its share of what the
eliminated players lost (0 if nobody was); with False a loss is 0.  With
two players True and the default agree.

**Illegal ids.**  An id of the space whose mask entry is 0 ends the episode
as a loss by default (``illegal_action="lose"``): the reward of a loss
under the ``zero_sum`` option (``-1`` by default),
``terminated``, the id in ``info["illegal_action"]``, as PettingZoo's
classic games treat an illegal move.  That keeps Gymnasium's contract that
every member of the action space is a valid argument of ``step``, so that
Gymnasium's own checker (``gymnasium.utils.env_checker.check_env``, which
steps unmasked samples of the space) passes with the default settings, and
an unmasked learner is taught the mask by the reward.  A no-op with a
penalty would keep the episode going instead, but lets an unmasked policy
stall a game forever at no cost greater than the penalty.
``illegal_action="raise"`` raises :class:`riskmath.IllegalActionError`
and changes nothing: for a masked agent, where an illegal id is a bug.

**Registration.**  :func:`register` registers the id ``"riskmath/Risk-v0"``
with ``max_episode_steps`` 200,000 (see ``riskmath.envs.registration``),
and importing this module calls it, so that
``gymnasium.make("riskmath.envs.gymnasium:riskmath/Risk-v0")`` works in
every Gymnasium version; with Gymnasium 0.29 the plugin entry point makes
``gymnasium.make("riskmath/Risk-v0")`` work without any import.

Examples
--------
>>> import gymnasium, numpy as np
>>> env = gymnasium.make("riskmath.envs.gymnasium:riskmath/Risk-v0", opponents=["aggressive"], max_turns=6)
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

import numpy as np

from riskmath._validation import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as error:
    raise missing_extra(error, "riskmath.envs.gymnasium", "gymnasium", "gymnasium") from error

from riskmath._validation import check_bool, check_int, shown
from riskmath.agents import make_agent
from riskmath.envs.codec import ActionCodec, CountChoice, as_action_id
from riskmath.envs.observations import Observer, observation_string
from riskmath.envs.registration import DEFAULT_MAX_TURNS, ENV_ID, register_envs
from riskmath.envs.spaces import check_render_mode, make_game, mask_space, vector_space
from riskmath.errors import IllegalActionError, InvalidArgumentError
from riskmath.game import Board, GameState, Rules
from riskmath.sim._loop import fast_decider, play_others

__all__ = ["ENV_ID", "ILLEGAL_ACTIONS", "RiskEnv", "register"]

_RENDER_MODES = ("ansi",)
#: What :class:`RiskEnv` may do with an id outside the mask (``illegal_action``); the first is the default.
ILLEGAL_ACTIONS = ("lose", "raise")


#: The games :meth:`RiskEnv.reset` draws again at most when the opponents end one before the seat's first decision.
MOST_REDRAWS = 100


class RiskEnv(gymnasium.Env[Any, Any]):
    """One seat of a game of RISK against riskmath agents (see the module docstring).

    Parameters
    ----------
    opponents : sequence of str or agents, default ("odds", "aggressive")
        The other seats' agents: names for :func:`riskmath.agents.make_agent`
        or objects with an ``act(state, rng)`` method; the game has
        ``len(opponents) + 1`` players.  The actions of an agent marked
        ``trusted`` (the built-in ones) are applied unchecked, as
        :func:`riskmath.play` applies them; any other agent's are checked.
    seat : int, default 0
        The learner's player id.
    rules : Rules or str, optional
        The 1993 US rules by default; a name is :meth:`riskmath.Rules.preset` of it.
    max_turns : int or None, default 200
        The turn cap (player-turns): the episode is truncated there.
    board : Board or str, optional
        By default (or ``""``, as the OpenSpiel game's parameter) the board named by the rules; a name is read
        by :meth:`riskmath.Board.load` (e.g. ``"south_america_africa"``, a small board for learning).
    illegal_action : {"lose", "raise"}, default "lose"
        What an id of the space outside the mask does (see the module docstring).
    render_mode : {None, "ansi"}
    zero_sum : bool or None, default None
        The rewards: None ``+1`` a win, ``-1`` a loss; True ``+1`` a win,
        ``-1/(players-1)`` a loss, a share of the eliminated players' losses
        at the turn cap; False ``1`` a win, ``0`` anything else (True and
        False as in the OpenSpiel game and the PettingZoo environment).
    flat : bool, default False
        False: observe a dict of the vector and the mask.  True: observe the
        vector alone, a ``Box`` (the mask from :meth:`action_masks`).
    scaled : bool, default True
        Whether the vector is scaled into [0, 1] (``observation(node, seat, scaled=True)``).
    defender_decides : bool, default False
        True: the defender of every ``Attack`` (one roll; a blitz is fought
        out with the most dice) chooses how many dice it throws
        (``Game(defender_decides=True)``): the seat, when attacked, in a step
        of its own during an opponent's turn (the mask holds the ``defend``
        ids), the opponents by their agents.  False: the defender throws the
        most dice the rules allow.

    Raises
    ------
    InvalidArgumentError
        For a bad argument (an unknown agent name among them), naming it.
    RulesError, BoardError
        For rules that cannot be played, or a board that cannot hold them
        (``ValueError`` subclasses too, naming the problem).

    Attributes
    ----------
    game : Game
    codec : ActionCodec
    state_now : GameState or None
        The current state (None before :meth:`reset`).
    node : GameState or CountChoice or None
        The decision waiting for the seat: ``state_now``, or the
        :class:`~riskmath.envs.CountChoice` of a count being chosen (None
        before :meth:`reset`).
    """

    metadata = {"render_modes": list(_RENDER_MODES), "render_fps": 4}  # noqa: RUF012 (gymnasium.Env declares it so)

    def __init__(
        self,
        opponents: Sequence[Any] = ("odds", "aggressive"),
        seat: int = 0,
        rules: Rules | str | None = None,
        max_turns: int | None = DEFAULT_MAX_TURNS,
        board: Board | str | None = None,
        illegal_action: str = ILLEGAL_ACTIONS[0],
        render_mode: str | None = None,
        zero_sum: bool | None = None,
        *,
        flat: bool = False,
        scaled: bool = True,
        defender_decides: bool = False,
    ) -> None:
        if isinstance(opponents, str) or not isinstance(opponents, Sequence) or not 1 <= len(opponents) <= 5:
            raise InvalidArgumentError(f"opponents must be a list of 1 to 5 agents, got {shown(opponents)}")
        agents = [make_agent(o) if isinstance(o, str) else o for o in opponents]
        for agent in agents:
            if not callable(getattr(agent, "act", None)):
                raise InvalidArgumentError(
                    f"an opponent must be an agent name or have act(state, rng), got {shown(agent)}"
                )
        self.game = make_game(len(agents) + 1, rules, max_turns, board, defender_decides)
        self.seat = check_int("seat", seat, minimum=0, maximum=self.game.players - 1)
        if illegal_action not in ILLEGAL_ACTIONS:
            raise InvalidArgumentError(f"illegal_action must be 'lose' or 'raise', got {shown(illegal_action)}")
        self.illegal_action = illegal_action
        self.render_mode = check_render_mode(render_mode, _RENDER_MODES)
        if zero_sum is not None and not isinstance(zero_sum, bool):
            raise InvalidArgumentError(f"zero_sum must be None, True or False, got {shown(zero_sum)}")
        self.zero_sum = zero_sum
        players = self.game.players
        self._loss = -1.0 if zero_sum is None else -1.0 / (players - 1) if zero_sum else 0.0
        self.flat = check_bool("flat", flat)
        self.scaled = check_bool("scaled", scaled)
        self.codec = ActionCodec(self.game)
        self._observer = Observer(self.game, scaled=self.scaled)  # the seat's vector, updated in place
        others = [p for p in range(self.game.players) if p != self.seat]
        self._opponents = dict(zip(others, agents, strict=True))
        # A trusted agent's actions are applied unchecked, as riskmath.play applies them (see riskmath.agents).
        self._deciders = {p: fast_decider(agent) for p, agent in self._opponents.items()}
        vector = vector_space(self.game, self.scaled)
        self.observation_space: spaces.Space[Any] = (
            vector if self.flat else spaces.Dict({"observation": vector, "action_mask": mask_space(self.codec)})
        )
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self.state_now: GameState | None = None
        self.node: GameState | CountChoice | None = None
        self._rngs: dict[int, random.Random] = {}
        self._over = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Start a new game and play the opponents up to the seat's first decision.

        Where the rules give the seat no decision in the set-up (``us_1959``: the territories are dealt and the
        armies placed at random) the opponents may end the game, on a small board, before the seat first moves;
        ``reset`` cannot report an episode that is over, so such a game is drawn again, from the same stream of
        numbers (the same seed gives the same episode), and ``info["redrawn"]`` says how many were; after
        ``MOST_REDRAWS`` (100) in a row the configuration is refused.
        """
        super().reset(seed=seed)
        for redrawn in range(MOST_REDRAWS):
            draws = self.np_random.integers(1 << 63, size=len(self._opponents) + 1)
            self._rngs = {p: random.Random(int(draw)) for p, draw in zip(self._opponents, draws[1:], strict=True)}
            state = self.game.new_initial_state(seed=int(draws[0]), auto_chance=True)
            self.state_now = self.node = self._play_opponents(state)
            self._over = self.state_now.is_terminal() or not self.state_now.alive(self.seat)
            if not self._over:
                return self._observe(), ({"redrawn": redrawn} if redrawn else {})
        raise InvalidArgumentError(
            f"the opponents ended {MOST_REDRAWS} games in a row before seat {self.seat}'s first decision "
            f"({self.game!r}): choose rules with a set-up decision or a bigger board"
        )

    def _play_opponents(self, state: GameState) -> GameState:
        """The opponents' moves up to the seat's next decision, on one copy of the position (as ``play`` makes
        them: trusted agents' actions unchecked, the others' checked); ``state`` itself is unchanged."""
        return play_others(self.game, state, self.seat, self._opponents, self._rngs, self._deciders)

    def _running(self) -> GameState | CountChoice:
        """The node; InvalidArgumentError before :meth:`reset`."""
        if self.node is None:
            raise InvalidArgumentError("the environment has no game yet: call reset() first")
        return self.node

    def _mask(self, dtype: Any) -> np.ndarray:
        """A new mask (``bool`` or ``np.int8``) of the seat's decision; all false once the episode is over."""
        node = self._running()
        if self._over or node.current_player != self.seat:
            return np.zeros(self.codec.num_actions, dtype=dtype)
        return self.codec.mask(node, dtype)

    def action_masks(self) -> np.ndarray:
        """The legal ids of the seat's decision (``node``, count steps included): a new bool array.

        The method sb3-contrib's ``MaskablePPO`` (and its ``ActionMasker`` wrapper) looks for; equal to
        ``obs["action_mask"]`` of the dict observations.  All false once the episode is over.

        Raises
        ------
        InvalidArgumentError
            Before :meth:`reset`.
        """
        return self._mask(bool)

    def _observe(self) -> Any:
        node = self._running()
        vector = self._observer.copy(node, self.seat)
        if self.flat:
            return vector
        return {"observation": vector, "action_mask": self._mask(np.int8)}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Take action id ``action``; the opponents then play up to the seat's next decision or the end."""
        node = self._running()
        if self._over or self.state_now is None:
            raise InvalidArgumentError("the episode is over: call reset() first")
        index = _action_id(action)
        try:
            result = self.codec.decode(node, index)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            return self._observe(), self._loss, True, False, {"illegal_action": index}
        if isinstance(result, CountChoice):
            self.node = result
            return self._observe(), 0.0, False, False, {}
        state = self._play_opponents(self.state_now.apply(result, check=False))  # decode() returns legal actions
        self.state_now = self.node = state
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
        if self.render_mode is None or self.node is None or self.state_now is None:
            return None
        return f"{self.state_now!r}\n" + observation_string(self.node, self.seat)  # type: ignore[arg-type]


_action_id = as_action_id  # (the name this module used; the conversion is the codec's)


def register() -> None:
    """Register :class:`RiskEnv` with Gymnasium as ``"riskmath/Risk-v0"`` (again is harmless).

    Then ``gymnasium.make("riskmath/Risk-v0", opponents=[...], ...)`` takes
    :class:`RiskEnv`'s parameters; Gymnasium's ``TimeLimit`` ends an
    episode after ``max_episode_steps`` steps (200,000 unless ``make`` is
    given another, see ``riskmath.envs.registration``).  Importing this
    module calls it.
    """
    register_envs()


register()
