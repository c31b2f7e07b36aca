"""The map: territories, continents and the borders between them, as immutable data.

A :class:`Board` is a connected undirected graph of territories grouped into
continents, each with a bonus.  Territories are keyed by an id ``0..n-1``
(their order in the data) and by a canonical name; lookups also accept
aliases, ignoring case and extra whitespace (``"eastern  CANADA"`` is Quebec).

``"classic"`` (:meth:`Board.classic <riskmath.Board.classic>`)
    The 42-territory world map: 6 continents, 83 borders (14 between
    continents), on which four independent implementations agree exactly and
    which matches the 1993 rulebook's examples.
``"anniversary_1999"`` (:meth:`Board.anniversary_1999 <riskmath.Board.anniversary_1999>`)
    The 1999 40th Anniversary Collector's Edition board, without East
    Africa--Middle East (82 borders).  A secondary source calls the omission a
    manufacturing error fixed in later editions; Domination's ``world.map``
    lacks it too.  Use it only to reproduce that misprint.

Aliases: the boards after 2008 renamed territories (Eastern Canada = Quebec,
Russia = Ukraine, Southeast Asia = Siam, Central Africa = Congo, Urals = Ural),
programs say Mexico or Manchuria, and widely copied data misspell Venezuala and
Scandanavia.  Names differ between editions, so game logic should use ids.

JSON format
-----------
A board is a JSON object (or, for ``Board.from_dict``, a dict); annotated::

    {
      "name": "toy",                         # required, non-empty
      "description": "...", "source": "...", # optional strings
      "territories": ["A", "B", "C"],        # optional: id order (default: as in continents)
      "continents": [                        # required, non-empty, in order
        {"name": "East", "bonus": 2, "territories": ["A", "B"]},
        {"name": "West", "bonus": 1, "territories": ["C"]}
      ],
      "borders": [["A", "B"], ["B", "C"]],   # required: undirected pairs
      "aliases": {"Alpha": "A"},             # optional: alias -> territory
      "continent_aliases": {"Orient": "East"},  # optional: alias -> continent
      "positions": {"A": [10, 20], "B": [30, 25], "C": [70, 5]}  # optional: see below
    }

Every territory is in exactly one continent, whose bonus is 0 to 10**9
(:data:`~riskmath.game.cards.MAX_ARMIES`).  A border is an unordered pair, so
symmetry holds by construction; ``["B", "A"]`` is the same border as ``["A", "B"]``
and listing a border twice (in either order) is an error, a likely typo (dedupe
neighbor lists with ``{frozenset(p) for p in ...}``).  Borders, aliases and
``territories`` use canonical names exactly.  ``positions`` gives every
territory (or none) a drawing position ``[x, y]``: two finite numbers, ``x``
growing eastwards across a map about ``0..100`` wide and ``y`` northwards;
:func:`riskmath.plots.board` uses them (the shipped boards place each territory
near its real place on a world map), and lays out boards without them itself.  The graph must be connected.  The
shipped files are exactly ``to_dict()`` of their board.

Names are kept in Unicode NFC and compared (for duplicates and lookups) after
NFKC normalization, case folding and whitespace collapsing, with invisible
characters (zero-width spaces, direction marks: Unicode categories Cf, Cc)
ignored: ``"Café"`` composed or decomposed is one territory.  A name that
contains invisible characters is refused, and so are territory names and
aliases that read as one of ``RESERVED_NAMES`` (``"wild"``, the name of
the wild card in hands and trades, and the neutral owners' labels).

Examples
--------
>>> board = Board.classic()
>>> board
Board('classic', 42 territories, 83 borders)
>>> board.neighbors("Greenland")
('Northwest Territory', 'Ontario', 'Quebec', 'Iceland')
>>> board.continent_of("mexico"), board.continents["South America"].bonus
('North America', 2)
>>> Board.anniversary_1999().is_adjacent("East Africa", "Middle East")
False
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from riskmath._validation import unique_keys
from riskmath.errors import BoardError
from riskmath.game._board_data import RESERVED_NAMES, Position, component, fail, name_key, parse_board, suggestion

__all__ = [
    "BOARDS",
    "MAX_BOARD_DEPTH",
    "MAX_BOARD_JSON",
    "MAX_TERRITORIES",
    "RESERVED_NAMES",
    "SMALL_BOARDS",
    "Board",
    "Continent",
    "TerritoryKey",
]

#: Names of the boards shipped with riskmath, for :meth:`Board.load`.
BOARDS = ("classic", "anniversary_1999")

#: Small boards for learning, by name: parts of the classic map (:meth:`Board.restricted`), loaded by
#: :meth:`Board.load` and named by ``Rules(board=...)``.  ``south_america_africa``: 10 territories, 15
#: borders, bonuses 2 and 3; ``south_america_africa_europe``: 17 territories, 30 borders, bonuses 2, 3, 5.
SMALL_BOARDS: Mapping[str, tuple[str, tuple[str, ...]]] = MappingProxyType(
    {
        "south_america_africa": ("classic", ("South America", "Africa")),
        "south_america_africa_europe": ("classic", ("South America", "Africa", "Europe")),
    }
)

#: Most characters of board JSON text (bytes of a board file) that :meth:`Board.from_json` reads; the shipped
#: boards take about 10 000.
MAX_BOARD_JSON = 10_000_000

#: Deepest nesting of arrays and objects :meth:`Board.from_json` parses (a board needs 3).
MAX_BOARD_DEPTH = 32

#: Most territories a board may have: its adjacency matrix takes ``n * n`` bytes (25 MB at the limit).
MAX_TERRITORIES = 5_000

#: A territory given by canonical name, alias (any case) or id.
TerritoryKey: TypeAlias = str | int | np.integer[Any]


@dataclass(frozen=True, slots=True)
class Continent:
    """A continent: its name, reinforcement bonus and territories.

    Attributes
    ----------
    name : str
    bonus : int
        Armies earned per turn for holding every territory.
    territories : tuple of str
        Canonical names, in id order.
    ids : tuple of int
        Their ids, ascending.

    Examples
    --------
    >>> australia = Board.classic().continents["Australia"]
    >>> australia.bonus, australia.territories, australia.ids
    (2, ('Indonesia', 'New Guinea', 'Western Australia', 'Eastern Australia'), (38, 39, 40, 41))
    """

    name: str
    bonus: int
    territories: tuple[str, ...]
    ids: tuple[int, ...]


@dataclass(frozen=True, init=False, eq=False, repr=False)
class Board:
    """An immutable RISK map: territories, continents, bonuses and borders.

    Build one with :meth:`from_dict`, :meth:`from_json`, :meth:`load`,
    :meth:`classic` or :meth:`anniversary_1999`; the data format is in the
    module docstring.  Methods taking a territory accept its canonical name,
    an alias (case and whitespace are ignored) or its id.

    Boards compare equal when their :meth:`to_dict` data are equal, are
    hashable, and pickle through :meth:`to_dict`.

    Attributes
    ----------
    name, description, source : str
        As in the data.
    territories : tuple of str
        Canonical names in id order.
    continents : mapping of str to Continent
        Read-only, in data order.
    borders : tuple of (str, str)
        Every border once, the territory with the lower id first, sorted by ids.
    adjacency : numpy.ndarray
        The read-only symmetric ``n x n`` boolean adjacency matrix, by id.
    continent_ids : tuple of (int, frozenset of int)
        ``(bonus, ids)`` per continent, in data order: a fast form for bonus sums.
    aliases, continent_aliases : mapping of str to str
        Read-only: alias to canonical territory (continent) name.
    positions : mapping of str to (float, float)
        Read-only drawing positions ``(x, y)`` by canonical name, in id order;
        empty when the data give none.

    Raises
    ------
    BoardError
        From the constructors, naming the problem; from lookups, naming the
        unknown territory or continent (with a close match when there is one).

    Examples
    --------
    >>> board = Board.classic()
    >>> len(board), len(board.borders), board.index("Siam"), board.name_of(37)
    (42, 83, 37, 'Siam')
    >>> board.neighbor_ids(0)
    (1, 3, 29)
    >>> board.border_territories("South America")
    ('Venezuela', 'Brazil')
    >>> held = set(range(38, 42)) | {9, 10, 11, 12}     # Australia and South America
    >>> sum(bonus for bonus, ids in board.continent_ids if ids <= held)
    4
    >>> board.index("Kamchatca")
    Traceback (most recent call last):
    ...
    riskmath.errors.BoardError: unknown territory 'Kamchatca'; did you mean 'Kamchatka'?
    """

    name: str
    description: str
    source: str
    territories: tuple[str, ...]
    continents: Mapping[str, Continent]
    borders: tuple[tuple[str, str], ...]
    adjacency: npt.NDArray[np.bool_]
    continent_ids: tuple[tuple[int, frozenset[int]], ...]
    aliases: Mapping[str, str]
    continent_aliases: Mapping[str, str]
    positions: Mapping[str, Position]
    _nbrs: tuple[tuple[int, ...], ...]
    _cont_of: tuple[str, ...]
    _lookup: Mapping[str, int]
    _exact: Mapping[str, int]
    _lookup_continent: Mapping[str, str]

    def __init__(self, data: Mapping[str, Any]) -> None:
        """Validate board data (as :meth:`from_dict`, which is the public spelling)."""
        parts = parse_board(data, MAX_TERRITORIES)  # the validation, in riskmath.game._board_data
        order = parts.territories
        continents = {c: Continent(c, bonus, tuple(order[i] for i in ids), ids) for c, bonus, ids in parts.continents}
        values = {
            "name": parts.name,
            "description": parts.description,
            "source": parts.source,
            "territories": order,
            "continents": MappingProxyType(continents),
            "borders": tuple((order[a], order[b]) for a, b in parts.edges),
            "adjacency": parts.adjacency,
            "continent_ids": tuple((c.bonus, frozenset(c.ids)) for c in continents.values()),
            "aliases": MappingProxyType(parts.aliases),
            "continent_aliases": MappingProxyType(parts.continent_aliases),
            "positions": MappingProxyType(parts.positions),
            "_nbrs": parts.neighbors,
            "_cont_of": parts.owners,
            "_lookup": MappingProxyType(parts.lookup),
            "_exact": MappingProxyType({t: i for i, t in enumerate(order)}),  # canonical names: no normalizing
            "_lookup_continent": MappingProxyType(parts.continent_lookup),
        }
        for attribute, value in values.items():
            object.__setattr__(self, attribute, value)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """Build a board from data in the documented format, validating it.

        Parameters
        ----------
        data : mapping
            As described in the module docstring.

        Raises
        ------
        BoardError
            Naming the problem: a bad key, an unknown territory in a border or
            alias, a self-loop, a repeated border, a territory in two
            continents or none, a duplicate name, an empty continent, a bad
            bonus, an alias clashing with a name, a disconnected graph,
            positions that are not two finite numbers for every territory
            (or for none), a name with invisible characters or a reserved
            one (``RESERVED_NAMES``), or more than
            ``MAX_TERRITORIES`` territories.

        Examples
        --------
        >>> toy = Board.from_dict({"name": "toy", "continents": [
        ...     {"name": "East", "bonus": 2, "territories": ["A", "B"]},
        ...     {"name": "West", "bonus": 1, "territories": ["C"]}],
        ...     "borders": [["A", "B"], ["B", "C"]], "aliases": {"Alpha": "A"}})
        >>> toy, toy.neighbors("alpha"), toy.border_territories("East")
        (Board('toy', 3 territories, 2 borders), ('B',), ('B',))
        """
        return cls(data)

    @classmethod
    def from_json(cls, source: str | os.PathLike[str]) -> Board:
        """Build a board from JSON text, or from the path of a JSON file.

        A ``str`` whose first non-blank character is ``{`` or ``[`` is read as
        JSON text; any other ``str`` or path-like object names a UTF-8 file.

        Text or files over ``MAX_BOARD_JSON`` characters (bytes) are
        refused before parsing, and so is JSON nested deeper than
        ``MAX_BOARD_DEPTH`` (a board needs 3 levels).

        Raises
        ------
        BoardError
            If the file cannot be read (missing, a directory, not UTF-8 ...),
            is too large, the JSON is malformed or too deeply nested, or the
            data are invalid (see :meth:`from_dict`); the message names the
            file.
        """
        if isinstance(source, str) and source.lstrip()[:1] in ("{", "["):
            text, where = source, "JSON text"
            if len(text) > MAX_BOARD_JSON:
                fail(f"board JSON text has {len(text)} characters, over the limit of {MAX_BOARD_JSON}")
        else:
            if not isinstance(source, (str, os.PathLike)):
                fail(f"Board.from_json takes JSON text or the path of a file, got {source!r}")
            where = repr(os.fspath(source))
            path = Path(source)
            try:
                size = path.stat().st_size
                text = ""
                if size <= MAX_BOARD_JSON:
                    with path.open(encoding="utf-8") as file:  # (a device or a pipe has no size: a bounded read)
                        text = file.read(MAX_BOARD_JSON + 1)
            except (OSError, ValueError) as error:  # missing, a directory, no permission, not UTF-8, a NUL ...
                raise BoardError(f"cannot read board file {where}: {error}") from None
            if size > MAX_BOARD_JSON:
                fail(f"board file {where} has {size} bytes, over the limit of {MAX_BOARD_JSON}")
            if len(text) > MAX_BOARD_JSON:
                fail(f"board file {where} goes on past {MAX_BOARD_JSON} characters, the limit")
        depth = _nesting(text)
        if depth > MAX_BOARD_DEPTH:
            fail(f"board JSON in {where} is nested {depth} levels deep, over the limit of {MAX_BOARD_DEPTH}")
        try:
            data = json.loads(text, object_pairs_hook=unique_keys)
        except (ValueError, RecursionError) as error:  # JSONDecodeError, or an integer of too many digits
            raise BoardError(f"invalid board JSON in {where}: {error}") from None
        try:
            return cls(data)
        except BoardError as error:
            if where == "JSON text":
                raise
            raise BoardError(f"board file {where}: {error}") from None

    @staticmethod
    def load(name: str) -> Board:
        """Return a board shipped with riskmath by name, or a part of one; cached.

        ``name`` is one of :data:`~riskmath.game.board.BOARDS` (the shipped
        maps), one of :data:`~riskmath.game.board.SMALL_BOARDS` (small
        boards for learning), or a shipped map's name, a colon and some of
        its continents joined by ``+`` (``"classic:Australia+Asia"``): that
        map :meth:`restricted` to them.

        Raises
        ------
        BoardError
            If the name is none of these, names a continent the map lacks,
            or continents that do not join up.

        Examples
        --------
        >>> Board.load("anniversary_1999")
        Board('anniversary_1999', 42 territories, 82 borders)
        >>> Board.load("south_america_africa")
        Board('south_america_africa', 10 territories, 15 borders)
        >>> Board.load("classic:Australia+Asia")
        Board('classic:Australia+Asia', 16 territories, 28 borders)
        """
        if not isinstance(name, str):
            fail(f"a board name must be a string, got {name!r}")
        return _load_named(name)

    @staticmethod
    def names() -> tuple[str, ...]:
        """The names :meth:`load` knows without a colon: the shipped maps, then the small boards.

        >>> Board.names()
        ('classic', 'anniversary_1999', 'south_america_africa', 'south_america_africa_europe')
        """
        return (*BOARDS, *SMALL_BOARDS)

    def restricted(self, continents: Iterable[str], *, name: str | None = None) -> Board:
        """This board cut down to some of its continents: their territories and the borders between them.

        Bonuses, names, aliases and drawing positions are kept; territory
        ids follow this board's order.  A board for experiments that need
        short games (learning agents, exhaustive studies), and the way the
        small boards of :data:`~riskmath.game.board.SMALL_BOARDS` are made.

        Parameters
        ----------
        continents : iterable of str
            Continent names (or aliases), each once.
        name : str, optional
            The new board's name; by default this one's, a colon and the
            continents joined by ``+``.

        Raises
        ------
        BoardError
            If a continent is unknown or named twice, none is given, or the
            continents are not joined by borders (the board must be
            connected).

        Examples
        --------
        >>> small = Board.classic().restricted(["South America", "Africa"])
        >>> small
        Board('classic:South America+Africa', 10 territories, 15 borders)
        >>> small.neighbors("Brazil")
        ('Venezuela', 'Peru', 'Argentina', 'North Africa')
        """
        if isinstance(continents, str):
            fail(f"continents must be a list of continent names, got the string {continents!r}")
        if not isinstance(continents, Iterable):
            fail(f"continents must be a list of continent names, got {continents!r}")
        wanted = []
        for c in continents:
            found = self._lookup_continent.get(name_key(c)) if isinstance(c, str) else None
            if found is None:
                fail(
                    f"{c!r} is not a continent of board {self.name!r} (its continents are {', '.join(self.continents)})"
                )
            wanted.append(found)
        if not wanted:
            fail(f"restricted() needs at least one continent of board {self.name!r}")
        twice = sorted({c for c in wanted if wanted.count(c) > 1})
        if twice:
            fail(f"continent {twice[0]!r} is named twice")
        keep = {t for c in wanted for t in self.continents[c].territories}
        if not self.connected_within(keep):
            fail(f"continents {' + '.join(wanted)} are not connected to each other on board {self.name!r}")
        data = self.to_dict()
        return Board.from_dict(
            {
                "name": f"{self.name}:{'+'.join(wanted)}" if name is None else name,
                "description": f"the {', '.join(wanted)} of the {self.name} board, with the borders between them",
                "source": data["source"],
                "territories": [t for t in data["territories"] if t in keep],
                "continents": [c for c in data["continents"] if c["name"] in wanted],
                "borders": [pair for pair in data["borders"] if set(pair) <= keep],
                "aliases": {alias: t for alias, t in data["aliases"].items() if t in keep},
                "continent_aliases": {a: c for a, c in data["continent_aliases"].items() if c in wanted},
                "positions": {t: xy for t, xy in data["positions"].items() if t in keep},
            }
        )

    @staticmethod
    def classic() -> Board:
        """The classic 42-territory, 83-border world map (cached)."""
        return _load_shipped("classic")

    @staticmethod
    def anniversary_1999() -> Board:
        """The 1999 anniversary board, without East Africa--Middle East (82 borders; cached)."""
        return _load_shipped("anniversary_1999")

    def to_dict(self) -> dict[str, Any]:
        """The board as JSON-ready data (borders as in ``borders``); ``from_dict`` inverts it."""
        return {
            "name": self.name,
            "description": self.description,
            "source": self.source,
            "territories": list(self.territories),
            "continents": [
                {"name": c.name, "bonus": c.bonus, "territories": list(c.territories)} for c in self.continents.values()
            ],
            "borders": [list(pair) for pair in self.borders],
            "aliases": dict(self.aliases),
            "continent_aliases": dict(self.continent_aliases),
            "positions": {t: list(xy) for t, xy in self.positions.items()},
        }

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text (UTF-8 safe, non-ASCII kept)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def index(self, territory: TerritoryKey) -> int:
        """The id of a territory given by canonical name, alias or id.

        Names ignore case and collapse whitespace.  Ids are Python or NumPy
        integers in ``0..len(board)-1``.

        Raises
        ------
        BoardError
            For an unknown name (suggesting a close match) or an id out of range.

        Examples
        --------
        >>> board = Board.classic()
        >>> board.index("  eastern   canada "), board.index("Venezuala"), board.index(41)
        (5, 9, 41)
        """
        if type(territory) is int and 0 <= territory < len(self.territories):  # the common case, first
            return territory
        if isinstance(territory, str):
            found = self._exact.get(territory)  # a canonical name, as agents and records give them
            if found is not None:
                return found
            found = self._lookup.get(name_key(territory))
            if found is None:
                fail(
                    f"unknown territory {territory!r}"
                    + suggestion(territory, {name_key(t): t for t in (*self, *self.aliases)})
                )
            return found
        if isinstance(territory, bool) or not isinstance(territory, (int, np.integer)):
            fail(f"a territory is a name or an integer id, got {territory!r}")
        if 0 <= territory < len(self.territories):
            return int(territory)
        fail(f"territory id {territory!r} is out of range 0..{len(self.territories) - 1}")

    def name_of(self, territory: TerritoryKey) -> str:
        """The canonical name of a territory (given by id, name or alias)."""
        return self.territories[self.index(territory)]

    def __contains__(self, territory: object) -> bool:
        """Whether ``territory`` (name, alias or id) is on the board."""
        try:
            return self.index(territory) >= 0  # type: ignore[arg-type]
        except BoardError:
            return False

    def _continent(self, continent: str) -> Continent:
        found = self._lookup_continent.get(name_key(continent)) if isinstance(continent, str) else None
        if found is None:
            fail(
                f"unknown continent {continent!r}"
                + suggestion(str(continent), {name_key(c): c for c in self.continents})
            )
        return self.continents[found]

    def continent_name(self, continent: str) -> str:
        """The canonical name of a continent given in any case (or by an alias the board knows).

        Raises
        ------
        BoardError
            For a name the board does not know, with the nearest one.

        Examples
        --------
        >>> Board.classic().continent_name("north america")
        'North America'
        """
        return self._continent(continent).name

    def continent_of(self, territory: TerritoryKey) -> str:
        """The name of the continent a territory belongs to."""
        return self._cont_of[self.index(territory)]

    def neighbors(self, territory: TerritoryKey) -> tuple[str, ...]:
        """Canonical names of the territories bordering ``territory``, in id order."""
        return tuple(self.territories[j] for j in self._nbrs[self.index(territory)])

    def neighbor_ids(self, territory: TerritoryKey) -> tuple[int, ...]:
        """Ids of the territories bordering ``territory``, ascending (fast for an ``int`` id)."""
        if type(territory) is int and 0 <= territory < len(self._nbrs):
            return self._nbrs[territory]
        return self._nbrs[self.index(territory)]

    def is_adjacent(self, a: TerritoryKey, b: TerritoryKey) -> bool:
        """Whether ``a`` and ``b`` share a border (a territory is not adjacent to itself)."""
        return bool(self.adjacency[self.index(a), self.index(b)])

    def border_territories(self, continent: str) -> tuple[str, ...]:
        """Territories of ``continent`` (name or alias) with a neighbor in another continent, in id order."""
        c = self._continent(continent)
        inside = frozenset(c.ids)
        return tuple(self.territories[i] for i in c.ids if any(j not in inside for j in self._nbrs[i]))

    def reachable(self, start: TerritoryKey, within: Iterable[TerritoryKey] | None = None) -> tuple[str, ...]:
        """Territories reachable from ``start`` through territories of ``within``.

        Every territory on the way, ``start`` included, must be in ``within``
        (default: the whole board); the result is in id order and is empty if
        ``start`` is not in ``within``.  With ``within`` a player's territories
        this is where a connected-path fortification from ``start`` may go.

        Examples
        --------
        >>> Board.classic().reachable("Peru", within=["Peru", "Brazil", "Argentina", "North Africa", "Egypt"])
        ('Peru', 'Brazil', 'Argentina', 'North Africa', 'Egypt')
        """
        allowed = None if within is None else {self.index(t) for t in within}
        first = self.index(start)
        if allowed is not None and first not in allowed:
            return ()
        return tuple(self.territories[i] for i in sorted(self.component(first, allowed)))

    def component(self, start: TerritoryKey, allowed: set[int] | frozenset[int] | None = None) -> set[int]:
        """The ids reachable from ``start`` through ids in ``allowed`` (all if None): breadth-first.

        ``start`` itself is included whether or not it is allowed (an id, or
        a name as everywhere else).  The engine's graph search (connected
        fortification, :meth:`reachable`, :meth:`connected_within`), on ids
        for speed: :meth:`reachable` takes and gives names.

        Examples
        --------
        >>> board = Board.classic()
        >>> sorted(board.component(board.index("Peru"), {board.index(t) for t in ("Peru", "Brazil", "Egypt")}))
        [10, 11]
        """
        return component(start if type(start) is int else self.index(start), self._nbrs, allowed)

    def path_exists(self, a: TerritoryKey, b: TerritoryKey, allowed: Iterable[TerritoryKey] | None = None) -> bool:
        """Whether a path joins ``a`` to ``b`` using only territories in ``allowed`` (ends included).

        Examples
        --------
        >>> Board.classic().path_exists("Alaska", "Alberta", allowed={"Alaska", "Kamchatka", "Alberta"})
        True
        >>> Board.classic().path_exists("Kamchatka", "Alberta", allowed={"Kamchatka", "Alberta"})
        False
        """
        return self.name_of(b) in self.reachable(a, allowed)

    def connected_within(self, territories: Iterable[TerritoryKey]) -> bool:
        """Whether ``territories`` form one connected group (true for zero or one territory).

        Examples
        --------
        >>> Board.classic().connected_within(["Siam", "India", "China"])
        True
        >>> Board.classic().connected_within(["Siam", "Japan"])
        False
        """
        ids = {self.index(t) for t in territories}
        return not ids or len(self.component(min(ids), ids)) == len(ids)

    def __len__(self) -> int:
        return len(self.territories)

    def __iter__(self) -> Iterator[str]:
        return iter(self.territories)

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {len(self)} territories, {len(self.borders)} borders)"

    def _identity(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self is other or self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        return (Board.from_dict, (self.to_dict(),))


def _nesting(text: str) -> int:
    """How deep arrays and objects nest in JSON ``text`` (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= MAX_BOARD_DEPTH:
        return 0  # too few brackets to nest too deep
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


@functools.lru_cache(maxsize=64)
def _load_named(name: str) -> Board:
    """:meth:`Board.load` of a string (the cut-down boards built once per name)."""
    if name in BOARDS:
        return _load_shipped(name)
    if name in SMALL_BOARDS:
        base, continents = SMALL_BOARDS[name]
        return _load_shipped(base).restricted(continents, name=name)
    base, colon, wanted = name.partition(":")
    if not colon or base not in BOARDS:
        fail(
            f"unknown board {name!r}; expected one of {', '.join(map(repr, Board.names()))}, or a shipped board's "
            f"name followed by ':' and continents joined by '+' (e.g. 'classic:South America+Africa')"
        )
    return _load_shipped(base).restricted([part.strip() for part in wanted.split("+")])


@functools.cache
def _load_shipped(name: str) -> Board:
    text = resources.files("riskmath.game").joinpath("data", f"{name}.json").read_text(encoding="utf-8")
    return Board.from_json(text)
