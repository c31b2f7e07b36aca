"""Validation helpers for board data (private; used by :mod:`riskmath.game.board`)."""

from __future__ import annotations

import difflib
import math
import numbers
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from riskmath.errors import BoardError
from riskmath.game.cards import WILD

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


def _norm(name: str) -> str:
    """The lookup key of a name: compatibility-normalized (NFKC), invisibles dropped, spaces collapsed, casefolded.

    Look-alike spellings of one name (composed or decomposed accents, full-width letters, a zero-width space)
    share a key: a board refuses two territories with one key, and lookups find the territory by any of them.
    """
    if not name.isascii():
        name = unicodedata.normalize("NFKC", _visible(name))
    return " ".join(name.split()).casefold()


def _fail(message: str) -> NoReturn:
    raise BoardError(message)


def _clean_name(what: str, value: object, *, territory: bool = False) -> str:
    """Return ``value`` in NFC if it is a non-empty visible name without stray whitespace.

    A ``territory`` name (or territory alias) must not be one of :data:`RESERVED_NAMES` either.
    """
    if not isinstance(value, str) or not value.strip():
        _fail(f"{what} must be a non-empty string, got {value!r}")
    if not value.isascii():
        if _visible(value) != value:
            hidden = sorted({f"U+{ord(c):04X}" for c in value if c not in _visible(c)})
            _fail(f"{what} {value!r} contains invisible characters ({', '.join(hidden)})")
        value = unicodedata.normalize("NFC", value)
    if value != " ".join(value.split()):
        _fail(f"{what} {value!r} has leading, trailing or repeated whitespace")
    if territory and _norm(value) in RESERVED_NAMES:
        reserved = ", ".join(map(repr, RESERVED_NAMES))
        _fail(f"{what} {value!r} is a reserved name ({reserved}, in any case): cards and owners use them")
    return value


def _canonical(value: object) -> object:
    """A name as given in borders, positions and alias targets, in NFC like the names it must match."""
    return unicodedata.normalize("NFC", value) if isinstance(value, str) and not value.isascii() else value


def _list(what: str, value: object) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else _fail(f"{what} must be a list, got {value!r}")


def _mapping(what: str, value: object) -> Mapping[Any, Any]:
    return value if isinstance(value, Mapping) else _fail(f"{what} must be a mapping, got {value!r}")


def _suggest(key: str, options: Mapping[str, str]) -> str:
    match = difflib.get_close_matches(_norm(key), list(options), n=1, cutoff=0.75)
    return f"; did you mean {options[match[0]]!r}?" if match else ""


def _aliases(what: str, raw: object, target: str, names: Mapping[str, str]) -> dict[str, str]:
    """Validate an alias table against the normalized -> canonical ``names``."""
    result: dict[str, str] = {}
    taken: dict[str, str] = {}
    for alias, canonical in _mapping(f"{what}es", raw).items():
        alias = _clean_name(what, alias, territory=target == "territory")
        canonical = _canonical(canonical)
        if not isinstance(canonical, str) or canonical not in names.values():
            _fail(f"{what} {alias!r} points to unknown {target} {canonical!r}" + _suggest(str(canonical), names))
        if _norm(alias) in names:
            _fail(f"{what} {alias!r} clashes with {target} name {names[_norm(alias)]!r}")
        if _norm(alias) in taken:
            _fail(f"{what} {alias!r} clashes with {what} {taken[_norm(alias)]!r}")
        taken[_norm(alias)] = alias
        result[alias] = canonical
    return result


def _positions(raw: object, order: Sequence[str]) -> dict[str, Position]:
    """Validate a ``positions`` table (canonical name -> ``[x, y]``); return it in id order.

    Either every territory has a position or none does (an empty mapping).
    """
    table = {_canonical(name): xy for name, xy in _mapping("positions", raw).items()}
    known = {_norm(t): t for t in order}
    for name, xy in table.items():
        if name not in order:
            _fail(f"positions: unknown territory {name!r}" + _suggest(str(name), known))
        if not isinstance(xy, (list, tuple)) or len(xy) != 2:
            _fail(f"position of {name!r} must be a pair [x, y], got {xy!r}")
        for value in xy:
            finite = not isinstance(value, bool) and isinstance(value, numbers.Real) and math.isfinite(value)
            if not finite:
                _fail(f"position of {name!r} must be two finite numbers, got {xy!r}")
    missing = [t for t in order if t not in table]
    if table and missing:
        shown = ", ".join(map(repr, missing[:5])) + (", ..." if len(missing) > 5 else "")
        _fail(f"positions must cover every territory or none; missing {len(missing)}: {shown}")
    return {t: (float(table[t][0]), float(table[t][1])) for t in order if t in table}
