"""RISK as the OpenSpiel game ``"python_risk"`` over :class:`~riskmath.envs.ActionCodec` (``riskmath[openspiel]``).

:func:`register` registers the game with OpenSpiel; then
``pyspiel.load_game("python_risk", {"players": 3, "max_turns": 200})``
works as for any OpenSpiel game, and OpenSpiel's algorithms (MCTS, CFR
sampling, the RL environment ...) can play it.

- **Actions** are the codec's ids (``num_distinct_actions`` is
  ``codec.num_actions``); an action with a free count takes several ids by
  the same player (:class:`~riskmath.envs.CountChoice`, see the codec).
- **Chance** is explicit: every roll, blitz, card and set-up draw is a
  chance node whose outcomes are the codec's chance ids with their exact
  probabilities (floats of the odds); a big blitz is resolved in pieces
  (:class:`~riskmath.envs.BattleChance`), so no node has more than
  ``max_chance_outcomes`` outcomes.
- **Imperfect information**: the observation and the information state of
  a player hide the other players' cards and missions (and what the deck
  holds).  The observation tensor is :func:`riskmath.envs.observation`, the
  information-state tensor :func:`riskmath.envs.information_state`.  The
  information-state string is short and quick (hundreds of characters on
  the classic board, tens of microseconds): the decisions taken so far
  and :func:`riskmath.envs.hidden.view_string`, every public field of the
  state with the player's own cards and mission.  It is not the player's
  whole record of the game: two histories that reach the same view after
  as many decisions share a string.  Nothing the player could still learn
  from the record is lost (see "ISMCTS" on the "Learning agents" page);
  :meth:`RiskState.record_string` gives the record itself.
- **Search over information sets**: :meth:`RiskState.resample_from_infostate`
  draws a state the player cannot tell from this one (the other hands,
  the deck, the others' missions), so OpenSpiel's ``ISMCTSBot`` plays the
  game; :func:`resampler` makes its worlds reproducible.
- **Returns** come at the end: with ``zero_sum=False`` (the default) 1 to
  the winner and 0 to the others, 0 to all after a draw; with
  ``zero_sum=True`` +1 to the winner and ``-1/(players-1)`` to each other
  player, and after a draw ``-1/(players-1)`` to each player eliminated
  and an equal share of what they lost to the others (0 to all when
  nobody was).  The option means the same in the PettingZoo and Gymnasium
  environments.
- **Length.**  OpenSpiel needs a finite ``max_game_length`` (decisions in a
  game).  ``max_turns`` (player-turns, at least 1; 200 by default) ends the
  game as a draw, and :func:`max_game_length` gives the set-up and each
  player-turn a budget of decisions: ``3 * A + n + 8`` for the set-up (``A``
  the armies the set-up places, ``n`` territories) plus
  :data:`TURN_DECISIONS` per player-turn.  A turn has no bound of its own in
  the rules (each attack costs an army, but armies grow), so a game that
  uses the whole budget also ends there as a draw; random play stays far
  below it (see the "Learning agents" documentation page).

- **Search.**  :class:`EstimateEvaluator` is a leaf evaluator for
  OpenSpiel's ``MCTSBot``: each player's expected return from riskmath's
  calibrated win estimate instead of a random rollout.

Only this module imports OpenSpiel (``pyspiel`` and OpenSpiel's MCTS module);
``import riskmath.envs`` does not.

Examples
--------
>>> import pyspiel
>>> from riskmath.envs.openspiel import register
>>> register()
>>> game = pyspiel.load_game("python_risk", {"players": 2, "max_turns": 6, "board": "classic:South America+Africa"})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(310, 1173, 6378)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()
(True, [(0, 0.5), (1, 0.5)])
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from riskmath._validation import missing_extra

try:
    import pyspiel
    from open_spiel.python.algorithms import mcts
except ModuleNotFoundError as error:
    raise missing_extra(error, "riskmath.envs.openspiel", "open_spiel", "openspiel") from error

from riskmath._validation import check_int, shown
from riskmath.envs.codec import ActionCodec, BattleChance, CountChoice
from riskmath.envs.hidden import resample_hidden, view_string
from riskmath.envs.observations import (
    Observer,
    checked_node,
    information_state,
    information_state_layout,
    observation,
    observation_layout,
    observation_string,
)
from riskmath.errors import BoardError, InvalidArgumentError, RulesError
from riskmath.evaluate.estimate import victory_list
from riskmath.game import Board, DrawCard, Game, GameState, Rules

__all__ = [
    "DEFAULTS",
    "GAME_NAME",
    "TURN_DECISIONS",
    "EstimateEvaluator",
    "RiskGame",
    "RiskObserver",
    "RiskState",
    "max_game_length",
    "register",
    "resampler",
]

#: The short name the game is registered under.
GAME_NAME = "python_risk"
#: The parameters and their defaults (``board=""``: the board named by the rules).
DEFAULTS: dict[str, Any] = {
    "players": 3,
    "max_turns": 200,
    "rules": Rules().edition,
    "board": "",
    "starting_armies": 0,
    "defender_decides": False,
    "zero_sum": False,
}
#: The decisions each player-turn adds to ``max_game_length``.
TURN_DECISIONS = 1000
#: The most starting armies a game may set (``starting_armies``): the set-up's budget stays small.
MAX_STARTING_ARMIES = 10_000


def _game_type(zero_sum: bool) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="RISK (riskmath)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


def register() -> None:
    """Register ``"python_risk"`` with OpenSpiel (again is harmless).

    Examples
    --------
    >>> import pyspiel
    >>> register()
    >>> "python_risk" in pyspiel.registered_names()
    True
    """
    if GAME_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(False), RiskGame)


def _board(name: str, rules: Rules) -> Board:
    """The board a ``board`` parameter names: the rules' own (``""``), or any name :meth:`Board.load` reads (a
    shipped board, a small board for learning, or a shipped board cut down to some of its continents,
    ``"classic:South America+Africa"``)."""
    if not isinstance(name, str):
        raise InvalidArgumentError(f"board must be a string, got {shown(name)}")
    if not name:
        return Board.load(rules.board)
    try:
        return Board.load(name)
    except BoardError as error:  # (a BoardError, as Game and the other two environments raise it)
        raise BoardError(
            f"board must be '' (the rules' board) or a name riskmath.Board.load reads, got {name!r}: {error}"
        ) from None


class _Setup:
    """What every state of one parameter set shares: the riskmath game, its codec, the bounds and the types."""

    def __init__(self, params: dict[str, Any]) -> None:
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise InvalidArgumentError(f"unknown parameter(s) {unknown}; the parameters are {sorted(DEFAULTS)}")
        values = {**DEFAULTS, **params}
        self.key = tuple(sorted(values.items()))
        players = check_int("players", values["players"], minimum=2, maximum=6)
        max_turns = check_int("max_turns", values["max_turns"], minimum=1, maximum=10**6)
        preset = values["rules"]
        if not isinstance(preset, str) or preset not in Rules.presets():  # (a RulesError, as Game raises it)
            raise RulesError(f"rules must be one of {', '.join(Rules.presets())}, got {shown(preset)}")
        rules = Rules.preset(preset)
        start = check_int("starting_armies", values["starting_armies"], minimum=0, maximum=MAX_STARTING_ARMIES)
        if start:
            rules = rules.replace(starting_armies={players: start}, starting_armies_rule="table")
        for flag in ("defender_decides", "zero_sum"):
            if not isinstance(values[flag], bool):
                raise InvalidArgumentError(f"{flag} must be True or False, got {shown(values[flag])}")
        board = _board(values["board"], rules)
        self.game = Game(players, rules, board, defender_decides=values["defender_decides"], max_turns=max_turns)
        self.codec = ActionCodec(self.game)
        self.zero_sum: bool = values["zero_sum"]
        self.max_length = max_game_length(self.game)
        self.loss = -1.0 / (players - 1) if self.zero_sum else 0.0
        self.game_type = _game_type(self.zero_sum)
        self.info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=self.codec.num_chance_outcomes,
            num_players=players,
            min_utility=self.loss,
            max_utility=1.0,
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=self.max_length,
        )
        self.observation_size = max(block.stop for block in observation_layout(self.game).values())
        self.information_size = max(block.stop for block in information_state_layout(self.game).values())
        # Every game starts from this node (states are immutable, so one serves all).  OpenSpiel makes a new
        # initial state on every observation_tensor() call, to learn the tensor's shape: made once, it costs
        # nothing, and observers keep its vectors (RiskObserver.set_from).
        self.initial = self.game.new_initial_state(seed=0)
        # The vectors read by RiskState.observation_tensor / information_state_tensor from Python, updated in
        # place from node to node (the observer keys each player's buffer by the node it shows): one pair per
        # thread, since every state of every game of these parameters shares this setup (one pair for all
        # mixed states up across threads: two in five tensors wrong, in the thread review's reproducer).
        self._per_thread = threading.local()

    @property
    def observers(self) -> tuple[Observer, Observer]:
        """This thread's observers: of the observation, and of the information state."""
        found: tuple[Observer, Observer] | None = getattr(self._per_thread, "observers", None)
        if found is None:
            found = self._per_thread.observers = (Observer(self.game), Observer(self.game, information=True))
        return found

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_setup, (self.key,))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self  # shared by every state of the game, never changed


