"""The features of :func:`riskmath.evaluate.estimate_victory_probabilities` (private): plain lists, no DataFrames.

:func:`player_features` turns a position into one row of numbers per player,
in the order of :data:`FEATURES`, each expressed relative to the table (a
share of what the players hold, or a count divided by the mean over the
players still in the game), so that the same weights serve 2 to 6 players.
It reads the position's own lists and asks the cached battle odds
(:func:`riskmath.odds._odds_grids.win_probability`) about at most one battle per
territory and one per border, so that a position costs well under a
millisecond.

The features, for player ``p`` (all 0 for an eliminated player, whom the
model leaves out):

``territories``, ``armies``, ``income``
    ``p``'s share of the territories, of the armies and of the income
    (territory armies and continent bonuses, :func:`income`) of all players
    (neutral owners left out).
``log_territories``, ``log_armies``, ``log_income``
    Their logarithms (a share's log separates the small players better).
``exposure``
    The territories of ``p`` expected to fall next turn, as a share of all
    the players' territories: each territory faces its strongest rival
    neighbor, reinforced with that rival's income, fighting to the end
    (the same assumptions as :func:`~riskmath.evaluate.threats` with
    ``reinforcements=True``), and the falls are summed.
``kept_bonus``
    The bonus of the continents ``p`` holds, each times the chance that none
    of its territories falls (the product of the fall chances above, as in
    :func:`~riskmath.evaluate.hold_probability`), over the mean income.
``cards``
    The armies ``p``'s hand is worth (a fifth of the next set's value per
    card; a fixed table: its lowest value), over the mean income.
``to_move``
    1 for the player whose turn it is, else 0.
``waiting``
    How many turns of other players come before ``p``'s next turn, over the
    number of players in the game (0 for the player to move).
``log_territories_late``, ``log_armies_late``, ``log_income_late``
    The three logarithms times the turn over 40 (capped at 1): the shares
    say more as the board settles.

Features whose value rises with ``p``'s armies on the board (``armies``,
``log_armies``, ``kept_bonus``, ``log_armies_late``) and ``exposure`` (which
falls as they rise) carry weights of a fixed sign (:data:`SIGNS`): with them,
more armies for a player never lower its estimate (a rival's exposure and
kept bonus can only get worse, and its army share smaller).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from riskmath.game.position import income
from riskmath.odds._odds_grids import win_probability

if TYPE_CHECKING:
    from riskmath.game.state import GameState

__all__ = ["FEATURES", "SIGNS", "player_features"]

#: The feature names, in the order of :func:`player_features`' rows and of the shipped coefficients.
FEATURES = (
    "territories",
    "armies",
    "income",
    "log_territories",
    "log_armies",
    "log_income",
    "exposure",
    "kept_bonus",
    "cards",
    "to_move",
    "waiting",
    "log_territories_late",
    "log_armies_late",
    "log_income_late",
)

#: The sign each weight is held to in the fit (+1: at least 0, -1: at most 0, 0: free); see the module docstring.
SIGNS = {
    "territories": 0,
    "armies": 1,
    "income": 0,
    "log_territories": 0,
    "log_armies": 1,
    "log_income": 0,
    "exposure": -1,
    "kept_bonus": 1,
    "cards": 0,
    "to_move": 0,
    "waiting": 0,
    "log_territories_late": 0,
    "log_armies_late": 1,
    "log_income_late": 0,
}

#: The turn by which the ``*_late`` features reach the logarithms they scale.
LATE_TURN = 40


def _card_unit(state: GameState) -> float:
    """Armies one card is worth: a fifth of the next set's value (the lowest value of a fixed table)."""
    values = state.game.rules.set_values
    if values.kind == "progressive":
        return values.value(state.position.sets_traded + 1) / 5
    return min(v for _, v in values.table) / 5


def player_features(state: GameState) -> tuple[list[list[float]], list[bool]]:
    """One row of :data:`FEATURES` per player and whether each player is still in the game.

    ``state`` must be past the set-up (every territory owned); the caller checks.
    """
    game = state.game
    pos = state.position
    players = game.players
    owners, armies = pos.owner, pos.armies
    alive = [bool(pos.alive[p]) and p in owners for p in range(players)]
    held = [0] * players
    stacks = [0] * players
    for t, owner in enumerate(owners):
        if 0 <= owner < players:
            held[owner] += 1
            stacks[owner] += armies[t]
    incomes = [income(game, pos, p) if alive[p] else 0 for p in range(players)]
    combat = game.rules.combat
    neighbors = game.neighbors
    # For every territory of a player: its fall chance to the strongest rival neighbor.
    falls = [0.0] * len(owners)
    exposure = [0.0] * players
    for t, owner in enumerate(owners):
        if not 0 <= owner < players:
            continue
        strongest = 0
        for u in neighbors[t]:
            enemy = owners[u]
            if enemy == owner or not 0 <= enemy < players or not alive[enemy]:
                continue
            able = armies[u] - 1 + incomes[enemy]
            if able > strongest:
                strongest = able
        if strongest:
            falls[t] = fall = win_probability(strongest, armies[t], combat)
            exposure[owner] += fall
    kept = [0.0] * players
    for bonus, members in game.continents:
        first = owners[next(iter(members))]
        if not 0 <= first < players or any(owners[t] != first for t in members):
            continue
        chance = 1.0
        for t in members:
            chance *= 1.0 - falls[t]
        kept[first] += bonus * chance
    in_game = [p for p in range(players) if alive[p]]
    total_held = sum(held)
    total_stacks = sum(stacks)
    total_income = sum(incomes)
    mean_income = total_income / len(in_game)
    unit = _card_unit(state)
    late = min(pos.turn / LATE_TURN, 1.0)
    mover = state.turn_player
    order = [p for p in range(players) if alive[p] or p == mover]
    rows: list[list[float]] = []
    for p in range(players):
        if not alive[p]:
            rows.append([0.0] * len(FEATURES))
            continue
        territories, army, earned = held[p] / total_held, stacks[p] / total_stacks, incomes[p] / total_income
        logs = [math.log(territories), math.log(army), math.log(earned)]
        waiting = (order.index(p) - order.index(mover)) % len(order) if mover in order else 0
        rows.append(
            [
                territories,
                army,
                earned,
                *logs,
                exposure[p] / total_held,
                kept[p] / mean_income,
                len(pos.hands[p]) * unit / mean_income,
                1.0 if p == mover else 0.0,
                waiting / len(order),
                *(x * late for x in logs),
            ]
        )
    return rows, alive
