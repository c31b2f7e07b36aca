"""Sphinx configuration for the riskmath documentation (``make docs``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import riskmath

project = "riskmath"
author = "riskmath developers"
copyright = "riskmath developers"
version = release = riskmath.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
    "matplotlib.sphinxext.plot_directive",
]
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 100)]

exclude_patterns = ["_build", "jupyter_execute", "strength_table.rst"]  # included by strategy.rst
html_theme = "pydata_sphinx_theme"
html_title = f"riskmath {version}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}

# The example notebooks live in examples/ (outputs stripped in git); each build copies them here and
# myst-nb executes them, so the rendered pages always show what the code does now.
_HERE = Path(__file__).resolve().parent
_NOTEBOOKS = _HERE / "notebooks"
_NOTEBOOKS.mkdir(exist_ok=True)
for _book in sorted((_HERE.parent / "examples").glob("*.ipynb")):
    shutil.copyfile(_book, _NOTEBOOKS / _book.name)
os.environ.pop("MPLBACKEND", None)  # kernels draw inline as in Jupyter (make docs sets Agg for the plot directive)
nb_execution_mode = "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_merge_streams = True

numpydoc_show_class_members = False

# There is no network at build time, so intersphinx cannot fetch the inventories
# of the standard library, NumPy, pandas, SciPy and Matplotlib.  Their types are
# still written as references by autodoc (signatures) and by the docstrings;
# nitpicky mode (-n) would flag each one, so they are listed here instead.
nitpick_ignore = [
    ("py:class", "collections.abc.Callable"),
    ("py:class", "collections.abc.Iterable"),
    ("py:class", "collections.abc.Iterator"),
    ("py:class", "collections.abc.Mapping"),
    ("py:class", "collections.abc.Sequence"),
    ("py:class", "os.PathLike"),
    ("py:class", "fractions.Fraction"),
    ("py:class", "Fraction"),
    ("py:class", "TerritoryKey"),
    ("py:class", "matplotlib.figure.Figure"),
    ("py:class", "numpy.integer"),
    ("py:class", "numpy.ndarray"),
    ("py:class", "pandas.DataFrame"),
    ("py:class", "pandas.MultiIndex"),
    ("py:class", "pandas.Series"),
    ("py:class", "scipy.sparse.csr_array"),
    ("py:class", "matplotlib.axes.Axes"),
    # Names as they appear in annotations that are only imported for type checking.
    ("py:class", "Axes"),
    ("py:class", "Executor"),
    ("py:class", "random.Random"),
    ("py:class", "concurrent.futures.Executor"),
    # mission_complete's structural type (a GameState, named by what it needs so that missions imports nothing above).
    ("py:class", "riskmath.game.missions._HasMissions"),
]
nitpick_ignore_regex = [
    ("py:class", r"(pd|np)\.[A-Za-z_.]+"),
]

# Members in the order of the source (inputs, distributions, statistics), not alphabetical.
autodoc_member_order = "bysource"
