"""Matplotlib pictures of the board and of game states (private; no mathematics here).

:func:`board` draws a schematic world: each territory is a circle at its
position (``Board.positions``, or :func:`layout`'s spring layout for boards
without positions), continents are pale hulls labeled with their bonus, and
borders are lines.  A border whose straight line would cross more than half
the picture (on the classic map, Alaska--Kamchatka) wraps around the edge of
the map: it is drawn as two dashed stubs, each leaving its territory towards
the nearer edge, along the line that joins the two ends across that edge.

For a :class:`~riskmath.GameState` the circles are colored by owner (a fixed
palette per player, grays for neutrals, white before the set-up claims them)
with the army count inside.  With ``values`` they are colored by those values
on a color scale instead, the owner showing in the circle's rim.

Every artist carries a ``gid`` naming what it shows (``"territory:Alaska"``,
``"armies:Alaska"``, ``"border:Alaska|Kamchatka"``, ``"wrap:Alaska|Kamchatka"``,
``"continent:Asia"``, ...), which also becomes the element id in SVG output.
"""

from __future__ import annotations

import io
import math
import numbers
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from riskmath._validation import check_bool
from riskmath.errors import InvalidArgumentError
from riskmath.game.board import Board
from riskmath.plots.style import CONTINENT_COLORS, MISSING_VALUE_COLOR, OWNER_COLORS, owner_color, text_color

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from riskmath.game.board import TerritoryKey
    from riskmath.game.game import Game
    from riskmath.game.state import GameState

__all__ = ["OWNER_COLORS", "board", "board_svg", "layout"]

_LAYOUT_ITERATIONS = 300
_LAYOUT_SEED = 0
_LAYOUT_START_STEP = 1.0  # the largest move in the first step, in the unit square; it falls linearly to 0


def layout(board: Board | str) -> dict[str, tuple[float, float]]:
    r"""The positions :func:`board` draws territories at, by canonical name.

    The board's own ``positions`` when it has them; otherwise a spring
    (force-directed) layout computed with NumPy: the Fruchterman--Reingold
    scheme [1]_, in which every pair of territories repels with force
    :math:`k^2/d` and every border pulls its ends together with force
    :math:`w d^2/k` (:math:`w = 2` inside a continent, 1 across, so that
    continents stay together; :math:`k = 1/\sqrt{n}` in the unit square).  It
    starts from seeded random points (seed 0) and runs 300 steps, each move
    capped by a temperature that falls linearly from the side of the square
    to 0.  The result is shifted and scaled so that the wider side spans
    ``0..100``.  It depends only on the board, so a board is always drawn the
    same way; a single territory sits at ``(50, 50)``.

    Parameters
    ----------
    board : Board or str
        A board, or its name (:meth:`riskmath.Board.load`).

    Returns
    -------
    dict of str to (float, float)
        ``(x, y)`` for every territory, in id order.

    Examples
    --------
    >>> import riskmath as rm
    >>> layout(rm.Board.classic())["Alaska"]
    (4.0, 58.0)
    >>> toy = rm.Board.from_dict({"name": "toy", "continents": [
    ...     {"name": "Isles", "bonus": 1, "territories": ["A", "B", "C"]}],
    ...     "borders": [["A", "B"], ["B", "C"]]})
    >>> xy = layout(toy)
    >>> xy == layout(toy), len(set(xy.values()))
    (True, 3)

    References
    ----------
    .. [1] T. M. J. Fruchterman and E. M. Reingold, "Graph drawing by
       force-directed placement", *Software: Practice and Experience* 21(11),
       1129--1164 (1991).
    """
    given: object = board  # (typed as what the caller should pass; checked as anything)
    if isinstance(given, str):
        board = given = Board.load(given)
    if not isinstance(given, Board):
        hint = " (a state's board is state.game.board)" if hasattr(given, "game") else ""
        raise InvalidArgumentError(
            f"layout needs a riskmath.Board or a board's name{hint}, got {type(given).__name__}: {given!r}"
        )
    assert isinstance(board, Board)
    if board.positions:
        return dict(board.positions)
    xy = _spring_layout(board)
    return {t: (float(x), float(y)) for t, (x, y) in zip(board.territories, xy, strict=True)}


