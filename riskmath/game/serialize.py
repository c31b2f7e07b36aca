"""Positions to and from JSON, with consistency checks on the way in (private).

The format (``riskmath-state/1``) is one JSON object: ``"format"``, the game
(``Game.to_dict``, with every rules option spelled out), every field of the
position by its name in :data:`~riskmath.game.position.FIELDS`, and
``"auto_chance"``; no other key.  :meth:`GameState.to_json` and
:meth:`GameState.from_json` are the public face; the game part is read there,
the position here.

A loaded state is either consistent or refused with a
:class:`~riskmath.errors.StateError` naming what is wrong: the text is at
most :data:`MAX_TEXT` characters (overridable), the JSON must parse (deep
nesting and over-long numbers are refused as "not JSON"), and then every
field is checked twice: its shape (:func:`_shape_problems`: JSON type, length
and range; no bool where an int is expected, no float, no integer beyond
:data:`BIG`) and then the invariants of play, which
:mod:`~riskmath.game.invariants` defines and lists (:func:`problems` runs
both, and ``GameState.problems`` reports them for a state built by hand too).
"""

from __future__ import annotations

import json
from typing import Any

from riskmath._validation import unique_keys
from riskmath.errors import StateError
from riskmath.game.context import GameContext
from riskmath.game.invariants import consistency
from riskmath.game.phase import Phase
from riskmath.game.position import FIELDS, Capture, PendingBattle, Position

FORMAT = "riskmath-state/1"
#: Most characters in a state's JSON text (``GameState.from_json(text, max_chars=...)`` overrides it).
MAX_TEXT = 50_000_000
#: The largest integer a counter of a state may hold (armies are bounded by the game's cap as well).
BIG = 2**63 - 1
#: The keys of a state's JSON object.
KEYS = ("format", "game", *FIELDS, "auto_chance")


def to_json(game: GameContext, pos: Position, auto_chance: bool) -> str:
    """The JSON text of a state: its game, its position and the auto-chance flag."""
    data: dict[str, Any] = {"format": FORMAT, "game": game.to_dict()}
    data.update(_data_of(pos))
    data["auto_chance"] = auto_chance
    return json.dumps(data, separators=(",", ":"))


def _data_of(pos: Position) -> dict[str, Any]:
    """The position's fields as JSON values (lists for tuples, the phase's value, ``bonus`` as pairs)."""
    data: dict[str, Any] = {}
    for name in FIELDS:
        value = getattr(pos, name, None)
        if name == "phase":
            value = getattr(value, "value", value)
        elif name == "bonus" and isinstance(value, dict):
            value = [[k, v] for k, v in sorted(value.items(), key=repr)]
        elif isinstance(value, tuple):
            value = list(value)
        elif name == "queue" and isinstance(value, list):
            value = [list(item) if isinstance(item, tuple) else item for item in value]
        data[name] = value
    return data


def parse(text: str, max_chars: int = MAX_TEXT) -> dict[str, Any]:
    """The JSON object of a state, with every field present and no other (not yet checked).

    Raises
    ------
    StateError
        If ``text`` is longer than ``max_chars``, not JSON (or nested too
        deeply), not in this format, lacks a field or has an unknown one.
    """
    if isinstance(text, (str, bytes, bytearray)) and len(text) > max_chars:
        raise StateError(
            f"state text has {len(text)} characters, more than the limit of {max_chars} "
            "(pass max_chars= to read a larger one)"
        )
    try:
        data = json.loads(text, object_pairs_hook=unique_keys)
    except RecursionError:
        raise StateError("not JSON: nested too deeply") from None
    except (TypeError, ValueError) as error:
        raise StateError(f"not JSON: {error}"[:300]) from None
    if not isinstance(data, dict):
        raise StateError(f"not a riskmath state (format {FORMAT!r} expected)")
    version = data.get("format")
    if version != FORMAT:
        if isinstance(version, str) and version.startswith("riskmath-state/"):
            raise StateError(f"unsupported state format {version!r}; this version of riskmath reads {FORMAT!r}")
        raise StateError(f"not a riskmath state (format {FORMAT!r} expected)")
    missing = [name for name in KEYS if name not in data]
    if missing:
        raise StateError(f"state is missing {missing}")
    unknown = sorted(str(key) for key in data if key not in KEYS)
    if unknown:
        raise StateError(f"state has unknown fields {unknown}"[:300])
    return data


def position_from_data(game: GameContext, data: dict[str, Any]) -> Position:
    """The position described by ``data`` (from :func:`parse`), checked against ``game``.

    Raises
    ------
    StateError
        If a field has the wrong type or range, or the position is inconsistent (:func:`problems`).
    """
    shape = _shape_problems(data, game)
    if shape:
        raise StateError("bad state field: " + "; ".join(shape))
    pos = Position.__new__(Position)
    for name in FIELDS:
        value = data[name]
        if name == "phase":
            value = Phase(value)
        elif name == "bonus":
            value = {k: v for k, v in value}
        elif name == "pending" and value is not None:
            value = PendingBattle(*value)
        elif name == "occupy" and value is not None:
            value = Capture(*value)
        elif name == "queue":
            value = [tuple(item) for item in value]
        setattr(pos, name, value)
    found = consistency(game, pos)
    if found:
        raise StateError("inconsistent state: " + "; ".join(found))
    return pos


