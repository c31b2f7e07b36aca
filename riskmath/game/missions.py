"""Secret Mission RISK: the mission cards and when they are complete.

Missions are named by short ids (the card texts are in the docs):

* ``"asia+south_america"``, ``"asia+africa"``, ``"north_america+africa"``,
  ``"north_america+australia"``: hold both continents;
* ``"europe+australia+1"``, ``"europe+south_america+1"`` (European deck only):
  hold both and any third continent;
* ``"occupy_18_2"``: hold 18 territories with at least 2 armies on each;
  ``"occupy_24"``: hold 24 territories;
* ``"destroy_k"``: eliminate player ``k``.  If ``k`` is yourself the mission
  is ``occupy_24``.  If someone else eliminates ``k``, the 1993 US rules count
  the mission as complete (their example); the European card text turns it
  into ``occupy_24`` (``Rules.mission_target_killed_by_other``).

The US 1993 deck has 12 cards (the two "+1" missions are left out, per the
Risk FAQ), the European deck 14; destroy cards of colors not in play are
removed before the deal, so the game deals from ``missions_for(...)``.
"""

from __future__ import annotations

from typing import Protocol

from riskmath.game.context import GameContext
from riskmath.game.position import Position


class _HasMissions(Protocol):
    """What :func:`mission_complete` asks of a state (a :class:`~riskmath.game.state.GameState`)."""

    def mission_complete(self, player: int) -> bool: ...


__all__ = ["CONTINENT_MISSIONS", "completed", "mission_complete", "mission_text", "missions_for"]

CONTINENT_MISSIONS: dict[str, tuple[tuple[str, ...], bool]] = {
    "asia+south_america": (("Asia", "South America"), False),
    "asia+africa": (("Asia", "Africa"), False),
    "north_america+africa": (("North America", "Africa"), False),
    "north_america+australia": (("North America", "Australia"), False),
    "europe+australia+1": (("Europe", "Australia"), True),
    "europe+south_america+1": (("Europe", "South America"), True),
}


def missions_for(deck: str, players: int) -> tuple[str, ...]:
    """The mission cards dealt from for a game: ``deck`` is ``"us_1993_12"`` or ``"euro_14"``.

    >>> len(missions_for("us_1993_12", 6)), len(missions_for("euro_14", 6)), len(missions_for("us_1993_12", 4))
    (12, 14, 10)
    """
    continents = [m for m, (_, third) in CONTINENT_MISSIONS.items() if deck == "euro_14" or not third]
    return (*continents, "occupy_18_2", "occupy_24", *(f"destroy_{k}" for k in range(players)))


def mission_text(mission: str) -> str:
    """The card's wording, e.g. ``"Conquer the continents of ASIA and AFRICA."``.

    Examples
    --------
    >>> mission_text("asia+africa")
    'Conquer the continents of ASIA and AFRICA.'
    >>> mission_text("destroy_2")
    'Destroy all armies of player 2.'
    """
    if mission in CONTINENT_MISSIONS:
        names, third = CONTINENT_MISSIONS[mission]
        text = " and ".join(n.upper() for n in names)
        return f"Conquer the continents of {text}" + (" and a third continent of your choice." if third else ".")
    if mission == "occupy_18_2":
        return "Occupy 18 territories of your choice and occupy each with at least 2 armies."
    if mission == "occupy_24":
        return "Occupy 24 territories of your choice."
    return f"Destroy all armies of player {mission.removeprefix('destroy_')}."


def _holds(game: GameContext, pos: Position, player: int, continent: str) -> bool:
    owner = pos.owner
    return all(owner[t] == player for t in game.board.continents[continent].ids)


def mission_complete(state: _HasMissions, player: int) -> bool:
    """Whether ``player``'s mission is complete in ``state``.

    Always false in a game without missions.

    Examples
    --------
    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3, rm.Rules.preset("us_1993_secret_mission")).new_initial_state(seed=1, auto_chance=True)
    >>> [state.mission(p) for p in range(3)], mission_complete(state, 0)
    (['destroy_0', 'destroy_2', 'north_america+australia'], False)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while not state.is_terminal():
    ...     state = state.apply(agent.act(state, rng))
    >>> state.winner, [mission_complete(state, p) for p in range(3)]    # destroy_0 is your own: occupy 24
    (0, [True, False, False])
    """
    return state.mission_complete(player)  # checks the player id


def completed(game: GameContext, pos: Position, player: int) -> bool:
    """:func:`mission_complete` on the engine's terms: a game and a position."""
    if player >= len(pos.missions):
        return False
    mission = pos.missions[player]
    if mission.startswith("destroy_"):
        target = int(mission.removeprefix("destroy_"))
        killer = pos.killed_by[target]
        rule = game.rules.mission_target_killed_by_other
        if target == player or (killer not in (-1, player) and rule == "fallback_occupy_24"):
            mission = "occupy_24"
        else:
            return not pos.alive[target]
    if mission in CONTINENT_MISSIONS:
        names, third = CONTINENT_MISSIONS[mission]
        if not all(_holds(game, pos, player, c) for c in names):
            return False
        return not third or any(_holds(game, pos, player, c) for c in game.board.continents if c not in names)
    owner = pos.owner
    owned = [t for t in range(len(owner)) if owner[t] == player]
    if mission == "occupy_18_2":
        return sum(pos.armies[t] >= 2 for t in owned) >= 18
    return len(owned) >= 24