def _spring_layout(board: Board) -> npt.NDArray[np.float64]:
    n = len(board)
    if n == 1:
        return np.array([[50.0, 50.0]])
    continent = np.array([board.continent_of(i) for i in range(n)], dtype=object)
    weight = board.adjacency * np.where(continent[:, None] == continent[None, :], 2.0, 1.0)
    pos = np.random.default_rng(_LAYOUT_SEED).random((n, 2))
    k = 1.0 / math.sqrt(n)  # the ideal distance between neighbors in the unit square
    step = _LAYOUT_START_STEP
    for _ in range(_LAYOUT_ITERATIONS):
        delta = pos[:, None, :] - pos[None, :, :]
        dist = np.maximum(np.linalg.norm(delta, axis=-1), 1e-3)
        # Repulsion k^2/d for every pair, attraction w d^2/k along borders, both along delta/d.
        coefficient = k * k / dist**2 - weight * dist / k
        np.fill_diagonal(coefficient, 0.0)
        move = np.einsum("ij,ijk->ik", coefficient, delta)
        length = np.maximum(np.linalg.norm(move, axis=1), 1e-12)
        pos += move * (np.minimum(length, step) / length)[:, None]
        step -= _LAYOUT_START_STEP / (_LAYOUT_ITERATIONS + 1)
    pos -= pos.min(axis=0)
    return pos * (100.0 / max(float(pos.max()), 1e-12))


