"""The rules model: the board, cards, rules and editions, and games with their states, actions and chance nodes.

Inside, from the bottom up: :mod:`~riskmath.game.phase` (a leaf),
:mod:`~riskmath.game.board`, :mod:`~riskmath.game.cards`,
:mod:`~riskmath.game.rules`, :mod:`~riskmath.game.actions`,
:mod:`~riskmath.game.setup` (the set-up's facts),
:mod:`~riskmath.game.context` (what the engine reads of a game),
:mod:`~riskmath.game.position` (:class:`~riskmath.game.position.Position`,
the typed record of everything that changes in a game); then the engine,
functions of ``(game, position)``: :mod:`~riskmath.game.checked` (public
actions to the engine's form and back), :mod:`~riskmath.game.missions`,
:mod:`~riskmath.game.chance` (the generator, sampling chance nodes),
:mod:`~riskmath.game.legality` (what may be done),
:mod:`~riskmath.game.transitions` (what an action does),
:mod:`~riskmath.game.serialize` (JSON) with
:mod:`~riskmath.game.invariants` (what every position must satisfy); and on top
:mod:`~riskmath.game.game` (:class:`Game`, a board and rules with the cached
chance tables, and :class:`GameState`, the immutable public face of a
position; :mod:`~riskmath.game.state` is its documented import path).
See the architecture page of the documentation for how an action flows.
"""

from riskmath.game.actions import (
    Attack,
    BattleOutcome,
    Blitz,
    ChooseCapital,
    ChoosePile,
    Defend,
    DrawCard,
    EndPhase,
    FirstPlayer,
    Fortify,
    Occupy,
    PlaceArmies,
    RollOutcome,
    TradeCards,
)
from riskmath.game.board import Board
from riskmath.game.cards import Card, SetValues, Symbol
from riskmath.game.game import Game
from riskmath.game.phase import CHANCE, TERMINAL, Phase
from riskmath.game.rules import Rules
from riskmath.game.state import GameState

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Attack",
    "BattleOutcome",
    "Blitz",
    "Board",
    "Card",
    "ChooseCapital",
    "ChoosePile",
    "Defend",
    "DrawCard",
    "EndPhase",
    "FirstPlayer",
    "Fortify",
    "Game",
    "GameState",
    "Occupy",
    "Phase",
    "PlaceArmies",
    "RollOutcome",
    "Rules",
    "SetValues",
    "Symbol",
    "TradeCards",
]
