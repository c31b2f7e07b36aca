"""Integer ids for the chance outcomes of a game of RISK: the chance half of :class:`~riskmath.envs.codec.ActionCodec`.

:class:`ChanceIds` numbers the outcomes of every chance node of a game with
ids ``0 .. num_chance_outcomes - 1`` (:attr:`ChanceIds.chance_layout`): who
starts, the card drawn (a territory card or ``"wild"``), a mission card, a
random set-up's army, a roll's losses (attacker, defender), and a blitz's
end ``(attackers left, defenders left)`` for blitzes of at most
:data:`BATTLE_ATTACKERS` armies able to attack and :data:`BATTLE_DEFENDERS`
defenders.  A bigger blitz is resolved in bounded pieces: a
:class:`BattleChance` node whose outcomes are the pieces the rules model
lists (:func:`riskmath.game.chance.blitz_piece`: the attacker's losses in
:data:`BLOCK_ROLLS` rolls of the most dice while both sides stay clear of
fewer dice and of ``stop_at``, else single rolls), until both sides are
within the bounds; then one outcome from the whole-battle table ends it.
The pieces compose to exactly the battle's distribution, and no node ever
has more than ``num_chance_outcomes`` outcomes.

:class:`~riskmath.envs.codec.ActionCodec` is a ``ChanceIds`` that numbers the
decisions too; the decision ids live in :mod:`riskmath.envs.codec`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np

from riskmath._validation import shown
from riskmath.errors import IllegalActionError, InvalidArgumentError
from riskmath.game import Game, GameState
from riskmath.game.actions import BattleOutcome, DrawCard, FirstPlayer, PlaceArmies, RollOutcome
from riskmath.game.cards import WILD
from riskmath.game.chance import ROLL_BLOCK, blitz_piece, block_weights, is_chance
from riskmath.game.context import TABLE_ATTACKERS, TABLE_DEFENDERS
from riskmath.game.missions import missions_for
from riskmath.game.phase import Phase
from riskmath.odds.dice import CombatRules

__all__ = ["BATTLE_ATTACKERS", "BATTLE_DEFENDERS", "BLOCK_ROLLS", "BattleChance", "ChanceIds", "id_blocks"]

#: The largest blitz (armies able to attack, defenders) whose end is one chance outcome; bigger ones go in pieces.
#: The rules model's own table bounds (``riskmath.game.context.TABLE_ATTACKERS``, ``TABLE_DEFENDERS``).
BATTLE_ATTACKERS = TABLE_ATTACKERS
BATTLE_DEFENDERS = TABLE_DEFENDERS
#: Rolls taken as one piece of a big blitz while both sides are far from the edges.
BLOCK_ROLLS = ROLL_BLOCK


@dataclass(frozen=True, slots=True)
class BattleChance:
    """A chance node inside a big blitz: the battle so far, resolved roll by roll (see the module docstring).

    Attributes
    ----------
    state : GameState
        The ``BLITZ`` chance node the battle belongs to (unchanged by the pieces).
    attackers, defenders : int
        The armies able to attack and the defenders left so far.
    stop_at : int
        The blitz's ``stop_at``: it ends once ``attackers <= stop_at``.
    """

    state: GameState
    attackers: int
    defenders: int
    stop_at: int = 0

    @property
    def current_player(self) -> int:
        """Chance (-1): the state's player id at its ``BLITZ`` node."""
        return self.state.current_player


