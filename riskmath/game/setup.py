"""The set-up of a game, in one place: owners, neutrals, starting armies, shares, the deal and the placements.

Every fact about how a game starts that depends on the rules and the number
of players is defined here once, as functions of plain values (the two-player
variant, the rules, the counts), so that the game's context
(:class:`~riskmath.game.context.GameContext`), the transitions, the
invariants a loaded state is checked against and the OpenSpiel game read the
same definition.  The rules they implement (sources as in the documentation's
sources page: [R1], [R3b] for 1993, [R4a], [R12b] for 2003, [R7], [R12h] for
1975):

* the 1993 US two-player game has one neutral with 40 starting armies; the
  territories are dealt into three piles of 14;
* the article's two-player game (a 1975 rule) has one neutral with 28
  armies; with a claimed set-up each player claims a third and the rest is
  neutral, 2 armies on each territory;
* the 2003 two-player game has four neutrals with 24 armies each; the
  players are dealt 9 territories each and the neutrals share the rest;
* players place one set-up army a turn, two in the 1993 two-player game and
  three in the 2003 one, with one for each neutral after them.
"""

from __future__ import annotations

import functools

from riskmath.errors import BoardError, RulesError
from riskmath.game._board_data import NEUTRAL_NAMES
from riskmath.game.board import Board
from riskmath.game.rules import Rules

__all__ = [
    "NEUTRALS",
    "NEUTRAL_STARTING_ARMIES",
    "capital_chooser",
    "check_board_fits",
    "chooses_piles",
    "claimed_by_players",
    "claims_territories",
    "deal_schedule",
    "deals_into_piles",
    "neutral_armies_per_territory",
    "neutral_takes_unclaimed",
    "neutrals_place_each_turn",
    "owner_name",
    "pile_chooser",
    "placements_per_turn",
    "starting_armies",
    "territory_shares",
    "two_player_variant",
]

#: Neutral owners in each two-player variant (``Rules.two_player``); none in the others.
NEUTRALS = {"neutral_1993": 1, "neutral_article": 1, "neutrals_2003": 4}

#: Starting armies of each neutral in each two-player variant.
NEUTRAL_STARTING_ARMIES = {"neutral_1993": 40, "neutral_article": 28, "neutrals_2003": 24}

# Set-up armies a player places a turn, by two-player variant; 1 in the others.
_PER_TURN = {"neutral_1993": 2, "neutrals_2003": 3}

# The variants whose neutrals are dealt their territories and place an army after each player's set-up turn.
_NEUTRALS_PLACE = ("neutral_1993", "neutrals_2003")


def two_player_variant(rules: Rules, players: int) -> str:
    """The two-player variant in force: ``rules.two_player`` with two players, ``"none"`` with more."""
    return rules.two_player if players == 2 else "none"


def owner_name(owner: int, players: int) -> str:
    """``"player 0"`` ... for a player, or the neutral's label for owners ``players ..``."""
    return f"player {owner}" if owner < players else NEUTRAL_NAMES[owner - players]


def claims_territories(rules: Rules, variant: str) -> bool:
    """Whether the players claim the territories one by one (``SETUP_CLAIM``) rather than being dealt them.

    A claimed set-up (``Rules.setup == "claim"``) is dealt all the same in
    the two-player variants whose neutrals are dealt their share.
    """
    return rules.setup == "claim" and variant not in _NEUTRALS_PLACE


def neutrals_place_each_turn(variant: str) -> bool:
    """Whether each neutral places one set-up army after every player's set-up turn."""
    return variant in _NEUTRALS_PLACE


def deals_into_piles(variant: str) -> bool:
    """Whether the territory cards are dealt into three piles that the players choose from (1993 two-player)."""
    return variant == "neutral_1993"


def chooses_piles(rules: Rules, variant: str) -> bool:
    """Whether the players then choose among the three piles (``SETUP_PILE``), rather than taking them as dealt.

    The piles of :func:`deals_into_piles` are chosen in a dealt or claimed
    set-up; a random one (``Rules.setup == "random"``) leaves nothing to
    choose: the first player takes the first pile, the other the second, the
    neutral the third.
    """
    return deals_into_piles(variant) and rules.setup != "random"


def pile_chooser(first: int, piles_left: int) -> int:
    """Who chooses a pile (``SETUP_PILE``) with ``piles_left`` left: ``first`` from three, the other from two.

    The last pile is the neutral's.  (A random set-up takes the piles in
    this order too, pile 0 first.)

    >>> pile_chooser(1, 3), pile_chooser(1, 2)
    (1, 0)
    """
    return first if piles_left == 3 else 1 - first


def capital_chooser(first: int, chosen: int, players: int) -> int:
    """The player who chooses headquarters number ``chosen + 1`` (``SETUP_CAPITAL``): from ``first`` round the table.

    Capital RISK: once ``chosen`` headquarters are chosen, the next is the
    choice of ``(first + chosen) % players``; while they choose,
    ``Position.capitals`` lists them in this order.

    >>> [capital_chooser(2, chosen, 3) for chosen in range(3)]
    [2, 0, 1]
    """
    return (first + chosen) % players


def neutral_takes_unclaimed(variant: str) -> bool:
    """Whether, in a claimed set-up, the territories left once the players have claimed theirs become neutral.

    The article's two-player game: each player claims a third
    (:func:`claimed_by_players`), and the neutral takes the rest with
    :func:`neutral_armies_per_territory` armies on each.
    """
    return variant == "neutral_article"


