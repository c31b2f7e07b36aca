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
(:attr:`ActionCodec.chance_layout`), numbered by
:class:`~riskmath.envs.chance_ids.ChanceIds`, which :class:`ActionCodec`
extends (see :mod:`riskmath.envs.chance_ids` for the blocks and for the
pieces a big blitz goes in, :class:`BattleChance` nodes); ``BattleChance``,
``BATTLE_ATTACKERS``, ``BATTLE_DEFENDERS`` and ``BLOCK_ROLLS`` are importable
from here as before.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from math import comb
from typing import Any

import numpy as np

from riskmath._validation import check_cost, shown
from riskmath.envs.chance_ids import (
    BATTLE_ATTACKERS,
    BATTLE_DEFENDERS,
    BLOCK_ROLLS,
    BattleChance,
    ChanceIds,
    id_blocks,
)
from riskmath.errors import IllegalActionError, InvalidArgumentError
from riskmath.game import Game, GameState
from riskmath.game.actions import (
    Attack,
    Blitz,
    ChooseCapital,
    ChoosePile,
    Defend,
    EndPhase,
    Fortify,
    Occupy,
    PlaceArmies,
    TradeCards,
)
from riskmath.game.cards import WILD, Symbol, is_set
from riskmath.game.chance import (
    is_chance,
)
from riskmath.game.legality import check_action, legal_ranges
from riskmath.game.phase import Phase

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


class _Table:
    """The legal ids of one decision position (sorted), the count ranges and trades their first steps open,
    and the mask, made from the ids when first asked for (the codec keeps the last table)."""

    __slots__ = ("counts", "ids", "mask", "position", "trades")

    def __init__(
        self, position: Any, ids: list[int], counts: dict[int, tuple[int, int]], trades: dict[int, TradeCards]
    ) -> None:
        self.position = position
        self.ids = ids
        self.counts = counts
        self.trades = trades
        self.mask: np.ndarray | None = None


def as_action_id(action: Any) -> Any:
    """``action`` as a Python int if it is an integer id in any of the forms ``Discrete.contains`` takes, else as
    it is (for the codec to refuse, naming it).

    A Python int passes through; NumPy integers, 0-d integer arrays and 0-d integer tensors (anything with
    ``shape == ()`` and an ``item()`` that returns an int) become ints; bools and everything else stay.  The one
    conversion of the Gymnasium and PettingZoo environments' ``step``.

    Examples
    --------
    >>> as_action_id(np.int64(3)), as_action_id(np.array(4)), as_action_id(np.array(4.0)), as_action_id(True)
    (3, 4, array(4.), True)
    """
    if type(action) is int:
        return action
    item = getattr(action, "item", None)
    if item is not None and getattr(action, "shape", None) == () and callable(item):
        value = item()
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return action


