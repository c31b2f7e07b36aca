"""The position of a game: one typed, slotted record that the engine reads and writes (no logic of play).

A :class:`Position` holds everything that changes during a game; the
:class:`~riskmath.game.game.Game` holds what does not (board, rules, card
symbols, chance tables).  The engine modules (:mod:`~riskmath.game.transitions`,
:mod:`~riskmath.game.legality`, :mod:`~riskmath.game.chance`,
:mod:`~riskmath.game.serialize`, :mod:`~riskmath.game.missions`) are
functions of ``(game, position)``; :class:`~riskmath.game.game.GameState` is
the immutable public face that copies a position before every change.

Territories, players and owners are integer ids throughout: territory ``t``
is ``game.board.territories[t]``; owners ``0 .. players - 1`` are players,
``players ..`` neutrals, ``-1`` nobody.

The queries that the engine, the agents, the evaluation and the
environments all need live here too, next to the fields they read, each the
one definition of its rule: :func:`room` (the caps), :func:`most_to_move`,
:func:`occupation_range` (an ``Occupy``'s bounds), :func:`income`,
:func:`holds_set`, :func:`trade_forced` (a trade before placing),
:func:`traded_down` (trading down must stop) and :func:`trade_down_over`
(the trade-down ends), :func:`own_territories`, :func:`fortification_reach`
and :func:`fortification_targets` (where a ``Fortify`` may go),
:func:`attacker_dice_most` and :func:`defender_dice_most` (the dice a
battle may throw), :func:`defense_chooser` (who chooses them in
``DEFEND``), and who is hostile to whom: :func:`is_rival` (with
:func:`rival_table`, the same for loops), a living player who may attack,
and :func:`is_enemy`, any other owner, neutrals included, whose territories
may be attacked; :func:`most_cards` (the hand limit), and
:func:`headquarters_cards` and :func:`cards_in_play` (the deck once the
set-up is over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from riskmath.game.cards import has_set
from riskmath.game.context import GameContext
from riskmath.game.phase import Phase

__all__ = [
    "FIELDS",
    "Capture",
    "PendingBattle",
    "Position",
    "attacker_dice_most",
    "cards_in_play",
    "defender_dice_most",
    "defense_chooser",
    "fortification_reach",
    "fortification_targets",
    "headquarters_cards",
    "holds_set",
    "income",
    "is_enemy",
    "is_rival",
    "most_cards",
    "most_to_move",
    "occupation_range",
    "own_territories",
    "rival_table",
    "room",
    "trade_down_over",
    "trade_forced",
    "traded_down",
]


class PendingBattle(NamedTuple):
    """An attack or blitz declared and not yet resolved (phases ``DEFEND``, ``ROLL`` and ``BLITZ``).

    A tuple, so that the hot paths index and unpack it cheaply and JSON
    writes it as a list of six values (the state format); its fourth value
    is the attack's dice or the blitz's ``stop_at``, read by name as
    ``dice`` or ``stop_at``.
    """

    #: ``"attack"`` (one roll) or ``"blitz"`` (a whole battle).
    kind: str
    #: The attacking and the attacked territory.
    source: int
    target: int
    #: The fourth value of the state format: the attack's dice, or the blitz's ``stop_at``.
    dice_or_stop_at: int
    #: The attacking player (``Position.player`` is the defender while it chooses its dice).
    attacker: int
    #: An attack: the defender's dice, None until the defender has chosen them.  A blitz: None.
    defense: int | None

    @property
    def dice(self) -> int | None:
        """An attack: the attacker's dice; a blitz: None (see ``stop_at``)."""
        return self.dice_or_stop_at if self.kind == "attack" else None

    @property
    def stop_at(self) -> int | None:
        """A blitz: the armies able to attack at which it stops; an attack: None (see ``dice``)."""
        return self.dice_or_stop_at if self.kind == "blitz" else None


class Capture(NamedTuple):
    """A territory just captured, into which the attacker now moves armies (phase ``OCCUPY``)."""

    source: int
    target: int
    #: The fewest armies that must move in (the dice of the capturing roll, or 1; ``Rules.occupy_min``).
    least: int


#: The fields of a position, in the order of the state's JSON (``riskmath-state/1``).
FIELDS = (
    "phase", "player", "turn", "first", "owner", "armies", "hands", "deck", "discard", "sets_traded",
    "pool", "bonus", "setup_left", "queue", "dealt", "captured", "bonus_taken", "pending", "occupy",
    "trade_down", "alive", "killed_by", "winner", "missions", "capitals", "moved", "piles", "rng",
)  # fmt: skip