def _is_int(value: object, low: int = 0, high: int = BIG) -> bool:
    return type(value) is int and low <= value <= high


def _ints(value: object, length: int | None, low: int = 0, high: int = BIG) -> bool:
    return (
        isinstance(value, list)
        and (length is None or len(value) == length)
        and all(_is_int(v, low, high) for v in value)
    )


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(type(c) is str for c in value)


_PHASES = frozenset(phase.value for phase in Phase)


def _shape_problems(data: dict[str, Any], game: GameContext, auto: bool = True) -> list[str]:
    """The fields whose JSON type, length or range is wrong (checked before the position is rebuilt).

    A corrupt file must raise StateError, not escape as a TypeError from the
    consistency checks (``"owner": ["x", ...]``, ``"hands": 5``) or be
    accepted (``"pool": -5``, ``"pool": true``, ``"pool": 1e3``, ``"pool": 10**400``).
    """
    n, players, owners = len(game.board), game.players, game.owners
    last = n - 1
    pending, occupy = data["pending"], data["occupy"]
    checks: dict[str, bool] = {
        "phase": type(data["phase"]) is str and data["phase"] in _PHASES,
        "player": _is_int(data["player"], -1, owners - 1),
        "turn": _is_int(data["turn"]),
        "first": _is_int(data["first"], -1, players - 1),
        "owner": _ints(data["owner"], n, -1, owners - 1),
        "armies": _ints(data["armies"], n),
        "hands": isinstance(data["hands"], list)
        and len(data["hands"]) == players
        and all(map(_strings, data["hands"])),
        "deck": _strings(data["deck"]),
        "discard": _strings(data["discard"]),
        "sets_traded": _is_int(data["sets_traded"]),
        "pool": _is_int(data["pool"]),
        "bonus": isinstance(data["bonus"], list) and all(_ints(pair, 2, 0, BIG) for pair in data["bonus"]),
        "setup_left": _ints(data["setup_left"], owners),
        "queue": isinstance(data["queue"], list)
        and len(data["queue"]) <= owners
        and all(_ints(item, 2) and item[0] < owners for item in data["queue"]),
        "dealt": _is_int(data["dealt"], 0, n),
        "captured": type(data["captured"]) is bool,
        "bonus_taken": _is_int(data["bonus_taken"]),
        "pending": pending is None
        or (
            isinstance(pending, list)
            and len(pending) == 6
            and pending[0] in ("attack", "blitz")
            and _ints(pending[1:3], 2, 0, last)
            and _ints(pending[3:5], 2, 0, BIG)
            and pending[4] < players
            and (pending[5] is None or _is_int(pending[5], 1))
        ),
        "occupy": occupy is None or (_ints(occupy, 3) and _ints(occupy[:2], 2, 0, last)),
        "trade_down": type(data["trade_down"]) is bool,
        "alive": isinstance(data["alive"], list)
        and len(data["alive"]) == players
        and all(type(v) is bool for v in data["alive"]),
        "killed_by": _ints(data["killed_by"], players, -1, players - 1),
        "winner": data["winner"] is None or _is_int(data["winner"], 0, players - 1),
        "missions": _strings(data["missions"]) and len(data["missions"]) <= players,
        "capitals": _ints(data["capitals"], None, 0, last) and len(data["capitals"]) <= players,
        "moved": _ints(data["moved"], None, 0, last) and len(data["moved"]) <= n,
        "piles": _ints(data["piles"], None, -1, 2) and len(data["piles"]) in (0, n),
        "rng": _is_int(data["rng"], 0, 2**64 - 1),
    }
    if auto:
        checks["auto_chance"] = type(data["auto_chance"]) is bool
    problems = [f"{name} has a bad value {_short(data[name])}" for name, ok in checks.items() if not ok]
    if not checks["phase"]:
        problems[0] += f" ({_short(data['phase'])} is not a valid Phase: one of {sorted(_PHASES)})"
    return problems


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:100] + f"... ({len(text)} characters)"


def problems(game: GameContext, pos: Position) -> list[str]:
    """What is wrong with a position of ``game`` (empty when it is consistent); see ``GameState.problems``.

    The same checks as loading a state: the shape of every field, then the
    invariants of play (:func:`riskmath.game.invariants.consistency`).
    """
    try:
        shape = _shape_problems(_data_of(pos), game, auto=False)
    except (TypeError, AttributeError, KeyError) as error:  # not even a position's fields
        return [f"not a position: {error}"]
    if shape:
        return shape
    kinds = (
        isinstance(pos.phase, Phase)
        and (pos.pending is None or isinstance(pos.pending, PendingBattle))
        and (pos.occupy is None or isinstance(pos.occupy, Capture))
        and isinstance(pos.bonus, dict)
    )
    if not kinds:
        return ["phase, pending, occupy or bonus has the wrong type (Phase, PendingBattle, Capture, dict)"]
    return consistency(game, pos)