def claimed_by_players(variant: str, territories: int) -> int:
    """Territories the players claim in a claimed set-up before it moves on to placing armies."""
    return 2 * (territories // 3) if neutral_takes_unclaimed(variant) else territories


def neutral_armies_per_territory(variant: str) -> int:
    """Armies a neutral starts with on each territory it is dealt or given (2 in the article's game, else 1)."""
    return 2 if variant == "neutral_article" else 1


def placements_per_turn(variant: str) -> int:
    """Set-up armies a player places in one set-up turn."""
    return _PER_TURN.get(variant, 1)


def starting_armies(rules: Rules, players: int, variant: str) -> list[int]:
    """The set-up armies of every owner, players then neutrals, before any is placed."""
    start = rules.starting_armies_for(players)
    neutral = NEUTRAL_STARTING_ARMIES.get(variant, 0)
    return [start] * players + [neutral] * NEUTRALS.get(variant, 0)


def territory_shares(variant: str, setup: str, players: int, territories: int) -> list[int]:
    """The most territories each owner (players, then neutrals) can receive in the set-up."""
    n = territories
    if variant in ("neutral_1993", "neutral_article"):
        if variant == "neutral_article" and setup == "claim":
            share = n // 3  # each player claims a third, the rest is neutral
            return [share, share, n - 2 * share]
        share = n // 3 + (n % 3 > 0)
        return [share] * 3
    if variant == "neutrals_2003":
        neutral = (n - 18) // 4
        return [9, 9, neutral, neutral, neutral, n - 18 - 3 * neutral]
    return [-(-n // players)] * players


@functools.lru_cache(maxsize=256)
def deal_schedule(variant: str, players: int, territories: int, first: int) -> tuple[int, ...]:
    """Owner of each dealt territory card, in dealing order.

    Cards go round the table starting with the first player, skipping owners
    whose share is full: an even deal among the players (4 or 5 players: the
    first two get one more), three piles of 14 with a neutral (1993 two-player
    game), or 9 + 9 + 4 x 6 with four neutrals (2003).

    >>> deal_schedule("none", 3, 7, 1)
    (1, 2, 0, 1, 2, 0, 1)
    """
    n = territories
    # The article's neutral (claimed set-up) is dealt like the 1993 one when the territories are dealt or
    # assigned at random: three piles of 14 (an even deal to the two players would leave the neutral nothing).
    if variant in ("neutral_1993", "neutral_article"):
        owners = [first, 1 - first, players]
        quotas = [n // 3 + (i < n % 3) for i in range(3)]
    elif variant == "neutrals_2003":
        owners = [first, 1 - first, *range(players, players + NEUTRALS[variant])]
        neutral_share = (n - 18) // 4
        quotas = [9, 9] + [neutral_share] * 3 + [n - 18 - 3 * neutral_share]
    else:
        owners = [(first + k) % players for k in range(players)]
        quotas = [n // players + (k < n % players) for k in range(players)]
    schedule: list[int] = []
    left = quotas[:]
    while len(schedule) < n:
        for i, owner in enumerate(owners):
            if left[i] > 0:
                schedule.append(owner)
                left[i] -= 1
    return tuple(schedule)


def check_board_fits(players: int, rules: Rules, board: Board) -> None:
    """Refuse a board on which these rules and players cannot set up or play (the set-up would stick or crash).

    Every owner needs a territory (to place, to choose a headquarters, to be
    alive); the four neutrals of 2003 need 9 + 9 + 4 territories; the
    starting armies must cover the territories an owner receives (one army
    each).  (That Secret Mission RISK finds the continents its cards name is
    checked by :class:`~riskmath.game.game.Game`.)

    Raises
    ------
    BoardError, RulesError
        Naming the board, the counts and the rule at fault.
    """
    variant = two_player_variant(rules, players)
    neutrals = NEUTRALS.get(variant, 0)
    n, owners = len(board), players + neutrals
    if n < owners:
        who = f"{players} players" + (
            f" and {neutrals} neutral(s) (Rules.two_player={rules.two_player!r})" if neutrals else ""
        )  # (the two-player rule is named only where it adds owners: with 6 players it played no part)
        raise BoardError(f"board {board.name!r} has {n} territories: {who} need at least {owners}, one each")
    if variant == "neutrals_2003" and n < 22:
        raise BoardError(
            f"board {board.name!r} has {n} territories: Rules.two_player='neutrals_2003' deals 9 to each player "
            "and at least 1 to each of four neutrals, so it needs at least 22"
        )
    if rules.starting_armies_rule == "table":
        start = starting_armies(rules, players, variant)
        shares = territory_shares(variant, rules.setup, players, n)
        for owner, share in enumerate(shares):
            armies, needed = start[owner], share
            if owner >= players and neutral_armies_per_territory(variant) > 1:
                if rules.setup == "claim":
                    continue  # the unclaimed rest becomes neutral with 2 armies each, whatever the count
                needed = neutral_armies_per_territory(variant) * share  # dealt neutral territories hold 2 each
            if needed > armies:
                raise RulesError(
                    f"Rules.starting_armies gives {owner_name(owner, players)} {armies} armies with {players} "
                    f"players, fewer than the {needed} its {share} territories need on board {board.name!r} ({n} "
                    f"territories, Rules.two_player={rules.two_player!r})"
                )