class Position:
    """Everything that changes in a game of RISK, as plain Python values indexed by id.

    A mutable record: the engine changes it in place.  The public API never
    hands one out to be changed: :class:`~riskmath.game.game.GameState`
    copies it (``copy()``) before every change, and ``GameState.position``
    is read-only by contract.  Only the engine (``riskmath.game``) and the
    in-place play loop of ``riskmath.sim`` write to a position.

    Attributes
    ----------
    phase : Phase
        Where the game is (:class:`~riskmath.game.phase.Phase`).
    player : int
        The player to decide; the defender while it chooses its dice
        (``DEFEND``); ``-1`` (chance) before the first player is known and
        while missions are dealt, and at the end.
    turn : int
        Player-turns begun so far (0 during the set-up).
    first : int
        The player who started the set-up (``-1`` until drawn).
    owner : list of int
        Owner of each territory (``-1`` before it is claimed or dealt).
    armies : list of int
        Armies on each territory (0 only on unowned territories, or on a
        capture's target before the armies move in).
    hands : list of list of str
        Each player's cards: territory names or ``"wild"``.
    deck, discard : list of str
        The draw pile (in no meaningful order: draws are chance outcomes) and
        the traded cards.  Deck, discard and hands always make up the full
        deck (without the headquarters' cards in Capital RISK).
    sets_traded : int
        Sets traded so far by anyone (drives the escalating set values).
    pool : int
        Armies the current player still has to place this turn.
    bonus : dict of int to int
        Reserved for bonus armies pinned to a territory; empty in every
        current rule set (kept for the state format).
    setup_left : list of int
        Starting armies each owner (players, then neutrals) has still to place.
    queue : list of (int, int)
        Set-up placements due this set-up turn, in order: ``(owner, armies)``.
    dealt : int
        Territory cards dealt so far in a dealt set-up.
    captured : bool
        Whether the current player captured a territory this turn (earns a card).
    bonus_taken : int
        Territory-card bonus armies received this turn.
    pending : PendingBattle or None
        The battle declared and not yet resolved (``DEFEND``, ``ROLL``, ``BLITZ``).
    occupy : Capture or None
        The capture whose armies are moving in (``OCCUPY``); None otherwise.
    trade_down : bool
        Whether the current player took a victim's cards and must trade down
        (``TRADE_DOWN``) after moving into the capture.
    alive : list of bool
        Whether each player is still in the game.
    killed_by : list of int
        Who eliminated each player (``-1``: nobody yet).
    winner : int or None
        The winner once the game is over (None: running, or a draw).
    missions : list of str
        Secret missions, by player, once all are dealt (in dealing order before).
    capitals : list of int
        Headquarters: while the players choose, in the order of choice (from
        ``first`` round the table); once all have chosen, indexed by player.
    moved : list of int
        Experts fortification: territories armies already moved out of or into this turn.
    piles : list of int
        1993 two-player deal: the pile (0-2) of each territory, ``-1`` once
        taken; empty outside that set-up.
    rng : int
        The state of the SplitMix64 generator that draws chance outcomes
        (``riskmath.game.chance``); advanced one step by every outcome.
    """

    __slots__ = FIELDS

    phase: Phase
    player: int
    turn: int
    first: int
    owner: list[int]
    armies: list[int]
    hands: list[list[str]]
    deck: list[str]
    discard: list[str]
    sets_traded: int
    pool: int
    bonus: dict[int, int]
    setup_left: list[int]
    queue: list[tuple[int, int]]
    dealt: int
    captured: bool
    bonus_taken: int
    pending: PendingBattle | None
    occupy: Capture | None
    trade_down: bool
    alive: list[bool]
    killed_by: list[int]
    winner: int | None
    missions: list[str]
    capitals: list[int]
    moved: list[int]
    piles: list[int]
    rng: int

    @classmethod
    def initial(cls, territories: int, players: int, deck: list[str], setup_left: list[int], rng: int) -> Position:
        """The position before the set-up: nothing owned, the whole territory deck to deal, ``SETUP_ORDER`` next."""
        pos = cls.__new__(cls)
        pos.phase = Phase.SETUP_ORDER
        pos.player = -1
        pos.turn = 0
        pos.first = -1
        pos.owner = [-1] * territories
        pos.armies = [0] * territories
        pos.hands = [[] for _ in range(players)]
        pos.deck = deck
        pos.discard = []
        pos.sets_traded = 0
        pos.pool = 0
        pos.bonus = {}
        pos.setup_left = setup_left
        pos.queue = []
        pos.dealt = 0
        pos.captured = False
        pos.bonus_taken = 0
        pos.pending = None
        pos.occupy = None
        pos.trade_down = False
        pos.alive = [True] * players
        pos.killed_by = [-1] * players
        pos.winner = None
        pos.missions = []
        pos.capitals = []
        pos.moved = []
        pos.piles = []
        pos.rng = rng
        return pos

    def copy(self) -> Position:
        """An independent copy (lists copied; the immutable values shared)."""
        new = Position.__new__(Position)
        new.phase, new.player, new.turn, new.first = self.phase, self.player, self.turn, self.first
        new.owner = self.owner[:]
        new.armies = self.armies[:]
        new.hands = [hand[:] for hand in self.hands]
        new.deck = self.deck[:]
        new.discard = self.discard[:]
        new.sets_traded, new.pool = self.sets_traded, self.pool
        new.bonus = dict(self.bonus)
        new.setup_left = self.setup_left[:]
        new.queue = self.queue[:]
        new.dealt, new.captured, new.bonus_taken = self.dealt, self.captured, self.bonus_taken
        new.pending, new.occupy, new.trade_down = self.pending, self.occupy, self.trade_down
        new.alive = self.alive[:]
        new.killed_by = self.killed_by[:]
        new.winner = self.winner
        new.missions = self.missions[:]
        new.capitals = self.capitals[:]
        new.moved = self.moved[:]
        new.piles = self.piles[:]
        new.rng = self.rng
        return new

    def as_tuple(self) -> tuple[Any, ...]:
        """The fields as nested tuples, in :data:`FIELDS` order (for equality)."""
        values = []
        for name in FIELDS:
            value = getattr(self, name)
            if isinstance(value, list):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
            elif isinstance(value, dict):
                value = tuple(sorted(value.items()))
            values.append(value)
        return tuple(values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.as_tuple() == other.as_tuple()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<Position turn {self.turn}, {self.phase.name}, player {self.player}>"


def room(game: GameContext, pos: Position, t: int, setup: bool = False) -> int:
    """Armies territory ``t`` can still take under the cap (the set-up cap with ``setup``)."""
    cap = game.setup_cap if setup else game.cap
    armies = pos.armies[t]
    return cap - armies if cap > armies else 0


def most_to_move(game: GameContext, pos: Position, source: int, target: int) -> int:
    """The most armies that may move from ``source`` into ``target``: all but one, within the target's cap.

    The upper bound of an ``Occupy`` (and of a ``Fortify`` along one move).
    """
    armies = pos.armies
    spare = game.cap - armies[target]
    movable = armies[source] - 1
    return movable if movable < spare else spare if spare > 0 else 0


def occupation_range(game: GameContext, pos: Position) -> tuple[int, int]:
    """The fewest and the most armies the ``Occupy`` of the capture in progress may move (phase ``OCCUPY``).

    At least the capture's ``least`` (``Rules.occupy_min``), at most
    :func:`most_to_move`; when the target's cap leaves less room than
    ``least``, exactly what fits.
    """
    assert pos.occupy is not None
    source, target, least = pos.occupy
    most = most_to_move(game, pos, source, target)
    return (least if least < most else most), most


def holds_set(game: GameContext, hand: list[str]) -> bool:
    """Whether a hand of card names (territories or ``"wild"``) holds a set to trade."""
    cards = game.cards
    return len(hand) >= 3 and has_set([cards[c] for c in hand])


def trade_forced(game: GameContext, pos: Position) -> bool:
    """Whether the player to move must trade a set before placing: ``Rules.forced_trade_at`` reached and a set held.

    A hand that holds no set (possible below 5 cards) cannot be forced.
    """
    hand = pos.hands[pos.player]
    return game.rules.trade_forced(len(hand)) and holds_set(game, hand)


def traded_down(game: GameContext, pos: Position) -> bool:
    """Whether the hand of the player to move is down to ``Rules.elimination_trade_to`` cards: trading down must stop.

    The rule of a trade in ``TRADE_DOWN``: a ``TradeCards`` is legal only
    above that many cards (and ``legal_actions`` lists trades only then).
    Narrower than :func:`trade_down_over`, which also ends the trade-down
    of a hand above the mark that holds no set.  A ``TRADE_DOWN`` position
    traded down with nothing left to place breaks the invariants (the
    engine would have left the phase).
    """
    return len(pos.hands[pos.player]) <= game.rules.elimination_trade_to


def trade_down_over(game: GameContext, pos: Position) -> bool:
    """Whether the trade-down after an elimination stops (``TRADE_DOWN``).

    It stops at ``Rules.elimination_trade_to`` cards (:func:`traded_down`),
    or earlier when the hand holds no set (the rulebooks are silent: with
    ``elimination_trade_to`` below 4 a hand of 3 or 4 cards may hold none).
    """
    return traded_down(game, pos) or not holds_set(game, pos.hands[pos.player])


def income(game: GameContext, pos: Position, player: int) -> int:
    """Armies ``player`` receives for its territories and whole continents (before cards)."""
    owner = pos.owner
    bonus = 0
    for value, members in game.continents:
        for t in members:
            if owner[t] != player:
                break
        else:
            bonus += value
    return game.rules.reinforcements(owner.count(player)) + bonus


def attacker_dice_most(game: GameContext, pos: Position, source: int) -> int:
    """The most dice an attack from ``source`` may throw: ``Rules.combat.attacker_max_dice``, at most its armies - 1.

    The upper bound of an ``Attack``'s dice (at least 1 needs 2 armies on
    ``source``), and the dice of the roll that ends a blitz, which always
    throws the most.
    """
    most, able = game.attacker_dice, pos.armies[source] - 1
    return most if able > most else able


def defender_dice_most(game: GameContext, pos: Position, target: int) -> int:
    """The most dice the defense of ``target`` may throw: ``Rules.combat.defender_max_dice``, at most its armies.

    The upper bound of a ``Defend`` (``DEFEND``), and the dice thrown
    whenever nobody chooses them (the defender always throws the most).
    """
    most, armies = game.defender_dice, pos.armies[target]
    return most if armies > most else armies


def defense_chooser(game: GameContext, pos: Position, target: int, attacker: int) -> int:
    """Who chooses the dice defending ``target`` against ``attacker`` when defenders decide (``DEFEND``), or -1.

    The owner of ``target`` if a player; for a neutral, the other player in
    a two-player game; -1 for a neutral with more players (nobody: the most
    dice are thrown, :func:`defender_dice_most`).  Only a game with
    ``defender_decides`` asks.
    """
    defender = pos.owner[target]
    return defender if defender < game.players else 1 - attacker if game.players == 2 else -1


def is_rival(game: GameContext, pos: Position, player: int, other: int) -> bool:
    """Whether owner ``other`` is a rival of ``player``: a living player other than ``player``, who may attack it.

    Neutrals (owners ``players ..``) never attack and ``-1`` is nobody, so
    neither is a rival; nor is an eliminated player.  The threats of
    :mod:`riskmath.evaluate` (a territory's strongest rival neighbor) and the
    odds agent's set-up placements count rivals.  Narrower than
    :func:`is_enemy`.  In a loop, :func:`rival_table` gives the same answer
    without a call per territory.
    """
    return other != player and 0 <= other < game.players and pos.alive[other]


def rival_table(game: GameContext, pos: Position) -> list[bool]:
    """:func:`is_rival` of every owner at once, for loops: entry ``other + 1`` is whether ``other`` is a living player.

    Entry 0 is ``-1`` (nobody: False), then the players, then the neutrals
    (False).  ``is_rival(game, pos, player, other)`` is ``other != player and
    rival_table(game, pos)[other + 1]``.

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(2).new_initial_state(seed=1, auto_chance=True)    # two players and a neutral
    >>> rival_table(state.game, state.position)
    [False, True, True, False]
    """
    players, alive = game.players, pos.alive
    return [0 <= o < players and alive[o] for o in range(-1, game.owners)]


def is_enemy(player: int, other: int) -> bool:
    """Whether a territory of owner ``other`` is an enemy territory to ``player``: held by another player or a neutral.

    Once the set-up is over every territory is held, and ``player`` may
    attack exactly the enemy territories next to its own.  Broader than
    :func:`is_rival`: a neutral is an enemy but never a rival (it does not
    attack).  The odds agent reads its borders this way (occupation,
    fortification from interior territories only, its capital); ``-1``
    (unclaimed) is not an enemy.
    """
    return other != player and other >= 0


def own_territories(pos: Position) -> set[int]:
    """The territories of the player to move, as a set.

    The ``mine`` that :func:`fortification_reach` computes when not given
    it, and that :func:`fortification_targets` takes.
    """
    player = pos.player
    return {t for t, o in enumerate(pos.owner) if o == player}


def fortification_reach(
    game: GameContext,
    pos: Position,
    source: int,
    mine: set[int] | frozenset[int] | None = None,
    regions: dict[int, list[int]] | None = None,
) -> Sequence[int]:
    """The territories that ``Rules.fortify`` lets a ``Fortify`` from ``source`` reach, before the other conditions.

    With ``"adjacent"`` fortification, the neighbors of ``source`` (in the
    board's order, whoever holds them); otherwise (``"connected"``,
    ``"experts"``) the territories joined to ``source`` by a chain of
    territories of the player to move, in id order, ``source`` excluded.
    ``mine``, the territories of the player to move, is computed when not
    given (a loop over sources passes it once).  A loop over sources may
    also pass an empty dict as ``regions``, the same for every source: the
    groups of joined territories found are remembered there, and each is
    searched once.  :func:`fortification_targets` adds the rest of the rule;
    the odds agent reads only this part.
    """
    if game.rules.fortify == "adjacent":
        return game.neighbors[source]
    region = None if regions is None else regions.get(source)
    if region is None:
        if mine is None:
            mine = own_territories(pos)
        region = sorted(game.board.component(source, mine))
        if regions is not None and source in mine:  # (a foreign source's search is not a group of the player's)
            regions.update(dict.fromkeys(region, region))
    return [t for t in region if t != source]


def fortification_targets(
    game: GameContext,
    pos: Position,
    source: int,
    mine: set[int] | frozenset[int],
    regions: dict[int, list[int]] | None = None,
) -> list[int]:
    """Where a ``Fortify`` of the player to move may take armies from ``source``, in the order of ``legal_actions``.

    ``mine`` is the set of that player's territories.  Empty unless
    ``source`` is in ``mine``, has at least 2 armies and (Experts) has not
    already moved armies out or in this turn (``Position.moved``); else the
    territories of :func:`fortification_reach` that are the player's, not
    in ``Position.moved`` and with room for at least one army
    (:func:`most_to_move` at least 1).  ``regions`` is passed on to
    :func:`fortification_reach`.

    Examples
    --------
    >>> import riskmath as rm
    >>> mine = {0, 1, 2, 3}    # Alaska, Northwest Territory, Greenland and Alberta
    >>> def from_alaska(fortify):
    ...     game = rm.Game(3, rm.Rules(fortify=fortify))
    ...     owners = {t: 0 if t in mine else 1 for t in range(len(game.board))}
    ...     state = game.position(owners, {t: 5 if t == 0 else 1 for t in range(len(game.board))})
    ...     return [game.board.territories[t] for t in fortification_targets(game, state.position, 0, mine)]
    >>> from_alaska("adjacent")
    ['Northwest Territory', 'Alberta']
    >>> from_alaska("connected")
    ['Northwest Territory', 'Greenland', 'Alberta']
    """
    armies, moved = pos.armies, pos.moved
    if source not in mine or armies[source] < 2 or source in moved:
        return []
    cap = game.cap  # with 2 armies or more on the source, most_to_move is at least 1 exactly below the cap
    targets = []
    for u in fortification_reach(game, pos, source, mine, regions):
        if u in mine and armies[u] < cap and u not in moved:
            targets.append(u)
    return targets


def most_cards(game: GameContext, trading_down: bool = False) -> int | None:
    """The most cards a hand may hold under the rules of ``game``, or None when they set no limit.

    With both ``Rules.forced_trade_at`` and ``Rules.elimination_trade_at``
    set, the larger of the two; with ``trading_down`` (the player who has
    just taken a victim's cards and must trade them down,
    ``Position.trade_down``), ``elimination_trade_at - 1`` more.  Without
    either rule nothing bounds a hand.  ``Game.position`` refuses hands
    above the limit, and so do the invariants of a state.

    >>> from riskmath import Game, Rules
    >>> most_cards(Game(3)), most_cards(Game(3), trading_down=True), most_cards(Game(3, Rules(forced_trade_at=None)))
    (6, 11, None)
    """
    rules = game.rules
    forced, at = rules.forced_trade_at, rules.elimination_trade_at
    if forced is None or at is None:
        return None
    limit = max(forced, at)
    return limit + at - 1 if trading_down else limit


def headquarters_cards(game: GameContext, capitals: Sequence[int]) -> set[str]:
    """The cards of the headquarters ``capitals`` (territory ids): out of the deck in Capital RISK once chosen."""
    names = game.board.territories
    return {names[t] for t in capitals}


def cards_in_play(game: GameContext, capitals: Sequence[int]) -> list[str]:
    """The cards in play once the set-up is over: the whole deck less the cards of the headquarters ``capitals``.

    In the order of ``game.full_deck``.  After the set-up, the deck, the
    discard pile and the hands make up exactly these cards (Capital RISK,
    1993: the headquarters' cards stay out; without headquarters, the whole
    deck, wild cards included).  None when the rules play without cards
    (``Rules(cards="none")``): the territory cards only deal the set-up.
    """
    if game.rules.cards == "none":
        return []
    out = headquarters_cards(game, capitals)
    return [card for card in game.full_deck if card not in out]
