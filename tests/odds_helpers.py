"""Reference computations for the odds tests, by other means than riskmath's own."""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog


def matrix_game_value(payoff) -> float:
    """The value of a zero-sum matrix game (rows maximize) by SciPy's linear programming.

    ``max v`` such that ``x^T M >= v`` for every column, ``sum x = 1`` and ``x >= 0``.
    """
    m = np.asarray(payoff, dtype=float)
    rows, cols = m.shape
    result = linprog(
        c=[0] * rows + [-1],
        A_ub=np.hstack([-m.T, np.ones((cols, 1))]),
        b_ub=np.zeros(cols),
        A_eq=[[1] * rows + [0]],
        b_eq=[1],
        bounds=[(0, None)] * rows + [(None, None)],
    )
    return float(-result.fun)
