"""Parsing and validation of board data (private module; :class:`riskmath.game.board.Board` stores the result).

:func:`parse_board` checks the data of the documented format (see
:mod:`riskmath.game.board`) and returns the normalised pieces a board keeps;
:func:`name_key`, :func:`suggestion`, :func:`fail` and :func:`component` are
the name lookups, error messages and graph search the board shares with it.
Every error is a :class:`~riskmath.errors.BoardError` naming the problem.
"""

from __future__ import annotations

import difflib
import math
import numbers
import unicodedata
from collections import deque
from collections.abc import Container, Mapping, Sequence
from typing import Any, NamedTuple, NoReturn

import numpy as np
import numpy.typing as npt

from riskmath._validation import shown
from riskmath.errors import BoardError
from riskmath.game.cards import MAX_ARMIES, WILD

#: A territory's drawing position: (x, y), x growing to the right (east), y upwards (north).
Position = tuple[float, float]

#: Labels of the neutral owners (the two-player variants); ``riskmath.game.game.NEUTRAL_NAMES``.
NEUTRAL_NAMES = ("neutral", "neutral 2", "neutral 3", "neutral 4")

#: Names no territory or alias may take, in any case: the wild card's name in hands and trades, and the
#: neutral owners' labels (a territory named "wild" would be a third wild card).
RESERVED_NAMES = (WILD, *NEUTRAL_NAMES)

# Characters that do not show: format characters (zero-width spaces and joiners, direction marks, soft
# hyphens: Unicode category Cf) and controls (Cc, tabs and new lines aside, which are whitespace).
_INVISIBLE = frozenset(("Cf", "Cc", "Co", "Cs", "Cn"))


def _visible(name: str) -> str:
    """``name`` without the characters that do not show (kept whitespace aside)."""
    if name.isascii() and name.isprintable():
        return name
    return "".join(c for c in name if c.isspace() or unicodedata.category(c) not in _INVISIBLE)


def name_key(name: str) -> str:
    """The lookup key of a name: compatibility-normalized (NFKC), invisibles dropped, spaces collapsed, casefolded.

    Look-alike spellings of one name (composed or decomposed accents, full-width letters, a zero-width space)
    share a key: a board refuses two territories with one key, and lookups find the territory by any of them.
    Layer-internal: :class:`~riskmath.game.board.Board` looks names up by it.
    """
    if not name.isascii():
        name = unicodedata.normalize("NFKC", _visible(name))
    return " ".join(name.split()).casefold()


def fail(message: str) -> NoReturn:
    raise BoardError(message)


def _clean_name(what: str, value: object, *, territory: bool = False) -> str:
    """Return ``value`` in NFC if it is a non-empty visible name without stray whitespace.

    A ``territory`` name (or territory alias) must not be one of :data:`RESERVED_NAMES` either.
    """
    if not isinstance(value, str) or not value.strip():
        fail(f"{what} must be a non-empty string, got {value!r}")
    if not value.isascii():
        if _visible(value) != value:
            hidden = sorted({f"U+{ord(c):04X}" for c in value if c not in _visible(c)})
            fail(f"{what} {value!r} contains invisible characters ({', '.join(hidden)})")
        value = unicodedata.normalize("NFC", value)
    if value != " ".join(value.split()):
        fail(f"{what} {value!r} has leading, trailing or repeated whitespace")
    if territory and name_key(value) in RESERVED_NAMES:
        reserved = ", ".join(map(repr, RESERVED_NAMES))
        fail(f"{what} {value!r} is a reserved name ({reserved}, in any case): cards and owners use them")
    return value


def _canonical(value: object) -> object:
    """A name as given in borders, positions and alias targets, in NFC like the names it must match."""
    return unicodedata.normalize("NFC", value) if isinstance(value, str) and not value.isascii() else value


def _list(what: str, value: object) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else fail(f"{what} must be a list, got {value!r}")


def _mapping(what: str, value: object) -> Mapping[Any, Any]:
    return value if isinstance(value, Mapping) else fail(f"{what} must be a mapping, got {value!r}")


def suggestion(key: str, options: Mapping[str, str]) -> str:
    match = difflib.get_close_matches(name_key(key), list(options), n=1, cutoff=0.75)
    return f"; did you mean {options[match[0]]!r}?" if match else ""


def _aliases(what: str, raw: object, target: str, names: Mapping[str, str]) -> dict[str, str]:
    """Validate an alias table against the normalized -> canonical ``names``."""
    result: dict[str, str] = {}
    taken: dict[str, str] = {}
    for alias, canonical in _mapping(f"{what}es", raw).items():
        alias = _clean_name(what, alias, territory=target == "territory")
        canonical = _canonical(canonical)
        if not isinstance(canonical, str) or canonical not in names.values():
            fail(f"{what} {alias!r} points to unknown {target} {canonical!r}" + suggestion(str(canonical), names))
        if name_key(alias) in names:
            fail(f"{what} {alias!r} clashes with {target} name {names[name_key(alias)]!r}")
        if name_key(alias) in taken:
            fail(f"{what} {alias!r} clashes with {what} {taken[name_key(alias)]!r}")
        taken[name_key(alias)] = alias
        result[alias] = canonical
    return result


