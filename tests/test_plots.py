"""Plots return their Axes and draw what they are given."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

import riskmath as rm
from riskmath.plots import odds_heatmap


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
    plt.close(ax.figure)


def test_success_curves():
    import pandas as pd

    from riskmath.plots import success_curves

    curves = pd.DataFrame({"a": rm.success_curve([2, 2], 15), "b": rm.success_curve(5, 15)})
    ax = success_curves(curves, thresholds=(0.5,))
    assert [line.get_label() for line in ax.get_lines()[:2]] == ["a", "b"]
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), curves["a"].to_numpy())
    assert ax.get_ylim() == (0, 1.02)
    plt.close(ax.figure)
