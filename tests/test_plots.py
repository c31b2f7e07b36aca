"""Plots return their Axes and draw what they are given."""

from __future__ import annotations

from fractions import Fraction

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_rgba

import riskmath as rm
from riskmath import plots
from riskmath.errors import InvalidArgumentError
from riskmath.plots import odds_heatmap


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def bar_heights(ax):
    return [bar.get_height() for bar in ax.patches]


def legend_texts(ax):
    return [text.get_text() for text in ax.get_legend().get_texts()]


# -- odds_heatmap -------------------------------------------------------------


def test_odds_heatmap_draws_the_table():
    table = rm.odds_table(5, 4)
    fig, ax = plt.subplots()
    returned = odds_heatmap(table, ax=ax, title="test")
    assert returned is ax
    image = ax.get_images()[0]
    np.testing.assert_allclose(image.get_array(), table.to_numpy())
    assert image.get_clim() == (0.0, 1.0)
    assert ax.get_title() == "test"
    assert len(ax.texts) == 20  # annotated cells
    plt.close(fig)


def test_odds_heatmap_new_axes_for_other_statistics():
    table = rm.odds_table(30, 30, statistic="expected_rolls")
    ax = odds_heatmap(table)
    assert len(ax.texts) == 0  # too big to annotate
    assert ax.get_images()[0].get_clim()[1] > 1
    assert len(ax.collections) == 0  # no 50 % contour for a non-probability
    plt.close(ax.figure)


def test_odds_heatmap_contour_at_one_half():
    table = rm.odds_table(8, 8)
    ax = odds_heatmap(table)
    (contour,) = ax.collections
    assert list(contour.levels) == [0.5]
    # Every vertex of the line lies where the table (interpolated) is 0.5: between a cell below and one above.
    vertices = np.concatenate([path.vertices for path in contour.get_paths()])
    assert len(vertices) > 2
    values = table.to_numpy()
    for x, y in vertices:
        c, r = int(np.floor(x)), int(np.floor(y))
        cells = values[r : r + 2, c : c + 2]
        assert cells.min() <= 0.5 + 1e-12
        assert cells.max() >= 0.5 - 1e-12
    # The level is marked on the colour bar too.
    colorbar_axes = ax.figure.axes[1]
    assert len(colorbar_axes.collections) >= 1


def test_odds_heatmap_contour_options():
    table = rm.odds_table(8, 8)
    assert len(odds_heatmap(table, contour=None).collections) == 0
    (contour,) = odds_heatmap(table, contour=0.9).collections
    assert list(contour.levels) == [0.9]
    # A table that never crosses the level: no contour, and no Matplotlib warning.
    never = rm.odds_table(8, 8).iloc[6:, :1]
    assert never.to_numpy().min() > 0.5
    assert len(odds_heatmap(never).collections) == 0


def test_odds_heatmap_contour_for_unnamed_probabilities():
    table = pd.DataFrame(rm.odds_table(6, 6).to_numpy())
    ax = odds_heatmap(table)
    assert ax.get_images()[0].get_clim() == (0.0, 1.0)
    assert len(ax.collections) == 1


@pytest.mark.parametrize("contour", [0, 1, 1.5, -0.1, "half", True])
def test_odds_heatmap_rejects_bad_contour(contour):
    with pytest.raises(InvalidArgumentError, match=repr(contour).replace(".", r"\.")):
        odds_heatmap(rm.odds_table(3, 3), contour=contour)


def test_odds_heatmap_annotations_are_readable():
    table = rm.odds_table(6, 6)
    ax = odds_heatmap(table)
    image = ax.get_images()[0]
    texts = {(round(t.get_position()[1]), round(t.get_position()[0])): t for t in ax.texts}
    assert len(texts) == 36
    for (r, c), text in texts.items():
        value = table.iloc[r, c]
        # Percentages for probabilities.
        if 0.005 <= value < 0.995:
            assert text.get_text() == f"{value:.0%}"
        # Dark text on light cells, light text on dark cells.
        red, green, blue, _ = image.cmap(image.norm(value))
        light_cell = 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.5
        if light_cell:
            assert to_rgba(text.get_color()) == to_rgba("black")
    colors = {to_rgba(t.get_color()) for t in ax.texts}
    assert colors == {to_rgba("black"), to_rgba("white")}  # the table has dark and light cells


