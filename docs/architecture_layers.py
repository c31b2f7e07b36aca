"""Draw riskmath's layers for docs/architecture.rst (the ``.. plot::`` directive runs this file).

One box per layer, bottom to top, with the modules each layer holds; an arrow between two layers means
"may import".  The layers are those of ``tests/test_architecture.py`` (``LAYERS``), which enforces them.
Run ``python docs/architecture_layers.py out.png`` to write the picture by hand.
"""

from __future__ import annotations

import sys

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

# Bottom to top: (layer, what it owns, its modules).
LAYERS = [
    ("foundations", "errors, argument checks, HTML registry", "errors  _validation  _html  _version"),
    (
        "odds",
        "the exact maths (no I/O, no game state)",
        "dice  battles  matrix  conquests  planning  plans  policy  tables",
    ),
    (
        "game",
        "the rules model",
        "board  cards  rules  missions  actions  phase  game  state  legality  transitions  chance  serialize",
    ),
    ("evaluate", "positions valued from the odds", "outlook  _routes"),
    ("agents", "who decides for a seat", "basic (random, aggressive)  odds  search"),
    ("sim", "many games, tournaments", "simulation  tournaments"),
    ("envs", "integer actions and observations for learning agents", "codec  observations"),
    ("plots", "pictures and notebook HTML (no maths)", "odds  boardmap  games  notebook"),
    ("front", "the public surface", "riskmath/__init__  cli  __main__  tournament (old path)"),
]


def draw() -> plt.Figure:
    fig, ax = plt.subplots(figsize=(9, 6.4))
    height, gap = 0.62, 0.28
    for k, (name, role, modules) in enumerate(LAYERS):
        y = k * (height + gap)
        colour = plt.cm.Blues(0.12 + 0.05 * k)
        ax.add_patch(
            FancyBboxPatch((0, y), 10, height, boxstyle="round,pad=0.02,rounding_size=0.08", fc=colour, ec="0.3")
        )
        ax.text(0.15, y + height * 0.66, f"{k}  {name}", fontsize=11, fontweight="bold", va="center")
        ax.text(2.3, y + height * 0.66, role, fontsize=9, va="center", style="italic")
        ax.text(0.15, y + height * 0.25, modules, fontsize=8, va="center", family="monospace", color="0.2")
        if k:
            ax.annotate(
                "", xy=(9.6, y - gap + 0.02), xytext=(9.6, y - 0.02), arrowprops={"arrowstyle": "->", "color": "0.25"}
            )
    ax.text(10.25, (len(LAYERS) - 1) * (height + gap) / 2 + 0.2, "imports only go down", rotation=90, ha="left",
            va="center", fontsize=9, color="0.25")  # fmt: skip
    ax.set_xlim(-0.1, 10.6)
    ax.set_ylim(-0.1, len(LAYERS) * (height + gap))
    ax.axis("off")
    fig.tight_layout()
    return fig


if __name__ == "__main__" and len(sys.argv) > 1:
    draw().savefig(sys.argv[1], dpi=100)
else:
    draw()
