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
    (territory armies and continent bonuses, as ``riskmath.game.position.income``) of all players
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

from riskmath.odds._odds_grids import small_battles, win_probability

if TYPE_CHECKING:
    from collections.abc import Sequence

    from riskmath.game.context import GameContext
    from riskmath.game.rules import Rules
    from riskmath.game.state import GameState

__all__ = [
    "FEATURES",
    "LEAST_MEAN_INCOME",
    "LOG_FLOOR",
    "SIGNS",
    "BoardReader",
    "BoardTerms",
    "board_terms",
    "card_unit",
    "feature_rows",
    "player_features",
]

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


def card_unit(rules: Rules, sets_traded: int) -> float:
    """Armies one card is worth: a fifth of the next set's value (the lowest value of a fixed table)."""
    values = rules.set_values
    if values.kind == "progressive":
        return values.value(sets_traded + 1) / 5
    return min(v for _, v in values.table) / 5


class BoardTerms:
    """What the features read off the board, per player and per territory (see :func:`board_terms`)."""

    __slots__ = ("alive", "exposure", "falls", "held", "incomes", "kept", "stacks")

    def __init__(
        self,
        alive: list[bool],
        held: list[int],
        stacks: list[int],
        incomes: list[int],
        falls: list[float],
        exposure: list[float],
        kept: list[float],
    ) -> None:
        self.alive, self.held, self.stacks, self.incomes = alive, held, stacks, incomes
        self.falls, self.exposure, self.kept = falls, exposure, kept


def _fall(
    game: GameContext,
    owners: Sequence[int],
    armies: Sequence[int],
    alive: list[bool],
    incomes: list[int],
    t: int,
    grid: list[list[float]],
) -> float:
    """The chance that territory ``t`` falls to its strongest rival neighbor, reinforced with that rival's income."""
    owner = owners[t]
    players = game.players
    if not 0 <= owner < players:
        return 0.0
    strongest = 0
    for u in game.neighbors[t]:
        enemy = owners[u]
        if enemy == owner or not 0 <= enemy < players or not alive[enemy]:
            continue
        able = armies[u] - 1 + incomes[enemy]
        if able > strongest:
            strongest = able
    if not strongest:
        return 0.0
    d = armies[t]
    small = len(grid)
    if strongest <= small and 0 < d <= small:
        return grid[strongest - 1][d - 1]
    return win_probability(strongest, d, game.rules.combat)


def board_terms(game: GameContext, owners: Sequence[int], armies: Sequence[int], in_game: Sequence[bool]) -> BoardTerms:
    """Territories, armies and income per player, each territory's fall chance, and the continents' kept bonus."""
    players = game.players
    held = [0] * players
    stacks = [0] * players
    for t, owner in enumerate(owners):
        if 0 <= owner < players:
            held[owner] += 1
            stacks[owner] += armies[t]
    alive = [bool(in_game[p]) and held[p] > 0 for p in range(players)]
    # Income as riskmath.game.position.income computes it: territory armies plus every continent held whole.
    reinforcements = game.rules.reinforcements
    incomes = [reinforcements(held[p]) if alive[p] else 0 for p in range(players)]
    for bonus, members in game.continents:
        holder = _holder(game, owners, members, alive)
        if holder >= 0:
            incomes[holder] += bonus
    grid = small_battles(game.rules.combat)  # win_probability of up to 32 a side, read without a call
    falls = [_fall(game, owners, armies, alive, incomes, t, grid) for t in range(len(owners))]
    exposure = [0.0] * players
    for t, owner in enumerate(owners):
        if 0 <= owner < players:
            exposure[owner] += falls[t]
    kept = [0.0] * players
    for bonus, members in game.continents:
        first = owners[next(iter(members))]
        if not 0 <= first < players or any(owners[t] != first for t in members):
            continue
        kept[first] += _kept_share(bonus, members, falls)
    return BoardTerms(alive, held, stacks, incomes, falls, exposure, kept)


