"""The victory estimate of positions that differ from a state by a few changes: :class:`WhatIf`.

An agent weighing moves, or a user asking "what if I move these armies",
wants :func:`~riskmath.evaluate.estimate_victory_probabilities` of positions
that are the current one with a few territories changed hands or armies
moved, without building a :class:`~riskmath.GameState` for each (a state's
copy takes milliseconds; the estimate of a position a few tens of
microseconds).  :class:`WhatIf` is made once from a state and then reads any
number of such positions, each given as owner and army lists (plus, where
they change, who is still in the game and how many cards each player holds).

Every position is read **as at the start of the next player's turn**: the
player asking has finished its turn (its reinforcements placed, its attacks
made) and the player after it in turn order is to move, which is where the
estimate was fitted (the start of a player-turn).  Positions compared this
way differ only in what the changes did, not in whose turn it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, cast

from riskmath._validation import as_int
from riskmath.errors import InvalidArgumentError
from riskmath.evaluate._features import BoardReader, card_unit, feature_rows
from riskmath.evaluate._rule_features import extra_features
from riskmath.evaluate.estimate import SETUP_PHASES, variant_weights, victory_from_features
from riskmath.evaluate.outlook import check_state
from riskmath.game.phase import Phase

if TYPE_CHECKING:
    from riskmath.game.context import GameContext
    from riskmath.game.position import Position
    from riskmath.game.state import GameState

__all__ = ["WhatIf"]


#: Phases in which there is no position to weigh: the set-up and the end of the game.
_NOT_PLAYING = frozenset({*SETUP_PHASES, Phase.GAME_OVER})


class _Extra:
    """What the extra features read of a state: its game and a position."""

    __slots__ = ("game", "position")

    def __init__(self, game: GameContext, position: Position) -> None:
        self.game, self.position = game, position


class WhatIf:
    """The estimated chance of victory of ``player`` in positions derived from ``state``.

    Parameters
    ----------
    state : GameState
        Any state past the set-up.  Its game, turn, sets traded and hands
        are those of every position asked about (unless ``cards=`` says
        otherwise).
    player : int
        The player whose chance is read, and whose turn is taken to be over.
    lineup : str, optional
        A line-up variant of the estimate (a name of
        ``riskmath.evaluate.estimate.LINEUPS``, as for
        :func:`~riskmath.evaluate.estimate_victory_probabilities`), whose
        weights change with the rules; by default the default estimate.

    Notes
    -----
    The estimate is :func:`~riskmath.evaluate.estimate_victory_probabilities`
    with the shipped weights; each call reads the features of the whole
    position (no state is built, nothing is checked: the lists must be a
    position of the state's board with owners and armies as the game allows).
    ``chance(...)`` with no arguments is the state's own position as at the
    start of the next player's turn.

    Examples
    --------
    Ten turns into a three-player game, player 1 has 8 armies to place.
    Where are they worth most, as the position stands once its turn is over?

    >>> import random, riskmath as rm
    >>> from riskmath.agents import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> state.current_player, state.pool
    (1, 8)
    >>> whatif = WhatIf(state, 1)
    >>> def placed(name):
    ...     armies = list(state.position.armies)
    ...     armies[state.game.board.index(name)] += 8
    ...     return round(whatif.chance(armies=armies), 3)
    >>> round(whatif.chance(), 3), placed("North Africa"), placed("Brazil")
    (0.372, 0.471, 0.454)
    """

    __slots__ = (
        "_alive",
        "_armies",
        "_base",
        "_extra",
        "_game",
        "_hands",
        "_owner",
        "_player",
        "_seats",
        "_turn",
        "_unit",
        "_weights",
        "lineup",
    )

    def __init__(self, state: GameState, player: int, *, lineup: str | None = None) -> None:
        state = check_state(state)
        game = state.game
        seat = as_int(player)  # (a NumPy integer too, as everywhere)
        if seat is None or not 0 <= seat < game.players:
            raise InvalidArgumentError(f"player must be a player of the game (0 to {game.players - 1}), got {player!r}")
        player = seat
        pos = state.position
        if -1 in pos.owner or state.phase in _NOT_PLAYING:
            raise InvalidArgumentError(f"state must be past the set-up and the game not over, got {state!r}")
        self._game: GameContext = game
        self._player = player
        # Copies: a state played in place (riskmath.simulate) must not change what this object reads.
        self._owner, self._armies, self._alive = list(pos.owner), list(pos.armies), list(pos.alive)
        self._hands = [len(hand) for hand in pos.hands]
        self._turn, self._unit = pos.turn, card_unit(game.rules, pos.sets_traded)
        self._base = BoardReader(game, self._owner, self._armies, self._alive)
        #: The line-up variant of the estimate read (None: the default estimate).
        self.lineup = lineup
        self._weights: list[float] | None = None
        self._seats: list[float] = []
        self._extra: Position | None = None  # a copy of the position, where the variant's extra features vary
        if lineup is not None:
            self._weights, self._seats = variant_weights(lineup, game)
            if game.rules.missions != "none" or game.rules.capital != "none":
                self._extra = pos.copy()

    @property
    def player(self) -> int:
        """The player whose chance :meth:`chance` gives."""
        return self._player

    def chance(
        self,
        owner: Sequence[int] | None = None,
        armies: Sequence[int] | None = None,
        *,
        changes: Mapping[int, tuple[int, int]] | None = None,
        alive: Sequence[bool] | None = None,
        cards: Sequence[int] | None = None,
    ) -> float:
        """The estimated chance of victory of :attr:`player` in the position with these changes.

        Parameters
        ----------
        owner, armies : sequence of int, optional
            Per territory (the state's own lists when not given).
        changes : mapping of int to (int, int), optional
            Instead of ``owner`` and ``armies``: the territories (ids) that
            differ from the state's, each with its owner and armies.  The
            quicker way to ask about a few changes (nothing is compared).
        alive : sequence of bool, optional
            Per player, who is still in the game (by default the state's).
        cards : sequence of int, optional
            Per player, how many cards each holds (by default the state's hands).

        Returns
        -------
        float
            In [0, 1]; exactly 1 when every other player is out of the game.
        """
        game, me = self._game, self._player
        base_owner, base_armies = self._owner, self._armies
        alive = self._alive if alive is None else alive
        if changes is not None:
            if owner is not None or armies is not None:
                raise InvalidArgumentError("give either changes or owner and armies, not both")
            owner, armies = base_owner[:], base_armies[:]
            for t, (whose, count) in changes.items():
                owner[t], armies[t] = whose, count
            changed: Sequence[int] = list(changes)
        else:
            owner = base_owner if owner is None else owner
            armies = base_armies if armies is None else armies
            changed = [
                t
                for t, (o, a, bo, ba) in enumerate(zip(owner, armies, base_owner, base_armies, strict=True))
                if o != bo or a != ba
            ]
        terms = self._base.after(owner, armies, alive, changed)
        players = game.players
        mover = me  # the next player still in the game moves
        for offset in range(1, players + 1):
            following = (me + offset) % players
            if terms.alive[following]:
                mover = following
                break
        hands = self._hands if cards is None else cards
        rows = feature_rows(game, terms, self._turn, self._unit, hands, mover)
        if self._weights is not None:
            rows = [row + more for row, more in zip(rows, self._extra_rows(owner, armies, terms.alive), strict=True)]
        return victory_from_features(rows, terms.alive, self._weights, self._seats)[me]

    def _extra_rows(self, owner: Sequence[int], armies: Sequence[int], alive: list[bool]) -> list[list[float]]:
        """The variant's extra features (mission progress, headquarters held) of the changed position."""
        if self._extra is None:  # no missions and no capitals: 0 for everybody
            return [[0.0, 0.0] for _ in alive]
        view = self._extra
        view.owner, view.armies = list(owner), list(armies)
        return extra_features(cast("GameState", _Extra(self._game, view)), alive)