class ChanceIds:
    """Integer ids for the chance outcomes of ``game`` (see the module docstring).

    Parameters
    ----------
    game : Game

    Attributes
    ----------
    num_chance_outcomes : int
        The number of chance-outcome ids; no chance node has more outcomes.
    chance_layout : mapping of str to slice
        The blocks of ids, by name.
    """

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise InvalidArgumentError(f"game must be a riskmath Game, got {shown(game)}")
        self.game = game
        board, rules, n = game.board, game.rules, len(game.board)
        self._dice = rules.combat.attacker_max_dice
        self._defend = rules.combat.defender_max_dice
        self._block = _block_losses(rules.combat)  # the attacker's losses in BLOCK_ROLLS rolls of the most dice
        self._block_span = len(self._block) - 1
        self._missions = missions_for(rules.missions, game.players) if rules.missions != "none" else ()
        self._cards = (*board.territories, WILD)
        self._card = {card: k for k, card in enumerate(self._cards)}
        self._mission = {m: k for k, m in enumerate(self._missions)}
        chance = [
            ("first_player", game.players),
            ("card", len(self._cards)),
            ("mission", len(self._missions)),
            ("setup_place", n),
            ("roll", (self._dice + 1) * (self._defend + 1)),
            ("rolls", self._block_span + 1),
            ("battle", (BATTLE_ATTACKERS + 1) * (BATTLE_DEFENDERS + 1)),
        ]
        self.chance_layout: Mapping[str, slice] = id_blocks(chance)
        self.num_chance_outcomes = sum(size for _, size in chance)
        self._games: dict[int, Game] = {id(game): game}
        # The last chance node's outcomes (nodes are immutable): a player of the OpenSpiel game asks for them
        # and then applies one, which decode_outcome checks against the same list.
        self._outcomes: tuple[object, list[tuple[int, float]]] = (None, [])
        # The outcome ids of the battles already seen: a roll's depend only on the dice, a blitz's (or a piece
        # of a big one) only on the armies and stop_at, so one list serves every node with the same key.
        self._battles: dict[tuple[int, ...], list[tuple[int, float]]] = {}

    # -- checks ---------------------------------------------------------------------------------
    #: The nodes inside a state that carry it as ``node.state`` (the codec adds its count choices).
    _inner: tuple[type, ...] = (BattleChance,)
    _expected = "a GameState"

    def _state(self, node: object) -> GameState:
        """The state of ``node`` (a state, or a node inside one), checked to belong to this game."""
        state = getattr(node, "state", None) if isinstance(node, self._inner) else node
        if not isinstance(state, GameState):
            raise InvalidArgumentError(f"expected {self._expected}, got {shown(node)}")
        game = state.game
        if game is not self.game and self._games.get(id(game)) is not game:
            if game.to_dict() != self.game.to_dict():
                raise InvalidArgumentError(f"the state belongs to {game!r}, not to this codec's {self.game!r}")
            if len(self._games) > 16:
                self._games = {id(self.game): self.game}
            self._games[id(game)] = game
        return state

    def _index(self, index: object, size: int, what: str) -> int:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise InvalidArgumentError(f"{what} must be an integer, got {shown(index)}")
        if not 0 <= index < size:
            raise InvalidArgumentError(f"{what} must be in 0..{size - 1}, got {shown(index)}")
        return int(index)

    # -- chance outcomes ---------------------------------------------------------------------------
    def chance_outcomes(self, node: GameState | BattleChance) -> list[tuple[int, float]]:
        """``[(outcome id, probability), ...]`` at a chance node (a state or a :class:`BattleChance`).

        At most ``num_chance_outcomes`` pairs; empty at decision and terminal nodes.

        Examples
        --------
        >>> import riskmath as rm
        >>> game = rm.Game(3)
        >>> ids = ChanceIds(game)
        >>> ids.chance_outcomes(game.new_initial_state(seed=0))
        [(0, 0.3333333333333333), (1, 0.3333333333333333), (2, 0.3333333333333333)]
        """
        return list(self._kept_outcomes(node))  # the caller's own list

    def _kept_outcomes(self, node: GameState | BattleChance) -> list[tuple[int, float]]:
        """The outcomes of :meth:`chance_outcomes`, the codec's own list (kept for the last node: read, never
        change)."""
        last, pairs = self._outcomes
        if last is not node:
            pairs = self._chance_outcomes(node)
            self._outcomes = (node, pairs)
        return pairs

    def _chance_outcomes(self, node: GameState | BattleChance) -> list[tuple[int, float]]:
        state = self._state(node)
        if isinstance(node, BattleChance):
            return self._battle_outcomes(node)
        pos = state.position
        if not is_chance(state.game, pos):
            return []
        pending = pos.pending
        if pos.phase is Phase.BLITZ:
            piece = self._battle_start(state)
            if piece is not None:
                return self._battle_outcomes(piece)
            assert pending is not None
            armies = pos.armies
            key = (0, armies[pending.source] - 1, armies[pending.target], pending.dice_or_stop_at)
            return self._battle(key, lambda: self._listed_outcomes(state))
        if pos.phase is Phase.ROLL:
            assert pending is not None
            return self._battle(
                (1, pending.dice_or_stop_at, pending.defense or 0), lambda: self._listed_outcomes(state)
            )
        if pos.phase is Phase.DRAW or pos.phase is Phase.SETUP_DEAL:
            return self._draw_outcomes(pos.deck)
        return self._listed_outcomes(state)

    def _draw_outcomes(self, deck: list[str]) -> list[tuple[int, float]]:
        """The ids of a card draw from ``deck``, as :meth:`_listed_outcomes` gives them, without the rules model's
        outcome objects and fractions (a draw lists 40-odd outcomes: about 10 times as fast): each distinct
        card once, in the order of its first place in the deck, with ``count / len(deck)`` (int / int is
        correctly rounded, as ``float(Fraction(count, len(deck)))`` is)."""
        counts: dict[str, int] = {}
        for card in deck:
            counts[card] = counts.get(card, 0) + 1
        total, base, ids = len(deck), self.chance_layout["card"].start, self._card
        return [(base + ids[card], k / total) for card, k in counts.items()]

    def _battle(self, key: tuple[int, ...], outcomes: Callable[[], list[tuple[int, float]]]) -> list[tuple[int, float]]:
        """The outcome ids of a battle by its key, from the cache or ``outcomes()`` (kept: the caller copies)."""
        cached = self._battles.get(key)
        if cached is None:
            if len(self._battles) >= 4096:  # big armies make many keys: the cache stays small
                self._battles.clear()
            cached = self._battles[key] = outcomes()
        return cached

    def _listed_outcomes(self, state: GameState) -> list[tuple[int, float]]:
        """The ids of the outcomes the rules model lists at chance node ``state``, in its order."""
        layout, pairs = self.chance_layout, []
        for outcome, p in state.chance_outcomes():
            found = self._outcome_id(state, outcome)
            assert found is not None, outcome  # every outcome of a node within the bounds has an id
            pairs.append((layout[found[0]].start + found[1], float(p)))
        return pairs

    def _battle_start(self, state: GameState) -> BattleChance | None:
        """The first piece of a blitz too big for one outcome; None for one within the bounds."""
        pos = state.position
        assert pos.pending is not None
        a, d = pos.armies[pos.pending.source] - 1, pos.armies[pos.pending.target]
        if a <= BATTLE_ATTACKERS and d <= BATTLE_DEFENDERS:
            return None
        stop_at = pos.pending.stop_at
        assert stop_at is not None  # a BLITZ node
        return BattleChance(state, a, d, stop_at)

    def _battle_outcomes(self, piece: BattleChance) -> list[tuple[int, float]]:
        """The ids of the next piece of a blitz (the rules model's :func:`~riskmath.game.chance.blitz_piece`)."""
        key = (2, piece.attackers, piece.defenders, piece.stop_at)
        return self._battle(key, lambda: self._piece_outcomes(piece))

    def _piece_outcomes(self, piece: BattleChance) -> list[tuple[int, float]]:
        kind, outcomes = blitz_piece(self.game, piece.attackers, piece.defenders, piece.stop_at)
        base = self.chance_layout[kind].start
        if kind == "battle":
            width = BATTLE_DEFENDERS + 1
            return [(base + o.attackers_left * width + o.defenders_left, p) for o, p in outcomes]
        if kind == "rolls":  # far from both edges: BLOCK_ROLLS rolls at once, both sides keeping their most dice
            return [(base + lost, p) for lost, p in outcomes if p > 0]
        width = self._defend + 1
        return [(base + o.attacker_losses * width + o.defender_losses, p) for o, p in outcomes]

    def encode_outcome(self, state: GameState, outcome: Any) -> int:
        """The id of a chance outcome at ``state`` (not of a big blitz's end: that goes in pieces).

        Raises
        ------
        IllegalActionError
            If ``outcome`` is not an outcome this codec numbers at ``state``.
        """
        state = self._state(state)
        found = self._outcome_id(state, outcome)
        if found is None:
            raise IllegalActionError(f"{outcome!r} has no outcome id at {state!r}")
        start: int = self.chance_layout[found[0]].start
        index = start + found[1]
        if all(index != possible for possible, _ in self.chance_outcomes(state)):
            raise IllegalActionError(f"{outcome!r} is not a possible outcome at {state!r}")
        return index

    def _outcome_id(self, state: GameState, outcome: Any) -> tuple[str, int] | None:
        """The block and place of an outcome's id at ``state``, or None."""
        pos = state.position
        phase = pos.phase
        if isinstance(outcome, FirstPlayer) and phase is Phase.SETUP_ORDER:
            player: int = outcome.player
            return ("first_player", player) if 0 <= player < self.game.players else None
        if isinstance(outcome, DrawCard) and phase is Phase.SETUP_MISSION:
            mission = self._mission.get(outcome.card)
            return None if mission is None else ("mission", mission)
        if isinstance(outcome, DrawCard):
            card = self._card.get(outcome.card)
            return None if card is None else ("card", card)
        if isinstance(outcome, PlaceArmies) and phase is Phase.SETUP_PLACE:
            territory = self.game.index.get(outcome.territory)  # type: ignore[arg-type]
            return None if territory is None else ("setup_place", territory)
        if isinstance(outcome, RollOutcome):
            lost_a: int = outcome.attacker_losses
            lost_d: int = outcome.defender_losses
            if 0 <= lost_a <= self._dice and 0 <= lost_d <= self._defend:
                return ("roll", lost_a * (self._defend + 1) + lost_d)
            return None
        if isinstance(outcome, BattleOutcome) and phase is Phase.BLITZ and self._battle_start(state) is None:
            left_a: int = outcome.attackers_left
            left_d: int = outcome.defenders_left
            if 0 <= left_a <= BATTLE_ATTACKERS and 0 <= left_d <= BATTLE_DEFENDERS:
                return ("battle", left_a * (BATTLE_DEFENDERS + 1) + left_d)
        return None

    def decode_outcome(self, node: GameState | BattleChance, index: int) -> Any:
        """The outcome of id ``index`` at a chance node: an outcome to apply, or the next :class:`BattleChance`.

        Raises
        ------
        InvalidArgumentError
            If ``index`` is not an outcome id of this codec.
        IllegalActionError
            If ``index`` is not an outcome of ``node``.
        """
        state = self._state(node)
        index = self._index(index, self.num_chance_outcomes, "outcome index")
        if all(index != outcome for outcome, _ in self._kept_outcomes(node)):
            raise IllegalActionError(f"outcome id {index} is not an outcome of {node!r}")
        name, k = next((name, index - b.start) for name, b in self.chance_layout.items() if b.start <= index < b.stop)
        if name == "first_player":
            return FirstPlayer(k)
        if name == "card":
            return DrawCard(self._cards[k])
        if name == "mission":
            return DrawCard(self._missions[k])
        if name == "setup_place":
            return PlaceArmies(self.game.board.territories[k], 1)
        if name == "battle":
            return BattleOutcome(*divmod(k, BATTLE_DEFENDERS + 1))
        lost_a, lost_d = (k, self._block_span - k) if name == "rolls" else divmod(k, self._defend + 1)
        if isinstance(node, GameState) and node.position.phase is Phase.BLITZ:
            node = self._battle_start(state) or node  # a big blitz: this roll is its first piece
        if not isinstance(node, BattleChance):
            return RollOutcome(lost_a, lost_d)
        a, d = node.attackers - lost_a, node.defenders - lost_d
        if a <= node.stop_at or d == 0:
            return BattleOutcome(a, d)
        return BattleChance(state, a, d, node.stop_at)


def _block_losses(combat: CombatRules) -> tuple[float, ...]:
    """The probability of each number of attacker losses, ``0 .. BLOCK_ROLLS * pairs``, in :data:`BLOCK_ROLLS`
    rolls of the most dice on both sides (``pairs`` armies lost a roll): the rules model's exact block
    (:func:`riskmath.game.chance.block_weights`), each probability rounded once to a float."""
    weights, scale = block_weights(combat)
    return tuple(weight / scale for weight in weights)  # int / int: correctly rounded, as float(Fraction) is


def id_blocks(sizes: list[tuple[str, int]]) -> Mapping[str, slice]:
    """Consecutive blocks of ids, one per ``(name, size)``, in order: a read-only mapping of name to slice."""
    blocks, start = {}, 0
    for name, size in sizes:
        blocks[name] = slice(start, start + size)
        start += size
    return MappingProxyType(blocks)
