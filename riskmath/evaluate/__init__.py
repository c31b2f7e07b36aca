"""Position evaluation from the exact battle odds: pure functions of a :class:`GameState`.

Each function says what it assumes.  In common: both sides throw their
maximum dice (which the theory page shows is optimal for capturing), a stack
attacks with every army but the one that must stay, and nothing else moves in
between.  Neutral owners (two-player games) never attack.

:func:`threats` and :func:`reinforcement_outlook` describe the board as it
stands; :func:`continent_outlook` looks one turn ahead for one player along
routes found on the board; :func:`position_value` sums documented terms into
one number per player, which the odds-driven and search agents use.
:func:`estimate_win_probabilities` turns features of the same kind into
each player's chance to win, with weights fitted to self-play.
"""

from riskmath.evaluate.estimate import calibration_table, estimate_win_probabilities, win_chances_over
from riskmath.evaluate.outlook import (
    VALUE_WEIGHTS,
    ContinentPlan,
    chain_success,
    chain_win_probability,
    continent_outlook,
    hold_probability,
    plan_continent,
    position_value,
    reinforcement_outlook,
    threats,
    win_probability,
)

__all__ = [
    "VALUE_WEIGHTS",
    "ContinentPlan",
    "calibration_table",
    "chain_success",
    "chain_win_probability",
    "continent_outlook",
    "estimate_win_probabilities",
    "hold_probability",
    "plan_continent",
    "position_value",
    "reinforcement_outlook",
    "threats",
    "win_chances_over",
    "win_probability",
]
