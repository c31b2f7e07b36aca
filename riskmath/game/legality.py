"""Which actions are legal in a position, and why not (private).

:func:`check_action` validates one action against a game and a position and
returns its checked form (:mod:`~riskmath.game.checked`); every refusal raises
:class:`riskmath.IllegalActionError` with the reason.
:func:`enumerate_actions` lists the legal actions.  Both follow the same
rules, and the tests check that they agree.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import Any

from riskmath._validation import as_int
from riskmath.errors import IllegalActionError
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
from riskmath.game.cards import WILD, is_set
from riskmath.game.chance import is_chance
from riskmath.game.checked import (
    AttackChecked,
    BlitzChecked,
    CapitalChecked,
    Checked,
    DefendChecked,
    EndChecked,
    FortifyChecked,
    OccupyChecked,
    PileChecked,
    PlaceChecked,
    TradeChecked,
    kind_of,
    to_action,
)
from riskmath.game.context import GameContext
from riskmath.game.phase import (
    ATTACK,
    DEFEND,
    FORTIFY,
    GAME_OVER,
    OCCUPY,
    REINFORCE,
    SETUP_CAPITAL,
    SETUP_CLAIM,
    SETUP_PILE,
    SETUP_PLACE,
    TRADE_DOWN,
    Phase,
)
from riskmath.game.position import (
    Position,
    attacker_dice_most,
    defender_dice_most,
    fortification_reach,
    fortification_targets,
    most_to_move,
    occupation_range,
    own_territories,
    room,
    trade_forced,
    traded_down,
)


class LegalActions(Sequence[Any]):
    """The legal actions of a state: a lazy sequence with a cheap ``in`` test.

    The actions come in runs (e.g. "place 1..n armies on Alaska"), so the
    sequence knows its length and its ``i``-th action without building the
    others: ``rng.choice(state.legal_actions())`` costs a few microseconds
    however large the pool.  Iteration lists every action except the
    blitzes with ``stop_at > 0`` (any ``stop_at`` below the attacking armies
    is legal and passes the ``in`` test; the listing keeps ``stop_at=0`` so
    that it does not grow with the stack).

    Examples
    --------
    >>> import riskmath as rm
    >>> actions = rm.Game(4).new_initial_state(seed=1, auto_chance=True).legal_actions()
    >>> len(actions), actions[0], rm.PlaceArmies("Alaska") in actions
    (42, PlaceArmies(territory='Alaska', armies=1), True)
    """

    __slots__ = ("_ends", "_game", "_pos", "_runs")

    _game: GameContext
    _pos: Position
    _runs: list[tuple[int, Callable[[int], Any]]] | None
    _ends: list[int]

    def __init__(self, game: GameContext, pos: Position) -> None:
        self._game = game
        self._pos = pos
        self._runs = None
        self._ends = []

    def _segments(self) -> list[tuple[int, Callable[[int], Any]]]:
        if self._runs is None:
            self._runs = enumerate_actions(self._game, self._pos)
            total = 0
            for count, _ in self._runs:
                total += count
                self._ends.append(total)
        return self._runs

    def __contains__(self, action: object) -> bool:
        return is_legal(self._game, self._pos, action)

    def __len__(self) -> int:
        self._segments()
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = operator.index(index)  # (a NumPy integer too; a float is refused, as a list refuses it)
        runs = self._segments()
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("legal action index out of range")
        k = bisect_right(self._ends, index)
        start = self._ends[k - 1] if k else 0
        return runs[k][1](index - start)

    def __iter__(self) -> Iterator[Any]:
        for count, build in self._segments():
            for i in range(count):
                yield build(i)

    def __bool__(self) -> bool:
        return len(self) > 0

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of ``value`` in the listing, found as ``in`` finds it: an action naming territories by id
        or in another case is the listed one (``Attack(0, 1, 1)`` is at ``Attack("Alaska", ...)``'s place).

        Raises
        ------
        ValueError
            If ``value`` is not listed between ``start`` and ``stop``: not legal, or a blitz with ``stop_at > 0``
            (legal, but the listing keeps ``stop_at=0``).
        """
        listed = self._listed(value)
        if listed is not None:
            n = len(self)
            begin, end, _ = slice(start, stop).indices(n)
            for i in range(begin, end):
                if self[i] == listed:
                    return i
        raise ValueError(f"{value!r} is not in the listed legal actions")

    def count(self, value: Any) -> int:
        """1 if ``value`` is listed (found as :meth:`index` finds it), else 0: every action is listed once."""
        try:
            self.index(value)
        except ValueError:
            return 0
        return 1

    def _listed(self, value: Any) -> Any:
        """``value`` as the listing writes it, or None if it is not legal."""
        try:
            return canonical_action(self._game, self._pos, value)
        except IllegalActionError:
            return None

    def __repr__(self) -> str:
        return f"<LegalActions: {len(self)} in {self._pos.phase.name}>"