@functools.lru_cache(maxsize=32)
def _setup(key: tuple[tuple[str, Any], ...]) -> _Setup:
    return _Setup(dict(key))


def max_game_length(game: Game) -> int:
    """The decisions a game of ``game`` may take: ``3 A + n + 8`` for the set-up, ``TURN_DECISIONS`` per turn.

    ``A`` is the armies the set-up places (every player's starting armies,
    ``n`` each when they are the territories dealt, and the neutrals'); each placement is at least
    one army and takes at most ``armies + 2`` ids, so the set-up fits its
    budget.  Play has no such bound in the rules, so the OpenSpiel game ends
    as a draw if it reaches the total.

    Raises
    ------
    InvalidArgumentError
        If ``game`` has no turn cap (OpenSpiel needs a finite length).

    Examples
    --------
    >>> import riskmath as rm
    >>> max_game_length(rm.Game(3, max_turns=200))
    200365
    """
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"game must be a riskmath Game, got {shown(game)}")
    if game.max_turns is None:
        raise InvalidArgumentError(f"{game!r} has no turn cap; an OpenSpiel game needs one (max_turns)")
    rules = game.rules
    dealt = rules.starting_armies_rule == "territories_dealt"  # as many armies as territories dealt: at most n
    start = len(game.board) if dealt else game.starting_armies[0]
    armies = game.players * start + sum(game.starting_armies[game.players :])
    return 3 * armies + len(game.board) + 8 + TURN_DECISIONS * game.max_turns


class RiskGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; load it with ``pyspiel.load_game("python_risk", params)`` after :func:`register`.

    Attributes
    ----------
    game : Game
        The riskmath game played (board, rules, players, turn cap).
    codec : ActionCodec
        The action and chance-outcome ids.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        setup = _setup(tuple(sorted({**DEFAULTS, **(params or {})}.items())))
        super().__init__(setup.game_type, setup.info, params or {})
        self._setup = setup
        self.game = setup.game
        self.codec = setup.codec

    def new_initial_state(self) -> RiskState:
        """The state before the set-up (a chance node: who starts)."""
        return RiskState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RiskObserver:
        """An observer: the observation (default) or, with ``perfect_recall``, the information state."""
        if params:
            raise InvalidArgumentError(f"the observer takes no parameters, got {shown(params)}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise InvalidArgumentError(
                "the observer shows one player's view (public information and that player's private "
                f"information), not {iig_obs_type!r}"
            )
        return RiskObserver(self, bool(iig_obs_type.perfect_recall))


class _Record:
    """The riskmath side of a state: the node, the decisions taken, what each player saw (a linked list).

    A record made by :meth:`RiskState.resample_from_infostate` starts from the resampled node (``base``: the
    node and the decisions taken then) instead of the start of the game; its events are those after it.
    """

    __slots__ = ("base", "decisions", "events", "node", "player", "setup")

    def __init__(
        self, setup: _Setup, node: Any, decisions: int = 0, events: Any = None, base: tuple[Any, int] | None = None
    ) -> None:
        self.setup = setup
        self.node = node  # GameState, CountChoice or BattleChance: immutable, shared between clones
        self.decisions = decisions
        self.events = events  # (event, earlier events) or None; an event is (seen by, text, text for the others, id)
        self.base = base
        self.player = _player(setup, node, decisions)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Record:
        return _Record(self.setup, self.node, self.decisions, self.events, self.base)  # all parts immutable

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        ids, events = [], self.events
        while events is not None:
            ids.append(events[0][3])
            events = events[1]
        return (_replay, (self.setup, tuple(reversed(ids)), self.base))