class ActionCodec(ChanceIds):
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

    _inner = (CountChoice, BattleChance)
    _expected = "a GameState (or a CountChoice)"

    def __init__(self, game: Game) -> None:
        super().__init__(game)  # the chance-outcome ids; checks the game
        board, rules = game.board, game.rules
        n = len(board)
        check_codec_cost(game)
        self._n = n
        edges = [(s, t) for s in range(n) for t in game.neighbors[s]]
        self._edges = edges
        self._edge = np.full((n, n), -1, dtype=np.int64)
        for e, (s, t) in enumerate(edges):
            self._edge[s, t] = e
        self._edge_rows: list[list[int]] = self._edge.tolist()  # the same as Python ints (read per legal id)
        pairs = edges if rules.fortify == "adjacent" else [(s, t) for s in range(n) for t in range(n) if s != t]
        self._pairs = pairs
        self._pair = np.full((n, n), -1, dtype=np.int64)
        for f, (s, t) in enumerate(pairs):
            self._pair[s, t] = f
        self._pair_rows: list[list[int]] = self._pair.tolist()
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
        self.layout: Mapping[str, slice] = id_blocks(sizes)
        self.num_actions = sum(size for _, size in sizes)
        self._names = list(self.layout)
        self._starts = [block.start for block in self.layout.values()]
        base = {name: block.start for name, block in self.layout.items()}
        self._place, self._attack, self._blitz = base["place"], base["attack"], base["blitz"]
        self._fortify, self._occupy, self._defend_base = base["fortify"], base["occupy"], base["defend"]
        self._trade_base, self._capital, self._pile = base["trade"], base["capital"], base["pile"]
        self._end, self._count = base["end"], base["count"]
        self._cached: _Table | None = None
        self._count_mask = np.zeros(self.num_actions, dtype=bool)  # a count choice's mask, rewritten in place
        self._count_mask[self._count + COUNT_BITS + 1] = True  # "most" is always legal

    def __repr__(self) -> str:
        return f"ActionCodec({self.game!r}: {self.num_actions} actions, {self.num_chance_outcomes} chance outcomes)"

    # -- the legal ids of a state ------------------------------------------------------------------
    def _table(self, state: GameState) -> _Table:
        """The legal ids of a decision state (sorted), the count range of each first step that opens a
        choice, the trades; the mask is made from the ids when first asked for (:meth:`_state_mask`)."""
        cached = self._cached
        pos = state.position
        if cached is not None and cached.position is pos:
            return cached
        ids: list[int] = []
        counts: dict[int, tuple[int, int]] = {}
        trades: dict[int, TradeCards] = {}
        if pos.phase is not Phase.GAME_OVER:
            edge, dice = self._edge_rows, self._dice
            for spec in legal_ranges(state.game, pos):
                kind = spec[0]
                if kind == "place":
                    k = self._place + spec[1]
                    ids.append(k)
                    counts[k] = (spec[2], spec[3])
                elif kind == "attack":
                    _, s, targets, most, stop = spec
                    row = edge[s]
                    for u in targets:
                        e = row[u]
                        a = self._attack + e * dice
                        ids.extend(range(a, a + most))
                        k = self._blitz + e
                        ids.append(k)
                        counts[k] = (0, stop)
                elif kind == "fortify":
                    k = self._fortify + self._pair_rows[spec[1]][spec[2]]
                    ids.append(k)
                    counts[k] = (1, spec[4])
                elif kind == "end":
                    ids.append(self._end)
                elif kind == "trade":
                    for trade in spec[1]:
                        k = self._trade_base + self._trade[_trade_key(self, trade.cards)]
                        if k not in trades:  # one id per set of cards (the mask's entry is set once)
                            ids.append(k)
                        trades[k] = trade
                elif kind == "occupy":
                    ids.append(self._occupy)
                    counts[self._occupy] = (spec[1], spec[2])
                elif kind == "defend":
                    ids.extend(range(self._defend_base, self._defend_base + spec[2]))
                elif kind == "capital":
                    ids.append(self._capital + spec[1])
                else:  # pile
                    ids.append(self._pile + spec[1])
        ids.sort()
        table = self._cached = _Table(pos, ids, counts, trades)
        return table

    def _state_mask(self, table: _Table) -> np.ndarray:
        """The mask of a table's ids (made once per table, then kept with it)."""
        mask = table.mask
        if mask is None:
            mask = table.mask = np.zeros(self.num_actions, dtype=bool)
            mask[np.array(table.ids, dtype=np.intp)] = True  # (an index array: a list is converted slowly)
        return mask

    def legal_ids(self, node: GameState | CountChoice) -> list[int]:
        """The legal ids at a decision node, in increasing order (a new list): the true entries of :meth:`mask`.

        Empty at chance and terminal nodes.  Cheaper than ``mask(node).nonzero()`` when the ids are what is
        wanted (OpenSpiel's ``legal_actions``): no array is made.

        Raises
        ------
        InvalidArgumentError
            If ``node`` is not a state (or count choice) of this codec's game.

        Examples
        --------
        >>> import riskmath as rm
        >>> codec = ActionCodec(rm.Game(2, board="south_america_africa"))
        >>> state = codec.game.new_initial_state(seed=1, auto_chance=True)
        >>> codec.legal_ids(state) == codec.mask(state).nonzero()[0].tolist()
        True
        """
        if isinstance(node, CountChoice):
            steps, may_stop = self._count_open(node)
            count = self._count
            ids = list(range(count, count + steps))
            if may_stop:
                ids.append(count + COUNT_BITS)
            ids.append(count + COUNT_BITS + 1)  # "most" is always legal
            return ids
        return self._table(self._state(node)).ids.copy()

    def mask(self, node: GameState | CountChoice, dtype: Any = bool) -> np.ndarray:
        """The legal ids at a decision node: an array of length ``num_actions`` (a new array), 1 (True) at each.

        All false at chance and terminal nodes.  At a :class:`CountChoice`
        only count steps are legal.

        Parameters
        ----------
        node : GameState or CountChoice
            The decision node.
        dtype : bool or numpy.int8, default bool
            The array's type: ``np.int8`` is what Gymnasium's ``Discrete.sample(mask)`` takes (the
            environments' ``action_mask``), made directly rather than as a copy of the bool array.

        Raises
        ------
        InvalidArgumentError
            If ``node`` is not a state (or count choice) of this codec's game, or ``dtype`` is neither.

        Examples
        --------
        >>> import numpy as np, riskmath as rm
        >>> codec = ActionCodec(rm.Game(2, board="south_america_africa"))
        >>> state = codec.game.new_initial_state(seed=1, auto_chance=True)
        >>> bool((codec.mask(state, np.int8) == codec.mask(state)).all()), codec.mask(state, np.int8).dtype
        (True, dtype('int8'))
        """
        if dtype is not bool and dtype is not np.int8:
            try:
                kind = np.dtype(dtype)
            except TypeError:
                kind = None
            if kind not in (np.dtype(bool), np.dtype(np.int8)):
                raise InvalidArgumentError(f"dtype must be bool or numpy.int8, got {shown(dtype)}")
            dtype = bool if kind == np.dtype(bool) else np.int8
        if isinstance(node, CountChoice):
            return self._legal(node).astype(dtype)  # (astype copies, to bool too)
        table = self._table(self._state(node))
        if table.mask is not None:
            return table.mask.astype(dtype)
        out = np.zeros(self.num_actions, dtype=dtype)  # (made straight from the ids: no kept mask copied)
        out[np.array(table.ids, dtype=np.intp)] = 1
        return out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Copied and pickled as its game: the numbering depends on the game alone (the layouts are read-only
        mappings, which ``pickle`` refuses), and the tables of the last node are a cache."""
        return (type(self), (self.game,))

    def mask_view(self, node: GameState | CountChoice) -> np.ndarray:
        """The mask of :meth:`mask` without the copy: a read-only view of the codec's own array.

        Valid until the codec's next call (the arrays are reused node to
        node): for a caller that reads the mask at once, as the environments
        do at every step.  :meth:`mask` is the array to keep.

        Examples
        --------
        >>> import riskmath as rm
        >>> codec = ActionCodec(rm.Game(2, board="south_america_africa"))
        >>> state = codec.game.new_initial_state(seed=1, auto_chance=True)
        >>> view = codec.mask_view(state)
        >>> bool((view == codec.mask(state)).all()), view.flags.writeable
        (True, False)
        """
        view = self._legal(node).view()
        view.flags.writeable = False
        return view

    def _legal(self, node: GameState | CountChoice) -> np.ndarray:
        """The mask of :meth:`mask` as the codec's own array, valid until the next call: read it, never change it."""
        if isinstance(node, CountChoice):
            steps, may_stop = self._count_open(node)
            mask, count = self._count_mask, self._count
            mask[count : count + COUNT_BITS] = False
            mask[count : count + steps] = True
            mask[count + COUNT_BITS] = may_stop
            return mask
        return self._state_mask(self._table(self._state(node)))

    def _count_open(self, node: CountChoice) -> tuple[int, bool]:
        """What a count choice of this codec's game allows (checked): how many of the first step ids (adding
        1, 2, 4, ... armies without passing ``high``), and whether "this many" (the chosen count is ``low`` or
        more).  One rule for :meth:`legal_ids` and :meth:`mask`; :meth:`_decode_count` applies it to one id."""
        self._check_choice(node)
        return min((node.high - node.chosen).bit_length(), COUNT_BITS), node.chosen >= node.low

    def _check_choice(self, node: CountChoice) -> None:
        """InvalidArgumentError unless ``node`` is a count choice the codec would make at its state: its kind,
        territories and range those of a legal first step there, and the count so far within the range's top.
        (A choice built by hand with a count past its range, a wrong range or an unknown kind had a mask that
        disagreed with :meth:`decode`, and decoded to an illegal action.)"""
        state = self._state(node)
        kind, source, target, chosen = node.kind, node.source, node.target, node.chosen
        n = self._n
        if type(source) is not int or type(target) is not int:  # (a NumPy integer read as a range that is not there)
            name, value = ("source", source) if type(source) is not int else ("target", target)
            raise InvalidArgumentError(f"{node!r}: {name} must be a territory id, a plain int, got {shown(value)}")
        k = -1
        if -1 <= source < n and -1 <= target < n:
            if kind == "place" and source >= 0:
                k = self._place + source
            elif kind == "occupy":
                k = self._occupy
            elif kind in ("blitz", "fortify") and source >= 0 and target >= 0:
                e = (self._edge_rows if kind == "blitz" else self._pair_rows)[source][target]
                k = -1 if e < 0 else (self._blitz if kind == "blitz" else self._fortify) + e
        expected = self._table(state).counts.get(k) if k >= 0 else None
        if expected != (node.low, node.high) or type(chosen) is not int or not 0 <= chosen <= node.high:
            raise InvalidArgumentError(
                f"{node!r} is not a count choice of its state: the legal range of {kind!r} from {source} to {target} "
                f"is {expected} and the count so far must be in 0..high"
            )

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
            self._check_choice(node)
            return self._decode_count(node, index)
        table = self._table(state)
        ids, counts, trades = table.ids, table.counts, table.trades
        at = bisect_left(ids, index)
        if at == len(ids) or ids[at] != index:
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
        """The block of an id (checked by ``_index``) and its place in it: a search of the blocks' starts."""
        at = bisect_right(self._starts, index) - 1  # an empty block shares its start with the next: the last wins
        return self._names[at], index - self._starts[at]

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
        if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
            raise InvalidArgumentError(f"ids must be a sequence of action ids (as steps() gives), got {shown(ids)}")
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
        counts = self._table(state).counts
        if checked[0] == "place":
            first, count = self._place + checked[1], checked[2]
        elif checked[0] == "attack":
            return (self._attack + int(self._edge[checked[1], checked[2]]) * self._dice + checked[3] - 1,)
        elif checked[0] == "blitz":
            first, count = self._blitz + int(self._edge[checked[1], checked[2]]), checked[3]
        elif checked[0] == "fortify":
            first, count = self._fortify + int(self._pair[checked[1], checked[2]]), checked[3]
        elif checked[0] == "occupy":
            first, count = self._occupy, checked[1]
        elif checked[0] == "trade":
            k = self._trade_base + self._trade[_trade_key(self, checked[1])]
            listed = self._table(state).trades[k]
            if state.apply(action) != state.apply(listed):  # (the 1993 bonus goes on the first card's territory)
                raise IllegalActionError(
                    f"{action!r} puts the territory-card bonus elsewhere than {listed!r}, the trade id {k} plays "
                    "(one id per set of cards: the bonus goes to the first of its cards that shows a territory of "
                    "the player's, in the order listed)"
                )
            return (k,)
        elif checked[0] == "defend":
            return (self._defend_base + checked[1] - 1,)
        elif checked[0] == "capital":
            return (self._capital + checked[1],)
        elif checked[0] == "pile":
            return (self._pile + checked[1],)
        else:
            return (self._end,)
        low, high = counts[first]
        if high == low or first_only:
            return (first,)
        return (first, *_count_steps(self._count, 0, low, high, count))