_EXPECTED: dict[Phase, str] = {
    Phase.SETUP_CLAIM: "PlaceArmies on an unclaimed territory",
    Phase.SETUP_PLACE: "PlaceArmies",
    Phase.SETUP_CAPITAL: "ChooseCapital",
    Phase.SETUP_PILE: "ChoosePile",
    Phase.REINFORCE: "TradeCards or PlaceArmies (EndPhase only with nothing to place)",
    Phase.ATTACK: "Attack, Blitz or EndPhase",
    Phase.DEFEND: "Defend",
    Phase.OCCUPY: "Occupy",
    Phase.TRADE_DOWN: "TradeCards or PlaceArmies",
    Phase.FORTIFY: "Fortify or EndPhase",
}
# The kinds of action (checked.KIND) each decision phase accepts.
_ALLOWED: dict[Phase, tuple[str, ...]] = {
    Phase.SETUP_CLAIM: ("place",),
    Phase.SETUP_PLACE: ("place",),
    Phase.SETUP_CAPITAL: ("capital",),
    Phase.SETUP_PILE: ("pile",),
    Phase.REINFORCE: ("trade", "place", "end"),
    Phase.ATTACK: ("attack", "blitz", "end"),
    Phase.DEFEND: ("defend",),
    Phase.OCCUPY: ("occupy",),
    Phase.TRADE_DOWN: ("trade", "place"),
    Phase.FORTIFY: ("fortify", "end"),
}


def _illegal(game: GameContext, pos: Position, action: object, reason: str) -> IllegalActionError:
    """The error for an action refused in ``pos``, naming the action, phase, player and reason."""
    who = game.owner_name(pos.player) if pos.player >= 0 else "nobody"
    return IllegalActionError(f"{action!r} is illegal in {pos.phase.name} for {who}: {reason}")


def _territory(game: GameContext, pos: Position, action: object, territory: object) -> int:
    try:
        return game.board.index(territory)  # type: ignore[arg-type]
    except ValueError as error:
        raise _illegal(game, pos, action, str(error)) from None


def _count(game: GameContext, pos: Position, action: object, name: str, value: object, low: int, high: int) -> int:
    count = as_int(value)
    if count is None:
        raise _illegal(game, pos, action, f"{name} must be an integer, got {value!r}")
    if not low <= count <= high:
        raise _illegal(game, pos, action, f"{name} must be in {low}..{high}, got {value}")
    return count


def is_legal(game: GameContext, pos: Position, action: object) -> bool:
    """Whether ``action`` may be taken in ``pos`` (false at chance and terminal nodes)."""
    if pos.phase is GAME_OVER or is_chance(game, pos):
        return False
    try:
        check_action(game, pos, action)
    except IllegalActionError:
        return False
    return True


def canonical_action(game: GameContext, pos: Position, action: Any) -> Any:
    """``action`` as :class:`LegalActions` lists it (territories by their board names, a trade's cards in the
    listed order; a blitz keeps its ``stop_at``).

    Raises
    ------
    IllegalActionError
        If ``action`` may not be taken in ``pos`` (at a chance or terminal node none may), naming the reason.
    """
    if pos.phase is GAME_OVER or is_chance(game, pos):
        raise IllegalActionError(f"no action is legal in {pos.phase.name} here: it is not a decision node")
    checked = check_action(game, pos, action)
    if checked[0] == "trade":
        checked = ("trade", _listed_trade(game, pos, checked[1]))
    return to_action(game, checked)


