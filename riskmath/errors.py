"""Exceptions raised by riskmath.

Every error riskmath raises on purpose derives from :class:`RiskmathError`, so
``except riskmath.RiskmathError`` catches them all.  Errors caused by a bad
argument value also derive from :class:`ValueError`, so code that already
catches ``ValueError`` keeps working.  Each message names the offending value.
"""

from __future__ import annotations

__all__ = [
    "InvalidArgumentError",
    "RiskmathError",
    "RulesError",
    "UndefinedStatisticError",
]


class RiskmathError(Exception):
    """Base class of every exception raised by riskmath."""


class InvalidArgumentError(RiskmathError, ValueError):
    """An argument has a bad value: a negative or non-integer army count,
    zero dice, an unknown option name, and so on."""


class RulesError(RiskmathError, ValueError):
    """A rules object is inconsistent, e.g. zero dice or one-sided dice."""


class UndefinedStatisticError(RiskmathError, ValueError):
    """A conditional statistic was asked for on an event of probability zero,
    e.g. the expected survivors *given a win* of a battle that cannot be won."""