def board(
    board_or_state: Board | str | Game | GameState,
    ax: Axes | None = None,
    *,
    values: Mapping[TerritoryKey, float] | pd.Series | None = None,
    cmap: str = "Reds",
    vmin: float | None = None,
    vmax: float | None = None,
    value_label: str | None = None,
    labels: bool = True,
    continents: bool = True,
    legend: bool = True,
    wrap: bool | None = None,
    title: str | None = None,
) -> Axes:
    """Draw a board, or a game state on its board, as a schematic world map.

    Parameters
    ----------
    board_or_state : Board, str, Game or GameState
        A bare board (or its name, or a game's board) draws white
        territories; a state colors them by owner and writes the armies
        inside.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new 12 x 7 inch figure's axes by default.
    values : mapping or pandas.Series, optional
        Numbers by territory (name, alias or id), e.g.
        ``riskmath.evaluate.threats(state)["fall_probability"]``.  Territories
        are then colored by value, with a colorbar; the owner shows in the
        rim.  Territories left out (or NaN) are pale gray.
    cmap : str, default "Reds"
        Colormap for ``values``.
    vmin, vmax : float, optional
        Color scale limits; by default ``0`` and ``1`` when every value lies
        in ``[0, 1]`` (probabilities), else the values' minimum and maximum.
    value_label : str, optional
        Colorbar label; by default the Series' name, else ``"value"``.
    labels : bool, default True
        Write territory names under the circles.
    continents : bool, default True
        Shade continents and label them with their name and bonus.
    legend : bool, default True
        For a state, a legend of the owners on the board.
    wrap : bool, optional
        Draw borders reaching across more than half the picture as wrapping
        round the map's edge.  By default only for boards with positions
        (spring layouts keep neighbors close anyway).
    title : str, optional
        Axes title; by default the board's name (and the turn and phase for
        a state); ``""`` for none.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on (the figure is never shown).

    Raises
    ------
    InvalidArgumentError
        If ``board_or_state`` is neither a Board nor a GameState, ``ax`` not
        an Axes, ``values`` not a mapping or Series, a value not a number or
        infinite, or a flag not True or False.
    BoardError
        If ``values`` names an unknown territory.

    Examples
    --------
    >>> import random
    >>> import matplotlib.pyplot as plt
    >>> import riskmath as rm
    >>> from riskmath.agents import AggressiveAgent
    >>> state = rm.Game(4).new_initial_state(3, auto_chance=True)
    >>> agent, rng = AggressiveAgent(), random.Random(0)
    >>> while state.turn < 8:
    ...     state = state.apply(agent.act(state, rng))
    >>> ax = board(state)
    >>> def drawn(kind):
    ...     return [a for a in ax.get_children() if str(a.get_gid()).startswith(kind + ":")]
    >>> len(drawn("territory")), len(drawn("border")), len(drawn("wrap")), len(drawn("continent"))
    (42, 82, 2, 6)
    >>> sum(int(t.get_text()) for t in drawn("armies")) == sum(state.armies(t) for t in range(42))
    True
    >>> ax = board(state, values=rm.evaluate.threats(state)["fall_probability"])
    >>> ax.figure.axes[-1].get_ylabel(), tuple(map(float, ax.figure.axes[-1].get_ylim()))
    ('fall_probability', (0.0, 1.0))
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes
    from matplotlib.patches import Circle, Patch

    the_board, state = _board_and_state(board_or_state)
    labels = check_bool("labels", labels)
    continents = check_bool("continents", continents)
    legend = check_bool("legend", legend)
    if wrap is not None:
        wrap = check_bool("wrap", wrap)
    if values is not None and not isinstance(values, Mapping) and not hasattr(values, "items"):
        raise InvalidArgumentError(
            f"values must be a mapping of territory to number or a pandas Series, got {type(values).__name__}"
        )
    colored = _value_colors(the_board, values, cmap, vmin, vmax) if values is not None else None  # (checked first)
    if ax is None:
        _, ax = plt.subplots(figsize=(12, 7), layout="constrained")
    elif not isinstance(ax, Axes):
        raise InvalidArgumentError(f"board: ax must be a matplotlib Axes, got {ax!r}")
    names = the_board.territories
    xy = np.array(list(layout(the_board).values()), dtype=float)
    extent = max(float(np.ptp(xy[:, 0])), float(np.ptp(xy[:, 1])))
    unit = extent / 100.0 if extent > 0 else 1.0  # sizes scale with the map; a 0..100 frame for one territory
    gaps = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=-1) + np.diag(np.full(len(xy), np.inf))
    radius, margin = min(2.2 * unit, 0.42 * float(gaps.min())), 6.0 * unit
    left, right = float(xy[:, 0].min()) - margin, float(xy[:, 0].max()) + margin
    bottom, top = float(xy[:, 1].min()) - margin, float(xy[:, 1].max()) + margin

    if continents:
        _draw_continents(ax, the_board, xy, 3.8 * unit)
    _draw_borders(ax, the_board, xy, (left, right), bool(the_board.positions) if wrap is None else wrap)

    owners = [state.owner(i) for i in range(len(names))] if state is not None else None
    owner_colors = {o: owner_color(o, state.game.players) for o in owners} if state is not None and owners else {}
    for i, name in enumerate(names):
        rim = owner_colors[owners[i]] if owners is not None else "0.25"
        if colored is not None:
            face, edge, width = colored[0][i], rim, 2.5 if owners is not None else 1.0
        else:
            face, edge, width = (rim if owners is not None else "white"), "0.2", 0.8
        x, y = xy[i]
        ax.add_patch(
            Circle((x, y), radius, facecolor=face, edgecolor=edge, linewidth=width, zorder=3, gid=f"territory:{name}")
        )
        if state is not None:
            ax.text(
                x,
                y,
                str(state.armies(i)),
                ha="center",
                va="center",
                fontsize=7,
                fontweight="bold",
                color=text_color(face),
                zorder=4,
                gid=f"armies:{name}",
            )
        if labels:
            ax.text(
                x,
                y - radius - 0.3 * unit,
                name,
                ha="center",
                va="top",
                fontsize=5.5,
                color="0.15",
                zorder=4,
                gid=f"label:{name}",
            )

    if colored is not None:
        _, mappable, label = colored
        ax.figure.colorbar(mappable, ax=ax, label=label if value_label is None else value_label, shrink=0.6)
    if legend and owners is not None and state is not None:
        handles = [
            Patch(
                facecolor="white" if colored else owner_colors[o],
                edgecolor=owner_colors[o] if colored else "0.2",
                linewidth=2.5 if colored else 0.8,
                label="unclaimed" if o < 0 else state.game.owner_name(o),
            )
            for o in sorted(owner_colors, key=lambda o: (o < 0, o))
        ]
        ax.legend(handles=handles, loc="lower left", fontsize=8, framealpha=0.9)
    if title is None:
        title = f"{the_board.name} board"
        if state is not None:
            title += f", turn {state.turn}, {state.phase.name}"
    if title:
        ax.set_title(title)
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return ax


def board_svg(board_or_state: Board | str | Game | GameState, **kwargs: Any) -> str:
    """The picture of :func:`board` as SVG text, e.g. for a notebook's HTML.

    The figure is a standalone :class:`matplotlib.figure.Figure` (pyplot never
    sees it, so nothing stays open), text stays text (``svg.fonttype`` "none")
    and the output is reproducible: no date, fixed element ids.  No file is
    written.

    Parameters
    ----------
    board_or_state : Board, str, Game or GameState
        As for :func:`board`.
    **kwargs
        ``figsize`` (inches, default ``(10, 6)``) and any keyword of :func:`board` except ``ax``.

    Returns
    -------
    str
        A complete SVG document.

    Examples
    --------
    >>> import riskmath as rm
    >>> svg = board_svg(rm.Board.classic(), labels=False)
    >>> svg.startswith("<?xml"), "<svg" in svg, svg.count('id="territory:')
    (True, True, 42)
    >>> svg == board_svg(rm.Board.classic(), labels=False)
    True
    """
    import matplotlib
    from matplotlib.figure import Figure

    figsize = kwargs.pop("figsize", (10, 6))
    if "ax" in kwargs:
        raise InvalidArgumentError("board_svg draws on its own figure; do not pass ax")
    import inspect

    known = set(inspect.signature(board).parameters) - {"board_or_state", "ax"}
    unknown = sorted(set(kwargs) - known)
    if unknown:  # (passed on, they were refused as board()'s, a function the caller did not call)
        raise InvalidArgumentError(
            f"board_svg got unknown keyword(s) {', '.join(unknown)}; it takes figsize and {', '.join(sorted(known))}"
        )
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "riskmath"}):
        figure = Figure(figsize=figsize, layout="constrained")
        board(board_or_state, figure.add_subplot(), **kwargs)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


def _board_and_state(board_or_state: object) -> tuple[Board, GameState | None]:
    """The board to draw and the state on it, if any: from a Board, a board's name (:meth:`Board.load`), a Game (its
    board) or a GameState."""
    from riskmath.game.game import Game
    from riskmath.game.state import GameState

    if isinstance(board_or_state, Board):
        return board_or_state, None
    if isinstance(board_or_state, str):
        return Board.load(board_or_state), None
    if isinstance(board_or_state, Game):
        return board_or_state.board, None
    if isinstance(board_or_state, GameState):
        return board_or_state.game.board, board_or_state
    raise InvalidArgumentError(
        f"board_or_state must be a Board, a board's name, a Game or a GameState, got {type(board_or_state).__name__}"
    )


def _value_colors(
    board: Board,
    values: Mapping[TerritoryKey, float] | pd.Series,
    cmap: str,
    vmin: float | None,
    vmax: float | None,
) -> tuple[list[Any], Any, str]:
    """Face colors by id, the mappable for the colorbar, and its label."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    by_id: dict[int, float] = {}
    for key, value in values.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise InvalidArgumentError(f"value for {key!r} must be a number, got {value!r}")
        if math.isinf(value):
            raise InvalidArgumentError(f"value for {key!r} must be finite (NaN to leave it uncolored), got {value!r}")
        if not math.isnan(value):
            by_id[board.index(key)] = float(value)
    for limit_name, limit in (("vmin", vmin), ("vmax", vmax)):
        bad = limit is not None and (isinstance(limit, bool) or not isinstance(limit, numbers.Real))
        if bad or (limit is not None and not math.isfinite(limit)):
            raise InvalidArgumentError(f"{limit_name} must be a finite number (or None), got {limit!r}")
    given = vmin is not None or vmax is not None
    finite = list(by_id.values())
    if vmin is None or vmax is None:
        unit = bool(finite) and all(0.0 <= v <= 1.0 for v in finite)
        low, high = (0.0, 1.0) if unit or not finite else (min(finite), max(finite))
        vmin = low if vmin is None else vmin
        vmax = high if vmax is None else vmax
    if not vmax > vmin:
        if given:  # (drawn with a scale of vmin + 1, the colors did not mean what the user set)
            raise InvalidArgumentError(
                f"vmin ({vmin!r}) must be below vmax ({vmax!r}); a limit not given comes from the values"
            )
        vmax = vmin + 1.0  # every value the same: one color, the scale's low end
    norm = Normalize(vmin=vmin, vmax=vmax)
    colormap = colormaps[cmap]
    faces = [colormap(norm(by_id[i])) if i in by_id else MISSING_VALUE_COLOR for i in range(len(board))]
    name = getattr(values, "name", None)
    label = str(name) if name is not None and not isinstance(values, Mapping) else "value"
    return faces, ScalarMappable(norm=norm, cmap=colormap), label