def _listed_trade(game: GameContext, pos: Position, cards: tuple[str, ...]) -> tuple[str, ...]:
    """A legal trade's cards as listed (sorted), unless their order gives the 1993 territory bonus elsewhere.

    Under ``plus2_once_per_turn`` the bonus goes on the first card, in the order given, that shows a territory of
    the player's: an order with another first such card is another action, written with that card first and
    the other two as listed.  Every other order is the listed trade (found by a fuzz, 2026-12-04:
    ``("wild", "Peru", "Alaska")`` and ``("Alaska", "Peru", "wild")`` did the same and were not equal).
    """
    listed = tuple(sorted(cards))
    if game.rules.territory_card_bonus != "plus2_once_per_turn" or pos.bonus_taken >= 2:
        return listed
    index, player = game.index, pos.player

    def bonus_card(order: tuple[str, ...]) -> str | None:
        return next((c for c in order if c in index and pos.owner[index[c]] == player), None)

    chosen = bonus_card(cards)
    if chosen is None or chosen == bonus_card(listed):
        return listed
    rest = list(listed)
    rest.remove(chosen)
    return (chosen, *rest)


def check_action(game: GameContext, pos: Position, action: Any) -> Checked:
    """Validate ``action`` in decision node ``pos``; return its checked form (:mod:`~riskmath.game.checked`).

    Raises
    ------
    IllegalActionError
        If ``action`` is not an action, not one this phase takes, or not allowed here; names the reason.
    """
    phase = pos.phase
    kind = kind_of(action)
    if kind is None or kind not in _ALLOWED.get(phase, ()):
        expected = _EXPECTED.get(phase, "no action (this is not a decision node)")
        raise _illegal(game, pos, action, f"expected {expected}")
    return _CHECKS[kind](game, pos, action)


def _check_defend(game: GameContext, pos: Position, action: Defend) -> DefendChecked:
    assert pos.pending is not None
    most = defender_dice_most(game, pos, pos.pending.target)
    return ("defend", _count(game, pos, action, "dice", action.dice, 1, most))


def _check_occupy(game: GameContext, pos: Position, action: Occupy) -> OccupyChecked:
    low, most = occupation_range(game, pos)
    return ("occupy", _count(game, pos, action, "armies", action.armies, low, most))


def _check_end(game: GameContext, pos: Position, action: EndPhase) -> EndChecked:
    if pos.phase is REINFORCE:  # only when a turn starts with nothing to place (no minimum, Risiko)
        if pos.pool > 0:
            raise _illegal(game, pos, action, f"{pos.pool} armies are still to be placed")
        hand = len(pos.hands[pos.player])
        if trade_forced(game, pos):
            raise _illegal(game, pos, action, f"holding {hand} cards, a set must be traded first")
    return ("end",)


def _check_pile(game: GameContext, pos: Position, action: ChoosePile) -> PileChecked:
    left = sorted(set(pos.piles) - {-1})
    pile = as_int(action.pile)
    if pile is None or pile not in left:
        raise _illegal(game, pos, action, f"pile must be one of the piles left, {left}; got {action.pile!r}")
    return ("pile", pile)


def _check_capital(game: GameContext, pos: Position, action: ChooseCapital) -> CapitalChecked:
    t = _territory(game, pos, action, action.territory)
    if pos.owner[t] != pos.player:
        raise _illegal(game, pos, action, f"{game.board.territories[t]} is not yours")
    return ("capital", t)


