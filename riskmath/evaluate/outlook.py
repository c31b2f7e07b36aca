"""Threats, reinforcement and continent outlooks, and the position value (see the package docstring)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Collection, Mapping, Sequence
from itertools import combinations
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from riskmath._validation import as_int, check_bool, shown
from riskmath.errors import BoardError, InvalidArgumentError
from riskmath.evaluate._routes import covers, shares
from riskmath.game.cards import is_set
from riskmath.game.position import holds_set, income, rival_table
from riskmath.odds._odds_grids import chain_odds, chain_success, chain_win_probability, win_probability

if TYPE_CHECKING:
    import pandas as pd

    from riskmath.game.state import GameState

__all__ = [
    "VALUE_WEIGHTS",
    "ContinentPlan",
    "chain_success",
    "chain_win_probability",
    "continent_outlook",
    "hold_probability",
    "plan_continent",
    "position_value",
    "reinforcement_outlook",
    "threats",
    "win_probability",
]


def owners_and_armies(state: GameState) -> tuple[list[int], list[int]]:
    """Owners and armies by territory id (the position's own lists: read, never write)."""
    pos = state.position
    return pos.owner, pos.armies


def _strongest_attackers(
    state: GameState, reinforcements: bool, only: Collection[int] | None = None
) -> list[tuple[int, int] | None]:
    """Per territory: (armies able to attack, territory) of its strongest rival neighbor, or None.

    With ``only``, the territories not in it get None without a look.
    """
    game, pos = state.game, state.position
    owners, armies, alive, players = pos.owner, pos.armies, pos.alive, game.players
    rival = rival_table(game, pos)  # rival[o + 1]: o is a living player (neutrals and nobody never attack)
    gain = [income(game, pos, p) if reinforcements and alive[p] else 0 for p in range(players)]
    result: list[tuple[int, int] | None] = [None] * len(owners)
    for t in range(len(owners)) if only is None else only:
        owner = owners[t]
        best: tuple[int, int] | None = None
        top = 0
        for u in game.neighbors[t]:
            enemy = owners[u]
            if enemy == owner or not rival[enemy + 1]:
                continue
            able = armies[u] - 1 + gain[enemy]
            if best is None or able > top:
                best, top = (able, u), able
        result[t] = best
    return result


def fall_probabilities(
    state: GameState,
    reinforcements: bool,
    strongest: list[tuple[int, int] | None] | None = None,
    only: Collection[int] | None = None,
) -> list[float]:
    """Per territory, the chance it falls to its strongest rival neighbor (``strongest`` if already found).

    With ``only``, the territories not in it get 0 without a look.
    """
    combat = state.game.rules.combat
    armies = owners_and_armies(state)[1]
    if strongest is None:
        strongest = _strongest_attackers(state, reinforcements, only)
    return [0.0 if best is None else win_probability(best[0], armies[t], combat) for t, best in enumerate(strongest)]


def threats(state: GameState, *, reinforcements: bool = False) -> pd.DataFrame:
    """For every territory, how likely it is to fall next turn to its strongest enemy neighbor.

    Parameters
    ----------
    state : GameState
        Any state after the set-up.
    reinforcements : bool, default False
        Add to the attacking stack the armies its owner would receive at the
        start of a turn now (territories and continents, not cards), as if all
        were placed there.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``territory``: ``owner``, ``armies``, ``attacker`` (the
        enemy neighbor with the most armies, the first in the board's order of
        neighbors on ties; missing if none), ``attacker_owner``,
        ``attackers`` (its armies able to attack) and ``fall_probability``
        (``riskmath.battle(attackers, armies).win_probability``, estimated
        past 2,048 armies on both sides as the package docstring says; 0
        when no enemy borders it).  Neutral owners never attack.

    Notes
    -----
    Assumes one attack by one stack, fought to the end with maximum dice; it
    ignores attacks from several sides, cards and fortification.

    Examples
    --------
    A position ten turns into a three-player game between odds agents, player 1 to place 8 armies:

    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> columns = ["owner", "armies", "attacker", "attackers", "fall_probability"]
    >>> threats(state).loc[["China", "Ontario"], columns].round(4)
               owner  armies             attacker  attackers  fall_probability
    territory
    China          0       1                 Siam          3            0.9164
    Ontario        2       1  Northwest Territory          1            0.4167
    >>> threats(state, reinforcements=True).loc[["China", "Ontario"], "attackers"].tolist()
    [10, 9]
    """
    check_state(state)
    check_bool("reinforcements", reinforcements)
    import pandas as pd

    names = state.game.board.territories
    strongest = _strongest_attackers(state, reinforcements)
    falls = fall_probabilities(state, reinforcements, strongest)
    records = []
    for t, name in enumerate(names):
        best = strongest[t]
        records.append(
            {
                "territory": name,
                "owner": state.owner(t),
                "armies": state.armies(t),
                "attacker": None if best is None else names[best[1]],
                "attacker_owner": None if best is None else state.owner(best[1]),
                "attackers": 0 if best is None else max(best[0], 0),
                "fall_probability": falls[t],
            }
        )
    return pd.DataFrame(records).set_index("territory")


def reinforcement_outlook(state: GameState) -> pd.DataFrame:
    """What each player would receive at the start of a turn now.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``player``: ``territories``, ``territory_armies`` (the
        rules' ``max(min, T / divisor)``), ``continent_bonus`` (continents held
        entirely), ``continents`` (their names), ``cards``, ``holds_set`` and
        ``next_set_value`` (the next set traded in the game, by anyone; for a
        fixed table, the value of the best set in the hand, 0 without a set;
        0 under rules without cards), and ``total`` = territory armies +
        continent bonus (cards excluded).  An eliminated player receives
        nothing: its row is all 0 (no continents, no set).

    Examples
    --------
    A position ten turns into a three-player game between odds agents, player 1 to place 8 armies:

    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> reinforcement_outlook(state)[["territories", "continents", "cards", "total"]]
            territories        continents  cards  total
    player
    0                10                ()      3      3
    1                18  (South America,)      3      8
    2                14      (Australia,)      3      6
    """
    check_state(state)
    import pandas as pd

    game = state.game
    rules = game.rules
    rows = []
    for p in range(game.players):
        owned = state.territories_of(p)
        held = [c.name for c in game.board.continents.values() if all(state.owner(t) == p for t in c.territories)]
        bonus = sum(game.board.continents[c].bonus for c in held)
        names = list(state.cards(p))
        hand = [game.cards[c] for c in names]
        holds = holds_set(game, names)
        if rules.cards == "none" or not state.alive(p):  # no set is ever traded, or not by this player
            next_value = 0
        elif rules.set_values.kind == "progressive":
            next_value = rules.set_values.value(state.sets_traded + 1)
        else:
            values = [
                rules.set_values.value(state.sets_traded + 1, list(trio))
                for trio in combinations(hand, 3)
                if is_set(list(trio))
            ]
            next_value = max(values, default=0)
        territory_armies = rules.reinforcements(len(owned)) if state.alive(p) else 0  # (the eliminated receive none)
        rows.append(
            {
                "player": p,
                "territories": len(owned),
                "territory_armies": territory_armies,
                "continent_bonus": bonus,
                "continents": tuple(held),
                "cards": len(hand),
                "holds_set": holds,
                "next_set_value": next_value,
                "total": territory_armies + bonus,
            }
        )
    return pd.DataFrame(rows).set_index("player")


# -- continents ---------------------------------------------------------------------
def _source(
    nbrs: Sequence[Sequence[int]], owners: Sequence[int], armies: Sequence[int], player: int, first: int
) -> int:
    """The territory of ``player`` next to ``first`` with the most armies (lowest id on ties)."""
    best, most = -1, -1
    for u in nbrs[first]:
        if owners[u] == player and (armies[u] > most or (armies[u] == most and u < best)):
            best, most = u, armies[u]
    if best < 0:
        raise ValueError(f"player {player} has no territory next to {first}")
    return best


class ContinentPlan:
    """How ``player`` might take a continent next turn: see :func:`continent_outlook`.

    Attributes
    ----------
    probability : float
        Of capturing every route (independent stacks).
    routes : list of tuple of int
        Territory ids, each route starting with its source (a territory of the
        player) followed by the enemy territories in the order attacked.
    attackers : list of int
        Armies able to attack on each route (the placed armies included).
    placed : list of int
        Of the armies at hand, how many go to each route's source.

    Examples
    --------
    Usually built by :func:`plan_continent`; one route from territory 0 through territory 1:

    >>> plan = ContinentPlan(0.5, [(0, 1)], attackers=[3], placed=[1])
    >>> plan
    ContinentPlan(probability=0.5, routes=[(0, 1)])
    >>> plan.attackers, plan.placed
    ([3], [1])
    >>> plan == ContinentPlan(0.5, [(0, 1)], attackers=[3], placed=[1])
    True
    """

    __slots__ = ("attackers", "placed", "probability", "routes")

    def __init__(self, probability: float, routes: list[tuple[int, ...]], attackers: list[int], placed: list[int]):
        self.probability, self.routes, self.attackers, self.placed = probability, routes, attackers, placed

    def __repr__(self) -> str:
        return f"ContinentPlan(probability={self.probability:.4g}, routes={self.routes})"

    def __eq__(self, other: object) -> bool:
        """Equal plans: the same probability, routes, attackers and placements (a plan is a value)."""
        if not isinstance(other, ContinentPlan):
            return NotImplemented
        mine = (self.probability, self.routes, self.attackers, self.placed)
        return mine == (other.probability, other.routes, other.attackers, other.placed)

    __hash__ = None  # type: ignore[assignment]  # (its lists may change: a plan is not a key)


def plan_continent(state: GameState, player: int, continent: str, armies: int = 0) -> ContinentPlan:
    """The best way found for ``player`` to take ``continent`` next turn with ``armies`` more to place.

    The enemy territories of the continent are covered by paths: routes
    through all of them (when the board allows it), and a cover by several
    paths, each the longest found from next to the strongest stack left.  Each
    path is attacked by one stack from the player's strongest territory
    next to its first territory, leaving one army in every capture; the
    armies at hand are placed on the sources in proportion to the defenders
    on their paths, and a source serving several paths splits its armies in
    the same proportion.  Of these candidates (up to seven per group of
    connected enemy territories), the one with the best odds
    (:func:`riskmath.conquest`'s, exact up to 2,048 armies a side and
    estimated past it, as the ``riskmath.evaluate`` docstring says) is
    kept.  Routes stay inside the continent; a part of it that no
    territory of the player borders makes the probability 0.

    Parameters
    ----------
    state : GameState
    player : int
        The seat to plan for.
    continent : str
        A continent of the state's board, in any case.
    armies : int, default 0
        Armies the player has yet to place before attacking (0: none; pass
        the pool, ``state.position.pool``, at the start of a turn).

    Returns
    -------
    ContinentPlan
        The chance of taking every enemy territory of the continent
        (``probability``) and the routes attacked, as territory ids.

    Raises
    ------
    InvalidArgumentError
        For a state that is not a GameState, a seat out of range, an unknown continent or a negative ``armies``.

    Examples
    --------
    A position ten turns into a three-player game between odds agents, player 1 to place 8 armies:

    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> plan = plan_continent(state, 1, "Africa", armies=8)
    >>> plan
    ContinentPlan(probability=0.9838, routes=[(22, 23, 24, 25)])
    >>> [state.game.board.territories[t] for t in plan.routes[0]], plan.attackers, plan.placed
    (['East Africa', 'Congo', 'South Africa', 'Madagascar'], [9], [8])
    >>> plan_continent(state, 1, "Africa").probability    # without the 8 armies
    0.0
    """
    check_state(state)
    player = _check_player(state, player)
    plan = plan_continent_above(state, player, continent_members(state, continent), _check_armies(armies), -1.0)
    assert plan is not None  # (a probability is never below -1)
    return plan


def plan_continent_above(
    state: GameState, player: int, members: Sequence[int], armies: int, floor: float
) -> ContinentPlan | None:
    """:func:`plan_continent` of checked arguments (the continent by its territory ids), or None at ``floor``.

    The same plan as :func:`plan_continent` when its probability is above
    ``floor``, and None when it is not, found with less work: with a single
    group of enemy territories the candidates do not depend on one another,
    so a candidate is dropped as soon as the product of its paths' chances
    falls to ``floor`` (the first candidate above it, then the first better
    one, is the first best, as in :func:`plan_continent`).  With several
    groups, each candidate is built from the best so far, so that all are
    compared in full as :func:`plan_continent` does and only the answer is
    held against ``floor``.  For the odds agent, which only needs a plan
    likely enough to be played (see ``OddsAgent._plan_turn``).
    """
    game = state.game
    owners, stacks = owners_and_armies(state)
    enemy = {t for t in members if owners[t] != player}
    if not enemy:
        return ContinentPlan(1.0, [], [], []) if floor < 1.0 else None
    nbrs = game.neighbors
    components: list[set[int]] = []  # the groups of joined enemy territories, by their lowest id
    for t in sorted(enemy):
        if not any(t in c for c in components):
            components.append(game.board.component(t, enemy))

    def strength(t: int) -> int:  # the strongest stack of the player next to t (0: none)
        return max([stacks[u] for u in nbrs[t] if owners[u] == player], default=0)

    candidates = [covers(nbrs, component, strength) for component in components]
    if not all(candidates):
        return ContinentPlan(0.0, [], [], []) if floor < 0.0 else None
    known: dict[tuple[int, ...], tuple[int, int, tuple[int, ...]]] = {}  # path -> defenders, source, stacks
    if len(candidates) == 1:  # one group: the candidates are its options, each judged on its own
        found: ContinentPlan | None = None
        for option in candidates[0]:
            plan = _evaluate_routes(state, player, option, armies, known, floor if found is None else found.probability)
            if plan is not None and (found is None or plan.probability > found.probability):
                found = plan
        return found if found is not None and found.probability > floor else None  # (a plan cut short gives 0)
    chosen = [options[0] for options in candidates]
    best = _evaluate_routes(state, player, [p for paths in chosen for p in paths], armies, known)
    assert best is not None  # (nothing to beat)
    for k, options in enumerate(candidates):  # each component's candidates in turn, keeping the best odds
        for option in options[1:]:
            trial = [*chosen[:k], option, *chosen[k + 1 :]]
            plan = _evaluate_routes(
                state, player, [p for paths in trial for p in paths], armies, known, best.probability
            )
            if plan is not None and plan.probability > best.probability:
                best, chosen = plan, trial
    return best if best.probability > floor else None


def _evaluate_routes(
    state: GameState,
    player: int,
    paths: list[tuple[int, ...]],
    armies: int,
    known: dict[tuple[int, ...], tuple[int, int, tuple[int, ...]]] | None = None,
    beat: float = -1.0,
) -> ContinentPlan | None:
    """The plan of these paths; None as soon as its probability cannot exceed ``beat``.

    (Each path's chance is at most 1, so the product so far bounds the
    plan's: a candidate that cannot beat the best so far is dropped before
    its other paths are computed.  The product is formed in the same order
    either way.)
    """
    owners, stacks = owners_and_armies(state)
    if known is None:
        known = {}
    for path in paths:
        if path not in known:
            defenders = tuple([stacks[t] for t in path])
            source = _source(state.game.neighbors, owners, stacks, player, path[0])
            known[path] = (sum(defenders), source, defenders)
    weights = [known[path][0] for path in paths]
    sources = [known[path][1] for path in paths]
    placed = shares(armies, weights)
    attackers = []
    alone = len(set(sources)) == len(sources)  # (the usual case: each path from a stack of its own)
    for k, source in enumerate(sources):
        if alone:  # the stack's armies go to this path alone (no list of sharers to build)
            own = shares(stacks[source] - 1, [weights[k]])[0]
        else:
            sharing = [j for j, s in enumerate(sources) if s == source]
            own = shares(stacks[source] - 1, [weights[j] for j in sharing])[sharing.index(k)]
        attackers.append(own + placed[k])
    combat = state.game.rules.combat
    probability = 1.0
    for path, able in zip(paths, attackers, strict=True):
        if able < 1:
            probability = 0.0
            break
        probability *= chain_odds(able, known[path][2], combat)
        if probability <= beat:
            return None
    routes = [(source, *path) for source, path in zip(sources, paths, strict=True)]
    return ContinentPlan(probability, routes, attackers, placed)


def hold_probability(state: GameState, player: int, continent: str) -> float:
    """Chance that none of the continent's territories falls in the rivals' next turns.

    Each territory faces its strongest rival neighbor, reinforced with that
    rival's territory and continent armies, and the attacks are treated as
    independent: the product of ``1 - fall_probability``.  0 if ``player``
    does not hold the continent.

    Parameters
    ----------
    state : GameState
    player : int
        The seat holding (or not) the continent.
    continent : str
        A continent of the state's board, in any case.

    Returns
    -------
    float
        The chance in [0, 1].

    Raises
    ------
    InvalidArgumentError
        For a state that is not a GameState, a seat out of range or an unknown continent (listing the names).

    Examples
    --------
    A position ten turns into a three-player game between odds agents, player 1 to place 8 armies:

    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> hold_probability(state, 1, "South America"), hold_probability(state, 0, "South America")
    (1.0, 0.0)
    """
    check_state(state)
    player = _check_player(state, player)
    members = continent_members(state, continent)
    if any(state.owner(t) != player for t in members):
        return 0.0
    return kept_probability(members, fall_probabilities(state, True))


def kept_probability(members: Sequence[int], falls: Sequence[float]) -> float:
    """:func:`hold_probability` of a held continent from the territories' fall probabilities."""
    kept = 1.0
    for t in members:  # in order, each product rounded once: what ``np.prod`` gives, without its call overhead
        kept *= 1.0 - falls[t]
    return float(kept)


def _at_hand(state: GameState, player: int) -> int:
    if state.current_player == player and state.pool > 0:
        return state.pool
    return state.reinforcements(player)


def continent_outlook(state: GameState, player: int, *, armies: int | None = None) -> pd.DataFrame:
    """For each continent, ``player``'s chance to take it (or to keep it) next turn.

    Parameters
    ----------
    state : GameState
    player : int
    armies : int, optional
        Armies at hand to place before attacking; by default the pool being
        placed (during the player's reinforcement) or else the armies the
        player would receive now for territories and continents (cards not
        counted).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``continent``: ``bonus``, ``held``, ``enemy_territories``,
        ``route`` (the routes of :func:`plan_continent` as text, ``source >
        target > ...``, several separated by ``;``), ``attackers`` (armies
        able to attack along them) and ``probability``: of taking the
        continent when not held (:func:`plan_continent`), of keeping it
        through the rivals' next attacks when held (:func:`hold_probability`).

    Notes
    -----
    Assumes maximum dice, stacks that fight each battle to the end, routes
    that stay inside the continent, and independence between stacks (see
    :func:`plan_continent`).

    Examples
    --------
    A position ten turns into a three-player game between odds agents, player 1 to place 8 armies:

    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> outlook = continent_outlook(state, 1)
    >>> outlook[["held", "enemy_territories", "attackers", "probability"]].round(3)
                   held  enemy_territories  attackers  probability
    continent
    North America  False                  4          9        0.709
    South America   True                  0          0        1.000
    Europe         False                  4         10        0.420
    Africa         False                  3          9        0.984
    Asia           False                  9         10        0.000
    Australia      False                  4          0        0.000
    """
    import pandas as pd

    check_state(state)
    player = _check_player(state, player)
    extra = _at_hand(state, player) if armies is None else _check_armies(armies)
    names = state.game.board.territories
    falls = fall_probabilities(state, True)  # for the held continents, computed once
    rows = []
    for name, continent in state.game.board.continents.items():
        held = all(state.owner(t) == player for t in continent.ids)
        plan = plan_continent(state, player, name, extra)
        rows.append(
            {
                "continent": name,
                "bonus": continent.bonus,
                "held": held,
                "enemy_territories": sum(state.owner(t) != player for t in continent.ids),
                "route": "; ".join(" > ".join(names[t] for t in route) for route in plan.routes),
                "attackers": sum(plan.attackers),
                "probability": kept_probability(continent.ids, falls) if held else plan.probability,
            }
        )
    return pd.DataFrame(rows).set_index("continent")


def check_state(state: object) -> GameState:
    """``state`` itself if it is a :class:`~riskmath.game.state.GameState`; else an error naming what it is.

    For the evaluation functions' arguments (layer-internal): a wrong object fails here, in one clear line,
    rather than deep inside as an ``AttributeError``.
    """
    from riskmath.game.state import GameState

    if not isinstance(state, GameState):
        raise InvalidArgumentError(f"state must be a GameState, got {type(state).__name__}: {shown(state)}")
    return state


def continent_members(state: GameState, continent: object) -> tuple[int, ...]:
    """The territory ids of ``continent`` (a name on the state's board), or an error listing the names."""
    board = state.game.board
    try:
        name = board.continent_name(continent) if isinstance(continent, str) else None
    except BoardError:
        name = None
    if name is None:  # (any case is taken, as the board's own methods take it)
        raise InvalidArgumentError(
            f"continent must be the name of one of the board's continents ({', '.join(board.continents)}), "
            f"got {shown(continent)}"
        )
    return board.continents[name].ids


def _check_player(state: GameState, player: object) -> int:
    """``player`` as a plain int (a NumPy integer too), or InvalidArgumentError naming it."""
    seat = as_int(player)
    if seat is None or not 0 <= seat < state.game.players:
        raise InvalidArgumentError(f"player must be a seat 0..{state.game.players - 1}, got {shown(player)}")
    return seat


def _check_armies(armies: object) -> int:
    """``armies`` (to place) as a plain int ``>= 0``, or InvalidArgumentError naming it."""
    count = as_int(armies)
    if count is None or count < 0:
        raise InvalidArgumentError(f"armies must be a non-negative integer, got {shown(armies)}")
    return count


# -- one number per player --------------------------------------------------------------
#: Default weights of :func:`position_value`'s terms.
#: The default weights (read-only: a mapping proxy, so that no caller changes every later default).
VALUE_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {"territories": 0.2, "armies": 0.35, "income": 0.45, "exposure": 0.25}
)


