"""Positions to and from JSON, with consistency checks on the way in (private).

The format (``riskmath-state/1``) is one JSON object: ``"format"``, the game
(``Game.to_dict``), every field of the position by its name in
:data:`~riskmath.game.position.FIELDS`, and ``"auto_chance"``.
:meth:`GameState.to_json` and :meth:`GameState.from_json` are the public
face; the game part is read there, the position here.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from riskmath.errors import StateError
from riskmath.game.missions import missions_for
from riskmath.game.phase import Phase
from riskmath.game.position import FIELDS, Capture, PendingBattle, Position

if TYPE_CHECKING:
    from riskmath.game.game import Game

FORMAT = "riskmath-state/1"


def to_json(game: Game, pos: Position, auto_chance: bool) -> str:
    """The JSON text of a state: its game, its position and the auto-chance flag."""
    data: dict[str, Any] = {"format": FORMAT, "game": game.to_dict()}
    for name in FIELDS:
        value = getattr(pos, name)
        if name == "phase":
            value = value.value
        elif name == "bonus":
            value = [[k, v] for k, v in sorted(value.items())]
        data[name] = value
    data["auto_chance"] = auto_chance
    return json.dumps(data, separators=(",", ":"))


def parse(text: str) -> dict[str, Any]:
    """The JSON object of a state, with every field present (not yet checked).

    Raises
    ------
    StateError
        If ``text`` is not JSON, not in this format, or lacks a field.
    """
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise StateError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StateError(f"not a riskmath state (format {FORMAT!r} expected)")
    missing = [name for name in (*FIELDS, "game", "auto_chance") if name not in data]
    if missing:
        raise StateError(f"state is missing {missing}")
    return data


def position_from_data(game: Game, data: dict[str, Any]) -> Position:
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
    try:
        for name in FIELDS:
            value = data[name]
            if name == "phase":
                value = Phase(value)
            elif name == "bonus":
                value = {int(k): int(v) for k, v in value}
            elif name == "pending" and value is not None:
                value = PendingBattle(*value)
            elif name == "occupy" and value is not None:
                value = Capture(*value)
            elif name == "queue":
                value = [tuple(item) for item in value]
            setattr(pos, name, value)
    except (TypeError, ValueError) as error:
        raise StateError(f"bad state field: {error}") from None
    found = problems(game, pos)
    if found:
        raise StateError("inconsistent state: " + "; ".join(found))
    return pos


def _is_int(value: object, low: int = 0, high: int | None = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low and (high is None or value <= high)


def _ints(value: object, length: int | None, low: int = 0, high: int | None = None) -> bool:
    return (
        isinstance(value, list)
        and (length is None or len(value) == length)
        and all(_is_int(v, low, high) for v in value)
    )


def _shape_problems(data: dict[str, Any], game: Game) -> list[str]:
    """The fields whose JSON type or range is wrong (checked before the position is rebuilt).

    A corrupt file must raise StateError, not escape as a TypeError from the
    consistency checks (``"owner": ["x", ...]``, ``"hands": 5``) or be
    accepted (``"pool": -5``).
    """
    n, players, owners = len(game.board), game.players, game.owners
    last = n - 1
    checks: dict[str, bool] = {
        "player": _is_int(data["player"], -1, owners - 1),
        "turn": _is_int(data["turn"]),
        "first": _is_int(data["first"], -1, players - 1),
        "owner": _ints(data["owner"], n, -1, owners - 1),
        "armies": _ints(data["armies"], n),
        "hands": isinstance(data["hands"], list)
        and len(data["hands"]) == players
        and all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in data["hands"]),
        "sets_traded": _is_int(data["sets_traded"]),
        "pool": _is_int(data["pool"]),
        "bonus": isinstance(data["bonus"], list) and all(_ints(pair, 2, -(2**63)) for pair in data["bonus"]),
        "setup_left": _ints(data["setup_left"], owners),
        "queue": isinstance(data["queue"], list) and all(_ints(item, 2) and item[0] < owners for item in data["queue"]),
        "dealt": _is_int(data["dealt"], 0, n),
        "captured": isinstance(data["captured"], bool),
        "bonus_taken": _is_int(data["bonus_taken"]),
        "pending": data["pending"] is None
        or (
            isinstance(data["pending"], list)
            and len(data["pending"]) == 6
            and data["pending"][0] in ("attack", "blitz")
            and _ints(data["pending"][1:3], 2, 0, last)
            and _ints(data["pending"][3:5], 2)
            and (data["pending"][5] is None or _is_int(data["pending"][5], 1))
        ),
        "occupy": data["occupy"] is None or (_ints(data["occupy"], 3) and _ints(data["occupy"][:2], 2, 0, last)),
        "trade_down": isinstance(data["trade_down"], bool),
        "alive": isinstance(data["alive"], list)
        and len(data["alive"]) == players
        and all(isinstance(v, bool) for v in data["alive"]),
        "killed_by": _ints(data["killed_by"], players, -1, players - 1),
        "winner": data["winner"] is None or _is_int(data["winner"], 0, players - 1),
        "missions": isinstance(data["missions"], list) and all(isinstance(m, str) for m in data["missions"]),
        "capitals": _ints(data["capitals"], None, 0, last) and len(data["capitals"]) <= players,
        "moved": _ints(data["moved"], None, 0, last),
        "rng": _is_int(data["rng"], 0, 2**64 - 1),
        "auto_chance": isinstance(data["auto_chance"], bool),
    }
    for name in ("deck", "discard"):
        checks[name] = isinstance(data[name], list) and all(isinstance(c, str) for c in data[name])
    problems = [f"{name} has a bad value {data[name]!r}"[:200] for name, ok in checks.items() if not ok]
    if not problems and data["missions"]:
        allowed = missions_for(game.rules.missions, players) if game.rules.missions != "none" else ()
        unknown = [m for m in data["missions"] if m not in allowed]
        if unknown or len(data["missions"]) > players:
            problems.append(f"missions {data['missions']!r} are not missions of this game")
    return problems


def problems(game: Game, pos: Position) -> list[str]:
    """What is wrong with a position of ``game`` (empty when it is consistent); see ``GameState.problems``."""
    n = len(game.board)
    found: list[str] = []
    names = game.board.territories
    if len(pos.owner) != n or len(pos.armies) != n:
        return [f"owner and armies must have {n} entries"]
    if len(pos.hands) != game.players or len(pos.alive) != game.players:
        return [f"hands and alive must have {game.players} entries"]
    setup = pos.phase.name.startswith("SETUP")
    for t in range(n):
        if not -1 <= pos.owner[t] < game.owners:
            found.append(f"{names[t]} has an unknown owner {pos.owner[t]}")
        elif pos.owner[t] >= 0 and pos.armies[t] < 1 and pos.phase.name not in ("OCCUPY",):
            found.append(f"{names[t]} is held with {pos.armies[t]} armies")
        elif pos.owner[t] < 0 and (not setup or pos.armies[t] != 0):
            found.append(f"{names[t]} has no owner")
    cards = Counter(pos.deck) + Counter(pos.discard)
    for hand in pos.hands:
        cards += Counter(hand)
    headquarters = {names[t] for t in pos.capitals if isinstance(t, int) and 0 <= t < n}
    expected = Counter(game.territory_cards if setup else [c for c in game.full_deck if c not in headquarters])
    if not setup and cards != expected:
        lost = sorted((expected - cards).elements())
        extra = sorted((cards - expected).elements())
        found.append(f"cards do not add up to the deck: missing {lost}, extra {extra}")
    for p in range(game.players):
        if pos.alive[p] and not setup and p not in pos.owner:
            found.append(f"player {p} is alive but holds no territory")
        if not pos.alive[p] and p in pos.owner:
            found.append(f"player {p} is eliminated but still holds territory")
    if pos.winner is not None and not 0 <= pos.winner < game.players:
        found.append(f"winner {pos.winner} is not a player")
    if not setup and pos.phase.name != "GAME_OVER" and not 0 <= pos.player < game.players:
        found.append(f"the player to move, {pos.player}, is not a player")
    return found