def _check_place(game: GameContext, pos: Position, action: PlaceArmies) -> PlaceChecked:
    t = _territory(game, pos, action, action.territory)
    name = game.board.territories[t]
    phase = pos.phase
    if phase is SETUP_CLAIM:
        if pos.owner[t] >= 0:
            raise _illegal(game, pos, action, f"{name} is already claimed")
        _count(game, pos, action, "armies", action.armies, 1, 1)
        return ("place", t, 1)
    if phase is SETUP_PLACE:
        owner, due = pos.queue[0]
        if pos.owner[t] != owner:
            raise _illegal(game, pos, action, f"{name} is not held by {game.owner_name(owner)}, who places now")
        k = _count(game, pos, action, "armies", action.armies, 1, due)
        if k > room(game, pos, t, setup=True):
            raise _illegal(game, pos, action, f"{name} has room for only {room(game, pos, t, setup=True)} more armies")
        return ("place", t, k)
    if phase is REINFORCE and trade_forced(game, pos):
        raise _illegal(game, pos, action, f"holding {len(pos.hands[pos.player])} cards, a set must be traded first")
    if pos.pool == 0:
        raise _illegal(game, pos, action, "no armies left to place")
    if pos.owner[t] != pos.player:
        raise _illegal(game, pos, action, f"{name} is not yours")
    k = _count(game, pos, action, "armies", action.armies, 1, pos.pool)
    if k > room(game, pos, t):
        raise _illegal(game, pos, action, f"{name} has room for only {room(game, pos, t)} more armies")
    return ("place", t, k)


def _check_trade(game: GameContext, pos: Position, action: TradeCards) -> TradeChecked:
    cards = action.cards
    if not isinstance(cards, tuple) or len(cards) != 3 or not all(isinstance(c, str) for c in cards):
        why = f"a trade names exactly three cards in a tuple (territory names or 'wild'), got {cards!r}"
        raise _illegal(game, pos, action, why)
    # A wild card by any case, as Game.position takes it in a hand; territories by name, alias or any case.
    names = tuple(
        WILD if c.strip().lower() == WILD else game.board.territories[_territory(game, pos, action, c)] for c in cards
    )
    hand = list(pos.hands[pos.player])
    for card in names:
        if card not in hand:
            raise _illegal(game, pos, action, f"card {card!r} is not in the hand {sorted(pos.hands[pos.player])}")
        hand.remove(card)
    if not is_set([game.cards[c] for c in names]):
        raise _illegal(game, pos, action, "the cards do not form a set (three alike, one of each, or two and a wild)")
    if pos.phase is TRADE_DOWN and traded_down(game, pos):
        raise _illegal(game, pos, action, f"the hand is down to {len(pos.hands[pos.player])} cards: trading must stop")
    return ("trade", names)


def _check_attack(game: GameContext, pos: Position, action: Attack | Blitz) -> AttackChecked | BlitzChecked:
    source = _territory(game, pos, action, action.source)
    target = _territory(game, pos, action, action.target)
    names = game.board.territories
    if pos.owner[source] != pos.player:
        raise _illegal(game, pos, action, f"{names[source]} is not yours")
    if pos.owner[target] == pos.player:
        raise _illegal(game, pos, action, f"{names[target]} is yours")
    if target not in game.neighbors[source]:
        raise _illegal(game, pos, action, f"{names[source]} does not border {names[target]}")
    able = pos.armies[source] - 1
    if able < 1:
        raise _illegal(game, pos, action, f"{names[source]} has {pos.armies[source]} army: attacking needs 2")
    if isinstance(action, Attack):
        most = attacker_dice_most(game, pos, source)
        return ("attack", source, target, _count(game, pos, action, "dice", action.dice, 1, most))
    return ("blitz", source, target, _count(game, pos, action, "stop_at", action.stop_at, 0, able - 1))


def _check_fortify(game: GameContext, pos: Position, action: Fortify) -> FortifyChecked:
    source = _territory(game, pos, action, action.source)
    target = _territory(game, pos, action, action.target)
    names = game.board.territories
    for t in (source, target):
        if pos.owner[t] != pos.player:
            raise _illegal(game, pos, action, f"{names[t]} is not yours")
    if source == target:
        raise _illegal(game, pos, action, "source and target are the same territory")
    for t in (source, target):
        if t in pos.moved:
            reason = f"armies already moved from or to {names[t]} this turn (one move per territory)"
            raise _illegal(game, pos, action, reason)
    if target not in fortification_reach(game, pos, source):
        if game.rules.fortify == "adjacent":
            raise _illegal(game, pos, action, f"{names[source]} does not border {names[target]} (fortify: adjacent)")
        raise _illegal(game, pos, action, f"no chain of your territories joins {names[source]} to {names[target]}")
    most = most_to_move(game, pos, source, target)
    if most < 1:
        raise _illegal(game, pos, action, f"{names[source]} has no army to spare, or {names[target]} is full")
    return ("fortify", source, target, _count(game, pos, action, "armies", action.armies, 1, most))


