"""The board picture: board positions in the data, and what riskmath.plots.boardmap draws."""

from __future__ import annotations

import json
import math
import random
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex

import riskmath as rm
from riskmath.agents import AggressiveAgent
from riskmath.errors import BoardError, InvalidArgumentError
from riskmath.game.board import BOARDS, Board
from riskmath.plots.boardmap import OWNER_COLORS, board, board_svg, layout

TOY = {
    "name": "toy",
    "continents": [
        {"name": "East", "bonus": 2, "territories": ["Ayr", "Bute"]},
        {"name": "West", "bonus": 1, "territories": ["Cork"]},
    ],
    "borders": [["Ayr", "Bute"], ["Bute", "Cork"]],
}


def play_to(game: rm.Game, turn: int) -> rm.GameState:
    state = game.new_initial_state(3, auto_chance=True)
    agent, rng = AggressiveAgent(), random.Random(0)
    while state.turn < turn:
        state = state.apply(agent.act(state, rng))
    return state


@pytest.fixture(scope="module")
def state():
    return play_to(rm.Game(4), 8)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def drawn(ax, kind):
    """The artists of ``ax`` whose gid starts with ``kind:``, in drawing order."""
    return [a for a in ax.get_children() if str(a.get_gid()).startswith(kind + ":")]


def by_name(artists):
    return {str(a.get_gid()).split(":", 1)[1]: a for a in artists}


class TestPositionsData:
    def test_classic_positions_read_as_a_world_map(self):
        board_ = Board.classic()
        xy = board_.positions
        assert list(xy) == list(board_.territories)
        assert all(0 <= x <= 100 and 0 <= y <= 100 for x, y in xy.values())
        assert len(set(xy.values())) == 42

        def centre(continent):
            return np.mean([xy[t] for t in board_.continents[continent].territories], axis=0)

        na, sa, eu, af, asia, au = map(centre, board_.continents)
        assert na[0] < eu[0] < asia[0]
        assert sa[0] < af[0] < au[0]
        assert sa[1] < na[1]
        assert af[1] < eu[1]
        assert au[1] < asia[1]
        assert xy["Alaska"][0] < 10
        assert xy["Kamchatka"][0] > 85

    def test_anniversary_board_has_the_same_territories_and_positions(self):
        classic, anniversary = Board.classic(), Board.anniversary_1999()
        assert anniversary.territories == classic.territories
        assert anniversary.positions == classic.positions

    @pytest.mark.parametrize("name", BOARDS)
    def test_positions_round_trip(self, name):
        board_ = Board.load(name)
        data = board_.to_dict()
        assert data["positions"]["Alaska"] == [4.0, 58.0]
        assert Board.from_dict(data).positions == board_.positions
        assert Board.from_json(board_.to_json()) == board_
        assert hash(Board.from_json(json.dumps(data))) == hash(board_)

    def test_positions_take_part_in_equality(self):
        plain = Board.from_dict(TOY)
        assert plain.positions == {}
        assert plain.to_dict()["positions"] == {}
        placed = Board.from_dict({**TOY, "positions": {"Ayr": [0, 0], "Bute": [1.5, 2], "Cork": [3, -1]}})
        assert placed.positions == {"Ayr": (0.0, 0.0), "Bute": (1.5, 2.0), "Cork": (3.0, -1.0)}
        assert all(type(v) is float for xy in placed.positions.values() for v in xy)
        assert placed != plain
        assert Board.from_dict(placed.to_dict()) == placed
        moved = Board.from_dict({**TOY, "positions": {"Ayr": [0, 0], "Bute": [1.5, 2], "Cork": [3, -2]}})
        assert moved != placed
        with pytest.raises(TypeError):
            placed.positions["Ayr"] = (1.0, 1.0)  # type: ignore[index]

    def test_positions_in_id_order_whatever_the_data_order(self):
        placed = Board.from_dict({**TOY, "positions": {"Cork": [3, 1], "Ayr": [0, 0], "Bute": [1, 2]}})
        assert list(placed.positions) == ["Ayr", "Bute", "Cork"]

    @pytest.mark.parametrize(
        ("positions", "message"),
        [
            ([[0, 0]], r"positions must be a mapping, got \[\[0, 0\]\]"),
            ({"Ayr": [0, 0], "Bute": [1, 1], "Cork": [2, 2], "Dun": [3, 3]}, r"positions: unknown territory 'Dun'"),
            (
                {"ayr": [0, 0], "Bute": [1, 1], "Cork": [2, 2]},
                r"positions: unknown territory 'ayr'; did you mean 'Ayr'",
            ),
            ({"Ayr": [0, 0], "Bute": [1, 1], "Cork": [2]}, r"position of 'Cork' must be a pair \[x, y\], got \[2\]"),
            ({"Ayr": [0, 0], "Bute": [1, 1], "Cork": "2, 2"}, r"position of 'Cork' must be a pair"),
            (
                {"Ayr": [0, 0], "Bute": [1, 1], "Cork": [2, math.nan]},
                r"'Cork' must be two finite numbers, got \[2, nan\]",
            ),
            (
                {"Ayr": [0, 0], "Bute": [1, 1], "Cork": [math.inf, 2]},
                r"'Cork' must be two finite numbers, got \[inf, 2\]",
            ),
            ({"Ayr": [0, 0], "Bute": [1, 1], "Cork": [2, "3"]}, r"'Cork' must be two finite numbers, got \[2, '3'\]"),
            ({"Ayr": [0, 0], "Bute": [True, 1], "Cork": [2, 2]}, r"'Bute' must be two finite numbers, got \[True, 1\]"),
            ({"Ayr": [0, 0]}, r"positions must cover every territory or none; missing 2: 'Bute', 'Cork'"),
        ],
    )
    def test_bad_positions(self, positions, message):
        with pytest.raises(BoardError, match=message):
            Board.from_dict({**TOY, "positions": positions})

    def test_bad_positions_through_json(self):
        data = Board.classic().to_dict()
        data["positions"] = {"Alaska": [1, 2]}
        with pytest.raises(BoardError, match="missing 41: 'Northwest Territory', "):
            Board.from_json(json.dumps(data))


