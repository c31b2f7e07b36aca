"""Argument checks shared by the public entry points (private module)."""

from __future__ import annotations

import numbers
from collections.abc import Iterable

from riskmath.errors import InvalidArgumentError


def check_int(name: str, value: object, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as a Python ``int`` or raise :class:`InvalidArgumentError`.

    Accepts Python and NumPy integers; rejects ``bool``, floats (even ``3.0``),
    strings and anything outside ``[minimum, maximum]``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    result = int(value)
    if result < minimum:
        raise InvalidArgumentError(f"{name} must be >= {minimum}, got {result}")
    if maximum is not None and result > maximum:
        raise InvalidArgumentError(f"{name} must be <= {maximum}, got {result}")
    return result


def check_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """Return ``value`` if it is one of ``choices``, else raise."""
    options = tuple(choices)
    if not isinstance(value, str) or value not in options:
        raise InvalidArgumentError(f"{name} must be one of {', '.join(map(repr, options))}; got {value!r}")
    return value
