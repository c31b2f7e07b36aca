"""Draw riskmath's layers for docs/architecture.rst (the ``.. plot::`` directive runs this file).

One box per layer, bottom to top, with the modules each layer holds; an arrow between two layers means
"may import".  The layers are the list in ``riskmath/_layers.py`` (which ``tests/test_architecture.py``
enforces), and each box lists the modules found in the package, named as the page names them, so that none
can go missing.  Run ``python docs/architecture_layers.py out.png`` to write the picture by hand.
"""

from __future__ import annotations

import sys
import textwrap

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

from riskmath._layers import LAYERS, layer_of, package_modules, page_name

#: Characters of module names on one line of a box.
WIDTH = 96  # characters of monospace text that fit in a box at fontsize 8


def modules_by_layer() -> list[str]:
    """Each layer's modules as the page names them, bottom to top, separated by two spaces."""
    names: list[list[str]] = [[] for _ in LAYERS]
    for module, path in package_modules().items():
        layer = layer_of(module)
        if layer is not None:  # (the architecture test fails on a module of no layer)
            names[layer.number].append(page_name(path))
    return ["  ".join(each) for each in names]


def draw() -> plt.Figure:
    lines = [textwrap.wrap(modules, WIDTH) for modules in modules_by_layer()]
    line, gap, top = 0.2, 0.28, 0.42  # heights: a line of module names, between boxes, the title row
    heights = [top + line * len(wrapped) for wrapped in lines]
    fig, ax = plt.subplots(figsize=(9, 1.0 + 0.85 * sum(heights) + 0.2 * len(LAYERS)))
    y = 0.0
    for layer, wrapped, height in zip(LAYERS, lines, heights, strict=True):
        colour = plt.cm.Blues(0.12 + 0.05 * layer.number)
        ax.add_patch(
            FancyBboxPatch((0, y), 10, height, boxstyle="round,pad=0.02,rounding_size=0.08", fc=colour, ec="0.3")
        )
        title = y + height - top / 2
        ax.text(0.15, title, f"{layer.number}  {layer.name}", fontsize=11, fontweight="bold", va="center")
        ax.text(2.3, title, layer.role, fontsize=9, va="center", style="italic")
        for k, text in enumerate(wrapped):
            ax.text(0.15, title - top / 2 - line * (k + 0.5), text, fontsize=8, va="center", family="monospace",
                    color="0.2")  # fmt: skip
        if layer.number:
            ax.annotate(
                "", xy=(9.6, y - gap + 0.02), xytext=(9.6, y - 0.02), arrowprops={"arrowstyle": "->", "color": "0.25"}
            )
        y += height + gap
    ax.text(10.25, y / 2, "imports only go down", rotation=90, ha="left", va="center", fontsize=9, color="0.25")
    ax.set_xlim(-0.1, 10.6)
    ax.set_ylim(-0.1, y)
    ax.axis("off")
    fig.tight_layout()
    return fig


if __name__ == "__main__" and len(sys.argv) > 1:
    draw().savefig(sys.argv[1], dpi=100)
else:
    draw()