class TestLayout:
    def test_boards_with_positions_use_them(self):
        assert layout(Board.classic()) == dict(Board.classic().positions)

    def test_spring_layout_is_deterministic_and_spread(self):
        toy = Board.from_dict(TOY)
        first, second = layout(toy), layout(toy)
        assert first == second
        assert list(first) == ["Ayr", "Bute", "Cork"]
        assert len(set(first.values())) == 3
        xy = np.array(list(first.values()))
        assert np.all(np.isfinite(xy))
        assert xy.min() == pytest.approx(0.0, abs=1e-9)
        assert xy.max() == pytest.approx(100.0)
        # Bute sits between its two neighbors.
        assert np.linalg.norm(xy[0] - xy[2]) > max(np.linalg.norm(xy[0] - xy[1]), np.linalg.norm(xy[1] - xy[2]))

    def test_spring_layout_of_the_classic_graph_keeps_territories_apart(self):
        data = Board.classic().to_dict()
        data["positions"] = {}
        xy = np.array(list(layout(Board.from_dict(data)).values()))
        gaps = np.linalg.norm(xy[:, None] - xy[None], axis=-1) + np.diag(np.full(42, np.inf))
        assert gaps.min() > 1.0

    def test_single_territory(self):
        one = Board.from_dict(
            {"name": "one", "continents": [{"name": "C", "bonus": 0, "territories": ["Here"]}], "borders": []}
        )
        assert layout(one) == {"Here": (50.0, 50.0)}
        ax = board(one)
        (circle,) = drawn(ax, "territory")
        assert circle.get_radius() == pytest.approx(2.2)
        assert drawn(ax, "border") == []


