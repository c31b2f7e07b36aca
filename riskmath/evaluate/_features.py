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
    A count of 0 (an income of 0 under ``min_reinforcement=0``) is read as
    half an army (:data:`LOG_FLOOR`) in the logarithm, so that it ranks
    just below a count of 1; when every player's income is 0, each has an
    equal share.
``exposure``
    The territories of ``p`` expected to fall next turn, as a share of all
    the players' territories: each territory faces its strongest rival
    neighbor, reinforced with that rival's income, fighting to the end
    (the same assumptions as :func:`~riskmath.evaluate.threats` with
    ``reinforcements=True``), and the falls are summed.
``kept_bonus``
    The bonus of the continents ``p`` holds, each times the chance that none
    of its territories falls (the product of the fall chances above, as in
    :func:`~riskmath.evaluate.hold_probability`), over the mean income
    (counted as at least one army: :data:`LEAST_MEAN_INCOME`).
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

Every feature is defined (finite) in every position past the set-up that
has at least one player in the game: an income of 0, every income 0, a
player with one territory or one army, a board without continent bonuses.
The two floors (:data:`LOG_FLOOR`, :data:`LEAST_MEAN_INCOME`) change
nothing on the shipped boards under any preset, where every player still
in the game holds a territory and an army, the mean income is at least one
army, and only an income can be 0 (``min_reinforcement=0``): so the fitted
weights of :mod:`riskmath.evaluate._coefficients` still apply as fitted.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from riskmath.game.position import income
from riskmath.odds._odds_grids import win_probability

if TYPE_CHECKING:
    from riskmath.game.state import GameState

__all__ = ["FEATURES", "LEAST_MEAN_INCOME", "LOG_FLOOR", "SIGNS", "player_features"]

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

#: The count (territories, armies, income) a count of 0 is read as in the ``log_*`` features: half an army.
LOG_FLOOR = 0.5

#: The least mean income (armies) that ``kept_bonus`` and ``cards`` are divided by.
LEAST_MEAN_INCOME = 1.0


def _share(count: int, total: int, in_game: int) -> tuple[float, float]:
    """A player's share of a total and the share's logarithm, defined for a count of 0 and a total of 0.

    A total of 0 (nobody earns anything) gives each of the ``in_game`` players an equal share.
    """
    if total <= 0:
        share = 1.0 / in_game
        return share, math.log(share)
    return count / total, math.log(max(count, LOG_FLOOR) / total)


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
    in_count = len(in_game)
    mean_income = max(total_income / in_count, LEAST_MEAN_INCOME)
    unit = _card_unit(state)
    late = min(pos.turn / LATE_TURN, 1.0)
    mover = state.turn_player
    order = [p for p in range(players) if alive[p] or p == mover]
    rows: list[list[float]] = []
    for p in range(players):
        if not alive[p]:
            rows.append([0.0] * len(FEATURES))
            continue
        territories, log_territories = _share(held[p], total_held, in_count)
        army, log_armies = _share(stacks[p], total_stacks, in_count)
        earned, log_income = _share(incomes[p], total_income, in_count)
        logs = [log_territories, log_armies, log_income]
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