def _draw_continents(ax: Axes, board: Board, xy: npt.NDArray[np.float64], pad: float) -> None:
    """A pale convex hull round each continent's circles, labeled with its name and bonus."""
    from matplotlib.patches import Polygon
    from scipy.spatial import ConvexHull

    angles = np.linspace(0.0, 2.0 * np.pi, 24, endpoint=False)
    ring = pad * np.column_stack([np.cos(angles), np.sin(angles)])
    middle = float(np.median(xy[:, 1]))
    for number, continent in enumerate(board.continents.values()):
        points = (xy[list(continent.ids)][:, None, :] + ring[None, :, :]).reshape(-1, 2)
        hull = points[ConvexHull(points).vertices]
        color = CONTINENT_COLORS[number % len(CONTINENT_COLORS)]
        ax.add_patch(
            Polygon(
                hull,
                closed=True,
                facecolor=color,
                edgecolor="0.7",
                linewidth=0.6,
                zorder=0,
                gid=f"continent:{continent.name}",
            )
        )
        north = float(xy[list(continent.ids), 1].mean()) >= middle
        x = float(xy[list(continent.ids), 0].mean())
        y, va = (float(hull[:, 1].max()), "bottom") if north else (float(hull[:, 1].min()), "top")
        ax.text(
            x,
            y,
            f"{continent.name} (+{continent.bonus})",
            ha="center",
            va=va,
            fontsize=8,
            style="italic",
            color="0.3",
            zorder=1,
            gid=f"continent-label:{continent.name}",
        )


def _draw_borders(ax: Axes, board: Board, xy: npt.NDArray[np.float64], edges: tuple[float, float], wrap: bool) -> None:
    """A line per border; a border spanning more than half the width, if ``wrap``, as two stubs to the edges."""
    left, right = edges
    width = right - left
    for a_name, b_name in board.borders:
        a, b = xy[board.index(a_name)], xy[board.index(b_name)]
        tag = f"{a_name}|{b_name}"
        if not (wrap and abs(a[0] - b[0]) > width / 2):
            ax.plot([a[0], b[0]], [a[1], b[1]], color="0.4", linewidth=0.9, zorder=1, gid=f"border:{tag}")
            continue
        # On a cylinder of circumference `width`, the short way joins a to b shifted by one width.
        for start, end in ((a, b), (b, a)):
            image = end + np.array([width if end[0] < start[0] else -width, 0.0])
            edge = right if image[0] > start[0] else left
            stop = start + (image - start) * (edge - start[0]) / (image[0] - start[0])
            ax.plot(
                [start[0], stop[0]],
                [start[1], stop[1]],
                color="0.4",
                linewidth=0.9,
                linestyle="--",
                zorder=1,
                gid=f"wrap:{tag}",
            )