class TestDrawing:
    def test_state(self, state):
        ax = board(state)
        territories = by_name(drawn(ax, "territory"))
        assert list(territories) == list(Board.classic().territories)
        assert len(drawn(ax, "border")) == 82
        assert len(drawn(ax, "wrap")) == 2
        assert len(drawn(ax, "continent")) == 6
        assert len(drawn(ax, "label")) == 42
        armies = by_name(drawn(ax, "armies"))
        assert {t: int(text.get_text()) for t, text in armies.items()} == {t: state.armies(t) for t in territories}
        for t, circle in territories.items():
            assert to_hex(circle.get_facecolor()) == OWNER_COLORS[state.owner(t)]
            assert circle.center == pytest.approx(Board.classic().positions[t])
        legend = ax.get_legend()
        assert [text.get_text() for text in legend.get_texts()] == ["player 0", "player 1", "player 2", "player 3"]
        assert ax.get_title() == "classic board, turn 8, REINFORCE"
        assert len(ax.figure.axes) == 1  # no colorbar

    def test_borders_join_the_positions(self):
        ax = board(Board.classic())
        lines = by_name(drawn(ax, "border"))
        xy = Board.classic().positions
        assert set(lines) == {f"{a}|{b}" for a, b in Board.classic().borders} - {"Alaska|Kamchatka"}
        line = lines["Brazil|North Africa"]
        assert list(zip(line.get_xdata(), line.get_ydata(), strict=True)) == [xy["Brazil"], xy["North Africa"]]
        assert all(line.get_linestyle() == "-" for line in lines.values())

    def test_wrap_around_border_is_two_stubs_to_the_edges(self):
        ax = board(Board.classic())
        alaska, kamchatka = drawn(ax, "wrap")
        assert alaska.get_gid() == kamchatka.get_gid() == "wrap:Alaska|Kamchatka"
        left, right = ax.get_xlim()
        assert (alaska.get_xdata()[0], alaska.get_ydata()[0]) == Board.classic().positions["Alaska"]
        assert (kamchatka.get_xdata()[0], kamchatka.get_ydata()[0]) == Board.classic().positions["Kamchatka"]
        assert alaska.get_xdata()[1] == pytest.approx(left)
        assert kamchatka.get_xdata()[1] == pytest.approx(right)
        assert alaska.get_linestyle() == kamchatka.get_linestyle() == "--"
        # Both stubs lie on one straight line across the edge: the slopes agree.
        slopes = [np.diff(s.get_ydata())[0] / np.diff(s.get_xdata())[0] for s in (alaska, kamchatka)]
        assert slopes[0] == pytest.approx(slopes[1])

    def test_wrap_false_draws_every_border_straight(self):
        ax = board(Board.classic(), wrap=False)
        assert len(drawn(ax, "border")) == 83
        assert drawn(ax, "wrap") == []

    def test_bare_board(self):
        ax = board(Board.anniversary_1999(), labels=False, continents=False)
        assert len(drawn(ax, "territory")) == 42
        assert len(drawn(ax, "border")) == 81
        assert len(drawn(ax, "wrap")) == 2
        assert drawn(ax, "armies") == drawn(ax, "label") == drawn(ax, "continent") == []
        assert ax.get_legend() is None
        assert {to_hex(c.get_facecolor()) for c in drawn(ax, "territory")} == {"#ffffff"}
        assert ax.get_title() == "anniversary_1999 board"

    def test_continent_labels_name_the_bonus(self):
        ax = board(Board.classic())
        labels = {text.get_text() for text in drawn(ax, "continent-label")}
        assert labels == {
            "North America (+5)",
            "South America (+2)",
            "Europe (+5)",
            "Africa (+3)",
            "Asia (+7)",
            "Australia (+2)",
        }

    def test_neutrals_are_grey_and_unclaimed_white(self):
        two = play_to(rm.Game(2), 1)
        ax = board(two, title="")
        faces = {two.owner(t): to_hex(c.get_facecolor()) for t, c in by_name(drawn(ax, "territory")).items()}
        assert faces == {0: OWNER_COLORS[0], 1: OWNER_COLORS[1], 2: "#9e9e9e"}
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["player 0", "player 1", "neutral"]
        assert ax.get_title() == ""
        fresh = rm.Game(4).new_initial_state(3)
        ax = board(fresh)
        assert {to_hex(c.get_facecolor()) for c in drawn(ax, "territory")} == {"#ffffff"}
        assert {t.get_text() for t in drawn(ax, "armies")} == {"0"}
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["unclaimed"]

    def test_values_as_a_colour_scale(self, state):
        threats = rm.evaluate.threats(state)["fall_probability"]
        ax = board(state, values=threats, cmap="viridis")
        colorbar = ax.figure.axes[-1]
        assert len(ax.figure.axes) == 2
        assert colorbar.get_ylim() == pytest.approx((0.0, 1.0))
        assert colorbar.get_ylabel() == "fall_probability"
        cmap = plt.get_cmap("viridis")
        for t, circle in by_name(drawn(ax, "territory")).items():
            assert to_hex(circle.get_facecolor()) == to_hex(cmap(threats[t]))
            assert to_hex(circle.get_edgecolor()) == OWNER_COLORS[state.owner(t)]
        assert len(drawn(ax, "armies")) == 42

    def test_values_limits_and_missing_values(self, state):
        ax = board(state, values={"Alaska": 3, 1: 7.5, "eastern canada": math.nan}, value_label="armies to send")
        colorbar = ax.figure.axes[-1]
        assert colorbar.get_ylim() == pytest.approx((3.0, 7.5))
        assert colorbar.get_ylabel() == "armies to send"
        faces = {t: to_hex(c.get_facecolor()) for t, c in by_name(drawn(ax, "territory")).items()}
        assert faces["Quebec"] == faces["Peru"] == "#eeeeee"
        assert faces["Alaska"] == to_hex(plt.get_cmap("Reds")(0.0))
        assert faces["Northwest Territory"] == to_hex(plt.get_cmap("Reds")(1.0))
        ax = board(Board.classic(), values=pd.Series({"Peru": 0.5}), vmin=-1, vmax=2)
        assert ax.figure.axes[-1].get_ylim() == pytest.approx((-1.0, 2.0))
        assert ax.figure.axes[-1].get_ylabel() == "value"
        ax = board(Board.classic(), values={"Peru": 4, "Brazil": 4})
        assert ax.figure.axes[-1].get_ylim() == pytest.approx((4.0, 5.0))  # a flat scale still has a width

    def test_bad_values(self, state):
        with pytest.raises(BoardError, match="unknown territory 'Atlantis'"):
            board(state, values={"Atlantis": 0.5})
        with pytest.raises(InvalidArgumentError, match="value for 'Peru' must be a number, got 'high'"):
            board(state, values={"Peru": "high"})

    def test_bad_input(self, state):
        refused = r"board_or_state must be a Board, a board's name, a Game or a GameState, got dict"
        with pytest.raises(InvalidArgumentError, match=refused):
            board(TOY)  # type: ignore[arg-type]
        # Each bad argument named, before anything is drawn (hostile-user review, 2026-12-02).
        for kwargs, message in [
            ({"values": [0.1, 0.2]}, "values must be a mapping of territory to number or a pandas Series, got list"),
            ({"values": {"Peru": math.inf}}, "value for 'Peru' must be finite"),
            ({"values": {"Peru": -math.inf}}, "value for 'Peru' must be finite"),
            ({"ax": 5}, "board: ax must be a matplotlib Axes, got 5"),
            ({"labels": "yes"}, "labels must be True or False, got 'yes'"),
            ({"continents": 1}, "continents must be True or False, got 1"),
            ({"legend": None}, "legend must be True or False, got None"),
            ({"wrap": "no"}, "wrap must be True or False, got 'no'"),
        ]:
            with pytest.raises(InvalidArgumentError, match=message):
                board(state, **kwargs)
        assert plt.get_fignums() == []  # refused before a figure was made
        for bad in (state, None, 3):
            with pytest.raises(InvalidArgumentError, match=r"layout needs a riskmath\.Board"):
                layout(bad)

    def test_draws_on_the_given_axes_and_never_opens_more(self):
        figure, ax = plt.subplots()
        assert board(Board.from_dict(TOY), ax) is ax
        assert plt.get_fignums() == [figure.number]
        board(Board.from_dict(TOY))
        assert len(plt.get_fignums()) == 2

    def test_custom_board_without_positions(self):
        toy = Board.from_dict(TOY)
        ax = board(toy)
        centres = [c.center for c in drawn(ax, "territory")]
        assert centres == [pytest.approx(xy) for xy in layout(toy).values()]
        assert len(drawn(ax, "border")) == 2
        assert drawn(ax, "wrap") == []
        again = board(Board.from_dict(TOY))
        assert [c.center for c in drawn(again, "territory")] == centres


