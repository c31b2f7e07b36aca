"""The import path ``riskmath.tournament`` of earlier releases; the code is :mod:`riskmath.sim.tournaments`."""

from riskmath.sim.tournaments import tournament, wilson_interval

__all__ = ["tournament", "wilson_interval"]
