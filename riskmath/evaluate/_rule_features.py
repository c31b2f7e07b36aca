"""What the line-up variants of the win estimate add to its features (private): the rules, missions, headquarters.

:func:`rule_features` describes a game's rules and player count by the
numbers of :data:`RULE_FEATURES`, each at least 0 and all 0 under the
classic rules with three players; a variant's weights for the game are
``W @ [1, rule_features(game)]`` (``riskmath.evaluate.estimate``).
:func:`extra_features` adds :data:`EXTRA_FEATURES` to each player's row of
``riskmath.evaluate._features.FEATURES``: its progress along its secret
mission and its share of the headquarters, both 0 under rules without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from riskmath.game.missions import CONTINENT_MISSIONS

if TYPE_CHECKING:
    from riskmath.game.context import GameContext
    from riskmath.game.position import Position
    from riskmath.game.state import GameState

__all__ = ["EXTRA_FEATURES", "EXTRA_SIGNS", "RULE_FEATURES", "extra_features", "rule_features"]


#: Features the line-up variants add to ``FEATURES`` for each player (0 when the rules lack them).
EXTRA_FEATURES = ("mission_progress", "capitals")

#: Signs the fit holds the extra features' weights to (as ``_features.SIGNS``): ``occupy_18_2`` rises with armies.
EXTRA_SIGNS = {"mission_progress": 1, "capitals": 0}

#: Descriptions of the rules (and the player count) that the variants' weights change with, each at least 0.
RULE_FEATURES = (
    "missions",
    "capitals",
    "defender_dice",
    "slow_cards",
    "fast_cards",
    "no_least_income",
    "other_board",
    "army_cap",
    "fortify_far",
    "no_card_bonus",
    "dealt",
    "two_players",
    "neutral",
    "four_players",
    "five_players",
    "six_players",
)

#: The set whose value ``slow_cards`` and ``fast_cards`` read (the 8th).
CARD_SET = 8

#: The 8th set's value under the classic (1993) rules, which the card features compare with.
CARD_SET_VALUE = 25


def rule_features(game: GameContext) -> tuple[float, ...]:
    """One number (at least 0) per :data:`RULE_FEATURES` for a game's rules and player count.

    0 everywhere for the classic rules with 3 or more players, so that a
    variant's base weights are its weights there.
    """
    rules = game.rules
    values = rules.set_values
    if rules.cards == "none":
        card_value = 0.0
    elif values.kind == "progressive":
        card_value = values.value(CARD_SET) / CARD_SET_VALUE
    else:
        card_value = max(v for _, v in values.table) / CARD_SET_VALUE
    two = game.players == 2
    return (
        float(rules.missions != "none"),
        float(rules.capital != "none"),
        float(max(rules.combat.defender_max_dice - 2, 0)),
        max(1.0 - card_value, 0.0),
        max(card_value - 1.0, 0.0),
        max(3 - rules.min_reinforcement, 0) / 3,
        float(game.board.name != "classic"),  # the board played on (Game(board=...) too), not only Rules.board
        float(rules.max_armies_per_territory is not None),
        float(rules.fortify != "adjacent"),
        float(rules.territory_card_bonus == "none"),
        float(rules.setup == "deal"),
        float(two),
        float(two and rules.two_player != "none"),
        float(game.players == 4),
        float(game.players == 5),
        float(game.players == 6),
    )


def _mission_progress(game: GameContext, pos: Position, player: int, held: list[int]) -> float:
    """How far ``player`` is along its secret mission, from 0 to 1 (a rough reading; 0 without missions)."""
    if player >= len(pos.missions):
        return 0.0
    mission = pos.missions[player]
    owners = pos.owner
    if mission.startswith("destroy_"):
        target = int(mission.removeprefix("destroy_"))
        killer = pos.killed_by[target]
        if target == player or (
            killer not in (-1, player) and game.rules.mission_target_killed_by_other != "counts_as_complete"
        ):
            mission = "occupy_24"
        else:
            total = sum(held)
            return 1.0 - held[target] / total if total else 1.0
    if mission in CONTINENT_MISSIONS:
        names, third = CONTINENT_MISSIONS[mission]
        continents = game.board.continents
        own, size = 0.0, 0
        for name in names:
            ids = continents[name].ids
            own += sum(owners[t] == player for t in ids)
            size += len(ids)
        if third:
            best = max(
                (sum(owners[t] == player for t in c.ids) / len(c.ids), len(c.ids))
                for n, c in continents.items()
                if n not in names
            )
            own += best[0] * best[1]
            size += best[1]
        return own / size
    if mission == "occupy_18_2":
        return min(sum(owners[t] == player and pos.armies[t] >= 2 for t in range(len(owners))) / 18, 1.0)
    return min(held[player] / 24, 1.0)


def extra_features(state: GameState, alive: list[bool]) -> list[list[float]]:
    """One row of :data:`EXTRA_FEATURES` per player (zeros for a player out of the game)."""
    game = state.game
    pos = state.position
    players = game.players
    owners = pos.owner
    held = [0] * players
    for owner in owners:
        if 0 <= owner < players:
            held[owner] += 1
    capitals = pos.capitals if game.rules.capital != "none" else []
    rows = []
    for p in range(players):
        if not alive[p]:
            rows.append([0.0, 0.0])
            continue
        mission = _mission_progress(game, pos, p, held) if pos.missions else 0.0
        kept = sum(owners[t] == p for t in capitals) / len(capitals) if capitals else 0.0
        rows.append([mission, kept])
    return rows
