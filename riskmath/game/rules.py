"""Every rule of the game as one immutable options object, with edition presets.

:class:`Rules` holds each rule the editions disagree on (docs/sources.rst; set-up, starting
armies, reinforcements, combat, occupation, fortification, cards, caps, the
two-player game, Secret Mission, Capital, a turn cap).  ``Rules()`` is the 1993
US rulebook; :meth:`Rules.preset` gives the other editions, including the
rules described by the Japanese encyclopedia article the project started from
(``"article_ja"``).  Options are validated on construction, and a message
names the option at fault.

Where the sources disagree the disagreement is an option, never a silent
choice; the documentation's rules page lists every option, its default and
its source.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from riskmath._validation import shown
from riskmath.errors import BoardError, RulesError
from riskmath.game.board import Board
from riskmath.game.cards import CARD_SYMBOLS, MAX_ARMIES, SetValues
from riskmath.odds.dice import CombatRules

__all__ = ["ADDED_LATER", "CHOICES", "Rules"]

#: The allowed values of every option that is a choice among names.
CHOICES: dict[str, tuple[str, ...]] = {
    "board": Board.names(),  # the shipped maps, then the small boards for learning
    "setup": ("claim", "deal", "random"),
    "starting_armies_rule": ("table", "territories_dealt"),
    "rounding": ("floor", "ceil"),
    "occupy_min": ("dice_rolled", "one"),
    "fortify": ("adjacent", "connected", "experts", "none"),
    "territory_card_bonus": ("none", "plus2_once_per_turn", "plus2_per_matching_territory"),
    "two_player": ("neutral_1993", "neutral_article", "neutrals_2003", "none"),
    "missions": ("none", "us_1993_12", "euro_14"),
    "mission_target_killed_by_other": ("counts_as_complete", "fallback_occupy_24"),
    "mission_check": ("immediate", "own_turn"),
    "capital": ("none", "all", "short"),
    "cards": ("territory", "none"),
}

#: Options added after the save format ``riskmath-state/1`` was fixed, with the value every save written before
#: them meant: a strict read (a saved state's rules) takes that value when the option is absent.
ADDED_LATER: dict[str, Any] = {"cards": "territory"}


#: Most starting armies per player that :class:`Rules` accepts: set-ups place one army a step, so a huge table
#: would make a random set-up run for ever (the editions give at most 50).
MAX_STARTING_ARMIES = 10_000

#: Most wild cards in the deck (the editions have 2).
MAX_WILD_CARDS = 100

#: The largest integer option (a turn cap, a card count, a divisor): what a saved state's integers hold,
#: ``2**63 - 1``.  ``min_reinforcement`` and ``max_armies_per_territory`` go up to
#: :data:`~riskmath.game.cards.MAX_ARMIES` (10**9) only.
MAX_OPTION = 2**63 - 1


def _armies(table: Mapping[int, int] | tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    items: Iterable[tuple[object, object]] = table.items() if isinstance(table, Mapping) else table
    return tuple(sorted((_whole(p), _whole(a)) for p, a in items))


def _whole(value: object) -> int:
    """An integer of the starting armies table (TypeError otherwise: 1.5 armies is not 1)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"not an integer: {value!r}")
    return int(value)


