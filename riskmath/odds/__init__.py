"""The exact odds: one roll, whole battles, chained conquests, plans and policies (no I/O, no game state).

The layers inside, each using only those above it in this list:

* :mod:`~riskmath.odds.dice`: one roll of the dice as an exact table (:func:`roll_odds`, :class:`CombatRules`);
* :mod:`~riskmath.odds._sweeps`: the kernels that sweep a whole battle's absorbing chain forward or backward;
* :mod:`~riskmath.odds.battles`, :mod:`~riskmath.odds.matrix`, :mod:`~riskmath.odds.tables`: whole battles
  (:func:`battle`), the same chain as sparse matrices (:func:`battle_chain`), odds tables for a grid
  (:func:`odds_table`); :mod:`~riskmath.odds._battle_cache`: the process-wide cache of battle results
  that :func:`battle` reads and fills (its public side, ``clear_battle_cache``, stays in ``battles``);
* :mod:`~riskmath.odds.conquests`, :mod:`~riskmath.odds.plans`, :mod:`~riskmath.odds.planning`: one stack
  taking a path (:func:`conquest`) or a tree (:func:`plan_conquest`), and planning queries on them
  (:func:`armies_needed`, :func:`success_curve`);
* :mod:`~riskmath.odds.policy`: optimal dice and stopping policies (:func:`optimal_policy`);
* :mod:`~riskmath.odds._odds_grids`: float odds grids and chain tables kept per combat variant for the many
  small queries of agents and evaluation (re-exported by :mod:`riskmath.evaluate`).
"""

from riskmath.odds.battles import STATISTICS, Battle, battle, battle_statistics
from riskmath.odds.conquests import Conquest, conquest
from riskmath.odds.dice import CombatRules, RollOdds, roll_odds
from riskmath.odds.matrix import BattleChain, battle_chain
from riskmath.odds.planning import (
    CombinedAttack,
    armies_needed,
    combined_attack,
    defence_allocations,
    defense_allocations,
    success_curve,
)
from riskmath.odds.plans import PlanResult, Target, plan_conquest
from riskmath.odds.policy import OBJECTIVES, Policy, optimal_policy, solve_matrix_game
from riskmath.odds.tables import format_table, odds_table

__all__ = [
    "OBJECTIVES",
    "STATISTICS",
    "Battle",
    "BattleChain",
    "CombatRules",
    "CombinedAttack",
    "Conquest",
    "PlanResult",
    "Policy",
    "RollOdds",
    "Target",
    "armies_needed",
    "battle",
    "battle_chain",
    "battle_statistics",
    "combined_attack",
    "conquest",
    "defence_allocations",
    "defense_allocations",
    "format_table",
    "odds_table",
    "optimal_policy",
    "plan_conquest",
    "roll_odds",
    "solve_matrix_game",
    "success_curve",
]