class TestSvg:
    def test_svg_text(self, state):
        before = plt.get_fignums()
        svg = board_svg(state)
        assert svg.startswith("<?xml")
        assert "<svg" in svg
        assert svg.rstrip().endswith("</svg>")
        assert svg.count('id="territory:') == 42
        assert "Kamchatka" in svg  # text stays text
        assert plt.get_fignums() == before
        assert board_svg(state) == svg

    @pytest.mark.slow  # another whole map, about 0.8 s
    def test_svg_passes_keywords(self, state):
        svg = board_svg(state, values=rm.evaluate.threats(state)["fall_probability"], labels=False, figsize=(6, 4))
        assert 'id="label:' not in svg
        assert 'width="432pt"' in svg

    def test_svg_refuses_axes(self, state):
        _, ax = plt.subplots()
        with pytest.raises(InvalidArgumentError, match="do not pass ax"):
            board_svg(state, ax=ax)


def test_a_board_is_drawn_from_its_name_or_a_game_too():
    # plots.board("classic"), plots.board(rm.Game(2)) and plots.layout("classic") were refused, while Game and the
    # environments take boards by name (API review).
    import riskmath as rm

    assert layout("classic") == layout(rm.Board.classic())
    ax = board("south_america_africa")
    assert len(ax.patches) >= len(rm.Board.load("south_america_africa"))
    plt.close(ax.figure)
    ax = board(rm.Game(2))
    plt.close(ax.figure)