def _card_value(state: GameState, player: int) -> float:
    """Armies the hand is worth: a fifth of a set per card (five cards always hold a set)."""
    values = state.game.rules.set_values
    progressive = values.kind == "progressive"
    unit = values.value(state.sets_traded + 1) if progressive else min(v for _, v in values.table)
    return len(state.cards(player)) / 5 * unit


def _terms(state: GameState) -> dict[str, list[float]]:
    game = state.game
    players = range(game.players)
    owners = [state.owner(t) for t in range(len(game.board))]
    falls = fall_probabilities(state, True)
    held = [0] * game.players
    armies = [0] * game.players
    lost = [0.0] * game.players
    for t, owner in enumerate(owners):
        if 0 <= owner < game.players:
            held[owner] += 1
            armies[owner] += state.armies(t)
            lost[owner] += falls[t]
    income = [
        float(state.reinforcements(p)) + _card_value(state, p) if state.alive(p) and held[p] else 0.0 for p in players
    ]

    def share(values: Sequence[float]) -> list[float]:
        total = sum(values)
        return [v / total if total else 0.0 for v in values]

    return {
        "territories": share(held),
        "armies": share(armies),
        "income": share(income),
        "exposure": [lost[p] / sum(held) if held[p] else 0.0 for p in players],
    }


