"""The package's layers, bottom to top: the one list that the architecture test and the docs read.

Each :class:`Layer` has a number, a name, a one-line role and the module
prefixes it holds; a module belongs to the layer of its longest prefix
(:func:`layer_of`), and may import only its own layer and those below.
``tests/test_architecture.py`` enforces that and checks that
``docs/architecture.rst`` names every module of the package (found by
:func:`package_modules`, under :func:`page_name`) in its layer's section;
``docs/architecture_layers.py`` draws the layers with the modules it finds.
Nothing in the library imports this module; it imports only the standard
library.

Examples
--------
>>> layer_of("riskmath.odds.battles").name
'odds'
>>> layer_of("riskmath").number, layer_of("riskmath.cli._output").number
(8, 8)
>>> layer_of("riskmath.somewhere_new") is None
True
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

__all__ = ["LAYERS", "Layer", "layer_of", "package_modules", "page_name"]


class Layer(NamedTuple):
    """One layer: its number (0 at the bottom), name, role and the module prefixes it holds."""

    number: int
    name: str
    role: str
    #: Dotted module names; each also holds the modules under it, except ``riskmath`` (the package itself).
    prefixes: tuple[str, ...]


#: The layers, bottom to top.
LAYERS = (
    Layer(
        0,
        "foundations",
        "errors, argument checks, HTML registry, the layer list",
        ("riskmath.errors", "riskmath._validation", "riskmath._html", "riskmath._version", "riskmath._layers"),
    ),
    Layer(1, "odds", "the exact maths (no I/O, no game state)", ("riskmath.odds",)),
    Layer(2, "game", "the rules model", ("riskmath.game",)),
    Layer(3, "evaluate", "positions valued from the odds", ("riskmath.evaluate",)),
    Layer(4, "agents", "who decides for a seat", ("riskmath.agents",)),
    Layer(5, "sim", "many games, tournaments", ("riskmath.sim",)),
    Layer(6, "envs", "integer actions and observations for learning agents", ("riskmath.envs",)),
    Layer(7, "plots", "pictures and notebook HTML (no mathematics)", ("riskmath.plots",)),
    Layer(
        8,
        "front",
        "the public surface",
        ("riskmath", "riskmath.cli", "riskmath.__main__", "riskmath.tournament"),
    ),
)


def layer_of(module: str) -> Layer | None:
    """The layer holding ``module`` (a dotted name), or None if no layer does.

    The longest matching prefix wins; the prefix ``riskmath`` matches the
    package itself only, so that a new top-level module belongs to no layer
    until it is given one.
    """
    best: tuple[int, Layer] | None = None
    for layer in LAYERS:
        for prefix in layer.prefixes:
            matches = module == prefix or (prefix != "riskmath" and module.startswith(prefix + "."))
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), layer)
    return None if best is None else best[1]


def package_modules(root: Path | None = None) -> dict[str, Path]:
    """Every module of the package under ``root`` (riskmath's folder by default): dotted name to file, sorted.

    A package is named for its ``__init__.py``; private modules are included.
    """
    root = Path(__file__).parent if root is None else root
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def page_name(path: Path) -> str:
    """How docs/architecture.rst and its picture name the module in ``path``: ``dice``, or ``odds/__init__``.

    Examples
    --------
    >>> page_name(Path("riskmath/odds/dice.py")), page_name(Path("riskmath/cli/__init__.py"))
    ('dice', 'cli/__init__')
    """
    return f"{path.parent.name}/__init__" if path.name == "__init__.py" else path.stem