def test_a_colour_scale_that_is_empty_or_not_finite_is_refused():
    # vmin=1, vmax=0 drew without complaint on a scale of vmin + 1, so the colours did not mean what was set
    # (hostile CLI review, 2026-12-03); equal values with no limits given still draw, in one colour.
    state = rm.Game(3).new_initial_state(seed=1, auto_chance=True)
    for limits, message in [
        ({"vmin": 1, "vmax": 0}, "vmin (1) must be below vmax (0)"),
        ({"vmin": 0.5, "vmax": 0.5}, "vmin (0.5) must be below vmax (0.5)"),
        ({"vmin": 2}, "vmin (2) must be below vmax (1.0); a limit not given comes from the values"),
        ({"vmax": math.nan}, "vmax must be a finite number (or None), got nan"),
        ({"vmin": "0"}, "vmin must be a finite number (or None), got '0'"),
    ]:
        with pytest.raises(InvalidArgumentError, match=re.escape(message)):
            board(state, values={"Alaska": 0.5}, **limits)
    for values in ({"Alaska": 5.0, "Peru": 5.0}, {"Alaska": 0.5}):
        ax = board(state, values=values)
        plt.close(ax.figure)


def test_board_svg_names_its_own_unknown_keywords():
    with pytest.raises(InvalidArgumentError, match="board_svg got unknown keyword"):
        board_svg("classic", bogus=1)
