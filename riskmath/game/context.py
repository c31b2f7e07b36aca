"""What the engine reads of a game: :class:`GameContext`, the part of a :class:`~riskmath.game.game.Game` that
does not change while it is played.

The engine (:mod:`~riskmath.game.legality`, :mod:`~riskmath.game.transitions`,
:mod:`~riskmath.game.chance`, :mod:`~riskmath.game.missions`, the invariants
and the JSON format) is functions of ``(game, position)``; the ``game`` they
take is a :class:`GameContext`: the players, rules and board, the board's
adjacency as id tuples, the card deck, the caps, the flags derived from the
rules (from :mod:`~riskmath.game.setup` for the set-up), and the chance
tables of rolls and blitzes, cached for every state of the game.  This module
imports nothing of the engine, so that the engine imports it at run time and
no module of the game layer needs a type-only import of one above it.

:class:`~riskmath.game.game.Game` is this context with the factories that
make states (``new_initial_state``, ``position``, ``replay``); every game a
user holds is a ``Game``.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from fractions import Fraction
from typing import Any

import numpy as np

import riskmath.game.setup as setup
from riskmath._validation import check_int, shown
from riskmath.errors import InvalidArgumentError, RulesError
from riskmath.game.actions import BattleOutcome, RollOutcome
from riskmath.game.board import Board
from riskmath.game.cards import CARD_SYMBOLS, MAX_ARMIES, WILD, Card, Symbol, full_deck
from riskmath.game.rules import MAX_OPTION, Rules
from riskmath.odds._sweeps import check_kernel_cost, forward_float, kernel
from riskmath.odds.dice import CombatRules

__all__ = ["TABLE_ATTACKERS", "TABLE_DEFENDERS", "ChanceTable", "GameContext"]

#: The largest blitz (armies able to attack, defenders) drawn from its own cached battle table.  With more
#: attackers it is drawn in pieces of ``TABLE_ATTACKERS``; with more defenders it is rolled out (see
#: :mod:`riskmath.game.chance`, which draws them).
TABLE_ATTACKERS = 64
TABLE_DEFENDERS = 16


class ChanceTable:
    """Outcomes of a chance node with their probabilities, and the cumulative sums for sampling."""

    __slots__ = ("_drawn", "cumulative", "outcomes")

    def __init__(self, outcomes: tuple[tuple[Any, Fraction | float], ...]) -> None:
        self.outcomes = outcomes
        total = 0.0
        cumulative = []
        for _, p in outcomes:
            total += float(p)
            cumulative.append(total)
        self.cumulative = cumulative
        # The outcome for each place bisect may return; the last twice, for x at or above a total rounded below 1.
        self._drawn = tuple(outcome for outcome, _ in outcomes) + outcomes[-1][:1]

    def sample(self, x: float) -> Any:
        """The outcome for a uniform draw ``x`` in [0, 1)."""
        return self._drawn[bisect_right(self.cumulative, x)]


class GameContext:
    """What does not change in a game: players, rules, board, adjacency, deck, caps, flags and chance tables.

    The engine's view of a :class:`~riskmath.game.game.Game` (which adds the
    factories of states); the parameters, checks and errors are
    :class:`~riskmath.game.game.Game`'s.

    Attributes
    ----------
    players : int
    neutrals : int
        Neutral owners (ids ``players .. players + neutrals - 1``).
    owners : int
        Players and neutrals.
    rules : Rules
    board : Board
    defender_decides : bool
    max_turns : int or None
    two_player : str
        The two-player variant in force, ``"none"`` with more players.
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules | str | None = None,
        board: Board | str | None = None,
        *,
        defender_decides: bool = False,
        max_turns: int | None = None,
    ) -> None:
        self.players = check_int("players", players, minimum=2, maximum=6)
        if rules is None:
            rules = Rules()
        elif isinstance(rules, str):  # a preset's name, as the environments and the repr take it
            rules = Rules.preset(rules)
        if not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be a Rules or a preset's name, got {shown(rules)}")
        self.rules = rules
        if board is None:
            board = Board.load(rules.board)
        elif isinstance(board, str):  # a name, as Board.load reads it
            board = Board.load(board)
        if not isinstance(board, Board):
            raise InvalidArgumentError(f"board must be a Board or a board's name, got {board!r}")
        self.board = board
        if not isinstance(defender_decides, bool):
            raise InvalidArgumentError(f"defender_decides must be True or False, got {defender_decides!r}")
        self.defender_decides = defender_decides
        cap = rules.turn_cap if max_turns is None else check_int("max_turns", max_turns, minimum=1, maximum=MAX_OPTION)
        self.max_turns: int | None = cap
        #: The two-player variant in force (``Rules.two_player`` with two players, else ``"none"``).
        self.two_player = setup.two_player_variant(rules, self.players)
        #: Neutral owners (ids ``players .. owners - 1``) and all owners.
        self.neutrals = setup.NEUTRALS.get(self.two_player, 0)
        self.owners = self.players + self.neutrals
        rules.starting_armies_for(self.players)
        check_kernel_cost(rules.combat)  # the roll tables, built at the first battle: refused now if too costly
        if rules.missions != "none" and self.players < 3:
            raise RulesError(f"Secret Mission RISK is for 3 to 6 players, not {self.players}")
        setup.check_board_fits(self.players, rules, board)
        #: Set-up armies of every owner before any is placed (players, then neutrals).
        self.starting_armies: tuple[int, ...] = tuple(setup.starting_armies(rules, self.players, self.two_player))
        #: Whether the players claim the territories (``SETUP_CLAIM``) rather than being dealt them.
        self.claiming = setup.claims_territories(rules, self.two_player)
        #: Set-up armies a player places a turn, and whether each neutral places one after it.
        self.setup_per_turn = setup.placements_per_turn(self.two_player)
        self.neutrals_place = setup.neutrals_place_each_turn(self.two_player)
        #: Whether the territory cards are dealt into three piles the players choose from (``SETUP_PILE``).
        self.deals_piles = setup.deals_into_piles(self.two_player)
        #: Whether the players then choose among those piles (``SETUP_PILE``), rather than take them as dealt.
        self.chooses_piles = setup.chooses_piles(rules, self.two_player)
        #: Whether the neutral takes the territories left unclaimed, once the players have claimed this many.
        self.neutral_takes_unclaimed = setup.neutral_takes_unclaimed(self.two_player)
        self.claimed_by_players = setup.claimed_by_players(self.two_player, len(board))
        #: Armies a neutral starts with on each territory it receives.
        self.neutral_armies_each = setup.neutral_armies_per_territory(self.two_player)
        n = len(board)
        mapping = CARD_SYMBOLS[rules.card_symbols]
        if set(mapping) >= set(board.territories):
            symbols = dict(mapping)
        else:  # a custom board: symbols in turn, infantry, cavalry, artillery, in territory order
            cycle = (Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY)
            symbols = {t: cycle[i % 3] for i, t in enumerate(board.territories)}
        deck = full_deck(board.territories, symbols, rules.wild_cards)
        #: The card of each name in hands and decks: a territory's name, or ``"wild"``.
        self.cards: dict[str, Card] = {card.territory: card for card in deck if card.territory is not None}
        self.cards[WILD] = Card(None, Symbol.WILD)
        self.territory_cards: tuple[str, ...] = tuple(board.territories)
        #: The whole deck by card name (the engine's decks and hands hold names).
        self.full_deck: tuple[str, ...] = tuple(WILD if card.territory is None else card.territory for card in deck)
        self.neighbors: tuple[tuple[int, ...], ...] = tuple(board.neighbor_ids(i) for i in range(n))
        self.continents: tuple[tuple[int, frozenset[int]], ...] = board.continent_ids
        self.index: dict[str, int] = {name: i for i, name in enumerate(board.territories)}
        no_cap = MAX_ARMIES
        #: Most armies on a territory during play and during the set-up (10**9 when uncapped: ``MAX_ARMIES``).
        self.cap = rules.max_armies_per_territory or no_cap
        self.setup_cap = min(self.cap, rules.setup_cap_per_territory or no_cap)
        #: Territory ids in the alphabetical order of their names (the built-in agents break ties in this order).
        self.alphabetical: tuple[int, ...] = tuple(sorted(range(n), key=lambda t: board.territories[t]))
        #: Most attacking and defending dice (``rules.combat.attacker_max_dice``, ``defender_max_dice``).
        self.attacker_dice = rules.combat.attacker_max_dice
        self.defender_dice = rules.combat.defender_max_dice
        #: Whether a capture must move in at least the dice rolled (else 1).
        self.occupy_dice_rolled = rules.occupy_min == "dice_rolled"
        #: Whether a capture can decide the game at once (Capital RISK, or missions checked immediately).
        self.decided_by_captures = rules.capital != "none" or (
            rules.missions != "none" and rules.mission_check == "immediate"
        )

    def __repr__(self) -> str:
        """The arguments that make this game: the rules as their preset's name (with the options changed from it),
        the board's name, and the options that are not the defaults."""
        rules = self.rules
        base = Rules.preset(rules.edition) if rules.edition in Rules.presets() else Rules()
        defaults = base.options()
        changed = {name: value for name, value in rules.options().items() if value != defaults[name]}
        shown_rules = repr(base.edition)
        if changed:
            shown_rules = (
                f"Rules.preset({base.edition!r}).replace({', '.join(f'{k}={v!r}' for k, v in changed.items())})"
            )
        extra = "".join(
            f", {name}={value!r}"
            for name, value, default in (
                ("defender_decides", self.defender_decides, False),
                ("max_turns", self.max_turns, None),
            )
            if value != default
        )
        return f"{type(self).__name__}(players={self.players}, rules={shown_rules}, board={self.board.name!r}{extra})"

    def owner_name(self, owner: int) -> str:
        """``"player 0"`` ... or the neutral's label."""
        return setup.owner_name(owner, self.players)

    def deal_schedule(self, first: int) -> tuple[int, ...]:
        """Owner of each dealt territory card in dealing order, ``first`` first (see ``setup.deal_schedule``)."""
        return setup.deal_schedule(self.two_player, self.players, len(self.board), first)

    # -- chance tables, shared by every state --------------------------------
    # They depend on the combat rules alone: kept per CombatRules at module level, bounded, so that they are
    # shared by every game of those dice and keep no game alive.  (As caches of the methods, keyed by the
    # game, they kept every game that ever rolled a die for the life of the process: 12,000 short games held
    # 12,000 games and 206 MB, and big blitzes' whole tables, 2.6 MB each, up to 8,192 of them.)
    def roll_table(self, attacker_dice: int, defender_dice: int) -> ChanceTable:
        """The outcomes of one roll: ``(RollOutcome, Fraction)`` pairs and cumulative floats."""
        return _roll_table(self.rules.combat, attacker_dice, defender_dice)

    def roll_tables(self) -> tuple[tuple[tuple[tuple[float, ...], tuple[tuple[int, int], ...]], ...], ...]:
        """Every roll's table as plain numbers, for rolling battles out: ``[dice][defender dice]``.

        Entry ``[c][e]`` (``1 <= c <= attacker_max_dice``, ``1 <= e <=
        defender_max_dice``; row and column 0 are empty) holds the cumulative
        probabilities of ``roll_table(c, e)`` and the ``(attacker, defender)``
        losses of each outcome, in the same order.
        """
        return _roll_tables(self.rules.combat)

    def blitz_table(self, attackers: int, defenders: int, stop_at: int) -> ChanceTable:
        """The outcomes of a blitz: ``(BattleOutcome, float)`` pairs, the distribution of :func:`riskmath.battle`.

        Remembered up to ``TABLE_ATTACKERS`` attackers and ``TABLE_DEFENDERS`` defenders (the tables play draws
        from, 8,192 of them: about 45 MB when full); a bigger one is built for its call (a blitz of 12,000 against
        12,000 has a table of 2.6 MB).
        """
        combat = self.rules.combat
        if attackers <= TABLE_ATTACKERS and defenders <= TABLE_DEFENDERS:
            return _kept_blitz_table(combat, attackers, defenders, stop_at)
        return _blitz_table(combat, attackers, defenders, stop_at)

    def to_dict(self) -> dict[str, Any]:
        """The game's description, for :meth:`GameState.to_json`."""
        return {
            "players": self.players,
            "rules": self.rules.to_dict(),
            "board": self.board.to_dict(),
            "defender_decides": self.defender_decides,
            "max_turns": self.max_turns,
        }


