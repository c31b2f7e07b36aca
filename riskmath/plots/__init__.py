"""Matplotlib pictures of the numbers riskmath computes, and notebook HTML (no mathematics here).

Every function takes an optional ``ax`` (a new figure's axes by default),
draws on it and returns it; none calls ``plt.show()``.  Matplotlib is only
imported when a function is called.  The pictures live in submodules, all
re-exported here: :mod:`~riskmath.plots.odds` (odds tables, rolls, battles,
conquests, policies), :mod:`~riskmath.plots.planning` (success curves),
:mod:`~riskmath.plots.boardmap` (the board), :mod:`~riskmath.plots.games`
(played games and tournaments), :mod:`~riskmath.plots.evaluation` (win
chances and their calibration); their colors come from
:mod:`~riskmath.plots.style`, and :mod:`~riskmath.plots.notebook` renders
results as HTML in notebooks.
"""

from riskmath.plots.boardmap import board, board_svg, layout
from riskmath.plots.evaluation import calibration, win_chances
from riskmath.plots.games import game_timeline, tournament
from riskmath.plots.odds import battle_outcomes, conquest_reach, odds_heatmap, policy_map, roll_outcomes
from riskmath.plots.planning import success_curves, success_vs_attackers
from riskmath.plots.style import (
    ATTACKER_COLOR,
    ATTACKER_COLOUR,
    DEFENDER_COLOR,
    DEFENDER_COLOUR,
    EVEN_COLOR,
    EVEN_COLOUR,
    OWNER_COLORS,
)

__all__ = [
    "ATTACKER_COLOR",
    "ATTACKER_COLOUR",
    "DEFENDER_COLOR",
    "DEFENDER_COLOUR",
    "EVEN_COLOR",
    "EVEN_COLOUR",
    "OWNER_COLORS",
    "battle_outcomes",
    "board",
    "board_svg",
    "calibration",
    "conquest_reach",
    "game_timeline",
    "layout",
    "odds_heatmap",
    "policy_map",
    "roll_outcomes",
    "success_curves",
    "success_vs_attackers",
    "tournament",
    "win_chances",
]
