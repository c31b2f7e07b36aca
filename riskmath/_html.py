"""A registry of HTML renderers for rich display in notebooks.

This bottom module imports nothing from riskmath, so that the low layers
(:mod:`riskmath.battle`, :mod:`riskmath.conquest`, :mod:`riskmath.game.state`) can
hand their ``_repr_html_`` to it without depending on the higher ones; the
renderers themselves live in :mod:`riskmath.plots.notebook`, which registers them
here when it is imported.  ``import riskmath`` does not import it (the plots
layer is not needed to compute odds): it installs a loader with
:func:`set_loader`, which the first :func:`render` calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["RENDERERS", "render", "set_loader"]

#: HTML renderers by class name (e.g. ``"Battle"``), filled by :mod:`riskmath.plots.notebook`.
RENDERERS: dict[str, Callable[[Any], str]] = {}

_loader: Callable[[], object] | None = None


def set_loader(loader: Callable[[], object] | None) -> None:
    """Have the next :func:`render` call ``loader()`` first (once), to fill :data:`RENDERERS`."""
    global _loader
    _loader = loader


def render(obj: object) -> str | None:
    """The HTML of ``obj`` from the renderer of its class (or of its nearest base class), or None if none is registered.

    None tells IPython to fall back to the plain ``repr``.
    """
    global _loader
    if _loader is not None:
        load, _loader = _loader, None
        load()
    for cls in type(obj).__mro__:
        renderer = RENDERERS.get(cls.__name__)
        if renderer is not None:
            return renderer(obj)
    return None