_CHECKS: dict[str, Callable[[GameContext, Position, Any], Checked]] = {
    "place": _check_place,
    "trade": _check_trade,
    "attack": _check_attack,
    "blitz": _check_attack,
    "defend": _check_defend,
    "occupy": _check_occupy,
    "fortify": _check_fortify,
    "capital": _check_capital,
    "pile": _check_pile,
    "end": _check_end,
}


# -- enumeration ------------------------------------------------------------------------------


def _trades(game: GameContext, pos: Position) -> list[TradeCards]:
    hand = pos.hands[pos.player]
    cards = game.cards
    seen: set[tuple[str, ...]] = set()
    trades = []
    for trio in combinations(range(len(hand)), 3):
        names = tuple(sorted(hand[i] for i in trio))
        if names not in seen and is_set([cards[c] for c in names]):
            seen.add(names)
            trades.append(TradeCards(names))  # type: ignore[arg-type]
    return trades


Run = tuple[int, Callable[[int], Any]]
#: A range of legal actions in id form (see :func:`legal_ranges`).
Range = tuple[Any, ...]


def legal_ranges(game: GameContext, pos: Position) -> list[tuple[Any, ...]]:
    """The legal actions of decision node ``pos`` as ranges, without listing them (empty at chance nodes).

    The same actions as ``enumerate_actions``, territories as ids, counts as inclusive ranges:

    * ``("place", territory, low, high)``: ``PlaceArmies`` of ``low..high`` armies (a claim: ``1, 1``);
    * ``("trade", [TradeCards, ...])``: the distinct sets in the hand;
    * ``("attack", source, [target, ...], dice, most_stop)``: ``Attack`` with ``1..dice`` dice on
      each target, and ``Blitz`` with ``stop_at`` ``0..most_stop`` on each;
    * ``("defend", 1, high)``, ``("occupy", low, high)``: the dice, the armies to move in;
    * ``("fortify", source, target, 1, high)``: ``Fortify`` of ``1..high`` armies;
    * ``("capital", territory)``, ``("pile", pile)``, ``("end",)``.

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(3).new_initial_state(seed=1, auto_chance=True)
    >>> legal_ranges(state.game, state.position)[:2]
    [('place', 0, 1, 1), ('place', 1, 1, 1)]
    """
    ranges: list[tuple[Any, ...]] = []
    enumerate_actions(game, pos, ranges, listing=False)
    return ranges


def _one(action: Any) -> Run:
    return (1, lambda i: action)


def _listed(actions: list[Any]) -> Run:
    return (len(actions), actions.__getitem__)