def _positions(raw: object, order: Sequence[str]) -> dict[str, Position]:
    """Validate a ``positions`` table (canonical name -> ``[x, y]``); return it in id order.

    Either every territory has a position or none does (an empty mapping).
    """
    table = {_canonical(name): xy for name, xy in _mapping("positions", raw).items()}
    known = {name_key(t): t for t in order}
    for name, xy in table.items():
        if name not in order:
            fail(f"positions: unknown territory {name!r}" + suggestion(str(name), known))
        if not isinstance(xy, (list, tuple)) or len(xy) != 2:
            fail(f"position of {name!r} must be a pair [x, y], got {xy!r}")
        for value in xy:
            finite = not isinstance(value, bool) and isinstance(value, numbers.Real) and math.isfinite(value)
            if not finite:
                fail(f"position of {name!r} must be two finite numbers, got {xy!r}")
    missing = [t for t in order if t not in table]
    if table and missing:
        shown = ", ".join(map(repr, missing[:5])) + (", ..." if len(missing) > 5 else "")
        fail(f"positions must cover every territory or none; missing {len(missing)}: {shown}")
    return {t: (float(table[t][0]), float(table[t][1])) for t in order if t in table}


def component(start: int, nbrs: Sequence[Sequence[int]], allowed: Container[int] | None) -> set[int]:
    """The ids reachable from ``start`` through ids in ``allowed`` (all if None) on an adjacency list.

    Breadth-first; ``start`` is included whether or not it is allowed.  Layer-internal:
    :meth:`riskmath.game.board.Board.component` and the connectivity check of :func:`parse_board`.
    """
    seen = {start}
    queue = deque([start])
    while queue:
        for j in nbrs[queue.popleft()]:
            if j not in seen and (allowed is None or j in allowed):
                seen.add(j)
                queue.append(j)
    return seen


_KEYS = {
    *("name", "description", "source", "territories", "continents"),
    *("borders", "aliases", "continent_aliases", "positions"),
}


class BoardParts(NamedTuple):
    """Board data validated and normalised: what :class:`~riskmath.game.board.Board` stores (layer-internal).

    Names are canonical (NFC); ids are positions in ``territories``.
    """

    name: str
    description: str
    source: str
    #: Canonical territory names in id order.
    territories: tuple[str, ...]
    #: ``(name, bonus, ids)`` per continent in data order, the ids ascending.
    continents: tuple[tuple[str, int, tuple[int, ...]], ...]
    #: The continent of each territory, by id.
    owners: tuple[str, ...]
    #: Every border once as ``(lower id, higher id)``, sorted.
    edges: tuple[tuple[int, int], ...]
    #: The read-only symmetric boolean adjacency matrix, by id.
    adjacency: npt.NDArray[np.bool_]
    #: The neighbors' ids of each territory, ascending, by id.
    neighbors: tuple[tuple[int, ...], ...]
    #: Alias to canonical territory (continent) name.
    aliases: dict[str, str]
    continent_aliases: dict[str, str]
    #: Drawing positions by canonical name, in id order (empty when the data give none).
    positions: dict[str, Position]
    #: :func:`name_key` of every territory name and alias to its id.
    lookup: dict[str, int]
    #: :func:`name_key` of every continent name and alias to the continent's name.
    continent_lookup: dict[str, str]