#: Bytes and seconds per trade id (a tuple of names in a set, a list and a dict), measured about 240 and 15 µs.
_TRADE_BYTES, _TRADE_SECONDS = 320, 2e-5
#: Bytes and seconds per ordered pair of territories of a fortification other than ``adjacent`` (a tuple in a list).
_PAIR_BYTES, _PAIR_SECONDS = 120, 1e-6


def _deck_symbols(game: Game) -> dict[Symbol, list[str]]:
    """The deck's card names by symbol (the wilds once per wild card)."""
    groups: dict[Symbol, list[str]] = {}
    for name in game.full_deck:
        groups.setdefault(game.cards[name].symbol, []).append(name)
    return groups


def trade_count(game: Game) -> int:
    """How many trade ids :class:`ActionCodec` numbers (``len(_deck_sets(game))``), counted without listing them.

    The wild cards share one name, so a set holds one distinct choice of ``k`` wilds (if there are ``k``).
    """
    groups = _deck_symbols(game)
    total = 0
    for trio in combinations_with_replacement(groups, 3):
        if not is_set(trio):
            continue
        ways = 1
        for symbol in set(trio):
            k, have = trio.count(symbol), len(groups[symbol])
            ways *= (have >= k) if symbol is Symbol.WILD else comb(have, k)
        total += ways
    return total