def _replay(setup: _Setup, ids: tuple[int, ...], base: tuple[Any, int] | None = None) -> _Record:
    """The record reached by applying ``ids`` from the start, or from ``base`` (how a pickled state comes back)."""
    record = _Record(setup, setup.initial) if base is None else _Record(setup, base[0], base[1], base=base)
    for index in ids:
        _advance(record, index)
    return record


_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _player(setup: _Setup, node: Any, decisions: int) -> int:
    """OpenSpiel's current player at ``node``: a player id, chance, or terminal (the end, or the budget used up).

    The budget ends the game at any node, a pending count or a piece of a blitz as well as a state: no history
    is longer than ``max_game_length`` (a count opened by the budget's last decision once went on past it).
    """
    if decisions >= setup.max_length:
        return _TERMINAL
    if isinstance(node, BattleChance):
        return _CHANCE
    if isinstance(node, GameState):
        if node.is_terminal():
            return _TERMINAL
        if node.is_chance_node():
            return _CHANCE
    return int(node.current_player)


def _state_of(node: Any) -> GameState:
    return node.state if isinstance(node, (CountChoice, BattleChance)) else node


def _advance(record: _Record, index: int) -> None:
    """Apply action or outcome id ``index`` to ``record`` (checked by the codec: an illegal id raises)."""
    setup, node = record.setup, record.node
    codec = setup.codec
    if record.player == _CHANCE:
        before = _state_of(node)
        result = codec.decode_outcome(node, index)
        if isinstance(result, BattleChance):
            record.node = result
            event = (-1, None, node, index)  # a piece of a big blitz: its text is made when asked
        else:
            after = before.apply(result, check=False)  # decode_outcome checked it is an outcome of the node
            record.node = after
            event = _chance_event(before, after, result, index)
    else:
        player = node.current_player
        result = codec.decode(node, index)
        # decode checked the id against the mask, which is true exactly for the legal actions
        record.node = result if isinstance(result, CountChoice) else _state_of(node).apply(result, check=False)
        record.decisions += 1
        event = (-1, player, None, index)
    record.events = (event, record.events)
    record.player = _player(setup, record.node, record.decisions)


def _chance_event(before: GameState, after: GameState, outcome: Any, index: int) -> tuple[int, Any, Any, int]:
    """The event of a chance outcome: public, or a card or mission seen by its receiver only."""
    if isinstance(outcome, DrawCard):
        old, new = before.position, after.position
        for q in range(before.game.players):
            if len(new.hands[q]) > len(old.hands[q]):
                return (q, f"chance: p{q} draws {outcome.card}", f"chance: p{q} draws a card", index)
        if len(new.missions) > len(old.missions):
            q = len(old.missions)
            return (q, f"chance: p{q} is dealt mission {outcome.card}", f"chance: p{q} is dealt a mission", index)
    return (-1, None, outcome, index)


def _event_text(codec: ActionCodec, event: tuple[int, Any, Any, int], player: int) -> str:
    """What ``player`` saw of an event (see :func:`_advance` for the forms an event takes)."""
    seen_by, first, second, index = event
    if isinstance(first, str):  # a card or mission: the receiver sees it, the others that it was drawn
        return first if seen_by == player else str(second)
    if isinstance(first, int):  # a decision
        return f"p{first}: {codec.describe(index)}"
    if isinstance(second, (BattleChance, GameState)):  # a piece of a big blitz
        return f"chance: {_outcome_text(codec, second, index)}"
    return f"chance: {second!r}"


