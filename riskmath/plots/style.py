"""The colors every picture shares, and the one rule for text on a colored background.

The odds pictures (:mod:`riskmath.plots.odds`, :mod:`riskmath.plots.planning`),
the board (:mod:`riskmath.plots.boardmap`), the game and tournament pictures
(:mod:`riskmath.plots.games`) and the notebook HTML
(:mod:`riskmath.plots.notebook`) all take their colors from here, so an owner
has the same color on the board as in a game's timeline.  Nothing is imported
at module level beyond the standard library (the notebook renderers import
this module with ``import riskmath``); Matplotlib is imported only by
:func:`text_color`.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ATTACKER_COLOR",
    "ATTACKER_COLOUR",
    "CONTINENT_COLORS",
    "DEFENDER_COLOR",
    "DEFENDER_COLOUR",
    "DICE_COLORMAP",
    "EVEN_COLOR",
    "EVEN_COLOUR",
    "LOSS_COLOR",
    "MISSING_VALUE_COLOR",
    "MIXED_COLOR",
    "NEUTRAL_COLORS",
    "OWNER_COLORS",
    "STOP_COLOR",
    "UNCLAIMED_COLOR",
    "WIN_COLOR",
    "owner_color",
    "relative_luminance",
    "text_color",
]

# -- the two sides of a battle -------------------------------------------------

#: Bars of outcomes that favor the attacker.
ATTACKER_COLOR = "tab:red"
#: Bars of outcomes that favor the defender.
DEFENDER_COLOR = "tab:blue"
#: Bars of outcomes that favor neither side.
EVEN_COLOR = "tab:grey"
#: The same object as :data:`ATTACKER_COLOR` (the earlier, UK spelling).
ATTACKER_COLOUR = ATTACKER_COLOR
#: The same object as :data:`DEFENDER_COLOR` (the earlier, UK spelling).
DEFENDER_COLOUR = DEFENDER_COLOR
#: The same object as :data:`EVEN_COLOR` (the earlier, UK spelling).
EVEN_COLOUR = EVEN_COLOR

#: Final states the attacker wins, in the notebook's outcome chart.
WIN_COLOR = "#2ca02c"
#: Final states where the territory holds, in the notebook's outcome chart.
LOSS_COLOR = "#d62728"

#: Policy maps: the "stop" action, and mixed strategies (dice counts use :data:`DICE_COLORMAP`).
STOP_COLOR = "dimgrey"
MIXED_COLOR = "tab:purple"
#: Policy maps: the colormap of the dice counts (more dice, darker).
DICE_COLORMAP = "YlGn"

# -- owners and the board ------------------------------------------------------

#: Colors of players 0, 1, ... (cycled beyond nine players): matplotlib's tab10 without its grey.
OWNER_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf")
#: Colors of the neutral owners (owner ids from the number of players on), cycled.
NEUTRAL_COLORS = ("#9e9e9e", "#bdbdbd", "#757575", "#d9d9d9")
#: Territories nobody owns yet (before the set-up claims them).
UNCLAIMED_COLOR = "#ffffff"
#: Pale continent shades in data order; on the classic board they follow the printed board's colors.
CONTINENT_COLORS = ("#fff2b3", "#f9d3cf", "#d4e4f4", "#f8dfc2", "#d9eccf", "#e6d8ee", "#d8efed", "#f0e0d0")
#: Territories without a value when the board is colored by values.
MISSING_VALUE_COLOR = "#eeeeee"


def owner_color(owner: int, players: int | None = None) -> str:
    """The color of an owner, the same in every picture.

    Players ``0 .. players - 1`` cycle through :data:`OWNER_COLORS`; owners
    from ``players`` on (neutrals) through :data:`NEUTRAL_COLORS`; a negative
    owner (unclaimed) is :data:`UNCLAIMED_COLOR`.  Without ``players`` every
    owner ``>= 0`` is a player.

    Examples
    --------
    >>> owner_color(0), owner_color(2, players=2), owner_color(-1)
    ('#1f77b4', '#9e9e9e', '#ffffff')
    """
    if owner < 0:
        return UNCLAIMED_COLOR
    if players is not None and owner >= players:
        return NEUTRAL_COLORS[(owner - players) % len(NEUTRAL_COLORS)]
    return OWNER_COLORS[owner % len(OWNER_COLORS)]


# -- text on a colored background ------------------------------------------------


def relative_luminance(color: Any) -> float:
    """WCAG 2 relative luminance of any Matplotlib color (0 for black, 1 for white).

    The sRGB channels are linearized and weighted ``0.2126 R + 0.7152 G +
    0.0722 B`` (W3C, *Web Content Accessibility Guidelines 2.1*, "relative
    luminance").
    """
    from matplotlib.colors import to_rgb

    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(color)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def text_color(background: Any) -> str:
    """Black or white, whichever contrasts more with ``background`` (any Matplotlib color).

    The WCAG contrast ratio ``(L1 + 0.05) / (L2 + 0.05)`` with black equals
    the one with white at the relative luminance ``L = 0.179``; above it
    black reads better.

    Examples
    --------
    >>> text_color("#2ca02c"), text_color("#1f77b4"), text_color((1.0, 1.0, 0.8, 1.0))
    ('black', 'white', 'black')
    """
    return "black" if relative_luminance(background) > 0.179 else "white"