def parse_board(data: object, max_territories: int) -> BoardParts:
    """Validate board data in the documented format and return its normalised pieces (layer-internal).

    Parameters
    ----------
    data : mapping
        As described in :mod:`riskmath.game.board`.
    max_territories : int
        Most territories accepted (``riskmath.game.board.MAX_TERRITORIES``).

    Raises
    ------
    BoardError
        Naming the first problem found (see :meth:`riskmath.game.board.Board.from_dict`).
    """
    data = _mapping("board data", data)
    unknown = sorted(map(str, set(data) - _KEYS))
    if unknown:
        fail(f"unknown board key(s) {', '.join(map(repr, unknown))}; expected some of {sorted(_KEYS)}")
    for required in ("name", "continents", "borders"):
        if required not in data:
            fail(f"board data lacks the required key {required!r}")
    name = _clean_name("board name", data["name"])
    description, source = data.get("description", ""), data.get("source", "")
    for what, value in (("description", description), ("source", source)):
        if not isinstance(value, str):
            fail(f"board {what} must be a string, got {value!r}")

    # Continents and their territories.
    continents: list[tuple[str, int, list[str]]] = []
    owner: dict[str, str] = {}  # territory -> continent
    seen: dict[str, str] = {}  # normalized territory name -> canonical
    seen_continent: dict[str, str] = {}
    raw_continents = _list("continents", data["continents"])
    if not raw_continents:
        fail("a board needs at least one continent")
    for number, raw in enumerate(raw_continents):
        raw = _mapping(f"continent {number}", raw)
        if set(raw) != {"name", "bonus", "territories"}:
            keys = sorted(map(str, raw))
            fail(f"continent {number} needs exactly the keys 'bonus', 'name', 'territories', got {keys}")
        cname = _clean_name(f"continent {number} name", raw["name"])
        if name_key(cname) in seen_continent:
            fail(f"duplicate continent name {cname!r}")
        seen_continent[name_key(cname)] = cname
        bonus = raw["bonus"]
        if isinstance(bonus, bool) or not isinstance(bonus, numbers.Integral) or bonus < 0:
            fail(f"continent {cname!r} bonus must be a non-negative integer, got {shown(bonus)}")
        if int(bonus) > MAX_ARMIES:
            fail(f"continent {cname!r} bonus must be at most {MAX_ARMIES}, got {shown(bonus)}")
        members = [
            _clean_name(f"territory of {cname!r}", t, territory=True)
            for t in _list(f"{cname!r} territories", raw["territories"])
        ]
        if not members:
            fail(f"continent {cname!r} has no territories")
        for t in members:
            if t in owner:
                where = "twice in" if owner[t] == cname else f"in both {owner[t]!r} and"
                fail(f"territory {t!r} is listed {where} {cname!r}")
            if name_key(t) in seen:
                other = seen[name_key(t)]
                fail(f"territory names {other!r} and {t!r} differ only in case or spacing (or look alike in Unicode)")
            owner[t], seen[name_key(t)] = cname, t
        continents.append((cname, int(bonus), members))

    # Territory order (ids).
    order = [t for _, _, members in continents for t in members]
    if "territories" in data:
        listed = [_clean_name("territory", t, territory=True) for t in _list("territories", data["territories"])]
        for i, t in enumerate(listed):
            if t not in owner:
                fail(f"territory {t!r} belongs to no continent" + suggestion(t, seen))
            if t in listed[:i]:
                fail(f"territory {t!r} is listed twice in 'territories'")
        for t in order:
            if t not in listed:
                fail(f"territory {t!r} of continent {owner[t]!r} is missing from 'territories'")
        order = listed
    ids = {t: i for i, t in enumerate(order)}
    n = len(order)
    if n > max_territories:  # the adjacency matrix takes n * n bytes
        fail(f"board has {n} territories, over the limit of {max_territories} (its adjacency takes n*n bytes)")

    # Borders: undirected pairs, each listed once.
    first: dict[tuple[int, int], int] = {}
    for number, pair in enumerate(_list("borders", data["borders"])):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not all(isinstance(t, str) for t in pair):
            fail(f"border {number} must be a pair of territory names, got {pair!r}")
        pair = [_canonical(t) for t in pair]
        for t in pair:
            if t not in ids:
                fail(f"border {number} {list(pair)} names unknown territory {t!r}" + suggestion(t, seen))
        a, b = sorted((ids[pair[0]], ids[pair[1]]))
        if a == b:
            fail(f"border {number} joins {pair[0]!r} to itself")
        if (a, b) in first:
            fail(f"border {number} {list(pair)} repeats border {first[a, b]} (borders are undirected)")
        first[a, b] = number
    edges = sorted(first)
    matrix = np.zeros((n, n), dtype=bool)
    for a, b in edges:
        matrix[a, b] = matrix[b, a] = True
    matrix.flags.writeable = False
    nbrs = tuple(tuple(np.flatnonzero(row).tolist()) for row in matrix)
    reached = component(0, nbrs, None)
    if len(reached) < n:
        lost = ", ".join(repr(order[i]) for i in range(n) if i not in reached)
        fail(f"board is not connected: {lost} cannot be reached from {order[0]!r}")

    aliases = _aliases("alias", data.get("aliases", {}), "territory", seen)
    continent_aliases = _aliases("continent alias", data.get("continent_aliases", {}), "continent", seen_continent)

    return BoardParts(
        name=name,
        description=description,
        source=source,
        territories=tuple(order),
        continents=tuple((c, bonus, tuple(sorted(ids[t] for t in members))) for c, bonus, members in continents),
        owners=tuple(owner[t] for t in order),
        edges=tuple(edges),
        adjacency=matrix,
        neighbors=nbrs,
        aliases=aliases,
        continent_aliases=continent_aliases,
        positions=_positions(data.get("positions", {}), order),
        lookup={name_key(t): i for i, t in enumerate(order)} | {name_key(a): ids[t] for a, t in aliases.items()},
        continent_lookup={name_key(c): c for c, _, _ in continents}
        | {name_key(a): c for a, c in continent_aliases.items()},
    )
