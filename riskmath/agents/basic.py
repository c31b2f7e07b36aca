"""The protocol every agent follows, and the two simple built-in agents (random and aggressive)."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any, Protocol, runtime_checkable

from riskmath._validation import check_real, shown
from riskmath.errors import InvalidArgumentError
from riskmath.game.cards import Symbol
from riskmath.game.checked import Checked, to_action, to_engine
from riskmath.game.phase import Phase
from riskmath.game.position import defender_dice_most, most_to_move, room, trade_down_over, trade_forced
from riskmath.game.state import GameState

__all__ = ["Agent", "AggressiveAgent", "RandomAgent", "check_asked"]

# The phases as module constants: the decisions below compare them many times a turn.
_ATTACK, _OCCUPY, _FORTIFY, _DEFEND = Phase.ATTACK, Phase.OCCUPY, Phase.FORTIFY, Phase.DEFEND
_REINFORCE, _TRADE_DOWN = Phase.REINFORCE, Phase.TRADE_DOWN
_SETUP_PLACE, _SETUP_CLAIM, _SETUP_PILE, _SETUP_CAPITAL = (
    Phase.SETUP_PLACE, Phase.SETUP_CLAIM, Phase.SETUP_PILE, Phase.SETUP_CAPITAL,
)  # fmt: skip


@runtime_checkable
class Agent(Protocol):
    """What :func:`riskmath.simulate` needs from an agent.

    An agent has a ``name`` and an ``act(state, rng)`` method returning one
    of ``state.legal_actions()`` for ``state.current_player``, at any
    decision of any phase (set-up included); ``rng`` is its own
    :class:`random.Random`.

    **What an agent may keep between decisions.**  Anything it likes (the
    built-in agents' parameters never change), provided that a decision
    depends only on the state and ``rng`` in the end: memory is a cache,
    never a fact of the game.  The odds agent keeps, per seat, a plan for the
    turn (the placements still to make, the attack routes, the territories
    held at the start), keyed by ``state.turn``; it drops it silently when
    the turn changes, and replans when the plan no longer fits the state
    (the pool differs from what is left of the plan, or the owners or the
    armies on the board and at hand from those it was planned on).  The
    search agent remembers the first placement it searched (the turn, the
    player, the board and the pool), so as to search a turn's placements
    once.  The random and aggressive agents keep nothing.  Since one agent
    object may play several seats, memory is kept per seat.

    **How it is reset between games.**  It is not reset: :func:`riskmath.play`,
    :func:`riskmath.simulate`, the tournaments and the rollouts of
    :func:`riskmath.victory_probabilities` play every game with fresh deep
    copies of the agents (``copy.deepcopy``; worker processes get pickled
    copies), so no game depends on the games played before it and the
    caller's agent objects are never changed.  An outside client that calls
    ``act`` itself may reuse one agent from game to game (a test checks that
    a built-in agent that played a game decides the next one exactly as a
    fresh agent does), and may ask one agent about placements of positions
    that do not follow one another (positions built by hand with
    :meth:`riskmath.Game.position`: tested against a fresh agent), but should
    ask a fresh copy (``copy.deepcopy``) about an attack, occupation or
    fortification of such positions: at the turn and seat of a placement it
    planned, the odds agent (and the planner) attacks along that placement's
    routes.
    Agents must be picklable and deep-copyable.

    Examples
    --------
    A protocol: any object with a ``name`` and an ``act`` method is an agent.

    >>> class FirstLegal:
    ...     name = "first"
    ...     def act(self, state, rng):
    ...         return state.legal_actions()[0]
    >>> isinstance(FirstLegal(), Agent), isinstance(RandomAgent(), Agent), isinstance(object(), Agent)
    (True, True, False)
    >>> import riskmath as rm
    >>> rm.play(rm.Game(2, max_turns=30), [FirstLegal(), AggressiveAgent()], seed=1).winner
    1
    """

    name: str

    def act(self, state: GameState, rng: random.Random) -> Any:
        """A legal action for ``state.current_player``."""
        ...  # pragma: no cover - protocol


def check_threshold(name: str, value: object) -> float:
    """A threshold on a probability: a finite real in [0, 1] (0: always, 1: only when certain), as a float.

    NaN made every comparison false (an agent that silently never attacked), a string failed mid-game.
    """
    number = check_real(name, value)
    if not 0.0 <= number <= 1.0:
        raise InvalidArgumentError(f"{name} must be a probability in [0, 1], got {shown(value)}")
    return number


#: The most simulations a searching agent may spend on one decision (a budget above it is refused: a million
#: rollouts of a few milliseconds each would run for an hour on one decision).
MOST_BUDGET = 100_000


def check_asked(state: object, rng: object) -> None:
    """Refuse, in one clear line, what no agent can act on: called first by the built-in agents' ``act``.

    ``state`` must be a :class:`~riskmath.game.state.GameState` at a
    decision (not over, not a chance node: ``GameState.sample_chance``
    resolves those) and ``rng`` a :class:`random.Random`.  Outside clients
    (another engine, a notebook) meet this error instead of an
    ``AttributeError`` or ``IndexError`` from inside the agent.

    Raises
    ------
    InvalidArgumentError
        Naming the bad argument.
    """
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"state must be a GameState, got {type(state).__name__}: {shown(state)}")
    if not isinstance(rng, random.Random):
        raise InvalidArgumentError(f"rng must be a random.Random, got {type(rng).__name__}: {shown(rng)}")
    if state.is_terminal():
        raise InvalidArgumentError(f"the game is over: no decision to take in {state!r}")
    if state.is_chance_node():
        raise InvalidArgumentError(f"{state!r} is a chance node, not a decision: resolve it with sample_chance()")


class BuiltIn:
    """The built-in agents' base: trusted (see the package docstring) until a subclass outside
    ``riskmath.agents`` overrides ``act`` without setting ``trusted`` itself; then its actions are checked, and
    ``act`` (not the built-in's in-place path) decides."""

    trusted = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        built_in = cls.__module__.startswith("riskmath.agents.")
        if "act" in vars(cls) and "trusted" not in vars(cls) and not built_in:
            cls.trusted = False


class RandomAgent(BuiltIn):
    """Uniformly random among the legal actions (blitzes listed with ``stop_at=0``).

    Examples
    --------
    >>> import random, riskmath as rm
    >>> state = rm.Game(2).new_initial_state(seed=0, auto_chance=True)
    >>> action = RandomAgent().act(state, random.Random(0))
    >>> action, action in state.legal_actions()
    (ChoosePile(pile=1), True)
    """

    name = "random"

    def act(self, state: GameState, rng: random.Random) -> Any:
        check_asked(state, rng)
        return rng.choice(state.legal_actions())

    def _decide(self, state: GameState, rng: random.Random) -> Checked:
        """:meth:`act` in the checked form (territory ids), for the in-place path."""
        return _any_legal(state, rng)

    def __repr__(self) -> str:
        return "RandomAgent()"


class AggressiveAgent(BuiltIn):
    """Stack the front and attack whatever is clearly weaker.

    Reinforcements (and set-up armies) go on the own territory with the most
    armies among those bordering an enemy (ties: the first name in
    alphabetical order); sets are traded as soon as they can be.  Of all its
    attacks it blitzes the one with the largest margin of armies able to
    attack over the defenders (the first in board order on ties), while that
    margin is at least 2 and it has ``ratio`` times the defenders' armies;
    it moves every army it can into a captured territory, and does not
    fortify.  Defending,
    it throws the most dice it may.  Territories are claimed at random, the
    first pile and the first own territory (as capital) are chosen, and
    neutral set-up armies go anywhere at random.

    It reads the board and the armies straight from the state's position
    (``state.position``), without listing the legal actions: a decision
    costs a few microseconds.

    Parameters
    ----------
    ratio : float, default 1.0
        How much stronger the attacking stack must be.

    Examples
    --------
    >>> import riskmath as rm
    >>> record = rm.play(rm.Game(2, max_turns=30), [AggressiveAgent(), AggressiveAgent(ratio=2.0)], seed=1)
    >>> record.winner, record.final.turn
    (0, 20)
    """

    name = "aggressive"
    _occupies_all = True  # for the in-place loop: every occupation moves all it may (as _decide does)

    def __init__(self, ratio: float = 1.0) -> None:
        self.ratio = check_real("ratio", ratio, minimum=0.0)

    def __repr__(self) -> str:
        return f"AggressiveAgent(ratio={self.ratio!r})"

    def act(self, state: GameState, rng: random.Random) -> Any:
        check_asked(state, rng)
        return to_action(state.game, self._decide(state, rng))

    def _decide(self, state: GameState, rng: random.Random) -> Checked:
        """:meth:`act` in the checked form (territory ids), for the in-place path."""
        pos = state.position
        phase = pos.phase
        if phase is _ATTACK:  # the best blitz (most armies more than the defenders'), or the end
            owner, armies, neighbors = pos.owner, pos.armies, state.game.neighbors
            player, ratio = pos.player, self.ratio
            best, choice = 1, None  # a blitz needs a margin of at least 2
            limit = best + 2  # mine = a - 1 and theirs >= 1: a stack of at most best + 2 cannot beat the best
            for t, a in enumerate(armies):
                if a <= limit or owner[t] != player:
                    continue
                mine = a - 1
                for u in neighbors[t]:
                    if owner[u] != player:
                        theirs = armies[u]
                        if mine - theirs > best and mine >= ratio * theirs:
                            best, choice = mine - theirs, (t, u)
                            limit = best + 2
            return ("end",) if choice is None else ("blitz", choice[0], choice[1], 0)
        if phase is _OCCUPY:  # everything that may move
            assert pos.occupy is not None
            return ("occupy", most_to_move(state.game, pos, pos.occupy.source, pos.occupy.target))
        if phase is _REINFORCE or phase is _TRADE_DOWN:
            return _reinforce(state, rng)
        if phase is _FORTIFY:
            return ("end",)
        if phase is _DEFEND:
            assert pos.pending is not None
            return ("defend", defender_dice_most(state.game, pos, pos.pending.target))
        if phase is _SETUP_PLACE:
            placer, due = pos.queue[0]
            if placer != pos.player:  # a neutral army (two-player set-up): anywhere will do
                return _any_legal(state, rng)
            target = _front(state, placer, setup=True)
            return ("place", target, min(due, room(state.game, pos, target, setup=True)))
        if phase is _SETUP_CLAIM:
            return ("place", rng.choice([t for t, o in enumerate(pos.owner) if o < 0]), 1)
        if phase is _SETUP_PILE:
            return ("pile", min(set(pos.piles) - {-1}))
        if phase is _SETUP_CAPITAL:
            return ("capital", pos.owner.index(pos.player))
        return _any_legal(state, rng)  # pragma: no cover - every phase is above


def _any_legal(state: GameState, rng: random.Random) -> Checked:
    """A uniformly random legal action, in the checked form."""
    return to_engine(state.game, rng.choice(state.legal_actions()))


def _reinforce(state: GameState, rng: random.Random) -> Checked:
    """Trade the first set if allowed, else place everything on the front, else end the phase."""
    pos = state.position
    player = pos.player
    hand = len(pos.hands[player])
    reinforce = pos.phase is Phase.REINFORCE
    if hand >= 3 and (reinforce or not trade_down_over(state.game, pos)):
        trade = first_trade(state, player)
        if trade is not None:
            return ("trade", trade)
    forced = reinforce and trade_forced(state.game, pos)
    if pos.pool > 0 and not forced:
        target = _front(state, player)
        return ("place", target, min(pos.pool, room(state.game, pos, target)))
    if reinforce and not forced:
        return ("end",)
    return _any_legal(state, rng)  # pragma: no cover - nothing is legal


#: Where a state stands in its turn, for an agent's memo of the turn: (game, turn, player, owners, armies, pool).
Signature = tuple[object, int, int, tuple[int, ...], tuple[int, ...], int]


def position_signature(state: GameState) -> Signature:
    """The :data:`Signature` of ``state``: equal for two states only if they are the same position of one game
    at the same turn and seat, as far as a placement can change it."""
    pos = state.position
    return (state.game, state.turn, state.current_player, tuple(pos.owner), tuple(pos.armies), pos.pool)


def placement_signature(state: GameState, territory: int, armies: int) -> Signature:
    """The :data:`Signature` of the position that placing ``armies`` on ``territory`` (an id) leads to: an agent
    that goes on with its turn's plan only from there never takes an unrelated position for its own next step."""
    pos = state.position
    after = list(pos.armies)
    after[territory] += armies
    return (state.game, state.turn, state.current_player, tuple(pos.owner), tuple(after), pos.pool - armies)


def first_trade(state: GameState, player: int) -> tuple[str, ...] | None:
    """The first set in the hand (the first of ``legal_actions()``), by symbols alone, or None."""
    hand = state.position.hands[player]
    cards = state.game.cards
    symbols = [cards[c].symbol for c in hand]
    wild = Symbol.WILD
    for i, j, k in combinations(range(len(hand)), 3):
        a, b, c = symbols[i], symbols[j], symbols[k]
        if a is wild or b is wild or c is wild or (a is b and b is c) or (a is not b and b is not c and a is not c):
            return tuple(sorted((hand[i], hand[j], hand[k])))
    return None


def _front(state: GameState, player: int, setup: bool = False) -> int:
    """The own territory with :func:`~riskmath.game.position.room` (the set-up cap with ``setup``) and the most
    armies, among those bordering an enemy if any.

    Ties go to the first name in alphabetical order.
    """
    game, pos = state.game, state.position
    owner, armies, neighbors = pos.owner, pos.armies, game.neighbors
    order = game.alphabetical
    best, target = 0, -1
    for t in order:
        a = armies[t]
        if a <= best or owner[t] != player or not room(game, pos, t, setup):
            continue
        for u in neighbors[t]:
            if owner[u] != player:
                best, target = a, t
                break
    if target < 0:  # no front with room: the strongest territory with room
        for t in order:
            a = armies[t]
            if a > best and owner[t] == player and room(game, pos, t, setup):
                best, target = a, t
    return target
