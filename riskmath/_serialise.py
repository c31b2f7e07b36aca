"""Game states to and from JSON, with consistency checks on the way in (private)."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from riskmath.errors import RiskmathError, StateError

if TYPE_CHECKING:
    from riskmath.state import GameState

FORMAT = "riskmath-state/1"


def state_to_json(s: GameState) -> str:
    from riskmath.state import _FIELDS

    data: dict[str, Any] = {"format": FORMAT, "game": s.game.to_dict()}
    for name in _FIELDS:
        value = getattr(s, f"_{name}")
        if name == "phase":
            value = value.value
        elif name == "bonus":
            value = [[k, v] for k, v in sorted(value.items())]
        data[name] = value
    data["auto_chance"] = s._auto
    return json.dumps(data, separators=(",", ":"))


def state_from_json(text: str) -> GameState:
    from riskmath.game import Game
    from riskmath.state import _FIELDS, GameState, Phase

    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise StateError(f"not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StateError(f"not a riskmath state (format {FORMAT!r} expected)")
    missing = [name for name in (*_FIELDS, "game", "auto_chance") if name not in data]
    if missing:
        raise StateError(f"state is missing {missing}")
    try:
        game = Game.from_dict(data["game"])
    except (RiskmathError, KeyError, TypeError) as error:
        raise StateError(f"bad game description: {error}") from None
    s = GameState.__new__(GameState)
    s.game = game
    try:
        for name in _FIELDS:
            value = data[name]
            if name == "phase":
                value = Phase(value)
            elif name == "bonus":
                value = {int(k): int(v) for k, v in value}
            elif name in ("pending", "occupy") and value is not None:
                value = tuple(value)
            elif name == "queue":
                value = [tuple(item) for item in value]
            setattr(s, f"_{name}", value)
        s._auto = bool(data["auto_chance"])
    except (TypeError, ValueError) as error:
        raise StateError(f"bad state field: {error}") from None
    problems = state_problems(s)
    if problems:
        raise StateError("inconsistent state: " + "; ".join(problems))
    return s


def state_problems(s: GameState) -> list[str]:
    """What is wrong with a state (empty when it is consistent)."""
    game = s.game
    n = len(game.board)
    problems: list[str] = []
    names = game.board.territories
    if len(s._owner) != n or len(s._armies) != n:
        return [f"owner and armies must have {n} entries"]
    if len(s._hands) != game.players or len(s._alive) != game.players:
        return [f"hands and alive must have {game.players} entries"]
    setup = s._phase.name.startswith("SETUP")
    for t in range(n):
        if not -1 <= s._owner[t] < game.owners:
            problems.append(f"{names[t]} has an unknown owner {s._owner[t]}")
        elif s._owner[t] >= 0 and s._armies[t] < 1 and s._phase.name not in ("OCCUPY",):
            problems.append(f"{names[t]} is held with {s._armies[t]} armies")
        elif s._owner[t] < 0 and (not setup or s._armies[t] != 0):
            problems.append(f"{names[t]} has no owner")
    cards = Counter(s._deck) + Counter(s._discard)
    for hand in s._hands:
        cards += Counter(hand)
    expected = Counter(game.territory_cards if setup else game.full_deck)
    if not setup and cards != expected:
        lost = sorted((expected - cards).elements())
        extra = sorted((cards - expected).elements())
        problems.append(f"cards do not add up to the deck: missing {lost}, extra {extra}")
    for p in range(game.players):
        if s._alive[p] and not setup and p not in s._owner:
            problems.append(f"player {p} is alive but holds no territory")
        if not s._alive[p] and p in s._owner:
            problems.append(f"player {p} is eliminated but still holds territory")
    if s._winner is not None and not 0 <= s._winner < game.players:
        problems.append(f"winner {s._winner} is not a player")
    if not setup and s._phase.name != "GAME_OVER" and not 0 <= s._player < game.players:
        problems.append(f"the player to move, {s._player}, is not a player")
    return problems