@dataclass(frozen=True)
class Rules:
    """The options of a game of RISK; ``Rules()`` is the 1993 US rulebook.

    Parameters
    ----------
    edition : str
        A label (the preset's name), for reports only.
    board : {"classic", "anniversary_1999", "south_america_africa", "south_america_africa_europe"} or str
        The map: 83 borders, or the 1999 anniversary board without East
        Africa-Middle East (a misprint later corrected); or a small board
        for learning, part of the classic map (10 and 17 territories); or
        any part of a shipped map, named as :meth:`Board.load` reads it
        (``"classic:Australia+Asia"``).
    setup : {"claim", "deal", "random"}
        Claim territories in turn (1993), deal the territory cards (1959,
        Secret Mission, two players), or assign territories and armies at
        random (digital versions).
    starting_armies : mapping of players to armies
        Per player; 1993: 2 -> 40, 3 -> 35, 4 -> 30, 5 -> 25, 6 -> 20.
    starting_armies_rule : {"table", "territories_dealt"}
        ``"table"``: ``starting_armies`` (1963 onwards); ``"territories_dealt"``:
        one army on each territory received and nothing more (1959 US).
    setup_cap_per_territory : int or None
        Most armies on one territory during set-up (old UK rules: 4).
    min_reinforcement, territory_divisor, rounding
        Reinforcements are ``max(min, T / divisor rounded)`` (1993: 3, 3,
        floor; the 2008 FAQ says "rounding up", unverified).
    combat : CombatRules
        Dice maxima, sides and ties (defender 3 dice in Risiko and 1957).
    occupy_min : {"dice_rolled", "one"}
        Least armies to move into a captured territory: the dice rolled in
        the last roll (1993) or 1 (some implementations of 1963).
    fortify : {"adjacent", "connected", "experts", "none"}
        One move to an adjacent territory (1993); one move along a chain of
        own territories (2003, 2008); any number of moves along such chains
        (1993 experts); no fortification.
    set_values : SetValues
        Armies for the n-th set traded (1993: 4, 6, 8, 10, 12, 15, +5).
    territory_card_bonus : {"none", "plus2_once_per_turn", "plus2_per_matching_territory"}
        Extra armies for trading a card of an owned territory (1993: +2,
        at most once per turn; 1963: +2 per such card; 1959, 2003: none).
    forced_trade_at : int or None
        A player starting a turn with this many cards must trade (1993: 5).
    elimination_trade_at, elimination_trade_to : int or None, int
        Taking a victim's cards up to this many forces trades at once down
        to ``elimination_trade_to`` (1993: 6 and 4; the article: 5 and 4).
    card_symbols : {"B", "A", "C"}
        Which symbol each territory card shows; the sources disagree and
        no primary source was found (see the cards module).
    wild_cards : int
        Wild cards in the deck (2).
    deck_recycle : bool
        Traded cards are reshuffled into the deck when it runs out (digital
        versions; the rulebooks are silent).
    cards : {"territory", "none"}
        Play with the territory cards (every edition) or without any card
        (a house rule and other engines' convention, no rulebook): no card
        is drawn after a capture, no set is traded and an elimination passes
        no cards; the card options above then have no effect.  A dealt
        set-up still deals the territories from the territory cards, which
        leave the game once the set-up is over.
    max_armies_per_territory : int or None
        Cap on any territory (1993 experts: 12; armies beyond it are lost).
    two_player : {"neutral_1993", "neutral_article", "neutrals_2003", "none"}
        The two-player game: a neutral third army of 40 on a third of the
        territories (1993); 14 neutral territories of 2 armies each after
        claiming 14 each (the article's 1975 rule); four neutrals of 24
        (2003, SMG); or plain two-player play.
    missions : {"none", "us_1993_12", "euro_14"}
        Secret Mission RISK with the US deck of 12 or the European 14.
    mission_target_killed_by_other : {"counts_as_complete", "fallback_occupy_24"}
        US 1993 example v. the European card text.
    mission_check : {"immediate", "own_turn"}
        When a completed mission wins.
    capital : {"none", "all", "short"}
        Capital RISK: capture every other headquarters, or the shorter game
        (4 players: 2 HQs, 5-6 players: 3).
    turn_cap : int or None
        End the game as a draw after this many player-turns.

    Raises
    ------
    RulesError
        For an unknown choice or an inconsistent combination.

    Examples
    --------
    >>> Rules().fortify, Rules().set_values.values(7)
    ('adjacent', [4, 6, 8, 10, 12, 15, 20])
    >>> Rules.preset("article_ja").set_values.values(7)
    [4, 6, 8, 10, 15, 20, 25]
    >>> Rules(fortify="teleport")
    Traceback (most recent call last):
    ...
    riskmath.errors.RulesError: Rules.fortify must be one of 'adjacent', 'connected', 'experts', 'none'; got 'teleport'
    """

    edition: str = "us_1993"
    board: str = "classic"
    setup: str = "claim"
    starting_armies: tuple[tuple[int, int], ...] = ((2, 40), (3, 35), (4, 30), (5, 25), (6, 20))
    starting_armies_rule: str = "table"
    setup_cap_per_territory: int | None = None
    min_reinforcement: int = 3
    territory_divisor: int = 3
    rounding: str = "floor"
    combat: CombatRules = field(default_factory=CombatRules)
    occupy_min: str = "dice_rolled"
    fortify: str = "adjacent"
    set_values: SetValues = field(default_factory=lambda: SetValues.preset("progressive_1993"))
    territory_card_bonus: str = "plus2_once_per_turn"
    forced_trade_at: int | None = 5
    elimination_trade_at: int | None = 6
    elimination_trade_to: int = 4
    card_symbols: str = "B"
    wild_cards: int = 2
    deck_recycle: bool = True
    cards: str = "territory"
    max_armies_per_territory: int | None = None
    two_player: str = "neutral_1993"
    missions: str = "none"
    mission_target_killed_by_other: str = "counts_as_complete"
    mission_check: str = "immediate"
    capital: str = "none"
    turn_cap: int | None = None

    def __new__(cls, *args: Any, **options: Any) -> Rules:
        # An unknown option is refused in the library's words, as replace() and from_dict() refuse it (Python's
        # TypeError named the generated __init__); so are more positional values than there are options.
        if options:
            _check_known(options)
        if len(args) > len(_OPTION_NAMES):
            raise RulesError(f"Rules takes at most {len(_OPTION_NAMES)} options, got {len(args)} positional values")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if name == "board" and isinstance(value, str) and ":" in value:  # a part of a shipped map, by name
                try:
                    Board.load(value)
                except BoardError as error:
                    raise RulesError(f"Rules.board={value!r}: {error}") from None
            elif name == "board" and value not in allowed:
                raise RulesError(
                    f"Rules.board must be one of {', '.join(map(repr, allowed))}, or a shipped board's name, ':' and "
                    f"continents joined by '+' (e.g. 'classic:South America+Africa'); got {value!r}"
                )
            elif value not in allowed:
                raise RulesError(f"Rules.{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
        if self.card_symbols not in CARD_SYMBOLS:
            names = ", ".join(map(repr, CARD_SYMBOLS))
            raise RulesError(f"Rules.card_symbols must be one of {names}; got {self.card_symbols!r}")
        try:
            object.__setattr__(self, "starting_armies", _armies(self.starting_armies))
        except (TypeError, ValueError, AttributeError):
            raise RulesError(
                f"Rules.starting_armies must map player counts to armies, got {self.starting_armies!r}"
            ) from None
        for players, armies in self.starting_armies:
            if not 2 <= players <= 6 or not 1 <= armies <= MAX_STARTING_ARMIES:
                raise RulesError(
                    f"Rules.starting_armies has a bad entry {players} players -> {armies} armies "
                    f"(players 2..6, armies 1..{MAX_STARTING_ARMIES})"
                )
        counts = [players for players, _ in self.starting_armies]
        twice = sorted({players for players in counts if counts.count(players) > 1})
        if twice:  # (one of the entries silently won: the larger, the table being sorted)
            given = [pair for pair in self.starting_armies if pair[0] in twice]
            raise RulesError(f"Rules.starting_armies gives {twice[0]} players more than one entry: {given}")
        if not isinstance(self.edition, str):
            raise RulesError(f"Rules.edition must be a string (a label), got {shown(self.edition)}")
        minimums = (("min_reinforcement", 0), ("territory_divisor", 1), ("wild_cards", 0), ("elimination_trade_to", 2))
        for name, low in minimums:
            self._check_int(name, low, MAX_ARMIES if name == "min_reinforcement" else MAX_OPTION)
        for name, low in (
            ("setup_cap_per_territory", 1),
            ("forced_trade_at", 5),
            ("elimination_trade_at", 5),
            ("max_armies_per_territory", 1),
            ("turn_cap", 1),
        ):
            if getattr(self, name) is not None:
                self._check_int(name, low, MAX_ARMIES if name == "max_armies_per_territory" else MAX_OPTION)
        if self.wild_cards > MAX_WILD_CARDS:
            raise RulesError(f"Rules.wild_cards must be at most {MAX_WILD_CARDS}, got {self.wild_cards}")
        if self.elimination_trade_at is not None and self.elimination_trade_to >= self.elimination_trade_at:
            raise RulesError(
                f"Rules.elimination_trade_to ({self.elimination_trade_to}) must be below "
                f"elimination_trade_at ({self.elimination_trade_at})"
            )
        if not isinstance(self.combat, CombatRules):
            raise RulesError(f"Rules.combat must be a CombatRules, got {self.combat!r}")
        if not isinstance(self.set_values, SetValues):
            raise RulesError(f"Rules.set_values must be a SetValues, got {self.set_values!r}")
        if not isinstance(self.deck_recycle, bool):
            raise RulesError(f"Rules.deck_recycle must be True or False, got {self.deck_recycle!r}")
        if self.missions != "none" and self.capital != "none":
            raise RulesError("Rules.missions and Rules.capital cannot both be on: each has its own way to win")
        if self.max_armies_per_territory is not None and self.max_armies_per_territory < 2:
            raise RulesError("Rules.max_armies_per_territory must be at least 2 so that attacks stay possible")

    def _check_int(self, name: str, low: int, high: int) -> None:
        value = getattr(self, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise RulesError(f"Rules.{name} must be an integer >= {low}, got {shown(value)}")
        if value > high:
            raise RulesError(f"Rules.{name} must be at most {high}, got {shown(value)}")

    def starting_armies_for(self, players: int) -> int:
        """Armies each player starts with, for ``players`` players.

        Raises
        ------
        RulesError
            If the rules have no entry for that many players.
        """
        table = dict(self.starting_armies)
        if players not in table:
            raise RulesError(f"these rules have no starting armies for {players} players (they cover {sorted(table)})")
        return table[players]

    def reinforcements(self, territories: int) -> int:
        """Armies for holding ``territories`` territories (before continents and cards).

        >>> [Rules().reinforcements(t) for t in (1, 11, 12, 14, 17, 42)]
        [3, 3, 4, 4, 5, 14]
        """
        divisor = self.territory_divisor
        share = -(-territories // divisor) if self.rounding == "ceil" else territories // divisor
        return max(self.min_reinforcement, share)

    def trade_forced(self, cards: int) -> bool:
        """Whether a player holding ``cards`` cards must trade a set before placing (``forced_trade_at``).

        >>> Rules().trade_forced(4), Rules().trade_forced(5), Rules(forced_trade_at=None).trade_forced(9)
        (False, True, False)
        """
        at = self.forced_trade_at
        return at is not None and cards >= at

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again).

        Raises
        ------
        RulesError
            For an option :class:`Rules` does not have (naming it, as :meth:`from_dict` does), or a value an
            option does not take.
        """
        _check_known(changes)
        return replace(self, **changes)

    @classmethod
    def presets(cls) -> tuple[str, ...]:
        """Names accepted by :meth:`preset`."""
        return tuple(_PRESETS)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named edition; see :meth:`presets` and :meth:`describe_preset`.

        Raises
        ------
        RulesError
            For an unknown name.
        """
        _check_preset(name)
        return cls(edition=name, **_PRESETS[name][1])

    @classmethod
    def describe_preset(cls, name: str) -> str:
        """One line on where a preset's rules come from."""
        _check_preset(name)
        return _PRESETS[name][0]

    def options(self) -> dict[str, Any]:
        """Every option and its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; :meth:`from_dict` reads it back."""
        data = self.options()
        data["starting_armies"] = [list(pair) for pair in self.starting_armies]
        combat = self.combat
        data["combat"] = {f.name: getattr(combat, f.name) for f in fields(combat)}
        values = self.set_values
        data["set_values"] = {
            "kind": values.kind,
            "start": list(values.start),
            "then_add": values.then_add,
            "table": [list(pair) for pair in values.table],
            "name": values.name,
        }
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, strict: bool = False) -> Rules:
        """Rules from :meth:`to_dict` output (unknown keys are an error).

        Missing options take their default (the 1993 rules), so that a
        partial dict such as ``{"fortify": "connected"}`` is accepted.  With
        ``strict=True`` (how saved states are read) every option must be
        present, with ``combat`` and ``set_values`` spelled out in full and
        integers given as integers: a save never means "the defaults" by
        omission.  The exception is an option added after the save format
        was fixed (:data:`~riskmath.game.rules.ADDED_LATER`): a save without it was written
        before it existed, and it takes the value those saves meant.

        Raises
        ------
        RulesError
            If a key is unknown or (``strict``) missing, or a value is invalid.
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"rules data must be a mapping, got {data!r}"[:300])
        known = _check_known(data)
        if strict:
            _check_strict(data, known)
        options = dict(data)
        try:
            if "combat" in options and isinstance(options["combat"], Mapping):
                options["combat"] = CombatRules(**options["combat"])
            if "set_values" in options and isinstance(options["set_values"], Mapping):
                raw = dict(options["set_values"])
                options["set_values"] = SetValues(
                    raw["kind"],
                    start=tuple(raw.get("start", ())),
                    then_add=raw.get("then_add", 0),
                    table=tuple((str(t), int(v)) for t, v in raw.get("table", ())),
                    name=raw.get("name", "custom"),
                )
            if "starting_armies" in options:
                options["starting_armies"] = tuple(tuple(pair) for pair in options["starting_armies"])
        except (TypeError, KeyError, ValueError) as error:
            raise RulesError(f"bad rules data: {error}") from None
        return cls(**options)


def _check_known(names: Iterable[object]) -> list[str]:
    """The names of the options of :class:`Rules`; RulesError naming any of ``names`` that is not one (for
    :meth:`Rules.replace` and :meth:`Rules.from_dict`), the unknown ones shortened as :func:`shown` does."""
    known = list(_OPTION_NAMES)
    unknown = sorted(str(name) for name in names if name not in known)
    if unknown:
        raise RulesError(f"unknown rules options {shown(unknown)}; the options are {', '.join(sorted(known))}")
    return known


def _check_preset(name: object) -> None:
    """RulesError unless ``name`` names a preset (any value: a list or a dict is refused, not a TypeError)."""
    if not isinstance(name, str) or name not in _PRESETS:
        raise RulesError(f"unknown rules preset {shown(name)}; presets are {', '.join(_PRESETS)}")


def _check_strict(data: Mapping[str, Any], known: list[str]) -> None:
    """Refuse rules data that leaves an option out or spells a number loosely (``Rules.from_dict(strict=True)``)."""
    missing = [name for name in known if name not in data and name not in ADDED_LATER]
    if missing:
        raise RulesError(f"rules data must give every option; missing {missing}")
    parts = {
        "combat": ("attacker_max_dice", "defender_max_dice", "attacker_sides", "defender_sides", "ties"),
        "set_values": ("kind", "start", "then_add", "table", "name"),
    }
    for name, keys in parts.items():
        part = data[name]
        if not isinstance(part, Mapping) or sorted(map(str, part)) != sorted(keys):
            raise RulesError(f"rules data: {name} must be an object with exactly the keys {list(keys)}"[:300])

    def integer(value: object) -> bool:
        return type(value) is int and abs(value) < 2**63

    pairs = data["starting_armies"]
    if not isinstance(pairs, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(map(integer, pair)) for pair in pairs
    ):
        raise RulesError(f"rules data: starting_armies must be [players, armies] integer pairs, got {pairs!r}"[:300])
    values = data["set_values"]
    start, table = values["start"], values["table"]
    if not isinstance(start, list) or not all(map(integer, start)) or not integer(values["then_add"]):
        raise RulesError(f"rules data: set_values start and then_add must be integers, got {values!r}"[:300])
    if not isinstance(table, list) or not all(
        isinstance(row, list) and len(row) == 2 and type(row[0]) is str and integer(row[1]) for row in table
    ):
        raise RulesError(f"rules data: set_values table must be [set type, armies] pairs, got {table!r}"[:300])
    for name in (
        "setup_cap_per_territory",
        "forced_trade_at",
        "elimination_trade_at",
        "max_armies_per_territory",
        "turn_cap",
        "min_reinforcement",
        "territory_divisor",
        "elimination_trade_to",
        "wild_cards",
    ):
        value = data[name]
        if value is not None and not integer(value):
            raise RulesError(f"rules data: {name} must be an integer below 2**63, got {value!r}"[:300])


def _preset_table() -> dict[str, tuple[str, dict[str, Any]]]:
    return {
        "us_1993": ("Parker Brothers 1993 US rules (the default).", {}),
        "us_1993_experts": (
            "1993 'Rules Variations for RISK Experts': sets rise by 1, fortify along chains, 12 armies per territory.",
            {"set_values": SetValues.preset("experts_1993"), "fortify": "experts", "max_armies_per_territory": 12},
        ),
        "us_1993_secret_mission": (
            "1993 Secret Mission RISK: territories dealt, 12 mission cards.",
            {"setup": "deal", "missions": "us_1993_12"},
        ),
        "us_1993_capital": ("1993 Capital RISK: capture every other headquarters.", {"capital": "all"}),
        "us_1959": (
            "1959 US 'Risk: The Continental Game': territories dealt with one army each and no more, "
            "no territory-card bonus; for 3 to 6 players (two play alone, with no neutral: a variant).",
            {
                "setup": "deal",
                "starting_armies_rule": "territories_dealt",
                "territory_card_bonus": "none",
                "two_player": "none",
            },
        ),
        "us_1963": (
            "1963/1968 US: 2 players get 50, +2 armies per owned territory on traded cards.",
            {
                "starting_armies": ((2, 50), (3, 35), (4, 30), (5, 25), (6, 20)),
                "territory_card_bonus": "plus2_per_matching_territory",
                "two_player": "none",
            },
        ),
        "euro_2003": (
            "European 2003 (per SMG): 2 players 36 each with four neutrals of 24, fortify along chains, no card bonus.",
            {
                "starting_armies": ((2, 36), (3, 35), (4, 30), (5, 25), (6, 20)),
                "fortify": "connected",
                "territory_card_bonus": "none",
                "two_player": "neutrals_2003",
            },
        ),
        "risiko": (
            "Italian Risiko tradition: defender up to 3 dice, fixed set values (F2), no minimum of 3, no card limit.",
            {
                "combat": CombatRules.edition("risiko"),
                "set_values": SetValues.preset("fixed_F2"),
                "min_reinforcement": 0,
                "forced_trade_at": None,
                "elimination_trade_at": None,
            },
        ),
        "french_1957": (
            "La Conquete du Monde (1957): the defender rolls 3 dice; territories dealt and no territory-card "
            "bonus, as in 1959 (an approximation).",
            {"combat": CombatRules.edition("french_1957"), "setup": "deal", "territory_card_bonus": "none"},
        ),
        "anniversary_1999": (
            "1993 rules on the 40th anniversary board (no East Africa-Middle East border).",
            {"board": "anniversary_1999"},
        ),
        "article_ja": (
            "The rules as described by the Japanese encyclopedia article: sets 4, 6, 8, 10, 15, 20, 25, ...; "
            "trade down to 4 at 5 cards after an elimination; two players claim 14 each, 14 neutral of 2.",
            {
                "set_values": SetValues.preset("article"),
                "elimination_trade_at": 5,
                "elimination_trade_to": 4,
                "two_player": "neutral_article",
            },
        ),
    }


#: The options of :class:`Rules`, in order (its positional parameters).
_OPTION_NAMES = tuple(f.name for f in fields(Rules))
_PRESETS = _preset_table()
