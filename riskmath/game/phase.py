"""Where a game is: the :class:`Phase` enumeration and the player ids of chance and the end (a leaf module).

Phases, in the order a game meets them: ``SETUP_ORDER`` (chance: who
starts), ``SETUP_DEAL`` (chance: deal territory cards), ``SETUP_PILE`` (1993
two-player rules: choose a pile), ``SETUP_CLAIM``, ``SETUP_PLACE`` (decisions,
or chance in a random set-up), ``SETUP_CAPITAL`` / ``SETUP_MISSION`` (Capital
and Secret Mission RISK), then each turn ``REINFORCE`` (trade sets, place
armies), ``ATTACK`` (with ``DEFEND`` when defenders choose dice, ``ROLL`` /
``BLITZ`` chance nodes, ``OCCUPY`` after a capture and ``TRADE_DOWN`` after an
elimination), ``FORTIFY`` and ``DRAW`` (chance: the card for a capture);
``GAME_OVER``.
"""

from __future__ import annotations

import enum

__all__ = ["CHANCE", "CHANCE_PHASES", "TERMINAL", "Phase"]

#: ``current_player`` at a chance node and at the end of the game.
CHANCE = -1
TERMINAL = -4


class Phase(enum.Enum):
    """Where a game is; see the module docstring.

    Examples
    --------
    >>> Phase("attack"), Phase.ATTACK.value
    (<Phase.ATTACK: 'attack'>, 'attack')
    """

    SETUP_ORDER = "setup_order"
    SETUP_DEAL = "setup_deal"
    SETUP_PILE = "setup_pile"
    SETUP_CLAIM = "setup_claim"
    SETUP_PLACE = "setup_place"
    SETUP_CAPITAL = "setup_capital"
    SETUP_MISSION = "setup_mission"
    REINFORCE = "reinforce"
    ATTACK = "attack"
    DEFEND = "defend"
    ROLL = "roll"
    BLITZ = "blitz"
    OCCUPY = "occupy"
    TRADE_DOWN = "trade_down"
    FORTIFY = "fortify"
    DRAW = "draw"
    GAME_OVER = "game_over"


# A tuple, not a set: ``in`` compares identities, whereas hashing an enum member runs Python code.
CHANCE_PHASES = (Phase.BLITZ, Phase.DRAW, Phase.ROLL, Phase.SETUP_DEAL, Phase.SETUP_ORDER, Phase.SETUP_MISSION)

# The members as module constants, for the engine's hot paths (``from riskmath.game.phase import ATTACK``): in
# Python 3.11 looking a member up on the enum class runs Python code, a module global is one load.
ATTACK = Phase.ATTACK
BLITZ = Phase.BLITZ
DEFEND = Phase.DEFEND
DRAW = Phase.DRAW
FORTIFY = Phase.FORTIFY
GAME_OVER = Phase.GAME_OVER
OCCUPY = Phase.OCCUPY
REINFORCE = Phase.REINFORCE
ROLL = Phase.ROLL
SETUP_CAPITAL = Phase.SETUP_CAPITAL
SETUP_CLAIM = Phase.SETUP_CLAIM
SETUP_DEAL = Phase.SETUP_DEAL
SETUP_MISSION = Phase.SETUP_MISSION
SETUP_ORDER = Phase.SETUP_ORDER
SETUP_PILE = Phase.SETUP_PILE
SETUP_PLACE = Phase.SETUP_PLACE
TRADE_DOWN = Phase.TRADE_DOWN