def test_odds_heatmap_percentages_never_round_to_certainty():
    table = pd.DataFrame([[0.001, 0.5], [0.998, 1.0]])
    texts = sorted(t.get_text() for t in odds_heatmap(table).texts)
    assert texts == sorted(["<1%", "50%", ">99%", "100%"])


def test_odds_heatmap_two_decimals_for_other_statistics():
    table = rm.odds_table(3, 3, statistic="expected_rolls")
    ax = odds_heatmap(table)
    assert sorted(t.get_text() for t in ax.texts) == sorted(f"{v:.2f}" for v in table.to_numpy().ravel())


def test_odds_heatmap_exact_table():
    table = rm.odds_table(4, 4, exact=True)
    ax = odds_heatmap(table)
    np.testing.assert_allclose(ax.get_images()[0].get_array(), table.to_numpy(dtype=float))
    assert len(ax.collections) == 1


# -- roll_outcomes ------------------------------------------------------------


def test_roll_outcomes_three_against_two():
    odds = rm.roll_odds(3, 2)
    ax = plots.roll_outcomes(odds)
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert labels == ["A loses 2", "each loses 1", "D loses 2"]
    assert bar_heights(ax) == pytest.approx([float(odds[(2, 0)]), float(odds[(1, 1)]), float(odds[(0, 2)])])
    colors = [bar.get_facecolor() for bar in ax.patches]
    assert colors == [to_rgba(plots.DEFENDER_COLOUR), to_rgba(plots.EVEN_COLOUR), to_rgba(plots.ATTACKER_COLOUR)]
    # Each bar labelled with its exact probability.
    assert "1445/3888" in {line for text in ax.texts for line in text.get_text().splitlines()}


def test_roll_outcomes_one_against_one_and_unequal_losses():
    ax = plots.roll_outcomes(rm.roll_odds(1, 1))
    assert [label.get_text() for label in ax.get_xticklabels()] == ["A loses 1", "D loses 1"]
    assert bar_heights(ax) == pytest.approx([7 / 12, 5 / 12])
    ax = plots.roll_outcomes(rm.roll_odds(3, 3))
    labels = [label.get_text() for label in ax.get_xticklabels()]
    assert labels == ["A loses 3", "A loses 2, D loses 1", "A loses 1, D loses 2", "D loses 3"]


def test_roll_outcomes_draws_on_the_given_axes():
    fig, ax = plt.subplots()
    assert plots.roll_outcomes(rm.roll_odds(2, 2), ax=ax, title="t") is ax
    assert ax.get_title() == "t"
    assert len(fig.axes) == 1


@pytest.mark.parametrize("bad", [(3, 2), {(0, 2): 1.0}, None])
def test_roll_outcomes_rejects_other_objects(bad):
    with pytest.raises(InvalidArgumentError, match="RollOdds") as info:
        plots.roll_outcomes(bad)
    assert repr(bad) in str(info.value)


# -- battle_outcomes ----------------------------------------------------------


def battle_bars(ax):
    """``{x: height}`` of the attacker's (x > 0) and the defender's (x < 0) bars."""
    return {round(bar.get_x() + bar.get_width() / 2): bar.get_height() for bar in ax.patches}


