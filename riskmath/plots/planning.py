"""Pictures of conquest planning: success probabilities against the number of attackers (use :mod:`riskmath.plots`).

No mathematics here: the curves are :func:`riskmath.success_curve` and
:func:`riskmath.armies_needed`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from riskmath._validation import is_sequence, shown
from riskmath.errors import InvalidArgumentError
from riskmath.odds.planning import armies_needed, success_curve
from riskmath.plots.odds import axes_or_new
from riskmath.plots.style import ATTACKER_COLOR

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["success_curves", "success_vs_attackers"]


def success_curves(
    curves: pd.DataFrame,
    ax: Axes | None = None,
    *,
    thresholds: tuple[float, ...] = (0.5, 0.9),
    title: str | None = None,
) -> Axes:
    """Draw success probabilities against the number of attackers.

    Parameters
    ----------
    curves : pandas.DataFrame or pandas.Series
        Index: armies able to attack; one column per plan or path (e.g.
        built from :func:`riskmath.success_curve`), values in ``[0, 1]``; a
        Series (one :func:`riskmath.success_curve`) is one curve.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    thresholds : tuple of float, default (0.5, 0.9)
        Probabilities marked with dotted horizontal lines (one number is one line).
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidArgumentError
        If ``curves`` is not a non-empty DataFrame or Series, or a threshold is not a probability.

    Examples
    --------
    >>> import pandas as pd
    >>> import riskmath as rm
    >>> curves = pd.DataFrame({"3 then 2": rm.success_curve([3, 2], 12), "5": rm.success_curve([5], 12)})
    >>> ax = success_curves(curves, title="Two paths")
    >>> [t.get_text() for t in ax.get_legend().get_texts()], ax.get_ylabel()
    (['3 then 2', '5'], 'P(success)')
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    import pandas as pd

    if isinstance(curves, pd.Series):  # one curve, as riskmath.success_curve returns it
        curves = curves.to_frame(name=curves.name if curves.name is not None else "success")
    if not isinstance(curves, pd.DataFrame) or curves.empty:
        raise InvalidArgumentError(
            f"curves must be a non-empty DataFrame (or a Series) of probabilities by attackers, got {shown(curves)}"
        )
    given: object = thresholds  # (annotated as a tuple, but one number is taken as one line)
    levels = [given] if isinstance(given, (int, float, Fraction)) else given
    if not is_sequence(levels) or any(
        isinstance(v, bool) or not isinstance(v, (int, float, Fraction)) or not 0 <= v <= 1 for v in levels
    ):
        raise InvalidArgumentError(f"thresholds must be probabilities in [0, 1], got {shown(thresholds)}")
    ax = axes_or_new(ax, (7, 4.5))
    for name in curves.columns:
        ax.plot(curves.index, curves[name].astype(float), label=str(name))
    for level in levels:
        ax.axhline(float(level), color="gray", linestyle=":", linewidth=0.8)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"{curves.index.name or 'attackers'} (armies able to attack)")
    ax.set_ylabel("P(success)")
    ax.legend(loc="lower right", fontsize=8)
    if title:
        ax.set_title(title)
    return ax


def success_vs_attackers(
    defenders: int | Sequence[int],
    ax: Axes | None = None,
    *,
    max_attackers: int | None = None,
    p: float | Fraction = 0.9,
    rules: object = None,
    title: str | None = None,
) -> Axes:
    """Draw P(taking a path) against the number of attackers, with the armies needed marked.

    The curve is :func:`riskmath.success_curve`; a dashed vertical line (and
    a label) marks :func:`riskmath.armies_needed` for probability ``p``, and
    a dotted horizontal line marks ``p``.

    Parameters
    ----------
    defenders : int or sequence of int
        The path, as for :func:`riskmath.conquest`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure's axes by default.
    max_attackers : int, optional
        Right end of the curve; by default twice the armies needed (at least 10).
    p : float or Fraction, default 0.9
        Required success probability, strictly between 0 and 1.
    rules : CombatRules, optional
        Combat variant.
    title : str, optional
        Axes title; by default the path.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidArgumentError
        For a bad path, ``p`` or ``max_attackers`` (from the library functions).

    Examples
    --------
    >>> ax = success_vs_attackers([3, 2, 2], p=0.9)
    >>> ax.get_lines()[-1].get_xdata()    # armies_needed([3, 2, 2], 0.9)
    [14, 14]
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    needed = armies_needed(defenders, p, rules=rules)
    if max_attackers is None:
        max_attackers = max(2 * needed, 10)
    curve = success_curve(defenders, max_attackers, rules=rules)
    ax = axes_or_new(ax, (7, 4.5))
    ax.plot(
        curve.index, curve.to_numpy(dtype=float), marker="o", markersize=3, color=ATTACKER_COLOR, label="P(success)"
    )
    ax.axhline(float(p), color="gray", linestyle=":", linewidth=0.8, label=f"P = {float(p):g}")
    ax.axvline(needed, color="black", linestyle="--", linewidth=1, label=f"{needed} armies for P >= {float(p):g}")
    ax.annotate(str(needed), xy=(needed, 0), xytext=(3, 3), textcoords="offset points", fontsize=9)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("attackers (armies able to attack)")
    ax.set_ylabel("P(success)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title or f"Taking a path defended by {defenders}")
    return ax
