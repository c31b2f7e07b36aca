"""Sphinx configuration for the riskmath documentation (``make docs``)."""

from __future__ import annotations

import riskmath

project = "riskmath"
author = "riskmath developers"
copyright = "riskmath developers"
version = release = riskmath.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "numpydoc",
]

exclude_patterns = ["_build"]
html_theme = "alabaster"

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
]
nitpick_ignore_regex = [
    ("py:class", r"(pd|np)\.[A-Za-z_.]+"),
]

# Members in the order of the source (inputs, distributions, statistics), not alphabetical.
autodoc_member_order = "bysource"
