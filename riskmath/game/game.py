"""A game of RISK: players, rules and board, and the chance tables they imply.

:class:`Game` is the immutable description of a game (how many players, which
rules, which board, whether defenders choose their dice).  It makes initial
states (:meth:`Game.new_initial_state`) and holds what every state of the game
shares: the board's adjacency as id tuples, the card deck, and cached chance
tables for rolls and blitz battles.
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from riskmath._validation import check_int
from riskmath.errors import InvalidArgumentError, RulesError
from riskmath.game.actions import BattleOutcome, RollOutcome
from riskmath.game.board import Board
from riskmath.game.cards import CARD_SYMBOLS, Card, Symbol
from riskmath.game.rules import Rules
from riskmath.odds._sweeps import forward_float, kernel

if TYPE_CHECKING:
    from riskmath.game.state import GameState

__all__ = ["NEUTRAL_NAMES", "WILD", "Game"]

#: Name of a wild card in hands, decks and trades.
WILD = "wild"

#: Labels of the neutral owners (the two-player variants).
NEUTRAL_NAMES = ("neutral", "neutral 2", "neutral 3", "neutral 4")


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


class Game:
    """The description of a game; states come from :meth:`new_initial_state`.

    Parameters
    ----------
    players : int
        2 to 6.
    rules : Rules, optional
        The 1993 US rules by default; see :meth:`riskmath.Rules.preset`.
    board : Board, optional
        By default the board named by ``rules.board``.
    defender_decides : bool, default False
        Whether the defender chooses its dice (a decision node after each
        ``Attack``); otherwise it throws the most it may.
    max_turns : int, optional
        A turn cap (player-turns) ending the game as a draw; overrides
        ``rules.turn_cap``.

    Attributes
    ----------
    players : int
    neutrals : int
        Neutral owners (ids ``players .. players + neutrals - 1``).
    rules : Rules
    board : Board

    Examples
    --------
    >>> game = Game(players=4)
    >>> game
    Game(players=4, rules='us_1993', board='classic')
    >>> state = game.new_initial_state(seed=1)
    >>> state.phase.value, state.is_chance_node()
    ('setup_order', True)
    """

    def __init__(
        self,
        players: int = 4,
        rules: Rules | None = None,
        board: Board | None = None,
        *,
        defender_decides: bool = False,
        max_turns: int | None = None,
    ) -> None:
        self.players = check_int("players", players, minimum=2, maximum=6)
        if rules is None:
            rules = Rules()
        if not isinstance(rules, Rules):
            raise InvalidArgumentError(f"rules must be a Rules, got {rules!r}")
        self.rules = rules
        if board is None:
            board = Board.load(rules.board)
        if not isinstance(board, Board):
            raise InvalidArgumentError(f"board must be a Board, got {board!r}")
        self.board = board
        if not isinstance(defender_decides, bool):
            raise InvalidArgumentError(f"defender_decides must be True or False, got {defender_decides!r}")
        self.defender_decides = defender_decides
        cap = rules.turn_cap if max_turns is None else check_int("max_turns", max_turns, minimum=1)
        self.max_turns: int | None = cap
        self.two_player = rules.two_player if self.players == 2 else "none"
        self.neutrals = {"neutral_1993": 1, "neutral_article": 1, "neutrals_2003": 4}.get(self.two_player, 0)
        self.owners = self.players + self.neutrals
        rules.starting_armies_for(self.players)
        if rules.missions != "none" and self.players < 3:
            raise RulesError(f"Secret Mission RISK is for 3 to 6 players, not {self.players}")
        n = len(board)
        mapping = CARD_SYMBOLS[rules.card_symbols]
        if set(mapping) >= set(board.territories):
            symbols = dict(mapping)
        else:  # a custom board: symbols in turn, infantry, cavalry, artillery, in territory order
            cycle = (Symbol.INFANTRY, Symbol.CAVALRY, Symbol.ARTILLERY)
            symbols = {t: cycle[i % 3] for i, t in enumerate(board.territories)}
        self.cards: dict[str, Card] = {t: Card(t, symbols[t]) for t in board.territories}
        self.cards[WILD] = Card(None, Symbol.WILD)
        self.territory_cards: tuple[str, ...] = tuple(board.territories)
        self.full_deck: tuple[str, ...] = self.territory_cards + (WILD,) * rules.wild_cards
        self.neighbors: tuple[tuple[int, ...], ...] = tuple(board.neighbor_ids(i) for i in range(n))
        self.continents: tuple[tuple[int, frozenset[int]], ...] = board.continent_ids
        self.index: dict[str, int] = {name: i for i, name in enumerate(board.territories)}
        no_cap = 10**9
        #: Most armies on a territory during play and during the set-up (a large number when uncapped).
        self.cap = rules.max_armies_per_territory or no_cap
        self.setup_cap = min(self.cap, rules.setup_cap_per_territory or no_cap)
        #: Territory ids in the alphabetical order of their names (the built-in agents break ties in this order).
        self.alphabetical: tuple[int, ...] = tuple(sorted(range(n), key=lambda t: board.territories[t]))
        #: Most attacking dice (``rules.combat.attacker_max_dice``).
        self.attacker_dice = rules.combat.attacker_max_dice
        #: Whether a capture must move in at least the dice rolled (else 1).
        self.occupy_dice_rolled = rules.occupy_min == "dice_rolled"
        #: Whether a capture can decide the game at once (Capital RISK, or missions checked immediately).
        self.decided_by_captures = rules.capital != "none" or (
            rules.missions != "none" and rules.mission_check == "immediate"
        )

    def __repr__(self) -> str:
        return f"Game(players={self.players}, rules={self.rules.edition!r}, board={self.board.name!r})"

    def owner_name(self, owner: int) -> str:
        """``"player 0"`` ... or the neutral's label."""
        return f"player {owner}" if owner < self.players else NEUTRAL_NAMES[owner - self.players]

    def new_initial_state(self, seed: int | None = None, *, auto_chance: bool = False) -> GameState:
        """The state before the set-up, with its own random generator.

        Parameters
        ----------
        seed : int, optional
            Seeds the state's generator (used by :meth:`GameState.sample_chance`
            and by ``auto_chance``); the same seed gives the same game in any
            process.
        auto_chance : bool, default False
            Resolve every chance node at once by sampling from the seeded
            generator, so that the state only ever waits for decisions.
        """
        from riskmath.game.state import GameState

        if seed is not None:
            seed = check_int("seed", seed, minimum=-(1 << 63))
        if not isinstance(auto_chance, bool):
            raise InvalidArgumentError(f"auto_chance must be True or False, got {auto_chance!r}")
        return GameState.initial(self, seed=seed, auto_chance=auto_chance)

    def replay(self, actions: Iterable[Any], seed: int | None = None, *, auto_chance: bool = False) -> GameState:
        """The state reached by applying ``actions`` to a new game.

        With ``auto_chance=True`` the record holds only decisions and the seed
        decides every roll and draw; otherwise the chance outcomes must be in
        ``actions`` too.  Every action is checked.

        Raises
        ------
        IllegalActionError
            At the first action that is not legal, naming its position.
        """
        from riskmath.errors import IllegalActionError

        state = self.new_initial_state(seed, auto_chance=auto_chance)
        for position, action in enumerate(actions):
            try:
                state = state.apply(action)
            except IllegalActionError as error:
                raise IllegalActionError(f"action {position} of the record: {error}") from None
        return state

    # -- chance tables, shared by every state --------------------------------
    @functools.cache  # noqa: B019 - a game lives as long as its states
    def roll_table(self, attacker_dice: int, defender_dice: int) -> ChanceTable:
        """The outcomes of one roll: ``(RollOutcome, Fraction)`` pairs and cumulative floats."""
        odds = self.rules.combat.roll_odds(attacker_dice, defender_dice)
        return ChanceTable(tuple((RollOutcome(a, d), p) for (a, d), p in odds.items()))

    @functools.cache  # noqa: B019
    def roll_tables(self) -> tuple[tuple[tuple[tuple[float, ...], tuple[tuple[int, int], ...]], ...], ...]:
        """Every roll's table as plain numbers, for rolling battles out: ``[dice][defender dice]``.

        Entry ``[c][e]`` (``1 <= c <= attacker_max_dice``, ``1 <= e <=
        defender_max_dice``; row and column 0 are empty) holds the cumulative
        probabilities of ``roll_table(c, e)`` and the ``(attacker, defender)``
        losses of each outcome, in the same order.
        """
        combat = self.rules.combat
        rows = []
        for c in range(combat.attacker_max_dice + 1):
            row: list[tuple[tuple[float, ...], tuple[tuple[int, int], ...]]] = []
            for e in range(combat.defender_max_dice + 1):
                if c == 0 or e == 0:
                    row.append(((), ()))
                    continue
                table = self.roll_table(c, e)
                losses = tuple((o.attacker_losses, o.defender_losses) for o, _ in table.outcomes)
                row.append((tuple(table.cumulative), losses))
            rows.append(tuple(row))
        return tuple(rows)

    @functools.lru_cache(maxsize=8192)  # noqa: B019
    def blitz_table(self, attackers: int, defenders: int, stop_at: int) -> ChanceTable:
        """The outcomes of a blitz: ``(BattleOutcome, float)`` pairs, the distribution of :func:`riskmath.battle`."""
        win, stop, _ = forward_float(attackers, defenders, stop_at, kernel(self.rules.combat))
        pairs = [(BattleOutcome(a, d), float(p)) for a, row in enumerate(stop) for d, p in enumerate(row) if p > 0]
        pairs += [(BattleOutcome(a, 0), float(p)) for a, p in enumerate(win) if p > 0]
        return ChanceTable(tuple(sorted(pairs, key=lambda pair: (pair[0].attackers_left, pair[0].defenders_left))))

    def to_dict(self) -> dict[str, Any]:
        """The game's description, for :meth:`GameState.to_json`."""
        return {
            "players": self.players,
            "rules": self.rules.to_dict(),
            "board": self.board.to_dict(),
            "defender_decides": self.defender_decides,
            "max_turns": self.max_turns,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Inverse of :meth:`to_dict`."""
        return cls(
            data["players"],
            Rules.from_dict(data["rules"]),
            Board.from_dict(data["board"]),
            defender_decides=data["defender_decides"],
            max_turns=data["max_turns"],
        )