def test_battle_outcomes_heights_are_the_final_distribution():
    b = rm.battle(5, 3)
    ax = plots.battle_outcomes(b)
    assert len(ax.patches) == 5 + 3
    bars = battle_bars(ax)
    outcomes = b.outcomes
    for a in range(1, 6):
        assert bars[a] == pytest.approx(outcomes.get((a, 0), 0.0))
    for d in range(1, 4):
        assert bars[-d] == pytest.approx(outcomes.get((0, d), 0.0))
    assert sum(bar.get_height() for bar in ax.patches) == pytest.approx(1.0)
    colors = {bar.get_facecolor() for bar in ax.patches if bar.get_x() > 0}
    assert colors == {to_rgba(plots.ATTACKER_COLOUR)}
    assert legend_texts(ax) == ["attacker wins: attackers left", "defender holds: defenders left"]
    assert f"{b.win_probability:.1%}" in ax.get_title()
    assert ax.get_xticklabels()  # tick labels are the counts, without sign
    assert all(not label.get_text().startswith(("-", "\N{MINUS SIGN}")) for label in ax.get_xticklabels())


def test_battle_outcomes_exact_battle():
    exact = rm.battle(4, 4, exact=True)
    ax = plots.battle_outcomes(exact)
    heights = battle_bars(ax)
    assert all(isinstance(h, float) for h in heights.values())
    assert heights[4] == pytest.approx(float(exact.outcomes[(4, 0)]))
    assert "P(attacker wins) = " + f"{float(exact.win_probability):.1%}" in ax.get_title()


def test_battle_outcomes_with_a_retreat_threshold():
    b = rm.battle(6, 4, stop_at=2)
    ax = plots.battle_outcomes(b)
    bars = battle_bars(ax)
    assert len(ax.patches) == 6 + 4
    held = b.defenders_left_distribution
    for d in range(1, 5):
        assert bars[-d] == pytest.approx(held[d])
    assert sum(bar.get_height() for bar in ax.patches) == pytest.approx(1.0)


def test_battle_outcomes_without_attackers():
    ax = plots.battle_outcomes(rm.battle(0, 3))
    assert bar_heights(ax) == pytest.approx([0.0, 0.0, 1.0])
    assert legend_texts(ax) == ["defender holds: defenders left"]


@pytest.mark.parametrize("bad", [(5, 3), rm.conquest(5, 3), "Battle(5, 3)"])
def test_battle_outcomes_rejects_other_objects(bad):
    with pytest.raises(InvalidArgumentError, match=r"battle must be a riskmath\.Battle") as info:
        plots.battle_outcomes(bad)
    assert repr(bad) in str(info.value)


# -- conquest_reach -----------------------------------------------------------


def test_conquest_reach():
    c = rm.conquest(12, [3, 2, 2])
    ax = plots.conquest_reach(c)
    assert [bar.get_x() + bar.get_width() / 2 for bar in ax.patches] == pytest.approx([1, 2, 3])
    assert bar_heights(ax) == pytest.approx(c.reach_probabilities.tolist())
    (line,) = ax.get_lines()
    assert list(line.get_ydata()) == pytest.approx([c.win_probability] * 2)
    assert legend_texts(ax) == [f"P(all 3 captured) = {c.win_probability:.1%}"]
    assert [label.get_text() for label in ax.get_xticklabels()] == ["1\n(3)", "2\n(2)", "3\n(2)"]
    assert ax.patches[-1].get_facecolor() == to_rgba(plots.ATTACKER_COLOUR)
    assert ax.get_title() == repr(c)


def test_conquest_reach_exact_and_long_paths():
    exact = rm.conquest(8, [2, 2], exact=True)
    ax = plots.conquest_reach(exact)
    assert bar_heights(ax) == pytest.approx([float(p) for p in exact.reach_probabilities])
    long = rm.conquest(40, [2] * 20)
    ax = plots.conquest_reach(long)
    assert len(ax.patches) == 20
    assert len(ax.texts) == 0  # too many bars to label


def test_conquest_reach_rejects_other_objects():
    with pytest.raises(InvalidArgumentError, match=r"Battle\(5, 3\)"):
        plots.conquest_reach(rm.battle(5, 3))


# -- success curves -----------------------------------------------------------


def test_success_curves():
    curves = pd.DataFrame({"a": rm.success_curve([2, 2], 15), "b": rm.success_curve(5, 15)})
    ax = plots.success_curves(curves, thresholds=(0.5,))
    assert [line.get_label() for line in ax.get_lines()[:2]] == ["a", "b"]
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), curves["a"].to_numpy())
    assert ax.get_ylim() == (0, 1.02)


