"""The battle chain as explicit sparse matrices, for teaching and cross-checks.

Order the transient states ``(a, d)`` (``stop_at < a <= A``, ``1 <= d <= D``)
and the absorbing states (wins ``(a, 0)`` and stops ``(a, d)`` with
``a <= stop_at``).  One roll is then the block matrix

.. math::

    P = \\begin{pmatrix} Q & R \\\\ 0 & I \\end{pmatrix},

with ``Q`` transient-to-transient and ``R`` transient-to-absorbing.  The
fundamental matrix :math:`N = (I - Q)^{-1}` counts expected visits, the
absorption probabilities are :math:`B = N R` and the expected numbers of
rolls :math:`t = N \\mathbf{1}`.  :class:`BattleChain` never forms ``N``:
it solves :math:`(I - Q) X = R` (or the transposed system for one start
state) with a sparse LU factorisation.

This view costs ``O((A D)^{1.5})`` or more; :class:`riskmath.Battle` and
:func:`riskmath.odds_table` get the same numbers in ``O(A D)`` by sweeping
the acyclic chain once.  The tests check that both agree.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from riskmath._validation import capped, check_cost, check_int, shown
from riskmath.errors import InvalidArgumentError
from riskmath.odds._sweeps import kernel, unit_interval_array
from riskmath.odds.dice import CombatRules, resolve_rules

if TYPE_CHECKING:
    import pandas as pd
    import scipy.sparse as sp

__all__ = ["BattleChain", "battle_chain"]


class BattleChain:
    """The absorbing chain of every battle up to ``attackers`` v ``defenders``.

    Parameters
    ----------
    attackers, defenders : int
        Largest state: ``attackers`` armies able to attack, ``defenders``
        defending armies (both ``>= 1``).
    stop_at : int, default 0
        The attacker stops at ``stop_at`` attackers or fewer.
    rules : CombatRules, optional
        Combat variant; classic by default.

    Attributes
    ----------
    transient_states, absorbing_states : pandas.MultiIndex
        Row/column labels ``(attackers, defenders)`` of ``Q`` and ``R``.
    Q, R : scipy.sparse.csr_array
        One-roll transition probabilities, transient to transient and
        transient to absorbing.

    Examples
    --------
    >>> chain = battle_chain(2, 2)
    >>> chain.Q.shape, chain.R.shape
    ((4, 4), (4, 4))
    >>> round(float(chain.absorption_distribution()[(2, 0)]), 6)
    0.227623
    """

    def __init__(self, attackers: int, defenders: int, *, stop_at: int = 0, rules: object = None) -> None:
        self.stop_at = check_int("stop_at", stop_at, minimum=0)
        self.attackers = check_int("attackers", attackers, minimum=self.stop_at + 1)
        self.defenders = check_int("defenders", defenders, minimum=1)
        self.rules: CombatRules = resolve_rules(rules)
        A, D, k = self.attackers, self.defenders, self.stop_at
        states = (A - k) * D
        cA, cD = capped(A, D)
        check_cost(  # measured: about 4.3 kB and 4 microseconds per transient state
            lambda: f"battle_chain(attackers={shown(A)}, defenders={shown(D)}): {shown(states)} transient states",
            memory=5000.0 * (cA * cD + cA + cD),
            seconds=5e-6 * cA * cD,
        )
        transient = [(a, d) for a in range(k + 1, A + 1) for d in range(1, D + 1)]
        absorbing = [(a, d) for a in range(k + 1) for d in range(1, D + 1)]
        absorbing += [(a, 0) for a in range(k + 1, A + 1)]
        absorbing.sort()
        import pandas as pd

        self.transient_states = pd.MultiIndex.from_tuples(transient, names=["attackers", "defenders"])
        self.absorbing_states = pd.MultiIndex.from_tuples(absorbing, names=["attackers", "defenders"])
        t_pos = {s: n for n, s in enumerate(transient)}
        a_pos = {s: n for n, s in enumerate(absorbing)}
        kern = kernel(self.rules)
        q_entries: list[tuple[int, int, float]] = []
        r_entries: list[tuple[int, int, float]] = []
        for row, (a, d) in enumerate(transient):
            c, e = min(kern.max_a, a), min(kern.max_d, d)
            pairs = min(c, e)
            for i, p in enumerate(kern.prob[c][e]):
                target = (a - i, d - pairs + i)
                if target in t_pos:
                    q_entries.append((row, t_pos[target], float(p)))
                else:
                    r_entries.append((row, a_pos[target], float(p)))
        self.Q = _sparse(q_entries, (len(transient), len(transient)))
        self.R = _sparse(r_entries, (len(transient), len(absorbing)))

    def __repr__(self) -> str:
        options = [f"stop_at={self.stop_at}"] if self.stop_at else []
        if self.rules != CombatRules():
            options.append(f"rules={self.rules!r}")
        return f"BattleChain({', '.join([str(self.attackers), str(self.defenders), *options])})"

    @cached_property
    def _lu(self) -> object:
        import scipy.sparse as sp
        from scipy.sparse.linalg import splu

        T = self.Q.shape[0]
        band = min(self.attackers - self.stop_at, self.defenders) + 2
        check_cost(  # the LU factors fill in the band of width min(attackers, defenders); measured: 300 x 300, 3 s
            lambda: f"the LU factorisation of {self!r}",
            memory=40.0 * T * band,
            seconds=3e-10 * T * band * band,
        )
        identity = sp.identity(T, format="csc")
        return splu((identity - self.Q).tocsc())

    def _start(self, start: tuple[int, int] | None) -> int:
        state = (self.attackers, self.defenders) if start is None else tuple(start)
        try:
            return int(self.transient_states.get_loc(state))
        except KeyError:
            raise InvalidArgumentError(f"start {start!r} is not a transient state of {self!r}") from None

    def absorption_probabilities(self) -> pd.DataFrame:
        """``B = (I - Q)^{-1} R`` for every start state, by a sparse solve.

        Returns
        -------
        pandas.DataFrame
            Rows: transient start states; columns: absorbing states.
        """
        import pandas as pd

        T, n = self.R.shape
        check_cost(lambda: f"absorption_probabilities() of {self!r} ({T} x {n}, dense)", memory=24.0 * T * n)
        B = unit_interval_array(self._lu.solve(self.R.toarray()))  # type: ignore[attr-defined]
        return pd.DataFrame(B, index=self.transient_states, columns=self.absorbing_states)

    def absorption_distribution(self, start: tuple[int, int] | None = None) -> pd.Series:
        """Absorption probabilities from one start state (default: the largest).

        Solves the transposed system :math:`(I - Q)^T x = e_{start}`; the
        result is :math:`x^T R`.
        """
        import pandas as pd

        e = np.zeros(self.Q.shape[0])
        e[self._start(start)] = 1.0
        visits = self._lu.solve(e, trans="T")  # type: ignore[attr-defined]
        probabilities = unit_interval_array(self.R.T @ visits)  # round-off of the solve clipped to [0, 1]
        return pd.Series(probabilities, index=self.absorbing_states, name="probability")

    def expected_rolls(self) -> pd.Series:
        """Expected rolls to absorption, ``t = (I - Q)^{-1} 1``, for every start state."""
        import pandas as pd

        t = self._lu.solve(np.ones(self.Q.shape[0]))  # type: ignore[attr-defined]
        return pd.Series(t, index=self.transient_states, name="expected_rolls")

    def fundamental_matrix(self) -> pd.DataFrame:
        """``N = (I - Q)^{-1}`` (expected visits), dense; by a solve, for small chains."""
        import pandas as pd

        T = self.Q.shape[0]
        check_cost(lambda: f"fundamental_matrix() of {self!r} ({T} x {T}, dense)", memory=24.0 * T * T)
        N = self._lu.solve(np.eye(T))  # type: ignore[attr-defined]
        return pd.DataFrame(N, index=self.transient_states, columns=self.transient_states)


def _sparse(entries: list[tuple[int, int, float]], shape: tuple[int, int]) -> sp.csr_array:
    import scipy.sparse as sp

    rows, cols, values = zip(*entries, strict=True) if entries else ((), (), ())
    return sp.csr_array((values, (rows, cols)), shape=shape)


def battle_chain(attackers: int, defenders: int, *, stop_at: int = 0, rules: object = None) -> BattleChain:
    """The sparse matrix view (:class:`BattleChain`) of battles up to ``attackers`` v ``defenders``.

    Parameters
    ----------
    attackers : int
        The largest number of armies able to attack (the territory holds one more).
    defenders : int
        The largest number of defending armies.
    stop_at : int, default 0
        The attacker stops at ``stop_at`` armies able to attack or fewer (those states absorb).
    rules : CombatRules or Rules, optional
        The combat variant; the classic rules by default.

    Returns
    -------
    BattleChain
        Every state up to ``(attackers, defenders)``, its transition matrix
        and the absorbing chain's queries.

    Raises
    ------
    InvalidArgumentError, ResourceLimitError
        For a bad size, or a chain too big for the limits.

    Examples
    --------
    >>> chain = battle_chain(3, 2)
    >>> chain
    BattleChain(3, 2)
    >>> len(chain.transient_states), len(chain.absorbing_states)
    (6, 5)
    >>> round(float(chain.expected_rolls()[(3, 2)]), 4)
    1.8443
    """
    return BattleChain(attackers, defenders, stop_at=stop_at, rules=rules)