@functools.lru_cache(maxsize=1024)
def _roll_table(combat: CombatRules, attacker_dice: int, defender_dice: int) -> ChanceTable:
    odds = combat.roll_odds(attacker_dice, defender_dice)
    return ChanceTable(tuple((RollOutcome(a, d), p) for (a, d), p in odds.items()))


@functools.lru_cache(maxsize=64)
def _roll_tables(combat: CombatRules) -> tuple[tuple[tuple[tuple[float, ...], tuple[tuple[int, int], ...]], ...], ...]:
    rows = []
    for c in range(combat.attacker_max_dice + 1):
        row: list[tuple[tuple[float, ...], tuple[tuple[int, int], ...]]] = []
        for e in range(combat.defender_max_dice + 1):
            if c == 0 or e == 0:
                row.append(((), ()))
                continue
            table = _roll_table(combat, c, e)
            losses = tuple((o.attacker_losses, o.defender_losses) for o, _ in table.outcomes)
            row.append((tuple(table.cumulative), losses))
        rows.append(tuple(row))
    return tuple(rows)


def _blitz_table(combat: CombatRules, attackers: int, defenders: int, stop_at: int) -> ChanceTable:
    win, stop, _ = forward_float(attackers, defenders, stop_at, kernel(combat))
    # The outcomes in order of (attackers left, defenders left); a stop before a win on the same pair.
    rows, columns = np.nonzero(stop > 0)
    (wins,) = np.nonzero(win > 0)
    keyed = sorted(
        [
            *zip(rows.tolist(), columns.tolist(), [0] * len(rows), stop[rows, columns].tolist(), strict=True),
            *zip(wins.tolist(), [0] * len(wins), [1] * len(wins), win[wins].tolist(), strict=True),
        ]
    )
    return ChanceTable(tuple((BattleOutcome(a, d), p) for a, d, _, p in keyed))


_kept_blitz_table = functools.lru_cache(maxsize=8192)(_blitz_table)
