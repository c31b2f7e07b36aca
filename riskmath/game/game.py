"""A game of RISK and its states: :class:`Game` (what does not change) and :class:`GameState` (one position).

:class:`Game` is the immutable description of a game (how many players, which
rules, which board, whether defenders choose their dice).  It makes initial
states (:meth:`Game.new_initial_state`, :meth:`Game.position`,
:meth:`Game.replay`); what every state of the game shares and the engine
reads (the board's adjacency as id tuples, the card deck, the caps, the
cached chance tables for rolls and blitz battles) it inherits from
:class:`~riskmath.game.context.GameContext`, the leaf the engine imports.

:class:`GameState` is the immutable public face of a position: it holds the
game, a :class:`~riskmath.game.position.Position` and the auto-chance flag,
and follows the protocol that search and learning code expects (OpenSpiel's):
``current_player``, ``legal_actions()``, ``apply(action)`` returning a **new**
state, ``is_chance_node()`` with ``chance_outcomes()``, ``is_terminal()`` and
``returns()``.  Dice rolls, whole blitz battles, card draws and deals are
chance nodes whose outcomes are listed with their exact probabilities;
:meth:`GameState.sample_chance` (or ``auto_chance=True``) draws them from the
state's seeded generator.  The phases are described in
:mod:`riskmath.game.phase`.

The two classes share this module because each builds the other
(``Game.new_initial_state`` a state, ``GameState.from_json`` a game); the
engine below them is functions of ``(game, position)``:
:mod:`~riskmath.game.checked` (actions to the engine's form and back),
:mod:`~riskmath.game.legality`, :mod:`~riskmath.game.transitions`,
:mod:`~riskmath.game.chance` and ``riskmath.game.serialize``.
:mod:`riskmath.game.state` is the documented import path of
:class:`GameState`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

import riskmath.game.serialize as serialize
import riskmath.game.setup as setup
from riskmath._validation import check_int, shown
from riskmath.errors import (
    BoardError,
    IllegalActionError,
    InvalidArgumentError,
    RiskmathError,
    RulesError,
    StateError,
)
from riskmath.game._board_data import NEUTRAL_NAMES
from riskmath.game.board import Board
from riskmath.game.cards import WILD
from riskmath.game.chance import MASK, chance_outcomes, check_outcome, is_chance, sample_outcome
from riskmath.game.checked import to_engine
from riskmath.game.context import GameContext
from riskmath.game.legality import LegalActions, canonical_action, check_action, is_legal
from riskmath.game.missions import CONTINENT_MISSIONS, completed, missions_for
from riskmath.game.phase import CHANCE, TERMINAL, Phase
from riskmath.game.position import PendingBattle, Position, income
from riskmath.game.rules import Rules
from riskmath.game.transitions import apply_action, apply_outcome, resolve_chance

__all__ = ["NEUTRAL_NAMES", "WILD", "Game", "GameState"]


class Game(GameContext):
    """The description of a game; states come from :meth:`new_initial_state`.

    Parameters
    ----------
    players : int
        2 to 6.
    rules : Rules or str, optional
        The 1993 US rules by default; a name is :meth:`riskmath.Rules.preset` of it (``"risiko"``).
    board : Board or str, optional
        By default the board named by ``rules.board``; a name is read by
        :meth:`Board.load` (``"south_america_africa"``, ``"classic:Australia+Asia"``).
    defender_decides : bool, default False
        Whether the defender chooses its dice (a decision node after each
        ``Attack``); otherwise it throws the most it may.
    max_turns : int, optional
        A turn cap (player-turns) ending the game as a draw; overrides
        ``rules.turn_cap``.  Without one, a game ends only when a player
        wins: agents that never attack play for ever.

    Attributes
    ----------
    players : int
    neutrals : int
        Neutral owners (ids ``players .. players + neutrals - 1``).
    rules : Rules
    board : Board

    Raises
    ------
    RulesError, BoardError
        For rules that do not fit the players or the board (naming the
        rule); among them, without a turn cap, rules under which every
        player could be left earning nothing (``min_reinforcement=0`` on a
        board the players can share with fewer than ``territory_divisor``
        territories each), a game that could never end.

    Examples
    --------
    >>> game = Game(players=4)
    >>> game
    Game(players=4, rules='us_1993', board='classic')
    >>> Game(3, "risiko", max_turns=100)  # the repr gives the arguments that make the game
    Game(players=3, rules='risiko', board='classic', max_turns=100)
    >>> state = game.new_initial_state(seed=1)
    >>> state.phase.value, state.is_chance_node()
    ('setup_order', True)
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules | str | None = None,
        board: Board | str | None = None,
        *,
        defender_decides: bool = False,
        max_turns: int | None = None,
    ) -> None:
        super().__init__(players, rules, board, defender_decides=defender_decides, max_turns=max_turns)
        _check_missions_fit(self.players, self.rules, self.board)
        if self.max_turns is None:
            _check_can_end(self.players, self.rules, self.board)

    def new_initial_state(self, seed: int | None = None, *, auto_chance: bool = False) -> GameState:
        """The state before the set-up, with its own random generator.

        Parameters
        ----------
        seed : int, optional
            Seeds the state's generator (used by :meth:`GameState.sample_chance`
            and by ``auto_chance``); the same seed gives the same game in any
            process.  From ``-2**63`` to ``2**64 - 1``: the generator's state
            is 64 bits, so a negative seed is taken modulo ``2**64`` (-1 is
            the seed ``2**64 - 1``) and a larger one is refused.
        auto_chance : bool, default False
            Resolve every chance node at once by sampling from the seeded
            generator, so that the state only ever waits for decisions.
        """
        if seed is not None:
            seed = check_int("seed", seed, minimum=-(1 << 63), maximum=MASK)
        if not isinstance(auto_chance, bool):
            raise InvalidArgumentError(f"auto_chance must be True or False, got {auto_chance!r}")
        return GameState.initial(self, seed=seed, auto_chance=auto_chance)

    def position(
        self,
        owners: Mapping[Any, int],
        armies: Mapping[Any, int],
        *,
        current_player: int = 0,
        cards: Mapping[int, Sequence[str]] | None = None,
        sets_traded: int = 0,
        turn: int = 1,
        missions: Mapping[int, str] | None = None,
        capitals: Mapping[int, Any] | None = None,
        killed_by: Mapping[int, int] | None = None,
        seed: int | None = None,
        auto_chance: bool = False,
        phase: Phase | str = Phase.REINFORCE,
        captured: bool = False,
        occupy: tuple[Any, ...] | None = None,
        first: int | None = None,
        armies_left: Mapping[int, int] | None = None,
        moved: Iterable[Any] | None = None,
        trade_down: bool = False,
        bonus_taken: int = 0,
        pool: int | None = None,
        discard: Sequence[str] | None = None,
    ) -> GameState:
        """A position set up by hand: the state at the start of ``current_player``'s turn, or at a later decision.

        The way to study "what if" from any position: describe the board,
        get a state the engine can play on from (``legal_actions``,
        ``apply``, :func:`riskmath.victory_probabilities`).  The state is the one
        the engine would have at the start of that turn: the player's
        reinforcements (territories and continents) to place, a forced trade
        first with too many cards, and so on.  The cards in no hand (and not
        in ``discard``) are the draw pile.

        Parameters
        ----------
        owners : mapping of territory to int
            The owner of every territory (name, alias or id, as everywhere):
            a player ``0 .. players - 1``, or a neutral in the two-player
            variants that have them.  A player holding nothing is eliminated.
            A two-player board with no neutral territory is accepted (it is
            not refused as a neutral forgotten): it is the position after
            the players have captured every neutral territory, reachable in
            play, and neutrals never move after the set-up.  For a
            two-player game with no neutral at all, from the set-up on, use
            ``Rules(two_player="none")``.
        armies : mapping of territory to int
            The armies on every territory (the same territories), each at
            least 1 (and at most ``Rules.max_armies_per_territory``).
        current_player : int, default 0
            Whose turn starts; a player holding territory.
        cards : mapping of int to sequence of str, optional
            Each player's hand: territory names (their cards) or ``"wild"``.
            Refused (non-empty) under ``Rules(cards="none")``.
        sets_traded : int, default 0
            Sets traded so far in the game (the next set's value follows).
        turn : int, default 1
            The player-turn that starts (``state.turn``; at most the game's
            turn cap).
        missions : mapping of int to str, optional
            Secret Mission RISK (and only then): every player's mission, e.g.
            ``{0: "destroy_1", 1: "occupy_24", ...}``.
        capitals : mapping of int to territory, optional
            Capital RISK (and only then): every player's headquarters.
        killed_by : mapping of int to int, optional
            Who eliminated each eliminated player (it matters for "destroy"
            missions); by default ``current_player``.
        seed : int, optional
            Seeds the state's generator, as in :meth:`new_initial_state`.
        auto_chance : bool, default False
            As in :meth:`new_initial_state`.
        phase : Phase or str, default Phase.REINFORCE
            The decision of the turn to build: ``"reinforce"`` (its start,
            the armies to place), ``"attack"`` (the armies placed, the
            attacks to declare or end), ``"occupy"`` (a territory just
            captured, armies to move in) or ``"fortify"`` (the attacks over).
            After the reinforcement nothing is left to place (the state's
            ``pool`` is 0), as the engine has it: give the board as it stands then.
            Every rules option and invariant of that phase holds (e.g.
            ``"fortify"`` only where the rules fortify), or the position is
            refused naming the invariant.
            Or a set-up decision: ``"claim"`` (``owners`` and ``armies``
            leave out the territories not yet claimed, 1 army on each
            claimed one; the claims must have gone round the table one at a
            time from ``first``, and ``current_player`` claims next; the
            armies left to place follow) or ``"place"`` (every territory
            owned, ``armies_left`` still to place; ``current_player`` places
            now, or the next one round the table who has armies left).
            There are no cards, sets, turns, headquarters or eliminations in
            the set-up yet: those arguments are refused there.
        captured : bool, default False
            Whether ``current_player`` has captured a territory this turn (it
            then draws a card at the end of the turn); True with ``"occupy"``.
        occupy : tuple, optional
            With ``phase="occupy"`` (and only then): ``(from, to)`` or
            ``(from, to, least)``, the attacking territory, the territory
            just captured and the fewest armies that must move in (1 by
            default; the dice of the capturing roll under
            ``Rules(occupy_min="dice_rolled")``).  ``owners`` gives ``to``
            to ``current_player`` and ``armies`` gives it 0: it is empty
            until the armies move in.
        first : int, optional
            The set-up phases only: the player who began the set-up and
            takes the first turn (by default, at ``"claim"``, the one the
            number of claims so far points back to, and at ``"place"``
            ``current_player``).
        armies_left : mapping of int to int, optional
            With ``phase="place"`` (and only then): the set-up armies each
            owner (players, then neutrals) still has to place; owners left
            out have none.  With its armies on the board, at most its
            starting armies (in play the two make exactly the starting
            armies; fewer is taken, for a study that leaves some out).
        moved : collection of territories, optional
            With ``phase="fortify"`` under the experts' fortification
            (``Rules(fortify="experts")``) only: the territories
            ``current_player`` has already moved armies out of or into this
            turn (each may take part in one move a turn); by default none.
        trade_down : bool, default False
            With ``phase="occupy"`` only: the capture eliminated a player
            (named in ``killed_by``, by ``current_player``) and its cards,
            already in ``cards[current_player]``, make a hand the rules
            trade down after the occupation (``Rules.elimination_trade_at``;
            the hand may then hold more than the usual limit).  The state
            goes on to ``TRADE_DOWN`` after the ``Occupy``, as in play.
        bonus_taken : int, default 0
            From phase ``"attack"`` on: the territory-card bonus armies
            ``current_player`` has already received this turn (the 1993
            rules give it once a turn: a set traded down later gives no
            more); 0 at the start of the turn, where no set is traded yet
            (at ``"reinforce"`` with ``pool``, a set may have been).
        pool : int, optional
            With ``phase="reinforce"`` (and only then): the reinforcement
            under way, with ``pool`` armies still to place (the armies placed
            so far on the board, a set traded this turn in ``sets_traded``
            and its armies in the pool).  By default the turn's income: its
            start.  The turn has begun, so a mission checked on one's own turn
            is not checked again.  0 only while a trade is forced (the
            reinforcement is over otherwise: build ``"attack"``).
        discard : list of str, optional
            After the set-up: the discard pile, the traded cards not yet
            shuffled back into a new deck (by default none: every card in no
            hand is in the draw pile).  It changes the chances of the cards
            drawn (``chance_outcomes`` at a draw lists the draw pile) and
            what a reshuffle brings back.

        Returns
        -------
        GameState
            A sound state (``problems()`` is empty; it round-trips through
            ``to_json``), over at once only if a mission or the headquarters
            already decide the game (under ``mission_check="own_turn"`` at
            phase ``"reinforce"`` only: later in the turn a mission completed
            during it wins at the start of the player's next turn, as in play).

        Raises
        ------
        InvalidArgumentError
            Naming the bad value: a territory missing, unknown or given twice
            (an alias and its name), owners and armies naming different
            territories, an owner out of range, armies not an integer of at
            least 1, an unknown card, a card in two hands, more cards than the
            rules allow, cards held by a player without territory, a
            ``current_player`` out of range or eliminated, fewer than two
            players holding territory, ``sets_traded < 0``, or missions or
            headquarters missing, given without the rules that have them, or
            inconsistent.

        Examples
        --------
        >>> game = Game(3)
        >>> names = game.board.territories
        >>> owners = {name: i % 3 for i, name in enumerate(names)}
        >>> armies = dict.fromkeys(names, 2) | {"Ukraine": 10}
        >>> state = game.position(owners, armies, current_player=1, cards={1: ["Alaska", "Peru", "wild"]}, seed=0)
        >>> state, state.pool, state.cards(1)
        (<GameState turn 1, REINFORCE, player 1 to move>, 4, ('Alaska', 'Peru', 'wild'))
        >>> state.problems(), GameState.from_json(state.to_json()) == state
        ([], True)

        The occupation after a capture, with the territory just taken empty:

        >>> captured = owners | {"Ural": 1}
        >>> state = game.position(captured, armies | {"Ural": 0}, current_player=1, phase="occupy",
        ...                       captured=True, occupy=("Ukraine", "Ural", 3))
        >>> state, state.legal_actions()[:2]
        (<GameState turn 1, OCCUPY, player 1 to move>, [Occupy(armies=3), Occupy(armies=4)])

        The set-up, with Alaska and Peru claimed and player 2 to claim next:

        >>> state = game.position({"Alaska": 0, "Peru": 1}, {"Alaska": 1, "Peru": 1}, current_player=2, phase="claim")
        >>> state, len(state.legal_actions()), state.armies_left, state.first
        (<GameState turn 0, SETUP_CLAIM, player 2 to move>, 40, {0: 34, 1: 34, 2: 35}, 0)
        >>> state = game.position(owners, dict.fromkeys(names, 1), phase="place", armies_left={0: 3, 1: 2, 2: 2})
        >>> state, state.armies_left
        (<GameState turn 0, SETUP_PLACE, player 0 to move>, {0: 3, 1: 2, 2: 2})

        The middle of a reinforcement: a set traded (the second of the game), 4 armies still to place:

        >>> state = game.position(owners, armies, current_player=1, phase="reinforce", pool=4, sets_traded=2,
        ...                       discard=["Alaska", "Peru", "wild"], seed=0)
        >>> state, state.pool, state.discard, state.deck_size
        (<GameState turn 1, REINFORCE, player 1 to move>, 4, ('Alaska', 'Peru', 'wild'), 41)
        >>> game.position(owners | {"eastern canada": 1}, armies)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
            ...
        riskmath.errors.InvalidArgumentError: owners names Quebec twice (as 'Quebec' and 'eastern canada'; ...)
        """
        from riskmath.game.build import build_position

        if not isinstance(auto_chance, bool):
            raise InvalidArgumentError(f"auto_chance must be True or False, got {auto_chance!r}")
        position = build_position(
            self,
            owners,
            armies,
            current_player=current_player,
            cards=cards,
            sets_traded=sets_traded,
            turn=turn,
            missions=missions,
            capitals=capitals,
            killed_by=killed_by,
            seed=seed,
            phase=phase,
            captured=captured,
            occupy=occupy,
            first=first,
            armies_left=armies_left,
            moved=moved,
            trade_down=trade_down,
            bonus_taken=bonus_taken,
            pool=pool,
            discard=discard,
        )
        return GameState(self, position, auto_chance=auto_chance)

    def replay(self, actions: Iterable[Any], seed: int | None = None, *, auto_chance: bool = False) -> GameState:
        """The state reached by applying ``actions`` to a new game.

        With ``auto_chance=True`` the record holds only decisions and the seed
        decides every roll and draw; otherwise the chance outcomes must be in
        ``actions`` too.  Every action is checked.

        Raises
        ------
        IllegalActionError
            At the first action that is not legal, naming its position.
        """
        from riskmath.errors import IllegalActionError

        state = self.new_initial_state(seed, auto_chance=auto_chance)
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Iterable):
            raise InvalidArgumentError(f"actions must be an iterable of actions, got {shown(actions)}")
        for position, action in enumerate(actions):
            try:
                state = state.apply(action)
            except IllegalActionError as error:
                raise IllegalActionError(f"action {position} of the record: {error}") from None
        return state

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Inverse of :meth:`to_dict`: every key present, no other, and the rules spelled out in full.

        Raises
        ------
        RiskmathError
            (RulesError, BoardError, InvalidArgumentError) naming the missing, unknown or bad entry.
        """
        if not isinstance(data, dict):
            raise InvalidArgumentError(f"a game description must be an object, got {type(data).__name__}")
        keys = ("players", "rules", "board", "defender_decides", "max_turns")
        missing = [key for key in keys if key not in data]
        unknown = sorted(str(key) for key in data if key not in keys)
        if missing or unknown:
            raise InvalidArgumentError(f"game description: missing keys {missing}, unknown keys {unknown}"[:300])
        return cls(
            data["players"],
            Rules.from_dict(data["rules"], strict=True),
            Board.from_dict(data["board"]),
            defender_decides=data["defender_decides"],
            max_turns=data["max_turns"],
        )


def _check_missions_fit(players: int, rules: Rules, board: Board) -> None:
    """Refuse Secret Mission RISK on a board that lacks the continents its cards name."""
    if rules.missions != "none":
        cards = missions_for(rules.missions, players)
        named = sorted({c for m in cards if m in CONTINENT_MISSIONS for c in CONTINENT_MISSIONS[m][0]})
        missing = [c for c in named if c not in board.continents]
        if missing:
            raise BoardError(
                f"Rules.missions={rules.missions!r} names continents that board {board.name!r} lacks: "
                f"{', '.join(missing)} (the mission cards are those of the classic board)"
            )


def _check_can_end(players: int, rules: Rules, board: Board) -> None:
    """Refuse, without a turn cap, rules under which every player could be left earning nothing.

    With ``min_reinforcement=0``, rounding down and ``territory_divisor``
    ``d >= 2``, a player holding fewer than ``d`` territories and no whole
    continent with a bonus receives no armies.  If the players between them
    can hold the board's territories (those the neutrals do not start with:
    neutrals never attack) with fewer than ``d`` each, without a whole
    continent with a bonus, then every player can end up with nothing to
    place and one army on every territory: nobody can attack, nobody earns,
    and the game never ends (or agents that attack only when stronger never
    do).  Such a game needs a turn cap.
    """
    divisor = rules.territory_divisor
    if rules.min_reinforcement > 0 or rules.rounding != "floor" or divisor < 2:
        return
    variant = setup.two_player_variant(rules, players)
    neutral_most = sum(setup.territory_shares(variant, rules.setup, players, len(board))[players:])
    held = len(board) - neutral_most  # the least the players hold between them, from the set-up on
    if held > players * (divisor - 1):
        return
    if not neutral_most and any(len(c.territories) == 1 and c.bonus > 0 for c in board.continents.values()):
        return  # a player always holds that territory, and earns its bonus
    raise RulesError(
        f"Rules.min_reinforcement=0 with territory_divisor={divisor} gives no armies to a player holding fewer "
        f"than {divisor} territories, and the {players} players can share the {held} territories they hold on "
        f"board {board.name!r} that way: every player could be left with nothing to place and no army to attack "
        "with, and the game would never end; give a turn cap (Game(max_turns=...) or Rules.turn_cap)"
    )


class GameState:
    """One position of a game, immutable; see the module docstring.  Build with :meth:`Game.new_initial_state`.

    A thin face over a :class:`~riskmath.game.position.Position`: every
    change (``apply``, ``reseeded``) copies the position and returns a new
    state.  An illegal action raises :class:`riskmath.IllegalActionError`
    naming the action, phase, player and reason, and leaves the state alone.

    Parameters
    ----------
    game : Game
    position : Position
        Taken as it is, not copied or checked (:meth:`problems` lists what is
        inconsistent); the state must be its only holder.
    auto_chance : bool, default False
        Whether ``apply`` resolves the chance nodes that follow an action.

    Attributes
    ----------
    game : Game
    position : Position
        The live record, for engine-level code (the built-in agents, the play
        loop of ``riskmath.sim``): read-only by contract.  Other code uses
        the methods and the read-only views (:attr:`owners`,
        :attr:`army_counts`, :attr:`pending`, :meth:`cards` ...).

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(3).new_initial_state(seed=0)
    >>> state, state.is_chance_node(), state.chance_outcomes()[0]
    (<GameState turn 0, SETUP_ORDER, chance to move>, True, (FirstPlayer(player=0), Fraction(1, 3)))
    >>> state.apply(rm.FirstPlayer(0))    # a new state; ``state`` is unchanged
    <GameState turn 0, SETUP_CLAIM, player 0 to move>
    """

    __slots__ = ("_auto", "game", "position")

    game: Game
    position: Position
    _auto: bool

    def __init__(self, game: Game, position: Position, *, auto_chance: bool = False) -> None:
        self.game = game
        self.position = position
        self._auto = auto_chance

    # -- construction ---------------------------------------------------------------
    @classmethod
    def initial(cls, game: Game, *, seed: int | None = None, auto_chance: bool = False) -> GameState:
        """The state before the set-up (what :meth:`Game.new_initial_state` returns, without its checks)."""
        pos = Position.initial(
            len(game.board),
            game.players,
            deck=list(game.territory_cards),  # wild cards join after the set-up
            setup_left=list(game.starting_armies),
            rng=(secrets.randbits(64) if seed is None else int(seed)) & MASK,
        )
        if auto_chance:
            resolve_chance(game, pos)
        return cls(game, pos, auto_chance=auto_chance)

    @property
    def auto_chance(self) -> bool:
        """Whether :meth:`apply` resolves the chance nodes that follow an action."""
        return self._auto

    # -- the protocol ---------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """The current :class:`Phase`."""
        return self.position.phase

    @property
    def current_player(self) -> int:
        """The player to decide: :data:`~riskmath.game.state.CHANCE` at a chance node,
        :data:`~riskmath.game.state.TERMINAL` at the end."""
        pos = self.position
        if pos.phase is Phase.GAME_OVER:
            return TERMINAL
        if is_chance(self.game, pos):
            return CHANCE
        return pos.player

    @property
    def turn(self) -> int:
        """Player-turns begun so far (0 during the set-up)."""
        return self.position.turn

    @property
    def turn_player(self) -> int:
        """Whose turn it is (the attacker during a defender's decision)."""
        pos = self.position
        return pos.pending.attacker if pos.pending is not None and pos.phase is Phase.DEFEND else pos.player

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def is_terminal(self) -> bool:
        return self.position.phase is Phase.GAME_OVER

    @property
    def winner(self) -> int | None:
        """The winning player, or None (game running, or a draw)."""
        return self.position.winner

    @property
    def draw(self) -> bool:
        """Whether the game ended by the turn cap without a winner."""
        return self.position.phase is Phase.GAME_OVER and self.position.winner is None

    def returns(self) -> list[float]:
        """1 for the winner and 0 for everyone else; all 0 while running or after a draw."""
        winner = self.position.winner
        return [1.0 if p == winner else 0.0 for p in range(self.game.players)]

    def legal_actions(self) -> LegalActions:
        """The actions the current player may take (empty at chance and terminal nodes)."""
        return LegalActions(self.game, self.position)

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` may be applied now (decision nodes only)."""
        return is_legal(self.game, self.position, action)

    def canonical(self, action: Any) -> Any:
        """A legal ``action`` as :meth:`legal_actions` writes it: territories by their board names (an action may
        name them by id or in any case), a trade's cards in the listed order (except where the order puts the
        1993 territory bonus on another territory than the listed order does: then that card comes first, and
        the other two as listed).

        Two actions that do the same are equal, and hash alike, in this form (``Attack(0, 1, 1)`` and
        ``Attack("Alaska", "Northwest Territory", 1)`` are not equal as written).  A blitz's ``stop_at`` is
        kept (the listing shows ``stop_at=0`` only).

        Raises
        ------
        IllegalActionError
            If ``action`` is not legal here, naming the reason.

        Examples
        --------
        >>> import riskmath as rm
        >>> state = rm.Game(3).new_initial_state(seed=1, auto_chance=True)
        >>> state.canonical(rm.PlaceArmies(0)), state.canonical(rm.PlaceArmies("alaska"))
        (PlaceArmies(territory='Alaska', armies=1), PlaceArmies(territory='Alaska', armies=1))
        """
        return canonical_action(self.game, self.position, action)

    def apply(self, action: Any, *, check: bool = True) -> GameState:
        """The state after ``action`` (or, at a chance node, after the outcome).

        Parameters
        ----------
        action : action or outcome
            A decision from ``legal_actions()``, or at a chance node one of the
            outcomes of ``chance_outcomes()``.
        check : bool, default True
            Validate first.  ``check=False`` is the fast path for actions
            taken from ``legal_actions()`` or ``chance_outcomes()``; an
            illegal action then corrupts the new state.

        Raises
        ------
        IllegalActionError
            If the action is malformed or not allowed; ``self`` is unchanged.
        """
        game, pos = self.game, self.position
        if is_chance(game, pos):
            if check:
                listed, why = check_outcome(game, pos, action)
                if listed is None:
                    raise self._illegal(action, why)
                action = listed  # (its counts plain ints)
            new = pos.copy()
            apply_outcome(game, new, action)
        else:
            if check:
                checked = check_action(game, pos, action)
            else:
                try:
                    checked = to_engine(game, action)
                except TypeError:
                    raise self._illegal(action, "not an action") from None
            new = pos.copy()
            apply_action(game, new, checked)
        if self._auto:
            resolve_chance(game, new)
        return GameState(game, new, auto_chance=self._auto)

    def chance_outcomes(self) -> list[tuple[Any, Fraction | float]]:
        """``[(outcome, probability), ...]`` at a chance node (Fractions; floats for blitzes)."""
        return chance_outcomes(self.game, self.position)

    def sample_chance(self) -> Any:
        """The outcome of this chance node drawn from the state's generator.

        The generator is part of the state and this method does not change
        it: the same state always samples the same outcome.  Applying any
        outcome of a chance node advances the generator one step, so a game
        replayed from its recorded outcomes ends in the same state.

        Outcomes have exactly the distribution that ``chance_outcomes()``
        lists.  A blitz of up to ``riskmath.game.context.TABLE_ATTACKERS``
        attacking and ``TABLE_DEFENDERS`` defending
        armies is one draw from the battle's cached table; one with more
        attackers is drawn in pieces from the table of ``TABLE_ATTACKERS``
        attackers, and one with more defenders is rolled out
        (``ROLL_BLOCK`` rolls at a time where it can) with a stream of
        numbers derived from the generator: the same distribution, without
        building the table of a battle of hundreds or thousands of armies.

        Raises
        ------
        IllegalActionError
            If this is not a chance node (a decision or the end of the game: ``chance_outcomes()`` is empty
            there, and there is nothing to draw).
        """
        if not is_chance(self.game, self.position):
            raise IllegalActionError(
                f"sample_chance() draws the outcome of a chance node, and {self!r} is not one (see is_chance_node())"
            )
        return sample_outcome(self.game, self.position)

    def with_auto_chance(self, auto_chance: bool = True) -> GameState:
        """A copy of this state whose chance nodes resolve at once (``auto_chance=True``) or wait.

        Turning it on resolves the state's own chance node, if it is one, from
        its generator, as :meth:`Game.new_initial_state` with
        ``auto_chance=True`` would: a state built with
        :meth:`Game.position` (``auto_chance=False`` by default) then plays
        on as the states of :func:`riskmath.play` do, e.g. to replay a
        record played on from it (``record.start.reseeded(record.seed)
        .with_auto_chance()``, then ``record.actions``).

        Raises
        ------
        InvalidArgumentError
            If ``auto_chance`` is not True or False.
        """
        if not isinstance(auto_chance, bool):
            raise InvalidArgumentError(f"auto_chance must be True or False, got {shown(auto_chance)}")
        new = self.position.copy()
        if auto_chance:
            resolve_chance(self.game, new)
        return GameState(self.game, new, auto_chance=auto_chance)

    def reseeded(self, seed: int) -> GameState:
        """A copy of this state whose chance generator starts from ``seed``.

        The generator is part of the state, so a copy sampled as it is would
        know the dice the real game is going to roll.  Search agents explore
        from reseeded copies (seeded from their own generator) so that they
        only see what their player may see.  ``seed`` as in
        :meth:`Game.new_initial_state`: from ``-2**63`` to ``2**64 - 1``
        (a larger one is refused, as there: it was taken modulo ``2**64``).
        """
        if type(seed) is not int or not -(1 << 63) <= seed <= MASK:  # (one test in the common case: every rollout)
            seed = check_int("seed", seed, minimum=-(1 << 63), maximum=MASK)
        new = self.position.copy()
        new.rng = seed & MASK
        return GameState(self.game, new, auto_chance=self._auto)

    # -- queries ----------------------------------------------------------------------
    def owner(self, territory: str | int) -> int:
        """Owner id of a territory (-1 before it is claimed; neutrals are >= players)."""
        return self.position.owner[self.game.board.index(territory)]

    def armies(self, territory: str | int) -> int:
        """Armies on a territory."""
        return self.position.armies[self.game.board.index(territory)]

    @property
    def owners(self) -> np.ndarray:
        """Owner id of every territory, indexed like ``game.board.territories`` (a new read-only array).

        Examples
        --------
        >>> import riskmath as rm
        >>> state = rm.Game(3).new_initial_state(seed=0, auto_chance=True)
        >>> state.owners[:4], state.owners.flags.writeable
        (array([-1, -1, -1, -1]), False)
        """
        return _read_only(self.position.owner)

    @property
    def army_counts(self) -> np.ndarray:
        """Armies on every territory, indexed like ``game.board.territories`` (a new read-only array)."""
        return _read_only(self.position.armies)

    @property
    def pending(self) -> PendingBattle | None:
        """The battle declared and not yet resolved (``DEFEND``, ``ROLL``, ``BLITZ``), territories as ids; or None."""
        return self.position.pending

    def _player(self, player: object, name: str = "player") -> int:
        """``player`` as a player id ``0 .. players - 1``, or InvalidArgumentError naming it and the range."""
        players = self.game.players
        if type(player) is int and 0 <= player < players:  # the common case, first
            return player
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)):
            raise InvalidArgumentError(f"{name} must be an integer player id in 0..{players - 1}, got {player!r}")
        if not 0 <= player < players:
            raise InvalidArgumentError(f"{name} must be a player id in 0..{players - 1}, got {player!r}")
        return int(player)

    def cards(self, player: int) -> tuple[str, ...]:
        """The cards in a player's hand (territory names, or ``"wild"``).

        Raises
        ------
        InvalidArgumentError
            If ``player`` is not a player id ``0 .. players - 1`` (so for every method taking a player).
        """
        if type(player) is not int or not 0 <= player < self.game.players:  # the common case is one test
            player = self._player(player)
        return tuple(self.position.hands[player])

    def territories_of(self, owner: int) -> tuple[str, ...]:
        """Names of the territories an owner holds (a player, or a neutral: ids ``players .. owners - 1``)."""
        owners = self.game.owners
        if not (type(owner) is int and 0 <= owner < owners):
            if isinstance(owner, bool) or not isinstance(owner, (int, np.integer)) or not 0 <= owner < owners:
                raise InvalidArgumentError(
                    f"owner must be an integer owner id in 0..{owners - 1} (players, then neutrals), got {owner!r}"
                )
            owner = int(owner)
        names = self.game.board.territories
        return tuple(names[t] for t, o in enumerate(self.position.owner) if o == owner)

    def reinforcements(self, player: int) -> int:
        """Armies ``player`` would receive for territories and continents now (before cards; 0 once eliminated)."""
        p = self._player(player)
        return income(self.game, self.position, p) if self.position.alive[p] else 0

    @property
    def pool(self) -> int:
        """Armies the current player still has to place."""
        return self.position.pool

    @property
    def sets_traded(self) -> int:
        """Sets traded so far in the game (by anyone)."""
        return self.position.sets_traded

    @property
    def deck_size(self) -> int:
        return len(self.position.deck)

    def mission(self, player: int) -> str | None:
        """A player's secret mission (Secret Mission RISK), or None."""
        player = self._player(player)
        missions = self.position.missions
        return missions[player] if player < len(missions) else None

    def capital(self, player: int) -> str | None:
        """A player's headquarters (Capital RISK), or None."""
        player = self._player(player)
        pos, players = self.position, self.game.players
        chosen = len(pos.capitals)
        # While the players choose (from the first player round the table) the list is in the order of choice;
        # once complete it is indexed by player.
        k = player if chosen == players else (player - pos.first) % players
        if k < chosen:
            return self.game.board.territories[pos.capitals[k]]
        return None

    def alive(self, player: int) -> bool:
        """Whether ``player`` is still in the game."""
        if type(player) is not int or not 0 <= player < self.game.players:
            player = self._player(player)
        return self.position.alive[player]

    @property
    def capture(self) -> tuple[str, str, int] | None:
        """While armies move into a capture (``OCCUPY``): source, target and the least armies to move; else None."""
        pos = self.position
        if pos.occupy is None or pos.phase is not Phase.OCCUPY:
            return None
        source, target, least = pos.occupy
        names = self.game.board.territories
        return names[source], names[target], least

    # -- the rest of a turn's record, as Game.position takes it (an adapter reads a state back with these) ------
    @property
    def captured(self) -> bool:
        """Whether the player to move has captured a territory this turn (a card is drawn at its end)."""
        return self.position.captured

    @property
    def killed_by(self) -> dict[int, int]:
        """Who eliminated each eliminated player: ``{victim: eliminator}`` (empty while all are in)."""
        return {p: k for p, k in enumerate(self.position.killed_by) if not self.position.alive[p] and k >= 0}

    @property
    def moved(self) -> tuple[str, ...]:
        """The territories armies have moved out of or into this turn (the experts' fortification), by name."""
        names = self.game.board.territories
        return tuple(names[t] for t in self.position.moved)

    @property
    def trade_down(self) -> bool:
        """Whether the capture being occupied (or the trade-down under way) follows an elimination whose cards
        must be traded down (``Rules.elimination_trade_at``)."""
        return self.position.trade_down

    @property
    def bonus_taken(self) -> int:
        """The territory-card bonus armies received this turn."""
        return self.position.bonus_taken

    @property
    def discard(self) -> tuple[str, ...]:
        """The discard pile: the cards traded in and not yet shuffled into a new deck (face up in play), by name."""
        return tuple(self.position.discard)

    @property
    def first(self) -> int:
        """The player who began the set-up and took (or takes) the first turn."""
        return self.position.first

    @property
    def armies_left(self) -> dict[int, int]:
        """The set-up armies each owner (players, then neutrals) has still to place: ``{owner: armies}`` for the
        owners with some (empty once the set-up's placements are over), as :meth:`Game.position` takes them."""
        return {owner: left for owner, left in enumerate(self.position.setup_left) if left}

    def mission_complete(self, player: int) -> bool:
        """Whether ``player`` has completed its secret mission now."""
        return completed(self.game, self.position, self._player(player))

    def _repr_html_(self) -> str | None:
        """Rich display in notebooks (renderers in :mod:`riskmath.plots.notebook`)."""
        from riskmath._html import render

        return render(self)

    def __repr__(self) -> str:
        pos = self.position
        if pos.phase is Phase.GAME_OVER:
            result = "a draw" if pos.winner is None else f"won by {self.game.owner_name(pos.winner)}"
            return f"<GameState turn {pos.turn}, GAME_OVER, {result}>"
        who = "chance" if self.is_chance_node() else self.game.owner_name(pos.player)
        return f"<GameState turn {pos.turn}, {pos.phase.name}, {who} to move>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return (
            self.game is other.game or self.game.to_dict() == other.game.to_dict()
        ) and self.position == other.position

    def __hash__(self) -> int:
        pos = self.position
        return hash((pos.phase, pos.turn, tuple(pos.owner), tuple(pos.armies)))

    def _illegal(self, action: object, reason: str) -> IllegalActionError:
        pos = self.position
        who = self.game.owner_name(pos.player) if pos.player >= 0 else "nobody"
        return IllegalActionError(f"{action!r} is illegal in {pos.phase.name} for {who}: {reason}")

    # -- serialization ----------------------------------------------------------------
    def to_json(self) -> str:
        """The state (and its game) as JSON; :meth:`from_json` reads it back."""
        return serialize.to_json(self.game, self.position, self._auto)

    @classmethod
    def from_json(cls, text: str, *, max_chars: int = serialize.MAX_TEXT) -> GameState:
        """Rebuild a state from :meth:`to_json`, checking it for consistency.

        A state is loaded only if it is one the engine can go on from: the
        checks are every field's type and range (``riskmath.game.serialize``)
        and every invariant of play (listed in ``riskmath.game.invariants``).

        Parameters
        ----------
        text : str
            The JSON text.
        max_chars : int, default 50_000_000
            Longer texts are refused before they are parsed.

        Raises
        ------
        StateError
            If the JSON is malformed, too long, or describes an impossible
            state; the message names the field or the invariant at fault.
        """
        max_chars = check_int("max_chars", max_chars, minimum=1)
        data = serialize.parse(text, max_chars)
        try:
            game = Game.from_dict(data["game"])
        except (RiskmathError, KeyError, TypeError, ValueError, RecursionError) as error:
            raise StateError(f"bad game description: {error}"[:500]) from None
        position = serialize.position_from_data(game, data)
        return cls(game, position, auto_chance=data["auto_chance"])

    def problems(self) -> list[str]:
        """What is inconsistent in this state (an empty list for a sound one).

        The same checks as :meth:`from_json` (each field's type and range,
        then every invariant of play, listed in
        ``riskmath.game.invariants``): e.g. that every territory has an
        owner and at least one army after the set-up, that the cards in the
        deck, the discard pile and the hands make up the whole deck, that
        players marked alive hold territory.  States built by ``apply`` are
        always sound; this is for states edited by hand.
        """
        return serialize.problems(self.game, self.position)


def _read_only(values: list[int]) -> np.ndarray:
    array = np.array(values, dtype=np.int64)
    array.flags.writeable = False
    return array
