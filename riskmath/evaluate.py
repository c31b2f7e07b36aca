"""Position evaluation from the exact battle odds: pure functions of a :class:`GameState`.

Each function says what it assumes.  In common: both sides throw their
maximum dice (which the theory page shows is optimal for capturing), a stack
attacks with every army but the one that must stay, and nothing else moves in
between.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from riskmath.battle import battle_statistics
from riskmath.cards import has_set, is_set

if TYPE_CHECKING:
    import pandas as pd

    from riskmath.state import GameState

__all__ = ["reinforcement_outlook", "threats"]


def threats(state: GameState, *, reinforcements: bool = False) -> pd.DataFrame:
    """For every territory, how likely it is to fall next turn to its strongest enemy neighbour.

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
        enemy neighbour with the most armies, missing if none), ``attacker_owner``,
        ``attackers`` (its armies able to attack) and ``fall_probability``
        (``riskmath.battle(attackers, armies).win_probability``; 0 when no
        enemy borders it).  Neutral owners never attack.

    Notes
    -----
    Assumes one attack by one stack, fought to the end with maximum dice; it
    ignores attacks from several sides, cards and fortification.
    """
    import pandas as pd

    game = state.game
    names = game.board.territories
    rows = []
    for t, name in enumerate(names):
        owner = state.owner(name)
        best: tuple[int, int] | None = None  # (armies able to attack, territory)
        for u in game.neighbors[t]:
            enemy = state.owner(u)
            if enemy in (owner, -1) or enemy >= game.players or not state.alive(enemy):
                continue
            able = state.armies(u) - 1 + (state.reinforcements(enemy) if reinforcements else 0)
            if best is None or able > best[0]:
                best = (able, u)
        rows.append((name, owner, state.armies(name), best))
    most_a = max([b[0] for *_, b in rows if b is not None] + [1])
    most_d = max(armies for _, _, armies, _ in rows)
    table = battle_statistics(max(most_a, 1), max(most_d, 1), ("win_probability",), rules=game.rules.combat)
    grid = table["win_probability"]
    records = []
    for name, owner, armies, best in rows:
        attacker: str | None = None
        rival: int | None = None
        able, p = 0, 0.0
        if best is not None:
            attacker, rival = names[best[1]], state.owner(best[1])
            if best[0] >= 1:  # armies able to attack: the battle's odds
                able = best[0]
                p = float(grid[able - 1, armies - 1])
        records.append(
            {
                "territory": name,
                "owner": owner,
                "armies": armies,
                "attacker": attacker,
                "attacker_owner": rival,
                "attackers": able,
                "fall_probability": p,
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
        fixed table, the value of the best set in the hand, 0 without a set),
        and ``total`` = territory armies + continent bonus (cards excluded).
    """
    import pandas as pd

    game = state.game
    rules = game.rules
    rows = []
    for p in range(game.players):
        owned = state.territories_of(p)
        held = [c.name for c in game.board.continents.values() if all(state.owner(t) == p for t in c.territories)]
        bonus = sum(game.board.continents[c].bonus for c in held)
        hand = [game.cards[c] for c in state.cards(p)]
        holds = len(hand) >= 3 and has_set(hand)
        if rules.set_values.kind == "progressive":
            next_value = rules.set_values.value(state.sets_traded + 1)
        else:
            values = [
                rules.set_values.value(state.sets_traded + 1, list(trio))
                for trio in combinations(hand, 3)
                if is_set(list(trio))
            ]
            next_value = max(values, default=0)
        territory_armies = rules.reinforcements(len(owned))
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
