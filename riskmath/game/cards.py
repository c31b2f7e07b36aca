"""RISK cards: symbols, decks, sets, set values, territory bonuses and hand limits.

Pure data and pure functions; the game engine owns the deck order and shuffles it.  The classic deck has 42
territory cards (one territory and one symbol each, 14 of each symbol) and 2 wilds (all three symbols, no territory).
Which territory carries which symbol is *edition data* (:data:`CARD_SYMBOLS`); no rule depends on it.  A set is three
of a kind, one of each, or any two plus a wild; :class:`SetValues` gives the armies for the n-th set of the game.

References: the 1993 US rules [R1] and the card data [C1]-[C8] of ``docs/sources.rst``; the Japanese Wikipedia article.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from riskmath._validation import check_choice, check_cost, check_int
from riskmath.errors import CardError, InvalidArgumentError

__all__ = [
    "ARTICLE", "BONUS_KINDS", "CARD_SYMBOLS", "EXPERTS_1993", "FIXED_F1", "FIXED_F2", "FIXED_F3", "MAX_ARMIES",
    "PROGRESSIVE_1993", "SET_TYPES", "TRADE_DOWN_1993", "TRADE_DOWN_ARTICLE", "WILD", "BonusKind", "Card", "Deck",
    "SetValues", "Symbol", "bonus_candidates", "classic_deck", "deck_counts", "find_sets", "full_deck", "has_set",
    "is_set", "set_types", "territory_bonus", "trade_down_needed", "trades_required",
]  # fmt: skip


#: What one value of :meth:`SetValues.values` costs: bytes (a list entry and an int object), seconds (about 1 us
#: measured, counted twice over).
_VALUE_BYTES, _VALUE_SECONDS = 40, 2e-6


def _int(name: str, value: object, minimum: int = 0, maximum: int | None = None) -> int:
    try:
        return check_int(name, value, minimum=minimum, maximum=maximum)
    except InvalidArgumentError as exc:
        raise CardError(str(exc)) from None


def _choice(name: str, value: object, choices: Iterable[str]) -> str:
    try:
        return check_choice(name, value, choices)
    except InvalidArgumentError as exc:
        raise CardError(str(exc)) from None


class Symbol(enum.Enum):
    """The symbol on a card; a wild card counts as any of the other three.

    Examples
    --------
    >>> Symbol("wild"), [s.value for s in Symbol][:3]
    (Symbol.WILD, ['infantry', 'cavalry', 'artillery'])
    """

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    ARTILLERY = "artillery"
    WILD = "wild"

    def __repr__(self) -> str:
        return f"Symbol.{self.name}"


#: The name of a wild card in the engine's decks, hands and trades (territory cards go by territory name).
WILD = Symbol.WILD.value


def _check_symbol(value: object, expected: str = "a Symbol") -> Symbol:
    if not isinstance(value, Symbol):
        raise CardError(f"expected {expected}, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Card:
    """One RISK card: a territory name and a symbol, or ``(None, Symbol.WILD)`` for a wild card.

    Examples
    --------
    >>> Card("Alaska", Symbol.INFANTRY)
    Card('Alaska', Symbol.INFANTRY)
    >>> Card(None, Symbol.WILD).is_wild
    True
    """

    territory: str | None
    symbol: Symbol

    def __post_init__(self) -> None:
        wild, territory = _check_symbol(self.symbol) is Symbol.WILD, self.territory
        if territory is not None if wild else not (isinstance(territory, str) and territory):
            need = "no territory" if wild else "a territory name"
            raise CardError(f"a {self.symbol.value} card needs {need}, got {territory!r}")

    def __repr__(self) -> str:
        return f"Card({self.territory!r}, {self.symbol!r})"

    @property
    def is_wild(self) -> bool:
        """True for a wild card."""
        return self.symbol is Symbol.WILD


#: A deck or a hand: an immutable sequence of cards.  The engine shuffles it (e.g. with ``rng.permutation``).
Deck: TypeAlias = tuple[Card, ...]

# [C1]-[C7] of docs/sources.rst, board order.  "Territory=xyz": x, y, z are the symbols under mappings B, A and C,
# written I (infantry), C (cavalry) or A (artillery).
_SYMBOL_TABLE = """
Alaska=IAI; Northwest Territory=ACA; Greenland=CCC; Alberta=CAI; Ontario=CAC; Quebec=CAA
Western United States=AAI; Eastern United States=AAA; Central America=AIC; Venezuela=ICA; Peru=ICC; Brazil=AIA
Argentina=III; Iceland=ICI; Scandinavia=CIA; Great Britain=AIC; Northern Europe=ACC; Western Europe=AII
Southern Europe=AIC; Ukraine=CIA; North Africa=CII; Egypt=ICI; East Africa=IIA; Congo=IAC; South Africa=AAA
Madagascar=CCI; Ural=CIC; Siberia=CIA; Yakutsk=CAC; Kamchatka=IAC; Irkutsk=CAI; Mongolia=ICA; Japan=ACI
Afghanistan=CII; China=IAC; Middle East=IAA; India=CCI; Siam=ICA; Indonesia=AIC; New Guinea=ICC
Western Australia=AAA; Eastern Australia=ACI
"""
_LETTERS = {"I": Symbol.INFANTRY, "C": Symbol.CAVALRY, "A": Symbol.ARTILLERY}
_ROWS = [item.strip().split("=") for item in _SYMBOL_TABLE.replace("\n", ";").split(";") if item.strip()]

#: Card symbol of each classic territory, by transcription ([C1]-[C7], docs/sources.rst; [U]).  "B" is the suggested
#: default (the most widely repeated list; Siberia = cavalry as in the table, giving 14/14/14); "A" is hacker_risk /
#: wdom-ts; "C" is Yura's Domination ``risk.cards``.  Each has 42 entries, 14 of each symbol.
CARD_SYMBOLS: dict[str, dict[str, Symbol]] = {
    key: {name: _LETTERS[letters[column]] for name, letters in _ROWS} for column, key in enumerate("BAC")
}


def _mapping(symbols: object) -> Mapping[str, Symbol]:
    if isinstance(symbols, str):
        return CARD_SYMBOLS[_choice("symbols", symbols, CARD_SYMBOLS)]
    if not isinstance(symbols, Mapping):
        raise CardError(f"symbols must be a mapping name or a Mapping[str, Symbol], got {symbols!r}")
    for territory, symbol in symbols.items():
        if _check_symbol(symbol) is Symbol.WILD:
            raise CardError(f"territory {territory!r} cannot carry Symbol.WILD")
    return symbols


def _names(territories: object) -> tuple[str, ...]:
    if isinstance(territories, str) or not isinstance(territories, Iterable):
        raise CardError(f"territories must be a sequence of names, got {territories!r}")
    names = tuple(territories)
    bad = [name for name in names if not isinstance(name, str)]
    twice = [name for i, name in enumerate(names) if name in names[:i]]
    if bad or twice:
        raise CardError(f"territory names must be distinct strings, got {(bad or twice)[0]!r}")
    return names


def full_deck(territories: Sequence[str], symbols: str | Mapping[str, Symbol] = "B", wilds: int = 2) -> Deck:
    """One card per territory, in the given order, then ``wilds`` wild cards (44 cards on the classic map).

    Works on any map (e.g. a small test map) as long as ``symbols`` has an entry for every territory given.  Raises
    :class:`CardError` for an unknown mapping name, a territory missing from it, a repeated territory, ``wilds < 0``.

    Examples
    --------
    >>> full_deck(["Alaska", "Kamchatka"], wilds=1)
    (Card('Alaska', Symbol.INFANTRY), Card('Kamchatka', Symbol.INFANTRY), Card(None, Symbol.WILD))
    """
    mapping, names, count = _mapping(symbols), _names(territories), _int("wilds", wilds)
    for name in names:
        if name not in mapping:
            raise CardError(f"the symbol mapping has no entry for territory {name!r}")
    return tuple(Card(name, mapping[name]) for name in names) + (Card(None, Symbol.WILD),) * count


def classic_deck(territories: Sequence[str], *, symbols: str | Mapping[str, Symbol] = "B", wilds: int = 2) -> Deck:
    """The complete deck: a card for every territory of the mapping, in the given order, plus the wilds.

    Unlike :func:`full_deck`, the territories must be exactly those of the mapping (all 42 for "B", "A", "C"):
    raises :class:`CardError` if one is missing.

    Examples
    --------
    >>> deck = classic_deck(list(CARD_SYMBOLS["B"]))
    >>> len(deck), deck[0], deck[-1]
    (44, Card('Alaska', Symbol.INFANTRY), Card(None, Symbol.WILD))
    """
    mapping, names = _mapping(symbols), _names(territories)
    absent = [name for name in mapping if name not in names]
    if absent:
        raise CardError(f"the deck needs a card for every territory of the mapping; missing {absent!r}")
    return full_deck(names, mapping, wilds)


def deck_counts(cards: Iterable[Card]) -> dict[Symbol, int]:
    """Number of cards of each symbol (all four keys, in enum order), for invariant checks.

    Examples
    --------
    >>> deck_counts(classic_deck(list(CARD_SYMBOLS["A"])))
    {Symbol.INFANTRY: 14, Symbol.CAVALRY: 14, Symbol.ARTILLERY: 14, Symbol.WILD: 2}
    """
    counts = dict.fromkeys(Symbol, 0)
    for symbol in _symbols_of(cards):
        counts[symbol] += 1
    return counts


def _symbols_of(cards: Iterable[Card | Symbol]) -> tuple[Symbol, ...]:
    items: tuple[object, ...] = tuple(cards)
    return tuple(item.symbol if isinstance(item, Card) else _check_symbol(item, "a Card or a Symbol") for item in items)


def is_set(cards: Iterable[Card | Symbol]) -> bool:
    """True if ``cards`` are exactly three cards forming a set (cards or bare symbols are accepted).

    A set is three of a kind, one of each, or any two cards plus a wild, so any three cards that include a wild
    (two or three wilds too) form a set.  Any other number of cards is not a set.

    Examples
    --------
    >>> I, C, A, W = Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY, Symbol.WILD
    >>> is_set([I, I, I]), is_set([I, C, A]), is_set([I, I, W]), is_set([I, I, C]), is_set([I, C, A, W])
    (True, True, True, False, False)
    """
    symbols = _symbols_of(cards)
    return len(symbols) == 3 and (Symbol.WILD in symbols or len(set(symbols)) in (1, 3))


def find_sets(hand: Sequence[Card | Symbol]) -> list[tuple[int, int, int]]:
    """Index triples ``(i, j, k)``, ``i < j < k``, of the cards of ``hand`` that form a set, in lexicographic order.

    Examples
    --------
    >>> I, C, A, W = Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY, Symbol.WILD
    >>> find_sets([I, I, C, A])
    [(0, 2, 3), (1, 2, 3)]
    """
    symbols = _symbols_of(hand)
    triples = itertools.combinations(range(len(symbols)), 3)
    return [(i, j, k) for i, j, k in triples if is_set((symbols[i], symbols[j], symbols[k]))]


def has_set(hand: Sequence[Card | Symbol]) -> bool:
    """True if some three cards of ``hand`` form a set; always true for 5 or more cards.

    Examples
    --------
    >>> I, C = Symbol.INFANTRY, Symbol.CAVALRY
    >>> has_set([I, I, C, C]), has_set([I, I, C, C, C])
    (False, True)
    """
    return bool(find_sets(hand))


#: The most armies a rule hands out at once or a territory holds without a cap (10**9): a set's value (a
#: progressive schedule stops rising there), ``Rules.min_reinforcement``, ``Rules.max_armies_per_territory``, a
#: continent's bonus.  The pools and stacks of any game then stay far inside a saved state's 64-bit integers.
MAX_ARMIES = 10**9

#: Entries a fixed-value table may have.  The first four are required; the last two are optional.
SET_TYPES = ("three_infantry", "three_cavalry", "three_artillery", "one_of_each", "pair_and_wild", "three_wilds")
_THREE = {Symbol.INFANTRY: "three_infantry", Symbol.CAVALRY: "three_cavalry", Symbol.ARTILLERY: "three_artillery"}


def _as_set(cards: Iterable[Card | Symbol]) -> tuple[Symbol, ...]:
    items = tuple(cards)
    symbols = _symbols_of(items)
    if not is_set(symbols):
        raise CardError(f"not a set: {list(items)!r}")
    return symbols


def set_types(cards: Iterable[Card | Symbol]) -> tuple[str, ...]:
    """Every :data:`SET_TYPES` entry a set can be read as (in that order).

    Each wild may be read as infantry, cavalry, artillery or as itself.  "pair_and_wild" is a pair of one symbol plus
    one wild, "three_wilds" is three wilds.  So wild + 2 infantry reads as "three_infantry" or "pair_and_wild", and
    2 wilds + infantry as "three_infantry", "one_of_each" or "pair_and_wild".  Raises :class:`~riskmath.CardError` for a
    non-set.

    Examples
    --------
    >>> I, C, W = Symbol.INFANTRY, Symbol.CAVALRY, Symbol.WILD
    >>> set_types([I, I, W]), set_types([I, C, W])
    (('three_infantry', 'pair_and_wild'), ('one_of_each',))
    """
    choices = [tuple(Symbol) if s is Symbol.WILD else (s,) for s in _as_set(cards)]
    found: set[str] = set()
    for reading in itertools.product(*choices):
        plain = [s for s in reading if s is not Symbol.WILD]
        if len(plain) == 3 and len(set(plain)) == 1:
            found.add(_THREE[plain[0]])
        elif len(plain) == 3 and len(set(plain)) == 3:
            found.add("one_of_each")
        elif len(plain) == 2 and plain[0] is plain[1]:
            found.add("pair_and_wild")
        elif not plain:
            found.add("three_wilds")
    return tuple(t for t in SET_TYPES if t in found)


@dataclass(frozen=True, slots=True)
class SetValues:
    """Armies received for a traded set: a progressive schedule or a fixed table.

    Build one with :meth:`preset`, :meth:`custom` or :meth:`fixed`.  Instances are immutable, hashable and
    picklable; ``name`` is only a label and takes no part in ``==``.

    Parameters
    ----------
    kind : {"progressive", "fixed"}
        Progressive: the value depends on how many sets have been traded in the game.  Fixed: on the cards.
    start, then_add : tuple of int, int
        Progressive: the values of sets ``1..len(start)``, then ``then_add`` more per set, up to
        :data:`~riskmath.game.cards.MAX_ARMIES` (10**9; every value and ``then_add`` at most that too).
        Stored canonically (trailing values that ``then_add`` implies are dropped), so equal schedules compare
        equal.
    table : tuple of (str, int)
        Fixed: ``(set type, value)`` pairs, set types from :data:`~riskmath.game.cards.SET_TYPES`; the first four are
        required; values 1 to :data:`~riskmath.game.cards.MAX_ARMIES`.
    name : str
        A label, e.g. the preset name.

    Notes
    -----
    A set containing wilds is worth the best entry it can be read as (:func:`~riskmath.game.cards.set_types`): wild + 2
    infantry counts as 3 infantry unless the table has a larger "pair_and_wild" entry; 3 wilds count as the best of
    everything unless the table has "three_wilds".  Domination's Italian mode (the source of F2's
    "pair_and_wild" = 12) accepts *only* two of a kind + wild as a set with wilds; here every 1993 set is valid
    under every table.

    Examples
    --------
    >>> SetValues("progressive", start=(4, 6, 8, 10, 12), then_add=2)    # stored canonically
    SetValues(kind='progressive', start=(4,), then_add=2, name='custom')
    """

    kind: Literal["progressive", "fixed"]
    start: tuple[int, ...] = ()
    then_add: int = 0
    table: tuple[tuple[str, int], ...] = ()
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        kind, start, table = _choice("kind", self.kind, ("progressive", "fixed")), self.start, self.table
        if not isinstance(self.name, str) or not isinstance(start, tuple) or not isinstance(table, tuple):
            raise CardError(f"name must be a str, start and table tuples; got {self.name!r}, {start!r}, {table!r}")
        if kind == "progressive":
            values = [_int("set value", v, minimum=1, maximum=MAX_ARMIES) for v in start]
            step = _int("then_add", self.then_add, maximum=MAX_ARMIES)
            if not values or table:
                raise CardError(f"a progressive schedule needs start values and no table, got {start!r}, {table!r}")
            while len(values) >= 2 and values[-1] - values[-2] == step:
                values.pop()
            object.__setattr__(self, "start", tuple(values))
            object.__setattr__(self, "then_add", step)
            return
        if start or self.then_add:
            raise CardError(f"a fixed table takes no start/then_add, got {start!r}, {self.then_add!r}")
        entries: dict[str, int] = {}
        for pair in table:
            if not isinstance(pair, tuple) or len(pair) != 2 or pair[0] in entries:
                raise CardError(f"table entries must be distinct (set type, value) pairs, got {pair!r}")
            entries[_choice("set type", pair[0], SET_TYPES)] = _int(
                f"value of {pair[0]!r}", pair[1], minimum=1, maximum=MAX_ARMIES
            )
        missing = [t for t in SET_TYPES[:4] if t not in entries]
        if missing:
            raise CardError(f"a fixed table needs values for {missing!r}")
        object.__setattr__(self, "table", tuple((t, entries[t]) for t in SET_TYPES if t in entries))

    def __repr__(self) -> str:
        body = f"start={self.start}, then_add={self.then_add}" if self.kind == "progressive" else f"table={self.table}"
        return f"SetValues(kind={self.kind!r}, {body}, name={self.name!r})"

    @classmethod
    def preset(cls, name: str) -> SetValues:
        """A named schedule, one of :meth:`presets`.

        Examples
        --------
        >>> SetValues.presets()
        ('progressive_1993', 'article', 'experts_1993', 'fixed_F1', 'fixed_F2', 'fixed_F3')
        >>> SetValues.preset("progressive_1993").values(8)
        [4, 6, 8, 10, 12, 15, 20, 25]
        """
        if name == "custom":
            raise CardError("the 'custom' schedule needs values: use SetValues.custom(values, then_add=...)")
        return _PRESETS[_choice("set-value schedule", name, _PRESETS)]

    @staticmethod
    def presets() -> tuple[str, ...]:
        """Names accepted by :meth:`preset`."""
        return tuple(_PRESETS)

    @classmethod
    def custom(cls, values: Sequence[int], then_add: int | None = None, *, name: str = "custom") -> SetValues:
        """A progressive schedule: ``values`` for sets ``1..k``, then ``then_add`` more per set.

        By default ``then_add`` repeats the last increment, ``values[-1] - values[-2]`` (which must be >= 0).

        Examples
        --------
        >>> SetValues.custom([4, 6, 8, 10]).values(6)
        [4, 6, 8, 10, 12, 14]
        >>> SetValues.custom([4, 6, 8, 10], then_add=5) == SetValues.preset("article")
        True
        """
        start = tuple(values)
        if then_add is None:
            then_add = _int("set value", start[-1]) - _int("set value", start[-2]) if len(start) >= 2 else -1
            if then_add < 0:
                raise CardError(f"cannot infer a then_add >= 0 from values {list(start)!r}; give then_add explicitly")
        return cls("progressive", start=start, then_add=then_add, name=name)

    @classmethod
    def fixed(
        cls,
        three_infantry: int,
        three_cavalry: int,
        three_artillery: int,
        one_of_each: int,
        *,
        pair_and_wild: int | None = None,
        three_wilds: int | None = None,
        name: str = "custom",
    ) -> SetValues:
        """A fixed-value table; the optional entries apply only to sets with wilds (see
        :func:`~riskmath.game.cards.set_types`).

        Examples
        --------
        >>> f1_domination = SetValues.fixed(4, 6, 8, 10, three_wilds=12)
        >>> f1_domination.value(1, [Symbol.WILD] * 3), FIXED_F1.value(1, [Symbol.WILD] * 3)
        (12, 10)
        """
        values = (three_infantry, three_cavalry, three_artillery, one_of_each, pair_and_wild, three_wilds)
        pairs = tuple((t, v) for t, v in zip(SET_TYPES, values, strict=True) if v is not None)
        return cls("fixed", table=pairs, name=name)

    def value(self, n: int, cards: Iterable[Card | Symbol] | None = None) -> int:
        """Armies for the ``n``-th set traded in the game (1-based, all players counted).

        ``cards`` (the traded set, cards or symbols) are needed by fixed tables and checked by both kinds.  A
        progressive schedule stops rising at :data:`~riskmath.game.cards.MAX_ARMIES`.  Raises
        :class:`CardError` if ``n < 1``, if ``cards`` is not a set, or if a fixed table gets no cards.

        Examples
        --------
        >>> PROGRESSIVE_1993.value(14)
        55
        >>> FIXED_F2.value(1, [Symbol.ARTILLERY] * 3), FIXED_F2.value(1, [Symbol.CAVALRY, Symbol.CAVALRY, Symbol.WILD])
        (4, 12)
        """
        n = _int("n", n, minimum=1)
        symbols = None if cards is None else _as_set(cards)
        if self.kind == "progressive":
            k = len(self.start)
            return self.start[n - 1] if n <= k else min(self.start[-1] + self.then_add * (n - k), MAX_ARMIES)
        if symbols is None:
            raise CardError(f"the fixed table {self.name!r} values the cards: pass the traded set")
        entries = dict(self.table)
        return max(entries[t] for t in set_types(symbols) if t in entries)

    def values(self, k: int) -> list[int]:
        """The values of sets ``1..k`` of a progressive schedule.

        Examples
        --------
        >>> ARTICLE.values(10)
        [4, 6, 8, 10, 15, 20, 25, 30, 35, 40]
        """
        count = _int("k", k)
        if self.kind != "progressive":
            raise CardError(f"the fixed table {self.name!r} has no sequence of values; use value(n, cards)")
        # (a list of ``count`` ints: a pointer and an int object each, about a microsecond each to compute)
        check_cost(
            lambda: f"values(k={count}) of the set values {self.name!r}",
            memory=_VALUE_BYTES * count,
            seconds=_VALUE_SECONDS * count,
        )
        return [self.value(n) for n in range(1, count + 1)]


#: US 1993 rules [V]: 4, 6, 8, 10, 12, 15, then +5 (20, 25, ...); v(n) = 15 + 5 (n - 6) for n > 6, v(14) = 55.
PROGRESSIVE_1993 = SetValues("progressive", start=(4, 6, 8, 10, 12, 15), then_add=5, name="progressive_1993")
#: The Japanese Wikipedia article: "最初の増援では4単位、次は6単位、その次は8単位、次が10単位、以降15単位、20単位、
#: 25単位" = 4, 6, 8, 10, then 15, 20, 25, ... (+5 after 10).  No rulebook supports it (docs/sources.rst [R12g], [U]).
ARTICLE = SetValues("progressive", start=(4, 6, 8, 10), then_add=5, name="article")
#: 1993 experts variant [V]: 4, 5, 6, 7, ... (+1 per set).
EXPERTS_1993 = SetValues("progressive", start=(4,), then_add=1, name="experts_1993")
#: Fixed table F1 (SMG app "fixed bonus"; Domination "Fixed"): 3 inf 4, 3 cav 6, 3 art 8, one of each 10.
#: Domination also pays 12 for 3 wilds: ``SetValues.fixed(4, 6, 8, 10, three_wilds=12)``.
FIXED_F1 = SetValues.fixed(4, 6, 8, 10, name="fixed_F1")
#: Fixed table F2 (European/Italian; SMG's "Risk 2003"): 3 art 4, 3 inf 6, 3 cav 8, one of each 10, and 2 of a
#: kind + wild 12 from Domination's "Italian" mode (``CARD_ITALIANLIKE_SET``, which allows no other set with wilds).
FIXED_F2 = SetValues.fixed(6, 8, 4, 10, pair_and_wild=12, name="fixed_F2")
#: Fixed table F3 (WNY Risk League, "older version" [S]): 3 inf 6, 3 cav 8, 3 art 10, one of each 12.
FIXED_F3 = SetValues.fixed(6, 8, 10, 12, name="fixed_F3")
_PRESETS = {s.name: s for s in (PROGRESSIVE_1993, ARTICLE, EXPERTS_1993, FIXED_F1, FIXED_F2, FIXED_F3)}


#: Territory-card bonus rules: "none" (1959, 2003), "plus2_once_per_turn" (1993), "plus2_per_matching_territory" (1963).
BonusKind: TypeAlias = Literal["none", "plus2_once_per_turn", "plus2_per_matching_territory"]
BONUS_KINDS = ("none", "plus2_once_per_turn", "plus2_per_matching_territory")


def bonus_candidates(traded_sets: Sequence[Sequence[Card]], owned: Collection[str]) -> list[str]:
    """Territories shown on the traded cards that the player occupies, in card order, without repeats.

    Raises :class:`CardError` if a traded "set" is not a set.

    Examples
    --------
    >>> s = [Card("Peru", Symbol.INFANTRY), Card("Japan", Symbol.ARTILLERY), Card(None, Symbol.WILD)]
    >>> bonus_candidates([s], owned={"Japan", "Peru", "Siam"})
    ['Peru', 'Japan']
    """
    if isinstance(owned, str) or any(isinstance(cards, Card) for cards in traded_sets):
        raise CardError(f"expected a list of sets and a collection of territory names, got {traded_sets!r}, {owned!r}")
    out: list[str] = []
    for cards in traded_sets:
        _as_set(cards)
        out.extend(c.territory for c in cards if isinstance(c, Card) and c.territory and c.territory in owned)
    return list(dict.fromkeys(out))


def territory_bonus(
    traded_sets: Sequence[Sequence[Card]],
    owned: Collection[str],
    kind: BonusKind = "plus2_once_per_turn",
    already_received: int = 0,
    *,
    choose: str | Callable[[Sequence[str]], str] | None = None,
) -> list[tuple[str, int]]:
    """Extra armies for traded cards that show occupied territories: ``[(territory, armies), ...]``, all to place.

    Parameters
    ----------
    traded_sets : sequence of sets
        The set(s) just traded (both, if two are traded together).
    owned : collection of str
        The player's territories.
    kind : {"none", "plus2_once_per_turn", "plus2_per_matching_territory"}
        "none" (1959, 2003): nothing.  "plus2_once_per_turn" (1993 [V]): +2 placed on *one* occupied territory
        shown, and at most 2 such armies per turn, even across two sets.  "plus2_per_matching_territory" (1963/1968):
        +2 on every occupied territory shown, no cap.
    already_received : int
        Bonus armies already received this turn; under "plus2_once_per_turn" only ``2 - already_received`` remain.
    choose : str or callable, optional
        "plus2_once_per_turn" only: the player's pick among :func:`bonus_candidates`, as a name or a function of
        the candidates.  Default: the first candidate.  Ignored by the other kinds.

    Raises
    ------
    CardError
        For an unknown ``kind``, a non-set, ``already_received < 0`` or a non-candidate choice.

    Examples
    --------
    >>> s = [Card("Peru", Symbol.INFANTRY), Card("Japan", Symbol.ARTILLERY), Card(None, Symbol.WILD)]
    >>> territory_bonus([s], {"Peru", "Japan"}), territory_bonus([s], {"Peru", "Japan"}, choose="Japan")
    ([('Peru', 2)], [('Japan', 2)])
    >>> territory_bonus([s], {"Peru", "Japan"}, "plus2_per_matching_territory")
    [('Peru', 2), ('Japan', 2)]
    >>> territory_bonus([s], {"Peru"}, already_received=2)
    []
    """
    rule = _choice("kind", kind, BONUS_KINDS)
    received = _int("already_received", already_received)
    candidates = bonus_candidates(traded_sets, owned)
    if rule == "none" or not candidates:
        return []
    if rule == "plus2_per_matching_territory":
        return [(t, 2) for t in candidates]
    if received >= 2:
        return []
    picked = candidates[0] if choose is None else choose if isinstance(choose, str) else choose(candidates)
    if picked not in candidates:
        raise CardError(f"the bonus territory must be one of {candidates!r}, got {picked!r}")
    return [(picked, 2 - received)]


#: 1993 rules [V]: after taking a victim's cards, 6 or more cards -> trade at once until 4 or fewer.
TRADE_DOWN_1993 = (6, 4)
#: The Japanese article: "この際にカードが5枚以上になった場合、4枚以下になるようにその時点で増援を行う"
#: (5 or more -> trade at once until 4 or fewer).
TRADE_DOWN_ARTICLE = (5, 4)


def trade_down_needed(hand_size: int, threshold: int = 6, target: int = 4) -> bool:
    """True if a player who just took an eliminated player's cards must trade sets at once.

    1993 rules (the default, :data:`TRADE_DOWN_1993`): with 6 or more cards, trade at once until 4 or fewer remain
    ("Once your hand is reduced to 4, 3 or 2 cards, you must stop trading"), place the armies and keep attacking;
    with fewer, wait for the next turn (where 5 or 6 cards force a trade).  The Japanese article
    (:data:`TRADE_DOWN_ARTICLE`): 5 or more cards, trade until 4 or fewer.  See :func:`trades_required`.

    Examples
    --------
    >>> trade_down_needed(5), trade_down_needed(6), trade_down_needed(5, *TRADE_DOWN_ARTICLE)
    (False, True, True)
    """
    return trades_required(hand_size, threshold, target) > 0


def trades_required(hand_size: int, threshold: int = 6, target: int = 4) -> int:
    """Number of sets to trade at once after an elimination: 0 below ``threshold``, else until ``<= target``.

    Each set removes 3 cards, so this is ``ceil((hand_size - target) / 3)``.  A hand of 5 or more cards always
    holds a set, so with ``target >= 4`` the trades are always possible.

    Examples
    --------
    >>> [trades_required(h) for h in range(5, 12)]
    [0, 1, 1, 2, 2, 2, 3]
    """
    size, limit, goal = _int("hand_size", hand_size), _int("threshold", threshold), _int("target", target)
    if goal >= limit:
        raise CardError(f"target must be below threshold, got target={goal} and threshold={limit}")
    return 0 if size < limit else -(-(size - goal) // 3)