class BoardReader:
    """The terms of one position, and of positions changed from it in a few territories, computed incrementally.

    :meth:`after` gives what :func:`board_terms` would give for the changed
    position (to rounding: the sums are updated rather than taken again, so
    the last bits may differ), computing again only what the changes can
    reach: the counts of the changed territories, the continents they lie
    in, and the fall chances of the changed territories, of their neighbors
    and of the territories next to a player whose income or place in the
    game changed.
    """

    __slots__ = ("_continent_of", "_holders", "_shares", "_touching", "armies", "game", "owners", "terms")

    def __init__(
        self, game: GameContext, owners: Sequence[int], armies: Sequence[int], in_game: Sequence[bool]
    ) -> None:
        self.game, self.owners, self.armies = game, owners, armies
        self.terms = board_terms(game, owners, armies, in_game)
        self._continent_of = _continents_of(game)
        alive = self.terms.alive
        self._holders = [_holder(game, owners, members, alive) for _, members in game.continents]
        self._shares = [
            _kept_share(bonus, members, self.terms.falls) if holder >= 0 else 0.0
            for (bonus, members), holder in zip(game.continents, self._holders, strict=True)
        ]
        self._touching: list[list[int]] | None = None

    def _next_to(self, player: int) -> list[int]:
        """The territories with a neighbor of ``player``'s in the base position (found on first use)."""
        if self._touching is None:
            players = self.game.players
            found: list[set[int]] = [set() for _ in range(players)]
            for t, owner in enumerate(self.owners):
                if 0 <= owner < players:
                    found[owner].update(self.game.neighbors[t])
            self._touching = [sorted(ids) for ids in found]
        return self._touching[player]

    def after(
        self, owners: Sequence[int], armies: Sequence[int], in_game: Sequence[bool], changed: Sequence[int]
    ) -> BoardTerms:
        """The terms of the position ``owners``, ``armies``, which differs from the base only at ``changed``."""
        game, base = self.game, self.terms
        players = game.players
        old_owners, old_armies = self.owners, self.armies
        held, stacks = base.held[:], base.stacks[:]
        for t in changed:
            owner = old_owners[t]
            if 0 <= owner < players:
                held[owner] -= 1
                stacks[owner] -= old_armies[t]
            owner = owners[t]
            if 0 <= owner < players:
                held[owner] += 1
                stacks[owner] += armies[t]
        alive = [bool(in_game[p]) and held[p] > 0 for p in range(players)]
        continents = game.continents
        continent_of = self._continent_of
        holders = self._holders[:]
        touched = {continent_of[t] for t in changed}
        if alive != base.alive:
            touched.update(range(len(continents)))
        touched.discard(-1)
        for c in touched:
            holders[c] = _holder(game, owners, continents[c][1], alive)
        reinforcements = game.rules.reinforcements
        incomes = [reinforcements(held[p]) if alive[p] else 0 for p in range(players)]
        for (bonus, _), holder in zip(continents, holders, strict=True):
            if holder >= 0:
                incomes[holder] += bonus
        again = set(changed)
        neighbors = game.neighbors
        for t in changed:
            again.update(neighbors[t])
        for p in range(players):
            if incomes[p] != base.incomes[p] or alive[p] != base.alive[p]:
                again.update(self._next_to(p))
        grid = small_battles(game.rules.combat)
        falls = base.falls[:]
        exposure = base.exposure[:]
        for t in again:
            fall = _fall(game, owners, armies, alive, incomes, t, grid)
            old = old_owners[t]
            if 0 <= old < players:
                exposure[old] -= falls[t]
            new = owners[t]
            if 0 <= new < players:
                exposure[new] += fall
            falls[t] = fall
            touched.add(continent_of[t])
        touched.discard(-1)
        shares = self._shares[:]
        for c in touched:
            bonus, members = continents[c]
            shares[c] = _kept_share(bonus, members, falls) if holders[c] >= 0 else 0.0
        kept = [0.0] * players
        for c, holder in enumerate(holders):
            if holder >= 0:
                kept[holder] += shares[c]
        return BoardTerms(alive, held, stacks, incomes, falls, exposure, kept)