def _values(state: GameState, weights: Mapping[str, float] = VALUE_WEIGHTS) -> list[float]:
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    terms = _terms(state)
    return [
        weights["territories"] * terms["territories"][p]
        + weights["armies"] * terms["armies"][p]
        + weights["income"] * terms["income"][p]
        - weights["exposure"] * terms["exposure"][p]
        for p in range(state.game.players)
    ]


def position_value(state: GameState, *, weights: Mapping[str, float] | None = None) -> pd.DataFrame:
    """One number per player summing up a position, with the terms it is made of.

    What it is for: a quick, hand-weighted score that the odds-driven and
    search agents use to compare positions.  It is not a probability: the
    weights were chosen by hand, not fitted to outcomes, and the values do
    not sum to 1 or say how likely a player is to win the game.  For each player's
    chance of victory, use :func:`~riskmath.evaluate.estimate_victory_probabilities` (fitted to
    self-play and measured on games it never saw).

    ``value = w_territories * territories + w_armies * armies + w_income * income
    - w_exposure * exposure``, where

    - ``territories``, ``armies``: the player's share of all territories and
      armies held by players (neutrals excluded);
    - ``income``: the player's share of what the players would receive now:
      territory armies and continent bonuses plus the cards in hand, each
      card counted as a fifth of the next set's value (the lowest value of a
      fixed table);
    - ``exposure``: the expected number of the player's territories that
      fall in the rivals' next turns, as a share of all territories held by
      players; each territory faces its strongest rival neighbor reinforced
      with all its owner's territory and continent armies (:func:`threats`
      with ``reinforcements=True``; pessimistic, since a rival cannot place
      everything everywhere), and the falls are summed as if independent.

    Eliminated players are worth 0; at the end of a game the winner is worth
    1 and the others 0.

    Parameters
    ----------
    state : GameState
        Any state after the set-up.
    weights : mapping, optional
        ``territories``, ``armies``, ``income`` and ``exposure`` (non-negative);
        default :data:`VALUE_WEIGHTS`.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``player``: the four terms and ``value``.

    Examples
    --------
    A position ten turns into a three-player game between odds agents, player 1 to place 8 armies:

    >>> import random, riskmath as rm
    >>> from riskmath.agents.odds import OddsAgent
    >>> state = rm.Game(3).new_initial_state(seed=4, auto_chance=True)
    >>> agent, rng = OddsAgent(), random.Random(0)
    >>> while state.turn < 10 or state.phase is not rm.Phase.REINFORCE:
    ...     state = state.apply(agent.act(state, rng))
    >>> position_value(state).round(3)
            territories  armies  income  exposure  value
    player
    0             0.238   0.232   0.223     0.236  0.170
    1             0.429   0.406   0.430     0.305  0.345
    2             0.333   0.362   0.347     0.204  0.299
    >>> only_land = {"territories": 1, "armies": 0, "income": 0, "exposure": 0}
    >>> position_value(state, weights=only_land)["value"].round(3).tolist()
    [0.238, 0.429, 0.333]
    """
    check_state(state)
    import pandas as pd

    if weights is not None and not isinstance(weights, Mapping):
        raise InvalidArgumentError(
            f"weights must be a mapping of {sorted(VALUE_WEIGHTS)} to numbers, got {shown(weights)}"
        )
    chosen: dict[str, object] = dict(VALUE_WEIGHTS if weights is None else weights)
    if set(chosen) != set(VALUE_WEIGHTS) or any(
        isinstance(w, (bool, np.bool_)) or not isinstance(w, numbers.Real) or not 0 <= float(w) < math.inf
        for w in chosen.values()
    ):
        raise InvalidArgumentError(
            f"weights must give finite non-negative numbers for exactly {sorted(VALUE_WEIGHTS)}, got {weights!r}"
        )
    plain = {term: float(w) for term, w in chosen.items()}  # type: ignore[arg-type]  # (checked: real numbers)
    terms: dict[str, Any] = _terms(state)
    frame = pd.DataFrame(terms, index=pd.RangeIndex(state.game.players, name="player"))
    frame["value"] = _values(state, plain)
    return frame
