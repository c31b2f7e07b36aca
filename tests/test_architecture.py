"""The package's shape: layers that import only downwards, no import cycles, no module shadowed by a function.

The layers, bottom to top, and the modules each holds are the one list in ``riskmath/_layers.py``;
docs/architecture.rst describes them (its picture is drawn from the same list).

Every import counts, at module level or inside a function, except those under ``if TYPE_CHECKING:``
(annotations only).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import riskmath
from riskmath._layers import layer_of as find_layer
from riskmath._layers import package_modules

ROOT = Path(riskmath.__file__).parent

#: Third-party packages a layer may not import (the maths and the rules have no pictures, no I/O libraries).
FORBIDDEN = {
    0: {"numpy", "scipy", "pandas", "matplotlib"},
    1: {"matplotlib", "tqdm", "dask"},
    2: {"matplotlib", "pandas", "tqdm", "dask"},
    3: {"matplotlib", "tqdm", "dask"},
    4: {"matplotlib", "tqdm", "dask"},
    6: {"matplotlib", "pandas", "tqdm", "dask"},
}


MODULES = package_modules(ROOT)


def layer_of(module: str) -> int:
    layer = find_layer(module)
    if layer is None:
        raise AssertionError(
            f"{module} belongs to no layer: add it to LAYERS in riskmath/_layers.py and to docs/architecture.rst"
        )
    return layer.number


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(module: str) -> set[str]:
    """Every module ``module`` imports at run time (absolute names), TYPE_CHECKING blocks left out."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")
                parent = parent[: len(parent) - node.level + 1]
                base = ".".join([*parent, base]) if base else ".".join(parent)
            found.add(base)
            for alias in node.names:  # ``from riskmath.game import actions`` imports a module
                if f"{base}.{alias.name}" in MODULES:
                    found.add(f"{base}.{alias.name}")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def internal_imports(module: str) -> set[str]:
    return {name for name in imports_of(module) if name in MODULES and name != module}


def test_every_module_has_a_layer():
    for module in MODULES:
        layer_of(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_go_down(module):
    mine = layer_of(module)
    upward = sorted(name for name in internal_imports(module) if layer_of(name) > mine)
    assert not upward, f"{module} (layer {mine}) imports from a layer above: {upward}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_forbidden_third_party_imports(module):
    banned = FORBIDDEN.get(layer_of(module), set())
    used = {name.split(".")[0] for name in imports_of(module)}
    assert not used & banned, f"{module} imports {sorted(used & banned)}"


def test_no_import_cycles():
    graph = {module: internal_imports(module) for module in MODULES}
    # A package's __init__ re-exports its modules; an import of ``riskmath.game`` from inside the package
    # would be a cycle through it, so it counts as one.
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_checker_sees_an_upward_import(tmp_path):
    # The checks above must be able to fail: a fake odds module importing the game is caught.
    fake = ROOT / "odds" / "_fake_for_test.py"
    assert not fake.exists()
    MODULES["riskmath.odds._fake_for_test"] = tmp_path / "fake.py"
    try:
        (tmp_path / "fake.py").write_text("def f():\n    from riskmath.game.state import GameState\n")
        assert internal_imports("riskmath.odds._fake_for_test") == {"riskmath.game.state"}
        with pytest.raises(AssertionError, match="layer above"):
            test_imports_only_go_down("riskmath.odds._fake_for_test")
    finally:
        del MODULES["riskmath.odds._fake_for_test"]


def _packages() -> list[str]:
    return [name for name, path in MODULES.items() if path.name == "__init__.py"]


@pytest.mark.parametrize("package", sorted(_packages()))
def test_no_module_is_shadowed_by_a_reexported_name(package):
    # ``import riskmath.simulate as sim`` once gave the function: no submodule may share a name that its
    # package (or riskmath itself) re-exports as something else.
    pkg = importlib.import_module(package)
    top = set(riskmath.__all__)
    for info in pkgutil.iter_modules(pkg.__path__):
        exported = getattr(pkg, "__all__", [])
        assert info.name not in exported, f"{package}.{info.name} is shadowed by {package}.__all__"
        if package == "riskmath":
            assert info.name not in top, f"riskmath.{info.name} is shadowed by riskmath.{info.name}"