def _holder(game: GameContext, owners: Sequence[int], members: frozenset[int], alive: list[bool]) -> int:
    """The player in the game who holds every territory of a continent, or -1."""
    first = owners[next(iter(members))]
    if 0 <= first < game.players and alive[first] and all(owners[t] == first for t in members):
        return first
    return -1


def _kept_share(bonus: int, members: frozenset[int], falls: Sequence[float]) -> float:
    """A held continent's bonus times the chance that none of its territories falls."""
    chance = 1.0
    for t in members:
        chance *= 1.0 - falls[t]
    return bonus * chance


def _continents_of(game: GameContext) -> list[int]:
    """Per territory, the index of its continent in ``game.continents`` (-1 for none), remembered per game."""
    found = _CONTINENT_OF.get(id(game))
    if found is None or found[0] is not game:
        index = [-1] * len(game.neighbors)
        for c, (_, members) in enumerate(game.continents):
            for t in members:
                index[t] = c
        if len(_CONTINENT_OF) >= 64:
            _CONTINENT_OF.clear()
        found = _CONTINENT_OF[id(game)] = (game, index)
    return found[1]


_CONTINENT_OF: dict[int, tuple[GameContext, list[int]]] = {}


def feature_rows(
    game: GameContext, terms: BoardTerms, turn: int, unit: float, cards: Sequence[int], mover: int
) -> list[list[float]]:
    """One row of :data:`FEATURES` per player from the board's terms, the turn, the hands' sizes and who moves.

    ``unit`` is what a card is worth (:func:`card_unit`).
    """
    players = game.players
    alive, held, stacks, incomes = terms.alive, terms.held, terms.stacks, terms.incomes
    in_count = sum(alive)
    total_held = sum(held)
    total_stacks = sum(stacks)
    total_income = sum(incomes)
    mean_income = max(total_income / in_count, LEAST_MEAN_INCOME)
    late = min(turn / LATE_TURN, 1.0)
    order = [p for p in range(players) if alive[p] or p == mover]
    count = len(order)
    start = order.index(mover) if mover in order else -1
    exposure, kept = terms.exposure, terms.kept
    log = math.log
    rows: list[list[float]] = []
    for p in range(players):
        if not alive[p]:
            rows.append([0.0] * len(FEATURES))
            continue
        # _share, written out three times (the hottest loop of the agents' estimates)
        if total_held > 0:
            h = held[p]
            territories, log_territories = h / total_held, log((h if h > LOG_FLOOR else LOG_FLOOR) / total_held)
        else:
            territories, log_territories = _share(held[p], total_held, in_count)
        if total_stacks > 0:
            a = stacks[p]
            army, log_armies = a / total_stacks, log((a if a > LOG_FLOOR else LOG_FLOOR) / total_stacks)
        else:
            army, log_armies = _share(stacks[p], total_stacks, in_count)
        if total_income > 0:
            i = incomes[p]
            earned, log_income = i / total_income, log((i if i > LOG_FLOOR else LOG_FLOOR) / total_income)
        else:
            earned, log_income = _share(incomes[p], total_income, in_count)
        waiting = (order.index(p) - start) % count if start >= 0 else 0
        rows.append(
            [
                territories,
                army,
                earned,
                log_territories,
                log_armies,
                log_income,
                exposure[p] / total_held,
                kept[p] / mean_income,
                cards[p] * unit / mean_income,
                1.0 if p == mover else 0.0,
                waiting / count,
                log_territories * late,
                log_armies * late,
                log_income * late,
            ]
        )
    return rows


def player_features(state: GameState) -> tuple[list[list[float]], list[bool]]:
    """One row of :data:`FEATURES` per player and whether each player is still in the game.

    ``state`` must be past the set-up (every territory owned); the caller checks.
    """
    game = state.game
    pos = state.position
    terms = board_terms(game, pos.owner, pos.armies, pos.alive)
    cards = [len(hand) for hand in pos.hands]
    unit = card_unit(game.rules, pos.sets_traded)
    return feature_rows(game, terms, pos.turn, unit, cards, state.turn_player), terms.alive
