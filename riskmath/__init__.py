"""riskmath: the mathematics of the board game RISK, exact and fast.

Convention: ``attackers`` counts the armies *able to attack*; the attacking
territory holds ``attackers + 1`` (one army must stay behind).  Under the
classic 1993 rules the attacker throws ``min(3, attackers)`` dice, the
defender ``min(2, defenders)``, and ties go to the defender.

>>> import riskmath as rm
>>> rm.roll_odds(3, 2)[(0, 2)]
Fraction(1445, 3888)
>>> round(rm.battle(5, 3).win_probability, 4)
0.7694
"""

from fractions import Fraction

import riskmath.display  # noqa: F401 (registers the notebook HTML renderers)
from riskmath._version import __version__
from riskmath.actions import (
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
from riskmath.battle import STATISTICS, Battle, battle, battle_statistics
from riskmath.board import Board
from riskmath.cards import Card, SetValues, Symbol
from riskmath.conquest import Conquest, conquest
from riskmath.dice import CombatRules, RollOdds, roll_odds
from riskmath.errors import (
    BoardError,
    CardError,
    IllegalActionError,
    InvalidArgumentError,
    RiskmathError,
    RulesError,
    StateError,
    UndefinedStatisticError,
)
from riskmath.game import Game
from riskmath.matrix import BattleChain, battle_chain
from riskmath.planning import CombinedAttack, armies_needed, combined_attack, defence_allocations, success_curve
from riskmath.plans import PlanResult, Target, plan_conquest
from riskmath.policy import OBJECTIVES, Policy, optimal_policy, solve_matrix_game
from riskmath.rules import Rules
from riskmath.simulate import GameRecord, play, simulate
from riskmath.state import GameState, Phase
from riskmath.tables import format_table, odds_table

__all__ = [
    "OBJECTIVES",
    "STATISTICS",
    "Attack",
    "Battle",
    "BattleChain",
    "BattleOutcome",
    "Blitz",
    "Board",
    "BoardError",
    "Card",
    "CardError",
    "ChooseCapital",
    "ChoosePile",
    "CombatRules",
    "CombinedAttack",
    "Conquest",
    "Defend",
    "DrawCard",
    "EndPhase",
    "FirstPlayer",
    "Fortify",
    "Fraction",
    "Game",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "InvalidArgumentError",
    "Occupy",
    "Phase",
    "PlaceArmies",
    "PlanResult",
    "Policy",
    "RiskmathError",
    "RollOdds",
    "RollOutcome",
    "Rules",
    "RulesError",
    "SetValues",
    "StateError",
    "Symbol",
    "Target",
    "TradeCards",
    "UndefinedStatisticError",
    "__version__",
    "armies_needed",
    "battle",
    "battle_chain",
    "battle_statistics",
    "combined_attack",
    "conquest",
    "defence_allocations",
    "format_table",
    "odds_table",
    "optimal_policy",
    "plan_conquest",
    "play",
    "roll_odds",
    "simulate",
    "solve_matrix_game",
    "success_curve",
]
