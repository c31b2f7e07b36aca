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

import fractions
import importlib
import sys
import threading
import types
from collections.abc import Callable
from typing import TYPE_CHECKING

from riskmath import _html
from riskmath._validation import get_limits, set_limits, warn_deprecated
from riskmath._version import __version__
from riskmath.errors import (
    AgentError,
    BoardError,
    CardError,
    IllegalActionError,
    InvalidArgumentError,
    ResourceLimitError,
    RiskmathError,
    RulesError,
    SimulationInterrupted,
    StateError,
    UndefinedStatisticError,
    WorkerError,
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
    defense_allocations,
    format_table,
    odds_table,
    optimal_policy,
    plan_conquest,
    roll_odds,
    solve_matrix_game,
    success_curve,
)

if TYPE_CHECKING:
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
    from riskmath.sim import GameRecord, play, simulate, victory_probabilities
    from riskmath.sim import win_probabilities as win_probabilities  # deprecated: see _DEPRECATED

# The rules model and the simulations (with the agents and evaluations they use) are imported
# on first use of one of their names (PEP 562), so that ``import riskmath`` and ``riskmath odds``
# cost little more than NumPy; the odds above are imported now.
_LAZY = {
    **dict.fromkeys(
        (
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
        ),
        "riskmath.game",
    ),
    **dict.fromkeys(("GameRecord", "play", "simulate", "victory_probabilities"), "riskmath.sim"),
}


def _old_win_probabilities() -> object:
    # The old function without its own warning (it warns when called): looking the name up here has warned.
    return importlib.import_module("riskmath.sim.rollouts").win_probabilities.__wrapped__


#: Names that still work but warn when looked up, each with what gives its value and what to use instead (listed in
#: the changelog; never removed in a minor release).
_DEPRECATED: dict[str, tuple[Callable[[], object], str]] = {
    # The standard library's class, not riskmath's: exact results are plain fractions.Fraction values.
    "Fraction": (lambda: fractions.Fraction, "fractions.Fraction (from fractions import Fraction)"),
    # A game's chance is a victory ("win" is a battle's): the new name's table says victory, victory_low, victory_high.
    "win_probabilities": (_old_win_probabilities, "riskmath.victory_probabilities"),
}
#: Subpackages and modules reachable as attributes of ``riskmath`` without importing them first.
_SUBMODULES = ("agents", "errors", "evaluate", "game", "odds", "plots", "sim", "tournament")


#: Held while a first use imports one of the lazy subpackages, so that threads making their first games at once
#: import them one after the other: entered from two ends at once, the game package's modules (which import one
#: another) gave one thread a half-made module (ImportError) or CPython's _DeadlockError.
_FIRST_IMPORT = threading.RLock()


def _imported(name: str) -> types.ModuleType:
    """The module ``name``, imported by one thread at a time if nobody has begun it (see ``_FIRST_IMPORT``)."""
    module = sys.modules.get(name)
    if module is None:
        with _FIRST_IMPORT:
            return importlib.import_module(name)
    # Begun already, by this thread (a module of the package importing another: the import system hands back
    # the module as it stands) or by another (importlib waits for it, as the import system does).
    return importlib.import_module(name)


def __getattr__(name: str) -> object:
    """The lazily imported names of ``__all__``, and the subpackages (PEP 562)."""
    if name in _LAZY:
        value = getattr(_imported(_LAZY[name]), name)
        globals()[name] = value  # later lookups find it without calling this function
        return value
    if name in _SUBMODULES:
        return _imported(f"{__name__}.{name}")
    if name in _DEPRECATED:
        load, instead = _DEPRECATED[name]
        # ``from riskmath import name`` looks the name up twice: importlib's check for a submodule of that name,
        # then the import itself, in the user's code.  Only the second warns, so that the user sees one warning.
        if sys._getframe(1).f_globals.get("__name__") != "importlib._bootstrap":
            warn_deprecated(f"riskmath.{name}", instead)
        return load()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, *_SUBMODULES})


# The notebook HTML renderers live in the plots layer: imported on the first rich display, not here.
_html.set_loader(lambda: importlib.import_module("riskmath.plots.notebook"))

__all__ = [
    "OBJECTIVES",
    "STATISTICS",
    "AgentError",
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
    "ResourceLimitError",
    "RiskmathError",
    "RollOdds",
    "RollOutcome",
    "Rules",
    "RulesError",
    "SetValues",
    "SimulationInterrupted",
    "StateError",
    "Symbol",
    "Target",
    "TradeCards",
    "UndefinedStatisticError",
    "WorkerError",
    "__version__",
    "armies_needed",
    "battle",
    "battle_chain",
    "battle_statistics",
    "combined_attack",
    "conquest",
    "defence_allocations",
    "defense_allocations",
    "format_table",
    "get_limits",
    "odds_table",
    "optimal_policy",
    "plan_conquest",
    "play",
    "roll_odds",
    "set_limits",
    "simulate",
    "solve_matrix_game",
    "success_curve",
    "victory_probabilities",
]
