"""The state of a game of RISK: :class:`GameState`, with its legal actions and chance nodes.

This is the documented import path of :class:`GameState` and of the names its
protocol uses (:class:`Phase`, :data:`CHANCE`, :data:`TERMINAL`,
:class:`LegalActions`).  The class itself lives in :mod:`riskmath.game.game`
next to :class:`~riskmath.game.game.Game`, because each builds the other; a
state is the immutable public face of a
:class:`~riskmath.game.position.Position` (see those modules).

Phases, in the order a game meets them: ``SETUP_ORDER`` (chance: who
starts), ``SETUP_DEAL`` (chance: deal territory cards), ``SETUP_CLAIM``,
``SETUP_PLACE`` (decisions, or chance in a random set-up),
``SETUP_CAPITAL`` / ``SETUP_MISSION`` (Capital and Secret Mission RISK), then
each turn ``REINFORCE`` (trade sets, place armies), ``ATTACK`` (with
``DEFEND`` when defenders choose dice, ``ROLL`` / ``BLITZ`` chance nodes,
``OCCUPY`` after a capture and ``TRADE_DOWN`` after an elimination),
``FORTIFY`` and ``DRAW`` (chance: the card for a capture); ``GAME_OVER``.

An illegal action raises :class:`riskmath.IllegalActionError` naming the
action, phase, player and reason; the public API never changes a state in
place.  (:func:`riskmath.play` and :func:`riskmath.simulate` play on a
private state whose position they change in place, through the same
transitions; see :mod:`riskmath.sim`.)
"""

from __future__ import annotations

from riskmath.game.game import GameState
from riskmath.game.legality import LegalActions
from riskmath.game.phase import CHANCE, TERMINAL, Phase

__all__ = ["CHANCE", "TERMINAL", "GameState", "LegalActions", "Phase"]
