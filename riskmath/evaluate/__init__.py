"""Position evaluation from the exact battle odds: pure functions of a :class:`GameState`.

Each function says what it assumes.  In common: both sides throw their
maximum dice (which the theory page shows is optimal for capturing), a stack
attacks with every army but the one that must stay, and nothing else moves in
between.  Neutral owners (two-player games) never attack.

The odds are exact (those of :func:`riskmath.battle` and
:func:`riskmath.conquest`, read from cached grids) up to 2,048 armies a
side.  A battle or a chain with more on both sides is estimated from the
same battle scaled down to 2,048 in proportion, in bounded memory and time:
a guide, not exact odds (3,000 attackers against 3,300 read 0.956 where
``battle`` gives 0.985).  A stack far larger than the other side is read at
``4 x + 40`` against ``x``, where failing has a chance below 1e-12, so that
answer is exact to 1e-12.  For exact odds of big battles, ask
:func:`riskmath.battle` or :func:`riskmath.conquest` directly.

:func:`threats` and :func:`reinforcement_outlook` describe the board as it
stands; :func:`continent_outlook` looks one turn ahead for one player along
routes found on the board; :func:`position_value` sums documented terms into
one number per player, which the odds-driven and search agents use.
:func:`estimate_victory_probabilities` turns features of the same kind into
each player's chance of victory, with weights fitted to self-play.

Words: a *win* is a battle's (the defender wiped out; also a whole chain,
as in :func:`chain_win_probability`), a *victory* the game's.  The old
names ``chain_success``, ``estimate_win_probabilities`` and
``win_chances_over`` still work, with a ``DeprecationWarning`` naming the new one.
"""

from riskmath.evaluate.estimate import (
    calibration_table,
    estimate_victory_probabilities,
    estimate_win_probabilities,
    victory_chances_over,
    win_chances_over,
)
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
from riskmath.evaluate.whatif import WhatIf

__all__ = [
    "VALUE_WEIGHTS",
    "ContinentPlan",
    "WhatIf",
    "calibration_table",
    "chain_success",
    "chain_win_probability",
    "continent_outlook",
    "estimate_victory_probabilities",
    "estimate_win_probabilities",
    "hold_probability",
    "plan_continent",
    "position_value",
    "reinforcement_outlook",
    "threats",
    "victory_chances_over",
    "win_chances_over",
    "win_probability",
]
