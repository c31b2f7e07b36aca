"""The import path ``riskmath.tournament`` of earlier releases; the code is :mod:`riskmath.sim.tournaments`.

The module is also callable: ``riskmath.tournament(game, lineups, games)`` is
:func:`riskmath.sim.tournaments.tournament`, as ``riskmath.simulate(...)``
is a function, so that the two read alike (``rm.tournament`` is this
module, which a plain module would make ``TypeError: 'module' object is
not callable``).  ``from riskmath.tournament import tournament`` and
``rm.tournament.wilson_interval`` work as before.
"""

import sys
import types
from typing import Any

from riskmath.sim.tournaments import tournament, wilson_interval

__all__ = ["tournament", "wilson_interval"]


class _CallableModule(types.ModuleType):
    """This module's type: a module whose call is :func:`tournament`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return tournament(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