def _outcome_text(codec: ActionCodec, node: Any, index: int) -> str:
    for name, block in codec.chance_layout.items():
        if block.start <= index < block.stop:
            try:
                outcome = codec.decode_outcome(node, index)
            except (InvalidArgumentError, ValueError):
                return f"{name} outcome {index - block.start}"
            if isinstance(outcome, BattleChance):
                return f"{name} {index - block.start}: blitz goes on, {outcome.attackers} v {outcome.defenders}"
            return f"{outcome!r}"
    return f"outcome {index}"


class RiskState(pyspiel.State):  # type: ignore[misc]
    """A state of the OpenSpiel game: a riskmath node (state, count choice or blitz piece) and its record.

    Attributes
    ----------
    node : GameState or CountChoice or BattleChance
        The riskmath node (read-only).
    """

    def __init__(self, game: RiskGame) -> None:
        super().__init__(game)
        setup = game._setup
        self._record = _Record(setup, setup.initial)

    @property
    def node(self) -> Any:
        return self._record.node

    @property
    def risk_state(self) -> GameState:
        """The riskmath :class:`~riskmath.GameState` underneath (before a pending count or blitz piece)."""
        return _state_of(self._record.node)

    def current_player(self) -> int:
        return self._record.player

    def _legal_actions(self, player: int) -> list[int]:
        record = self._record
        if player != record.player or player < 0:
            return []
        return record.setup.codec.legal_ids(record.node)

    # -- Python fast paths -------------------------------------------------------------------------
    # OpenSpiel's own State methods reach a Python game through C++ and back: legal_actions() asks
    # is_terminal, current_player (twice) and _legal_actions, then converts the list twice;
    # observation_tensor() makes a new initial state to learn the tensor's size, writes it through the
    # observer, then writes the real one.  Called from Python, the methods below answer the same
    # (the same lists, the same floats) directly; C++ callers still take OpenSpiel's way.  Any call
    # outside the plain form (another player's legal actions, a player id to be checked) is passed
    # to OpenSpiel's own method, so its answers and errors are OpenSpiel's.

    def legal_actions(self, *player: Any) -> list[int]:
        """The legal ids of the player to move (chance outcomes at a chance node, none at the end), as
        OpenSpiel's ``legal_actions``; with a player argument OpenSpiel's own method answers."""
        if player:
            return pyspiel.State.legal_actions(self, *player)  # type: ignore[no-any-return]
        record = self._record
        mover = record.player
        if mover >= 0:
            return self._legal_actions(mover)
        if mover == _CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        return []

    def is_chance_node(self) -> bool:
        """Whether a chance outcome is to be applied next (OpenSpiel's ``is_chance_node``)."""
        return self._record.player == _CHANCE

    def observation_tensor(self, *player: Any) -> list[float]:
        """What ``player`` sees (:func:`riskmath.envs.observation`), as OpenSpiel's ``observation_tensor``."""
        if _plain(player, self._record):
            return self._tensor(0, player)
        return pyspiel.State.observation_tensor(self, *player)  # type: ignore[no-any-return]

    def information_state_tensor(self, *player: Any) -> list[float]:
        """``player``'s information state (:func:`riskmath.envs.information_state`), as OpenSpiel's
        ``information_state_tensor``."""
        if _plain(player, self._record):
            return self._tensor(1, player)
        return pyspiel.State.information_state_tensor(self, *player)  # type: ignore[no-any-return]

    def _tensor(self, which: int, player: tuple[int]) -> list[float]:
        record = self._record
        node = record.node
        if isinstance(node, BattleChance):  # a piece of a big blitz: seen as the state it belongs to
            node = node.state
        return record.setup.observers[which].values(node, player[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        record = self._record
        if record.player != _CHANCE:
            return []
        return record.setup.codec.chance_outcomes(record.node)

    def _apply_action(self, action: int) -> None:
        _advance(self._record, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        codec = self._record.setup.codec
        if player == pyspiel.PlayerId.CHANCE:
            return _outcome_text(codec, self._record.node, int(action))
        if 0 <= action < codec.num_actions:
            return codec.describe(int(action))
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._record.player == _TERMINAL

    def returns(self) -> list[float]:
        record = self._record
        setup = record.setup
        players = setup.game.players
        if record.player != _TERMINAL:
            return [0.0] * players
        node = record.node
        if isinstance(node, GameState) and node.is_terminal() and node.winner is not None:
            return [1.0 if p == node.winner else setup.loss for p in range(players)]
        # a draw (the turn cap or the decision budget): the eliminated lose, the others share it (zero-sum)
        alive = _state_of(node).position.alive
        if not setup.zero_sum or all(alive):
            return [0.0] * players
        share = (players - sum(alive)) / (players - 1) / sum(alive)
        return [share if alive[p] else setup.loss for p in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RiskState:
        """A state that ``player_id`` cannot tell from this one, its hidden parts drawn afresh (for ISMCTS).

        The other players' cards (each hand keeps its size), the order of
        the deck, the other players' missions and the chance generator are
        drawn by :func:`riskmath.envs.hidden.resample_hidden`; everything
        ``player_id`` has seen stays, so the new state has the same
        ``information_state_string(player_id)``.  One number from
        ``probability_sampler`` (any callable returning a float in [0, 1),
        such as ``pyspiel.UniformProbabilitySampler``) seeds the generator
        that draws all of it: the same sampler gives the same state.
        OpenSpiel's ``ISMCTSBot`` passes a new, unseeded sampler on every
        call; :func:`resampler` makes it reproducible.

        The new state starts its own record there: its ``history()`` is
        empty (``pickle``, ``clone()`` and OpenSpiel's
        ``serialize_game_and_state`` bring it back as it is), ``record_string`` shows the
        game from the resampling on, and the decisions taken so far carry
        over (the game's length budget counts them).

        Raises
        ------
        InvalidArgumentError
            If ``player_id`` is not a player id of the game or the sampler's number is not in [0, 1].
        """
        record = self._record
        players = record.setup.game.players
        if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < players:
            raise InvalidArgumentError(f"player_id must be a player id in 0..{players - 1}, got {shown(player_id)}")
        if not callable(probability_sampler):
            raise InvalidArgumentError(
                "probability_sampler must be a callable returning a number in [0, 1) (such as "
                f"pyspiel.UniformProbabilitySampler), got {shown(probability_sampler)}"
            )
        number = probability_sampler()
        if isinstance(number, bool) or not isinstance(number, (float, int, np.floating)) or not 0 <= number <= 1:
            raise InvalidArgumentError(f"probability_sampler() must return a number in [0, 1], got {shown(number)}")
        seed = int(float(number) * (1 << 53))
        node = resample_hidden(record.node, int(player_id), seed)
        state = RiskState(self.get_game())
        state._record = _Record(record.setup, node, record.decisions, base=(node, record.decisions))
        return state

    def record_string(self, player: int) -> str:
        """What ``player`` saw of the game, event by event: every decision, every public chance outcome, its own
        cards and mission as drawn, and only that another player drew a card or a mission (long: one line an
        event; the information-state string is short instead)."""
        record = self._record
        lines, events = [], record.events
        while events is not None:
            lines.append(_event_text(record.setup.codec, events[0], player))
            events = events[1]
        if record.base is not None:
            lines.append(f"resampled for a player's view at decision {record.base[1]}")
        return "\n".join(reversed(lines))

    def __str__(self) -> str:
        record = self._record
        node = record.node
        text = repr(node) if isinstance(node, GameState) else repr(_state_of(node)) + " " + _pending_text(node)
        pos = _state_of(node).position
        owners = " ".join(f"{o}:{a}" for o, a in zip(pos.owner, pos.armies, strict=True))
        return f"{text} decisions={record.decisions} board={owners}"


def _plain(player: tuple[Any, ...], record: _Record) -> bool:
    """Whether a tensor call's arguments are one plain player id of the game (the fast path's case)."""
    return len(player) == 1 and type(player[0]) is int and 0 <= player[0] < record.setup.game.players


def _pending_text(node: Any) -> str:
    if isinstance(node, CountChoice):
        return f"(choosing the count of {node.kind}: {node.chosen} of {node.low}..{node.high})"
    return f"(blitz in progress: {node.attackers} v {node.defenders}, stop at {node.stop_at})"


class RiskObserver:
    """OpenSpiel's Python observer for the game: ``tensor`` and ``dict`` views, ``set_from``, ``string_from``.

    The observation (``perfect_recall=False``) is
    :func:`riskmath.envs.observation`; the information state
    (``perfect_recall=True``) is :func:`riskmath.envs.information_state`,
    with the player's record of the game added to its string.
    """

    def __init__(self, game: RiskGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self._last: tuple[Any, int, int, str] = (None, -1, -1, "")
        setup = game._setup
        layout = information_state_layout(setup.game) if perfect_recall else observation_layout(setup.game)
        size = setup.information_size if perfect_recall else setup.observation_size
        self.tensor = np.zeros(size, dtype=np.float32)
        self._observer = Observer(setup.game, information=perfect_recall)  # the vectors, updated in place
        self._initial = setup.initial
        self._players = setup.game.players
        self._first: dict[int, np.ndarray] = {}  # each player's vector of the initial node
        n, players = len(setup.game.board), setup.game.players
        shapes = {"owner": (n, players + 1), "capitals": (n, players)}
        self.dict = {
            name: self.tensor[block].reshape(shapes.get(name, (block.stop - block.start,)))
            for name, block in layout.items()
        }

    def set_from(self, state: RiskState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees of ``state``.

        The vector comes from the environments' internal ``Observer``, which keeps each player's
        vector and updates it in place from node to node (only the sections that changed), so a repeated
        call costs one copy into ``tensor``.  OpenSpiel's ``observation_tensor()`` calls this twice: first
        on a new initial state (to learn the shape), whose vectors are kept apart so that the observer's
        buffers stay on the game being played.
        """
        node = state.node
        if type(player) is not int or not 0 <= player < self._players:  # (the hot path reads a plain id)
            player = checked_node(node, player)[2]  # InvalidArgumentError naming a bad one; NumPy ids as ints
        view = information_state if self.perfect_recall else observation
        if node is self._initial:  # asked for on every observation_tensor() call (see _Setup): kept apart
            first = self._first.get(player)
            if first is None:
                first = self._first[player] = view(node, player)
            self.tensor[:] = first
        elif isinstance(node, BattleChance):  # a piece of a big blitz: not a node the observer keeps
            self.tensor[:] = view(state.node, player)  # typed as a GameState; it takes a blitz piece too
        else:
            self.tensor[:] = self._observer.view(node, player)

    def string_from(self, state: RiskState, player: int) -> str:
        """What ``player`` sees of ``state`` as text: the observation string, or for the information state the
        decisions taken so far and :func:`riskmath.envs.hidden.view_string` (one short line)."""
        if not self.perfect_recall:
            return observation_string(state.node, player)
        record = state._record
        node, decisions = record.node, record.decisions
        last = self._last  # a search asks for the same node's string several times in a row
        if last[0] is node and last[1] == player and last[2] == decisions:
            return last[3]
        text = f"d{decisions}|{view_string(node, player)}"
        self._last = (node, player, decisions, text)
        return text


class EstimateEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """A leaf evaluator for OpenSpiel's ``MCTSBot``: expected returns from riskmath's victory estimate, no rollout.

    ``evaluate(state)`` reads each player's chance of victory ``p`` off the
    riskmath state under the node with
    :func:`riskmath.evaluate.estimate_victory_probabilities` (tens of
    microseconds) and turns it into the expected return under the game's
    returns scheme: ``p`` with ``zero_sum=False``, and ``p - (1 - p) / (players
    - 1)`` with ``zero_sum=True`` (a win pays +1, a loss ``-1/(players-1)``).
    The estimate gives every state a winner (its chances sum to 1), so a
    draw by the turn cap gets no weight before it happens: the evaluator
    scores a position as if the game will be played out.  A terminal state
    gets its real returns (a draw: 0 to all).

    Where the estimate is read:

    - a count being chosen (:class:`~riskmath.envs.CountChoice`) or a blitz
      under way (:class:`~riskmath.envs.BattleChance`) is evaluated on the
      state before the action (``state.risk_state``); a chance node (a roll,
      a draw) on the state before its outcome;
    - in the set-up, once every territory has an owner (armies being
      placed, capitals, missions), the estimate is applied as it stands: an
      extrapolation, as the fit saw states from player-turn 10 on only;
    - before that (order, deal or claims under way) every player gets the
      same chance, ``1 / players``.

    ``prior(state)`` is uniform over the legal actions at a decision and
    the outcomes with their probabilities (``state.chance_outcomes()``) at a
    chance node: ``MCTSBot`` builds a chance node's children from the prior
    and then samples one by ``chance_outcomes()``, so the two must list the
    same ids.  A terminal state has no legal ids, so its prior is empty.

    Examples
    --------
    >>> import pyspiel
    >>> from open_spiel.python.algorithms import mcts
    >>> register()
    >>> game = pyspiel.load_game("python_risk", {"players": 2, "max_turns": 30, "rules": "us_1959",
    ...                                          "board": "classic:South America+Africa", "zero_sum": True})
    >>> state = game.new_initial_state()
    >>> while state.is_chance_node():  # who starts, then the deal
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> state.risk_state
    <GameState turn 1, REINFORCE, player 0 to move>
    >>> evaluator = EstimateEvaluator()
    >>> [round(float(r), 3) for r in evaluator.evaluate(state)]
    [0.204, -0.204]
    >>> bot = mcts.MCTSBot(game, 2, 20, evaluator, random_state=np.random.RandomState(0))
    >>> state.action_to_string(state.current_player(), bot.step(state))
    'place on North Africa'
    """

    def evaluate(self, state: RiskState) -> np.ndarray:
        """Each player's expected return at ``state`` (a float array, one entry a player)."""
        record = _record_of(state)
        if record.player == _TERMINAL:
            return np.array(state.returns(), dtype=float)
        setup = record.setup
        players = setup.game.players
        risk_state = _state_of(record.node)
        if -1 in risk_state.position.owner:  # order, deal or claims under way: nothing to read yet
            chances = np.full(players, 1.0 / players)
        else:
            chances = np.array(victory_list(risk_state), dtype=float)
        if setup.zero_sum:
            return chances - (1.0 - chances) / (players - 1)
        return chances

    def prior(self, state: RiskState) -> list[tuple[int, float]]:
        """``(id, probability)`` pairs: the chance outcomes at a chance node, uniform over the legal ids elsewhere."""
        record = _record_of(state)
        if record.player == _CHANCE:
            return state.chance_outcomes()
        if record.player == _TERMINAL:
            return []  # no legal ids, so no prior
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


def resampler(seed: int) -> Callable[[RiskState, int], RiskState]:
    """A reproducible resampler for OpenSpiel's ``ISMCTSBot.set_resampler``: the bot's worlds follow from ``seed``.

    ``ISMCTSBot`` calls ``state.resample_from_infostate(player,
    pyspiel.UniformProbabilitySampler(0., 1.))`` by default: a new sampler
    seeded from the system every time, so two searches from the same state
    differ.  The resampler returned passes one ``UniformProbabilitySampler``
    seeded by ``seed`` instead, so that a bot whose ``random_state`` is
    seeded too plays the same game every time.

    Examples
    --------
    >>> import pyspiel
    >>> from open_spiel.python.algorithms import ismcts
    >>> register()
    >>> game = pyspiel.load_game("python_risk", {"players": 2, "rules": "us_1959", "board": "south_america_africa"})
    >>> bot = ismcts.ISMCTSBot(game, EstimateEvaluator(), 2.0, 20, random_state=np.random.RandomState(0))
    >>> bot.set_resampler(resampler(0))
    """
    seed = check_int("seed", seed, minimum=0, maximum=(1 << 31) - 1)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)

    def resample(state: RiskState, player: int) -> RiskState:
        return state.resample_from_infostate(player, sampler)

    return resample


def _record_of(state: Any) -> _Record:
    if not isinstance(state, RiskState):
        raise InvalidArgumentError(f"state must be a state of the python_risk game (RiskState), got {shown(state)}")
    return state._record