def check_codec_cost(game: Game) -> None:
    """Refuse (ResourceLimitError) a game whose :class:`ActionCodec` would not fit the memory or time limits.

    The codec's tables grow with the board: two ``n x n`` arrays of ids, the ordered pairs of territories
    when fortifying is not only between neighbors, and above all one trade id per set the deck can form
    (the cube of the cards of a symbol: about 56 million for a 1,000-territory board).
    """
    n = len(game.board)
    pairs = 0 if game.rules.fortify == "adjacent" else n * (n - 1)
    trades = trade_count(game)
    memory = 16.0 * n * n + pairs * _PAIR_BYTES + trades * _TRADE_BYTES
    seconds = pairs * _PAIR_SECONDS + trades * _TRADE_SECONDS
    check_cost(
        lambda: f"ActionCodec of a game on board {game.board.name!r} ({n} territories, {trades} trade ids)",
        memory=memory,
        seconds=seconds,
        hint="use a smaller board; ",
    )


def _deck_sets(game: Game) -> list[tuple[str, ...]]:
    """Every set the whole deck can form, as tuples of card names (multisets) in territory order, wilds last.

    Which three symbols make a set is :func:`riskmath.game.cards.is_set`'s answer, asked of every multiset of
    three symbols the deck holds; each one that is a set is filled with the deck's cards of those symbols in every
    way (three alike, one of each, any two cards with a wild, one with two wilds, three wilds).
    """
    groups = _deck_symbols(game)  # the deck's card names by symbol (the wilds once per wild card)
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
