"""A fixed integer action space for a game of RISK, and integer ids for chance outcomes.

:class:`ActionCodec` numbers every decision of a game (board and rules) with
ids ``0 .. num_actions - 1``; the numbering depends only on the game, never
on the state.  The ids come in blocks (:attr:`ActionCodec.layout`):

==============  ================================  =========================================
block           ids                               meaning
==============  ================================  =========================================
``place``       one per territory                 ``PlaceArmies`` on it (count follows)
``attack``      per directed border, per dice     ``Attack(source, target, dice)``
``blitz``       one per directed border           ``Blitz(source, target, ...)`` (``stop_at`` follows)
``fortify``     per directed border (``adjacent``  ``Fortify(source, target, ...)`` (count follows)
                fortification) or per ordered
                pair of territories (otherwise)
``occupy``      one                               ``Occupy`` (count follows)
``defend``      one per defending die             ``Defend(dice)``
``trade``       one per set in the whole deck     ``TradeCards`` of those three cards
``capital``     one per territory                 ``ChooseCapital``
``pile``        three                             ``ChoosePile(0..2)``
``end``         one                               ``EndPhase()``
``count``       ``COUNT_BITS + 2``                the steps of a count (below)
==============  ================================  =========================================

**Counts.**  Army counts have no bound (a pool, a stack to move in, a
blitz's ``stop_at``), so an action with a count is taken in steps.  The
first step picks the move (e.g. ``place`` on Alaska); if the count is then
forced (one legal value) that step completes the action.  Otherwise the
next decision is a :class:`CountChoice`, the explicit decision state of the
pending count, holding the legal range ``low..high`` and the amount
``chosen`` so far (from 0).  Its ids are ``count + i`` ("add ``2**i``",
legal while ``chosen + 2**i <= high``, for ``i < COUNT_BITS``),
``count + COUNT_BITS`` ("done": take ``chosen``, legal once ``chosen >=
low``) and ``count + COUNT_BITS + 1`` ("most": take ``high``, always
legal).  Adds can repeat, so every count in the range is reachable
whatever its size; :meth:`ActionCodec.steps` gives the canonical sequence
(``most`` for the largest count, else the binary digits, largest first,
then ``done``).  A count's meaning: armies for ``place``, ``fortify`` and
``occupy``, ``stop_at`` for ``blitz``.

**Trades** are numbered over every set the whole deck can form (three
alike, one of each, any two with a wild, and wilds), by the multiset of
card names, so an id means the same three cards in every state.

**Chance outcomes** have ids ``0 .. num_chance_outcomes - 1``
(:attr:`ActionCodec.chance_layout`): who starts, the card drawn (a
territory card or ``"wild"``), a mission card, a random set-up's army, a
roll's losses (attacker, defender), and a blitz's end ``(attackers left,
defenders left)`` for blitzes of at most :data:`BATTLE_ATTACKERS` armies
able to attack and :data:`BATTLE_DEFENDERS` defenders.  A bigger blitz is
resolved in bounded pieces: a :class:`BattleChance` node whose outcomes are
the attacker's losses in :data:`BLOCK_ROLLS` rolls of the most dice (while
both sides stay clear of fewer dice and of ``stop_at`` throughout), else
single rolls (roll ids), until both sides are within those bounds; then one
outcome from the whole-battle table ends it.  The pieces
compose to exactly the battle's distribution (the battle is a Markov chain
of such rolls), and no node ever has more than ``num_chance_outcomes``
outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from types import MappingProxyType
from typing import Any

import numpy as np

from riskmath._validation import shown
from riskmath.errors import IllegalActionError, InvalidArgumentError
from riskmath.game import Game, GameState
from riskmath.game.actions import (
    Attack,
    BattleOutcome,
    Blitz,
    ChooseCapital,
    ChoosePile,
    Defend,
    DrawCard,
    EndPhase,
    FirstPlayer,
    Fortify,
    Occupy,
    PlaceArmies,
    RollOutcome,
    TradeCards,
)
from riskmath.game.cards import WILD, Symbol, is_set
from riskmath.game.chance import (
    ROLL_BLOCK,
    TABLE_ATTACKERS,
    TABLE_DEFENDERS,
    blitz_piece,
    block_weights,
    is_chance,
)
from riskmath.game.legality import check_action, legal_ranges
from riskmath.game.missions import missions_for
from riskmath.game.phase import Phase
from riskmath.odds.dice import CombatRules

__all__ = [
    "BATTLE_ATTACKERS",
    "BATTLE_DEFENDERS",
    "BLOCK_ROLLS",
    "COUNT_BITS",
    "ActionCodec",
    "BattleChance",
    "CountChoice",
]

#: The "add ``2**i``" steps of a count, ``i < COUNT_BITS``; larger counts repeat the largest step.
COUNT_BITS = 32
#: The largest blitz (armies able to attack, defenders) whose end is one chance outcome; bigger ones go in pieces.
#: The rules model's own table bounds (``riskmath.game.chance.TABLE_ATTACKERS``, ``TABLE_DEFENDERS``).
BATTLE_ATTACKERS = TABLE_ATTACKERS
BATTLE_DEFENDERS = TABLE_DEFENDERS
#: Rolls taken as one piece of a big blitz while both sides are far from the edges.
BLOCK_ROLLS = ROLL_BLOCK

_COUNT_KINDS = ("place", "blitz", "fortify", "occupy")


@dataclass(frozen=True, slots=True)
class CountChoice:
    """The decision state between the steps of one action: the move is chosen, its count is not.

    Attributes
    ----------
    state : GameState
        The state the action will be applied to (unchanged by the steps).
    kind : {"place", "blitz", "fortify", "occupy"}
    source, target : int
        Territory ids: ``place`` uses ``source``; ``blitz`` and ``fortify``
        both; ``occupy`` neither (-1).
    low, high : int
        The legal counts, inclusive.
    chosen : int
        The count so far (the sum of the "add" steps taken).
    """

    state: GameState
    kind: str
    source: int
    target: int
    low: int
    high: int
    chosen: int = 0

    @property
    def current_player(self) -> int:
        """The player who chooses the count (the state's player)."""
        return self.state.current_player

    def action(self, count: int) -> Any:
        """The action this choice makes with ``count`` (armies, or ``stop_at`` for a blitz)."""
        names = self.state.game.board.territories
        if self.kind == "place":
            return PlaceArmies(names[self.source], count)
        if self.kind == "blitz":
            return Blitz(names[self.source], names[self.target], count)
        if self.kind == "fortify":
            return Fortify(names[self.source], names[self.target], count)
        return Occupy(count)


@dataclass(frozen=True, slots=True)
class BattleChance:
    """A chance node inside a big blitz: the battle so far, resolved roll by roll (see the module docstring).

    Attributes
    ----------
    state : GameState
        The ``BLITZ`` chance node the battle belongs to (unchanged by the pieces).
    attackers, defenders : int
        The armies able to attack and the defenders left so far.
    stop_at : int
        The blitz's ``stop_at``: it ends once ``attackers <= stop_at``.
    """

    state: GameState
    attackers: int
    defenders: int
    stop_at: int = 0

    @property
    def current_player(self) -> int:
        """Chance (-1): the state's player id at its ``BLITZ`` node."""
        return self.state.current_player


class ActionCodec:
    """A fixed integer action space for ``game``, with masks computed from the legal ranges.

    Parameters
    ----------
    game : Game

    Attributes
    ----------
    num_actions : int
        The number of action ids (fixed by the game: board and rules).
    num_chance_outcomes : int
        The number of chance-outcome ids; no chance node has more outcomes.
    layout, chance_layout : mapping of str to slice
        The blocks of ids, by name (see the module docstring).

    Examples
    --------
    >>> import riskmath as rm
    >>> game = rm.Game(3)
    >>> codec = ActionCodec(game)
    >>> codec.num_actions, codec.layout["place"]
    (5694, slice(0, 42, None))
    >>> state = game.new_initial_state(seed=1, auto_chance=True)
    >>> codec.encode(state, rm.PlaceArmies("Alaska")), codec.decode(state, 0)
    (0, PlaceArmies(territory='Alaska', armies=1))
    >>> int(codec.mask(state).sum()), len(state.legal_actions())
    (42, 42)
    """

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise InvalidArgumentError(f"game must be a riskmath Game, got {shown(game)}")
        self.game = game
        board, rules = game.board, game.rules
        n = len(board)
        self._n = n
        edges = [(s, t) for s in range(n) for t in game.neighbors[s]]
        self._edges = edges
        self._edge = np.full((n, n), -1, dtype=np.int64)
        for e, (s, t) in enumerate(edges):
            self._edge[s, t] = e
        pairs = edges if rules.fortify == "adjacent" else [(s, t) for s in range(n) for t in range(n) if s != t]
        self._pairs = pairs
        self._pair = np.full((n, n), -1, dtype=np.int64)
        for f, (s, t) in enumerate(pairs):
            self._pair[s, t] = f
        self._dice = rules.combat.attacker_max_dice
        self._defend = rules.combat.defender_max_dice
        self._block = _block_losses(rules.combat)  # the attacker's losses in BLOCK_ROLLS rolls of the most dice
        self._block_span = len(self._block) - 1
        self._trades = _deck_sets(game)
        self._trade = {cards: k for k, cards in enumerate(self._trades)}
        sizes = [
            ("place", n),
            ("attack", len(edges) * self._dice),
            ("blitz", len(edges)),
            ("fortify", len(pairs)),
            ("occupy", 1),
            ("defend", self._defend),
            ("trade", len(self._trades)),
            ("capital", n),
            ("pile", 3),
            ("end", 1),
            ("count", COUNT_BITS + 2),
        ]
        self.layout: Mapping[str, slice] = _blocks(sizes)
        self.num_actions = sum(size for _, size in sizes)
        base = {name: block.start for name, block in self.layout.items()}
        self._place, self._attack, self._blitz = base["place"], base["attack"], base["blitz"]
        self._fortify, self._occupy, self._defend_base = base["fortify"], base["occupy"], base["defend"]
        self._trade_base, self._capital, self._pile = base["trade"], base["capital"], base["pile"]
        self._end, self._count = base["end"], base["count"]
        self._missions = missions_for(rules.missions, game.players) if rules.missions != "none" else ()
        self._cards = (*board.territories, WILD)
        self._card = {card: k for k, card in enumerate(self._cards)}
        self._mission = {m: k for k, m in enumerate(self._missions)}
        chance = [
            ("first_player", game.players),
            ("card", len(self._cards)),
            ("mission", len(self._missions)),
            ("setup_place", n),
            ("roll", (self._dice + 1) * (self._defend + 1)),
            ("rolls", self._block_span + 1),
            ("battle", (BATTLE_ATTACKERS + 1) * (BATTLE_DEFENDERS + 1)),
        ]
        self.chance_layout: Mapping[str, slice] = _blocks(chance)
        self.num_chance_outcomes = sum(size for _, size in chance)
        self._games: dict[int, Game] = {id(game): game}
        self._cached: tuple[Any, np.ndarray, dict[int, tuple[int, int]], dict[int, TradeCards]] | None = None
        self._count_mask = np.zeros(self.num_actions, dtype=bool)  # a count choice's mask, rewritten in place
        self._count_mask[self._count + COUNT_BITS + 1] = True  # "most" is always legal

    def __repr__(self) -> str:
        return f"ActionCodec({self.game!r}: {self.num_actions} actions, {self.num_chance_outcomes} chance outcomes)"

    # -- checks ---------------------------------------------------------------------------------
    def _state(self, node: object) -> GameState:
        state = node.state if isinstance(node, (CountChoice, BattleChance)) else node
        if not isinstance(state, GameState):
            raise InvalidArgumentError(f"expected a GameState (or a CountChoice), got {shown(node)}")
        game = state.game
        if game is not self.game and self._games.get(id(game)) is not game:
            if game.to_dict() != self.game.to_dict():
                raise InvalidArgumentError(f"the state belongs to {game!r}, not to this codec's {self.game!r}")
            if len(self._games) > 16:
                self._games = {id(self.game): self.game}
            self._games[id(game)] = game
        return state

    def _index(self, index: object, size: int, what: str) -> int:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise InvalidArgumentError(f"{what} must be an integer, got {shown(index)}")
        if not 0 <= index < size:
            raise InvalidArgumentError(f"{what} must be in 0..{size - 1}, got {shown(index)}")
        return int(index)

    # -- the legal ids of a state ------------------------------------------------------------------
    def _table(self, state: GameState) -> tuple[np.ndarray, dict[int, tuple[int, int]], dict[int, TradeCards]]:
        """The mask of a decision state, the count range of each first step that opens a choice, the trades."""
        cached = self._cached
        pos = state.position
        if cached is not None and cached[0] is pos:
            return cached[1], cached[2], cached[3]
        mask = np.zeros(self.num_actions, dtype=bool)
        counts: dict[int, tuple[int, int]] = {}
        trades: dict[int, TradeCards] = {}
        if pos.phase is not Phase.GAME_OVER:
            edge, dice = self._edge, self._dice
            for spec in legal_ranges(state.game, pos):
                kind = spec[0]
                if kind == "place":
                    k = self._place + spec[1]
                    mask[k] = True
                    counts[k] = (spec[2], spec[3])
                elif kind == "attack":
                    _, s, targets, most, stop = spec
                    row = edge[s]
                    for u in targets:
                        e = int(row[u])
                        a = self._attack + e * dice
                        mask[a : a + most] = True
                        mask[self._blitz + e] = True
                        counts[self._blitz + e] = (0, stop)
                elif kind == "fortify":
                    k = self._fortify + int(self._pair[spec[1], spec[2]])
                    mask[k] = True
                    counts[k] = (1, spec[4])
                elif kind == "end":
                    mask[self._end] = True
                elif kind == "trade":
                    for trade in spec[1]:
                        k = self._trade_base + self._trade[_trade_key(self, trade.cards)]
                        mask[k] = True
                        trades[k] = trade
                elif kind == "occupy":
                    mask[self._occupy] = True
                    counts[self._occupy] = (spec[1], spec[2])
                elif kind == "defend":
                    mask[self._defend_base : self._defend_base + spec[2]] = True
                elif kind == "capital":
                    mask[self._capital + spec[1]] = True
                else:  # pile
                    mask[self._pile + spec[1]] = True
        self._cached = (pos, mask, counts, trades)
        return mask, counts, trades

    def mask(self, node: GameState | CountChoice) -> np.ndarray:
        """The legal ids at a decision node: a bool array of length ``num_actions`` (a new array).

        All false at chance and terminal nodes.  At a :class:`CountChoice`
        only count steps are legal.

        Raises
        ------
        InvalidArgumentError
            If ``node`` is not a state (or count choice) of this codec's game.
        """
        return self._legal(node).copy()

    def _legal(self, node: GameState | CountChoice) -> np.ndarray:
        """The mask of :meth:`mask` as the codec's own array, valid until the next call: read it, never change it."""
        if isinstance(node, CountChoice):
            self._state(node)
            mask, count = self._count_mask, self._count
            room = node.high - node.chosen
            mask[count : count + COUNT_BITS] = False
            mask[count : count + min(room.bit_length(), COUNT_BITS)] = True
            mask[count + COUNT_BITS] = node.chosen >= node.low
            return mask
        return self._table(self._state(node))[0]

    # -- decoding ----------------------------------------------------------------------------------
    def decode(self, node: GameState | CountChoice, index: int) -> Any:
        """The action of id ``index`` at ``node``, or the :class:`CountChoice` it opens.

        Decoded actions name territories canonically and list a trade's
        cards as ``legal_actions()`` does.

        Raises
        ------
        InvalidArgumentError
            If ``index`` is not an id of this codec, or ``node`` not a node of its game.
        IllegalActionError
            If ``index`` is not legal at ``node`` (its mask is false there).
        """
        state = self._state(node)
        index = self._index(index, self.num_actions, "action index")
        if isinstance(node, CountChoice):
            return self._decode_count(node, index)
        mask, counts, trades = self._table(state)
        if not mask[index]:
            raise IllegalActionError(f"action id {index} ({self.describe(index)}) is not legal in {state!r}")
        names = self.game.board.territories
        block, k = self._block_of(index)
        if index in counts:  # place, blitz, fortify, occupy: a count follows unless it is forced
            low, high = counts[index]
            source, target = (k, -1) if block == "place" else (-1, -1) if block == "occupy" else self._pair_of(block, k)
            choice = CountChoice(state, block, source, target, low, high)
            return choice if high > low else choice.action(low)
        if block == "attack":
            e, d = divmod(k, self._dice)
            s, t = self._edges[e]
            return Attack(names[s], names[t], d + 1)
        if block == "defend":
            return Defend(k + 1)
        if block == "trade":
            return trades[index]
        if block == "capital":
            return ChooseCapital(names[k])
        if block == "pile":
            return ChoosePile(k)
        return EndPhase()

    def _decode_count(self, node: CountChoice, index: int) -> Any:
        step = index - self._count
        if 0 <= step < COUNT_BITS and node.chosen + (1 << step) <= node.high:
            return CountChoice(node.state, node.kind, node.source, node.target, node.low, node.high,
                               node.chosen + (1 << step))  # fmt: skip
        if step == COUNT_BITS and node.chosen >= node.low:
            return node.action(node.chosen)
        if step == COUNT_BITS + 1:
            return node.action(node.high)
        raise IllegalActionError(f"action id {index} ({self.describe(index)}) is not legal at {node!r}")

    def _block_of(self, index: int) -> tuple[str, int]:
        for name, block in self.layout.items():
            if block.start <= index < block.stop:
                return name, index - block.start
        raise AssertionError(index)  # pragma: no cover - checked by _index

    def _pair_of(self, block: str, k: int) -> tuple[int, int]:
        return self._edges[k] if block == "blitz" else self._pairs[k]

    def describe(self, index: int) -> str:
        """A short text for id ``index`` (its block and meaning), whatever the state.

        Examples
        --------
        >>> import riskmath as rm
        >>> codec = ActionCodec(rm.Game(2))
        >>> codec.describe(0), codec.describe(codec.layout["end"].start), codec.describe(codec.num_actions - 1)
        ('place on Alaska', 'end phase', 'count: most')
        """
        index = self._index(index, self.num_actions, "action index")
        block, k = self._block_of(index)
        names = self.game.board.territories
        if block in ("place", "capital"):
            return f"{block} on {names[k]}"
        if block == "attack":
            e, d = divmod(k, self._dice)
            s, t = self._edges[e]
            return f"attack {names[s]} -> {names[t]} with {d + 1} dice"
        if block in ("blitz", "fortify"):
            s, t = self._pair_of(block, k)
            return f"{block} {names[s]} -> {names[t]}"
        if block == "defend":
            return f"defend with {k + 1} dice"
        if block == "trade":
            return "trade " + ", ".join(self._trades[k])
        if block == "pile":
            return f"pile {k}"
        if block == "count":
            return f"count: add {1 << k}" if k < COUNT_BITS else "count: done" if k == COUNT_BITS else "count: most"
        return "end phase" if block == "end" else "occupy"

    # -- encoding ----------------------------------------------------------------------------------
    def encode(self, node: GameState | CountChoice, action: Any) -> int:
        """The id to take at ``node`` towards ``action``: its only id, or the next step of a multi-step one.

        At a state this is the action's first step (the move); at a
        :class:`CountChoice` the next count step (see :meth:`steps`).

        Raises
        ------
        IllegalActionError
            If ``action`` is not legal at the node (or not reachable from the count chosen so far).
        InvalidArgumentError
            If ``node`` is not a node of this codec's game.
        """
        return self._encode_steps(node, action, first_only=True)[0]

    def steps(self, state: GameState, action: Any) -> tuple[int, ...]:
        """Every id that takes ``action`` at ``state``: the move, then the count steps if a count is open.

        Decoding the ids in turn (each at the node the previous one gave)
        returns the action; see :meth:`play`.

        Examples
        --------
        >>> import riskmath as rm
        >>> game = rm.Game(3)
        >>> codec = ActionCodec(game)
        >>> state = game.new_initial_state(seed=1, auto_chance=True)
        >>> while state.phase is not rm.Phase.REINFORCE:
        ...     state = state.apply(state.legal_actions()[0])
        >>> action = rm.PlaceArmies(state.territories_of(state.current_player)[0], 3)
        >>> ids = codec.steps(state, action)
        >>> [codec.describe(i) for i in ids]
        ['place on Alaska', 'count: add 2', 'count: add 1', 'count: done']
        >>> codec.play(state, ids) == action
        True
        """
        return self._encode_steps(state, action, first_only=False)

    def play(self, state: GameState, ids: Any) -> Any:
        """The action that the ids take at ``state``, decoded in turn (the inverse of :meth:`steps`).

        Raises
        ------
        IllegalActionError
            If an id is not legal where it is taken, or the ids end before the action is complete.
        """
        node: Any = state
        for index in ids:
            if not isinstance(node, (GameState, CountChoice)):
                raise IllegalActionError(f"the ids go on after the action {node!r} is complete")
            node = self.decode(node, index)
        if isinstance(node, (GameState, CountChoice)):
            raise IllegalActionError(f"the ids end before the action is complete, at {node!r}")
        return node

    def _encode_steps(self, node: Any, action: Any, *, first_only: bool) -> tuple[int, ...]:
        state = self._state(node)
        game = state.game
        if isinstance(node, CountChoice):
            count = _count_of(node.kind, action)
            if count is None or node.action(count) != _canonical(game, action) or not node.chosen <= count:
                raise IllegalActionError(f"{action!r} cannot be reached from {node!r}")
            return _count_steps(self._count, node.chosen, node.low, node.high, count)
        if is_chance(game, state.position) or state.is_terminal():
            raise IllegalActionError(f"{action!r}: {state!r} is not a decision node")
        checked = check_action(game, state.position, action)  # raises IllegalActionError with the reason
        kind = checked[0]
        _, counts, _ = self._table(state)
        if kind == "place":
            first, count = self._place + checked[1], checked[2]
        elif kind == "attack":
            return (self._attack + int(self._edge[checked[1], checked[2]]) * self._dice + checked[3] - 1,)
        elif kind == "blitz":
            first, count = self._blitz + int(self._edge[checked[1], checked[2]]), checked[3]
        elif kind == "fortify":
            first, count = self._fortify + int(self._pair[checked[1], checked[2]]), checked[3]
        elif kind == "occupy":
            first, count = self._occupy, checked[1]
        elif kind == "trade":
            return (self._trade_base + self._trade[_trade_key(self, checked[1])],)
        elif kind == "defend":
            return (self._defend_base + checked[1] - 1,)
        elif kind == "capital":
            return (self._capital + checked[1],)
        elif kind == "pile":
            return (self._pile + checked[1],)
        else:
            return (self._end,)
        low, high = counts[first]
        if high == low or first_only:
            return (first,)
        return (first, *_count_steps(self._count, 0, low, high, count))

    # -- chance outcomes ---------------------------------------------------------------------------
    def chance_outcomes(self, node: GameState | BattleChance) -> list[tuple[int, float]]:
        """``[(outcome id, probability), ...]`` at a chance node (a state or a :class:`BattleChance`).

        At most ``num_chance_outcomes`` pairs; empty at decision and terminal nodes.

        Examples
        --------
        >>> import riskmath as rm
        >>> game = rm.Game(3)
        >>> codec = ActionCodec(game)
        >>> codec.chance_outcomes(game.new_initial_state(seed=0))
        [(0, 0.3333333333333333), (1, 0.3333333333333333), (2, 0.3333333333333333)]
        """
        state = self._state(node)
        if isinstance(node, BattleChance):
            return self._battle_outcomes(node)
        pos = state.position
        if not is_chance(state.game, pos):
            return []
        if pos.phase is Phase.BLITZ:
            piece = self._battle_start(state)
            if piece is not None:
                return self._battle_outcomes(piece)
        layout, pairs = self.chance_layout, []
        for outcome, p in state.chance_outcomes():
            found = self._outcome_id(state, outcome)
            assert found is not None, outcome  # every outcome of a node within the bounds has an id
            pairs.append((layout[found[0]].start + found[1], float(p)))
        return pairs

    def _battle_start(self, state: GameState) -> BattleChance | None:
        """The first piece of a blitz too big for one outcome; None for one within the bounds."""
        pos = state.position
        assert pos.pending is not None
        a, d = pos.armies[pos.pending.source] - 1, pos.armies[pos.pending.target]
        if a <= BATTLE_ATTACKERS and d <= BATTLE_DEFENDERS:
            return None
        stop_at = pos.pending.stop_at
        assert stop_at is not None  # a BLITZ node
        return BattleChance(state, a, d, stop_at)

    def _battle_outcomes(self, piece: BattleChance) -> list[tuple[int, float]]:
        """The ids of the next piece of a blitz (the rules model's :func:`~riskmath.game.chance.blitz_piece`)."""
        kind, outcomes = blitz_piece(self.game, piece.attackers, piece.defenders, piece.stop_at)
        base = self.chance_layout[kind].start
        if kind == "battle":
            width = BATTLE_DEFENDERS + 1
            return [(base + o.attackers_left * width + o.defenders_left, p) for o, p in outcomes]
        if kind == "rolls":  # far from both edges: BLOCK_ROLLS rolls at once, both sides keeping their most dice
            return [(base + lost, p) for lost, p in outcomes if p > 0]
        width = self._defend + 1
        return [(base + o.attacker_losses * width + o.defender_losses, p) for o, p in outcomes]

    def encode_outcome(self, state: GameState, outcome: Any) -> int:
        """The id of a chance outcome at ``state`` (not of a big blitz's end: that goes in pieces).

        Raises
        ------
        IllegalActionError
            If ``outcome`` is not an outcome this codec numbers at ``state``.
        """
        state = self._state(state)
        found = self._outcome_id(state, outcome)
        if found is None:
            raise IllegalActionError(f"{outcome!r} has no outcome id at {state!r}")
        start: int = self.chance_layout[found[0]].start
        index = start + found[1]
        if all(index != possible for possible, _ in self.chance_outcomes(state)):
            raise IllegalActionError(f"{outcome!r} is not a possible outcome at {state!r}")
        return index

    def _outcome_id(self, state: GameState, outcome: Any) -> tuple[str, int] | None:
        """The block and place of an outcome's id at ``state``, or None."""
        pos = state.position
        phase = pos.phase
        if isinstance(outcome, FirstPlayer) and phase is Phase.SETUP_ORDER:
            player: int = outcome.player
            return ("first_player", player) if 0 <= player < self.game.players else None
        if isinstance(outcome, DrawCard) and phase is Phase.SETUP_MISSION:
            mission = self._mission.get(outcome.card)
            return None if mission is None else ("mission", mission)
        if isinstance(outcome, DrawCard):
            card = self._card.get(outcome.card)
            return None if card is None else ("card", card)
        if isinstance(outcome, PlaceArmies) and phase is Phase.SETUP_PLACE:
            territory = self.game.index.get(outcome.territory)  # type: ignore[arg-type]
            return None if territory is None else ("setup_place", territory)
        if isinstance(outcome, RollOutcome):
            lost_a: int = outcome.attacker_losses
            lost_d: int = outcome.defender_losses
            if 0 <= lost_a <= self._dice and 0 <= lost_d <= self._defend:
                return ("roll", lost_a * (self._defend + 1) + lost_d)
            return None
        if isinstance(outcome, BattleOutcome) and phase is Phase.BLITZ and self._battle_start(state) is None:
            left_a: int = outcome.attackers_left
            left_d: int = outcome.defenders_left
            if 0 <= left_a <= BATTLE_ATTACKERS and 0 <= left_d <= BATTLE_DEFENDERS:
                return ("battle", left_a * (BATTLE_DEFENDERS + 1) + left_d)
        return None

    def decode_outcome(self, node: GameState | BattleChance, index: int) -> Any:
        """The outcome of id ``index`` at a chance node: an outcome to apply, or the next :class:`BattleChance`.

        Raises
        ------
        InvalidArgumentError
            If ``index`` is not an outcome id of this codec.
        IllegalActionError
            If ``index`` is not an outcome of ``node``.
        """
        state = self._state(node)
        index = self._index(index, self.num_chance_outcomes, "outcome index")
        if index not in dict(self.chance_outcomes(node)):
            raise IllegalActionError(f"outcome id {index} is not an outcome of {node!r}")
        name, k = next((name, index - b.start) for name, b in self.chance_layout.items() if b.start <= index < b.stop)
        if name == "first_player":
            return FirstPlayer(k)
        if name == "card":
            return DrawCard(self._cards[k])
        if name == "mission":
            return DrawCard(self._missions[k])
        if name == "setup_place":
            return PlaceArmies(self.game.board.territories[k], 1)
        if name == "battle":
            return BattleOutcome(*divmod(k, BATTLE_DEFENDERS + 1))
        lost_a, lost_d = (k, self._block_span - k) if name == "rolls" else divmod(k, self._defend + 1)
        if isinstance(node, GameState) and node.position.phase is Phase.BLITZ:
            node = self._battle_start(state) or node  # a big blitz: this roll is its first piece
        if not isinstance(node, BattleChance):
            return RollOutcome(lost_a, lost_d)
        a, d = node.attackers - lost_a, node.defenders - lost_d
        if a <= node.stop_at or d == 0:
            return BattleOutcome(a, d)
        return BattleChance(state, a, d, node.stop_at)


def _block_losses(combat: CombatRules) -> tuple[float, ...]:
    """The probability of each number of attacker losses, ``0 .. BLOCK_ROLLS * pairs``, in :data:`BLOCK_ROLLS`
    rolls of the most dice on both sides (``pairs`` armies lost a roll): the rules model's exact block
    (:func:`riskmath.game.chance.block_weights`), each probability rounded once to a float."""
    weights, scale = block_weights(combat)
    return tuple(weight / scale for weight in weights)  # int / int: correctly rounded, as float(Fraction) is


def _blocks(sizes: list[tuple[str, int]]) -> Mapping[str, slice]:
    blocks, start = {}, 0
    for name, size in sizes:
        blocks[name] = slice(start, start + size)
        start += size
    return MappingProxyType(blocks)


def _deck_sets(game: Game) -> list[tuple[str, ...]]:
    """Every set the whole deck can form, as tuples of card names (multisets) in territory order, wilds last.

    Which three symbols make a set is :func:`riskmath.game.cards.is_set`'s answer, asked of every multiset of
    three symbols the deck holds; each one that is a set is filled with the deck's cards of those symbols in every
    way (three alike, one of each, any two cards with a wild, one with two wilds, three wilds).
    """
    groups: dict[Symbol, list[str]] = {}  # the deck's card names by symbol (the wilds once per wild card)
    for name in game.full_deck:
        groups.setdefault(game.cards[name].symbol, []).append(name)
    found: set[tuple[str, ...]] = set()  # (a wild drawn from several wild cards is one multiset)
    for x, y, z in combinations_with_replacement(groups, 3):  # (equal symbols come together)
        if not is_set((x, y, z)):
            continue
        if x is z:
            found.update(combinations(groups[x], 3))
        elif x is y:
            found.update((a, b, c) for a, b in combinations(groups[x], 2) for c in groups[z])
        elif y is z:
            found.update((a, b, c) for a in groups[x] for b, c in combinations(groups[y], 2))
        else:
            found.update(product(groups[x], groups[y], groups[z]))
    order = {name: k for k, name in enumerate(game.board.territories)}
    order[WILD] = len(order)
    return sorted(tuple(sorted(trio, key=order.__getitem__)) for trio in found)


def _trade_key(codec: ActionCodec, cards: Any) -> tuple[str, ...]:
    card = codec._card
    return tuple(sorted(cards, key=card.__getitem__))


def _count_of(kind: str, action: Any) -> int | None:
    attribute = "stop_at" if kind == "blitz" else "armies"
    value = getattr(action, attribute, None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _canonical(game: Game, action: Any) -> Any:
    """``action`` with territories named canonically (ids and aliases resolved)."""
    names, index = game.board.territories, game.board.index
    try:
        if isinstance(action, PlaceArmies):
            return PlaceArmies(names[index(action.territory)], action.armies)
        if isinstance(action, Blitz):
            return Blitz(names[index(action.source)], names[index(action.target)], action.stop_at)
        if isinstance(action, Fortify):
            return Fortify(names[index(action.source)], names[index(action.target)], action.armies)
    except (ValueError, TypeError):
        return None
    return action


def _count_steps(base: int, chosen: int, low: int, high: int, count: int) -> tuple[int, ...]:
    """The canonical count steps from ``chosen`` to ``count``: ``most``, or the binary digits then ``done``."""
    if not low <= count <= high or count < chosen:
        raise IllegalActionError(f"a count of {count} is not in {low}..{high} (from {chosen} chosen)")
    if count == high:
        return (base + COUNT_BITS + 1,)
    left = count - chosen
    top = 1 << (COUNT_BITS - 1)
    ids = [base + COUNT_BITS - 1] * (left // top)
    left %= top
    ids += [base + i for i in reversed(range(COUNT_BITS)) if left >> i & 1]
    ids.append(base + COUNT_BITS)
    return tuple(ids)
