"""What one player sees of a state: a float32 vector with a named layout, a text form, an information state.

Everything is relative to the observing player ``p``: "relative player
``k``" is player ``(p + k) % players``, so ``k = 0`` is always the
observer.  Hidden information stays hidden: the other players' cards and
missions, the order of the deck, and the state's chance generator (what
the dice will roll).  Two states that differ only in those give the same
observation and information state to ``p``.

:func:`observation_layout` names the sections of the vector (slices that
cover it exactly, in this order):

==============  =====================  =======================================================================
section         length                 content
==============  =====================  =======================================================================
``owner``       ``n * (P + 1)``        per territory, a one-hot owner: relative players ``0..P-1``, then any
                                       neutral; all zero while unclaimed
``armies``      ``n``                  ``log(1 + armies)`` per territory (armies are unbounded)
``hand``        ``n + 1``              the observer's cards: one flag per territory card, then the wilds held
``hand_sizes``  ``P``                  cards held, by relative player
``alive``       ``P``                  1 if the relative player is in the game
``cards``       ``3``                  sets traded so far, the value of the next set (0 for a fixed table,
                                       whose values depend on the cards), cards left in the deck
``phase``       ``len(Phase)``         the phase, one-hot, in the order of :class:`riskmath.Phase`
``player``      ``P + 2``              who decides: relative player one-hot, then chance, then the end
``turn``        ``4``                  player-turns begun, armies left to place (``log(1 + pool)``), a
                                       capture made this turn, a trade-down due
``battle``      ``2 n + 5``            the pending attack, blitz or capture: source and target one-hot,
                                       then flags attack / blitz / occupy, the dice (attack), ``stop_at``
                                       (blitz) or least armies (occupy), and the defender's dice if chosen
``mission``     ``M``                  the observer's own mission, one-hot (``M`` missions in the game)
``capitals``    ``n * P``              per territory, whose headquarters it is (relative player one-hot)
``moved``       ``n``                  territories already moved from or to this turn (Experts fortify)
``choice``      ``2 n + 7``            a pending count (:class:`~riskmath.envs.CountChoice`): kind one-hot
                                       (place, blitz, fortify, occupy), source and target one-hot, then
                                       ``log(1 + x)`` of the count chosen so far, its low and high end
``piles``       ``3 n`` or ``0``       the 1993 two-player piles being chosen (``SETUP_PILE``): per
                                       territory, its pile one-hot (all zero once taken); present only in
                                       games where the players choose piles, empty (length 0) in others
==============  =====================  =======================================================================

(``n`` territories, ``P`` players.)  With ``scaled=True`` every entry is
mapped into [0, 1] for a network's input, section by section (the
documentation page "Learning agents" has the table): one-hots and flags as they are; armies, the pool, the sets traded,
the value of the next set, a blitz's ``stop_at``, the armies to move in and
the counts being chosen as ``log2(1 + x) / 10``, capped at 1 (1,023 or
more reads 1); the turn as ``turn / max_turns`` (on the log scale when
there is no cap); cards held by 10, wilds by the deck's wilds, the deck by
its full size and the defender's dice by their most, each capped at 1.
:func:`information_state` adds the
public record that the state keeps: the cards in the discard pile (each
was shown when traded), ``n + 1`` counts in the order of ``hand``.  A
:class:`~riskmath.GameState` keeps no history, so a history-based
information state (every public action seen) is for the environment that
records the steps to build.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from riskmath._validation import check_bool, shown
from riskmath.envs.codec import BattleChance, CountChoice
from riskmath.errors import CardError, InvalidArgumentError
from riskmath.game import Game, GameState
from riskmath.game.cards import WILD, SetValues
from riskmath.game.missions import mission_text, missions_for
from riskmath.game.phase import GAME_OVER, OCCUPY, Phase
from riskmath.game.position import Capture, PendingBattle, Position
from riskmath.game.setup import capital_chooser

__all__ = [
    "HAND_SCALE",
    "LOG_BITS",
    "checked_node",
    "information_state",
    "information_state_layout",
    "observation",
    "observation_layout",
    "observation_string",
]

#: The scaled log features are ``log2(1 + x) / LOG_BITS``, capped at 1: ``2**LOG_BITS - 1`` or more reads 1.
LOG_BITS = 10
#: Cards held are scaled by this many (capped at 1): past the forced trade at 5 cards, hands rarely reach 10.
HAND_SCALE = 10

_PHASES = tuple(Phase)
# Keyed by the members' ids: an enum member's hash runs Python code (Enum.__hash__), id() does not.
_PHASE_NUMBER = {id(phase): k for k, phase in enumerate(_PHASES)}
_BATTLE_PHASES = (Phase.DEFEND, Phase.ROLL, Phase.BLITZ)
_CHOICE_KINDS = ("place", "blitz", "fortify", "occupy")
# The small sections' keys in an Observer's record (what each was last written from), by position.
# A sparse section (the one-hots, the battle, the choice) has two: its key, then the entries written for it.
_SECTION_KEYS = (
    "hand", "small", "ones", "ones written", "turn", "battle", "battle written", "mission", "capitals", "moved",
    "discard", "choice", "choice written", "piles",
)  # fmt: skip
_HAND, _SMALL, _ONES, _, _TURN, _BATTLE, _, _MISSION, _CAPITALS, _MOVED, _DISCARD, _CHOICE, _, _PILES = range(14)
_UNSET = object()  # a key no section was written from: the section is zeroed and written
#: The record of a zero buffer: no key, no entries written.
_FRESH_KEYS = tuple(() if name.endswith(" written") else _UNSET for name in _SECTION_KEYS)
_DIRTY_MOST = 256  # Observer.values: more than this to read again, and the list is made whole instead


@functools.lru_cache(maxsize=64)
def _layout(game: Game, information: bool) -> Mapping[str, slice]:
    n, players = len(game.board), game.players
    missions = len(_missions(game))
    sizes = [
        ("owner", n * (players + 1)),
        ("armies", n),
        ("hand", n + 1),
        ("hand_sizes", players),
        ("alive", players),
        ("cards", 3),
        ("phase", len(_PHASES)),
        ("player", players + 2),
        ("turn", 4),
        ("battle", 2 * n + 5),
        ("mission", missions),
        ("capitals", n * players),
        ("moved", n),
        ("choice", 2 * n + 7),
        ("piles", 3 * n if game.chooses_piles else 0),
    ]
    if information:
        sizes.append(("discard", n + 1))
    blocks, start = {}, 0
    for name, size in sizes:
        blocks[name] = slice(start, start + size)
        start += size
    return MappingProxyType(blocks)


def _missions(game: Game) -> tuple[str, ...]:
    rules = game.rules
    return missions_for(rules.missions, game.players) if rules.missions != "none" else ()


def _game_of(game: object) -> Game:
    if isinstance(game, GameState):
        return game.game
    if not isinstance(game, Game):
        raise InvalidArgumentError(f"expected a Game or a GameState, got {shown(game)}")
    return game


def observation_layout(game: Game | GameState) -> Mapping[str, slice]:
    """The sections of :func:`observation`'s vector for ``game``, by name (slices covering it in order).

    Parameters
    ----------
    game : Game or GameState
        The game (a state stands for its game).

    Returns
    -------
    Mapping of str to slice
        Read-only; the sections in the vector's order, an absent one as an empty slice.

    Examples
    --------
    >>> import riskmath as rm
    >>> layout = observation_layout(rm.Game(3))
    >>> layout["owner"], layout["armies"], list(layout)[-2:]
    (slice(0, 168, None), slice(168, 210, None), ['choice', 'piles'])
    >>> layout["piles"]    # empty: three players choose no piles
    slice(636, 636, None)
    """
    return _layout(_game_of(game), False)


def information_state_layout(game: Game | GameState) -> Mapping[str, slice]:
    """The sections of :func:`information_state`: those of the observation, then ``discard``.

    Parameters
    ----------
    game : Game or GameState
        The game (a state stands for its game).

    Returns
    -------
    Mapping of str to slice
        As :func:`observation_layout`, with ``discard`` last.

    Examples
    --------
    >>> import riskmath as rm
    >>> list(information_state_layout(rm.Game(3)))[-1], list(observation_layout(rm.Game(3)))[-1]
    ('discard', 'piles')
    """
    return _layout(_game_of(game), True)


def checked_node(node: object, player: object) -> tuple[GameState, CountChoice | None, int]:
    """``node``'s state, its count choice (None if it is none) and ``player`` as an int, both checked.

    ``node`` is a :class:`~riskmath.GameState`, a
    :class:`~riskmath.envs.CountChoice` or a
    :class:`~riskmath.envs.BattleChance` (what the players see of a blitz in
    pieces: the state before its end); ``player`` a player id of its game.
    The one check of the functions that read a player's view of a node.

    Raises
    ------
    InvalidArgumentError
        Naming the bad node or player.
    """
    choice = None
    state = node
    if isinstance(node, CountChoice):
        choice, state = node, node.state
    elif isinstance(node, BattleChance):
        state = node.state
    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"expected a GameState (or a CountChoice or BattleChance), got {shown(node)}")
    players = state.game.players
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < players:
        raise InvalidArgumentError(f"player must be a player id in 0..{players - 1}, got {shown(player)}")
    return state, choice, int(player)


def observation(state: GameState, player: int, *, scaled: bool = False) -> np.ndarray:
    """What ``player`` sees of ``state``, as a new float32 vector laid out by :func:`observation_layout`.

    ``state`` may also be a :class:`~riskmath.envs.CountChoice` (its
    ``choice`` section is then filled) or a
    :class:`~riskmath.envs.BattleChance` (the state it belongs to).

    Parameters
    ----------
    state : GameState or CountChoice or BattleChance
    player : int
    scaled : bool, default False
        False: counts as they are and ``log(1 + x)`` for armies (unbounded
        entries).  True: every entry in [0, 1], for a network's input (see
        the module docstring), as the Gymnasium and PettingZoo environments
        observe by default.

    Raises
    ------
    InvalidArgumentError
        If ``state`` is not a state, or ``player`` not a player id of its game.

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(3).new_initial_state(seed=1, auto_chance=True)
    >>> vector = observation(state, 0)
    >>> vector.dtype, vector.shape, vector[observation_layout(state)["phase"]].argmax()
    (dtype('float32'), (636,), np.int64(3))
    >>> float(observation(state, 0, scaled=True).max())
    1.0
    """
    state, choice, player = checked_node(state, player)
    scaled = check_bool("scaled", scaled)
    vector = _vector(state, choice, player, information=False)
    return scale(vector, state.game, information=False, out=vector) if scaled else vector


def information_state(state: GameState, player: int, *, scaled: bool = False) -> np.ndarray:
    """The observation followed by the public card record (discard pile), laid out by
    :func:`information_state_layout` (``scaled`` as in :func:`observation`).

    Raises
    ------
    InvalidArgumentError
        As :func:`observation`.
    """
    state, choice, player = checked_node(state, player)
    scaled = check_bool("scaled", scaled)
    vector = _vector(state, choice, player, information=True)
    return scale(vector, state.game, information=True, out=vector) if scaled else vector


@functools.lru_cache(maxsize=64)
def _scales(game: Game, information: bool) -> tuple[np.ndarray, tuple[tuple[int, float], ...], np.ndarray]:
    """The factor of every entry of the scaled vector, the entries that hold plain counts with their factor, and
    the cap (ones: ``np.minimum`` with an array of the vector's type is a third of the time it takes with 1.0).

    An entry ``i`` scales to ``min(1, raw[i] * factor[i])``; a plain count (the sets traded, the next set's
    value, a blitz's ``stop_at`` or the armies to move in, the turn without a cap) to
    ``min(1, log(1 + raw[i]) * factor)``.  The sections that are ``log(1 + x)`` already (armies, the pool,
    the counts of a choice) get the factor ``1 / log(2**LOG_BITS)``, so both come out as ``log2(1 + x) /
    LOG_BITS``.
    """
    layout = _layout(game, information)
    n = len(game.board)
    log = 1.0 / math.log(2.0**LOG_BITS)
    factor = np.ones(max(block.stop for block in layout.values()), dtype=np.float32)
    wilds = max(1, game.full_deck.count(WILD))

    def at(section: str, k: int) -> int:
        return int(layout[section].start) + k

    factor[layout["armies"]] = log
    factor[at("hand", n)] = 1.0 / wilds
    factor[layout["hand_sizes"]] = 1.0 / HAND_SCALE
    counts = [at("cards", 0), at("cards", 1), at("battle", 2 * n + 3)]
    factor[at("cards", 2)] = 1.0 / max(1, len(game.full_deck))
    if game.max_turns is None:
        counts.append(at("turn", 0))
    else:
        factor[at("turn", 0)] = 1.0 / game.max_turns
    factor[at("turn", 1)] = log
    factor[at("battle", 2 * n + 4)] = 1.0 / game.rules.combat.defender_max_dice
    choice = layout["choice"]
    factor[choice.stop - 3 : choice.stop] = log
    if information:
        factor[at("discard", n)] = 1.0 / wilds
    factor.setflags(write=False)
    ones = np.ones_like(factor)
    ones.setflags(write=False)
    return factor, tuple((i, log) for i in counts), ones


def scale(vector: np.ndarray, game: Game, *, information: bool = False, out: np.ndarray | None = None) -> np.ndarray:
    """The scaled form (every entry in [0, 1]) of a vector of :func:`observation` (or :func:`information_state`
    with ``information=True``) of ``game``, into ``out`` (a new array if None; ``vector`` itself may be ``out``).

    The plain counts have the factor 1, so the product leaves them as they were; they are then taken one at a
    time (``math.log1p`` of a Python float beats a fancy-indexed ufunc on four entries).
    """
    factor, counts, ones = _scales(game, information)
    out = np.multiply(vector, factor, out=out)
    for i, log in counts:
        out[i] = math.log1p(float(out[i])) * log
    np.minimum(out, ones, out=out)
    return out


@functools.lru_cache(maxsize=64)
def _offsets(game: Game, information: bool) -> tuple[int, ...]:
    """The start of every section and the length, as plain ints (read on every call of :func:`_vector`)."""
    layout = _layout(game, information)
    return (*(block.start for block in layout.values()), max(block.stop for block in layout.values()))


@functools.lru_cache(maxsize=256)
def _owner_rows(owners: int, players: int, player: int) -> np.ndarray:
    """The owner section's row of each owner id seen by ``player`` (relative players, then one channel for
    every neutral), one row per owner id and a last, all-zero row that the id -1 (unclaimed) picks."""
    rows = np.zeros((owners + 1, players + 1), dtype=np.float32)
    for o in range(owners):
        rows[o, (o - player) % players if o < players else players] = 1.0
    rows.setflags(write=False)
    return rows


def _vector(state: GameState, choice: CountChoice | None, player: int, *, information: bool) -> np.ndarray:
    offsets = _offsets(state.game, information)  # the sections' starts in layout order, then the length
    out = np.zeros(offsets[-1], dtype=np.float32)
    pos = state.position
    _write_owner(out, state.game, pos.owner, player, offsets[0])
    _write_armies(out, pos.armies, offsets[1])
    _write_rest(out, state, player, offsets)
    if choice is not None:
        _write_choice(out, choice, len(pos.owner), offsets[13])
    return out


@functools.lru_cache(maxsize=256)
def _order(players: int, player: int) -> tuple[int, ...]:
    """The player ids in ``player``'s relative order: ``player``, then the next ones round the table."""
    return tuple((player + k) % players for k in range(players))


def _write_owner(out: np.ndarray, game: Game, owner: list[int], player: int, at: int) -> None:
    """The ``owner`` section: a one-hot row per territory, all zero while unclaimed."""
    rows = _owner_rows(game.owners, game.players, player)
    section = out[at : at + len(owner) * rows.shape[1]].reshape(len(owner), rows.shape[1])
    np.take(rows, owner, axis=0, out=section, mode="wrap")  # -1 (unclaimed) wraps to the zero row


def _write_armies(out: np.ndarray, armies: list[int], at: int) -> None:
    """The ``armies`` section: ``log(1 + armies)`` per territory (computed in float64, stored as float32)."""
    out[at : at + len(armies)] = np.log1p(armies)


def _write_rest(out: np.ndarray, state: GameState, player: int, offsets: tuple[int, ...]) -> None:
    """Every section after ``armies`` but ``choice``, into ``out`` whose entries there are all zero."""
    game, pos = state.game, state.position
    n, players = len(game.board), game.players
    hand_at, sizes_at = offsets[2:4]
    battle_at, mission_at, capitals_at, moved_at = offsets[9:13]
    index = game.index
    _write_cards(out, pos.hands[player], index, n, hand_at)
    # hand sizes, alive and cards are contiguous: one list, one assignment; then the one-hots and the turn
    hands, alive, order = pos.hands, pos.alive, _order(players, player)
    small = [len(hands[q]) for q in order]
    small += [alive[q] for q in order]
    small += [pos.sets_traded, _next_set_value(game, pos.sets_traded), len(pos.deck)]
    out[sizes_at : sizes_at + len(small)] = small
    phase_at, player_at, turn_at = offsets[6:9]
    out[phase_at + _PHASE_NUMBER[id(pos.phase)]] = 1.0
    mover = state.current_player
    out[player_at + ((mover - player) % players if mover >= 0 else players + (pos.phase is Phase.GAME_OVER))] = 1.0
    out[turn_at : turn_at + 4] = (pos.turn, math.log1p(pos.pool), pos.captured, pos.trade_down)
    pending = pos.pending if pos.pending is not None and pos.phase in _BATTLE_PHASES else None
    occupy = pos.occupy if pending is None and pos.occupy is not None and pos.phase is OCCUPY else None
    _write_battle(out, pending, occupy, n, battle_at)
    if pos.missions and len(pos.missions) == players:  # once all are dealt: indexed by player
        missions = _missions(game)
        if pos.missions[player] in missions:
            out[mission_at + missions.index(pos.missions[player])] = 1.0
    for q, t in _headquarters(pos, players):
        out[capitals_at + t * players + (q - player) % players] = 1.0
    for t in pos.moved:
        out[moved_at + t] = 1.0
    if pos.piles and offsets[15] > offsets[14]:  # the 1993 two-player piles being chosen
        _write_piles(out, pos.piles, offsets[14])
    if len(offsets) > 16:  # the information state: the discard pile
        _write_cards(out, pos.discard, index, n, offsets[15])


def _write_piles(out: np.ndarray, piles: list[int], at: int) -> None:
    """The ``piles`` section (starting at ``at``, all zero): each territory's pile, one-hot of three."""
    for t, k in enumerate(piles):
        if k >= 0:
            out[at + 3 * t + k] = 1.0


def _battle_entries(pending: PendingBattle | None, occupy: Capture | None, n: int, at: int) -> list[tuple[int, int]]:
    """The nonzero entries ``(index, value)`` of the ``battle`` section starting at ``at``: the pending attack
    or blitz, or the capture (none if neither)."""
    if pending is not None:
        kind, source, target, dice, _, defense = pending
        return [
            (at + source, 1),
            (at + n + target, 1),
            (at + 2 * n + (0 if kind == "attack" else 1), 1),
            (at + 2 * n + 3, dice),
            (at + 2 * n + 4, defense or 0),
        ]
    if occupy is not None:
        source, target, least = occupy
        return [(at + source, 1), (at + n + target, 1), (at + 2 * n + 2, 1), (at + 2 * n + 3, least)]
    return []


def _headquarters(pos: Position, players: int) -> list[tuple[int, int]]:
    """``(player, territory)`` of every headquarters chosen so far: by player once all are chosen, else in the order
    of choice from ``pos.first`` round the table (choices made in the open, shown as they are made; until
    2026-12-03 the vector showed none until the last)."""
    if len(pos.capitals) == players:
        return list(enumerate(pos.capitals))
    return [(capital_chooser(pos.first, k, players), t) for k, t in enumerate(pos.capitals)]


def _write_battle(out: np.ndarray, pending: PendingBattle | None, occupy: Capture | None, n: int, at: int) -> None:
    """The ``battle`` section (starting at ``at``, all zero): the pending attack or blitz, or the capture."""
    for k, value in _battle_entries(pending, occupy, n, at):
        out[k] = value


def _write_cards(out: np.ndarray, cards: list[str], index: Mapping[str, int], n: int, at: int) -> None:
    """Counts of ``cards`` laid out as ``hand``: one per territory card, then the wilds (counted in Python,
    then written once each: an in-place add on one NumPy element costs more than a dict update)."""
    counts: dict[int, int] = {}
    for card in cards:
        k = at + (n if card == WILD else index[card])
        counts[k] = counts.get(k, 0) + 1
    for k, count in counts.items():
        out[k] = count


def _choice_entries(choice: CountChoice, n: int, at: int) -> list[tuple[int, float]]:
    """The entries ``(index, value)`` of the ``choice`` section starting at ``at`` that may be nonzero."""
    entries = [(at + _CHOICE_KINDS.index(choice.kind), 1.0)]
    if choice.source >= 0:
        entries.append((at + 4 + choice.source, 1.0))
    if choice.target >= 0:
        entries.append((at + 4 + n + choice.target, 1.0))
    entries += [
        (at + 4 + 2 * n, _log1p(choice.chosen)),
        (at + 5 + 2 * n, _log1p(choice.low)),
        (at + 6 + 2 * n, _log1p(choice.high)),
    ]
    return entries


def _write_choice(out: np.ndarray, choice: CountChoice, n: int, at: int) -> None:
    """The ``choice`` section (starting at ``at``, all zero) for a pending count."""
    for k, value in _choice_entries(choice, n, at):
        out[k] = value


#: ``log(1 + k)`` for small counts, computed by NumPy as the army section is (a table read beats a ufunc call).
#: Kept as a list of Python floats (the same float64 values): reading a list beats indexing an array.
_LOG1P: list[float] = np.log1p(np.arange(1024, dtype=np.float64)).tolist()


def _log1p(count: int) -> float:
    return _LOG1P[count] if count < 1024 else float(np.log1p(np.float64(count)))


class Observer:
    """The observation vectors of one game's players, kept in preallocated buffers and updated in place.

    For the environments' hot loop (internal): :meth:`view` returns the
    vector of :func:`observation` (or :func:`information_state`) for a node
    and a player without allocating.  Each player's buffer remembers the
    node it shows (nodes are immutable, so the same node means the same
    vector), the state under it, and for every section the values it was
    written from (the owner and army lists, the hand, the phase and the
    mover, the pending battle, ...).  A new node rewrites only the sections
    whose values changed: most moves change a few armies, the phase or the
    mover and the turn's counts, and nothing else.  Of the armies only the
    changed entries are rewritten; of the one-hots, the battle and the
    count choice only the entries that were or become nonzero (a count step,
    a new :class:`~riskmath.envs.CountChoice` on the same state, rewrites
    only its ``choice`` entries); the other small sections are zeroed and
    written whole when they change.  The values written are those of
    :func:`observation`, so the vector is the same bit for bit.  Single
    entries are written through a ``memoryview`` of the buffer (a third of
    the time of a NumPy item assignment; the same float32 rounding).  The
    buffer is the observer's: callers copy what they hand out, or take
    :meth:`copy`, which hands out a new array (scaled if the observer was
    made with ``scaled=True``).
    """

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Copied and pickled as a new observer of the same game and options: the buffers (viewed through
        memoryviews, which ``pickle`` refuses) are a cache, written again on the next view."""
        return (_new_observer, (self.game, self.information, self.scaled))

    def __init__(self, game: Game, *, information: bool = False, scaled: bool = False) -> None:
        self.game = game
        self.information = information
        self.scaled = scaled
        self._offsets = offsets = _offsets(game, information)
        self._buffers = np.zeros((game.players, offsets[-1]), dtype=np.float32)
        # the same memory, entry by entry (typed Any: typeshed's memoryview takes ints only, 'f' takes floats)
        self._entries: list[Any] = [row.data for row in self._buffers]
        self._nodes: list[object] = [None] * game.players
        self._states: list[GameState | None] = [None] * game.players
        self._owners: list[list[int] | None] = [None] * game.players
        self._armies: list[list[int] | None] = [None] * game.players
        # per player, what each small section was written from (see _SECTION_KEYS); _UNSET: write it whole
        self._keys: list[list[Any]] = [list(_FRESH_KEYS) for _ in range(game.players)]
        # per player, the tensor list of values() and what view() rewrote since: entries (ints) and slices
        self._values: list[list[float] | None] = [None] * game.players
        self._dirty: list[list[int | slice] | None] = [None] * game.players
        self._slices = tuple(slice(a, b) for a, b in itertools.pairwise(offsets))
        # per player, the owner section's column of each owner id (relative players, then the neutrals)
        self._columns = tuple(
            tuple(_owner_rows(game.owners, game.players, p).argmax(axis=1)[:-1].tolist()) for p in range(game.players)
        )
        self._set_values: dict[int, int] = {}
        self._n, self._players = len(game.board), game.players

    def view(self, node: GameState | CountChoice, player: int) -> np.ndarray:
        """The vector of ``node`` for ``player`` (an id of the game), as the observer's own buffer."""
        out: np.ndarray = self._buffers[player]
        if self._nodes[player] is node:
            return out
        if isinstance(node, CountChoice):
            state, choice = node.state, node
        else:
            state, choice = node, None
        if state.game is not self.game:
            raise InvalidArgumentError(f"the state belongs to {state.game!r}, not to this observer's {self.game!r}")
        self._nodes[player] = None  # until the buffer is whole again
        try:
            if self._states[player] is not state:  # a new state (not only a count step on the same one)
                self._states[player] = None
                self._write_state(out, state, player)
                self._states[player] = state
            keys = self._keys[player]
            if choice is not keys[_CHOICE]:
                entries = (
                    [] if choice is None else _choice_entries(choice, len(state.position.owner), self._offsets[13])
                )
                self._write_entries(player, _CHOICE, choice, entries)
        except BaseException:  # a section half written: forget what every section was written from
            self._forget(player)
            raise
        dirty = self._dirty[player]
        if dirty is not None and len(dirty) > _DIRTY_MOST:  # views without values(): list it whole next time
            self._values[player] = self._dirty[player] = None
        self._nodes[player] = node
        return out

    def _forget(self, player: int) -> None:
        """Make the next :meth:`view` for ``player`` write every section (on a zero buffer), and :meth:`values`
        list it whole."""
        self._nodes[player] = self._states[player] = self._owners[player] = self._armies[player] = None
        self._keys[player] = list(_FRESH_KEYS)
        self._values[player] = self._dirty[player] = None
        self._buffers[player] = 0.0

    def _write_entries(self, player: int, section: int, key: object, entries: list[tuple[int, Any]]) -> None:
        """Record ``key`` for a sparse ``section`` (the one-hots, the battle, the choice): the entries written for
        the last key back to zero, then ``entries`` (``(index, value)``; values as :func:`observation` writes)."""
        keys, at = self._keys[player], self._entries[player]
        before = keys[section + 1]
        keys[section], keys[section + 1] = _UNSET, ()
        for k in before:
            at[k] = 0.0
        written = []
        for k, value in entries:
            at[k] = value
            written.append(k)
        keys[section], keys[section + 1] = key, written
        dirty = self._dirty[player]
        if dirty is not None:
            dirty += before
            dirty += written

    def _write_state(self, out: np.ndarray, state: GameState, player: int) -> None:
        """Every section but ``choice`` for a new ``state``: those whose values changed (see the class)."""
        game, pos, offsets, slices = self.game, state.position, self._offsets, self._slices
        keys, at, dirty = self._keys[player], self._entries[player], self._dirty[player]
        changed: list[int | slice] = [] if dirty is None else dirty
        owner, owners = pos.owner, self._owners[player]
        if owners is None:
            _write_owner(out, game, owner, player, offsets[0])
            self._owners[player] = owner[:]
            changed.append(slices[0])
        elif owner != owners:  # a claim or a capture: only the changed territories' rows
            columns, width, start, t = self._columns[player], self._players + 1, offsets[0], -1
            differ = list(map(operator.ne, owner, owners))
            for _ in range(differ.count(True)):
                t = differ.index(True, t + 1)
                row, was, o = start + t * width, owners[t], owner[t]
                if was >= 0:
                    at[row + columns[was]] = 0.0
                    changed.append(row + columns[was])
                owners[t] = o
                if o >= 0:
                    at[row + columns[o]] = 1.0
                    changed.append(row + columns[o])
        armies, before = pos.armies, self._armies[player]
        if before is None:
            _write_armies(out, armies, offsets[1])
            self._armies[player] = armies[:]
            changed.append(slices[1])
        elif armies != before:  # most moves change one or two territories: rewrite those only
            start, t = offsets[1], -1
            differ = list(map(operator.ne, armies, before))
            for _ in range(differ.count(True)):
                t = differ.index(True, t + 1)
                count = before[t] = armies[t]
                at[start + t] = _LOG1P[count] if count < 1024 else _log1p(count)
                changed.append(start + t)
        n, players = self._n, self._players
        hand = pos.hands[player]
        if hand != keys[_HAND]:
            keys[_HAND] = _UNSET
            out[slices[2]] = 0.0
            _write_cards(out, hand, game.index, n, offsets[2])
            keys[_HAND] = hand[:]
            changed.append(slices[2])
        # hand sizes, alive and cards are contiguous: one list, one assignment when it changed
        hands, alive, traded = pos.hands, pos.alive, pos.sets_traded  # in the observer's relative order
        value = self._set_values.get(traded)
        if value is None:
            value = self._set_values[traded] = _next_set_value(game, traded)
        small = [*map(len, hands[player:]), *map(len, hands[:player]), *alive[player:], *alive[:player]]
        small += [traded, value, len(pos.deck)]
        if small != keys[_SMALL]:
            keys[_SMALL] = _UNSET
            block = slice(offsets[3], offsets[3] + len(small))
            out[block] = small
            keys[_SMALL] = small
            changed.append(block)
        phase = pos.phase
        mover = state.current_player
        ones = (
            offsets[6] + _PHASE_NUMBER[id(phase)],
            offsets[7] + ((mover - player) % players if mover >= 0 else players + (phase is GAME_OVER)),
        )
        if ones != keys[_ONES]:  # the phase and the mover, one-hot
            self._write_entries(player, _ONES, ones, [(ones[0], 1.0), (ones[1], 1.0)])
        turn = (pos.turn, pos.pool, pos.captured, pos.trade_down)
        if turn != keys[_TURN]:
            keys[_TURN] = _UNSET
            k = offsets[8]
            at[k], at[k + 1], at[k + 2], at[k + 3] = pos.turn, math.log1p(pos.pool), pos.captured, pos.trade_down
            keys[_TURN] = turn
            changed.append(slices[8])
        pending = pos.pending if pos.pending is not None and phase in _BATTLE_PHASES else None
        occupy = pos.occupy if pending is None and pos.occupy is not None and phase is OCCUPY else None
        battle = (pending, occupy)
        if battle != keys[_BATTLE]:
            self._write_entries(player, _BATTLE, battle, _battle_entries(pending, occupy, n, offsets[9]))
        mission = pos.missions[player] if pos.missions and len(pos.missions) == players else None
        if mission != keys[_MISSION]:
            keys[_MISSION] = _UNSET
            out[slices[10]] = 0.0
            missions = _missions(game)
            if mission in missions:
                out[offsets[10] + missions.index(mission)] = 1.0
            keys[_MISSION] = mission
            changed.append(slices[10])
        capitals = (pos.first, tuple(pos.capitals)) if pos.capitals else None  # (the choosers follow from first)
        if capitals != keys[_CAPITALS]:
            keys[_CAPITALS] = _UNSET
            out[slices[11]] = 0.0
            capitals_at = offsets[11]
            for q, t in _headquarters(pos, players):
                out[capitals_at + t * players + (q - player) % players] = 1.0
            keys[_CAPITALS] = capitals
            changed.append(slices[11])
        if pos.moved != keys[_MOVED]:
            keys[_MOVED] = _UNSET
            out[slices[12]] = 0.0
            moved_at = offsets[12]
            for t in pos.moved:
                out[moved_at + t] = 1.0
            keys[_MOVED] = pos.moved[:]
            changed.append(slices[12])
        if offsets[15] > offsets[14] and pos.piles != keys[_PILES]:
            keys[_PILES] = _UNSET
            out[slices[14]] = 0.0
            _write_piles(out, pos.piles, offsets[14])
            keys[_PILES] = pos.piles[:]
            changed.append(slices[14])
        if self.information and pos.discard != keys[_DISCARD]:
            keys[_DISCARD] = _UNSET
            out[slices[15]] = 0.0
            _write_cards(out, pos.discard, game.index, n, offsets[15])
            keys[_DISCARD] = pos.discard[:]
            changed.append(slices[15])

    def values(self, node: GameState | CountChoice, player: int) -> list[float]:
        """The vector of :meth:`view` as a new list of Python floats (OpenSpiel's tensor type), unscaled.

        ``ndarray.tolist`` makes a float object for every entry (about 20 microseconds for the classic
        board's 700-odd); each player's last list is kept instead, with only the entries and slices that
        :meth:`view` rewrote since read again, and a copy (which shares the float objects) is handed out.
        """
        raw = self.view(node, player)
        values = self._values[player]
        if values is None:
            values = self._values[player] = raw.tolist()
            self._dirty[player] = []
        else:
            dirty = self._dirty[player]
            if dirty:
                at = self._entries[player]
                for block in dirty:  # an entry, or a slice (a list's slice takes the memoryview's floats)
                    values[block] = at[block]
                dirty.clear()
        return values.copy()

    def copy(self, node: GameState | CountChoice, player: int) -> np.ndarray:
        """The vector of ``node`` for ``player`` as a new array: :meth:`view`'s, scaled if the observer scales."""
        raw = self.view(node, player)
        return scale(raw, self.game, information=self.information) if self.scaled else raw.copy()


def _next_set_value(game: Game, traded: int) -> int:
    """The value of the next set traded in the game (0 under a fixed table, where it depends on the cards)."""
    return _set_value_after(game.rules.set_values, traded)


@functools.lru_cache(maxsize=1024)
def _set_value_after(values: SetValues, traded: int) -> int:
    # (keyed by the set values, not the game: a cache keyed by games kept a thousand of them alive)
    try:
        return values.value(traded + 1)
    except CardError:
        return 0


def observation_string(state: GameState, player: int) -> str:
    """What ``player`` sees of ``state``, as readable text (the same information as :func:`observation`).

    Parameters
    ----------
    state : GameState
        Or a count choice or a blitz piece, as :func:`observation` takes.
    player : int
        The player who looks.

    Returns
    -------
    str
        Lines of text: the turn and phase, then every territory and what the player may see of the others.

    Raises
    ------
    InvalidArgumentError
        As :func:`observation`.

    Examples
    --------
    >>> import riskmath as rm
    >>> state = rm.Game(3).new_initial_state(seed=1, auto_chance=True)
    >>> print(observation_string(state, 0).splitlines()[0])
    player 0 sees: turn 0, SETUP_CLAIM, player 1 to move
    """
    state, choice, player = checked_node(state, player)
    game, pos = state.game, state.position
    names = game.board.territories
    mover = state.current_player
    who = "chance" if state.is_chance_node() else "nobody (the game is over)" if mover < 0 else f"player {mover}"
    lines = [f"player {player} sees: turn {pos.turn}, {pos.phase.name}, {who} to move"]
    if pos.pool:
        lines.append(f"armies to place: {pos.pool}")
    lines.append(f"your cards: {', '.join(pos.hands[player]) or 'none'}")
    others = [f"player {q} {len(pos.hands[q])}" for q in range(game.players) if q != player]
    lines.append(f"cards held: {', '.join(others)}; sets traded {pos.sets_traded}; deck {len(pos.deck)}")
    if player < len(pos.missions) and len(pos.missions) == game.players:
        lines.append(f"your mission: {mission_text(pos.missions[player])}")
    out = [q for q in range(game.players) if not pos.alive[q]]
    if out:
        lines.append("out of the game: " + ", ".join(f"player {q}" for q in out))
    if pos.pending is not None and pos.phase in (Phase.DEFEND, Phase.ROLL, Phase.BLITZ):
        kind, source, target, dice, _, _ = pos.pending
        extra = f"{dice} dice" if kind == "attack" else f"stop at {dice}"
        lines.append(f"pending {kind}: {names[source]} -> {names[target]} ({extra})")
    if pos.occupy is not None and pos.phase is Phase.OCCUPY:
        source, target, least = pos.occupy
        lines.append(f"captured: {names[source]} -> {names[target]}, at least {least} to move in")
    if choice is not None:
        lines.append(f"choosing the count of {choice.kind}: {choice.chosen} so far, legal {choice.low}..{choice.high}")
    for k in sorted(set(pos.piles) - {-1}):  # the 1993 two-player piles being chosen
        lines.append(f"pile {k}: " + ", ".join(names[t] for t, pile in enumerate(pos.piles) if pile == k))
    for t, name in enumerate(names):
        o = pos.owner[t]
        holder = "unclaimed" if o < 0 else "you" if o == player else game.owner_name(o)
        lines.append(f"  {name}: {holder} {pos.armies[t]}")
    return "\n".join(lines)


def _new_observer(game: Game, information: bool, scaled: bool) -> Observer:
    """An :class:`Observer` from its arguments (what :meth:`Observer.__reduce__` rebuilds)."""
    return Observer(game, information=information, scaled=scaled)