def enumerate_actions(
    game: GameContext, pos: Position, ranges: list[Range] | None = None, *, listing: bool = True
) -> list[Run]:
    """The legal actions of decision node ``pos``, as runs ``(count, i -> action)``; none at chance nodes.

    Runs keep :class:`LegalActions` lazy: "place 1..n armies on a territory"
    is one run, not n actions (see that class for blitzes).  A random
    set-up's placements are chance outcomes, not actions.  Given a list
    ``ranges``, the same actions are also appended to it as ranges of ids
    (see :func:`legal_ranges`); with ``listing=False`` only the ranges are made
    (the list returned is then empty: the environments read the ranges only).
    """
    if is_chance(game, pos):
        return []
    phase = pos.phase
    names = game.board.territories
    p = pos.player
    owner, armies = pos.owner, pos.armies
    n = len(owner)
    runs: list[Run] = []  # (with listing=False only the ranges are made, and this stays empty)
    if phase is SETUP_CLAIM:
        if ranges is not None:
            ranges.extend(("place", t, 1, 1) for t in range(n) if owner[t] < 0)
        return [_listed([PlaceArmies(names[t], 1) for t in range(n) if owner[t] < 0])] if listing else []
    if phase is SETUP_PLACE:
        who, due = pos.queue[0]
        for t in range(n):
            if owner[t] == who:
                most = max(min(due, room(game, pos, t, setup=True)), 0)
                if listing:
                    runs.append(_place_run(names[t], most))
                if ranges is not None and most:
                    ranges.append(("place", t, 1, most))
        return runs
    if phase is SETUP_CAPITAL:
        if ranges is not None:
            ranges.extend(("capital", t) for t in range(n) if owner[t] == p)
        return [_listed([ChooseCapital(names[t]) for t in range(n) if owner[t] == p])] if listing else []
    if phase is SETUP_PILE:
        if ranges is not None:
            ranges.extend(("pile", k) for k in sorted(set(pos.piles) - {-1}))
        return [_listed([ChoosePile(k) for k in sorted(set(pos.piles) - {-1})])] if listing else []
    if phase is REINFORCE or phase is TRADE_DOWN:
        if phase is REINFORCE or not traded_down(game, pos):
            trades = _trades(game, pos)
            if listing:
                runs.append(_listed(trades))
            if ranges is not None:
                ranges.append(("trade", trades))
        forced = phase is REINFORCE and trade_forced(game, pos)
        if pos.pool > 0 and not forced:
            for t in range(n):
                if owner[t] == p:
                    most = max(min(pos.pool, room(game, pos, t)), 0)
                    if listing:
                        runs.append(_place_run(names[t], most))
                    if ranges is not None and most:
                        ranges.append(("place", t, 1, most))
        elif phase is REINFORCE and not forced:
            if listing:
                runs.append(_one(EndPhase()))  # a turn that starts with nothing to place (no minimum)
            if ranges is not None:
                ranges.append(("end",))
        return runs
    if phase is ATTACK:  # one run per source: its targets in turn, each with 1..dice dice, then the blitz
        neighbors = game.neighbors
        for t, a in enumerate(armies):
            if a < 2 or owner[t] != p:
                continue
            targets = [u for u in neighbors[t] if owner[u] != p]
            if targets:
                dice = attacker_dice_most(game, pos, t)
                if listing:
                    runs.append(_attack_run(names[t], [names[u] for u in targets], dice))
                if ranges is not None:
                    ranges.append(("attack", t, targets, dice, a - 2))
        if listing:
            runs.append(_one(EndPhase()))
        if ranges is not None:
            ranges.append(("end",))
        return runs
    if phase is DEFEND:
        assert pos.pending is not None
        most = defender_dice_most(game, pos, pos.pending.target)
        if ranges is not None:
            ranges.append(("defend", 1, most))
        return [(most, lambda i: Defend(i + 1))] if listing else []
    if phase is OCCUPY:
        low, most = occupation_range(game, pos)
        if ranges is not None:
            ranges.append(("occupy", low, most))
        return [(most - low + 1, lambda i: Occupy(low + i))] if listing else []
    if phase is FORTIFY:
        mine = own_territories(pos)
        regions: dict[int, list[int]] = {}  # (connected fortification: each group of own territories searched once)
        for t in range(n):
            if owner[t] != p or armies[t] < 2:  # (no targets: skipped without a call)
                continue
            for u in fortification_targets(game, pos, t, mine, regions):
                most = max(most_to_move(game, pos, t, u), 0)
                if listing:
                    runs.append(_fortify_run(names[t], names[u], most))
                if ranges is not None:
                    ranges.append(("fortify", t, u, 1, most))
        if listing:
            runs.append(_one(EndPhase()))
        if ranges is not None:
            ranges.append(("end",))
        return runs
    return runs


def _place_run(name: str, most: int) -> Run:
    return (max(most, 0), lambda i: PlaceArmies(name, i + 1))


def _attack_run(source: str, targets: list[str], dice: int) -> Run:
    def build(i: int) -> Attack | Blitz:
        k, i = divmod(i, dice + 1)
        return Attack(source, targets[k], i + 1) if i < dice else Blitz(source, targets[k], 0)

    return (len(targets) * (dice + 1), build)


def _fortify_run(source: str, target: str, most: int) -> Run:
    return (max(most, 0), lambda i: Fortify(source, target, i + 1))