def test_success_vs_attackers_marks_the_armies_needed():
    path = [3, 2, 2]
    needed = rm.armies_needed(path, 0.9)
    ax = plots.success_vs_attackers(path, p=0.9)
    curve, level, vertical = ax.get_lines()
    expected = rm.success_curve(path, 2 * needed)
    np.testing.assert_array_equal(curve.get_xdata(), expected.index)
    np.testing.assert_allclose(curve.get_ydata(), expected.to_numpy())
    assert list(vertical.get_xdata()) == [needed, needed]
    assert list(level.get_ydata()) == [0.9, 0.9]
    assert legend_texts(ax) == ["P(success)", "P = 0.9", f"{needed} armies for P >= 0.9"]
    assert [t.get_text() for t in ax.texts] == [str(needed)]
    assert ax.get_title() == "Taking a path defended by [3, 2, 2]"


def test_success_vs_attackers_options():
    _, ax = plt.subplots()
    rules = rm.CombatRules.three_defender_dice()
    out = plots.success_vs_attackers(10, ax, max_attackers=40, p=Fraction(3, 4), rules=rules, title="x")
    assert out is ax
    curve, _, vertical = ax.get_lines()
    assert curve.get_xdata()[-1] == 40
    np.testing.assert_allclose(curve.get_ydata(), rm.success_curve(10, 40, rules=rules).to_numpy())
    assert vertical.get_xdata()[0] == rm.armies_needed(10, Fraction(3, 4), rules=rules)
    assert ax.get_title() == "x"


@pytest.mark.parametrize(("defenders", "p"), [([3, 0], 0.9), (5, 1.0), (5, "high")])
def test_success_vs_attackers_rejects_bad_input(defenders, p):
    with pytest.raises(InvalidArgumentError):
        plots.success_vs_attackers(defenders, p=p)


# -- policy_map ---------------------------------------------------------------


def test_policy_map_shows_every_state():
    policy = rm.optimal_policy(10, 10, lambda a, d: (d == 0) - (a < 3))
    ax = plots.policy_map(policy)
    assert legend_texts(ax) == ["3 dice", "2 dice", "1 die", "stop"]
    categories = [3, 2, 1, "stop"]
    image = ax.get_images()[0]
    codes = np.asarray(image.get_array())
    assert codes.shape == (10, 10)
    for a in range(1, 11):
        for d in range(1, 11):
            (action,) = policy.action(a, d)
            assert categories[codes[a - 1, d - 1]] == action
    assert image.get_extent() == [0.5, 10.5, 0.5, 10.5]  # pixel centres at the army counts
    # One colour per category, the same in the image and the legend.
    handles = ax.get_legend().legend_handles
    for code, handle in enumerate(handles):
        assert to_rgba(image.cmap(image.norm(code))) == pytest.approx(handle.get_facecolor())
    assert len({tuple(h.get_facecolor()) for h in handles}) == 4


def test_policy_map_plain_policy_and_given_axes():
    _, ax = plt.subplots()
    policy = rm.optimal_policy(5, 4)
    assert plots.policy_map(policy, ax=ax) is ax
    assert legend_texts(ax) == ["3 dice", "2 dice", "1 die"]  # the maximum dice everywhere
    assert repr(policy) in ax.get_title()


def test_policy_categories_order():
    from riskmath.plots.odds import _policy_categories

    assert _policy_categories(["mixed", 1, "stop", 3, 1]) == [3, 1, "stop", "mixed"]


def test_policy_map_rejects_other_objects():
    with pytest.raises(InvalidArgumentError, match=r"policy must be a riskmath\.Policy.*'win'"):
        plots.policy_map("win")


def test_public_names():
    for name in ["battle_outcomes", "conquest_reach", "policy_map", "roll_outcomes", "success_vs_attackers"]:
        assert name in plots.__all__
        assert callable(getattr(plots, name))
