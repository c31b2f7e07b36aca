"""Simulation: whole games between agents, many of them reproducibly and in parallel, and tournaments.

:mod:`~riskmath.sim.simulation` has :func:`play` (one game, a
:class:`GameRecord`) and :func:`simulate` (many, a DataFrame);
:mod:`~riskmath.sim.tournaments` plays line-ups with the seats rotated and
reports win rates with Wilson intervals; :mod:`~riskmath.sim.rollouts` has
:func:`victory_probabilities` (who wins from a given state, by playing on from
it; ``win_probabilities`` is its deprecated old name).
"""

from riskmath.sim.rollouts import victory_probabilities, win_probabilities
from riskmath.sim.simulation import GameRecord, game_seeds, play, simulate
from riskmath.sim.tournaments import tournament, wilson_interval

__all__ = [
    "GameRecord",
    "game_seeds",
    "play",
    "simulate",
    "tournament",
    "victory_probabilities",
    "wilson_interval",
    "win_probabilities",
]
