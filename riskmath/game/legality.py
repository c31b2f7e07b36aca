"""Which actions are legal in a state, and why not (private).

:func:`check_action` validates one action and returns its normalised form
(territory ids); every refusal raises :class:`riskmath.IllegalActionError`
with the reason.  :func:`enumerate_actions` lists the legal actions.  Both
follow the same rules, and the tests check that they agree.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

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
from riskmath.game.cards import is_set

if TYPE_CHECKING:
    from riskmath.game.state import GameState


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

    __slots__ = ("_ends", "_runs", "_state")

    _state: GameState
    _runs: list[tuple[int, Callable[[int], Any]]] | None
    _ends: list[int]

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._runs = None
        self._ends = []

    def _segments(self) -> list[tuple[int, Callable[[int], Any]]]:
        if self._runs is None:
            self._runs = self._state._enumerate()
            total = 0
            for count, _ in self._runs:
                total += count
                self._ends.append(total)
        return self._runs

    def __contains__(self, action: object) -> bool:
        return self._state.is_legal(action)

    def __len__(self) -> int:
        self._segments()
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
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

    def __repr__(self) -> str:
        return f"<LegalActions: {len(self)} in {self._state.phase.name}>"


_EXPECTED = {
    "SETUP_CLAIM": "PlaceArmies on an unclaimed territory",
    "SETUP_PLACE": "PlaceArmies",
    "SETUP_CAPITAL": "ChooseCapital",
    "SETUP_PILE": "ChoosePile",
    "REINFORCE": "TradeCards or PlaceArmies (EndPhase only with nothing to place)",
    "ATTACK": "Attack, Blitz or EndPhase",
    "DEFEND": "Defend",
    "OCCUPY": "Occupy",
    "TRADE_DOWN": "TradeCards or PlaceArmies",
    "FORTIFY": "Fortify or EndPhase",
}
_ALLOWED: dict[str, tuple[type, ...]] = {
    "SETUP_CLAIM": (PlaceArmies,),
    "SETUP_PLACE": (PlaceArmies,),
    "SETUP_CAPITAL": (ChooseCapital,),
    "SETUP_PILE": (ChoosePile,),
    "REINFORCE": (TradeCards, PlaceArmies, EndPhase),
    "ATTACK": (Attack, Blitz, EndPhase),
    "DEFEND": (Defend,),
    "OCCUPY": (Occupy,),
    "TRADE_DOWN": (TradeCards, PlaceArmies),
    "FORTIFY": (Fortify, EndPhase),
}


def check_action(s: GameState, action: Any) -> tuple[Any, ...]:
    """Validate ``action`` in decision state ``s``; return the normalised action."""
    phase = s._phase.name
    allowed = _ALLOWED.get(phase, ())
    if not isinstance(action, allowed):
        expected = _EXPECTED.get(phase, "no action (this is not a decision node)")
        raise s._illegal(action, f"expected {expected}")
    if isinstance(action, PlaceArmies):
        return _check_place(s, action)
    if isinstance(action, TradeCards):
        return ("trade", _check_trade(s, action))
    if isinstance(action, (Attack, Blitz)):
        return _check_attack(s, action)
    if isinstance(action, Defend):
        assert s._pending is not None
        most = min(s.game.rules.combat.defender_max_dice, s._armies[s._pending[2]])
        return ("defend", s._count(action, "dice", action.dice, 1, most))
    if isinstance(action, Occupy):
        assert s._occupy is not None
        source, target, least = s._occupy
        most = min(s._armies[source] - 1, s._room(target))
        return ("occupy", s._count(action, "armies", action.armies, min(least, most), most))
    if isinstance(action, Fortify):
        return _check_fortify(s, action)
    if phase == "REINFORCE":  # EndPhase: only when a turn starts with nothing to place (no minimum, Risiko)
        if s._pool > 0:
            raise s._illegal(action, f"{s._pool} armies are still to be placed")
        hand = len(s._hands[s._player])
        rules = s.game.rules
        if rules.forced_trade_at is not None and hand >= rules.forced_trade_at:
            raise s._illegal(action, f"holding {hand} cards, a set must be traded first")
    if isinstance(action, ChoosePile):
        left = sorted(set(s._piles) - {-1})
        if isinstance(action.pile, bool) or action.pile not in left:
            raise s._illegal(action, f"pile must be one of the piles left, {left}; got {action.pile!r}")
        return ("pile", action.pile)
    if isinstance(action, ChooseCapital):
        t = s._territory(action, action.territory)
        if s._owner[t] != s._player:
            raise s._illegal(action, f"{s.game.board.territories[t]} is not yours")
        return ("capital", t)
    return ("end",)


def _check_place(s: GameState, action: PlaceArmies) -> tuple[Any, ...]:
    t = s._territory(action, action.territory)
    name = s.game.board.territories[t]
    phase = s._phase.name
    if phase == "SETUP_CLAIM":
        if s._owner[t] >= 0:
            raise s._illegal(action, f"{name} is already claimed")
        s._count(action, "armies", action.armies, 1, 1)
        return ("place", t, 1)
    if phase == "SETUP_PLACE":
        owner, due = s._queue[0]
        if s._owner[t] != owner:
            raise s._illegal(action, f"{name} is not held by {s.game.owner_name(owner)}, who places now")
        k = s._count(action, "armies", action.armies, 1, due)
        if k > s._room(t, setup=True):
            raise s._illegal(action, f"{name} has room for only {s._room(t, setup=True)} more armies")
        return ("place", t, k)
    rules = s.game.rules
    if phase == "REINFORCE" and rules.forced_trade_at is not None and len(s._hands[s._player]) >= rules.forced_trade_at:
        raise s._illegal(action, f"holding {len(s._hands[s._player])} cards, a set must be traded first")
    if s._pool == 0:
        raise s._illegal(action, "no armies left to place")
    if s._owner[t] != s._player:
        raise s._illegal(action, f"{name} is not yours")
    k = s._count(action, "armies", action.armies, 1, s._pool)
    if k > s._room(t):
        raise s._illegal(action, f"{name} has room for only {s._room(t)} more armies")
    return ("place", t, k)


def _check_trade(s: GameState, action: TradeCards) -> tuple[str, ...]:
    cards = action.cards
    if not isinstance(cards, tuple) or len(cards) != 3 or not all(isinstance(c, str) for c in cards):
        raise s._illegal(action, "a trade names exactly three cards (territory names or 'wild')")
    game = s.game
    names = tuple(c if c == "wild" else game.board.territories[s._territory(action, c)] for c in cards)
    hand = list(s._hands[s._player])
    for card in names:
        if card not in hand:
            raise s._illegal(action, f"card {card!r} is not in the hand {sorted(s._hands[s._player])}")
        hand.remove(card)
    if not is_set([game.cards[c] for c in names]):
        raise s._illegal(action, "the cards do not form a set (three alike, one of each, or two and a wild)")
    if s._phase.name == "TRADE_DOWN" and len(s._hands[s._player]) <= game.rules.elimination_trade_to:
        raise s._illegal(action, f"the hand is down to {len(s._hands[s._player])} cards: trading must stop")
    return names


def _check_attack(s: GameState, action: Attack | Blitz) -> tuple[Any, ...]:
    source = s._territory(action, action.source)
    target = s._territory(action, action.target)
    names = s.game.board.territories
    if s._owner[source] != s._player:
        raise s._illegal(action, f"{names[source]} is not yours")
    if s._owner[target] == s._player:
        raise s._illegal(action, f"{names[target]} is yours")
    if target not in s.game.neighbors[source]:
        raise s._illegal(action, f"{names[source]} does not border {names[target]}")
    able = s._armies[source] - 1
    if able < 1:
        raise s._illegal(action, f"{names[source]} has {s._armies[source]} army: attacking needs 2")
    if isinstance(action, Attack):
        most = min(s.game.rules.combat.attacker_max_dice, able)
        return ("attack", source, target, s._count(action, "dice", action.dice, 1, most))
    return ("blitz", source, target, s._count(action, "stop_at", action.stop_at, 0, able - 1))


def _reachable(s: GameState, source: int) -> set[int]:
    """Own territories joined to ``source`` by a chain of own territories."""
    owner = s._owner
    player = s._player
    seen = {source}
    todo = deque([source])
    while todo:
        for u in s.game.neighbors[todo.popleft()]:
            if u not in seen and owner[u] == player:
                seen.add(u)
                todo.append(u)
    return seen


def _check_fortify(s: GameState, action: Fortify) -> tuple[Any, ...]:
    source = s._territory(action, action.source)
    target = s._territory(action, action.target)
    names = s.game.board.territories
    for t in (source, target):
        if s._owner[t] != s._player:
            raise s._illegal(action, f"{names[t]} is not yours")
    if source == target:
        raise s._illegal(action, "source and target are the same territory")
    for t in (source, target):
        if t in s._moved:
            raise s._illegal(action, f"armies already moved from or to {names[t]} this turn (one move per territory)")
    if s.game.rules.fortify == "adjacent":
        if target not in s.game.neighbors[source]:
            raise s._illegal(action, f"{names[source]} does not border {names[target]} (fortify: adjacent)")
    elif target not in _reachable(s, source):
        raise s._illegal(action, f"no chain of your territories joins {names[source]} to {names[target]}")
    most = min(s._armies[source] - 1, s._room(target))
    if most < 1:
        raise s._illegal(action, f"{names[source]} has no army to spare, or {names[target]} is full")
    return ("fortify", source, target, s._count(action, "armies", action.armies, 1, most))


# -- enumeration ------------------------------------------------------------------------------


def _trades(s: GameState) -> list[TradeCards]:
    hand = s._hands[s._player]
    cards = s.game.cards
    seen: set[tuple[str, ...]] = set()
    trades = []
    for trio in combinations(range(len(hand)), 3):
        names = tuple(sorted(hand[i] for i in trio))
        if names not in seen and is_set([cards[c] for c in names]):
            seen.add(names)
            trades.append(TradeCards(names))  # type: ignore[arg-type]
    return trades


Run = tuple[int, Callable[[int], Any]]


def _one(action: Any) -> Run:
    return (1, lambda i: action)


def _listed(actions: list[Any]) -> Run:
    return (len(actions), actions.__getitem__)


def enumerate_actions(s: GameState) -> list[Run]:
    """The legal actions of decision state ``s``, as runs ``(count, i -> action)``.

    Runs keep :class:`~riskmath.game.state.LegalActions` lazy: "place 1..n armies
    on a territory" is one run, not n actions (see that class for blitzes).
    """
    if s.is_chance_node():
        # Fix: a random set-up's placements are chance outcomes, not actions (is_legal refused them already).
        return []
    phase = s._phase.name
    names = s.game.board.territories
    rules = s.game.rules
    p = s._player
    owner, armies = s._owner, s._armies
    n = len(owner)
    runs: list[Run] = []
    if phase == "SETUP_CLAIM":
        return [_listed([PlaceArmies(names[t], 1) for t in range(n) if owner[t] < 0])]
    if phase == "SETUP_PLACE":
        who, due = s._queue[0]
        for t in range(n):
            if owner[t] == who:
                runs.append(_place_run(names[t], min(due, s._room(t, setup=True))))
        return runs
    if phase == "SETUP_CAPITAL":
        return [_listed([ChooseCapital(names[t]) for t in range(n) if owner[t] == p])]
    if phase == "SETUP_PILE":
        return [_listed([ChoosePile(k) for k in sorted(set(s._piles) - {-1})])]
    if phase in ("REINFORCE", "TRADE_DOWN"):
        hand = len(s._hands[p])
        if phase == "REINFORCE" or hand > rules.elimination_trade_to:
            runs.append(_listed(_trades(s)))
        forced = phase == "REINFORCE" and rules.forced_trade_at is not None and hand >= rules.forced_trade_at
        if s._pool > 0 and not forced:
            for t in range(n):
                if owner[t] == p:
                    runs.append(_place_run(names[t], min(s._pool, s._room(t))))
        elif phase == "REINFORCE" and not forced:
            runs.append(_one(EndPhase()))  # a turn that starts with nothing to place (no minimum)
        return runs
    if phase == "ATTACK":  # one run per source: its targets in turn, each with 1..dice dice, then the blitz
        most = rules.combat.attacker_max_dice
        neighbors = s.game.neighbors
        for t, a in enumerate(armies):
            if a < 2 or owner[t] != p:
                continue
            enemies = [names[u] for u in neighbors[t] if owner[u] != p]
            if enemies:
                runs.append(_attack_run(names[t], enemies, most if a > most else a - 1))
        runs.append(_one(EndPhase()))
        return runs
    if phase == "DEFEND":
        assert s._pending is not None
        most = min(rules.combat.defender_max_dice, armies[s._pending[2]])
        return [(most, lambda i: Defend(i + 1))]
    if phase == "OCCUPY":
        assert s._occupy is not None
        source, target, least = s._occupy
        most = min(armies[source] - 1, s._room(target))
        low = min(least, most)
        return [(most - low + 1, lambda i: Occupy(low + i))]
    if phase == "FORTIFY":
        for t in range(n):
            if owner[t] != p or armies[t] < 2 or t in s._moved:
                continue
            targets = s.game.neighbors[t] if rules.fortify == "adjacent" else sorted(_reachable(s, t) - {t})
            for u in targets:
                if owner[u] == p and u not in s._moved:
                    runs.append(_fortify_run(names[t], names[u], min(armies[t] - 1, s._room(u))))
        runs.append(_one(EndPhase()))
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
