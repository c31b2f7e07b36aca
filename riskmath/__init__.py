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

import riskmath.plots.notebook  # noqa: F401 (registers the notebook HTML renderers)
from riskmath._version import __version__
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
from riskmath.game import (
    Attack,
    BattleOutcome,
    Blitz,
    Board,
    Card,
    ChooseCapital,
    ChoosePile,
    Defend,
    DrawCard,
    EndPhase,
    FirstPlayer,
    Fortify,
    Game,
    GameState,
    Occupy,
    Phase,
    PlaceArmies,
    RollOutcome,
    Rules,
    SetValues,
    Symbol,
    TradeCards,
)
from riskmath.odds import (
    OBJECTIVES,
    STATISTICS,
    Battle,
    BattleChain,
    CombatRules,
    CombinedAttack,
    Conquest,
    PlanResult,
    Policy,
    RollOdds,
    Target,
    armies_needed,
    battle,
    battle_chain,
    battle_statistics,
    combined_attack,
    conquest,
    defence_allocations,
    format_table,
    odds_table,
    optimal_policy,
    plan_conquest,
    roll_odds,
    solve_matrix_game,
    success_curve,
)
from riskmath.sim import GameRecord, play, simulate

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
